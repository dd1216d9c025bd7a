/* A sampled computation for the sweep tests (smpi/sample-file reuse): ITERS steps of a
 * kernel timed by SMPI_SAMPLE_GLOBAL (3 samples over all ranks, then skipped at the mean
 * cost), each followed by an MPI_Allreduce. With the profile read from smpi/sample-file,
 * no sample is measured and the simulated time is the same from run to run.
 * Usage: sampled ITERS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double kernel(int n)
{
  double s = 0;
  for (int i = 1; i <= n; i++)
    s += 1.0 / ((double)i * (double)i);
  return s;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int iters = argc > 1 ? atoi(argv[1]) : 10;
  double local = 0, sum = 0;
  for (int it = 0; it < iters; it++) {
    SMPI_SAMPLE_GLOBAL(3) { local += kernel(200000); }
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("steps: %d\n", iters);
  MPI_Finalize();
  return 0;
}
