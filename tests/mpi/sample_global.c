/* SMPI_SAMPLE_GLOBAL: n executions in total over all ranks, block and loop forms. */
#include <mpi.h>
#include <stdio.h>

#ifdef SMPI_SAMPLE_GLOBAL /* helpers of the simulated checks */
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
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef SMPI_SAMPLE_GLOBAL
  int counts[2] = {0, 0}, totals[2];
  for (int k = 0; k < 4; k++) {
    SMPI_SAMPLE_GLOBAL(5) {
      busy(100000);
      counts[0]++;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the ranks take turns */
  }
  SMPI_SAMPLE_GLOBAL(int i = 0, i < 10, i++, 6, 0.0) {
    busy(100000);
    counts[1]++;
  }
  MPI_Allreduce(counts, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (totals[0] != 5) {
    if (rank == 0)
      fprintf(stderr, "sample_global: GLOBAL(5) block ran %d times in all, expected 5\n", totals[0]);
    bad = 1;
  }
  if (totals[1] != 6) {
    if (rank == 0)
      fprintf(stderr, "sample_global: GLOBAL loop (6 iterations sampled) ran %d in all, expected 6\n",
              totals[1]);
    bad = 1;
  }
#endif
  if (rank == 0 && !bad)
    printf("sample_global: OK\n");
  MPI_Finalize();
  return bad;
}
