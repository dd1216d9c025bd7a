/* Engine: actor scheduling order, sleeping, blocking, kills, timers, deadlock reports,
 * lazily updated activities, determinism. Every test runs once per context factory. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/activity.h"
#include "kernel/engine.h"
#include "src/cfg.h"

static const char *factories[] = {"raw", "ucontext"};
static bool via_maestro; /* contexts/direct-switch:no */

static void start_engine(int factory_index)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/factory", factories[factory_index], CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   0);
  ck_assert_int_eq(cfg_set("contexts/stack-size", "256", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("contexts/direct-switch", via_maestro ? "no" : "yes",
                           CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "eng_init: %s", err);
}

/* ---- scheduling order ---- */
static char trace[256];
static size_t trace_len;
static void note(char c)
{
  trace[trace_len++] = c;
  trace[trace_len] = 0;
}

static void yielder(void *arg)
{
  char c = *(char *)arg;
  for (int i = 0; i < 3; i++) {
    note(c);
    eng_yield();
  }
}

START_TEST(test_round_robin_yield)
{
  start_engine(_i);
  trace_len = 0;
  static char names[] = "ABC";
  for (int i = 0; i < 3; i++) {
    char n[2] = {names[i], 0};
    eng_actor_create(n, yielder, &names[i]);
  }
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_str_eq(trace, "ABCABCABC");
  ck_assert_double_eq(eng_now(), 0.0);
  eng_shutdown();
  /* the same order when every switch goes through the maestro */
  via_maestro = true;
  start_engine(_i);
  via_maestro = false;
  trace_len = 0;
  for (int i = 0; i < 3; i++) {
    char n[2] = {names[i], 0};
    eng_actor_create(n, yielder, &names[i]);
  }
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_str_eq(trace, "ABCABCABC");
  eng_shutdown();
}
END_TEST

/* ---- the switch hook sees every hand-off, to actors and back to the maestro ---- */
static char switch_log[64];
static size_t switch_n;
static void on_switch(eng_actor *to)
{
  switch_log[switch_n++] = to ? eng_actor_name(to)[0] : 'M';
  switch_log[switch_n] = 0;
}

START_TEST(test_switch_hook)
{
  start_engine(_i);
  eng_on_switch(on_switch);
  switch_n = 0;
  trace_len = 0;
  static char names[] = "AB";
  eng_actor_create("A", yielder, &names[0]);
  eng_actor_create("B", yielder, &names[1]);
  ck_assert_int_eq(eng_run(), ENG_OK);
  /* 3 yields each then the end: A B A B A B A B, then back to the maestro */
  ck_assert_str_eq(switch_log, "ABABABABM");
  eng_shutdown();
}
END_TEST

/* ---- sleeping: wake in date order, ties in creation order ---- */
static double wake_dates[8];
static int wake_order[8];
static int wake_count;

static void sleeper(void *arg)
{
  int id = (int)(long)arg;
  static const double durations[] = {3.0, 1.0, 2.0, 1.0, 0.0};
  eng_sleep(durations[id]);
  wake_dates[id] = eng_now();
  wake_order[wake_count++] = id;
}

START_TEST(test_sleep_order)
{
  start_engine(_i);
  wake_count = 0;
  for (long i = 0; i < 5; i++)
    eng_actor_create("sleeper", sleeper, (void *)i);
  ck_assert_int_eq(eng_run(), ENG_OK);
  /* durations 3,1,2,1,0: woken at 0 (4), 1 (1 then 3: creation order), 2 (2), 3 (0) */
  int expected[] = {4, 1, 3, 2, 0};
  for (int i = 0; i < 5; i++)
    ck_assert_int_eq(wake_order[i], expected[i]);
  ck_assert_double_eq(wake_dates[0], 3.0);
  ck_assert_double_eq(wake_dates[2], 2.0);
  ck_assert_double_eq(eng_now(), 3.0);
  eng_shutdown();
}
END_TEST

/* ---- block / unblock across actors ---- */
static eng_actor *blocked_one;
static double resumed_at;

static void blocker(void *arg)
{
  blocked_one = eng_self();
  eng_block(NULL, NULL);
  resumed_at = eng_now();
}

static void waker(void *arg)
{
  eng_sleep(2.5);
  ck_assert(eng_actor_is_blocked(blocked_one));
  eng_unblock(blocked_one);
}

START_TEST(test_block_unblock)
{
  start_engine(_i);
  resumed_at = -1;
  eng_actor_create("blocker", blocker, NULL);
  eng_actor_create("waker", waker, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_double_eq(resumed_at, 2.5);
  eng_shutdown();
}
END_TEST

/* ---- kill ---- */
static int victim_resumed;
static eng_actor *victim;

static void victim_fn(void *arg)
{
  victim = eng_self();
  eng_sleep(10);
  victim_resumed = 1;
}

static void killer_fn(void *arg)
{
  eng_sleep(1);
  eng_actor_kill(victim);
}

static void suicide_fn(void *arg)
{
  eng_sleep(0.5);
  eng_actor_kill(eng_self());
  victim_resumed = 2; /* never reached */
}

START_TEST(test_kill)
{
  start_engine(_i);
  victim_resumed = 0;
  eng_actor_create("victim", victim_fn, NULL);
  eng_actor_create("killer", killer_fn, NULL);
  eng_actor_create("suicide", suicide_fn, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_int_eq(victim_resumed, 0);
  /* the victim's timer at 10 was cancelled: the clock stops at the kill */
  ck_assert_double_eq(eng_now(), 1.0);
  ck_assert_uint_eq(eng_actor_count(), 0);
  eng_shutdown();
}
END_TEST

/* ---- timers ---- */
static double timer_log[4];
static int timer_n;
static void timer_cb(void *arg) { timer_log[timer_n++] = *(double *)arg; }

static void timer_setter(void *arg)
{
  static double d1 = 1.5, d2 = 0.5, d3 = 0.7;
  eng_timer_set(1.5, timer_cb, &d1);
  eng_timer_set(0.5, timer_cb, &d2);
  eng_timer *t = eng_timer_set(0.7, timer_cb, &d3);
  eng_timer_cancel(t);
  eng_sleep(2);
}

START_TEST(test_timers)
{
  start_engine(_i);
  timer_n = 0;
  eng_actor_create("timers", timer_setter, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_int_eq(timer_n, 2);
  ck_assert_double_eq(timer_log[0], 0.5);
  ck_assert_double_eq(timer_log[1], 1.5);
  eng_shutdown();
}
END_TEST

/* ---- deadlock report (in a child: stderr is captured through a pipe) ---- */
static void describe_recv(eng_actor *a, void *data, char *buf, size_t len)
{
  snprintf(buf, len, "waiting for a message from %s", (const char *)data);
}

static void deadlocker(void *arg)
{
  eng_sleep(0.25);
  eng_block(describe_recv, arg);
}

START_TEST(test_deadlock_report)
{
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    start_engine(_i);
    eng_actor_create("rank 0", deadlocker, "rank 1");
    eng_actor_create("rank 1", deadlocker, "rank 0");
    int rc = eng_run();
    eng_shutdown();
    _exit(rc);
  }
  close(fds[1]);
  char buf[4096] = {0};
  size_t got = 0;
  ssize_t n;
  while ((n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
    got += (size_t)n;
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status));
  ck_assert_int_eq(WEXITSTATUS(status), ENG_DEADLOCK);
  ck_assert_msg(strstr(buf, "deadlock at simulated time 0.250000000"), "report: %s", buf);
  ck_assert_msg(strstr(buf, "rank 0 (pid 1): waiting for a message from rank 1"), "report: %s",
                buf);
  ck_assert_msg(strstr(buf, "rank 1 (pid 2): waiting for a message from rank 0"), "report: %s",
                buf);
}
END_TEST

/* ---- activities on a CPU-like constraint of capacity 100 units/s ---- */
static act_model model;
static lmm_constraint *cpu;
static double done_at[128];

static act_action *start_work(double work, double latency, double penalty, double bound)
{
  act_action *a = act_action_new(&model, work, latency, penalty, bound, 1, NULL, NULL);
  lmm_expand(model.sys, cpu, a->var, 1.0);
  return a;
}

struct job {
  double start, work, latency, penalty, bound, factor;
  int id;
};

static void job_fn(void *arg)
{
  struct job *j = arg;
  eng_sleep(j->start);
  act_action *a = start_work(j->work, j->latency, j->penalty, j->bound);
  if (j->factor > 0)
    act_action_set_rate_factor(a, j->factor);
  ck_assert_int_eq(act_wait(a), ACT_DONE);
  done_at[j->id] = eng_now();
  act_action_free(a);
}

/* when outage_to > outage_from, the constraint's capacity is 0 in between */
static double outage_from, outage_to;
static void outage_fn(void *arg)
{
  (void)arg;
  eng_sleep(outage_from);
  lmm_constraint_set_capacity(model.sys, cpu, 0); /* every action starves */
  model.dirty = true;
  eng_sleep(outage_to - outage_from);
  lmm_constraint_set_capacity(model.sys, cpu, 100);
  model.dirty = true;
}

/* bulk_min: the model's (activity.h), 0 for its default */
static void run_jobs_with(int factory, struct job *jobs, int n, size_t bulk_min)
{
  start_engine(factory);
  act_model_init(&model, "cpu", 1e-9);
  if (bulk_min)
    model.bulk_min = bulk_min;
  cpu = lmm_constraint_new(model.sys, NULL, 100.0, LMM_SHARED);
  for (int i = 0; i < n; i++) {
    jobs[i].id = i;
    done_at[i] = -1;
    eng_actor_create("job", job_fn, &jobs[i]);
  }
  if (outage_to > outage_from)
    eng_actor_create("outage", outage_fn, NULL);
  ck_assert_int_eq(eng_run(), ENG_OK);
  act_model_destroy(&model);
  eng_shutdown();
}

static void run_jobs(int factory, struct job *jobs, int n) { run_jobs_with(factory, jobs, n, 0); }

#define NEAR(a, b)                                                                         \
  ck_assert_msg(fabs((a) - (b)) <= 1e-12 * fabs(b) + 1e-15, "%.17g != %.17g", (double)(a), \
                (double)(b))

START_TEST(test_activity_alone)
{
  /* 200 units at 100/s: 2 s. */
  struct job j[] = {{.work = 200, .penalty = 1, .bound = -1}};
  run_jobs(_i, j, 1);
  NEAR(done_at[0], 2.0);
}
END_TEST

START_TEST(test_activity_sharing)
{
  /* a: 300 units from 0; b: 100 units from 1.
   * [0,1] a alone at 100/s -> 200 left; then 50/s each: b ends at 1 + 100/50 = 3,
   * a has 200 - 100 = 100 left at 3, alone again: ends at 4. */
  struct job j[] = {{.work = 300, .penalty = 1, .bound = -1},
                    {.start = 1, .work = 100, .penalty = 1, .bound = -1}};
  run_jobs(_i, j, 2);
  NEAR(done_at[1], 3.0);
  NEAR(done_at[0], 4.0);
}
END_TEST

START_TEST(test_activity_penalty_bound_factor_latency)
{
  /* a: penalty 1, b: penalty 3 -> shares 75 / 25 (value proportional to 1/penalty).
   * a: 150 units -> ends at 2; b: 100 units, 50 done by 2, then alone at 100: ends at 2.5.
   * c: alone later, bound 10: 20 units from t=10 -> ends at 12.
   * d: latency 0.5 then 100 units at rate factor 0.5 (speed 50): from t=20 ends at 22.5. */
  struct job j[] = {
      {.work = 150, .penalty = 1, .bound = -1},
      {.work = 100, .penalty = 3, .bound = -1},
      {.start = 10, .work = 20, .penalty = 1, .bound = 10},
      {.start = 20, .work = 100, .latency = 0.5, .penalty = 1, .bound = -1, .factor = 0.5}};
  run_jobs(_i, j, 4);
  NEAR(done_at[0], 2.0);
  NEAR(done_at[1], 2.5);
  NEAR(done_at[2], 12.0);
  NEAR(done_at[3], 22.5);
}
END_TEST

START_TEST(test_activity_zero_work)
{
  /* no work, no latency: done at once; no work with latency: done after the latency */
  struct job j[] = {{.start = 1, .work = 0, .penalty = 1, .bound = -1},
                    {.start = 1, .work = 0, .latency = 0.25, .penalty = 1, .bound = -1}};
  run_jobs(_i, j, 2);
  NEAR(done_at[0], 1.0);
  NEAR(done_at[1], 1.25);
}
END_TEST

/* ---- bulk re-keying (activity.c's model_update): 100 actions change share at once ---- */
/* the jobs' dates into out, the model re-dating in bulk from bulk_min changed actions */
static void run_bulk(int factory, struct job *jobs, int n, size_t bulk_min, double *out)
{
  run_jobs_with(factory, jobs, n, bulk_min);
  memcpy(out, done_at, sizeof(double) * (size_t)n);
}

START_TEST(test_activity_bulk_outage)
{
  /* 100 actions of 10 units share 100 units/s: 1/s each, all done at 10 s; the capacity is
   * 0 from 2 s to 5 s (each solve there changes all 100 shares: bulk re-keying, with every
   * action starved, then every one back in the heap), so they end at 13 s. */
  enum { N = 100 };
  static struct job jobs[N];
  static double bulk[N], one_by_one[N];
  for (int i = 0; i < N; i++)
    jobs[i] = (struct job){.work = 10, .penalty = 1, .bound = -1};
  outage_from = 2;
  outage_to = 5;
  run_bulk(_i, jobs, N, 64, bulk);
  run_bulk(_i, jobs, N, SIZE_MAX, one_by_one);
  outage_from = outage_to = 0;
  for (int i = 0; i < N; i++)
    NEAR(bulk[i], 13.0);
  ck_assert(memcmp(bulk, one_by_one, sizeof bulk) == 0);
}
END_TEST

START_TEST(test_activity_bulk_same_dates)
{
  /* staggered starts, works, latencies, penalties and bounds: the dates are the same to the
   * bit whether the heap is re-dated in bulk or action by action */
  enum { N = 96 };
  static struct job jobs[N];
  static double bulk[N], one_by_one[N];
  unsigned long x = 777;
  for (int i = 0; i < N; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    jobs[i] = (struct job){.start = (double)(x >> 40 & 0xff) / 97.0,
                           .work = 1 + (double)(x >> 20 & 0x3ff) / 8.0,
                           .latency = (double)(x >> 8 & 0xf) / 200.0,
                           .penalty = 1 + (double)(x >> 4 & 3),
                           .bound = (x & 1) ? 3.0 : -1};
  }
  run_bulk(_i, jobs, N, 64, bulk);
  run_bulk(_i, jobs, N, SIZE_MAX, one_by_one);
  for (int i = 0; i < N; i++)
    ck_assert(bulk[i] > 0);
  ck_assert(memcmp(bulk, one_by_one, sizeof bulk) == 0);
}
END_TEST

/* ---- determinism: a busy random scenario twice gives bit-identical dates ---- */
static void scenario(int factory, double *out, int n)
{
  static struct job jobs[64];
  unsigned long x = 12345;
  for (int i = 0; i < n; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    jobs[i] = (struct job){.start = (double)(x >> 40 & 0xff) / 37.0,
                           .work = 1 + (double)(x >> 20 & 0xfff),
                           .latency = (double)(x >> 8 & 0xf) / 100.0,
                           .penalty = 1 + (double)(x >> 4 & 3),
                           .bound = (x & 1) ? 40.0 : -1};
  }
  run_jobs(factory, jobs, n);
  memcpy(out, done_at, sizeof(double) * (size_t)n);
}

START_TEST(test_determinism)
{
  double a[8], b[8];
  scenario(_i, a, 8);
  scenario(_i, b, 8);
  ck_assert(memcmp(a, b, sizeof a) == 0);
  /* and across factories */
  scenario(1 - _i, b, 8);
  ck_assert(memcmp(a, b, sizeof a) == 0);
  /* and when every switch goes through the maestro */
  via_maestro = true;
  scenario(_i, b, 8);
  via_maestro = false;
  ck_assert(memcmp(a, b, sizeof a) == 0);
  for (int i = 0; i < 8; i++)
    ck_assert(a[i] > 0);
}
END_TEST

/* ---- many actors ---- */
static double many_max;
static void many_fn(void *arg)
{
  double d = (double)(long)arg / 1000.0;
  eng_sleep(d);
  eng_yield();
  ck_assert_double_eq(eng_now(), d);
  if (d > many_max)
    many_max = d;
}

START_TEST(test_many_actors)
{
  start_engine(_i);
  many_max = 0;
  for (long i = 0; i < 10000; i++)
    eng_actor_create("many", many_fn, (void *)((i * 7919) % 10007));
  ck_assert_uint_eq(eng_actor_count(), 10000);
  ck_assert_int_eq(eng_run(), ENG_OK);
  ck_assert_double_eq(eng_now(), many_max);
  eng_stats st;
  eng_get_stats(&st);
  ck_assert_uint_ge(st.actor_switches, 20000);
  eng_shutdown();
}
END_TEST

static Suite *engine_suite(void)
{
  Suite *s = suite_create("engine");
  TCase *tc = tcase_create("engine");
  tcase_add_loop_test(tc, test_round_robin_yield, 0, 2);
  tcase_add_loop_test(tc, test_sleep_order, 0, 2);
  tcase_add_loop_test(tc, test_switch_hook, 0, 2);
  tcase_add_loop_test(tc, test_block_unblock, 0, 2);
  tcase_add_loop_test(tc, test_kill, 0, 2);
  tcase_add_loop_test(tc, test_timers, 0, 2);
  tcase_add_loop_test(tc, test_deadlock_report, 0, 2);
  tcase_add_loop_test(tc, test_many_actors, 0, 2);
  suite_add_tcase(s, tc);
  TCase *ta = tcase_create("activity");
  tcase_add_loop_test(ta, test_activity_alone, 0, 2);
  tcase_add_loop_test(ta, test_activity_sharing, 0, 2);
  tcase_add_loop_test(ta, test_activity_penalty_bound_factor_latency, 0, 2);
  tcase_add_loop_test(ta, test_activity_zero_work, 0, 2);
  tcase_add_loop_test(ta, test_activity_bulk_outage, 0, 2);
  tcase_add_loop_test(ta, test_activity_bulk_same_dates, 0, 2);
  tcase_add_loop_test(ta, test_determinism, 0, 2);
  suite_add_tcase(s, ta);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(engine_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
