/* SMPI_SAMPLE_DELAY and SMPI_SAMPLE_FLOPS: the block never runs and the given cost is injected.
 * Optional argument: the factor smpi/compute-noise multiplies them by (uniform:F:F gives
 * exactly F). Run with --cfg=smpi/cpu-threshold:-1 --cfg=smpi/wtime:0. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef SMPI_SAMPLE_DELAY /* helpers of the simulated checks */
static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef SMPI_SAMPLE_DELAY
  double factor = argc > 1 ? atof(argv[1]) : 1.0;
  int ran = 0;
  double t0 = MPI_Wtime();
  SMPI_SAMPLE_DELAY(0.5) { ran++; }
  double delay = MPI_Wtime() - t0;

  t0 = MPI_Wtime();
  smpi_execute_flops(1e9);
  double ref = MPI_Wtime() - t0;
  t0 = MPI_Wtime();
  SMPI_SAMPLE_FLOPS(1e9) { ran++; }
  double flops = MPI_Wtime() - t0;

  if (ran) {
    fprintf(stderr, "sample_given: a DELAY/FLOPS block ran %d times\n", ran);
    bad = 1;
  }
  if (!close_to(delay, 0.5 * factor)) {
    fprintf(stderr, "sample_given: SMPI_SAMPLE_DELAY(0.5) took %.15g s, expected %.15g\n", delay,
            0.5 * factor);
    bad = 1;
  }
  if (!close_to(flops, ref * factor)) {
    fprintf(stderr, "sample_given: SMPI_SAMPLE_FLOPS(1e9) took %.15g s, expected %.15g\n", flops,
            ref * factor);
    bad = 1;
  }
#endif
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !any)
    printf("sample_given: OK\n");
  MPI_Finalize();
  return any;
}
