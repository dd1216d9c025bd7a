/* Inline steps (kernel/engine.c, issue 27): an actor that blocks while nobody else is runnable
 * moves the clock itself. The order of everything and every date must be what the maestro
 * gives. Random mixes of sleeps (ties, and ends a hair apart, within the timing precision),
 * computations sharing one CPU (whose events wake others), yields and unblocks run with
 * contexts/inline-steps yes and no, through both factories and both switching modes; the
 * logs of (actor, step, date bits) must be identical, and the inline run must really have
 * stepped inline. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/activity.h"
#include "kernel/engine.h"
#include "src/cfg.h"

static const char *factories[] = {"raw", "ucontext"};

static act_model model;
static lmm_constraint *cpu;

#define LOG_MAX 200000
static struct log_entry {
  int actor, step;
  double date;
} trace[LOG_MAX];
static size_t trace_n;

static void note(int actor, int step)
{
  if (trace_n < LOG_MAX)
    trace[trace_n++] = (struct log_entry){actor, step, eng_now()};
}

struct agent {
  int id;
  unsigned seed;
  int steps;
};
static eng_actor *sleeper; /* blocked in eng_block, woken by others */

static unsigned rnd(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

static void agent_fn(void *arg)
{
  struct agent *g = arg;
  for (int i = 0; i < g->steps; i++) {
    unsigned r = rnd(&g->seed) % 100;
    if (r < 45) { /* polling-like sleeps: a grid of ties, some a hair past a grid point */
      double d = 1e-3 * (1 + rnd(&g->seed) % 4);
      if (rnd(&g->seed) % 5 == 0)
        d += 3e-10; /* within precision/timing of another's end */
      eng_sleep(d);
    } else if (r < 75) { /* a computation sharing the CPU with the others' */
      act_action *a = act_action_new(&model, 1 + rnd(&g->seed) % 50, 0, 1, -1, 1, NULL, NULL);
      lmm_expand(model.sys, cpu, a->var, 1.0);
      act_wait(a);
      act_action_free(a);
    } else if (r < 85) {
      eng_yield();
    } else if (r < 92 && sleeper && eng_actor_is_blocked(sleeper)) {
      eng_unblock(sleeper);
    } else {
      eng_sleep(0);
    }
    note(g->id, i);
  }
}

static void blocked_fn(void *arg)
{
  (void)arg;
  for (int i = 0; i < 50; i++) {
    eng_block(NULL, NULL);
    note(-1, i);
  }
  sleeper = NULL;
}

/* daemon-free "watchdog": ends the blocked actor when the agents are done */
static void reaper_fn(void *arg)
{
  (void)arg;
  eng_sleep(1e3);
  if (sleeper)
    eng_actor_kill(sleeper);
}

static size_t run(int factory, bool inl, bool direct, unsigned seed, int nagents,
                  unsigned long *inline_steps)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/factory", factories[factory], CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   0);
  ck_assert_int_eq(cfg_set("contexts/stack-size", "256", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("contexts/direct-switch", direct ? "yes" : "no", CFG_ORIGIN_CMDLINE,
                           err, sizeof err),
                   0);
  ck_assert_int_eq(cfg_set("contexts/inline-steps", inl ? "yes" : "no", CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   0);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "eng_init: %s", err);
  act_model_init(&model, "cpu", 1e-9);
  cpu = lmm_constraint_new(model.sys, NULL, 1000.0, LMM_SHARED);
  static struct agent agents[16];
  trace_n = 0;
  for (int i = 0; i < nagents; i++) {
    agents[i] = (struct agent){i, seed * 31 + (unsigned)i, 400};
    eng_actor_create("agent", agent_fn, &agents[i]);
  }
  sleeper = eng_actor_create("blocked", blocked_fn, NULL);
  eng_actor_create("reaper", reaper_fn, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  eng_stats st;
  eng_get_stats(&st);
  *inline_steps = st.inline_steps;
  act_model_destroy(&model);
  eng_shutdown();
  return trace_n;
}

static struct log_entry ref[LOG_MAX];

START_TEST(test_inline_same_order_and_dates)
{
  int factory = _i % 2;
  bool direct = _i / 2 == 0;
  for (unsigned seed = 1; seed <= 6; seed++) {
    int nagents = 1 + (int)(seed % 4); /* 1 agent: nearly every step inline */
    unsigned long steps_off, steps_on;
    size_t n_off = run(factory, false, direct, seed, nagents, &steps_off);
    memcpy(ref, trace, n_off * sizeof *trace);
    size_t n_on = run(factory, true, direct, seed, nagents, &steps_on);
    ck_assert_uint_eq(steps_off, 0);
    ck_assert_msg(steps_on > 0, "seed %u: no inline step", seed);
    ck_assert_uint_eq(n_on, n_off);
    for (size_t k = 0; k < n_on; k++)
      ck_assert_msg(ref[k].actor == trace[k].actor && ref[k].step == trace[k].step &&
                        memcmp(&ref[k].date, &trace[k].date, sizeof(double)) == 0,
                    "seed %u, entry %zu: maestro (%d, %d, %.17g), inline (%d, %d, %.17g)", seed,
                    k, ref[k].actor, ref[k].step, ref[k].date, trace[k].actor, trace[k].step,
                    trace[k].date);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("inline");
  TCase *tc = tcase_create("inline");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_inline_same_order_and_dates, 0, 4);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
