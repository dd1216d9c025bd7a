/* Cost of one flow start and one flow end in the max-min solver, on a fat-tree-like network
 * in steady state (N concurrent flows between random host pairs).
 *
 *   pods x leaves x hosts (8 x 8 x 16 = 1024 hosts); every host has an up and a down link
 *   (SHARED, 1.25e9 B/s); each leaf has an uplink and a downlink to its pod (SHARED) and a
 *   switch backplane (FATPIPE, 4e10); each pod has an uplink and a downlink to the core
 *   (SHARED); the core is one FATPIPE (1e12). Two variants of the leaf/pod links:
 *     bisection  leaf links 2e10, pod links 1.6e11: full bisection, only host links saturate
 *     oversub    leaf links 1e10, pod links 4e10: 2:1 and 4:1 oversubscribed
 *   Route: same leaf  host_up, leaf_sw, host_down                          (2 SHARED)
 *          same pod   host_up, leaf_up, leaf_sw x2, leaf_down, host_down    (4 SHARED)
 *          otherwise  host_up, leaf_up, pod_up, core, pod_down, leaf_down, host_down (6)
 * Like SMPI's flows: penalty = route latency + sum of 8775 / bandwidth, bound =
 * min(smallest bandwidth, 4194304 / (2 * latency)), and each flow also uses its reverse route
 * with coefficient 0.05 (cross-traffic).
 *
 * A "start" is lmm_variable_new + lmm_expand on the route + a solve; an "end" is
 * lmm_variable_free + a solve. Ends and starts alternate so that N stays constant; each row
 * averages over many of them. "local" is lmm_solve (local repair), "full" lmm_solve_full.
 * Columns: ns per operation, constraints and variables visited per operation (summed over
 * the passes), passes per solve, share of solves that fell back to a full pass, and "chg":
 * variables whose value changed per operation (lmm_modified_count), i.e. what any solver
 * matching the max-min allocation to the precision has to update.
 *
 * A third table, "one shared bottleneck", goes through the activity layer (kernel/activity.c,
 * the network's lazy updates) rather than the solver alone, with maxmin/class-sharing off
 * (the general path) and on (kernel/act_class.c): 1 024 hosts whose up and down links
 * (1.25e9 B/s) all meet at one backbone of 1.25e9 B/s, N flows between random hosts, so the
 * backbone alone bottlenecks them all (a flat cluster's Alltoall). An "end" is the model
 * reaching the next completion (the engine's advance, then the solve of the next
 * next_event), a "start" a new flow and its solve; N stays constant. This is where the
 * general path pays O(N) per event (every flow's rate changes, each is caught up and
 * re-keyed) and the class path O(log N).
 * Usage: bench_lmm [ops-scale [repair-limit]]   (defaults 1 and 0.25; 0.1 for a quick look) */
#include "kernel/act_class.h"
#include "kernel/activity.h"
#include "kernel/engine.h"
#include "kernel/lmm.h"
#include "kernel/world.h"
#include "src/cfg.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PODS = 8, LEAVES = 8, HPL = 16, HOSTS = PODS * LEAVES * HPL, MAXR = 16 };

static double repair_limit = 0.25; /* lmm_set_repair_limit, second argument */

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng(void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}

typedef struct net {
  lmm_system *sys;
  lmm_constraint *host_up[HOSTS], *host_down[HOSTS];
  lmm_constraint *leaf_up[PODS * LEAVES], *leaf_down[PODS * LEAVES], *leaf_sw[PODS * LEAVES];
  lmm_constraint *pod_up[PODS], *pod_down[PODS], *core;
  double leaf_bw, pod_bw;
} net;

typedef struct hop {
  lmm_constraint *fwd, *rev; /* rev: the same hop in the other direction (cross-traffic) */
  double bw, lat;
} hop;

static void net_init(net *n, double precision, bool oversub)
{
  memset(n, 0, sizeof *n);
  n->sys = lmm_system_new(precision);
  n->leaf_bw = oversub ? 1e10 : 2e10;
  n->pod_bw = oversub ? 4e10 : 1.6e11;
  for (int h = 0; h < HOSTS; h++) {
    n->host_up[h] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
    n->host_down[h] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
  }
  for (int l = 0; l < PODS * LEAVES; l++) {
    n->leaf_up[l] = lmm_constraint_new(n->sys, NULL, n->leaf_bw, LMM_SHARED);
    n->leaf_down[l] = lmm_constraint_new(n->sys, NULL, n->leaf_bw, LMM_SHARED);
    n->leaf_sw[l] = lmm_constraint_new(n->sys, NULL, 4e10, LMM_FATPIPE);
  }
  for (int p = 0; p < PODS; p++) {
    n->pod_up[p] = lmm_constraint_new(n->sys, NULL, n->pod_bw, LMM_SHARED);
    n->pod_down[p] = lmm_constraint_new(n->sys, NULL, n->pod_bw, LMM_SHARED);
  }
  n->core = lmm_constraint_new(n->sys, NULL, 1e12, LMM_FATPIPE);
}

static int route(const net *n, int src, int dst, hop *r)
{
  int ls = src / HPL, ld = dst / HPL, ps = ls / LEAVES, pd = ld / LEAVES, k = 0;
  r[k++] = (hop){n->host_up[src], n->host_down[src], 1.25e9, 1e-6};
  r[k++] = (hop){n->leaf_sw[ls], n->leaf_sw[ls], 4e10, 1e-7};
  if (ls != ld) {
    r[k++] = (hop){n->leaf_up[ls], n->leaf_down[ls], n->leaf_bw, 1e-6};
    if (ps != pd) {
      r[k++] = (hop){n->pod_up[ps], n->pod_down[ps], n->pod_bw, 1e-6};
      r[k++] = (hop){n->core, n->core, 1e12, 1e-7};
      r[k++] = (hop){n->pod_down[pd], n->pod_up[pd], n->pod_bw, 1e-6};
    }
    r[k++] = (hop){n->leaf_down[ld], n->leaf_up[ld], n->leaf_bw, 1e-6};
    r[k++] = (hop){n->leaf_sw[ld], n->leaf_sw[ld], 4e10, 1e-7};
  }
  r[k++] = (hop){n->host_down[dst], n->host_up[dst], 1.25e9, 1e-6};
  return k;
}

static lmm_variable *flow_start(net *n)
{
  int src = (int)(rng() % HOSTS), dst;
  do
    dst = (int)(rng() % HOSTS);
  while (dst == src);
  hop r[MAXR];
  int k = route(n, src, dst, r);
  double lat = 0, penalty = 0, minbw = INFINITY;
  for (int i = 0; i < k; i++) {
    lat += r[i].lat;
    penalty += 8775 / r[i].bw;
    minbw = fmin(minbw, r[i].bw);
  }
  penalty += lat;
  double bound = fmin(minbw, 4194304 / (2 * lat));
  lmm_variable *v = lmm_variable_new(n->sys, NULL, penalty, bound, (size_t)(2 * k));
  for (int i = 0; i < k; i++)
    lmm_expand(n->sys, r[i].fwd, v, 1);
  for (int i = 0; i < k; i++)
    lmm_expand(n->sys, r[i].rev, v, 0.05);
  return v;
}

typedef struct result {
  double ns[2], cnst[2], vars[2], chg[2]; /* [0] start, [1] end */
  double passes, fallbacks;               /* per solve */
} result;

static void run(int nflows, bool full, bool oversub, double precision, int ops, result *res)
{
  net *n = malloc(sizeof *n);
  net_init(n, precision, oversub);
  lmm_set_repair_limit(n->sys, repair_limit);
  lmm_variable **flows = malloc((size_t)nflows * sizeof *flows);
  for (int i = 0; i < nflows; i++)
    flows[i] = flow_start(n);
  lmm_solve_full(n->sys);
  void (*solve)(lmm_system *) = full ? lmm_solve_full : lmm_solve;

  memset(res, 0, sizeof *res);
  lmm_stats first, s[3];
  lmm_get_stats(n->sys, &first);
  for (int op = 0; op < ops; op++) {
    int k = (int)(rng() % (uint64_t)nflows);
    double t[3];
    lmm_get_stats(n->sys, &s[0]);
    t[0] = now_ns();
    lmm_variable_free(n->sys, flows[k]);
    solve(n->sys);
    t[1] = now_ns();
    res->chg[1] += (double)lmm_modified_count(n->sys);
    lmm_get_stats(n->sys, &s[1]);
    flows[k] = flow_start(n);
    solve(n->sys);
    t[2] = now_ns();
    res->chg[0] += (double)lmm_modified_count(n->sys);
    lmm_get_stats(n->sys, &s[2]);
    for (int w = 0; w < 2; w++) { /* w = 0: the start (t1..t2), 1: the end (t0..t1) */
      int from = w == 0 ? 1 : 0;
      res->ns[w] += t[from + 1] - t[from];
      res->cnst[w] += (double)(s[from + 1].constraints_visited - s[from].constraints_visited);
      res->vars[w] += (double)(s[from + 1].variables_visited - s[from].variables_visited);
    }
  }
  lmm_get_stats(n->sys, &s[0]);
  double solves = (double)(s[0].solves - first.solves);
  res->passes = (double)(s[0].passes - first.passes) / solves;
  res->fallbacks = (double)(s[0].fallbacks - first.fallbacks) / solves;
  for (int w = 0; w < 2; w++) {
    res->ns[w] /= ops;
    res->cnst[w] /= ops;
    res->vars[w] /= ops;
    res->chg[w] /= ops;
  }
  lmm_system_free(n->sys);
  free(flows);
  free(n);
}

static void table(bool oversub, double precision, double scale)
{
  static const struct {
    int flows;
    bool full;
    int ops;
  } rows[] = {
      {10, false, 20000}, {1000, false, 4000}, {100000, false, 100},
      {10, true, 20000},  {1000, true, 1000},  {100000, true, 20},
  };
  printf("\n%s, precision %g (%d hosts, %d links)\n",
         oversub ? "oversubscribed" : "full bisection", precision, HOSTS,
         2 * HOSTS + 3 * PODS * LEAVES + 2 * PODS + 1);
  printf("%7s %5s %5s | %11s %7s %7s %7s | %11s %7s %7s %7s | %6s %5s\n", "flows", "solve", "ops",
         "start ns", "cnst", "vars", "chg", "end ns", "cnst", "vars", "chg", "passes", "full%");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    int ops = (int)ceil(rows[i].ops * scale);
    if (ops < 10)
      ops = 10;
    result r;
    run(rows[i].flows, rows[i].full, oversub, precision, ops, &r);
    printf("%7d %5s %5d | %11.0f %7.1f %7.1f %7.1f | %11.0f %7.1f %7.1f %7.1f | %6.2f %5.1f\n",
           rows[i].flows, rows[i].full ? "full" : "local", ops, r.ns[0], r.cnst[0], r.vars[0],
           r.chg[0], r.ns[1], r.cnst[1], r.vars[1], r.chg[1], r.passes, 100 * r.fallbacks);
    fflush(stdout);
  }
}

/* ---- one shared bottleneck, through the activity layer ---- */

enum { FLAT_HOSTS = 1024 };

typedef struct flat {
  act_model m;
  lmm_constraint *up[FLAT_HOSTS], *down[FLAT_HOSTS], *backbone;
  act_action **ended;
  size_t n_ended, cap_ended;
} flat;

static void flat_on_finish(act_action *a, void *data)
{
  flat *f = data;
  if (f->n_ended == f->cap_ended) {
    f->cap_ended = f->cap_ended ? 2 * f->cap_ended : 16;
    f->ended = realloc(f->ended, f->cap_ended * sizeof *f->ended);
  }
  f->ended[f->n_ended++] = a;
}

static void flat_start(flat *f)
{
  int src = (int)(rng() % FLAT_HOSTS), dst;
  do
    dst = (int)(rng() % FLAT_HOSTS);
  while (dst == src);
  double bytes = 1e5 + (double)(rng() % 10000000);
  act_action *a = act_action_new(&f->m, bytes, 0, 1.0, 4194304 / (2 * 2.5e-6), 3, flat_on_finish,
                                 f);
  act_action_set_rate_factor(a, 0.97);
  lmm_expand(f->m.sys, f->up[src], a->var, 1);
  lmm_expand(f->m.sys, f->backbone, a->var, 1);
  lmm_expand(f->m.sys, f->down[dst], a->var, 1);
}

/* the engine's step for this one model: the next date (solving if needed), then advance */
static double flat_next(flat *f) { return f->m.base.ops->next_event(&f->m.base, eng_now()); }

static void flat_run(int nflows, bool classes, int ops, double ns[2], double *events)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  if (eng_init(err, sizeof err) != 0) {
    fprintf(stderr, "eng_init: %s\n", err);
    exit(1);
  }
  flat *f = calloc(1, sizeof *f);
  act_model_init(&f->m, "network", eng_work_precision());
  if (classes)
    act_classes_enable(&f->m, 32);
  for (int h = 0; h < FLAT_HOSTS; h++) {
    f->up[h] = lmm_constraint_new(f->m.sys, NULL, 1.25e9, LMM_SHARED);
    f->down[h] = lmm_constraint_new(f->m.sys, NULL, 1.25e9, LMM_SHARED);
  }
  f->backbone = lmm_constraint_new(f->m.sys, NULL, 1.25e9, LMM_SHARED);
  for (int i = 0; i < nflows; i++)
    flat_start(f);
  flat_next(f);
  ns[0] = ns[1] = 0;
  double t[3];
  unsigned long done = 0;
  for (int op = 0; op < ops; op++) {
    t[0] = now_ns();
    double date = flat_next(f);
    kworld.engine.now = date;
    f->m.base.ops->advance(&f->m.base, date);
    size_t ended = f->n_ended;
    for (size_t i = 0; i < ended; i++)
      act_action_free(f->ended[i]);
    f->n_ended = 0;
    flat_next(f); /* the solve after the end(s) */
    t[1] = now_ns();
    for (size_t i = 0; i < ended; i++)
      flat_start(f);
    flat_next(f); /* the solve after the start(s) */
    t[2] = now_ns();
    done += ended;
    ns[1] += t[1] - t[0];
    ns[0] += t[2] - t[1];
  }
  ns[0] /= (double)done;
  ns[1] /= (double)done;
  *events = (double)done / ops;
  act_model_destroy(&f->m);
  free(f->ended);
  free(f);
  eng_shutdown();
}

static void flat_table(double scale)
{
  static const struct {
    int flows, ops;
  } rows[] = {{10, 20000}, {1000, 4000}, {10000, 400}, {100000, 100}};
  printf("\none shared bottleneck, activity layer (%d hosts + backbone, precision 1e-5)\n",
         FLAT_HOSTS);
  printf("%7s %5s %5s | %11s | %11s | %s\n", "flows", "class", "ops", "start ns", "end ns",
         "ends per event");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    for (int classes = 0; classes < 2; classes++) {
      int ops = (int)ceil(rows[i].ops * scale);
      if (ops < 10)
        ops = 10;
      double ns[2], ev;
      flat_run(rows[i].flows, classes, ops, ns, &ev);
      printf("%7d %5s %5d | %11.0f | %11.0f | %.2f\n", rows[i].flows, classes ? "yes" : "no", ops,
             ns[0], ns[1], ev);
      fflush(stdout);
    }
}

int main(int argc, char **argv)
{
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  if (argc > 2)
    repair_limit = atof(argv[2]);
  if (!(scale > 0)) {
    fprintf(stderr, "usage: %s [ops-scale > 0 [repair-limit]]\n", argv[0]);
    return 2;
  }
  if (argc > 3 && !strcmp(argv[3], "flat")) {
    flat_table(scale);
    return 0;
  }
  table(false, 1e-9, scale);
  table(true, 1e-9, scale);
  flat_table(scale);
  return 0;
}
