/* Cost of one solve on a linear Reduce's root link, the largest part of the solver's time in
 * allreduce_users on the fat tree at 4 096 ranks (tools/bench/results/2026-11-29-0200-multilevel.md).
 *
 *   4 096 hosts, 64 per leaf; every other host sends one flow to host 0:
 *     host_up[h] -> (other leaf: leaf_up[h / 64] -> leaf_down[0]) -> host_down[0] (the root)
 *   plus its reverse route at 0.05 (cross-traffic), penalty and bound as SMPI's.
 * host_down[0] is every flow's bottleneck and nobody else's: each end or start is solved by
 * the one-bottleneck fast path (lmm_fast_bottleneck.c), and every flow's value changes.
 * An operation = one flow ends (solve), the same host starts a new one (solve); between
 * operations a memset of FLUSH MiB evicts the caches, as the program's 1 MiB copies and
 * reductions do between the simulator's events. Prints us per solve (minimum and median over
 * REPS repetitions: the machine is shared, the minimum is the least disturbed) and a
 * fingerprint of every value, equal across builds whose solver gives the same bits.
 * With a fourth argument "class", the exact class (maxmin/exact-class, kernel/lmm_xclass.c)
 * takes the root's flows, as the activity layer would have it (the lmm side only: members
 * adopted after each solve, resynced after a solve by another path): the same fingerprint.
 * Usage: bench_rootlink [OPS [FLUSH [REPS [class]]]]   (defaults 200, 16, 5) */
#include "kernel/lmm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { HOSTS = 4096, PER_LEAF = 64, LEAVES = HOSTS / PER_LEAF, MAX_REPS = 64 };

typedef struct net {
  lmm_system *sys;
  lmm_constraint *host_up[HOSTS], *host_down[HOSTS], *leaf_up[LEAVES], *leaf_down[LEAVES];
  lmm_variable *flow[HOSTS];
} net;

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static lmm_variable *flow_new(net *n, int h)
{
  const double bw = 1.25e9;
  bool far = h / PER_LEAF != 0;
  double lat = far ? 4e-6 : 2e-6;
  lmm_variable *v = lmm_variable_new(n->sys, NULL, lat + (far ? 4 : 2) * 8775 / bw,
                                     4194304 / (2 * lat), 8);
  lmm_expand(n->sys, n->host_up[h], v, 1);
  if (far) {
    lmm_expand(n->sys, n->leaf_up[h / PER_LEAF], v, 1);
    lmm_expand(n->sys, n->leaf_down[0], v, 1);
  }
  lmm_expand(n->sys, n->host_down[0], v, 1);
  lmm_expand(n->sys, n->host_up[0], v, 0.05);
  if (far) {
    lmm_expand(n->sys, n->leaf_up[0], v, 0.05);
    lmm_expand(n->sys, n->leaf_down[h / PER_LEAF], v, 0.05);
  }
  lmm_expand(n->sys, n->host_down[h], v, 0.05);
  return v;
}

/* lmm_solve, then what kernel/act_exact.c does on the lmm side */
static void solve(lmm_system *sys)
{
  lmm_solve(sys);
  if (!lmm_xclass_size(sys))
    return;
  if (lmm_xclass_broken(sys) || (lmm_xclass_adopted(sys) && !lmm_xclass_changed(sys) &&
                                 lmm_modified_count(sys) && !lmm_xclass_resync(sys))) {
    lmm_xclass_dissolve(sys);
    return;
  }
  lmm_xclass_set_adopted(sys, lmm_xclass_size(sys));
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  int ops = argc > 1 ? atoi(argv[1]) : 200;
  size_t flush = (size_t)(argc > 2 ? atoi(argv[2]) : 16) << 20;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  bool by_class = argc > 4 && strcmp(argv[4], "class") == 0;
  if (ops < 1 || reps < 1 || reps > MAX_REPS) {
    fprintf(stderr, "usage: bench_rootlink [OPS [FLUSH_MIB [REPS <= %d]]]\n", MAX_REPS);
    return 2;
  }
  char *junk = flush ? malloc(flush) : NULL;
  double us[MAX_REPS];
  uint64_t print = 0;
  for (int r = 0; r < reps; r++) {
    net *n = calloc(1, sizeof *n);
    n->sys = lmm_system_new(1e-9);
    if (by_class)
      lmm_xclass_allow(n->sys, 32);
    for (int h = 0; h < HOSTS; h++) {
      n->host_up[h] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
      n->host_down[h] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
    }
    for (int l = 0; l < LEAVES; l++) {
      n->leaf_up[l] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
      n->leaf_down[l] = lmm_constraint_new(n->sys, NULL, 1.25e9, LMM_SHARED);
    }
    for (int h = 1; h < HOSTS; h++)
      n->flow[h] = flow_new(n, h);
    solve(n->sys);
    uint64_t rnd = 12345;
    double total = 0;
    for (int k = 0; k < ops; k++) {
      if (junk)
        memset(junk, k, flush);
      rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
      int h = 1 + (int)((rnd >> 33) % (HOSTS - 1));
      double t0 = now_us();
      if (lmm_variable_xindex(n->flow[h]))
        lmm_xclass_remove(n->sys, lmm_variable_xindex(n->flow[h]) - 1);
      lmm_variable_free(n->sys, n->flow[h]);
      solve(n->sys);
      n->flow[h] = flow_new(n, h);
      solve(n->sys);
      total += now_us() - t0;
    }
    us[r] = total / (2.0 * ops);
    print = 0xcbf29ce484222325ULL;
    for (int h = 1; h < HOSTS; h++) {
      double x = lmm_variable_value(n->flow[h]);
      uint64_t bits;
      memcpy(&bits, &x, sizeof bits);
      print = (print ^ bits) * 0x100000001b3ULL;
    }
    lmm_stats st;
    lmm_get_stats(n->sys, &st);
    if (r == 0)
      printf("bench_rootlink: %d flows, %d operations, flush %zu MiB: %lu of %lu solves by the "
             "one-bottleneck path; exact class %s (%zu members at the end)\n",
             HOSTS - 1, ops, flush >> 20, st.fast_bottleneck, st.solves, by_class ? "on" : "off",
             lmm_xclass_size(n->sys));
    lmm_system_free(n->sys);
    free(n);
  }
  qsort(us, (size_t)reps, sizeof *us, cmp_double);
  printf("us per solve: min %.1f median %.1f max %.1f (%d repetitions); fingerprint 0x%016llx\n",
         us[0], us[reps / 2], us[reps - 1], reps, (unsigned long long)print);
  free(junk);
  return 0;
}
