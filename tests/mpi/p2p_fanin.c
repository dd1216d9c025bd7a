/* p2p_fanin: back-to-back fan-ins, the traffic of a linear MPI_Reduce. Every rank sends a
 * small vector to rank 0, ROUNDS times in a row without waiting; rank 0 receives them by
 * source, from the last rank down (as Open MPI's linear reduce does), and checks the sums.
 * With many ranks, rank 0's queues hold hundreds of unexpected messages: the cost of a
 * match must not grow with them (scalability check: p2p_fanin ROUNDS COUNT time, which also
 * prints rank 0's simulated end date).
 * Works with any number of ranks. */
#define MPITEST_NAME "p2p_fanin"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 8;
  int count = argc > 2 ? atoi(argv[2]) : 4;
  double *v = malloc((size_t)count * sizeof *v), *acc = malloc((size_t)count * sizeof *acc);
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < count; i++)
      v[i] = rank + r * 0.5 + i;
    if (rank != 0) {
      MPI_Send(v, count, MPI_DOUBLE, 0, r, MPI_COMM_WORLD);
      continue;
    }
    for (int i = 0; i < count; i++)
      acc[i] = v[i];
    for (int src = size - 1; src > 0; src--) {
      MPI_Recv(v, count, MPI_DOUBLE, src, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < count; i++)
        acc[i] += v[i];
    }
    /* sum over ranks of (rank + r/2 + i) */
    for (int i = 0, ok = 1; i < count && ok; i++) {
      double want = (double)size * (size - 1) / 2 + size * (r * 0.5 + i);
      ok = acc[i] == want;
      CHECK(ok, "round %d element %d: %g, expected %g", r, i, acc[i], want);
    }
  }
  if (rank == 0 && argc > 3)
    printf("p2p_fanin: rank 0 done at %.9f s\n", MPI_Wtime());
  free(v);
  free(acc);
  return mpitest_finalize();
}
