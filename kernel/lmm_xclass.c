/* The exact class (maxmin/exact-class): the lmm side. See kernel/act_exact.c for the whole
 * idea and its worked example; here, which flows may be members and the constraints they
 * cross.
 *
 *   c.active:  [a0 b0 a1 a2 b1 | t0 t1]  members first (a prefix), then the other flows
 *   groups:    a: penalty 4.2e-6, b: penalty 2.1e-6 (routes of two lengths)
 *   sq:        a b a a b (c's list order; a member that leaves becomes a hole)
 *   links:     up0 {a:1}, up1 {a:1}, ..., leafA {a:2}, leafB {b:2}, root_up {a:3, b:2}
 *
 * A flow joins only at the end of the prefix (flows are appended to an active list, and
 * members leave only by being freed), so that lmm_fast_bottleneck.c can walk the members'
 * part of c's list as the links table and the rest flow by flow, in the list's order: a
 * link crossed by one group gets that group's identical terms, k of them, before the
 * others' (any order gives the same sum); a link crossed by several (root_up, under the
 * members' cross-traffic) must be crossed by every member, and gets their terms in sq's
 * order, as c does. */
#include "kernel/lmm_private.h"

#include "src/invariant.h"

#include <math.h>
#include <stdlib.h>

void lmm_xclass_allow(lmm_system *sys, size_t min_flows)
{
  ASSERT(min_flows >= 1);
  sys->xcls_min = min_flows;
}

size_t lmm_xclass_size(const lmm_system *sys) { return sys->xcls ? sys->xcls->n : 0; }
size_t lmm_xclass_adopted(const lmm_system *sys) { return sys->xcls ? sys->xcls->adopted : 0; }
void lmm_xclass_set_adopted(lmm_system *sys, size_t n)
{
  ASSERT(sys->xcls && n <= sys->xcls->n);
  sys->xcls->adopted = n;
}
lmm_variable *lmm_xclass_var(const lmm_system *sys, size_t i) { return sys->xcls->vars[i]; }
unsigned lmm_xclass_group(const lmm_system *sys, size_t i) { return sys->xcls->grp[i]; }
bool lmm_xclass_changed(const lmm_system *sys) { return sys->xcls && sys->xcls->changed; }
bool lmm_xclass_group_changed(const lmm_system *sys, unsigned g)
{
  return sys->xcls->gchanged[g];
}
bool lmm_xclass_broken(const lmm_system *sys) { return sys->xcls && sys->xcls->broken; }
double lmm_xclass_value(const lmm_system *sys, unsigned g) { return sys->xcls->value[g]; }
size_t lmm_variable_xindex(const lmm_variable *v) { return v->xidx; }

/* members of more than one group cross l */
static bool is_mixed(const lmm_xclass *xc, const lmm_xlink *l)
{
  for (unsigned h = 0; h < xc->ng; h++)
    if (l->kg[h] && l->kg[h] != l->k)
      return true;
  return false;
}

/* The group u would join (LMM_XG: none): same penalty as the group, and its value; on c once
 * with the members' coefficient; on each other constraint once, with the coefficient of the
 * members already there; on every constraint that members of several groups cross, and
 * making a constraint crossed by several groups only if every member crosses it (then the
 * walk adds its terms in c's list order, sq). */
static unsigned may_join(const lmm_xclass *xc, const lmm_variable *u)
{
  if (u->xidx || u->n_elems > 32 || !(u->penalty > 0))
    return LMM_XG;
  unsigned g = 0;
  while (g < xc->ng && xc->pen[g] != u->penalty)
    g++;
  if (g == LMM_XG || (g < xc->ng && xc->gn[g] && u->value != xc->value[g]))
    return LMM_XG;
  size_t on_c = 0, mixed = 0;
  for (size_t k = 0; k < u->n_elems; k++) {
    const lmm_element *e = &u->elems[k];
    if (e->coef <= 0)
      continue;
    if (e->cnst == xc->c) {
      if (e->coef != xc->coef_c || ++on_c > 1)
        return LMM_XG;
      continue;
    }
    for (size_t j = 0; j < k; j++)
      if (u->elems[j].cnst == e->cnst && u->elems[j].coef > 0)
        return LMM_XG;
    if (!e->cnst->xl_idx)
      continue;
    const lmm_xlink *l = &xc->links[e->cnst->xl_idx - 1];
    if (l->coef != e->coef)
      return LMM_XG;
    if (l->kg[g] != l->k && l->k != xc->n) /* mixed once u joins, and not crossed by all */
      return LMM_XG;
    mixed += is_mixed(xc, l);
  }
  if (on_c != 1 || mixed != xc->nmixed)
    return LMM_XG;
  return g;
}

/* Link li into xc->walk or xc->lazy (list slot kept in hot[li].lpos) */
void lmm_xclass_list_put(lmm_xclass *xc, size_t li, bool lazy)
{
  lmm_xhot *h = &xc->hot[li];
  h->in_lazy = lazy;
  if (lazy) {
    XGROW(xc->lazy, xc->caplazy, xc->nlazy + 1);
    h->lpos = (uint32_t)xc->nlazy;
    xc->lazy[xc->nlazy++] = (uint32_t)li;
    if (h->lim < xc->lazy_min[h->g1])
      xc->lazy_min[h->g1] = h->lim;
  } else {
    XGROW(xc->walk, xc->caplwalk, xc->nwalk + 1);
    h->lpos = (uint32_t)xc->nwalk;
    xc->walk[xc->nwalk++] = (uint32_t)li;
  }
}

/* ... and out of it (the last of the list takes its slot) */
void lmm_xclass_list_take(lmm_xclass *xc, size_t li)
{
  lmm_xhot *h = &xc->hot[li];
  uint32_t *list = h->in_lazy ? xc->lazy : xc->walk;
  size_t *n = h->in_lazy ? &xc->nlazy : &xc->nwalk;
  uint32_t last = list[--*n];
  list[h->lpos] = last;
  xc->hot[last].lpos = h->lpos;
}

/* the walk's view of link li after its counts changed */
static void hot_update(lmm_xclass *xc, size_t li)
{
  const lmm_xlink *l = &xc->links[li];
  unsigned g1 = 0;
  while (g1 + 1 < LMM_XG && !l->kg[g1])
    g1++;
  xc->hot[li].g1 = (uint8_t)g1;
  xc->hot[li].mixed = is_mixed(xc, l);
}

static void add(lmm_system *sys, lmm_xclass *xc, lmm_variable *u, unsigned g)
{
  if (g == xc->ng) {
    xc->pen[g] = u->penalty;
    xc->ng++;
  }
  if (!xc->gn[g])
    xc->value[g] = u->value;
  xc->gn[g]++;
  size_t cap = xc->cap, capsq = xc->capsq;
  XGROW(xc->vars, xc->cap, xc->n + 1);
  if (xc->cap != cap) { /* the arrays beside vars and sq follow their capacity */
    xc->grp = xrealloc(xc->grp, xc->cap * sizeof *xc->grp);
    xc->pos = xrealloc(xc->pos, xc->cap * sizeof *xc->pos);
  }
  XGROW(xc->sq, xc->capsq, xc->nsq + 1);
  if (xc->capsq != capsq)
    xc->sqm = xrealloc(xc->sqm, xc->capsq * sizeof *xc->sqm);
  size_t i = xc->n++;
  xc->vars[i] = u;
  xc->grp[i] = (uint8_t)g;
  xc->pos[i] = xc->nsq;
  xc->sq[xc->nsq] = (uint8_t)g;
  xc->sqm[xc->nsq++] = i;
  u->xidx = (uint32_t)xc->n;
  if (u->bound >= 0 && u->bound < xc->bound)
    xc->bound = u->bound;
  for (size_t k = 0; k < u->n_elems; k++) {
    const lmm_element *e = &u->elems[k];
    lmm_constraint *b = e->cnst;
    if (e->coef <= 0 || b == xc->c)
      continue;
    if (!b->xl_idx) {
      size_t capl = xc->capl;
      XGROW(xc->links, xc->capl, xc->nl + 1);
      if (xc->capl != capl)
        xc->hot = xrealloc(xc->hot, xc->capl * sizeof *xc->hot);
      xc->hot[xc->nl] = (lmm_xhot){.lim = -1};
      xc->links[xc->nl++] = (lmm_xlink){.b = b, .coef = e->coef, .since = xc->nev};
      b->xl_idx = (uint32_t)xc->nl;
      lmm_xclass_list_put(xc, xc->nl - 1, false);
    }
    lmm_xlink *l = &xc->links[b->xl_idx - 1];
    lmm_xlink_touch_slow(sys, b); /* its pending events had k members */
    bool was_mixed = is_mixed(xc, l);
    l->k++;
    l->kg[g]++;
    xc->nmixed += !was_mixed && is_mixed(xc, l);
    hot_update(xc, b->xl_idx - 1);
  }
}

void lmm_xclass_grow(lmm_system *sys, lmm_constraint *c)
{
  lmm_xclass *xc = sys->xcls;
  if (xc && xc->c != c)
    return;
  size_t nF = sys->nF;
  if (!xc) {
    if (nF < sys->xcls_min || c->n_active != nF)
      return;
    lmm_variable *u0 = sys->F[0];
    if (u0->mod_mark != sys->solve_no)
      return;
    double coef_c = -1;
    for (size_t k = 0; k < u0->n_elems; k++)
      if (u0->elems[k].cnst == c && u0->elems[k].coef > 0)
        coef_c = u0->elems[k].coef;
    xc = sys->xcls = xcalloc(1, sizeof *xc);
    xc->c = c;
    xc->coef_c = coef_c;
    xc->bound = INFINITY;
    for (unsigned g = 0; g < LMM_XG; g++)
      xc->lazy_min[g] = INFINITY;
    xc->changed = true;
  } else if (!xc->changed) {
    return;
  }
  /* F: the flows after the members in list order (all of c's when forming); those that
   * just took a group's value join, up to the first that cannot */
  for (size_t i = 0; i < nF; i++) {
    lmm_variable *u = sys->F[i];
    unsigned g = u->mod_mark == sys->solve_no ? may_join(xc, u) : LMM_XG;
    if (g == LMM_XG)
      break;
    add(sys, xc, u, g);
  }
  if (xc->n < sys->xcls_min && !xc->adopted)
    lmm_xclass_dissolve(sys);
}

void lmm_xclass_remove(lmm_system *sys, size_t i)
{
  lmm_xclass *xc = sys->xcls;
  ASSERT(xc && i < xc->n);
  lmm_variable *u = xc->vars[i];
  unsigned g = xc->grp[i];
  for (size_t k = 0; k < u->n_elems; k++) {
    const lmm_element *e = &u->elems[k];
    lmm_constraint *b = e->cnst;
    if (e->coef <= 0 || b == xc->c)
      continue;
    size_t li = b->xl_idx - 1;
    lmm_xlink_touch_slow(sys, b); /* its pending events had k members */
    lmm_xlink *l = &xc->links[li];
    bool was_mixed = is_mixed(xc, l);
    l->k--;
    l->kg[g]--;
    xc->nmixed -= was_mixed && !is_mixed(xc, l);
    if (l->k) {
      hot_update(xc, li);
      continue;
    }
    b->xl_idx = 0;
    lmm_xclass_list_take(xc, li);
    xc->hot[li] = xc->hot[xc->nl - 1];
    xc->links[li] = xc->links[--xc->nl];
    if (li < xc->nl) { /* the moved link: its constraint and list slot name its new index */
      xc->links[li].b->xl_idx = (uint32_t)li + 1;
      (xc->hot[li].in_lazy ? xc->lazy : xc->walk)[xc->hot[li].lpos] = (uint32_t)li;
    }
  }
  xc->gn[g]--;
  xc->sq[xc->pos[i]] = LMM_XDEAD;
  xc->ndead++;
  u->xidx = 0;
  size_t last = --xc->n;
  if (i < last) {
    xc->vars[i] = xc->vars[last];
    xc->grp[i] = xc->grp[last];
    xc->pos[i] = xc->pos[last];
    xc->sqm[xc->pos[i]] = i;
    xc->vars[i]->xidx = (uint32_t)i + 1;
  }
  if (xc->adopted > xc->n)
    xc->adopted = xc->n;
  if (xc->ndead >= 64 && 2 * xc->ndead > xc->nsq) { /* squeeze the dead out of sq */
    size_t w = 0;
    for (size_t r = 0; r < xc->nsq; r++) {
      if (xc->sq[r] == LMM_XDEAD)
        continue;
      xc->sq[w] = xc->sq[r];
      xc->sqm[w] = xc->sqm[r];
      xc->pos[xc->sqm[w]] = w;
      w++;
    }
    xc->nsq = w;
    xc->ndead = 0;
  }
}
bool lmm_xclass_resync(lmm_system *sys)
{
  lmm_xclass *xc = sys->xcls;
  double nv[LMM_XG];
  bool seen[LMM_XG] = {false};
  for (size_t i = 0; i < xc->n; i++) {
    unsigned g = xc->grp[i];
    double v = xc->vars[i]->value;
    if (!seen[g]) {
      seen[g] = true;
      nv[g] = v;
    } else if (v != nv[g]) {
      return false;
    }
  }
  for (unsigned g = 0; g < xc->ng; g++) {
    xc->gchanged[g] = seen[g] && nv[g] != xc->value[g];
    xc->changed |= xc->gchanged[g];
    if (seen[g])
      xc->value[g] = nv[g];
  }
  return true;
}

void lmm_xclass_truncate(lmm_system *sys, size_t n)
{
  while (sys->xcls && sys->xcls->n > n)
    lmm_xclass_remove(sys, sys->xcls->n - 1);
}

void lmm_xclass_dissolve(lmm_system *sys)
{
  lmm_xclass *xc = sys->xcls;
  if (!xc)
    return;
  lmm_xlink_sync_all(sys);
  for (size_t i = 0; i < xc->n; i++)
    xc->vars[i]->xidx = 0;
  for (size_t l = 0; l < xc->nl; l++)
    xc->links[l].b->xl_idx = 0;
  free(xc->vars);
  free(xc->grp);
  free(xc->pos);
  free(xc->sq);
  free(xc->sqm);
  free(xc->links);
  free(xc->hot);
  free(xc->walk);
  free(xc->lazy);
  free(xc->log);
  free(xc);
  sys->xcls = NULL;
}
