/* What a CPU burst counts when a rank runs an OpenMP parallel region (4 threads, each doing
 * the same fixed loop), against the same loop run alone by the rank. Run with 2 ranks,
 * -platform cluster_flat.xml, smpi/host-speed:1Gf (a CPU second is a simulated second) and
 * OMP_WAIT_POLICY=passive (threads waiting at the region's end sleep instead of spinning).
 *
 *   openmp_burst thread   default: only the rank's own thread counts: the region costs about
 *                         one loop (its master's share), whatever the other threads did
 *   openmp_burst all      smpi/cpu-all-threads:yes: every thread counts: about four loops */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define ITERS 30000000L

static double loop(void)
{
  double x = 0;
  for (long i = 0; i < ITERS; i++)
    x += (double)i * 0.5;
  return x;
}

int main(int argc, char **argv)
{
  int all_threads = argc > 1 && !strcmp(argv[1], "all");
  MPI_Init(&argc, &argv);
  int rank, ok = 1, all;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  volatile double sink = 0;
  double t0 = MPI_Wtime();
  sink += loop();
  double t1 = MPI_Wtime();
#pragma omp parallel num_threads(4)
  {
    double v = loop();
#pragma omp atomic
    sink += v;
  }
  double t2 = MPI_Wtime();
  double ratio = (t2 - t1) / (t1 - t0);
  if (all_threads ? !(ratio > 2.8 && ratio < 6) : !(ratio > 0.5 && ratio < 1.8)) {
    printf("openmp_burst: rank %d: the 4-thread region cost %.4f s, one loop %.4f s (%.2fx, "
           "%s)\n",
           rank, t2 - t1, t1 - t0, ratio, all_threads ? "every thread counted" : "own thread");
    ok = 0;
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && all)
    printf("openmp_burst: OK\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
