/* SMPI_SAMPLE_GLOBAL: n executions in total over all ranks, block and loop forms. */
#define MPITEST_NAME "sample_global"
#include "mpitest.h"

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
#ifdef SMPI_SAMPLE_GLOBAL
  int counts[2] = {0, 0}, totals[2];
  for (int k = 0; k < 4; k++) {
    SMPI_SAMPLE_GLOBAL(5)
    {
      busy(100000);
      counts[0]++;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the ranks take turns */
  }
  SMPI_SAMPLE_GLOBAL(int i = 0, i < 10, i++, 6, 0.0)
  {
    busy(100000);
    counts[1]++;
  }
  MPI_Allreduce(counts, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(totals[0] == 5, "GLOBAL(5) block ran %d times in all, expected 5", totals[0]);
  CHECK(totals[1] == 6, "GLOBAL loop (6 iterations sampled) ran %d in all, expected 6",
        totals[1]);
#endif
  return mpitest_finalize();
}
