/* What the computation-injection calls of smpi.h cost in simulated time, one line each:
 * "execute_units NAME SECONDS". SimGrid 3.32's meanings (tests/data/simgrid-ref/hpl_notes.md):
 *   smpi_execute(t)          t seconds of the machine running the simulation: t x
 *                            smpi/host-speed flops, nothing if t < smpi/cpu-threshold
 *   SMPI_SAMPLE_DELAY(t) {}  smpi_execute(t)
 *   smpi_execute_benched(t)  t seconds of the simulated host (its speed x t flops)
 *   smpi_execute_flops(f), smpi_execute_flops_benched(f), SMPI_SAMPLE_FLOPS(f) {}
 *                            f flops on the simulated host
 * Run on one rank with smpi/wtime:0 (MPI_Wtime adds nothing) and simulate-computation:no. */
#include <mpi.h>
#include <stdio.h>

static double t_last;

static void report(const char *name)
{
  double now = MPI_Wtime();
  printf("execute_units %s %.17g\n", name, now - t_last);
  t_last = MPI_Wtime();
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  t_last = MPI_Wtime();
  smpi_execute(1e-3);
  report("execute_1ms");
  smpi_execute(5e-7);
  report("execute_0.5us");
  smpi_execute_benched(1e-3);
  report("execute_benched_1ms");
  SMPI_SAMPLE_DELAY(1e-3) {}
  report("sample_delay_1ms");
  SMPI_SAMPLE_DELAY(5e-7) {}
  report("sample_delay_0.5us");
  smpi_execute_flops(1e6);
  report("execute_flops_1e6");
  smpi_execute_flops_benched(1e6);
  report("execute_flops_benched_1e6");
  SMPI_SAMPLE_FLOPS(1e6) {}
  report("sample_flops_1e6");
  MPI_Finalize();
  return 0;
}
