/* bench_privatize: cost of privatizing globals (smpi/emulation/privatize.c), per context switch and at
 * start-up, for the copy and remap mechanisms, on a 4 KiB, 64 KiB and 1 MiB block of this
 * program's own .bss standing for a program's writable globals.
 *
 *   switch          ns per switch between two ranks (the data really changes each time)
 *   switch+touch    the same, the incoming rank then writing one word per page (remap
 *                   mode pays its page faults there)
 *   start-up        set-up for 1000 ranks plus the first switch to each (when copies are
 *                   made), with initial data that is not zero (.data) and that is (.bss)
 *
 * Median of 5 runs; wall time (the machine is shared: compare columns of one run). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smpi/emulation/privatize.h"

static unsigned char seg[1 << 20] __attribute__((aligned(1 << 16)));

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

static void setup(size_t len, int np, smpi_priv_mode mode)
{
  char err[512];
  smpi_priv_span data = {(uintptr_t)seg, len};
  smpi_priv_layout l = {.data = &data, .ndata = 1};
  if (smpi_privatize_setup(&l, np, mode, 0, err, sizeof err) != 0) {
    fprintf(stderr, "bench_privatize: %s\n", err);
    exit(1);
  }
}

/* ns per switch, alternating between ranks 0 and 1 */
static double per_switch(size_t len, smpi_priv_mode mode, bool touch, int iters)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  setup(len, 2, mode);
  smpi_privatize_switch_to(0);
  smpi_privatize_switch_to(1);
  double t0 = now();
  for (int i = 0; i < iters; i++) {
    smpi_privatize_switch_to(i & 1);
    if (touch)
      for (size_t o = 0; o < len; o += pg)
        ((volatile unsigned char *)seg)[o] = (unsigned char)i;
  }
  double t = now() - t0;
  smpi_privatize_teardown();
  return t / iters * 1e9;
}

static double startup(size_t len, smpi_priv_mode mode, int np, int fill)
{
  memset(seg, fill, len); /* non-zero initial data: every rank's copy must be written */
  double t0 = now();
  setup(len, np, mode);
  for (int r = 0; r < np; r++)
    smpi_privatize_switch_to(r);
  double t = now() - t0;
  smpi_privatize_teardown();
  memset(seg, 0, len);
  return t;
}

int main(void)
{
  static const size_t sizes[] = {4096, 65536, 1 << 20};
  static const struct {
    smpi_priv_mode mode;
    const char *name;
  } modes[] = {{SMPI_PRIV_COPY, "copy"}, {SMPI_PRIV_REMAP, "remap"}};
  printf("%-6s %9s %10s %16s %28s\n", "mode", "segment", "ns/switch", "ns/switch+touch",
         "start-up 1000 ranks (ms)");
  printf("%-6s %9s %10s %16s %14s %13s\n", "", "", "", "", ".data", ".bss");
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    for (size_t m = 0; m < 2; m++) {
      int iters = sizes[s] >= (1 << 20) ? 2000 : 20000;
      double a[5], b[5], c[5], d[5];
      for (int k = 0; k < 5; k++) {
        a[k] = per_switch(sizes[s], modes[m].mode, false, iters);
        b[k] = per_switch(sizes[s], modes[m].mode, true, iters);
        c[k] = startup(sizes[s], modes[m].mode, 1000, 1);
        d[k] = startup(sizes[s], modes[m].mode, 1000, 0);
      }
      printf("%-6s %5zu KiB %10.0f %16.0f %14.2f %13.2f\n", modes[m].name, sizes[s] >> 10,
             median(a, 5), median(b, 5), median(c, 5) * 1e3, median(d, 5) * 1e3);
    }
  return 0;
}
