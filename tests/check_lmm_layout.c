/* Tests of the max-min solver's memory layout (kernel/lmm_system.c, lmm_fill.c): the array
 * of variables in creation order that a full pass walks (freed variables leave holes,
 * squeezed out later) and the arena that holds variables and element arrays. The layout
 * must not change a bit of the result: a system that went through churn is compared, bit
 * for bit, with one built afresh with only the survivors, in the same order. */
#include "kernel/lmm.h"
#include "src/cfg.h"
#include "src/rng.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PREC 1e-9
#define NCNST 12

static rng_state rng_st; /* src/rng.h: the project's reproducible stream */
static uint64_t rng(void) { return rng_next(&rng_st); }
static double unif(double lo, double hi) { return lo + (hi - lo) * rng_uniform(&rng_st); }

/* what a variable is made of, to build it again in another system */
typedef struct spec {
  double penalty;
  int ne;
  int cnst[4];
  double coef[4];
  size_t hint;
} spec;

static spec random_spec(size_t hint)
{
  spec s = {unif(0.1, 10), 1 + (int)(rng() % 4), {0}, {0}, hint};
  for (int k = 0; k < s.ne; k++) {
    s.cnst[k] = (int)(rng() % NCNST);
    s.coef[k] = unif(0.05, 3);
  }
  return s;
}

static lmm_variable *build(lmm_system *sys, lmm_constraint **c, const spec *s)
{
  lmm_variable *v = lmm_variable_new(sys, NULL, s->penalty, -1, s->hint);
  for (int k = 0; k < s->ne; k++)
    lmm_expand(sys, c[s->cnst[k]], v, s->coef[k]);
  return v;
}

static lmm_system *new_system(lmm_constraint **c)
{
  lmm_system *sys = lmm_system_new(PREC);
  for (int i = 0; i < NCNST; i++)
    c[i] = lmm_constraint_new(sys, NULL, 1e9 * (1 + i), LMM_SHARED);
  return sys;
}

START_TEST(full_pass_order_survives_churn)
{
  /* 3 000 flows, two thirds freed (holes in the array, squeezed while freeing once they
   * outnumber the live ones), 600 more created (reusing freed variables and their element
   * arrays, some growing), some disabled and enabled again; a full solve must give exactly
   * the values of a fresh system holding the survivors in the same order: each level is a
   * sum over the flows in creation order, so an order that moved would move last bits. */
  rng_seed(&rng_st, 0x243F6A8885A308D3ULL + (uint64_t)_i);
  enum { N0 = 3000, N1 = 600, NMAX = N0 + N1 };
  static spec specs[NMAX];
  static lmm_variable *va[NMAX];
  static bool alive[NMAX];
  lmm_constraint *ca[NCNST], *cb[NCNST];
  lmm_system *a = new_system(ca);
  for (int i = 0; i < N0; i++) {
    specs[i] = random_spec(1); /* hint 1: the arrays grow */
    va[i] = build(a, ca, &specs[i]);
    alive[i] = true;
  }
  lmm_solve(a);
  for (int i = 0; i < N0; i++)
    if (i % 3 != (_i % 3)) {
      lmm_variable_free(a, va[i]);
      alive[i] = false;
    }
  lmm_solve(a);
  for (int i = N0; i < NMAX; i++) {
    specs[i] = random_spec(i % 2 ? 8 : 1);
    va[i] = build(a, ca, &specs[i]);
    alive[i] = true;
  }
  for (int i = 0; i < NMAX; i += 7)
    if (alive[i])
      lmm_variable_set_penalty(a, va[i], 0);
  lmm_solve(a);
  for (int i = 0; i < NMAX; i += 7)
    if (alive[i])
      lmm_variable_set_penalty(a, va[i], specs[i].penalty);
  lmm_solve_full(a);

  lmm_system *b = new_system(cb);
  static lmm_variable *vb[NMAX];
  for (int i = 0; i < NMAX; i++)
    if (alive[i])
      vb[i] = build(b, cb, &specs[i]);
  lmm_solve_full(b);
  int n = 0;
  for (int i = 0; i < NMAX; i++) {
    if (!alive[i])
      continue;
    n++;
    double x = lmm_variable_value(va[i]), y = lmm_variable_value(vb[i]);
    ck_assert_msg(x == y && x > 0, "flow %d: %.17g after churn, %.17g afresh", i, x, y);
  }
  ck_assert_int_eq(n, (int)lmm_variable_count(a));
  lmm_system_free(a);
  lmm_system_free(b);
}
END_TEST

START_TEST(arena_holds_large_and_growing_arrays)
{
  /* 20 000 flows on their own links (past the arena's switch to 2 MiB chunks) and one flow
   * over all 20 000 links, its element array grown from 1 to 32 768 elements (past a
   * quarter of a chunk: a chunk of its own): every link holds 2 flows, so each gets half. */
  enum { N = 20000 };
  lmm_system *sys = lmm_system_new(PREC);
  static lmm_constraint *c[N];
  static lmm_variable *own[N];
  lmm_variable *all = lmm_variable_new(sys, NULL, 1, -1, 1);
  for (int i = 0; i < N; i++) {
    c[i] = lmm_constraint_new(sys, NULL, 2 * (i + 1), LMM_SHARED);
    own[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, c[i], own[i], 1);
    lmm_expand(sys, c[i], all, 1);
  }
  ck_assert_uint_eq(lmm_variable_element_count(all), N);
  lmm_solve(sys);
  ck_assert(lmm_variable_value(all) == 1);
  for (int i = 0; i < N; i++) {
    ck_assert(lmm_variable_value(own[i]) == 2 * (i + 1) - 1);
    double coef;
    ck_assert_ptr_eq(lmm_variable_constraint(all, (size_t)i, &coef), c[i]);
  }
  /* the moved arrays kept the constraint lists consistent: free half, solve again */
  for (int i = 0; i < N; i += 2)
    lmm_variable_free(sys, own[i]);
  lmm_variable_free(sys, all);
  lmm_solve(sys);
  for (int i = 1; i < N; i += 2)
    ck_assert(lmm_variable_value(own[i]) == 2 * (i + 1));
  lmm_system_free(sys);
}
END_TEST

START_TEST(pending_and_spare_blocks)
{
  /* The variables' bookkeeping without lists through them (issue 27): the pending array
   * reports created or changed variables in that order, skipping freed ones, and takes a
   * variable again after a solve; lmm_variable_at follows creation order over the holes of
   * freed ones; a spare variable reuses its block's elements when the hint fits and gets an
   * array of its own when not. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *c[6];
  for (int i = 0; i < 6; i++)
    c[i] = lmm_constraint_new(sys, NULL, 10, LMM_SHARED);
  lmm_variable *v[4];
  for (int i = 0; i < 4; i++) {
    v[i] = lmm_variable_new(sys, NULL, 1, -1, 5);
    for (int k = 0; k < 5; k++)
      lmm_expand(sys, c[k], v[i], 1);
  }
  lmm_variable_set_bound(sys, v[0], 1); /* pending already: not twice */
  lmm_variable_free(sys, v[1]);
  lmm_solve(sys);
  ck_assert_uint_eq(lmm_modified_count(sys), 3);
  ck_assert_ptr_eq(lmm_modified_get(sys, 0), v[0]);
  ck_assert_ptr_eq(lmm_modified_get(sys, 1), v[2]);
  ck_assert_ptr_eq(lmm_modified_get(sys, 2), v[3]);
  ck_assert_uint_eq(lmm_variable_count(sys), 3);
  ck_assert_ptr_eq(lmm_variable_at(sys, 0), v[0]);
  ck_assert_ptr_eq(lmm_variable_at(sys, 1), v[2]);
  ck_assert_ptr_eq(lmm_variable_at(sys, 2), v[3]);

  /* pending again after the solve: a bound that binds nothing changes no value, so only
   * the pending array reports it */
  lmm_solve(sys);
  ck_assert_uint_eq(lmm_modified_count(sys), 0);
  lmm_variable_set_bound(sys, v[2], 1000);
  lmm_solve(sys);
  ck_assert_uint_eq(lmm_modified_count(sys), 1);
  ck_assert_ptr_eq(lmm_modified_get(sys, 0), v[2]);

  /* v[1]'s block comes back for a hint of 3 (its 5 inline elements), then one more
   * variable with a hint of 6 (more than a spare has: an array of its own) */
  lmm_variable *w = lmm_variable_new(sys, NULL, 1, -1, 3);
  ck_assert_ptr_eq(w, v[1]);
  lmm_variable_free(sys, v[3]);
  lmm_variable *x = lmm_variable_new(sys, NULL, 1, -1, 6);
  ck_assert_ptr_eq(x, v[3]);
  for (int k = 0; k < 6; k++)
    lmm_expand(sys, c[k], x, k + 1);
  for (int k = 0; k < 3; k++)
    lmm_expand(sys, c[k], w, 1);
  ck_assert_uint_eq(lmm_variable_element_count(x), 6);
  for (int k = 0; k < 6; k++) {
    double coef;
    ck_assert_ptr_eq(lmm_variable_constraint(x, (size_t)k, &coef), c[k]);
    ck_assert_double_eq(coef, k + 1);
  }
  lmm_solve(sys);
  ck_assert_ptr_eq(lmm_variable_at(sys, 2), w); /* the newest last, whatever its block */
  ck_assert_ptr_eq(lmm_variable_at(sys, 3), x);
  /* c[5] holds x alone: 10 / 6 at most there; c[0..4] hold 4 flows */
  for (int k = 0; k < 6; k++)
    ck_assert(lmm_constraint_load(c[k]) <= 10 * (1 + PREC));
  lmm_system_free(sys);
}
END_TEST

static Suite *layout_suite(void)
{
  Suite *s = suite_create("lmm_layout");
  TCase *tc = tcase_create("layout");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, full_pass_order_survives_churn, 0, 3);
  tcase_add_test(tc, arena_holds_large_and_growing_arrays);
  tcase_add_test(tc, pending_and_spare_blocks);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(layout_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
