/* p2p_globals: send and receive buffers that are global variables, under
 * smpi/privatization (each rank has its own copy): the data must come from the sender's copy
 * and land in the receiver's, for detached and rendezvous messages, contiguous and strided,
 * whichever rank runs when the transfer ends. Any even number of ranks; under a real MPI it
 * is an ordinary exchange. */
#define MPITEST_NAME "p2p_globals"
#include "mpitest.h"

#include <stdio.h>

#define BIG 30000 /* doubles: rendezvous */
static double out_big[BIG], in_big[BIG];
static int out_small[8], in_small[8];
static double strided[2 * 100];

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = rank ^ 1;
  if (peer >= size) { /* the last of an odd number of ranks */
    return mpitest_finalize();
  }
  for (int i = 0; i < BIG; i++)
    out_big[i] = rank * 1e6 + i;
  for (int i = 0; i < 8; i++)
    out_small[i] = rank * 100 + i;
  for (int i = 0; i < 200; i++)
    strided[i] = i % 2 ? -1 : rank + i / 2;
  MPI_Datatype vec;
  MPI_Type_vector(100, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  MPI_Request rq[6];
  double got_strided[100];
  MPI_Irecv(in_big, BIG, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(in_small, 8, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
  MPI_Irecv(got_strided, 100, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(out_big, BIG, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &rq[3]);
  MPI_Isend(out_small, 8, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[4]);
  MPI_Isend(strided, 1, vec, peer, 3, MPI_COMM_WORLD, &rq[5]);
  MPI_Waitall(6, rq, MPI_STATUSES_IGNORE);
  /* each array: its first wrong element only */
  for (int i = 0, ok = 1; i < BIG && ok; i++) {
    ok = in_big[i] == peer * 1e6 + i;
    CHECK(ok, "in_big[%d] = %g", i, in_big[i]);
  }
  for (int i = 0, ok = 1; i < 8 && ok; i++) {
    ok = in_small[i] == peer * 100 + i;
    CHECK(ok, "in_small[%d] = %d", i, in_small[i]);
  }
  for (int i = 0, ok = 1; i < 100 && ok; i++) {
    ok = got_strided[i] == peer + i;
    CHECK(ok, "strided[%d] = %g", i, got_strided[i]);
  }
  /* the other direction of the vector: contiguous into the global strided array */
  double flat[100];
  for (int i = 0; i < 100; i++)
    flat[i] = 1000 + rank * 100 + i;
  MPI_Sendrecv(flat, 100, MPI_DOUBLE, peer, 4, strided, 1, vec, peer, 4, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int i = 0, ok = 1; i < 200 && ok; i++) {
    double want = i % 2 ? -1 : 1000 + peer * 100 + i / 2;
    ok = strided[i] == want;
    CHECK(ok, "strided[%d] = %g, expected %g", i, strided[i], want);
  }
  MPI_Type_free(&vec);
  return mpitest_finalize();
}
