/* The exact class (kernel/act_exact.c, maxmin/exact-class) against the flow-by-flow path,
 * bit for bit: random systems of flows through the activity layer, on a two-level tree
 * where most flows go to host 0 (the root's link of a linear Reduce), with what breaks a
 * class mixed in (other penalties, bounds that bind, bandwidth factors, latencies,
 * cancellations, bounds changed in flight, a capacity change, slow leaf links that saturate,
 * slow up links that a member saturates once few flows share the root's link, flows that
 * never cross the root's link, scenarios where every flow goes to the root). Each scenario runs twice, with the class and without; every flow's end
 * date, state, work left when cancelled and rank in the order of ends, and every running
 * flow's remaining work and every link's load, max_level and saturation (as the next solve
 * reads them, lazy links included) at 40 random dates, must be the same doubles. The class run must
 * have formed, moved, joined, left and dissolved classes (else it proves nothing). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/act_exact.h"
#include "kernel/activity.h"
#include "kernel/engine.h"
#include "kernel/lmm_private.h" /* the loads as kept, not recomputed */
#include "src/cfg.h"
#include "src/rng.h"

#define NHOSTS 256
#define PER_LEAF 16
#define NLEAVES (NHOSTS / PER_LEAF)
#define NFLOWS 1000
#define NSAMPLES 40
#define NLINKS (2 * NHOSTS + 2 * NLEAVES)

typedef struct flow_spec {
  int src, dst;
  double start, work, latency, penalty, bound, factor;
  double cancel_at;  /* < 0: never */
  double rebound_at; /* < 0: never; else its bound is set to 1e6 or 3 then (an API call) */
  double done, left; /* results */
  long rank;         /* in the order of ends */
  act_state state;
  act_action *a;
} flow_spec;

typedef struct scenario {
  flow_spec f[NFLOWS];
  double sample_at[NSAMPLES];
  double left[NSAMPLES][NFLOWS]; /* remaining work of each running flow, -1 if none */
  /* every link's load, max_level and saturation as the next solve reads them (the lazy
   * links' pending events applied, lmm_constraint_state) */
  double load[NSAMPLES][NLINKS], max_level[NSAMPLES][NLINKS];
  bool sat[NSAMPLES][NLINKS];
  double cap_change_at, cap_change_to;
  bool calm;
  bool pure;    /* every flow to host 0: the leaf links carry members only (k up to 16) */
  bool slow_up; /* some hosts' up links saturate once few flows share the root's link */
  bool ladder;  /* 20 flows to the root end one by one; the last one's up link binds at 9 */
  long ended;
} scenario;

static act_model model;
static lmm_constraint *up[NHOSTS], *down[NHOSTS], *leaf_up[NLEAVES], *leaf_down[NLEAVES];
static scenario *cur;

static rng_state rng_st;
static double urand(void) { return rng_uniform(&rng_st); }

static void make_scenario(scenario *s, unsigned seed)
{
  memset(s, 0, sizeof *s);
  rng_seed(&rng_st, seed);
  /* odd seeds: a Reduce's flows, one penalty and factor, few intruders; even: a mix */
  s->calm = seed % 2;
  s->pure = seed % 4 == 3;
  s->slow_up = seed % 4 == 1;
  double odd = s->calm ? 0.01 : 0.1;
  for (int i = 0; i < NFLOWS; i++) {
    flow_spec *f = &s->f[i];
    f->src = 1 + (int)(urand() * (NHOSTS - 1));
    f->dst = s->pure || urand() < (s->calm ? 0.9 : 0.6) ? 0 : (int)(urand() * NHOSTS);
    if (f->dst == f->src)
      f->dst = 0;
    /* bursts, as a collective's steps, and flows of equal sizes (ties) */
    f->start = urand() < 0.5 ? floor(urand() * 6) * 10 : urand() * 60;
    f->work = urand() < 0.3 ? 1000 : 50 + urand() * 5000;
    f->latency = urand() < 0.5 ? 1e-3 * floor(urand() * 4) : 0;
    f->penalty = urand() < odd ? 2 : 1;
    f->bound = urand() < odd ? 5 : (urand() < 0.5 ? 1e6 : -1);
    f->factor = urand() < odd ? 0.5 + 0.5 * urand() : 0.97;
    f->cancel_at = urand() < 0.03 ? f->start + urand() * 20 : -1;
    f->rebound_at = urand() < 0.05 ? f->start + urand() * 20 : -1;
    f->done = -1;
  }
  for (int k = 0; k < NSAMPLES; k++)
    s->sample_at[k] = urand() * 80;
  s->cap_change_at = seed % 3 == 0 ? 15 + urand() * 30 : -1;
  s->ladder = seed >= 24;
  for (int i = 0; s->ladder && i < 20; i++) { /* host i + 1, the longest on host 20 */
    s->f[i] = (flow_spec){.src = i + 1,
                          .work = 50.0 * (i + 1),
                          .penalty = 1,
                          .bound = -1,
                          .factor = 0.97,
                          .cancel_at = -1,
                          .rebound_at = -1,
                          .done = -1};
  }
  for (int i = 20; s->ladder && i < NFLOWS; i++)
    s->f[i].start += 1000;
  s->cap_change_to = 600 + urand() * 800;
}

static void flow_actor(void *arg)
{
  flow_spec *f = arg;
  eng_sleep(f->start);
  act_action *a = act_action_new(&model, f->work, f->latency, f->penalty, f->bound, 4, NULL,
                                 NULL);
  act_action_set_rate_factor(a, f->factor);
  int ls = f->src / PER_LEAF, ld = f->dst / PER_LEAF;
  lmm_expand(model.sys, up[f->src], a->var, 1.0);
  if (ls != ld) {
    lmm_expand(model.sys, leaf_up[ls], a->var, 1.0);
    lmm_expand(model.sys, leaf_down[ld], a->var, 1.0);
  }
  lmm_expand(model.sys, down[f->dst], a->var, 1.0);
  f->a = a;
  f->state = act_wait(a);
  f->done = eng_now();
  f->rank = cur->ended++;
  f->left = a->remaining;
  f->a = NULL;
  act_action_free(a);
}

static void canceller(void *arg)
{
  flow_spec *f = arg;
  eng_sleep(f->cancel_at);
  if (f->a)
    act_action_cancel(f->a, ACT_CANCELED);
}

static void rebounder(void *arg)
{
  flow_spec *f = arg;
  eng_sleep(f->rebound_at);
  if (f->a && f->a->var) {
    lmm_variable_set_bound(model.sys, f->a->var, f - cur->f < NFLOWS / 2 ? 1e6 : 3);
    model.dirty = true;
  }
}

static void sampler(void *arg)
{
  (void)arg;
  double order[NSAMPLES];
  memcpy(order, cur->sample_at, sizeof order);
  for (int k = 0; k < NSAMPLES; k++) {
    int best = -1;
    for (int j = 0; j < NSAMPLES; j++)
      if (order[j] >= 0 && (best < 0 || order[j] < order[best]))
        best = j;
    eng_sleep(order[best] - eng_now());
    order[best] = -1;
    for (int i = 0; i < NFLOWS; i++)
      cur->left[best][i] = cur->f[i].a ? act_action_remaining(cur->f[i].a) : -1;
    for (int l = 0; l < NLINKS; l++) { /* with the bookkeeping the next solves start from */
      const lmm_constraint *c = lmm_constraint_at(model.sys, (size_t)l);
      lmm_constraint_state(model.sys, c, &cur->load[best][l], &cur->max_level[best][l],
                           &cur->sat[best][l]);
    }
  }
}

static void cap_changer(void *arg)
{
  (void)arg;
  eng_sleep(cur->cap_change_at);
  lmm_constraint_set_capacity(model.sys, down[0], cur->cap_change_to);
  model.dirty = true;
}

static lmm_stats lazy; /* the class runs' lazy links (lmm_fast_bottleneck.c) */

static void run(scenario *s, bool exact, act_exact_stats *st)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/stack-size", "64", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "eng_init: %s", err);
  act_model_init(&model, "network", 1e-5); /* the network model's precision */
  if (exact)
    act_exact_enable(&model, 4);
  for (int h = 0; h < NHOSTS; h++) {
    double cap = s->slow_up && h % 5 == 2 ? 60.0 : 1000.0;
    if (s->ladder && h == 20)
      cap = 105.0; /* 1000 / 10 flows fits, 1000 / 9 does not */
    up[h] = lmm_constraint_new(model.sys, NULL, cap, LMM_SHARED);
    down[h] = lmm_constraint_new(model.sys, NULL, 1000.0, LMM_SHARED);
  }
  for (int l = 0; l < NLEAVES; l++) { /* some slow ones saturate in the mixed scenarios */
    double cap = !s->calm && l % 3 == 1 ? 150.0 : 2000.0;
    leaf_up[l] = lmm_constraint_new(model.sys, NULL, cap, LMM_SHARED);
    leaf_down[l] = lmm_constraint_new(model.sys, NULL, cap, LMM_SHARED);
  }
  cur = s;
  for (int i = 0; i < NFLOWS; i++) {
    eng_actor_create("flow", flow_actor, &s->f[i]);
    if (s->f[i].cancel_at >= 0)
      eng_actor_create("cancel", canceller, &s->f[i]);
    if (s->f[i].rebound_at >= 0)
      eng_actor_create("rebound", rebounder, &s->f[i]);
  }
  eng_actor_create("sampler", sampler, NULL);
  if (s->cap_change_at >= 0)
    eng_actor_create("capacity", cap_changer, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  act_exact_get_stats(&model, st);
  if (exact) {
    lmm_stats ls;
    lmm_get_stats(model.sys, &ls);
    lazy.lazy_skips += ls.lazy_skips;
    lazy.lazy_replays += ls.lazy_replays;
  }
  act_model_destroy(&model);
  eng_shutdown();
}

/* the same double, bit for bit (both are finite or -1 here) */
static bool same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static scenario general, with_class;
static act_exact_stats total;

START_TEST(test_random_scenarios)
{
  unsigned seed = (unsigned)_i;
  make_scenario(&general, seed);
  make_scenario(&with_class, seed);
  act_exact_stats st0, st;
  run(&general, false, &st0);
  run(&with_class, true, &st);
  ck_assert_uint_eq(st0.formed, 0);
  total.formed += st.formed;
  total.dissolved += st.dissolved;
  total.by_solve += st.by_solve;
  total.by_api += st.by_api;
  total.resynced += st.resynced;
  total.events += st.events;
  total.joined += st.joined;
  total.left += st.left;
  for (int i = 0; i < NFLOWS; i++) {
    const flow_spec *g = &general.f[i], *c = &with_class.f[i];
    ck_assert_int_eq(g->state, c->state);
    ck_assert_msg(same(g->done, c->done), "seed %u flow %d: ended at %.17g vs %.17g (class)",
                  seed, i, g->done, c->done);
    ck_assert_msg(g->rank == c->rank, "seed %u flow %d: ended %ld-th vs %ld-th (class)", seed, i,
                  g->rank, c->rank);
    ck_assert_msg(same(g->left, c->left), "seed %u flow %d: %.17g vs %.17g left (class)", seed, i,
                  g->left, c->left);
  }
  for (int k = 0; k < NSAMPLES; k++)
    for (int i = 0; i < NFLOWS; i++)
      ck_assert_msg(same(general.left[k][i], with_class.left[k][i]),
                    "seed %u sample %d (t = %g) flow %d: %.17g vs %.17g left (class)", seed, k,
                    general.sample_at[k], i, general.left[k][i], with_class.left[k][i]);
  for (int k = 0; k < NSAMPLES; k++)
    for (int l = 0; l < NLINKS; l++)
      ck_assert_msg(same(general.load[k][l], with_class.load[k][l]),
                    "seed %u sample %d (t = %g) link %d: load %.17g vs %.17g (class)", seed, k,
                    general.sample_at[k], l, general.load[k][l], with_class.load[k][l]);
  for (int k = 0; k < NSAMPLES; k++)
    for (int l = 0; l < NLINKS; l++) {
      ck_assert_msg(same(general.max_level[k][l], with_class.max_level[k][l]),
                    "seed %u sample %d link %d: max_level %.17g vs %.17g (class)", seed, k, l,
                    general.max_level[k][l], with_class.max_level[k][l]);
      ck_assert_msg(general.sat[k][l] == with_class.sat[k][l],
                    "seed %u sample %d link %d: saturated %d vs %d (class)", seed, k, l,
                    general.sat[k][l], with_class.sat[k][l]);
    }
}
END_TEST

START_TEST(test_coverage)
{
  printf("exact class: %lu formed, %lu dissolved (%lu by a solve, %lu by an API call), %lu "
         "events by class, %lu solves followed as one, %lu flows joined, %lu left\n",
         total.formed, total.dissolved, total.by_solve, total.by_api, total.events,
         total.resynced, total.joined, total.left);
  printf("lazy links: %lu walks skipped, %lu events replayed\n", lazy.lazy_skips,
         lazy.lazy_replays);
  ck_assert_uint_gt(lazy.lazy_skips, 1000);
  ck_assert_uint_gt(lazy.lazy_replays, 1000);
  ck_assert_uint_gt(total.formed, 20);
  ck_assert_uint_gt(total.by_solve, 5);
  ck_assert_uint_gt(total.by_api, 1);
  ck_assert_uint_gt(total.resynced, 2000);
  ck_assert_uint_gt(total.events, 5000);
  ck_assert_uint_gt(total.joined, 600);
  ck_assert_uint_gt(total.left, 300);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("exact_class");
  TCase *tc = tcase_create("exact_class");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_random_scenarios, 0, 26);
  tcase_add_test(tc, test_coverage);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK); /* the totals carry over to test_coverage */
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
