/* p2p_truncate: a message longer than the receive buffer fails with MPI_ERR_TRUNCATE (as
 * the return code under MPI_ERRORS_RETURN and in status.MPI_ERROR of multiple completions,
 * with MPI_ERR_IN_STATUS), the part that fits is received and nothing past the buffer is
 * written; small (detached) and large (rendezvous) messages. Needs 2 ranks. */
#define MPITEST_NAME "p2p_truncate"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

#define BIG 40000

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size == 2, "2 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int *s = malloc(BIG * sizeof(int)), *r = malloc((BIG + 1) * sizeof(int));
  for (int i = 0; i < BIG; i++)
    s[i] = i + 1;
  const int lens[2] = {10, BIG};
  if (rank == 0) {
    for (int k = 0; k < 2; k++)
      MPI_Send(s, lens[k], MPI_INT, 1, k, MPI_COMM_WORLD);
    for (int k = 0; k < 2; k++)
      MPI_Send(s, lens[k], MPI_INT, 1, 10 + k, MPI_COMM_WORLD);
  } else {
    /* blocking receive: half the message fits */
    for (int k = 0; k < 2; k++) {
      int half = lens[k] / 2;
      for (int i = 0; i <= BIG; i++)
        r[i] = -1;
      MPI_Status st;
      int rc = MPI_Recv(r, half, MPI_INT, 0, k, MPI_COMM_WORLD, &st);
      CHECK(class_of(rc) == MPI_ERR_TRUNCATE, "len %d: Recv returned %d", lens[k], rc);
#ifndef MPICH_VERSION /* MPICH 4.0 leaves the buffer alone on truncation */
      CHECK(r[0] == 1 && r[half - 1] == half, "len %d: the part that fits: %d %d", lens[k], r[0],
            r[half - 1]);
#endif
      CHECK(r[half] == -1, "len %d: wrote past the buffer", lens[k]);
    }
    /* multiple completion: one good, one truncated */
    MPI_Request rq[2];
    MPI_Status st[2];
    static int ok[BIG];
    for (int i = 0; i <= BIG; i++)
      r[i] = -1;
    MPI_Irecv(r, 3, MPI_INT, 0, 10, MPI_COMM_WORLD, &rq[0]);    /* 10 ints into 3 */
    MPI_Irecv(ok, BIG, MPI_INT, 0, 11, MPI_COMM_WORLD, &rq[1]); /* fits */
    int rc = MPI_Waitall(2, rq, st);
    CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "Waitall returned %d", rc);
    CHECK(class_of(st[0].MPI_ERROR) == MPI_ERR_TRUNCATE, "status 0 error %d", st[0].MPI_ERROR);
    /* MPI allows MPI_ERR_PENDING for requests left incomplete after an error (MPICH) */
    CHECK(st[1].MPI_ERROR == MPI_SUCCESS || st[1].MPI_ERROR == MPI_ERR_PENDING,
          "status 1 error %d", st[1].MPI_ERROR);
    if (st[1].MPI_ERROR == MPI_ERR_PENDING)
      MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    CHECK(r[3] == -1 && ok[BIG - 1] == BIG, "data after Waitall");
#ifndef MPICH_VERSION
    CHECK(r[2] == 3 && st[1].MPI_ERROR == MPI_SUCCESS,
          "Waitall: truncated part, or not all completed");
#endif
  }
  free(s);
  free(r);
  return mpitest_finalize();
}
