/* SMPI_SAMPLE_LOCAL, block and loop forms: how many times the body runs, and the cost injected
 * for the skipped executions (mean mode). Run with --cfg=smpi/cpu-threshold:-1 --cfg=smpi/host-speed:1Gf
 * --cfg=smpi/wtime:0, so that the sampled blocks are the only computation simulated. Under a
 * real MPI the macros are not defined: the program then checks nothing but still passes. */
#define MPITEST_NAME "sample_local"
#include "mpitest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef SMPI_SAMPLE_LOCAL /* helpers of the simulated checks */
static volatile double sink;
static void busy(long n)
{
  double x = 0;
  for (long i = 0; i < n; i++)
    x += (double)i * 1e-9;
  sink = x;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-15; }
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef SMPI_SAMPLE_LOCAL
  /* block form: 3 runs per rank, then the mean of the 3 is injected */
  int count = 0;
  double d[10];
  for (int k = 0; k < 10; k++) {
    double t0 = MPI_Wtime();
    SMPI_SAMPLE_LOCAL(3)
    {
      busy(200000 * (k + 1));
      count++;
    }
    d[k] = MPI_Wtime() - t0;
  }
  CHECK(count == 3, "rank %d: LOCAL(3) block ran %d times in 10 executions, expected 3", rank,
        count);
  double mean = (d[0] + d[1] + d[2]) / 3;
  CHECK(d[0] > 0 && d[1] > 0 && d[2] > 0, "rank %d: a sampled execution took no simulated time",
        rank);
  for (int k = 3; k < 10; k++)
    CHECK(close_to(d[k], mean),
          "rank %d: skipped execution %d injected %.12g s, expected the mean %.12g", rank, k,
          d[k], mean);

  /* two samples on one source line are distinct */
  int a = 0, b = 0;
  for (int k = 0; k < 5; k++) {
    SMPI_SAMPLE_LOCAL(2) { a++; }
    SMPI_SAMPLE_LOCAL(3) { b++; }
  }
  CHECK(a == 2 && b == 3, "two samples on one line ran %d and %d times, expected 2 and 3", a, b);

  /* threshold: two samples always have a relative standard error below 1 */
  int c = 0;
  for (int k = 0; k < 10; k++)
    SMPI_SAMPLE_LOCAL(50, 1.0)
    {
      busy(100000);
      c++;
    }
  CHECK(c == 2, "LOCAL(50, 1.0) ran %d times, expected 2 (stopped by the threshold)", c);

  /* loop form: 5 of 100 iterations run, the 95 others cost the mean; the second time round
   * the loop is sampled already: 100 x mean, the same time as the first */
  int body = 0, iters = 0;
  double loop_time[2];
  for (int rep = 0; rep < 2; rep++) {
    double t0 = MPI_Wtime();
    SMPI_SAMPLE_LOCAL(int i = 0, i < 100, i++, 5, 0.0)
    {
      busy(100000);
      body++;
      iters = i + 1;
    }
    loop_time[rep] = MPI_Wtime() - t0;
    CHECK(body == 5 && iters == 5, "loop form ran its body %d times (last i %d), expected 5",
          body, iters);
  }
  CHECK(loop_time[0] > 0 && close_to(loop_time[1], loop_time[0]),
        "sampled loop: %.12g s the first time (5 measured + 95 x mean), %.12g s the second "
        "(100 x mean): they should be equal",
        loop_time[0], loop_time[1]);

  /* loop form with a threshold, and the early exit of the loop */
  int tb = 0;
  SMPI_SAMPLE_LOCAL(int i = 0, i < 100, i++, 50, 1.0)
  {
    busy(100000);
    tb++;
  }
  CHECK(tb == 2, "loop form with threshold 1.0 ran %d iterations, expected 2", tb);

  /* a loop shorter than its sample count just runs */
  int sb = 0;
  SMPI_SAMPLE_LOCAL(int i = 0, i < 3, i++, 10, 0.0) { sb++; }
  CHECK(sb == 3, "a 3-iteration loop sampled 10 times ran %d iterations", sb);
#endif
  return mpitest_finalize();
}
