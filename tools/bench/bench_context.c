/* Cost of context switches and of context creation, for each factory available here.
 *
 *   switch <factory> pingpong:    two contexts handing control to each other
 *   switch <factory> round-robin: 1000 contexts, each switching straight to the next
 *                                 (stacks and saved frames no longer all fit in L1)
 *   create+destroy <factory> ...: one context at a time (its stack comes from the cache),
 *                                 and batches of 1000 (mostly fresh mmap/munmap)
 *
 * Each figure is the median of RUNS runs. Usage: bench_context [iterations-scale] */
#include "kernel/context.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RUNS = 7, RR_N = 1000 };

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ping-pong */
static ctx *pp[2];
static long pp_iters;

static void pp_body(void *arg)
{
  int me = (int)(intptr_t)arg;
  for (long k = 0; k < pp_iters; k++)
    ctx_switch(pp[me], pp[1 - me]);
}

static double bench_pingpong(long iters)
{
  pp_iters = iters;
  pp[0] = ctx_create(pp_body, (void *)0, "ping");
  pp[1] = ctx_create(pp_body, (void *)1, "pong");
  ctx_set_next(pp[0], pp[1]); /* pong's last switch went to ping: let pong end as well */
  double t0 = now_ns();
  ctx_switch(ctx_maestro(), pp[0]);
  double t1 = now_ns();
  ctx_destroy(pp[0]);
  ctx_destroy(pp[1]);
  return (t1 - t0) / (double)(2 * iters);
}

/* round-robin */
static ctx *rr[RR_N];
static long rr_rounds;

static void rr_body(void *arg)
{
  int me = (int)(intptr_t)arg;
  for (long r = 0; r < rr_rounds; r++)
    ctx_switch(rr[me], rr[(me + 1) % RR_N]);
}

static double bench_round_robin(long rounds)
{
  rr_rounds = rounds;
  for (int k = 0; k < RR_N; k++)
    rr[k] = ctx_create(rr_body, (void *)(intptr_t)k, "rr");
  for (int k = 0; k + 1 < RR_N; k++)
    ctx_set_next(rr[k], rr[k + 1]);
  double t0 = now_ns();
  ctx_switch(ctx_maestro(), rr[0]);
  double t1 = now_ns();
  for (int k = 0; k < RR_N; k++)
    ctx_destroy(rr[k]);
  /* rounds * RR_N switches inside the loops, plus RR_N switches as they finish */
  return (t1 - t0) / (double)((rounds + 1) * RR_N);
}

static void nothing(void *arg) { (void)arg; }

static double bench_create_one(long iters)
{
  double t0 = now_ns();
  for (long k = 0; k < iters; k++)
    ctx_destroy(ctx_create(nothing, NULL, "tmp"));
  return (now_ns() - t0) / (double)iters;
}

static double bench_create_batch(long batches)
{
  static ctx *batch[RR_N];
  double t0 = now_ns();
  for (long b = 0; b < batches; b++) {
    for (int k = 0; k < RR_N; k++)
      batch[k] = ctx_create(nothing, NULL, "tmp");
    for (int k = 0; k < RR_N; k++)
      ctx_destroy(batch[k]);
  }
  return (now_ns() - t0) / (double)(batches * RR_N);
}

typedef double (*bench_fn)(long);

static void run(const char *what, const char *factory, const char *unit, bench_fn fn, long iters)
{
  double v[RUNS];
  fn(iters / 10 + 1); /* warm-up: stack cache, page faults, branch predictors */
  for (int r = 0; r < RUNS; r++)
    v[r] = fn(iters);
  printf("%s %s: %.1f ns/%s\n", what, factory, median(v, RUNS), unit);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  if (scale <= 0)
    scale = 1.0;
  static const char *const factories[] = {"raw", "ucontext"};
  for (size_t f = 0; f < sizeof factories / sizeof factories[0]; f++) {
    char err[256];
    if (ctx_factory_init(factories[f], 0, err, sizeof err) != 0) {
      printf("%s: unavailable (%s)\n", factories[f], err);
      continue;
    }
    char label[64];
    snprintf(label, sizeof label, "%s pingpong", factories[f]);
    run("switch", label, "switch", bench_pingpong, (long)(1000000 * scale));
    snprintf(label, sizeof label, "%s round-robin %d", factories[f], RR_N);
    run("switch", label, "switch", bench_round_robin, (long)(200 * scale) + 1);
    snprintf(label, sizeof label, "%s (cached stack)", factories[f]);
    run("create+destroy", label, "context", bench_create_one, (long)(200000 * scale));
    snprintf(label, sizeof label, "%s (batches of %d, mmap)", factories[f], RR_N);
    run("create+destroy", label, "context", bench_create_batch, (long)(5 * scale) + 1);
    ctx_factory_shutdown();
  }
  return 0;
}
