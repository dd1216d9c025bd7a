/* SMPI_SAMPLE_DELAY and SMPI_SAMPLE_FLOPS: the block never runs and the given cost is injected.
 * SMPI_SAMPLE_DELAY(t) takes SimGrid 3.32's units: t seconds of the machine running the
 * simulation, t x smpi/host-speed flops on the simulated host. With host-speed 4 Gf on the
 * built-in 1 Gf hosts, SMPI_SAMPLE_DELAY(0.5) lasts 2 s (0.5 s would be host seconds).
 * Optional argument: the factor smpi/compute-noise multiplies them by (uniform:F:F gives
 * exactly F). Run with --cfg=smpi/cpu-threshold:-1 --cfg=smpi/wtime:0
 * --cfg=smpi/host-speed:4Gf. */
#include <math.h>
#define MPITEST_NAME "sample_given"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef SMPI_SAMPLE_DELAY /* helpers of the simulated checks */
static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }
#define HOST_SPEED 4e9 /* --cfg=smpi/host-speed of tests/mpi/meson.build */
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
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

  CHECK(!ran, "a DELAY/FLOPS block ran %d times", ran);
  /* ref: 1e9 flops on this host; the delay is 0.5 x HOST_SPEED flops */
  double want = 0.5 * HOST_SPEED * ref / 1e9 * factor;
  CHECK(
      close_to(delay, want),
      "SMPI_SAMPLE_DELAY(0.5) took %.15g s, expected %.15g (run with --cfg=smpi/host-speed:4Gf)",
      delay, want);
  CHECK(close_to(flops, ref * factor), "SMPI_SAMPLE_FLOPS(1e9) took %.15g s, expected %.15g",
        flops, ref * factor);
#endif
  return mpitest_finalize();
}
