/* Tests of the max-min solver: textbook cases with the arithmetic written out, then
 * randomized cross-checks (progressive filling against GLPK's successive LPs, the local
 * repair of lmm_solve against a full solve after random modifications, and each fast path
 * against the general pass, bit for bit). */
#include "kernel/lmm.h"
#include "src/cfg.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREC 1e-9

static void assert_close_(double got, double want, double rel, const char *what, int line)
{
  ck_assert_msg(fabs(got - want) <= rel * fmax(fabs(want), 1e-300) || got == want,
                "line %d: %s = %.17g, expected %.17g", line, what, got, want);
}
#define CLOSE(got, want) assert_close_((got), (want), 1e-12, #got, __LINE__)

static bool is_modified(const lmm_system *sys, const lmm_variable *v)
{
  for (size_t i = 0; i < lmm_modified_count(sys); i++)
    if (lmm_modified_get(sys, i) == v)
      return true;
  return false;
}

/* ======================================================================================
 * Textbook cases
 * ====================================================================================== */

START_TEST(one_constraint_equal_share)
{
  /* 4 flows of penalty 1 on one link of capacity 10: 10 / 4 = 2.5 each */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *c = lmm_constraint_new(sys, NULL, 10, LMM_SHARED);
  lmm_variable *v[4];
  for (int i = 0; i < 4; i++) {
    v[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, c, v[i], 1);
  }
  lmm_solve(sys);
  for (int i = 0; i < 4; i++) {
    CLOSE(lmm_variable_value(v[i]), 2.5);
    ck_assert(is_modified(sys, v[i]));
  }
  ck_assert_uint_eq(lmm_modified_count(sys), 4);
  CLOSE(lmm_constraint_load(c), 10);
  /* nothing changed: nothing to report */
  lmm_solve(sys);
  ck_assert_uint_eq(lmm_modified_count(sys), 0);
  lmm_system_free(sys);
}
END_TEST

START_TEST(penalties_weight_the_share)
{
  /* capacity 12, penalties 1, 2, 3: common level L, x_i = L / p_i,
   * L (1 + 1/2 + 1/3) = L * 11/6 = 12  =>  L = 72/11: x = 72/11, 36/11, 24/11 */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *c = lmm_constraint_new(sys, NULL, 12, LMM_SHARED);
  lmm_variable *v[3];
  for (int i = 0; i < 3; i++) {
    v[i] = lmm_variable_new(sys, NULL, i + 1, -1, 1);
    lmm_expand(sys, c, v[i], 1);
  }
  lmm_solve(sys);
  CLOSE(lmm_variable_value(v[0]), 72.0 / 11);
  CLOSE(lmm_variable_value(v[1]), 36.0 / 11);
  CLOSE(lmm_variable_value(v[2]), 24.0 / 11);
  lmm_system_free(sys);
}
END_TEST

START_TEST(bound_redistributes)
{
  /* capacity 10, three flows, one bounded at 1: the others share 10 - 1 = 9 -> 4.5 each.
   * Then the bound rises to 5 > 10/3: no longer binding, everybody gets 10/3. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *c = lmm_constraint_new(sys, NULL, 10, LMM_SHARED);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, 1, 1);
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *d = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, c, a, 1);
  lmm_expand(sys, c, b, 1);
  lmm_expand(sys, c, d, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 1);
  CLOSE(lmm_variable_value(b), 4.5);
  CLOSE(lmm_variable_value(d), 4.5);
  lmm_variable_set_bound(sys, a, 5);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 10.0 / 3);
  CLOSE(lmm_variable_value(b), 10.0 / 3);
  ck_assert(is_modified(sys, a) && is_modified(sys, b) && is_modified(sys, d));
  /* a bound reached at the same level as the constraint: same value either way */
  lmm_variable_set_bound(sys, a, 10.0 / 3);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 10.0 / 3);
  CLOSE(lmm_variable_value(d), 10.0 / 3);
  lmm_system_free(sys);
}
END_TEST

START_TEST(fatpipe_full_capacity)
{
  /* FATPIPE capacity 10: each of 3 flows alone may use 10 */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *c = lmm_constraint_new(sys, NULL, 10, LMM_FATPIPE);
  lmm_variable *v[3];
  for (int i = 0; i < 3; i++) {
    v[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, c, v[i], 1);
  }
  lmm_solve(sys);
  for (int i = 0; i < 3; i++)
    CLOSE(lmm_variable_value(v[i]), 10);
  CLOSE(lmm_constraint_load(c), 10);
  /* A cross-traffic element (coef 0.05) on a FATPIPE: when the flow of coef 1 fills it at
   * level 10, every unfixed flow on it stops at level 10 too (SimGrid's rule), although
   * 0.05 * 10 = 0.5 alone would not fill it. */
  lmm_variable *x = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, c, x, 0.05);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(x), 10);
  /* alone, the 0.05 flow rises until 0.05 * x = 10: x = 200 */
  for (int i = 0; i < 3; i++)
    lmm_variable_free(sys, v[i]);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(x), 200);
  lmm_system_free(sys);
}
END_TEST

START_TEST(three_links_classic)
{
  /* Links capacity 1, penalties 1.
   *   L1: A, B     L2: A, C     L3: A, D
   * Every link carries 2 flows: all saturate at level 1/2 together, A = B = C = D = 1/2. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l[3];
  for (int i = 0; i < 3; i++)
    l[i] = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 3);
  for (int i = 0; i < 3; i++)
    lmm_expand(sys, l[i], a, 1);
  lmm_variable *o[3];
  for (int i = 0; i < 3; i++) {
    o[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, l[i], o[i], 1);
  }
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 0.5);
  for (int i = 0; i < 3; i++)
    CLOSE(lmm_variable_value(o[i]), 0.5);

  /* E joins L3: L3 has 3 flows, usage 3 -> saturates first at 1/3: A = D = E = 1/3.
   * L1: remaining 1 - 1/3 = 2/3, B alone -> B = 2/3; L2 likewise: C = 2/3. */
  lmm_variable *e = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l[2], e, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 1.0 / 3);
  CLOSE(lmm_variable_value(o[2]), 1.0 / 3);
  CLOSE(lmm_variable_value(e), 1.0 / 3);
  CLOSE(lmm_variable_value(o[0]), 2.0 / 3);
  CLOSE(lmm_variable_value(o[1]), 2.0 / 3);
  for (int i = 0; i < 3; i++)
    CLOSE(lmm_constraint_load(l[i]), 1);

  /* E leaves: back to 1/2 everywhere; the local repair has to grow from L3 to L1 and L2
   * (the worked example of lmm_fill.c and lmm_repair.c) */
  lmm_variable_free(sys, e);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 0.5);
  for (int i = 0; i < 3; i++) {
    CLOSE(lmm_variable_value(o[i]), 0.5);
    ck_assert(is_modified(sys, o[i]));
  }
  ck_assert(is_modified(sys, a));

  /* with penalties: A has penalty 2 (a long route). Each link: x_A + x_i = 1 with levels
   * 2 x_A = x_i = L: L/2 + L = 1 -> L = 2/3: A = 1/3, others 2/3 */
  lmm_variable_set_penalty(sys, a, 2);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 1.0 / 3);
  for (int i = 0; i < 3; i++)
    CLOSE(lmm_variable_value(o[i]), 2.0 / 3);
  lmm_system_free(sys);
}
END_TEST

START_TEST(local_repair_stays_local)
{
  /* 50 separate links of capacity 1 with 2 flows each (1/2 each). A third flow on link 0 is
   * a repair of link 0 alone: one pass over 1 constraint and its 3 flows (1/3 each); the
   * other 49 links are not looked at. Its end: the same, back to 1/2. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l[50];
  lmm_variable *v[50][2];
  for (int i = 0; i < 50; i++) {
    l[i] = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
    for (int k = 0; k < 2; k++) {
      v[i][k] = lmm_variable_new(sys, NULL, 1, -1, 1);
      lmm_expand(sys, l[i], v[i][k], 1);
    }
  }
  lmm_solve(sys);
  lmm_stats before, after;
  lmm_get_stats(sys, &before);
  lmm_variable *x = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l[0], x, 1);
  lmm_solve(sys);
  lmm_get_stats(sys, &after);
  CLOSE(lmm_variable_value(x), 1.0 / 3);
  CLOSE(lmm_variable_value(v[0][1]), 1.0 / 3);
  CLOSE(lmm_variable_value(v[1][0]), 0.5);
  ck_assert_uint_eq(after.passes - before.passes, 1);
  ck_assert_uint_eq(after.fallbacks - before.fallbacks, 0);
  ck_assert_uint_eq(after.constraints_visited - before.constraints_visited, 1);
  ck_assert_uint_eq(after.variables_visited - before.variables_visited, 3);
  ck_assert_uint_eq(lmm_modified_count(sys), 3);
  lmm_variable_free(sys, x);
  lmm_get_stats(sys, &before);
  lmm_solve(sys);
  lmm_get_stats(sys, &after);
  CLOSE(lmm_variable_value(v[0][0]), 0.5);
  ck_assert_uint_eq(after.constraints_visited - before.constraints_visited, 1);
  ck_assert_uint_eq(after.variables_visited - before.variables_visited, 2);
  lmm_system_free(sys);
}
END_TEST

START_TEST(repair_grows_as_in_the_worked_example)
{
  /* lmm_repair.c's worked example: L1 = {A, B}, L2 = {A, C}, L3 = {A, D, E}, capacity 1.
   * When E ends, the repair starts from L3 and needs 3 passes (L3, then L1, then L2).
   * With the default repair limit (a quarter), S = {L3} already holds 2 of the 6 active
   * elements: one full pass at once. */
  for (int limit = 0; limit < 2; limit++) {
    lmm_system *sys = lmm_system_new(PREC);
    if (!limit)
      lmm_set_repair_limit(sys, 2);
    lmm_constraint *l[3];
    for (int i = 0; i < 3; i++)
      l[i] = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
    lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 3);
    for (int i = 0; i < 3; i++)
      lmm_expand(sys, l[i], a, 1);
    lmm_variable *o[3];
    for (int i = 0; i < 3; i++) {
      o[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
      lmm_expand(sys, l[i], o[i], 1);
    }
    lmm_variable *e = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, l[2], e, 1);
    lmm_solve(sys);
    lmm_stats before, after;
    lmm_get_stats(sys, &before);
    lmm_variable_free(sys, e);
    lmm_solve(sys);
    lmm_get_stats(sys, &after);
    ck_assert_uint_eq(after.passes - before.passes, (limit ? 1 : 3));
    ck_assert_uint_eq(after.fallbacks - before.fallbacks, (limit ? 1 : 0));
    CLOSE(lmm_variable_value(a), 0.5);
    for (int i = 0; i < 3; i++)
      CLOSE(lmm_variable_value(o[i]), 0.5);
    lmm_system_free(sys);
  }
}
END_TEST

START_TEST(coefficients_cross_traffic)
{
  /* Flow f1 uses link L forward (coef 1); flow f2 uses link M forward (coef 1) and L backward
   * as cross traffic (coef 0.05). Capacities L = 1, M = 1.
   *   L: usage 1 + 0.05 = 1.05 -> level 1/1.05 = 20/21;  M: usage 1 -> level 1.
   * L first: f1 = f2 = 20/21 (L load 20/21 * 1.05 = 1). */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *L = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
  lmm_constraint *M = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
  lmm_variable *f1 = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *f2 = lmm_variable_new(sys, NULL, 1, -1, 2);
  lmm_expand(sys, L, f1, 1);
  lmm_expand(sys, M, f2, 1);
  lmm_expand(sys, L, f2, 0.05);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(f1), 20.0 / 21);
  CLOSE(lmm_variable_value(f2), 20.0 / 21);
  CLOSE(lmm_constraint_load(L), 1);
  /* M shrinks to 0.5: M saturates first at 0.5 -> f2 = 0.5; L: remaining
   * 1 - 0.05 * 0.5 = 0.975 for f1 alone -> f1 = 0.975 */
  lmm_constraint_set_capacity(sys, M, 0.5);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(f2), 0.5);
  CLOSE(lmm_variable_value(f1), 0.975);
  /* expanding twice adds the coefficients: f1 now 2 on L. L: usage 2 + 0.05 = 2.05 ->
   * level 1/2.05 = 20/41 = 0.4878 < M's 0.5: L first, f1 = f2 = 20/41 (L load 2.05 * 20/41) */
  lmm_expand(sys, L, f1, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(f1), 20.0 / 41);
  CLOSE(lmm_variable_value(f2), 20.0 / 41);
  double coef;
  ck_assert_ptr_eq(lmm_variable_constraint(f1, 0, &coef), L);
  CLOSE(coef, 2);
  lmm_system_free(sys);
}
END_TEST

START_TEST(disabled_variables)
{
  /* capacity 6, flows a, b, c; c starts disabled (penalty 0, its latency phase):
   * a = b = 3, c = 0. Enabled: 2 each. Disabled again: 3, 3, 0. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l = lmm_constraint_new(sys, NULL, 6, LMM_SHARED);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *c = lmm_variable_new(sys, NULL, 0, -1, 1);
  lmm_expand(sys, l, a, 1);
  lmm_expand(sys, l, b, 1);
  lmm_expand(sys, l, c, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 3);
  ck_assert(lmm_variable_value(c) == 0);
  lmm_variable_set_penalty(sys, c, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 2);
  CLOSE(lmm_variable_value(c), 2);
  ck_assert(is_modified(sys, a) && is_modified(sys, b) && is_modified(sys, c));
  lmm_variable_set_penalty(sys, c, 0);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 3);
  CLOSE(lmm_variable_value(b), 3);
  ck_assert(lmm_variable_value(c) == 0);
  CLOSE(lmm_constraint_load(l), 6);
  lmm_system_free(sys);
}
END_TEST

START_TEST(capacity_change)
{
  /* 2 flows on capacity 10: 5 each; capacity 4: 2 each; 100: 50 each */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l = lmm_constraint_new(sys, NULL, 10, LMM_SHARED);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l, a, 1);
  lmm_expand(sys, l, b, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 5);
  lmm_constraint_set_capacity(sys, l, 4);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 2);
  CLOSE(lmm_variable_value(b), 2);
  ck_assert_uint_eq(lmm_modified_count(sys), 2);
  lmm_constraint_set_capacity(sys, l, 100);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(b), 50);
  CLOSE(lmm_constraint_capacity(l), 100);
  lmm_system_free(sys);
}
END_TEST

START_TEST(variable_freed)
{
  /* 3 flows on capacity 9: 3 each; one freed: 4.5 each, and the freed one is not reported */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l = lmm_constraint_new(sys, NULL, 9, LMM_SHARED);
  lmm_variable *v[3];
  for (int i = 0; i < 3; i++) {
    v[i] = lmm_variable_new(sys, (void *)(intptr_t)(i + 1), 1, -1, 1);
    lmm_expand(sys, l, v[i], 1);
  }
  lmm_solve(sys);
  CLOSE(lmm_variable_value(v[0]), 3);
  lmm_variable_free(sys, v[1]);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(v[0]), 4.5);
  CLOSE(lmm_variable_value(v[2]), 4.5);
  ck_assert_uint_eq(lmm_modified_count(sys), 2);
  ck_assert_uint_eq(lmm_variable_count(sys), 2);
  ck_assert_ptr_eq(lmm_variable_at(sys, 1), v[2]);
  /* created then freed before any solve: never reported */
  lmm_variable *tmp = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l, tmp, 1);
  lmm_variable_free(sys, tmp);
  lmm_solve(sys);
  ck_assert_uint_eq(lmm_modified_count(sys), 0);
  CLOSE(lmm_variable_value(v[0]), 4.5);
  lmm_system_free(sys);
}
END_TEST

/* The message pattern of a token ring: one flow at a time, created disabled (latency),
 * enabled, ended. The end of a flow alone on its links takes solve()'s shortcut, and the next
 * flow reuses the freed variable, with more elements than the freed one had room for. */
/* The shortcut for one loaded link (lmm_fast_bottleneck, kernel/lmm_fast_bottleneck.c): a "root" link R shared by N
 * flows that start and end one at a time, each also on a private link of its own. Every step
 * is checked against a twin system solved from scratch. R's flows are most of the system,
 * so a repair would fall back to a full pass at each step: none does, the shortcut ran.
 *   _i = 1: flow 0 also crosses a link T that a cross-traffic flow w saturates, with a
 * precision of 1e-2: once R has 15 flows, flow 0's changes on T are noise (check (a) of the
 * general pass would not repair T either): the shortcut runs, w keeps its value, until T's
 * slack exceeds the precision. As flows end, flow 0 grows and would overflow T: the shortcut
 * steps aside (the general pass lets T overflow within the precision; we do not). Then T's
 * capacity is cut so that flow 0 becomes bottlenecked at T: the general pass takes over. */
START_TEST(one_loaded_link_flows_come_and_go)
{
  enum { N = 40 };
  double prec = _i ? 1e-2 : PREC;
  lmm_system *sys[2];
  lmm_constraint *root[2], *t[2], *priv[2][N];
  lmm_variable *f[2][N], *w[2];
  for (int s = 0; s < 2; s++) {
    sys[s] = lmm_system_new(prec);
    root[s] = lmm_constraint_new(sys[s], NULL, 1, LMM_SHARED);
    t[s] = lmm_constraint_new(sys[s], NULL, 2, LMM_SHARED);
    w[s] = lmm_variable_new(sys[s], NULL, 1, -1, 1);
    lmm_expand(sys[s], t[s], w[s], 1);
    for (int i = 0; i < N; i++)
      priv[s][i] = lmm_constraint_new(sys[s], NULL, 1.5, LMM_SHARED);
  }
  lmm_stats before, after;
  for (int step = 0; step < 2 * N; step++) {
    int i = step < N ? step : step - N;
    if (step == (_i ? 15 : 0)) /* from 15 flows on, flow 0 moves by less than 1 % of T */
      lmm_get_stats(sys[0], &before);
    if (step == N && _i) /* as flows end, flow 0 grows and T overflows: general passes */
      lmm_get_stats(sys[0], &after);
    for (int s = 0; s < 2; s++) {
      if (step < N) {
        f[s][i] = lmm_variable_new(sys[s], NULL, 1 + i % 3, -1, 3);
        lmm_expand(sys[s], root[s], f[s][i], 1);
        lmm_expand(sys[s], priv[s][i], f[s][i], 1);
        if (i == 0 && _i)
          lmm_expand(sys[s], t[s], f[s][i], 1);
      } else if (i > 0) {
        lmm_variable_free(sys[s], f[s][i]);
      }
      if (s == 0)
        lmm_solve(sys[s]);
      else
        lmm_solve_full(sys[s]);
    }
    int lo = step < N ? 0 : i + 1, hi = step < N ? i : N - 1;
    for (int k = lo; k <= hi; k++)
      ck_assert_msg(fabs(lmm_variable_value(f[0][k]) - lmm_variable_value(f[1][k])) <=
                        prec * lmm_variable_value(f[1][k]),
                    "step %d flow %d: %.17g vs %.17g", step, k, lmm_variable_value(f[0][k]),
                    lmm_variable_value(f[1][k]));
    ck_assert(fabs(lmm_variable_value(w[0]) - lmm_variable_value(w[1])) <= prec * 2);
  }
  if (!_i)
    lmm_get_stats(sys[0], &after);
  /* _i = 1: while flows start, w is re-shared (a full pass) only when T's slack, summed
   * over the steps, leaves the precision: 3 times in these 25 steps */
  unsigned long max_fallbacks = _i ? 3 : 0;
  ck_assert_uint_le(after.fallbacks - before.fallbacks, max_fallbacks);
  if (_i) {
    /* flow 0 alone on R: T's 2 - w is more than R's 1, R stays its bottleneck */
    CLOSE(lmm_variable_value(f[0][0]), 1);
    for (int s = 0; s < 2; s++) {
      lmm_constraint_set_capacity(sys[s], t[s], 1.2);
      if (s == 0)
        lmm_solve(sys[s]);
      else
        lmm_solve_full(sys[s]);
    }
    CLOSE(lmm_variable_value(f[0][0]), 0.6);
    CLOSE(lmm_variable_value(f[0][0]), lmm_variable_value(f[1][0]));
    CLOSE(lmm_variable_value(w[0]), lmm_variable_value(w[1]));
  }
  for (int s = 0; s < 2; s++)
    lmm_system_free(sys[s]);
}
END_TEST

START_TEST(lone_flows_one_after_another)
{
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *up = lmm_constraint_new(sys, NULL, 4, LMM_SHARED);
  lmm_constraint *bb = lmm_constraint_new(sys, NULL, 2, LMM_SHARED);
  lmm_constraint *fp = lmm_constraint_new(sys, NULL, 3, LMM_FATPIPE);
  lmm_constraint *zero = lmm_constraint_new(sys, NULL, 0, LMM_SHARED);
  lmm_variable *other = lmm_variable_new(sys, NULL, 1, -1, 1); /* elsewhere: keeps its value */
  lmm_constraint *far = lmm_constraint_new(sys, NULL, 5, LMM_SHARED);
  lmm_expand(sys, far, other, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(other), 5);
  lmm_stats before, after;
  for (int round = 0; round < 3; round++) {
    lmm_variable *v = lmm_variable_new(sys, NULL, 0, -1, round == 2 ? 1 : 2);
    lmm_expand(sys, up, v, 1);
    lmm_expand(sys, bb, v, 1);
    lmm_expand(sys, fp, v, 1);
    if (round == 2)
      lmm_expand(sys, zero, v, 1);
    lmm_solve(sys); /* disabled: nothing to solve, only reported */
    ck_assert(is_modified(sys, v));
    ck_assert(lmm_variable_value(v) == 0);
    lmm_variable_set_penalty(sys, v, 1);
    lmm_solve(sys);
    CLOSE(lmm_variable_value(v), round == 2 ? 0 : 2); /* the backbone, or the 0 link */
    ck_assert_uint_eq(lmm_variable_element_count(v), round == 2 ? 4 : 3);
    CLOSE(lmm_constraint_load(bb), round == 2 ? 0 : 2);
    lmm_get_stats(sys, &before);
    lmm_variable_free(sys, v);
    lmm_solve(sys);
    lmm_get_stats(sys, &after);
    /* a flow at 0 (round 2) withdraws nothing: no pass at all */
    ck_assert_uint_eq(after.passes, before.passes + (round == 2 ? 0 : 1));
    ck_assert_uint_eq(lmm_modified_count(sys), 0);
    ck_assert(lmm_constraint_load(bb) == 0);
  }
  /* a lone flow whose bound binds (bound 1 < backbone 2), then one that the backbone binds
   * after the bound is lifted */
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, 1, 2);
  lmm_expand(sys, up, b, 1);
  lmm_expand(sys, bb, b, 1);
  lmm_solve(sys);
  ck_assert(lmm_variable_value(b) == 1);
  lmm_variable_set_bound(sys, b, -1);
  lmm_solve(sys);
  ck_assert(lmm_variable_value(b) == 2);
  CLOSE(lmm_constraint_load(bb), 2);
  lmm_variable_free(sys, b);
  lmm_solve(sys);
  /* the shortcut left the constraints as a full solve would: a new flow gets the same */
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 2);
  lmm_expand(sys, up, a, 1);
  lmm_expand(sys, fp, a, 2);
  lmm_solve(sys);
  double local = lmm_variable_value(a);
  lmm_solve_full(sys);
  CLOSE(lmm_variable_value(a), local);
  CLOSE(local, 1.5); /* FATPIPE 3 / coef 2 */
  CLOSE(lmm_variable_value(other), 5);
  ck_assert_uint_eq(lmm_variable_count(sys), 2);
  lmm_system_free(sys);
}
END_TEST

START_TEST(variable_without_element)
{
  /* no element with coef > 0: its bound if it has one, else 0 (documented convention) */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l = lmm_constraint_new(sys, NULL, 9, LMM_SHARED);
  lmm_variable *bounded = lmm_variable_new(sys, NULL, 1, 7, 0);
  lmm_variable *free_ = lmm_variable_new(sys, NULL, 1, -1, 0);
  lmm_variable *zero_coef = lmm_variable_new(sys, NULL, 1, 2.5, 1);
  lmm_expand(sys, l, zero_coef, 0);
  lmm_variable *other = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l, other, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(bounded), 7);
  ck_assert(lmm_variable_value(free_) == 0);
  CLOSE(lmm_variable_value(zero_coef), 2.5);
  CLOSE(lmm_variable_value(other), 9); /* the coef-0 element consumes nothing */
  ck_assert_uint_eq(lmm_variable_element_count(zero_coef), 1);
  lmm_system_free(sys);
}
END_TEST

START_TEST(constraint_freed)
{
  /* a crosses L1 (cap 1, shared with b) and L2 (cap 4): a = b = 1/2. L1 disappears: a alone
   * on L2 gets 4, b has no element left: 0. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_constraint *l1 = lmm_constraint_new(sys, NULL, 1, LMM_SHARED);
  lmm_constraint *l2 = lmm_constraint_new(sys, NULL, 4, LMM_SHARED);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 2);
  lmm_variable *b = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_expand(sys, l1, a, 1);
  lmm_expand(sys, l2, a, 1);
  lmm_expand(sys, l1, b, 1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 0.5);
  lmm_constraint_free(sys, l1);
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 4);
  ck_assert(lmm_variable_value(b) == 0);
  ck_assert_uint_eq(lmm_variable_element_count(a), 1);
  ck_assert_ptr_eq(lmm_variable_constraint(a, 0, NULL), l2);
  ck_assert_uint_eq(lmm_constraint_count(sys), 1);
  lmm_system_free(sys);
}
END_TEST

START_TEST(many_elements_grow)
{
  /* a variable expanded over more constraints than its hint: the element array moves and the
   * constraint lists must follow. 20 links of capacity i+1, each shared with one private
   * flow: link 0 (capacity 1) saturates first at 1/2; the private flows on the other links
   * get (i+1) - 1/2. */
  lmm_system *sys = lmm_system_new(PREC);
  lmm_variable *a = lmm_variable_new(sys, NULL, 1, -1, 1);
  lmm_variable *p[20];
  for (int i = 0; i < 20; i++) {
    lmm_constraint *c = lmm_constraint_new(sys, NULL, i + 1, LMM_SHARED);
    p[i] = lmm_variable_new(sys, NULL, 1, -1, 1);
    lmm_expand(sys, c, p[i], 1);
    lmm_expand(sys, c, a, 1);
  }
  lmm_solve(sys);
  CLOSE(lmm_variable_value(a), 0.5);
  for (int i = 0; i < 20; i++)
    CLOSE(lmm_variable_value(p[i]), i + 0.5);
  lmm_variable_free(sys, a);
  lmm_solve(sys);
  for (int i = 0; i < 20; i++)
    CLOSE(lmm_variable_value(p[i]), i + 1);
  lmm_system_free(sys);
}
END_TEST

/* ======================================================================================
 * Randomized cross-checks
 * ====================================================================================== */

static uint64_t rng_state;
static uint64_t rng(void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}
static double unif(double lo, double hi)
{
  return lo + (hi - lo) * ((double)(rng() >> 11) / 9007199254740992.0);
}
static int irand(int n) { return (int)(rng() % (uint64_t)n); }

static double random_coef(void)
{
  int k = irand(10);
  return k < 6 ? 1 : k < 8 ? 0.05 : unif(0.1, 3);
}

/* Two values agree: relative 1e-9, or absolutely tiny compared to the system's scale
 * (the solvers subtract consumptions from capacities of that order). */
static bool agree(double a, double b, double scale)
{
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-13 * scale;
}

typedef struct rsys {
  lmm_system *sys;
  lmm_constraint *c[30];
  int nc;
  double scale;
} rsys;

static void random_variable(rsys *r, lmm_system *sys, lmm_variable **out, int nvars)
{
  double penalty = irand(20) == 0 ? 0 : unif(0.1, 10);
  double bound = irand(10) < 3 ? r->scale * unif(0.01, 2) : -1;
  int ne = irand(15) == 0 ? 0 : 1 + irand(r->nc < 6 ? r->nc : 6);
  lmm_variable *v = lmm_variable_new(sys, NULL, penalty, bound, 2);
  for (int k = 0; k < ne; k++)
    lmm_expand(sys, r->c[irand(r->nc)], v, random_coef());
  *out = v;
  (void)nvars;
}

static void random_system(rsys *r, int nc, int nv)
{
  r->sys = lmm_system_new(PREC);
  r->nc = nc;
  r->scale = pow(10, unif(0, 10));
  for (int i = 0; i < nc; i++)
    r->c[i] = lmm_constraint_new(r->sys, NULL, r->scale * unif(0.1, 10),
                                 irand(5) == 0 ? LMM_FATPIPE : LMM_SHARED);
  lmm_variable *v;
  for (int i = 0; i < nv; i++)
    random_variable(r, r->sys, &v, nv);
}

START_TEST(random_full_vs_glpk)
{
  /* 8000 random systems in 8 loop iterations of 1000 */
  rng_state = 0x9E3779B97F4A7C15ULL + (uint64_t)_i * 7919;
  double values[40];
  for (int t = 0; t < 1000; t++) {
    rsys r;
    random_system(&r, 1 + irand(30), 1 + irand(40));
    lmm_solve_full(r.sys);
    ck_assert_int_eq(lmm_solve_glpk(r.sys, values), 0);
    for (size_t i = 0; i < lmm_variable_count(r.sys); i++) {
      double x = lmm_variable_value(lmm_variable_at(r.sys, i));
      if (!agree(x, values[i], r.scale)) {
        lmm_dump(r.sys, stderr);
        ck_abort_msg("system %d, variable %zu: max-min %.17g, GLPK %.17g", t, i, x, values[i]);
      }
    }
    lmm_system_free(r.sys);
  }
}
END_TEST

/* The same random modifications applied to two systems: one solved by lmm_solve (local
 * repair), the other by lmm_solve_full. */
START_TEST(random_incremental_vs_full)
{
  rng_state = 0xD1B54A32D192ED03ULL + (uint64_t)_i * 104729;
  for (int seq = 0; seq < 60; seq++) {
    rsys r[2];
    int nc = 1 + irand(30);
    double scale = pow(10, unif(0, 10));
    for (int s = 0; s < 2; s++) {
      r[s].sys = lmm_system_new(PREC);
      r[s].nc = nc;
      r[s].scale = scale;
    }
    /* odd iterations: the local repair never falls back to a full pass, however far it
     * spreads (these systems are small enough to trip the default limit often) */
    if (_i % 2)
      lmm_set_repair_limit(r[0].sys, 2);
    uint64_t save = rng_state;
    for (int s = 0; s < 2; s++) {
      rng_state = save;
      for (int i = 0; i < nc; i++)
        r[s].c[i] = lmm_constraint_new(r[s].sys, NULL, scale * unif(0.1, 10),
                                       irand(5) == 0 ? LMM_FATPIPE : LMM_SHARED);
    }
    enum { MAXV = 60 };
    lmm_variable *v[2][MAXV];
    double before[MAXV];
    int nv = 0;
    for (int step = 0; step < 80; step++) {
      int op = irand(10);
      save = rng_state;
      uint64_t after = 0;
      for (int s = 0; s < 2; s++) {
        rng_state = save;
        lmm_system *sys = r[s].sys;
        if ((op < 3 || nv == 0) && nv < MAXV) {
          random_variable(&r[s], sys, &v[s][nv], nv);
          if (s == 1)
            before[nv++] = 0;
        } else if (op < 5 && nv > 0) {
          int k = irand(nv);
          lmm_variable_free(sys, v[s][k]);
          v[s][k] = v[s][nv - 1];
          if (s == 1) {
            before[k] = before[nv - 1];
            nv--;
          }
        } else if (op < 6 && nv > 0) {
          int k = irand(nv);
          lmm_variable_set_penalty(sys, v[s][k], irand(4) == 0 ? 0 : unif(0.1, 10));
        } else if (op < 7 && nv > 0) {
          int k = irand(nv);
          lmm_variable_set_bound(sys, v[s][k], irand(3) == 0 ? -1 : scale * unif(0.01, 2));
        } else if (op < 9) {
          lmm_constraint_set_capacity(sys, r[s].c[irand(nc)], scale * unif(0.1, 10));
        } else if (nv > 0) {
          int k = irand(nv);
          lmm_expand(sys, r[s].c[irand(nc)], v[s][k], random_coef());
        }
        after = rng_state;
      }
      rng_state = after;
      lmm_solve(r[0].sys);
      lmm_solve_full(r[1].sys);
      for (int k = 0; k < nv; k++) {
        double inc = lmm_variable_value(v[0][k]), full = lmm_variable_value(v[1][k]);
        if (!agree(inc, full, scale)) {
          lmm_dump(r[0].sys, stderr);
          ck_abort_msg("sequence %d step %d: variable %d: incremental %.17g, full %.17g", seq,
                       step, k, inc, full);
        }
        /* a value that moved must be reported (before[] of a new variable is 0) */
        if (inc != before[k])
          ck_assert_msg(is_modified(r[0].sys, v[0][k]),
                        "sequence %d step %d: variable %d "
                        "changed %.17g -> %.17g but is not in the modified list",
                        seq, step, k, before[k], inc);
        before[k] = inc;
      }
      /* only live variables are reported, each once */
      size_t nm = lmm_modified_count(r[0].sys);
      for (size_t i = 0; i < nm; i++) {
        lmm_variable *m = lmm_modified_get(r[0].sys, i);
        int found = 0;
        for (int k = 0; k < nv; k++)
          found += v[0][k] == m;
        ck_assert_int_eq(found, 1);
        for (size_t j = 0; j < i; j++)
          ck_assert_ptr_ne(lmm_modified_get(r[0].sys, j), m);
      }
    }
    for (int s = 0; s < 2; s++)
      lmm_system_free(r[s].sys);
  }
}
END_TEST

/* ======================================================================================
 * Fast paths against the general pass
 * ====================================================================================== */

/* A system created under the given maxmin/ settings ("" for the defaults): the solver reads
 * them once, at creation. */
static lmm_system *system_with(double prec, const char *settings)
{
  char err[256];
  lmm_declare_config();
  cfg_reset();
  if (*settings)
    ck_assert_msg(cfg_parse(settings, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0, "%s", err);
  lmm_system *sys = lmm_system_new(prec);
  cfg_reset();
  return sys;
}

#define ALL_FAST_OFF                                                                   \
  "maxmin/fast-path-empty:no maxmin/fast-path-lone:no maxmin/fast-path-bottleneck:no " \
  "maxmin/fast-path-full:no"

static const struct fast_case {
  const char *name;
  const char *settings; /* the system under test; its twin has every fast path off */
  bool bitwise; /* bottleneck: the same allocation to rounding only (lmm_fast_bottleneck.c) */
} fast_cases[] = {
    {"empty", "maxmin/fast-path-lone:no maxmin/fast-path-bottleneck:no maxmin/fast-path-full:no",
     true},
    {"lone", "maxmin/fast-path-empty:no maxmin/fast-path-bottleneck:no maxmin/fast-path-full:no",
     true},
    {"empty+lone", "maxmin/fast-path-bottleneck:no maxmin/fast-path-full:no", true},
    {"bottleneck", "maxmin/fast-path-empty:no maxmin/fast-path-lone:no maxmin/fast-path-full:no",
     false},
    {"full", "maxmin/fast-path-empty:no maxmin/fast-path-lone:no maxmin/fast-path-bottleneck:no",
     true},
    {"empty+lone+full", "maxmin/fast-path-bottleneck:no", true},
    {"all", "", false},
};

static unsigned long fast_count(const lmm_stats *st, const char *name)
{
  return !strcmp(name, "empty")        ? st->fast_empty
         : !strcmp(name, "lone")       ? st->fast_lone
         : !strcmp(name, "bottleneck") ? st->fast_bottleneck
         : !strcmp(name, "full")
             ? st->fast_full
             : st->fast_empty + st->fast_lone + st->fast_bottleneck + st->fast_full;
}

/* Random systems of three shapes, each modified step by step the same way in two systems,
 * one with the fast path(s) of the case on, the other with all off; after each lmm_solve the
 * values must be the same doubles (memcmp), the modified lists the same variables in the
 * same order, and lmm_dump the same text (loads and saturation flags, which the next solve
 * starts from). For bottleneck, whose level is computed from a running sum, they must agree to
 * a few times the precision instead (a kept value may differ by up to P from a new one).
 *   shape 0, "ring": many links, few flows of 1-3 links each coming and going, mostly alone;
 *   shape 1, "star": a hub link in every flow, private links, some shared ones (followers and
 *            saturated cross links), a few cross-traffic flows;
 *   shape 2, "mesh": the random systems of random_incremental_vs_full, FATPIPEs included.
 * The "full" cases (a repair past its limit, and now and then lmm_solve_full, built in one
 * walk) must give the same bits as the general build's three walks.
 * Operations: flows created (penalty 0 sometimes, bounds), freed, disabled and enabled,
 * bounds set and lifted, capacities changed (to 0 sometimes), elements added. */
START_TEST(random_fast_paths_vs_general)
{
  const struct fast_case *fc = &fast_cases[_i];
  rng_state = 0xA0761D6478BD642FULL + (uint64_t)_i * 1000003;
  enum { MAXV = 48, MAXC = 96 };
  unsigned long fired = 0, solves = 0;
  double worst = 0;
  for (int seq = 0; seq < 150; seq++) {
    int shape = seq % 3;
    double scale = pow(10, unif(0, 9));
    int nc = shape == 0 ? 30 + irand(60) : shape == 1 ? 10 + irand(40) : 1 + irand(30);
    lmm_system *sys[2] = {system_with(PREC, fc->settings), system_with(PREC, ALL_FAST_OFF)};
    lmm_constraint *c[2][MAXC];
    lmm_variable *v[2][MAXV];
    int nv = 0;
    uint64_t save = rng_state, after = 0;
    for (int s = 0; s < 2; s++) {
      rng_state = save;
      for (int i = 0; i < nc; i++) {
        double cap = scale * unif(0.1, 10);
        if (shape == 1 && i == 0)
          cap = scale; /* the hub: the tightest */
        else if (shape == 1 && irand(3) == 0)
          cap = scale * unif(0.5, 1.5); /* may bind flows with the hub or be a follower */
        lmm_sharing pol = shape == 2 && irand(5) == 0 ? LMM_FATPIPE : LMM_SHARED;
        c[s][i] = lmm_constraint_new(sys[s], NULL, cap, pol);
      }
      after = rng_state;
    }
    rng_state = after;
    for (int step = 0; step < 60; step++) {
      int op = irand(20);
      save = rng_state;
      for (int s = 0; s < 2; s++) {
        rng_state = save;
        lmm_system *y = sys[s];
        int live_max = shape == 0 ? 4 : MAXV;
        if ((op < 8 || nv == 0) && nv < live_max) {
          double pen = irand(12) == 0 ? 0 : shape == 1 && irand(2) ? 1 : unif(0.1, 10);
          double bound = irand(6) == 0 ? scale * unif(0.05, 3) : -1;
          lmm_variable *x = lmm_variable_new(y, NULL, pen, bound, 2);
          if (shape == 1 && irand(8) != 0)
            lmm_expand(y, c[s][0], x, irand(4) ? 1 : unif(0.5, 2));
          int ne = shape == 1 ? irand(3) : irand(15) == 0 ? 0 : 1 + irand(3);
          for (int k = 0; k < ne; k++)
            lmm_expand(y, c[s][shape == 1 ? 1 + irand(nc - 1) : irand(nc)], x, random_coef());
          v[s][nv] = x;
          if (s == 1)
            nv++;
        } else if (op < 14 && nv > 0) {
          int k = irand(nv);
          lmm_variable_free(y, v[s][k]);
          v[s][k] = v[s][nv - 1];
          if (s == 1)
            nv--;
        } else if (op < 16 && nv > 0) {
          lmm_variable_set_penalty(y, v[s][irand(nv)], irand(3) == 0 ? 0 : unif(0.1, 10));
        } else if (op < 17 && nv > 0) {
          lmm_variable_set_bound(y, v[s][irand(nv)], irand(2) ? -1 : scale * unif(0.05, 3));
        } else if (op < 19) {
          int k = irand(nc);
          lmm_constraint_set_capacity(y, c[s][k], irand(10) ? scale * unif(0.1, 10) : 0);
        } else if (nv > 0) {
          lmm_expand(y, c[s][irand(nc)], v[s][irand(nv)], random_coef());
        }
        after = rng_state;
      }
      rng_state = after;
      /* the cases of the full pass also compare lmm_solve_full, which builds its region
       * the same way, now and then */
      bool whole = strstr(fc->name, "full") && step % 7 == 6;
      for (int s = 0; s < 2; s++)
        (whole ? lmm_solve_full : lmm_solve)(sys[s]);
      solves++;
      for (int k = 0; k < nv; k++) {
        double a = lmm_variable_value(v[0][k]), b = lmm_variable_value(v[1][k]);
        if (fc->bitwise) {
          if (memcmp(&a, &b, sizeof a) != 0) {
            lmm_dump(sys[1], stderr);
            ck_abort_msg("%s: sequence %d step %d variable %d: fast %a, general %a", fc->name,
                         seq, step, k, a, b);
          }
        } else {
          double dev = fabs(a - b) / fmax(fmax(fabs(a), fabs(b)), 1e-300);
          if (dev > worst && fabs(a - b) > 1e-13 * scale)
            worst = dev;
          ck_assert_msg(fabs(a - b) <= 10 * PREC * fmax(fabs(a), fabs(b)) + 1e-13 * scale,
                        "%s: sequence %d step %d variable %d: fast %.17g, general %.17g",
                        fc->name, seq, step, k, a, b);
        }
      }
      if (fc->bitwise) {
        /* the state the next solve starts from too: loads, saturation flags, values */
        char *dump[2];
        size_t len[2];
        for (int s = 0; s < 2; s++) {
          FILE *f = open_memstream(&dump[s], &len[s]);
          lmm_dump(sys[s], f);
          fclose(f);
        }
        if (strcmp(dump[0], dump[1]) != 0) {
          fprintf(stderr, "fast:\n%s\ngeneral:\n%s", dump[0], dump[1]);
          ck_abort_msg("%s: sequence %d step %d: the systems differ", fc->name, seq, step);
        }
        free(dump[0]);
        free(dump[1]);
        size_t nm = lmm_modified_count(sys[0]);
        ck_assert_uint_eq(nm, lmm_modified_count(sys[1]));
        for (size_t i = 0; i < nm; i++) {
          int ka = -1, kb = -1;
          for (int k = 0; k < nv; k++) {
            if (v[0][k] == lmm_modified_get(sys[0], i))
              ka = k;
            if (v[1][k] == lmm_modified_get(sys[1], i))
              kb = k;
          }
          ck_assert_msg(ka == kb, "%s: sequence %d step %d: modified #%zu is %d, general %d",
                        fc->name, seq, step, i, ka, kb);
        }
      }
    }
    lmm_stats st[2];
    for (int s = 0; s < 2; s++) {
      lmm_get_stats(sys[s], &st[s]);
      lmm_system_free(sys[s]);
    }
    ck_assert_uint_eq(fast_count(&st[1], "all"), 0); /* the switches really switch */
    fired += fast_count(&st[0], fc->name);
  }
  /* the fast path under test did run, on a fair share of the solves */
  ck_assert_msg(fired >= solves / 20, "%s: %lu fast solves out of %lu", fc->name, fired, solves);
  fprintf(stderr, "fast path %s: %lu of %lu solves, worst deviation %.3g\n", fc->name, fired,
          solves, worst);
}
END_TEST

static Suite *lmm_suite(void)
{
  Suite *s = suite_create("lmm");
  TCase *tc = tcase_create("textbook");
  tcase_add_test(tc, one_constraint_equal_share);
  tcase_add_test(tc, penalties_weight_the_share);
  tcase_add_test(tc, bound_redistributes);
  tcase_add_test(tc, fatpipe_full_capacity);
  tcase_add_test(tc, three_links_classic);
  tcase_add_test(tc, local_repair_stays_local);
  tcase_add_test(tc, repair_grows_as_in_the_worked_example);
  tcase_add_test(tc, coefficients_cross_traffic);
  tcase_add_test(tc, disabled_variables);
  tcase_add_test(tc, capacity_change);
  tcase_add_test(tc, variable_freed);
  tcase_add_test(tc, lone_flows_one_after_another);
  tcase_add_loop_test(tc, one_loaded_link_flows_come_and_go, 0, 2);
  tcase_add_test(tc, variable_without_element);
  tcase_add_test(tc, constraint_freed);
  tcase_add_test(tc, many_elements_grow);
  suite_add_tcase(s, tc);
  TCase *tr = tcase_create("random");
  tcase_set_timeout(tr, 120);
  tcase_add_loop_test(tr, random_full_vs_glpk, 0, 8);
  tcase_add_loop_test(tr, random_incremental_vs_full, 0, 8);
  tcase_add_loop_test(tr, random_fast_paths_vs_general, 0,
                      (int)(sizeof fast_cases / sizeof fast_cases[0]));
  suite_add_tcase(s, tr);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(lmm_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
