/* MPI_Wtime ends the computation burst in progress before it reads the clock (as SimGrid's
 * does), so that t1 - t0 around a computed block measures the block. Run with
 * -platform platforms/cluster_flat.xml (1 Gf hosts) --cfg=smpi/host-speed:1Gf
 * --cfg=smpi/wtime:0: a measured CPU second is then a simulated second. Before the fix the
 * clock was read first and a block between two MPI_Wtime calls took no simulated time. Under
 * a real MPI, t1 - t0 is the wall time of the block, at least its CPU time too.
 *
 * The block runs three times, one for each way a burst is measured (smpi/emulation/burst.c): after
 * short bursts (no CPU clock read at its start: estimated from the last checkpoint), right
 * after a long one (CPU clock read at both ends), and after 20 000 short calls spanning
 * several checkpoint refreshes. */
#define MPITEST_NAME "wtime_burst"
#include "mpitest.h"

#include <stdio.h>
#include <time.h>

static volatile double sink;

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  /* nothing between two calls: no time (smpi/wtime:0) */
  double a = MPI_Wtime(), b = MPI_Wtime();
  for (int round = 0; round < 3; round++) {
    if (round == 2)
      for (int k = 0; k < 20000; k++)
        (void)MPI_Wtime();
    /* about 20 ms of computation between two calls */
    double t0 = MPI_Wtime(), c0 = cpu_now();
    double x = 0;
    for (long i = 0; i < 20000000; i++)
      x += (double)i * 1e-9;
    sink = x;
    double c1 = cpu_now(), t1 = MPI_Wtime();
    double cpu = c1 - c0, sim = t1 - t0;
    /* the burst is measured from the end of the previous call to the start of this one, so
     * it holds the loop and a little more; the CPU clock may tick coarsely: 0.8 leaves room */
    CHECK(sim >= 0.8 * cpu && sim <= 10 * cpu + 0.05,
          "block %d of %.6f s of CPU measured as %.6f s", round, cpu, sim);
  }
#ifdef SMPI_SAMPLE_LOCAL /* simulated: an empty window costs nothing with smpi/wtime:0 */
  CHECK(b - a <= 1e-6, "empty window measured as %.9f s", b - a);
  /* folded allocations are the simulator's work (an mmap each, ~5 us), not the rank's: 2 000
   * of them, each of a new size so that none reuses a kept mapping, cost no simulated time
   * (charged as bursts they would be >= 2 ms; 1 ms leaves room for one preemption) */
  double f0 = MPI_Wtime();
  for (int k = 0; k < 2000; k++) {
    /* untouched: a first touch faults, which is the program's cost as with any malloc */
    SMPI_SHARED_FREE(SMPI_SHARED_MALLOC((size_t)(k + 1) * 4096));
  }
  double f1 = MPI_Wtime();
  CHECK(f1 - f0 <= 1e-3, "2000 folded allocations measured as %.6f s", f1 - f0);
#else
  (void)a, (void)b;
#endif
  return mpitest_finalize();
}
