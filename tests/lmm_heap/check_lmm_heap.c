/* The filling's heap pops events in (key, order) order, and a constraint that fixing other
 * flows leaves within the precision of full is lowered to the current level at once
 * (lmm_fill.c, fix_var). The random tests (lmm, lmm_bits) do not reach that rule; this one
 * does, with P = 1e-5 and every fast path off, so the general pass solves:
 *
 *   d: cap 0.8          A, B              key 0.8 / 2 = 0.4            (first)
 *   c: cap 0.4(1+P/2)   A, E (coef P/10)  key cap / (1 + P/10) ~ 0.4(1 + 0.4 P)
 *   g: cap 100          G, bound 0.4(1 + P/4): its bound event is between the two
 *
 * d fixes A = B = 0.4; c's rem is then 0.2 P <= P * cap: c is saturated now and must be
 * popped at 0.4, before G's bound, so E = 0.4 (to the bit). Were the lowering lost, G's
 * bound would come first and raise the level, and E would get 0.4(1 + P/4).
 * Variants 4-7 add h: cap 0.1, H alone (key 0.1, popped first), so that c, keyed above
 * 4 x 0.1, waits outside the heap (lmm_fill.c, DEFERRED EVENTS) when d fills it: the
 * lowering must bring it in at once, before G's bound. */
#include "kernel/lmm.h"
#include "src/cfg.h"

#include <check.h>
#include <stdlib.h>

#define P 1e-5

static lmm_system *general_only(void)
{
  char err[256];
  lmm_declare_config();
  cfg_reset();
  ck_assert_msg(cfg_parse("maxmin/fast-path-empty:no maxmin/fast-path-lone:no "
                          "maxmin/fast-path-bottleneck:no maxmin/fast-path-full:no",
                          CFG_ORIGIN_CMDLINE, err, sizeof err) == 0,
                "%s", err);
  lmm_system *sys = lmm_system_new(P);
  cfg_reset();
  return sys;
}

/* order: even creates c before d (c's order is then the smaller), odd the other way round;
 * the pops must not depend on it, nor on extra idle links that only fill the heap (2, 3,
 * 6, 7), nor on h (4-7) */
START_TEST(saturated_by_others_is_popped_at_once)
{
  lmm_system *sys = general_only();
  lmm_constraint *c, *d;
  if (_i % 2 == 0) {
    c = lmm_constraint_new(sys, NULL, 0.4 * (1 + P / 2), LMM_SHARED);
    d = lmm_constraint_new(sys, NULL, 0.8, LMM_SHARED);
  } else {
    d = lmm_constraint_new(sys, NULL, 0.8, LMM_SHARED);
    c = lmm_constraint_new(sys, NULL, 0.4 * (1 + P / 2), LMM_SHARED);
  }
  lmm_constraint *g = lmm_constraint_new(sys, NULL, 100, LMM_SHARED);
  if (_i >= 4) {
    lmm_constraint *h = lmm_constraint_new(sys, NULL, 0.1, LMM_SHARED);
    lmm_expand(sys, h, lmm_variable_new(sys, NULL, 1, -1, 1), 1);
  }
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 2);
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *e = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *gv = lmm_variable_new(sys, NULL, 1, 0.4 * (1 + P / 4), 1);
  lmm_expand(sys, d, a, 1);
  lmm_expand(sys, c, a, 1);
  lmm_expand(sys, d, b, 1);
  lmm_expand(sys, c, e, P / 10);
  lmm_expand(sys, g, gv, 1);
  /* (_i % 4 >= 2) many flows on links of their own whose events sort after all of the above */
  for (int i = 0; _i % 4 >= 2 && i < 300; i++) {
    lmm_constraint *own = lmm_constraint_new(sys, NULL, 50 + i % 7, LMM_SHARED);
    lmm_variable *f = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, own, f, 1);
  }
  lmm_solve(sys);
  ck_assert_double_eq(lmm_variable_value(a), 0.4);
  ck_assert_double_eq(lmm_variable_value(b), 0.4);
  ck_assert_msg(lmm_variable_value(e) == 0.4, "E = %.17g, expected 0.4 (c lowered)",
                lmm_variable_value(e));
  ck_assert_double_eq(lmm_variable_value(gv), 0.4 * (1 + P / 4));
  lmm_system_free(sys);
}
END_TEST

static Suite *heap_suite(void)
{
  Suite *s = suite_create("lmm_heap");
  TCase *tc = tcase_create("pops");
  tcase_add_loop_test(tc, saturated_by_others_is_popped_at_once, 0, 8);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(heap_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
