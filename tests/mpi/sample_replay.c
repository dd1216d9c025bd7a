/* The program sample_replay.py runs several times: sampled blocks of different lengths and
 * given delays, then rank 0 prints the simulated time as "T=<seconds>" (%.17g). */
#include <mpi.h>
#include <stdio.h>

#ifdef SMPI_SAMPLE_LOCAL /* helpers of the simulated checks */
static volatile double sink;
static void busy(long n)
{
  double x = 0;
  for (long i = 0; i < n; i++)
    x += (double)i * 1e-9;
  sink = x;
}
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef SMPI_SAMPLE_LOCAL
  for (int k = 0; k < 20; k++) {
    /* the first 4 executions differ in length, so replayed draws differ from the mean */
    SMPI_SAMPLE_LOCAL(4) { busy(100000 * (k + 1) * (rank + 1)); }
    SMPI_SAMPLE_DELAY(0.001) {}
  }
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("T=%.17g\n", MPI_Wtime());
  MPI_Finalize();
  return 0;
}
