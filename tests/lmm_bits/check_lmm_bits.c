/* The max-min solver's results, bit for bit, on random multi-level fat trees under churn:
 * a fingerprint of every value after every solve, pinned in this file. The solver's memory
 * layout is tuned for what a solve touches per flow and per link (kernel/lmm_private.h);
 * such a change must not move one bit of any allocation, which this checks where the
 * whole-program fingerprints (tools/bench/same_bits.sh) see only the dates that reach a
 * trace. The scenarios exercise each of lmm_solve's paths, and the test asserts that each
 * ran: local repairs growing over several links, fallbacks to full passes, the
 * one-bottleneck fast path with followers (the links in series with the bottleneck) and
 * boundary links saturated by other flows, flows starting and ending alone.
 *
 *   hosts h (H per leaf) ── host_up[h] ──> leaf l ── up[l][s] ──> spine s ── down[s][l'] ──>
 *   leaf l' ── host_down[h'] ──> h'        s = h' mod S (destination-mod-k, as SMPI's fat tree)
 *   same leaf: host_up[h], switch[l] (FATPIPE), host_down[h']
 * Each flow also uses its reverse route with coefficient 0.05 (SMPI's cross-traffic), has
 * penalty latency + sum 8775 / bandwidth, and sometimes a bound that binds. Capacities are
 * drawn per scenario, so that links of several levels saturate at different levels.
 *
 * Phases per scenario: random pairs, then a linear gather into one host from everywhere
 * (flows ending and starting one at a time: the fast path), then a gather from one leaf
 * only (the leaf's up link and the root's leaf's down link carry exactly the root's flows:
 * followers), with latency phases (a flow created disabled, enabled later).
 *
 * PINNED is the fingerprint computed by the solver before the layout work (commit 238d435):
 * a change of it means some allocation moved by at least one bit. */
#include "kernel/lmm.h"
#include "src/rng.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEAVES = 6, HPL = 12, HOSTS = LEAVES * HPL, SPINES = 4, MAXF = 600 };

#define PINNED 0x542e19fdd674ee0dULL

typedef struct net {
  lmm_system *sys;
  lmm_constraint *host_up[HOSTS], *host_down[HOSTS], *sw[LEAVES];
  lmm_constraint *up[LEAVES][SPINES], *down[SPINES][LEAVES];
  double host_bw, up_bw;
  lmm_variable *flow[MAXF];
  int nflows;
  rng_state rng;
} net;

static double unif(net *n, double lo, double hi) { return lo + (hi - lo) * rng_uniform(&n->rng); }
static int pick(net *n, int k) { return (int)(rng_next(&n->rng) % (uint64_t)k); }

static void net_init(net *n, uint64_t seed)
{
  memset(n, 0, sizeof *n);
  rng_seed(&n->rng, seed);
  n->sys = lmm_system_new(1e-9);
  n->host_bw = 1.25e9;
  n->up_bw = 1.25e9 * unif(n, 0.3, 2.0); /* oversubscribed or not, per scenario */
  for (int h = 0; h < HOSTS; h++) {
    n->host_up[h] = lmm_constraint_new(n->sys, NULL, n->host_bw, LMM_SHARED);
    n->host_down[h] = lmm_constraint_new(n->sys, NULL, n->host_bw, LMM_SHARED);
  }
  for (int l = 0; l < LEAVES; l++) {
    n->sw[l] = lmm_constraint_new(n->sys, NULL, 4e10, LMM_FATPIPE);
    for (int s = 0; s < SPINES; s++) {
      n->up[l][s] = lmm_constraint_new(n->sys, NULL, n->up_bw * unif(n, 0.9, 1.1), LMM_SHARED);
      n->down[s][l] = lmm_constraint_new(n->sys, NULL, n->up_bw * unif(n, 0.9, 1.1), LMM_SHARED);
    }
  }
}

/* the links from a to b, forward (coef 1) or reverse (cross-traffic: b to a at 0.05) */
static int route(const net *n, int a, int b, lmm_constraint **out)
{
  int la = a / HPL, lb = b / HPL, k = 0;
  out[k++] = n->host_up[a];
  if (la == lb) {
    out[k++] = n->sw[la];
  } else {
    out[k++] = n->up[la][b % SPINES];
    out[k++] = n->down[b % SPINES][lb];
  }
  out[k++] = n->host_down[b];
  return k;
}

/* a flow a -> b; enabled: taking its share at once, else in its latency phase */
static void flow_start(net *n, int a, int b, bool enabled)
{
  if (n->nflows == MAXF)
    return;
  lmm_constraint *fwd[4], *rev[4];
  int nf = route(n, a, b, fwd), nr = route(n, b, a, rev);
  double lat = (nf - 1) * 1e-6, pen = lat;
  for (int k = 0; k < nf; k++)
    pen += 8775 / n->host_bw;
  double bound = pick(n, 10) == 0 ? n->host_bw * unif(n, 0.01, 0.3) : 4194304 / (2 * lat);
  lmm_variable *v = lmm_variable_new(n->sys, NULL, enabled ? pen : 0, bound, 8);
  for (int k = 0; k < nf; k++)
    lmm_expand(n->sys, fwd[k], v, 1);
  for (int k = 0; k < nr; k++)
    lmm_expand(n->sys, rev[k], v, 0.05);
  if (!enabled)
    lmm_variable_set_bound(n->sys, v, bound); /* (a no-op change: the variable stays marked) */
  n->flow[n->nflows++] = v;
}

static void flow_end(net *n, int i)
{
  lmm_variable_free(n->sys, n->flow[i]);
  n->flow[i] = n->flow[--n->nflows];
}

/* the latency phase of a random disabled flow ends */
static void enable_one(net *n)
{
  for (int tries = 0; tries < 8 && n->nflows; tries++) {
    lmm_variable *v = n->flow[pick(n, n->nflows)];
    if (lmm_variable_penalty(v) == 0) {
      lmm_variable_set_penalty(n->sys, v, unif(n, 2e-6, 1e-5));
      return;
    }
  }
}

static uint64_t fold(uint64_t h, double x)
{
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  for (int i = 0; i < 8; i++) {
    h ^= (bits >> (8 * i)) & 0xff;
    h *= 0x100000001b3ULL; /* FNV-1a */
  }
  return h;
}

static uint64_t solve_and_fold(net *n, uint64_t h)
{
  lmm_solve(n->sys);
  for (size_t i = 0; i < lmm_variable_count(n->sys); i++)
    h = fold(h, lmm_variable_value(lmm_variable_at(n->sys, i)));
  return h;
}

static uint64_t scenario(uint64_t seed, lmm_stats *st)
{
  net *n = calloc(1, sizeof *n);
  net_init(n, seed);
  uint64_t h = 0xcbf29ce484222325ULL;
  /* random pairs, in batches and one by one */
  for (int i = 0; i < 150; i++) {
    int a = pick(n, HOSTS), b = pick(n, HOSTS - 1);
    flow_start(n, a, b + (b >= a), pick(n, 3) != 0);
    if (i % 7 == 6)
      h = solve_and_fold(n, h);
  }
  h = solve_and_fold(n, h);
  for (int i = 0; i < 200; i++) {
    int op = pick(n, 4);
    if (op == 0 && n->nflows)
      flow_end(n, pick(n, n->nflows));
    else if (op == 1)
      enable_one(n);
    else {
      int a = pick(n, HOSTS), b = pick(n, HOSTS - 1);
      flow_start(n, a, b + (b >= a), op == 2);
    }
    h = solve_and_fold(n, h);
  }
  while (n->nflows)
    flow_end(n, 0);
  h = solve_and_fold(n, h);
  /* linear gather into one host, then from one leaf only (followers) */
  int root = pick(n, HOSTS);
  for (int phase = 0; phase < 2; phase++) {
    int lo = 0, hi = HOSTS;
    if (phase == 1) {
      lo = ((root / HPL + 1) % LEAVES) * HPL;
      hi = lo + HPL;
    }
    for (int a = lo; a < hi; a++)
      if (a != root)
        flow_start(n, a, root, true);
    h = solve_and_fold(n, h);
    for (int i = 0; i < 120 && n->nflows; i++) {
      flow_end(n, pick(n, n->nflows));
      h = solve_and_fold(n, h);
      if (i % 3 == 0) {
        int a = lo + pick(n, hi - lo);
        if (a != root)
          flow_start(n, a, root, true);
        h = solve_and_fold(n, h);
      }
    }
    while (n->nflows)
      flow_end(n, n->nflows - 1);
    h = solve_and_fold(n, h);
  }
  lmm_stats s;
  lmm_get_stats(n->sys, &s);
  st->solves += s.solves;
  st->passes += s.passes;
  st->fallbacks += s.fallbacks;
  st->fast_empty += s.fast_empty;
  st->fast_lone += s.fast_lone;
  st->fast_bottleneck += s.fast_bottleneck;
  st->fast_full += s.fast_full;
  lmm_system_free(n->sys);
  free(n);
  return h;
}

START_TEST(allocations_keep_their_bits)
{
  lmm_stats st = {0};
  uint64_t h = 0;
  for (uint64_t seed = 1; seed <= 24; seed++)
    h = h * 31 + scenario(0x9E3779B97F4A7C15ULL * seed, &st);
  printf("lmm_bits: fingerprint 0x%016llx over %lu solves (%lu passes, %lu fallbacks, fast "
         "paths: empty %lu, lone %lu, bottleneck %lu, full %lu)\n",
         (unsigned long long)h, st.solves, st.passes, st.fallbacks, st.fast_empty, st.fast_lone,
         st.fast_bottleneck, st.fast_full);
  fflush(stdout);
  /* every path ran, several times; some local repairs took more than one pass */
  ck_assert_uint_ge(st.fallbacks, 1000);
  ck_assert_uint_ge(st.fast_bottleneck, 1000);
  ck_assert_uint_ge(st.fast_lone, 10);
  ck_assert_uint_ge(st.fast_empty, 50);
  ck_assert_uint_gt(st.passes, st.solves);
  ck_assert_msg(h == PINNED, "fingerprint 0x%016llx, pinned 0x%016llx: an allocation moved",
                (unsigned long long)h, (unsigned long long)PINNED);
}
END_TEST

static Suite *bits_suite(void)
{
  Suite *s = suite_create("lmm_bits");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, allocations_keep_their_bits);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(bits_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
