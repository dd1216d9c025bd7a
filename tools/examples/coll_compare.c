/* The same collectives under different algorithms.
 *
 *   smpirun -np 16 --cfg=smpi/bcast:binomial_tree build/tools/examples/coll_compare
 *   smpirun -np 16 --cfg=smpi/bcast:flattree      build/tools/examples/coll_compare
 *   smpirun -help-coll                            (every algorithm, with a description)
 *
 * MPI says what a collective computes, not how: an implementation picks an algorithm, i.e. a
 * pattern of point-to-point messages, by the message size and the number of ranks. This
 * program times MPI_Bcast and MPI_Allreduce for a few sizes; run it under several
 * --cfg=smpi/bcast:<algorithm> (or smpi/allreduce:<algorithm>) choices and compare
 * (docs/teaching.md, exercise 5): a flat tree sends np-1 messages from the root one after
 * the other, a binomial tree needs log2(np) rounds, and scatter + allgather moves each byte
 * off the root only once, which wins for large messages. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int sizes[] = {8, 65536, 1 << 20};
  double *a = calloc(1 << 17, sizeof *a), *b = calloc(1 << 17, sizeof *b);
  if (rank == 0)
    printf("%-10s %10s %14s\n", "collective", "bytes", "time (us)");
  for (int k = 0; k < 3; k++) {
    int n = sizes[k] / (int)sizeof(double);
    if (n < 1)
      n = 1;
    /* each rank times its own part; the collective's time is the slowest rank's */
    double t[2], worst[2];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    t[0] = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t[1] = MPI_Wtime() - t0;
    MPI_Reduce(t, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double tb = worst[0], ta = worst[1];
    if (rank == 0) {
      printf("%-10s %10d %14.3f\n", "bcast", n * 8, tb * 1e6);
      printf("%-10s %10d %14.3f\n", "allreduce", n * 8, ta * 1e6);
    }
  }
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
