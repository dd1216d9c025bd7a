/* dt_pending: MPI_Type_free on a datatype that pending requests still use is legal ("any
 * communication that is currently using this datatype will complete normally", MPI 3.1
 * section 4.1.9): both sides free their derived type right after MPI_Isend / MPI_Irecv, then
 * create and free many other types (so that freed memory is reused), and only then wait. The
 * data must arrive where the freed types said: a large message (delivered from the sender's
 * buffer, through its type, at the end of the transfer) and a small one (eager). */
#define MPITEST_NAME "dt_pending"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBLK 40000 /* blocks of 2 ints out of every 3: a 320 KB message */

static int rank;

static void churn(void)
{
  for (int k = 0; k < 200; k++) {
    MPI_Datatype t;
    int lens[3] = {1, 2, 3};
    MPI_Aint disps[3] = {0, 64, 256};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_SHORT, MPI_LONG};
    MPI_Type_create_struct(3, lens, disps, types, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&t);
    void *junk = malloc(256);
    memset(junk, 0xA5, 256);
    free(junk);
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *buf = calloc(3 * NBLK, sizeof(int));
  for (int round = 0; round < 2; round++) {
    int nblk = round == 0 ? NBLK : 4; /* large (rendezvous), then small (eager) */
    MPI_Datatype vec;
    MPI_Type_vector(nblk, 2, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Request req = MPI_REQUEST_NULL;
    memset(buf, 0, 3 * NBLK * sizeof(int));
    if (rank == 0) {
      for (int i = 0; i < 3 * nblk; i++)
        buf[i] = i;
      MPI_Isend(buf, 1, vec, 1, round, MPI_COMM_WORLD, &req);
    } else if (rank == 1) {
      MPI_Irecv(buf, 1, vec, 0, round, MPI_COMM_WORLD, &req);
    }
    MPI_Type_free(&vec);
    CHECK(vec == MPI_DATATYPE_NULL, "MPI_Type_free did not reset the handle");
    churn();
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 1) {
      int bad = 0;
      for (int i = 0; i < 3 * nblk; i++)
        bad += buf[i] != (i % 3 == 2 ? 0 : i);
      CHECK(!bad, "round %d: %d ints wrong after the type was freed", round, bad);
    }
  }
  free(buf);
  return mpitest_finalize();
}
