/* What the class path (kernel/act_class.c, maxmin/class-sharing:yes) reads of the solver:
 * whether a saturated constraint and the flows on it can be taken out of the system and
 * shared by one level (lmm_class_probe), and a pointer per constraint to find the class
 * again. Nothing here solves or changes an allocation.
 *
 *   backbone c  [u1 u2 u3 ... un]   saturated, the only saturated constraint of each ui
 *   up link b1  [u1]                 unsaturated, carries only flows of c
 *   up link b2  [u2 u3]              idem
 * -> a class: every ui has the level capacity(c) / sum(coef / penalty) (lmm_fast_bottleneck.c
 *    computes the same value), and stays so while no bi saturates.
 */
#include "kernel/lmm_private.h"

size_t lmm_constraint_active_count(const lmm_constraint *c) { return c->n_active; }

bool lmm_constraint_saturated(const lmm_constraint *c) { return c->sat; }

void *lmm_constraint_class(const lmm_constraint *c) { return c->cls; }

void lmm_constraint_set_class(lmm_constraint *c, void *cls) { c->cls = cls; }

bool lmm_variable_bound_binds(const lmm_variable *v) { return lmm_bound_matters(v); }

size_t lmm_constraint_active_vars(const lmm_constraint *c, lmm_variable **out)
{
  size_t n = 0;
  list_foreach (it, &c->active)
    out[n++] = list_entry(it, lmm_element, cnode)->var;
  return n;
}

lmm_constraint *lmm_class_probe(lmm_system *sys, lmm_variable *v, size_t min_flows,
                                size_t max_flows)
{
  if (!lmm_var_enabled(v))
    return NULL;
  lmm_constraint *c = NULL;
  for (size_t k = 0; k < v->n_elems; k++) {
    const lmm_element *e = &v->elems[k];
    if (e->coef > 0 && e->cnst->sat) {
      if (c)
        return NULL; /* two saturated constraints: not the one-bottleneck case */
      c = e->cnst;
    }
  }
  if (!c || c->policy != LMM_SHARED || !(c->capacity > 0) || c->n_active < min_flows ||
      c->n_active > max_flows || c->cls)
    return NULL;
  /* every other constraint of c's flows: counted in nfree (solver scratch, free between
   * solves), marked with a fresh iteration number, listed in C */
  uint64_t mark = ++sys->iter;
  size_t nC = 0;
  list_foreach (it, &c->active) {
    const lmm_variable *u = list_entry(it, lmm_element, cnode)->var;
    if (lmm_bound_matters(u))
      return NULL;
    for (size_t k = 0; k < u->n_elems; k++) {
      const lmm_element *e = &u->elems[k];
      lmm_constraint *b = e->cnst;
      if (e->coef <= 0 || b == c)
        continue;
      if (b->policy != LMM_SHARED || b->sat || !(b->capacity > 0) || b->cls)
        return NULL;
      if (b->in_c != mark) {
        b->in_c = mark;
        b->nfree = 0;
        XGROW(sys->C, sys->capC, nC + 1);
        sys->C[nC++] = b;
      }
      b->nfree++;
    }
  }
  for (size_t i = 0; i < nC; i++)
    if (sys->C[i]->nfree != sys->C[i]->n_active)
      return NULL; /* b carries a flow that does not cross c */
  return c;
}

double lmm_system_precision(const lmm_system *sys) { return sys->precision; }

void lmm_class_detach(lmm_system *sys, lmm_variable *v)
{
  if (!lmm_var_enabled(v))
    return;
  for (size_t i = 0; i < v->n_elems; i++) {
    lmm_element *e = &v->elems[i];
    if (!(e->coef > 0))
      continue;
    lmm_constraint *c = e->cnst;
    lmm_xlink_touch(sys, c);
    list_remove(&e->cnode);
    list_push_back(&c->idle, &e->cnode);
    sys->n_active_total--;
    sys->n_active_fp -= c->policy == LMM_FATPIPE;
    if (--c->n_active == 0) {
      /* it carried only members of the class: nothing left to solve there */
      c->usage_all = 0;
      c->load = 0;
      c->max_level = 0;
      c->sat = false;
      continue;
    }
    c->usage_all -= e->coef / v->penalty;
    if (v->value > 0) {
      if (c->policy == LMM_SHARED)
        c->load -= e->coef * v->value;
      if (c->sat && !list_linked(&c->dirty_node))
        list_push_back(&sys->dirty_cnsts, &c->dirty_node);
    }
  }
  v->value = 0;
  v->penalty = 0;
  if (list_linked(&v->dirty_node))
    list_remove(&v->dirty_node);
  lmm_var_unpend(sys, v);
}

static void count_reset(lmm_constraint *c, uint64_t stamp)
{
  if (c->cls_stamp != stamp) {
    c->cls_stamp = stamp;
    c->cls_fresh = 0;
    c->cls_tainted = false;
  }
}

void lmm_class_count(lmm_constraint *c, uint64_t stamp)
{
  count_reset(c, stamp);
  c->cls_fresh++;
}

void lmm_class_taint(lmm_constraint *c, uint64_t stamp)
{
  count_reset(c, stamp);
  c->cls_tainted = true;
}

bool lmm_class_all_counted(const lmm_constraint *c, uint64_t stamp)
{
  return c->cls_stamp == stamp && !c->cls_tainted && c->cls_fresh == c->n_active;
}
