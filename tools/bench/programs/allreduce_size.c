/* MPI_Allreduce of one size, a few times: the collective whose flows all meet on a flat
 * cluster's backbone or a fat tree's upper links (tools/bench/README.md, "Saturated
 * bottlenecks").
 *
 *   allreduce_size [BYTES [REPETITIONS]]     default 8 KiB, 5 repetitions
 *
 * Buffers are private (malloc), as a user's are; rank 0 prints the simulated time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? atol(argv[1]) : 8192;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  int n = (int)(bytes / (long)sizeof(double));
  double *in = calloc((size_t)n + 1, sizeof *in), *out = calloc((size_t)n + 1, sizeof *out);
  for (int r = 0; r < reps; r++)
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t = MPI_Wtime();
  if (rank == 0)
    printf("allreduce_size: ranks=%d bytes=%ld repetitions=%d time=%.9g\n", size, bytes, reps, t);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
