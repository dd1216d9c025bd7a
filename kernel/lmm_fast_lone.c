/* Fast path "lone" (maxmin/fast-path-lone): a flow starting alone on unsaturated links, a
 * token ring's every message. Bit for bit the general pass's result (tests/check_lmm.c
 * checks it).
 *
 *   L1 [v]  cap 10, load 0       SHARED keys: rem / usage = 10 / (1/p), 4 / (1/p)
 *   L2 [v]  cap 4,  load 0       the least, L2's, fixes v at x = key / p = 4
 *   (FATPIPE: capacity * p / coef; a bound that matters: bound * p, before a constraint at a
 *    tie; then x = bound)
 */
#include "kernel/lmm_private.h"

#include <math.h>
#include <stdlib.h>

#include "src/mem.h"

/* The pass that lmm_repair.c's solve() would run for one dirty variable v that is the only
 * active one on each of its constraints, none of them saturated (S is empty), computed
 * directly with the same floating-point operations in the same order, so that the result is
 * bit for bit the same: a flow starting alone on its links (a token ring's every message).
 *   F = {v}, C = v's constraints; SHARED c: key = rem / usage with usage = coef / p and
 *   rem = max(0, capacity - (load - coef * value)), or 0 once rem <= P * capacity; FATPIPE c:
 *   key = capacity * p / coef; bound (if lmm_bound_matters): key = bound * p. The heap would pop
 *   the least (key, order) first and fix v there: x = bound, or x = key / p; nothing else
 *   happens in the filling. Check (a) cannot fire (no constraint of v is saturated), and
 *   check (b) only on the constraint that fixed v: when it would fire, or v has no element,
 *   returns false having changed nothing, and the general path runs. */
bool lmm_fast_lone(lmm_system *sys, lmm_variable *v)
{
  double p = sys->precision, pen = v->penalty;
  lmm_event best = {.key = INFINITY, .order = UINT64_MAX};
  lmm_constraint *winner = NULL;
  size_t nc = 0;
  for (size_t k = 0; k < v->n_elems; k++) {
    const lmm_element *e = &v->elems[k];
    if (e->coef <= 0)
      continue;
    lmm_constraint *c = e->cnst;
    if (c->n_active != 1)
      return false;
    lmm_xlink_read(sys, c);
    double key;
    if (c->policy == LMM_SHARED) {
      double usage = 0, free_old = 0;
      usage += e->coef / pen;
      free_old += e->coef * v->value;
      double rem = c->capacity - (c->load - free_old);
      if (rem < 0)
        rem = 0;
      if (rem <= c->capacity * p) {
        key = 0;
      } else {
        key = rem / usage;
        if (!(key > 0))
          key = 0;
      }
    } else {
      key = lmm_dmax(c->capacity * pen / e->coef, 0);
    }
    lmm_event ev = {.key = key, .order = LMM_ORDER_CNST | c->seq};
    if (lmm_ev_before(&ev, &best)) {
      best = ev;
      winner = c;
    }
    nc++;
  }
  if (nc == 0)
    return false;
  double x;
  if (lmm_bound_matters(v) && v->bound * pen <= best.key) { /* ties: bounds first */
    x = v->bound;
    winner = NULL;
  } else {
    if (winner->max_level > best.key * (1 + p))
      return false;
    x = best.key / pen;
  }
  /* commit(), boundary part then the variable */
  double old = v->value;
  double nx = lmm_value_changed(sys, x, old) ? x : old;
  for (size_t k = 0; k < v->n_elems; k++) {
    const lmm_element *e = &v->elems[k];
    if (e->coef <= 0)
      continue;
    lmm_constraint *c = e->cnst;
    if (c->policy == LMM_SHARED)
      c->load += e->coef * (nx - old);
    if (nx * pen > c->max_level)
      c->max_level = nx * pen;
    if (c->policy == LMM_SHARED)
      c->sat = c->load >= c->capacity * (1 - p);
    else
      c->sat = c->sat || e->coef * nx >= c->capacity * (1 - p);
  }
  if (lmm_value_changed(sys, x, old)) {
    v->value = x;
    if (v->mod_mark != sys->solve_no) {
      v->mod_mark = sys->solve_no;
      XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
      sys->modified[sys->n_modified++] = v;
    }
  }
  sys->stats.passes++;
  sys->stats.constraints_visited += nc;
  sys->stats.variables_visited++;
  sys->stats.fast_lone++;
  return true;
}
