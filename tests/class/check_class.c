/* The class path (kernel/act_class.c, maxmin/class-sharing:yes) against the general path:
 * random flows on a shared backbone (random sizes, starts, bandwidth factors, penalties,
 * latencies), some cancelled, some that cannot join (a bound that binds, a flow that does not
 * cross the backbone, a capacity change, host links that saturate as the backbone's level
 * rises). The same scenario runs on both paths; rates sampled at random dates and
 * completion dates must agree to the tolerances below, and the class run must have formed,
 * joined and dissolved classes (else the comparison proves nothing).
 *
 * Tolerances. Rates: both paths compute capacity / sum(coef / penalty) / penalty, the general
 * path with its usage summed in another order (lmm_fast_bottleneck's running sum, or the
 * filling's sum over F): a few ulps, so RATE_TOL = 1e-12. Dates: a flow's remaining is
 * r0 - f (V(t) - V(t0)) on the class path and r0 - s1 d1 - s2 d2 - ... on the general
 * path, each step rounded: the relative difference grows by about 1e-16 per rate change a
 * flow lives through (a few hundred here), so DATE_TOL = 1e-11 leaves two orders of
 * magnitude of margin, while any real error in the class's arithmetic (a member counted
 * twice, a wrong factor, a date off by one event) moves dates by far more than 1e-6. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/act_class.h"
#include "kernel/activity.h"
#include "kernel/engine.h"
#include "src/cfg.h"
#include "src/rng.h"

#define RATE_TOL 1e-12
#define DATE_TOL 1e-11
#define NHOSTS 48
#define NFLOWS 400
#define NSAMPLES 40

typedef struct flow_spec {
  int src, dst; /* dst < 0: a flow on src's up link only (does not cross the backbone) */
  double start, work, latency, penalty, bound, factor;
  double cancel_at;  /* < 0: never */
  double done, left; /* results: date it ended, remaining when cancelled */
  act_state state;
  act_action *a;
} flow_spec;

typedef struct scenario {
  flow_spec f[NFLOWS];
  double sample_at[NSAMPLES];
  double rate[NSAMPLES][NFLOWS]; /* speed of each running flow at each sample, -1 if none */
  double cap_change_at, cap_change_to;
  bool calm;
} scenario;

static act_model model;
static lmm_constraint *backbone, *up[NHOSTS], *down[NHOSTS];
static scenario *cur;

static rng_state rng_st; /* src/rng.h: the project's reproducible stream */
static double urand(void) { return rng_uniform(&rng_st); }

static void make_scenario(scenario *s, unsigned seed)
{
  memset(s, 0, sizeof *s);
  rng_seed(&rng_st, seed);
  /* odd seeds: like a collective's steps on a flat cluster (every host link as fast as the
   * backbone's share needs, few intruders); even seeds: more of everything that breaks a
   * class (slow host links, foreign flows, bounds that bind) */
  s->calm = seed % 2;
  for (int i = 0; i < NFLOWS; i++) {
    flow_spec *f = &s->f[i];
    f->src = (int)(urand() * NHOSTS);
    f->dst = (int)(urand() * NHOSTS);
    if (f->dst == f->src)
      f->dst = (f->src + 1) % NHOSTS;
    if (urand() < (s->calm ? 0.003 : 0.02))
      f->dst = -1;
    /* bursts: most flows start at one of a few dates, as a collective's do */
    f->start = urand() < 0.7 ? floor(urand() * 6) * 10 : urand() * 60;
    f->work = 50 + urand() * 5000;
    f->latency = urand() < 0.5 ? urand() * 0.5 : 0;
    f->penalty = f->latency > 0 ? 1 + floor(urand() * 3) : 1;
    f->bound = urand() < (s->calm ? 0 : 0.01) ? 5 : (urand() < 0.5 ? 1e6 : -1);
    f->factor = 0.5 + 0.5 * urand();
    f->cancel_at = urand() < 0.05 ? f->start + urand() * 20 : -1;
    f->done = -1;
  }
  for (int k = 0; k < NSAMPLES; k++)
    s->sample_at[k] = urand() * 80;
  s->cap_change_at = seed % 3 == 0 ? 15 + urand() * 30 : -1;
  s->cap_change_to = 600 + urand() * 800;
}

static void flow_actor(void *arg)
{
  flow_spec *f = arg;
  eng_sleep(f->start);
  int n = f->dst < 0 ? 1 : 3;
  act_action *a = act_action_new(&model, f->work, f->latency, f->penalty, f->bound, (size_t)n,
                                 NULL, NULL);
  act_action_set_rate_factor(a, f->factor);
  lmm_expand(model.sys, up[f->src], a->var, 1.0);
  if (f->dst >= 0) {
    lmm_expand(model.sys, backbone, a->var, 1.0);
    lmm_expand(model.sys, down[f->dst], a->var, 1.0);
  }
  f->a = a;
  f->state = act_wait(a);
  f->done = eng_now();
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

static double speed_of(const act_action *a)
{
  if (a->state != ACT_RUNNING || a->in_latency)
    return 0;
  return a->cls ? act_class_value(a) * a->rate_factor : a->speed;
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
      cur->rate[best][i] = cur->f[i].a ? speed_of(cur->f[i].a) : -1;
  }
}

static void cap_changer(void *arg)
{
  (void)arg;
  eng_sleep(cur->cap_change_at);
  act_classes_capacity_changed(&model, backbone);
  lmm_constraint_set_capacity(model.sys, backbone, cur->cap_change_to);
  model.dirty = true;
}

static void run(scenario *s, bool classes, act_class_stats *st)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/stack-size", "64", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "eng_init: %s", err);
  act_model_init(&model, "network", 1e-5); /* the network model's precision */
  if (classes)
    act_classes_enable(&model, 8);
  backbone = lmm_constraint_new(model.sys, NULL, 1000.0, LMM_SHARED);
  for (int h = 0; h < NHOSTS; h++) {
    up[h] = lmm_constraint_new(model.sys, NULL, !s->calm && h % 8 == 0 ? 60.0 : 200.0,
                               LMM_SHARED);
    down[h] = lmm_constraint_new(model.sys, NULL, 200.0, LMM_SHARED);
  }
  cur = s;
  for (int i = 0; i < NFLOWS; i++) {
    eng_actor_create("flow", flow_actor, &s->f[i]);
    if (s->f[i].cancel_at >= 0)
      eng_actor_create("cancel", canceller, &s->f[i]);
  }
  eng_actor_create("sampler", sampler, NULL);
  if (s->cap_change_at >= 0)
    eng_actor_create("capacity", cap_changer, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  act_classes_get_stats(&model, st);
  act_model_destroy(&model);
  eng_shutdown();
}

static double rel(double a, double b)
{
  double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
  return m > 0 ? d / m : 0;
}

static scenario general, with_classes;
static act_class_stats total;
static double worst_rate, worst_date;

START_TEST(test_random_scenarios)
{
  unsigned seed = (unsigned)_i;
  make_scenario(&general, seed);
  make_scenario(&with_classes, seed);
  act_class_stats st0, st;
  run(&general, false, &st0);
  run(&with_classes, true, &st);
  ck_assert_uint_eq(st0.formed, 0);
  total.formed += st.formed;
  total.joins += st.joins;
  total.dissolved += st.dissolved;
  total.leaves += st.leaves;
  total.broken_join += st.broken_join;
  total.broken_level += st.broken_level;
  total.broken_capacity += st.broken_capacity;
  for (int i = 0; i < NFLOWS; i++) {
    const flow_spec *g = &general.f[i], *c = &with_classes.f[i];
    ck_assert_int_eq(g->state, c->state);
    double r = rel(g->done, c->done);
    if (r > worst_date)
      worst_date = r;
    ck_assert_msg(r <= DATE_TOL, "seed %u flow %d: ended at %.17g (general) vs %.17g (classes)",
                  seed, i, g->done, c->done);
    if (g->state == ACT_CANCELED)
      ck_assert_msg(fabs(g->left - c->left) <= DATE_TOL * g->work,
                    "seed %u flow %d: cancelled with %.17g vs %.17g left", seed, i, g->left,
                    c->left);
  }
  for (int k = 0; k < NSAMPLES; k++)
    for (int i = 0; i < NFLOWS; i++) {
      double a = general.rate[k][i], b = with_classes.rate[k][i];
      ck_assert_msg((a < 0) == (b < 0), "seed %u sample %d flow %d: running in one run only",
                    seed, k, i);
      double r = rel(a, b);
      if (r > worst_rate)
        worst_rate = r;
      ck_assert_msg(r <= RATE_TOL, "seed %u sample %d (t = %g) flow %d: rate %.17g vs %.17g",
                    seed, k, general.sample_at[k], i, a, b);
    }
}
END_TEST

/* the scenarios exercised every part of the class path */
START_TEST(test_coverage)
{
  printf("classes: %lu formed, %lu joins, %lu leaves, %lu dissolved (%lu by a flow that could "
         "not join, %lu by a link reaching saturation, %lu by a capacity change); worst "
         "relative difference: rates %.3g, dates %.3g\n",
         total.formed, total.joins, total.leaves, total.dissolved, total.broken_join,
         total.broken_level, total.broken_capacity, worst_rate, worst_date);
  ck_assert_uint_gt(total.formed, 30);
  ck_assert_uint_gt(total.joins, 2000);
  ck_assert_uint_gt(total.leaves, 3000);
  ck_assert_uint_gt(total.broken_join, 5);
  ck_assert_uint_gt(total.broken_level, 5);
  ck_assert_uint_gt(total.broken_capacity, 0);
  ck_assert_uint_eq(total.dissolved,
                    total.broken_join + total.broken_level + total.broken_capacity);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("class");
  TCase *tc = tcase_create("class");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_random_scenarios, 0, 24);
  tcase_add_test(tc, test_coverage);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK); /* the totals carry over to test_coverage */
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
