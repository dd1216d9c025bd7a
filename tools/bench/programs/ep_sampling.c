/* ep_sampling: an embarrassingly parallel Monte-Carlo kernel (after NPB EP: Gaussian pairs by
 * the Marsaglia polar method, tallied in square annuli), sampled with SMPI_SAMPLE_LOCAL.
 *
 *   ep_sampling ITERS PAIRS RATIO [local|global]
 *
 * Every rank runs ITERS batches of PAIRS pairs. Under smpi, with local (the default), only
 * the first max(1, RATIO * ITERS) batches of each rank really run and are timed
 * (SMPI_SAMPLE_LOCAL); with global, the first max(1, RATIO * ITERS * ranks) batches over all
 * ranks (SMPI_SAMPLE_GLOBAL). The others are skipped and cost the mean of the samples
 * (smpi/sample-mode:mean). One batch runs before the timed loop, unsampled, so that the
 * samples do not include the first touches of code and data. The batches cost the
 * same (same work, no data dependence), so the simulated time should not depend on RATIO
 * while the simulation's own time falls with it: the SMPI paper's Figure 18 experiment,
 * measured by tools/bench/ep_sampling. Rank 0 prints the simulated time, the batches that
 * ran, and the tallies (exact only with RATIO 1: skipped batches count nothing). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SMPI_SAMPLE_LOCAL /* a real MPI: every batch runs */
#define SMPI_SAMPLE_LOCAL(n) for (int once_ = 1; once_; once_ = 0)
#define SMPI_SAMPLE_GLOBAL(n) for (int once_ = 1; once_; once_ = 0)
#endif

#define NQ 10

static double sqrt_newton(double x) /* no libm */
{
  if (x <= 0)
    return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 60; i++) {
    double n = 0.5 * (r + x / r);
    if (n == r)
      break;
    r = n;
  }
  return r;
}

static double ln(double x) /* natural log, x in (0, 1]: enough for the polar method */
{
  int e = 0;
  while (x < 0.5) {
    x *= 2;
    e--;
  }
  double y = (x - 1) / (x + 1), y2 = y * y, s = 0, t = y;
  for (int k = 1; k < 40; k += 2, t *= y2)
    s += t / k;
  return 2 * s + e * 0.69314718055994530942;
}

/* one batch of pairs from the rank's generator state; tallies into q */
static void batch(uint64_t *state, long pairs, long *q)
{
  uint64_t x = *state;
  for (long i = 0; i < pairs; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(x >> 11) * 0x1.0p-53 * 2 - 1;
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double v = (double)(x >> 11) * 0x1.0p-53 * 2 - 1;
    double t = u * u + v * v;
    if (t > 1 || t == 0)
      continue;
    double f = sqrt_newton(-2 * ln(t) / t);
    double gx = u * f, gy = v * f;
    gx = gx < 0 ? -gx : gx;
    gy = gy < 0 ? -gy : gy;
    int l = (int)(gx > gy ? gx : gy);
    if (l < NQ)
      q[l]++;
  }
  *state = x;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0)
      fprintf(stderr, "usage: ep_sampling ITERS PAIRS RATIO\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long iters = atol(argv[1]), pairs = atol(argv[2]);
  double ratio = atof(argv[3]);
  int global = argc > 4 && strcmp(argv[4], "global") == 0;
  long nsamples = (long)(ratio * (double)iters * (global ? size : 1) + 0.5);
  if (nsamples < 1)
    nsamples = 1;
  uint64_t state = 0x853c49e6748fea9bull ^ (uint64_t)rank * 0x9E3779B97F4A7C15ull;
  long q[NQ] = {0}, ran = 0, warm[NQ] = {0};
  batch(&state, pairs, warm);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long it = 0; it < iters; it++) {
    if (global) {
      SMPI_SAMPLE_GLOBAL(nsamples)
      {
        batch(&state, pairs, q);
        ran++;
      }
    } else {
      SMPI_SAMPLE_LOCAL(nsamples)
      {
        batch(&state, pairs, q);
        ran++;
      }
    }
  }
  long all[NQ], ran_all;
  MPI_Reduce(q, all, NQ, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&ran, &ran_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("ep_sampling: ranks %d iters %ld pairs %ld ratio %g (%s) batches_run %ld simulated "
           "%.9g s "
           "tallies",
           size, iters, pairs, ratio, global ? "global" : "local", ran_all, t);
    for (int k = 0; k < 4; k++)
      printf(" %ld", all[k]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
