/* Tests of the execution contexts. Every test is a Check loop test whose index picks the
 * factory (raw, when the machine is x86-64, then ucontext), so both factories pass the same
 * suite. Tests that must kill the process (stack overflow, crashes, broken invariants) fork
 * a child of their own, capture its stderr through a pipe and check how it died. */
#include "kernel/context.h"
#include "src/cfg.h"

#include <check.h>
#include <errno.h>
#include <fenv.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#endif

static const char *const factories[] = {
#if defined(__x86_64__)
    "raw",
#endif
    "ucontext",
};
#define NFACTORIES ((int)(sizeof factories / sizeof factories[0]))

/* Fresh configuration, then the factory of this iteration with the given stack size. */
static void start(int i, size_t stack_kib)
{
  char err[256] = "";
  cfg_reset();
  int rc = ctx_factory_init(factories[i], stack_kib, err, sizeof err);
  ck_assert_msg(rc == 0, "ctx_factory_init(%s): %s", factories[i], err);
  ck_assert_str_eq(ctx_factory_name(), factories[i]);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
}

/* Tests that depend on the stack layout run once per factory and per value of
 * contexts/guard-markers: loop index i < NFACTORIES with markers, then without. */
#define NMODES (2 * NFACTORIES)
#define MADV_GUARD_INSTALL_VALUE 102 /* Linux 6.13; Debian bookworm's headers lack it */
static const char *marker_mode(int i) { return i < NFACTORIES ? "yes" : "no"; }

/* In a child: contexts/guard-markers of loop index i, the given stack size and
 * contexts/guard-stacks (NULL: default), then the factory. Exit 77 (the test is skipped)
 * when the kernel has no guard markers, 2 on any other failure. */
static void write_str(const char *s);
static void child_init(int i, const char *stack_kib, const char *guard_stacks)
{
  char err[256];
  ctx_declare_config();
  cfg_reset();
  if (cfg_set("contexts/guard-markers", marker_mode(i), CFG_ORIGIN_CMDLINE, err, sizeof err) ||
      cfg_set("contexts/stack-size", stack_kib, CFG_ORIGIN_CMDLINE, err, sizeof err) ||
      (guard_stacks &&
       cfg_set("contexts/guard-stacks", guard_stacks, CFG_ORIGIN_CMDLINE, err, sizeof err)) ||
      ctx_factory_init(factories[i % NFACTORIES], 0, err, sizeof err) != 0) {
    write_str(err);
    _exit(strstr(err, "no guard markers") ? 77 : 2);
  }
}

/* The parent's side of child_init's exit 77; true when the test should stop here. */
static bool skipped_no_markers(int status, const char *test, int i)
{
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    printf("%s(%s, markers %s): skipped, the kernel has no guard markers\n", test,
           factories[i % NFACTORIES], marker_mode(i));
    return true;
  }
  return false;
}

/* ======================================================================================
 * Child processes for the tests that die
 * ====================================================================================== */

typedef struct child_result {
  int status;
  char out[4096]; /* the child's stderr */
} child_result;

static void run_child(void (*body)(int), int i, child_result *r)
{
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    close(fds[1]);
    body(i);
    _exit(0);
  }
  close(fds[1]);
  size_t len = 0;
  for (;;) {
    ssize_t n = read(fds[0], r->out + len, sizeof r->out - 1 - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
    if (len == sizeof r->out - 1)
      break;
  }
  r->out[len] = '\0';
  close(fds[0]);
  ck_assert_int_eq(waitpid(pid, &r->status, 0), pid);
}

static void write_str(const char *s)
{
  ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
  (void)ignored;
}

/* ======================================================================================
 * Ping-pong, round-robin, finishing
 * ====================================================================================== */

enum { PINGPONG_N = 10000 };
static ctx *pp_a, *pp_b;
static long pp_counter;
static long pp_errors;

static void ping_body(void *arg)
{
  ck_assert_ptr_eq(arg, &pp_a);
  for (long k = 0; k < PINGPONG_N; k++) {
    if (pp_counter != 2 * k)
      pp_errors++;
    pp_counter++;
    ctx_switch(pp_a, pp_b);
  }
}

static void pong_body(void *arg)
{
  ck_assert_ptr_eq(arg, &pp_b);
  for (long k = 0;; k++) {
    if (pp_counter != 2 * k + 1 || ctx_current() != pp_b)
      pp_errors++;
    pp_counter++;
    ctx_switch(pp_b, pp_a);
  }
}

START_TEST(test_pingpong)
{
  start(_i, 0);
  pp_counter = pp_errors = 0;
  pp_a = ctx_create(ping_body, &pp_a, "ping");
  pp_b = ctx_create(pong_body, &pp_b, "pong");
  ctx_switch(ctx_maestro(), pp_a);
  /* ping returned after its last switch came back: control is with the maestro again */
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert(ctx_finished(pp_a));
  ck_assert(!ctx_finished(pp_b));
  ck_assert_int_eq(pp_errors, 0);
  ck_assert_int_eq(pp_counter, 2 * PINGPONG_N);
  ctx_destroy(pp_a);
  ctx_destroy(pp_b); /* suspended forever: destroying it is allowed */
  ctx_factory_shutdown();
}
END_TEST

enum { RR_N = 1000, RR_ROUNDS = 3 };
static ctx *rr_ctx[RR_N];
static int rr_log[RR_N * RR_ROUNDS];
static int rr_pos;

static void rr_body(void *arg)
{
  int me = (int)(intptr_t)arg;
  for (int r = 0; r < RR_ROUNDS; r++) {
    rr_log[rr_pos++] = me;
    ctx_switch(rr_ctx[me], rr_ctx[(me + 1) % RR_N]);
  }
}

START_TEST(test_round_robin)
{
  start(_i, 0);
  rr_pos = 0;
  for (int k = 0; k < RR_N; k++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", k);
    rr_ctx[k] = ctx_create(rr_body, (void *)(intptr_t)k, name);
  }
  /* when context k is done, k + 1 gets its last turn; the last one goes to the maestro */
  for (int k = 0; k + 1 < RR_N; k++)
    ctx_set_next(rr_ctx[k], rr_ctx[k + 1]);
  ctx_switch(ctx_maestro(), rr_ctx[0]);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert_int_eq(rr_pos, RR_N * RR_ROUNDS);
  for (int p = 0; p < RR_N * RR_ROUNDS; p++)
    ck_assert_msg(rr_log[p] == p % RR_N, "step %d ran rank %d, expected %d", p, rr_log[p],
                  p % RR_N);
  for (int k = 0; k < RR_N; k++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", k);
    ck_assert(ctx_finished(rr_ctx[k]));
    ck_assert_str_eq(ctx_name(rr_ctx[k]), name);
    ctx_destroy(rr_ctx[k]);
  }
  ctx_factory_shutdown();
}
END_TEST

static char fin_log[16];
static size_t fin_len;
static ctx *fin_ctx[3];

static void fin_body(void *arg)
{
  char tag = *(const char *)arg;
  fin_log[fin_len++] = tag;
  /* a no-op switch to itself */
  ctx_switch(ctx_current(), ctx_current());
  fin_log[fin_len++] = (char)(tag - 'A' + 'a');
}

START_TEST(test_finish_targets)
{
  start(_i, 0);
  memset(fin_log, 0, sizeof fin_log);
  fin_len = 0;
  static const char tags[] = "ABC";
  for (int k = 0; k < 3; k++)
    fin_ctx[k] = ctx_create(fin_body, (void *)&tags[k], (const char[]){(char)tags[k], 0});
  ck_assert_str_eq(ctx_name(fin_ctx[1]), "B");
  ck_assert_ptr_eq(ctx_arg(fin_ctx[2]), &tags[2]);

  /* A finishes and returns to the maestro (the default) */
  ctx_switch(ctx_maestro(), fin_ctx[0]);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert(ctx_finished(fin_ctx[0]));
  ck_assert_str_eq(fin_log, "Aa");

  /* B's next is C, which starts when B finishes; C then returns to the maestro */
  ctx_set_next(fin_ctx[1], fin_ctx[2]);
  ctx_switch(ctx_maestro(), fin_ctx[1]);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert_str_eq(fin_log, "AaBbCc");
  ck_assert(ctx_finished(fin_ctx[1]) && ctx_finished(fin_ctx[2]));

  ctx_switch(ctx_maestro(), ctx_maestro()); /* no-op */
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  for (int k = 0; k < 3; k++)
    ctx_destroy(fin_ctx[k]);
  ctx_factory_shutdown();
}
END_TEST

static void return_at_once(void *arg) { (void)arg; }

static void child_switch_to_finished(int i)
{
  start(i, 0);
  ctx *c = ctx_create(return_at_once, NULL, "done");
  ctx_switch(ctx_maestro(), c);
  ctx_switch(ctx_maestro(), c); /* invariant violation */
  write_str("not reached\n");
}

START_TEST(test_switch_to_finished_aborts)
{
  child_result r;
  run_child(child_switch_to_finished, _i, &r);
  ck_assert_msg(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "switching to context 'done', whose function has returned"),
                "out: %s", r.out);
  ck_assert(!strstr(r.out, "not reached"));
}
END_TEST

/* ======================================================================================
 * Registers and floating-point state
 * ====================================================================================== */

enum { REG_ROUNDS = 200 };

static uint64_t lcg(uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }

typedef struct reg_arg {
  uint64_t seed;
  ctx *self;
  ctx *peer;
  long errors;
} reg_arg;

/* Many values of many types, live across every switch: some end up in callee-saved
 * registers, the rest in this frame. Each has a shadow copy in volatile memory that the
 * compiler cannot fold into the register copy. */
static long hold_values_across(uint64_t seed, ctx *self, ctx *peer, int rounds)
{
  uint64_t a = seed, b = lcg(seed), c = lcg(b), d = lcg(c);
  int i = (int)(seed & 0xffff);
  short s = (short)(seed >> 16);
  char ch = (char)(seed >> 8);
  unsigned u = (unsigned)(seed >> 32);
  double x = (double)(seed % 1000) / 7.0;
  float f = (float)(seed % 100) / 3.0f;
  long double ld = (long double)(seed % 10000) / 11.0L;
  void *p = &a + (seed & 7);
  volatile uint64_t va = a, vb = b, vc = c, vd = d;
  volatile int vi = i;
  volatile short vs = s;
  volatile char vch = ch;
  volatile unsigned vu = u;
  volatile double vx = x;
  volatile float vf = f;
  volatile long double vld = ld;
  void *volatile vp = p;
  long errors = 0;
  for (int k = 0; k < rounds; k++) {
    ctx_switch(self, peer);
    if (a != va || b != vb || c != vc || d != vd || i != vi || s != vs || ch != vch || u != vu ||
        x != vx || f != vf || ld != vld || p != vp)
      errors++;
    a = lcg(a), b = lcg(b), c = lcg(c), d = lcg(d);
    va = lcg(va), vb = lcg(vb), vc = lcg(vc), vd = lcg(vd);
    i = (i * 3 + 1) & 0xffff, vi = (vi * 3 + 1) & 0xffff;
    s = (short)(s + 7), vs = (short)(vs + 7);
    ch = (char)(ch ^ 0x5a), vch = (char)(vch ^ 0x5a);
    u = u * 5u + 3u, vu = vu * 5u + 3u;
    x = x * 1.5 + 0.25, vx = vx * 1.5 + 0.25;
    f = f * 0.5f + 1.0f, vf = vf * 0.5f + 1.0f;
    ld = ld / 3.0L + 2.0L, vld = vld / 3.0L + 2.0L;
    p = (char *)p + 8, vp = (char *)vp + 8;
  }
  return errors;
}

static void reg_body(void *arg)
{
  reg_arg *ra = arg;
  ra->errors = hold_values_across(ra->seed, ra->self, ra->peer, REG_ROUNDS);
}

START_TEST(test_registers_preserved)
{
  start(_i, 0);
  reg_arg ra = {.seed = 0x0123456789abcdefULL}, rb = {.seed = 0xfedcba9876543210ULL};
  ctx *a = ctx_create(reg_body, &ra, "a");
  ctx *b = ctx_create(reg_body, &rb, "b");
  ra.self = a, ra.peer = b;
  rb.self = b, rb.peer = a;
  ctx_set_next(a, b); /* b's last switch went to a: let it end its loop too */
  /* the maestro holds its own values across one switch into the pair */
  long maestro_errors = hold_values_across(0x5555aaaa5555aaaaULL, ctx_maestro(), a, 1);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert(ctx_finished(a) && ctx_finished(b));
  ck_assert_int_eq(ra.errors, 0);
  ck_assert_int_eq(rb.errors, 0);
  ck_assert_int_eq(maestro_errors, 0);
  ctx_destroy(a);
  ctx_destroy(b);
  ctx_factory_shutdown();
}
END_TEST

/* Rounding modes: context a runs upward, context b downward, the maestro to nearest. The
 * SSE division reads MXCSR, the long double one reads the x87 control word. */
static ctx *fp_a, *fp_b;
static volatile double fp_one = 1.0, fp_three = 3.0;
static volatile long double fp_lone = 1.0L, fp_lthree = 3.0L;
static double fp_qa, fp_qb;
static long double fp_lqa, fp_lqb;
static int fp_mode_a, fp_mode_b, fp_mode_b_initial;

static void fp_a_body(void *arg)
{
  (void)arg;
  fesetround(FE_UPWARD);
  ctx_switch(fp_a, fp_b);
  fp_mode_a = fegetround();
  fp_qa = fp_one / fp_three;
  fp_lqa = fp_lone / fp_lthree;
  ctx_switch(fp_a, fp_b);
}

static void fp_b_body(void *arg)
{
  (void)arg;
  fp_mode_b_initial = fegetround(); /* inherited from the creator */
  fesetround(FE_DOWNWARD);
  ctx_switch(fp_b, fp_a);
  fp_mode_b = fegetround();
  fp_qb = fp_one / fp_three;
  fp_lqb = fp_lone / fp_lthree;
}

START_TEST(test_fp_control_isolated)
{
  start(_i, 0);
  ck_assert_int_eq(fegetround(), FE_TONEAREST);
  double q_nearest = fp_one / fp_three;
  fp_a = ctx_create(fp_a_body, NULL, "up");
  fp_b = ctx_create(fp_b_body, NULL, "down");
  ctx_switch(ctx_maestro(), fp_a);
  ck_assert_ptr_eq(ctx_current(), ctx_maestro());
  ck_assert(ctx_finished(fp_b));
  ck_assert_int_eq(fp_mode_b_initial, FE_TONEAREST);
  ck_assert_int_eq(fp_mode_a, FE_UPWARD);
  ck_assert_int_eq(fp_mode_b, FE_DOWNWARD);
  ck_assert_msg(fp_qa > fp_qb, "1/3 rounded up %a is not above 1/3 rounded down %a", fp_qa,
                fp_qb);
  ck_assert_msg(fp_lqa > fp_lqb, "long double 1/3: up not above down");
  /* and nothing leaked into the maestro */
  ck_assert_int_eq(fegetround(), FE_TONEAREST);
  ck_assert(fp_one / fp_three == q_nearest);
  ck_assert(q_nearest == fp_qa || q_nearest == fp_qb);
  ctx_destroy(fp_a);
  ctx_destroy(fp_b);
  ctx_factory_shutdown();
}
END_TEST

/* ======================================================================================
 * Stack: deep recursion, overflow, lazily committed memory
 * ====================================================================================== */

enum { DEEP_STACK_KIB = 256, DEEP_FRAME = 1024 };
static uintptr_t deep_top;
static size_t deep_max_used;
static long deep_corrupt;

__attribute__((noinline, noclone)) static int deep_recurse(int depth, size_t target)
{
  volatile char buf[DEEP_FRAME];
  for (size_t k = 0; k < sizeof buf; k++)
    buf[k] = (char)(depth + k);
  size_t used = deep_top - (uintptr_t)&buf[0];
  if (used > deep_max_used)
    deep_max_used = used;
  int below = used < target ? deep_recurse(depth + 1, target) : depth;
  for (size_t k = 0; k < sizeof buf; k++)
    if (buf[k] != (char)(depth + k))
      deep_corrupt++;
  return below;
}

static void deep_body(void *arg)
{
  volatile char top;
  deep_top = (uintptr_t)&top;
  *(int *)arg = deep_recurse(0, ctx_stack_size() / 10 * 8);
}

START_TEST(test_deep_recursion)
{
  start(_i, DEEP_STACK_KIB);
  ck_assert_uint_eq(ctx_stack_size(), DEEP_STACK_KIB * 1024);
  deep_max_used = 0;
  deep_corrupt = 0;
  int depth = 0;
  ctx *c = ctx_create(deep_body, &depth, "deep");
  ctx_switch(ctx_maestro(), c);
  ck_assert(ctx_finished(c));
  ck_assert_uint_ge(deep_max_used, ctx_stack_size() / 10 * 8);
  /* every frame holds its DEEP_FRAME-byte array (sanitizers make frames bigger, not smaller) */
  ck_assert_int_ge(depth, 50);
  ck_assert_uint_le((size_t)depth * DEEP_FRAME, deep_max_used);
  ck_assert_int_eq(deep_corrupt, 0);
  ctx_destroy(c);
  ctx_factory_shutdown();
}
END_TEST

static volatile int never = -1;

__attribute__((noinline, noclone)) static int recurse_forever(int n)
{
  volatile char buf[256];
  buf[0] = (char)n;
  if (n == never)
    return 0;
  return recurse_forever(n + 1) + buf[0];
}

static void overflow_body(void *arg)
{
  (void)arg;
  recurse_forever(0);
}

/* Five neighbours first: with guard markers the overflowing stack is a slot in the middle
 * of an arena (under its guard lies a neighbour's stack); in the fallback it is a stack with
 * a guard page of its own among others. */
static void child_overflow(int i)
{
  child_init(i, "64", NULL);
  for (int k = 0; k < 5; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx *c = ctx_create(overflow_body, NULL, "rank 3");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_overflow_message)
{
  child_result r;
  run_child(child_overflow, _i, &r);
  if (skipped_no_markers(r.status, "test_overflow_message", _i))
    return;
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'rank 3' (stack: 64 KiB); raise "
                              "it, e.g. --cfg=contexts/stack-size:256\n"),
                "out: %s", r.out);
  ck_assert(strstr(r.out, "contexts/stack-size"));
}
END_TEST

/* Guard markers go in as slots are handed out: the first arena's CTX_GUARD_FIRST (8) at a
 * time, then doubling, later arenas whole (kernel/context.c, ctx_arena_guard_more): a
 * 3-context job guards 8 slots, not 64. Loop index: factory, then the slot that overflows,
 * the first of a later batch (8, 16 or 32) or of the second arena (64). */
static const int batch_slot[] = {8, 16, 32, 64};

static void child_overflow_batch(int i)
{
  child_init(i % NFACTORIES, "64", NULL);
  for (int k = 0; k < batch_slot[i / NFACTORIES]; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx *c = ctx_create(overflow_body, NULL, "first of a batch");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_guards_by_batch)
{
  int f = _i % NFACTORIES;
  char err[256] = "";
  ctx_declare_config();
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/guard-markers", "yes", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  if (ctx_factory_init(factories[f], 64, err, sizeof err) != 0) {
    ck_assert_msg(strstr(err, "no guard markers"), "%s", err);
    printf("test_guards_by_batch(%s): skipped, the kernel has no guard markers\n", factories[f]);
    return;
  }
  if (_i < NFACTORIES) { /* the counts, once per factory */
    static const size_t want[][2] = {{1, 8},   {3, 8},   {8, 8},    {9, 16},
                                     {17, 32}, {64, 64}, {65, 128}, {200, 256}};
    ctx *made[200];
    int n = 0;
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
      while (n < (int)want[w][0])
        made[n++] = ctx_create(return_at_once, NULL, "bystander");
      ck_assert_uint_eq(ctx_guarded_slots(), want[w][1]);
    }
    for (int k = 0; k < n; k++)
      ctx_destroy(made[k]);
  }
  ctx_factory_shutdown();
  child_result r;
  run_child(child_overflow_batch, _i, &r);
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'first of a batch' (stack: 64 KiB)"),
                "out: %s", r.out);
}
END_TEST

/* With guard markers every stack has its own guard, also beyond the first arena (64 stacks)
 * and beyond contexts/guard-stacks, which then plays no part. Without, contexts/guard-stacks:0
 * puts every stack in an arena with one guard page under its lowest slot: the overflow of
 * slot 36 of the second arena runs down through its neighbours' stacks and faults in that
 * guard, which is blamed on the lowest slot's actor (the limitation the warning tells). */
static void child_overflow_far(int i)
{
  child_init(i, "64", "0");
  for (int k = 0; k < 100; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx *c = ctx_create(overflow_body, NULL, "rank 100");
  for (int k = 0; k < 3; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_overflow_every_slot)
{
  child_result r;
  run_child(child_overflow_far, _i, &r);
  if (skipped_no_markers(r.status, "test_overflow_every_slot", _i))
    return;
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  if (_i < NFACTORIES)
    ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'rank 100' (stack: 64 KiB)"),
                  "out: %s", r.out);
  else
    ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'bystander' (stack: 64 KiB)"),
                  "out: %s", r.out);
  ck_assert_msg(!strstr(r.out, "no guard page"), "out: %s", r.out);
}
END_TEST

/* Slot reuse with guard markers: up to 16 freed slots keep their pages (handed out first),
 * further ones are given back with MADV_DONTNEED, which must leave the guard in place.
 * REUSE_N contexts run (each touching a page REUSE_DEPTH under its stack top) and are
 * destroyed in order: the first 16 are kept, the others given back. 16 new contexts take
 * the kept slots, and the next one the last given back. The child reports what it saw on
 * stderr:
 *   "resident: first 1 last 0"  the kept slot's page is there, the given-back one is not
 *   "same slot"                 the 17th new context runs on the last destroyed one's stack
 * then that context overflows. */
enum { REUSE_N = 40, REUSE_DEPTH = 16 * 1024 };
static uintptr_t reuse_page[REUSE_N];

static void reuse_body(void *arg)
{
  volatile char buf[REUSE_DEPTH];
  buf[0] = 1;
  long page = sysconf(_SC_PAGESIZE);
  reuse_page[(intptr_t)arg] = (uintptr_t)&buf[0] & ~((uintptr_t)page - 1);
}

static bool resident(uintptr_t page)
{
  unsigned char vec = 0;
  return mincore((void *)page, (size_t)sysconf(_SC_PAGESIZE), &vec) == 0 && (vec & 1);
}

static void reuse_overflow_body(void *arg)
{
  (void)arg;
  volatile char buf[REUSE_DEPTH];
  buf[0] = 1;
  long page = sysconf(_SC_PAGESIZE);
  if (((uintptr_t)&buf[0] & ~((uintptr_t)page - 1)) == reuse_page[REUSE_N - 1])
    write_str("same slot\n");
  recurse_forever(0);
}

static void child_reuse(int i)
{
  child_init(i, "64", NULL);
  ctx *cs[REUSE_N];
  for (intptr_t k = 0; k < REUSE_N; k++) {
    cs[k] = ctx_create(reuse_body, (void *)k, "reuse");
    ctx_switch(ctx_maestro(), cs[k]);
  }
  for (int k = 0; k < REUSE_N; k++)
    ctx_destroy(cs[k]);
  char line[64];
  snprintf(line, sizeof line, "resident: first %d last %d\n", resident(reuse_page[0]),
           resident(reuse_page[REUSE_N - 1]));
  write_str(line);
  for (int k = 0; k < 16; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx *c = ctx_create(reuse_overflow_body, NULL, "rank 9");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_overflow_reused_slot)
{
  child_result r;
  run_child(child_reuse, _i, &r);
  if (skipped_no_markers(r.status, "test_overflow_reused_slot", _i))
    return;
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'rank 9' (stack: 64 KiB)"),
                "out: %s", r.out);
  if (_i < NFACTORIES) {
    ck_assert_msg(strstr(r.out, "resident: first 1 last 0\n"), "out: %s", r.out);
    ck_assert_msg(strstr(r.out, "same slot\n"), "out: %s", r.out);
  }
}
END_TEST

/* A frame larger than the guard page whose first access is far under it. */
enum { BIG_FRAME = 24 * 1024 };
__attribute__((noinline, noclone)) static long big_frame_recurse(int n)
{
  volatile char buf[BIG_FRAME];
  buf[0] = (char)n; /* lowest address first: skips the guard page at some depth */
  if (n == never)
    return 0;
  return big_frame_recurse(n + 1) + buf[0] + buf[BIG_FRAME - 1];
}

static void big_frame_body(void *arg)
{
  /* Without markers the heuristic needs nothing mapped right under the stack; after fork,
   * top-down mmap nearly always leaves a hole there, but make sure (exit 78 = cannot test
   * here). With markers the 64 KiB under the stack are the guard itself. */
  if (arg) {
    volatile char here;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t stack_hi = ((uintptr_t)&here + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t guard = stack_hi - ctx_stack_size() - (uintptr_t)page;
    unsigned char vec;
    for (uintptr_t a = guard - 60 * 1024; a < guard; a += (uintptr_t)page)
      if (mincore((void *)a, (size_t)page, &vec) == 0)
        _exit(78);
  }
  big_frame_recurse(0);
}

static void child_big_frame(int i)
{
  child_init(i, "64", NULL);
  bool markers = i < NFACTORIES;
  /* with markers, a live stack right under the guard: the frame must not land there */
  for (int k = 0; markers && k < 5; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx *c = ctx_create(big_frame_body, markers ? NULL : (void *)1, "rank 5");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_overflow_big_frame)
{
  child_result r;
  run_child(child_big_frame, _i, &r);
  if (skipped_no_markers(r.status, "test_overflow_big_frame", _i))
    return;
  if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 78) {
    /* something is mapped right under the stack: the heuristic cannot apply */
    printf("test_overflow_big_frame(%s): skipped, memory mapped under the stack\n",
           factories[_i % NFACTORIES]);
    return;
  }
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "stack overflow in actor 'rank 5' (stack: 64 KiB)"), "out: %s",
                r.out);
}
END_TEST

static void crash_hook(ctx *c, int sig, const void *addr, void *data)
{
  (void)addr;
  char line[128];
  /* async-signal-safe formatting by hand */
  const char *name = c ? ctx_name(c) : "(maestro)";
  size_t n = 0;
  for (const char *s = (const char *)data; *s; s++)
    line[n++] = *s;
  for (const char *s = name; *s && n < 100; s++)
    line[n++] = *s;
  line[n++] = ' ';
  line[n++] = (char)('0' + sig / 10);
  line[n++] = (char)('0' + sig % 10);
  line[n++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, n);
  (void)ignored;
}

__attribute__((no_sanitize("undefined"))) /* the SIGSEGV is the point, not a UBSan report */
static void
null_deref_body(void *arg)
{
  (void)arg;
  volatile int *volatile p = NULL;
  *p = 42;
}

static void child_null_deref(int i)
{
  start(i, 0);
  ctx_set_crash_hook(crash_hook, "hook: ");
  ctx *c = ctx_create(null_deref_body, NULL, "rank 7");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_crash_hook_then_signal)
{
  child_result r;
  run_child(child_null_deref, _i, &r);
  ck_assert_msg(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV, "status %#x, out: %s",
                r.status, r.out);
  char expect[64];
  snprintf(expect, sizeof expect, "hook: rank 7 %02d\n", SIGSEGV);
  ck_assert_msg(strstr(r.out, expect), "out: %s", r.out);
  ck_assert(!strstr(r.out, "stack overflow"));
}
END_TEST

static void child_maestro_crash(int i)
{
  start(i, 0);
  ctx_set_crash_hook(crash_hook, "hook: ");
  raise(SIGFPE);
  write_str("not reached\n");
}

START_TEST(test_crash_hook_maestro)
{
  child_result r;
  run_child(child_maestro_crash, _i, &r);
  ck_assert_msg(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGFPE, "status %#x, out: %s",
                r.status, r.out);
  char expect[64];
  snprintf(expect, sizeof expect, "hook: (maestro) %02d\n", SIGFPE);
  ck_assert_msg(strstr(r.out, expect), "out: %s", r.out);
}
END_TEST

/* A hook that itself faults (it read state the crash corrupted): the handler must not
 * recurse nor die silently, but print one plain line and die of the first signal. */
__attribute__((no_sanitize("undefined"))) static void faulting_hook(ctx *c, int sig,
                                                                    const void *addr, void *data)
{
  (void)c;
  (void)sig;
  (void)addr;
  if (data) {
    abort(); /* an ASSERT on the way raises SIGABRT */
  } else {
    volatile int *volatile p = NULL;
    *p = 1;
  }
}

/* A probe that faults inside the hook: the hook goes on without that part. */
__attribute__((no_sanitize("undefined"))) static void bad_read(void *arg)
{
  volatile int *volatile p = (volatile int *)(uintptr_t)8;
  *(volatile int *)arg = *p;
}

static void probing_hook(ctx *c, int sig, const void *addr, void *data)
{
  (void)c;
  (void)addr;
  (void)data;
  int v = 0;
  if (!ctx_crash_probe(bad_read, &v) && sig == SIGSEGV)
    write_str("hook: probe failed, hook goes on\n");
}

static void child_hook_faults(int i)
{
  start(i % NFACTORIES, 0);
  int kind = i / NFACTORIES; /* 0: the hook faults, 1: it aborts, 2: a probe faults */
  if (kind == 2)
    ctx_set_crash_hook(probing_hook, NULL);
  else
    ctx_set_crash_hook(faulting_hook, kind == 1 ? (void *)1 : NULL);
  ctx *c = ctx_create(null_deref_body, NULL, "rank 7");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_crash_hook_faults)
{
  child_result r;
  run_child(child_hook_faults, _i, &r);
  ck_assert_msg(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV, "status %#x, out: %s",
                r.status, r.out);
  /* exactly one line of ours (under ASan, ucontext adds a warning of its own first) */
  const char *want = _i / NFACTORIES == 2
                         ? "hook: probe failed, hook goes on\n"
                         : "smpi: crashed with SIGSEGV; describing the crash faulted too";
  const char *at = strstr(r.out, want);
  ck_assert_msg(at, "out: %s", r.out);
  ck_assert_msg(!strstr(at + 1, "smpi:") && !strstr(at + 1, "hook:"), "out: %s", r.out);
  ck_assert_msg(!strstr(r.out, "internal error"), "out: %s", r.out);
}
END_TEST

static size_t rss_bytes(void)
{
  FILE *f = fopen("/proc/self/statm", "r");
  ck_assert_ptr_nonnull(f);
  unsigned long size, resident;
  ck_assert_int_eq(fscanf(f, "%lu %lu", &size, &resident), 2);
  fclose(f);
  return resident * (size_t)sysconf(_SC_PAGESIZE);
}

enum { MANY = 10000 };

static void count_body(void *arg) { ++*(int *)arg; }

START_TEST(test_lazy_stacks)
{
  start(_i, 8192);
  ck_assert_uint_eq(ctx_stack_size(), 8192u * 1024);
  static ctx *many[MANY];
  int ran = 0;
  size_t before = rss_bytes();
  for (int k = 0; k < MANY; k++)
    many[k] = ctx_create(count_body, &ran, "many");
  for (int k = 0; k < MANY; k++)
    ctx_switch(ctx_maestro(), many[k]);
  size_t after = rss_bytes();
  ck_assert_int_eq(ran, MANY);
  /* 80 GiB reserved; only the pages near the top of each stack are touched */
  ck_assert_msg(after - before < 200u << 20, "RSS grew by %zu MiB for %d contexts",
                (after - before) >> 20, MANY);
  for (int k = 0; k < MANY; k++)
    ctx_destroy(many[k]);
  ctx_factory_shutdown();
}
END_TEST

/* ======================================================================================
 * Stack arenas: beyond contexts/guard-stacks, stacks share mappings
 * ====================================================================================== */

static long count_maps(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  ck_assert_ptr_nonnull(f);
  long n = 0;
  for (int c; (c = getc(f)) != EOF;)
    n += c == '\n';
  fclose(f);
  return n;
}

enum { ARENA_CTX = 300, ARENA_FILL = 8 * 1024 };

/* Fills ARENA_FILL bytes of its stack with its number, lets every other context do the same,
 * then checks its bytes: overlapping stacks would have clobbered each other. */
static uintptr_t arena_frame[ARENA_CTX]; /* a frame address on each context's stack */

static void arena_body(void *arg)
{
  int id = *(int *)arg;
  /* the frame, not a local: under ASan, locals may live on a "fake stack" elsewhere */
  arena_frame[id] = (uintptr_t)__builtin_frame_address(0);
  volatile unsigned char fill[ARENA_FILL];
  for (size_t j = 0; j < sizeof fill; j++)
    fill[j] = (unsigned char)(id * 7 + j);
  ctx_switch(ctx_current(), ctx_maestro());
  int bad = 0;
  for (size_t j = 0; j < sizeof fill; j++)
    bad += fill[j] != (unsigned char)(id * 7 + j);
  *(int *)arg = bad ? -1 : id + 1000000;
}

static void arena_round(ctx **cs, int *ids)
{
  for (int k = 0; k < ARENA_CTX; k++) {
    ids[k] = k;
    cs[k] = ctx_create(arena_body, &ids[k], "arena");
  }
  for (int k = 0; k < ARENA_CTX; k++)
    ctx_switch(ctx_maestro(), cs[k]);
  for (int k = 0; k < ARENA_CTX; k++)
    ctx_switch(ctx_maestro(), cs[k]);
  for (int k = 0; k < ARENA_CTX; k++) {
    ck_assert_msg(ids[k] == k + 1000000, "context %d: its stack was clobbered (%d)", k, ids[k]);
    ck_assert(ctx_finished(cs[k]));
    ctx_destroy(cs[k]);
  }
}

/* Without guard markers: 4 stacks with a guard page of their own (2 mappings each), the
 * rest in 5 arenas of 64 (2 mappings each, the guard splitting them) = 18 mappings, where
 * two per stack would have been 600. With markers: 5 arenas, one mapping each (or fewer:
 * adjacent arenas may merge), contexts/guard-stacks playing no part. Generous slack for
 * malloc and Check's own mappings. */
START_TEST(test_arena_stacks)
{
  char err[256];
  cfg_reset();
  ctx_declare_config();
  ck_assert_int_eq(cfg_set("contexts/guard-markers", marker_mode(_i), CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   0);
  ck_assert_int_eq(cfg_set("contexts/guard-stacks", "4", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  if (ctx_factory_init(factories[_i % NFACTORIES], 64, err, sizeof err) != 0) {
    ck_assert_msg(strstr(err, "no guard markers"), "err: %s", err);
    printf("test_arena_stacks(markers): skipped, %s\n", err);
    return;
  }
  static ctx *cs[ARENA_CTX];
  static int ids[ARENA_CTX];
  long before = count_maps();
  arena_round(cs, ids);
  long after = count_maps();
  printf("test_arena_stacks(%s, markers %s): %ld mappings for %d contexts\n",
         factories[_i % NFACTORIES], marker_mode(_i), after - before, ARENA_CTX);
  ck_assert_msg(after - before <= (_i < NFACTORIES ? 10 : 60), "%ld mappings for %d contexts",
                after - before, ARENA_CTX);
  /* the slots come back: a second round maps nothing new */
  arena_round(cs, ids);
  ck_assert_int_le(count_maps(), after + 2);
  ctx_factory_shutdown();
  /* everything is unmapped with the factory (counting mappings cannot tell: under ASan its
   * allocator maps regions of its own meanwhile, and marked arenas may merge into one) */
  long page = sysconf(_SC_PAGESIZE);
  for (int k = 0; k < ARENA_CTX; k++) {
    unsigned char vec;
    errno = 0;
    ck_assert_msg(mincore((void *)(arena_frame[k] & ~((uintptr_t)page - 1)), (size_t)page,
                          &vec) == -1 &&
                      errno == ENOMEM,
                  "context %d: its stack is still mapped after the shutdown", k);
  }
}
END_TEST

/* Without guard markers and with no guarded stack, the first context is the lowest slot of
 * the first arena, right over the arena's guard page: its overflow is still reported. */
static void child_arena_overflow(int i)
{
  child_init(NFACTORIES + i, "64", "0"); /* without guard markers */
  ctx *c = ctx_create(overflow_body, NULL, "rank 0");
  for (int k = 0; k < 5; k++)
    ctx_create(return_at_once, NULL, "bystander");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

START_TEST(test_arena_overflow_lowest)
{
  child_result r;
  run_child(child_arena_overflow, _i, &r);
  ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139, "status %#x, out: %s",
                r.status, r.out);
  ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'rank 0' (stack: 64 KiB)"),
                "out: %s", r.out);
  /* an explicit budget is a choice: no warning about unguarded stacks */
  ck_assert_msg(!strstr(r.out, "no guard page"), "out: %s", r.out);
}
END_TEST

/* Linux 6.13 has guard markers: there, contexts/guard-markers:yes must work, so that the
 * tests above exercise both layouts (elsewhere they skip the marker half). */
START_TEST(test_markers_on_new_kernels)
{
  struct utsname u;
  ck_assert_int_eq(uname(&u), 0);
  int major = 0, minor = 0;
  bool new_kernel = sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
                    (major > 6 || (major == 6 && minor >= 13));
  char err[256] = "";
  cfg_reset();
  ctx_declare_config();
  ck_assert_int_eq(cfg_set("contexts/guard-markers", "yes", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  int rc = ctx_factory_init(factories[_i], 64, err, sizeof err);
  if (new_kernel)
    ck_assert_msg(rc == 0, "Linux %s: %s", u.release, err);
  else if (rc != 0)
    ck_assert_msg(strstr(err, "Linux 6.13") && strstr(err, "guard-markers:auto"), "err: %s", err);
  if (rc == 0)
    ctx_factory_shutdown();
}
END_TEST

/* What older kernels and sandboxes answer, played by a seccomp filter in the child: the
 * system call nr fails with errno err when its argument arg (low 32 bits) is val. */
#if defined(__x86_64__) && defined(SYS_process_madvise)
#define CAN_FAKE_KERNELS 1
static void refuse_syscall(int nr, int arg, uint32_t val, int err)
{
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[arg])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, val, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((uint32_t)err & SECCOMP_RET_DATA)),
  };
  struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    write_str("cannot install the seccomp filter\n");
    _exit(3);
  }
}

static void fake_kernel_child(int i, const char *markers, const char *what)
{
  char err[256];
  ctx_declare_config();
  cfg_reset();
  if (cfg_set("contexts/guard-markers", markers, CFG_ORIGIN_CMDLINE, err, sizeof err) ||
      cfg_set("contexts/stack-size", "64", CFG_ORIGIN_CMDLINE, err, sizeof err) ||
      ctx_factory_init(factories[i % NFACTORIES], 0, err, sizeof err) != 0) {
    write_str(err);
    _exit(2);
  }
  /* two mappings per stack without markers (one may merge with a neighbour), a fraction
   * of one with */
  long before = count_maps();
  for (int k = 0; k < 100; k++)
    ctx_create(return_at_once, NULL, "bystander");
  char line[64];
  snprintf(line, sizeof line, "%s: %s layout\n", what,
           count_maps() - before >= 150 ? "fallback" : "marker");
  write_str(line);
  ctx *c = ctx_create(overflow_body, NULL, "rank 100");
  ctx_switch(ctx_maestro(), c);
  write_str("not reached\n");
}

/* A kernel without guard markers answers EINVAL to the unknown advice (Linux < 6.13). */
static void child_no_markers(int i)
{
  refuse_syscall(SYS_madvise, 2, MADV_GUARD_INSTALL_VALUE, EINVAL);
  fake_kernel_child(i, i < NFACTORIES ? "auto" : "yes", "old kernel");
}

/* process_madvise unknown or refused (a sandbox, or a kernel that takes only the advice
 * valid for other processes): one madvise per slot. */
static void child_no_process_madvise(int i)
{
  refuse_syscall(SYS_process_madvise, 3, MADV_GUARD_INSTALL_VALUE, ENOSYS);
  fake_kernel_child(i, "auto", "no process_madvise");
}

/* Linux 6.13 and 6.14: guard markers, but no PIDFD_SELF_THREAD (EBADF): a pidfd is opened. */
static void child_no_pidfd_self(int i)
{
  refuse_syscall(SYS_process_madvise, 0, (uint32_t)-10000, EBADF);
  fake_kernel_child(i, "auto", "no PIDFD_SELF");
}
#endif

START_TEST(test_fake_kernels)
{
#if defined(CAN_FAKE_KERNELS)
  static const struct {
    void (*child)(int);
    int index;
    const char *expect;
  } cases[] = {
      {child_no_markers, 0, "old kernel: fallback layout\n"},
      {child_no_markers, NFACTORIES,
       "no guard markers (madvise MADV_GUARD_INSTALL needs Linux "
       "6.13 or later)"},
      {child_no_process_madvise, 0, "no process_madvise: marker layout\n"},
      {child_no_pidfd_self, 0, "no PIDFD_SELF: marker layout\n"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    child_result r;
    run_child(cases[k].child, cases[k].index + _i, &r);
    if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 3) {
      printf("test_fake_kernels: skipped, %s", r.out);
      return;
    }
    ck_assert_msg(strstr(r.out, cases[k].expect), "case %zu: out: %s", k, r.out);
    if (cases[k].index == NFACTORIES) { /* guard-markers:yes refused */
      ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "status %#x", r.status);
      continue;
    }
    ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 139,
                  "case %zu: status %#x, "
                  "out: %s",
                  k, r.status, r.out);
    /* the fallback's arena guards only its lowest slot, so 'rank 100' (slot 36 of the second
     * arena) is guarded only where markers are used; the fallback's first 16 382 stacks
     * have guard pages of their own */
    ck_assert_msg(strstr(r.out, "smpi: stack overflow in actor 'rank 100' (stack: 64 KiB)"),
                  "case %zu: out: %s", k, r.out);
  }
#else
  printf("test_fake_kernels(%s): skipped, needs x86-64 seccomp\n", factories[_i]);
#endif
}
END_TEST

/* ======================================================================================
 * Configuration and life cycle
 * ====================================================================================== */

START_TEST(test_bad_config)
{
  char err[256];
  cfg_reset();
  ctx_declare_config();

  ck_assert_int_eq(ctx_factory_init("fiber", 0, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "unknown context factory 'fiber'") && strstr(err, "raw, ucontext"),
                "err: %s", err);
  ck_assert_ptr_null(ctx_current());
  ck_assert_int_eq(cfg_set("contexts/factory", "fiber", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);

  /* a negative size is refused as it is set (src/cfg.h's CFG_KEY_UINT); too small ones when
   * the factory starts */
  ck_assert_int_eq(cfg_set("contexts/stack-size", "-5", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "invalid value '-5' for 'contexts/stack-size'"), "err: %s", err);
  static const char *const bad_sizes[] = {"0", "8"};
  for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
    ck_assert_int_eq(cfg_set("contexts/stack-size", bad_sizes[k], CFG_ORIGIN_CMDLINE, err,
                             sizeof err),
                     0);
    err[0] = '\0';
    ck_assert_int_eq(ctx_factory_init(factories[_i], 0, err, sizeof err), -1);
    char expect[64];
    snprintf(expect, sizeof expect, "invalid value %s for 'contexts/stack-size'", bad_sizes[k]);
    ck_assert_msg(strstr(err, expect), "err: %s", err);
    ck_assert_ptr_null(ctx_current());
  }
  ck_assert_int_eq(ctx_factory_init(factories[_i], (size_t)1 << 40, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "invalid stack size"), "err: %s", err);
  ck_assert_int_eq(cfg_set("contexts/stack-size", "64", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("contexts/guard-stacks", "-2", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  ck_assert_int_eq(ctx_factory_init(factories[_i], 0, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "invalid value -2 for 'contexts/guard-stacks'"), "err: %s", err);
  ck_assert_ptr_null(ctx_current());
  ck_assert_int_eq(cfg_set("contexts/guard-stacks", "-1", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  ck_assert_int_eq(cfg_set("contexts/guard-markers", "maybe", CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   -1);
#if !defined(__x86_64__)
  ck_assert_int_eq(ctx_factory_init("raw", 0, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "x86-64"), "err: %s", err);
#endif

  /* the config is read when no argument overrides it; failures left nothing behind */
  cfg_reset();
  ck_assert_int_eq(cfg_set("contexts/factory", factories[_i], CFG_ORIGIN_CMDLINE, err,
                           sizeof err),
                   0);
  /* a multiple of any page size (4 KiB to 64 KiB), so no rounding applies */
  ck_assert_int_eq(cfg_set("contexts/stack-size", "192", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(ctx_factory_init(NULL, 0, err, sizeof err), 0);
  ck_assert_str_eq(ctx_factory_name(), factories[_i]);
  ck_assert_uint_eq(ctx_stack_size(), 192 * 1024);
  ctx_factory_shutdown();
}
END_TEST

START_TEST(test_defaults)
{
  char err[256];
  cfg_reset();
  ctx_declare_config();
  ck_assert_int_eq(cfg_get_int("contexts/stack-size"), 8192);
  ck_assert_int_eq(cfg_get_int("contexts/guard-stacks"), -1);
  ck_assert_str_eq(cfg_get_string("contexts/guard-markers"), "auto");
#if defined(__x86_64__)
  ck_assert_str_eq(cfg_get_string("contexts/factory"), "raw");
#else
  ck_assert_str_eq(cfg_get_string("contexts/factory"), "ucontext");
#endif
  ck_assert_int_eq(ctx_factory_init(NULL, 0, err, sizeof err), 0);
  ck_assert_str_eq(ctx_factory_name(), cfg_get_string("contexts/factory"));
  ck_assert_uint_eq(ctx_stack_size(), 8192u * 1024);
  ctx_factory_shutdown();
  (void)_i;
}
END_TEST

START_TEST(test_reinit_and_churn)
{
  /* create/destroy many times (stack cache), contexts never run, contexts left alive at
   * shutdown, then the other factory in the same process */
  for (int round = 0; round < 2; round++) {
    int f = (_i + round) % NFACTORIES;
    start(f, 128);
    int ran = 0;
    for (int k = 0; k < 100; k++) {
      ctx *burst[40];
      for (int j = 0; j < 40; j++)
        burst[j] = ctx_create(count_body, &ran, "burst");
      for (int j = 0; j < 40; j += 2)
        ctx_switch(ctx_maestro(), burst[j]);
      for (int j = 0; j < 40; j++)
        ctx_destroy(burst[j]);
    }
    ck_assert_int_eq(ran, 100 * 20);
    ctx *left = ctx_create(count_body, &ran, "left alive");
    ck_assert_str_eq(ctx_name(left), "left alive");
    ctx_factory_shutdown();
    ck_assert_ptr_null(ctx_current());
  }
}
END_TEST

static Suite *context_suite(void)
{
  Suite *s = suite_create("context");
  TCase *tc = tcase_create("factories");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_pingpong, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_round_robin, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_finish_targets, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_switch_to_finished_aborts, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_registers_preserved, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_fp_control_isolated, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_deep_recursion, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_arena_stacks, 0, NMODES);
  tcase_add_loop_test(tc, test_arena_overflow_lowest, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_overflow_message, 0, NMODES);
  tcase_add_loop_test(tc, test_overflow_every_slot, 0, NMODES);
  tcase_add_loop_test(tc, test_guards_by_batch, 0, 4 * NFACTORIES);
  tcase_add_loop_test(tc, test_overflow_reused_slot, 0, NMODES);
  tcase_add_loop_test(tc, test_overflow_big_frame, 0, NMODES);
  tcase_add_loop_test(tc, test_crash_hook_then_signal, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_crash_hook_maestro, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_crash_hook_faults, 0, 3 * NFACTORIES);
  tcase_add_loop_test(tc, test_lazy_stacks, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_markers_on_new_kernels, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_fake_kernels, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_bad_config, 0, NFACTORIES);
  tcase_add_loop_test(tc, test_defaults, 0, 1);
  tcase_add_loop_test(tc, test_reinit_and_churn, 0, NFACTORIES);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(context_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
