/* lmm_solve: re-solve only the part of the max-min system that changed (local repair), with
 * three fast paths for the commonest changes and a fallback to one full pass.
 *
 * SOLVERS (maxmin/solver, read when the system is created): "maxmin" (default) is what this
 * file describes; "glpk" does every solve from scratch by successive linear programs
 * (lmm_glpk.c), for debugging: values agree with maxmin's to the precision P.
 *
 * LOCAL REPAIR (lmm_solve). Modifications leave marks: dirty constraints S (a variable on a
 * saturated constraint disappears or is disabled, the capacity changes) and dirty variables
 * D (created, enabled, penalty or bound changed, element added, a constraint of theirs freed).
 * Saturated constraints of the dirty variables join S at once (the new variable will almost
 * certainly have to share them). Then:
 *   1. F = D + every enabled variable with an element on S ("free"); B = the other
 *      constraints of F's variables ("boundary"). Every other variable keeps its value.
 *   2. Progressive filling of F over S u B, with residual capacities: a constraint of S has
 *      only free variables (rem = capacity); a SHARED c in B gets capacity minus the
 *      consumption of its fixed variables (its incrementally kept load minus the old
 *      consumption of its free variables), a FATPIPE in B its capacity.
 *   3. Validation of each c in B; c joins S when
 *      (a) c was saturated before and a free variable on it changed (SHARED: the summed
 *          change exceeds P * capacity, or it is not saturated any more; FATPIPE: any
 *          change), since a fixed variable may have had c as bottleneck; or
 *      (b) c fixed some free variable at level l during the filling while a variable on c
 *          may have a level above l * (1 + P): it should yield. max_level is an upper bound
 *          kept up to date cheaply; when stale it only causes an unneeded growth.
 *      If S grew, go back to 1 (from the old values); else commit the changed values.
 * (a) does not need "or c is saturated now" as well: a constraint that was not saturated
 * before was nobody's bottleneck, and free variables that it bottlenecks now are covered by
 * (b). The cost of a pass is O(elements of S + elements of F's variables) plus the heap,
 * never the whole element list of a boundary constraint.
 * FAST PATHS, tried in this order before the general pass, each behind its own switch
 * (maxmin/fast-path-<name>, default yes, read when the system is created):
 *   empty       (lmm_fast_empty.c): the end of flows that were alone on their links;
 *   lone        (lmm_fast_lone.c): a flow starting alone on unsaturated links;
 *   bottleneck  (lmm_fast_bottleneck.c): flows coming and going on one loaded link;
 *   full        (lmm_build_full_region, lmm_fill.c): not a shortcut of the solve but of the
 *               full pass's setup, one walk of the flows instead of three.
 * Empty, lone and full do the same floating-point operations as what they replace, so the
 * same bits; bottleneck gives the same allocation to rounding (see there). Turning one off changes
 * nothing but speed (and, for bottleneck, the last bits).
 * FALLBACK. When the variables that the next pass would free, or the elements of its S,
 * exceed the repair limit (a quarter of the system by default, lmm_set_repair_limit), the
 * solve finishes with one full pass. In a loaded network this is the common case and not
 * an artefact: a flow start or end moves about half of all the values by more than 1e-9
 * (bench_lmm's "chg" column), so any solver matching the max-min allocation to that
 * precision pays O(all flows); growing passes would only add to it.
 *
 * Why the result is the max-min allocation: an allocation is max-min fair iff every variable
 * has a certificate: its bound, or a saturated constraint on which its level is maximal.
 * After the last pass: a free variable has one from the filling (S: every variable on it is
 * free; B: check (b) compares with the fixed ones); a fixed variable's old certificate still
 * holds, because its bottleneck is either untouched (not in S u B, no value on it changed)
 * or in B without significant change (check (a)). S only grows, so it terminates, at worst
 * with S = the whole connected component, which is a full solve.
 *
 * WORKED EXAMPLE (all capacities 1, penalties 1, SHARED; no repair limit).
 *   L1: A, B      L2: A, C      L3: A, D, E
 * Full solve: usage L1 = 2, L2 = 2, L3 = 3, so L3 saturates first at lambda = 1/3:
 * A = D = E = 1/3. L1: rem = 1 - 1/3 = 2/3, usage 1 (B) -> B = 2/3; likewise C = 2/3.
 * E ends (freed; L3 was saturated so S = {L3}):
 *   pass 1: F = {A, D}, B = {L1, L2}; residual L1 = 1 - B's 2/3 = 1/3, L2 = 1/3, L3 = 1.
 *     Keys: L3 = 1/2, L1 = L2 = 1/3. L1 first: A = 1/3; then L3: rem 2/3, D alone -> D = 2/3.
 *     Check L1: A did not change, (a) no; L1 fixed A at 1/3 while B is at 2/3 -> (b): S += L1.
 *   pass 2: F = {A, D, B}, B = {L2} (residual 1/3): L2 first at 1/3 fixes A = 1/3 again,
 *     then L1 gives B = 2/3, L3 gives D = 2/3; (b) on L2 (C at 2/3): S += L2.
 *   pass 3: S = {L1, L2, L3}, no boundary: every link has 2 flows, A = B = C = D = 1/2.
 * The repair grew link by link because A's increase had to be paid by B and C.
 */
#include "kernel/lmm_private.h"

#include <string.h>

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_DEFAULT_CATEGORY(lmm);

static void s_add(lmm_system *sys, lmm_constraint *c) { lmm_s_add(sys, c); }

/* Checks (a) and (b) of the header comment on the boundary; true when S grew. */
static bool validate_boundary(lmm_system *sys)
{
  bool grew = false;
  double p = sys->precision;
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    if (c->in_s == sys->solve_no)
      continue;
    bool expand = false;
    if (c->sat) {
      double delta = 0, load = c->load;
      const lmm_free_elem *fe = sys->fe + c->fe_pos;
      for (size_t j = 0; j < c->nfree; j++) {
        double old = sys->fval[fe[j].fidx], x = sys->fx[fe[j].fidx];
        if (lmm_value_changed(sys, x, old)) {
          double d = fe[j].coef * (x - old);
          delta += fabs(d);
          load += d;
        }
      }
      if (c->policy == LMM_SHARED)
        expand = delta > c->capacity * p || load < c->capacity * (1 - p);
      else
        expand = delta > 0;
    }
    if (!expand && c->pf_level >= 0 && c->max_level > c->pf_level * (1 + p))
      expand = true;
    if (expand) {
      LOG_TRACE("constraint #%llu joins the repaired region", (unsigned long long)c->seq);
      s_add(sys, c);
      grew = true;
    }
  }
  return grew;
}

static void solve(lmm_system *sys, bool full)
{
  sys->stats.solves++;
  sys->solve_no++;
  sys->n_modified = 0;
  sys->nS = 0;
  sys->nD = 0;
  sys->nF = 0;
  sys->s_incidences = 0;
  if (sys->xcls) {
    sys->xcls->changed = false;
    memset(sys->xcls->gchanged, 0, sizeof sys->xcls->gchanged);
  }

  /* created or penalty/bound changed since the last solve: reported whatever happens */
  for (size_t i = 0; i < sys->n_pending; i++) {
    lmm_variable *v = sys->pending[i];
    if (!v) /* freed since */
      continue;
    v->pend_pos = 0;
    v->mod_mark = sys->solve_no;
    XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
    sys->modified[sys->n_modified++] = v;
  }
  sys->n_pending = 0;

  while (!list_empty(&sys->dirty_cnsts))
    s_add(sys, list_entry(list_pop_front(&sys->dirty_cnsts), lmm_constraint, dirty_node));
  while (!list_empty(&sys->dirty_vars)) {
    lmm_variable *v = list_entry(list_pop_front(&sys->dirty_vars), lmm_variable, dirty_node);
    XGROW(sys->D, sys->capD, sys->nD + 1);
    sys->D[sys->nD++] = v;
  }
  if (sys->use_glpk) { /* maxmin/solver:glpk: everything, from scratch, by linear programs */
    lmm_xlink_sync_all(sys);
    lmm_glpk_solve_system(sys);
    sys->nS = 0;
    sys->nD = 0;
    return;
  }
  if (full) {
    list_foreach (n, &sys->constraints)
      s_add(sys, list_entry(n, lmm_constraint, all_node));
  } else {
    for (size_t i = 0; i < sys->nD; i++) {
      lmm_variable *v = sys->D[i];
      for (size_t k = 0; k < v->n_elems; k++)
        if (v->elems[k].coef > 0 && v->elems[k].cnst->sat)
          s_add(sys, v->elems[k].cnst);
    }
    if (sys->nS == 0 && sys->nD == 0)
      return;
    if (sys->fast_empty && lmm_fast_empty(sys)) {
      sys->nS = 0;
      return;
    }
    if (sys->fast_lone && sys->nS == 0 && sys->nD == 1 && lmm_fast_lone(sys, sys->D[0])) {
      sys->nD = 0;
      return;
    }
    if (sys->fast_bottleneck && sys->nS && lmm_fast_bottleneck(sys)) {
      sys->nS = 0;
      sys->nD = 0;
      return;
    }
  }

  int passes = 0;
  for (;;) {
    /* The repair spreads over the whole system (the elements of S, or the variables that
     * the next pass would free, are a large part of it): one full pass is cheaper than more
     * growing passes. */
    if (!full && (lmm_over_repair_limit(sys) || !lmm_build_region(sys, false))) {
      full = true;
      sys->stats.fallbacks++;
      /* Only constraints with an enabled variable can bind; the others are already in S if
       * they just lost their last one (dirty). Walking the variables rather than every
       * constraint keeps the fallback proportional to the activity: a platform of 4 096
       * hosts has 12 000 constraints, a token ring 2 variables. maxmin/fast-path-full folds
       * this walk into the region's. */
      if (!sys->fast_full)
        for (size_t o = 0; o < sys->n_by_order; o++) {
          lmm_variable *v = sys->by_order[o];
          if (!v || !lmm_var_enabled(v))
            continue;
          for (size_t k = 0; k < v->n_elems; k++)
            if (v->elems[k].coef > 0)
              s_add(sys, v->elems[k].cnst);
        }
    }
    if (full && sys->fast_full)
      lmm_build_full_region(sys);
    else if (full)
      lmm_build_region(sys, true);
    lmm_progressive_filling(sys);
    passes++;
    if (full || !validate_boundary(sys))
      break;
  }
  sys->stats.passes += (unsigned long)passes;
  LOG_DEBUG("solve #%llu: %d pass(es), %zu free variables, %zu constraints",
            (unsigned long long)sys->solve_no, passes, sys->nF, sys->nC);
  lmm_commit(sys);
  sys->nS = 0;
  sys->nD = 0;
}

/* The fallback: once the free set is a sizeable part of the system, the allocation is
 * changing all over it (in a loaded network a flow start or end moves about half of all
 * values beyond 1e-9, see tools/bench/bench_lmm.c), and one full pass is cheaper than more
 * growing passes. */
void lmm_set_repair_limit(lmm_system *sys, double fraction)
{
  ASSERTF(fraction >= 0, "bad repair limit %g", fraction);
  sys->repair_limit = fraction;
}

void lmm_solve(lmm_system *sys) { solve(sys, false); }

void lmm_solve_full(lmm_system *sys) { solve(sys, true); }
