/* Fast path "bottleneck" (maxmin/fast-path-bottleneck): flows coming and going one at a time
 * on one loaded link that is nobody else's bottleneck (the root's link of a linear Reduce or
 * Gather). Unlike the two other fast paths, it gives the general pass's allocation to rounding,
 * not bit for bit: the level uses the usage kept incrementally (a running sum) where the
 * filling sums over F in its order. tests/check_lmm.c compares the two to the precision.
 *
 *   S = {c, f}:  c [u1 u2 u3 u4]  cap 8, usage_all = sum coef / p = 4 -> level 2, x_i = 2 / p_i
 *                f [u3 u4]        a "follower": in S, carries only flows of c (same route)
 *   boundary:    b [u2 w]         unsaturated before and after, or saturated by w and u2's
 *                                 change within P * capacity: no check would repair it
 * Any other case (a follower carrying another flow, b overflowing, a bound that binds...)
 * returns false and the general pass runs.
 */
#include "kernel/lmm_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/mem.h"

/* b is met for the first time in this pass (its in_c is another pass's): its sums start
 * from zero and it joins the links to commit, sys->C[0..nC) */
static inline size_t enter_link(lmm_system *sys, lmm_constraint *b, uint64_t iter, size_t nC)
{
  b->in_c = iter;
  b->free_old = b->rem = b->usage = b->pf_level = 0;
  XGROW(sys->C, sys->capC, nC + 1);
  sys->C[nC++] = b;
  return nC;
}

/* LAZY LINKS. Each event of the class walked every link its members cross: a linear
 * Reduce's root at 4 096 ranks has ~5 600 (each member's own links), one cache miss or two
 * each, for a commit that adds k identical terms to the load and raises max_level. A link
 * that only members cross, far from saturation (the group's max(x, nx, old) <= lim =
 * capacity (1 - P) (1 - 1e-6) / (k coef), with its load within 1e-9 capacity of k coef
 * value when last read), passes the walk's check whatever the rounding of its load, and
 * its commit needs nothing else: it is skipped. Such links wait in xc->lazy, which the walk
 * looks through only when a group's level passes the least lim of its links there; the
 * others are in xc->walk. The event's group changes and levels go to the class's log, and
 * the link replays them, in order and with the walk's operations (k adds of coef * dm from
 * 0, then load += that; max_level = max(max_level, max(0, level)); sat), when anything else
 * is about to read or change it: a walk that does not skip it, a pass of another kind that
 * meets it (lmm_xlink_read: the fast paths' walks, a local pass's boundary, S), a change
 * through the API or of the members crossing it (lmm_xlink_touch, which also puts it back
 * in xc->walk). A full pass rewrites every load from scratch: the log is dropped
 * (lmm_xlink_drop_all), and most events are never replayed. So every load, max_level and
 * sat read anywhere has the bits the walk would have left, as tests/exact_class checks.
 *
 *   event      1    2    3    4       link up7 (k = 1): walked at 1 (since = 1), skipped
 *   up7        walk skip skip touch   at 2 and 3; a flow added on it at 4 replays first:
 *   log        .    e2   e3           load += 0 + coef dm2, then load += 0 + coef dm3 */
static void xlink_replay(const lmm_system *sys, const lmm_xclass *xc, const lmm_xlink *l,
                         double *load, double *max_level, bool *sat)
{
  if (l->since == xc->nev)
    return;
  const lmm_constraint *b = l->b;
  unsigned g = xc->hot[l - xc->links].g1; /* the only group crossing it: lazy ones are so */
  double p = sys->precision, coef = l->coef, ld = *load, ml = *max_level;
  for (size_t e = l->since; e < xc->nev; e++) {
    double dm = coef * xc->log[e].dm[g], rem = 0;
    for (size_t j = 0; j < l->k; j++)
      rem += dm;
    ld += rem;
    double pf = 0;
    if (xc->log[e].ul[g] > pf)
      pf = xc->log[e].ul[g];
    if (pf > ml)
      ml = pf;
  }
  *load = ld;
  *max_level = ml;
  *sat = ld >= b->capacity * (1 - p); /* (the walk's commit sets it after each event) */
}

static void xlink_sync(lmm_system *sys, lmm_xclass *xc, lmm_xlink *l)
{
  lmm_constraint *b = l->b;
  sys->stats.lazy_replays += xc->nev - l->since;
  xlink_replay(sys, xc, l, &b->load, &b->max_level, &b->sat);
  l->since = xc->nev;
}

void lmm_constraint_state(const lmm_system *sys, const lmm_constraint *c, double *load,
                          double *max_level, bool *sat)
{
  *load = c->load;
  *max_level = c->max_level;
  *sat = c->sat;
  if (c->xl_idx && sys->xcls)
    xlink_replay(sys, sys->xcls, &sys->xcls->links[c->xl_idx - 1], load, max_level, sat);
}

void lmm_xlink_drop_all(lmm_system *sys)
{
  lmm_xclass *xc = sys->xcls;
  if (!xc || !xc->pending)
    return;
  for (size_t i = 0; i < xc->nl; i++)
    xc->links[i].since = 0;
  xc->nev = 0;
  xc->pending = false;
}

void lmm_xlink_sync_all(lmm_system *sys)
{
  lmm_xclass *xc = sys->xcls;
  if (!xc || !xc->pending)
    return;
  for (size_t i = 0; i < xc->nl; i++)
    if (xc->links[i].since != xc->nev)
      xlink_sync(sys, xc, &xc->links[i]);
  lmm_xlink_drop_all(sys); /* all applied: the log starts afresh */
}

void lmm_xlink_read_slow(lmm_system *sys, lmm_constraint *c)
{
  lmm_xclass *xc = sys->xcls;
  lmm_xlink *l = &xc->links[c->xl_idx - 1];
  if (l->since != xc->nev)
    xlink_sync(sys, xc, l);
}

void lmm_xlink_touch_slow(lmm_system *sys, lmm_constraint *c)
{
  lmm_xclass *xc = sys->xcls;
  lmm_xlink_read_slow(sys, c);
  lmm_xhot *h = &xc->hot[c->xl_idx - 1];
  h->lim = -1;
  if (h->in_lazy) { /* walked again from the next event on */
    lmm_xclass_list_take(xc, c->xl_idx - 1);
    lmm_xclass_list_put(xc, c->xl_idx - 1, false);
  }
}

/* The pass for one loaded constraint c: S holds c, maybe constraints that carry only flows
 * of c (the other links of their common path) and constraints that lost their last flow; D
 * holds only flows of c; every other constraint of c's flows is unsaturated and stays so,
 * or is saturated by other flows and sees a change within precision (below).
 * Then the pass that lmm_repair.c's solve() would run gives every flow of c the level
 * lambda = capacity / sum(coef / penalty) (c, the least saturation level of S, is the first
 * event of the filling and fixes all of them; the rest of S then has nothing left to fix,
 * and the boundary does not move: checks (a) and (b) cannot fire). So it is computed here
 * in one walk of c's active list into scratch, then a commit over the arrays it filled (the
 * usage sum is kept up to date by every modification), instead of the machinery, which past
 * the repair limit fills every flow of the system. This is a link that n flows share equally
 * and that is nobody else's bottleneck: the root's link in a linear Reduce or Gather, where
 * flows start and end one at a time (an O(n) event either way, but without the heaps and
 * arrays).
 *   Why it is the max-min allocation: c's flows have c saturated at an equal, hence maximal,
 * level; any other flow keeps its certificate, since the only constraints whose load moved
 * (the other constraints of c's flows) were unsaturated, thus nobody's bottleneck, and
 * stay unsaturated, or stay saturated with a change that the precision P absorbs (the same
 * rule as check (a), which would not repair them either). The value of c's flows is
 * computed as by the general pass, but with the usage summed incrementally rather than in
 * F's order: the same allocation to 1e-13 or so, not bit for bit (deterministic all the
 * same). Returns false, having changed nothing, when a condition fails. */
bool lmm_fast_bottleneck(lmm_system *sys)
{
  /* c: the non-empty constraint of S with the least saturation level (ties: creation
   * order, as in the filling's heap); the other non-empty ones must carry only flows of c
   * (a route's links in series, all saturated by the same flows) */
  lmm_constraint *c = NULL;
  double level = INFINITY;
  size_t n_followers = 0;
  for (size_t i = 0; i < sys->nS; i++) {
    lmm_constraint *d = sys->S[i];
    if (d->n_active == 0)
      continue;
    if (d->policy != LMM_SHARED || !(d->capacity > 0) || !(d->usage_all > 0) || ++n_followers > 8)
      return false;
    double key = d->capacity / d->usage_all;
    if (!c || key < level || (key == level && d->seq < c->seq)) {
      c = d;
      level = key;
    }
    d->nfree = 0;    /* counts its flows found on c */
    d->free_old = 0; /* a follower's new load and max level, summed by the commit */
    d->usage = 0;
  }
  if (!c)
    return false;
  for (size_t i = 0; i < sys->nD; i++) {
    const lmm_variable *d = sys->D[i];
    bool on_c = false;
    for (size_t k = 0; k < d->n_elems && !on_c; k++)
      on_c = d->elems[k].cnst == c && d->elems[k].coef > 0;
    if (!on_c)
      return false;
  }
  double p = sys->precision;

  /* One walk of c's flows computes everything into scratch: each flow's kept value (F, fx),
   * and per boundary constraint b the change of its load, counting a flow at the larger of
   * its computed and kept values for the check (free_old) and at its kept value for the
   * commit (rem), the summed change of flows that really change (usage, check (a)) and the
   * largest new level (pf_level); per follower its new load (free_old) and largest level
   * (usage). Nothing outside scratch is written until every check passed. */
  /* sys's counters and arrays in locals: the stores through b could alias them. S is
   * marked with a pass number of its own, in_c, so that the walk tells a follower from a
   * boundary constraint by one field on the first line (in_s is on the second) */
  const uint64_t in_S = ++sys->iter, iter = ++sys->iter;
  lmm_xclass *xc = sys->xcls;
  for (size_t i = 0; i < sys->nS; i++)
    sys->S[i]->in_c = in_S;
  size_t nC = 0, nF = 0;
  sys->nC = sys->nF = 0; /* what a failed walk leaves */
  XGROW_TIGHT(sys->F, sys->capF, c->n_active);
  lmm_fx_reserve(sys, c->n_active);
  lmm_variable **F = sys->F;
  double *fx = sys->fx;
  double load = 0, max_level = 0;
  /* The exact class on c (lmm_xclass.c): its members are the head of c's list, and those of
   * a group would all take the same steps below with the same operands; those steps are
   * taken once per constraint they cross, as many times as members of the group cross it
   * (in c's list order, sq, on a constraint that members of several groups cross), then the
   * walk goes on with the flows after them. A bound that might bind takes the walk flow by
   * flow. */
  bool by_class = xc && xc->c == c && !xc->broken && xc->n && xc->adopted == xc->n;
  for (unsigned g = 0; by_class && g < xc->ng; g++)
    by_class = !xc->gn[g] || xc->bound * xc->pen[g] > level;
  size_t n_skipped = 0;
  double g_nx[LMM_XG], g_x[LMM_XG], g_ul[LMM_XG], g_dc[LMM_XG], g_dm[LMM_XG], g_dx[LMM_XG];
  bool g_ch[LMM_XG];
  list_node *first = c->active.next;
  if (by_class) {
    for (unsigned g = 0; g < xc->ng; g++) {
      double old = xc->value[g], x = level / xc->pen[g];
      g_ch[g] = lmm_value_changed(sys, x, old);
      double nx = g_ch[g] ? x : old;
      g_x[g] = x;
      g_nx[g] = nx;
      g_ul[g] = nx * xc->pen[g];
      g_dc[g] = lmm_dmax(x, nx) - old;
      g_dm[g] = nx - old;
      g_dx[g] = x - old;
    }
    const uint8_t *sq = xc->sq;
    size_t nsq = xc->nsq;
    /* the constraints that every member crosses first (a root's up link, under the
     * members' cross-traffic): when one is saturated by other flows, it is the usual reason
     * for the check below to fail, and then the walk stops before the rest */
    double gmax[LMM_XG]; /* what a lazy link's check reads */
    for (unsigned g = 0; g < xc->ng; g++)
      gmax[g] = lmm_dmax(xc->value[g], lmm_dmax(g_x[g], g_nx[g]));
    /* the lists: walked links that may be skipped now go to lazy; lazy ones that may not
     * any more (their group's level passed their lim, or a touch) come back */
    for (size_t i = xc->nwalk; i-- > 0;) {
      size_t l = xc->walk[i];
      if (xc->hot[l].lim >= 0) {
        lmm_xclass_list_take(xc, l);
        lmm_xclass_list_put(xc, l, true);
      }
    }
    bool look = false;
    for (unsigned g = 0; g < xc->ng; g++)
      look |= gmax[g] > xc->lazy_min[g];
    if (look) {
      double lmin[LMM_XG];
      for (unsigned g = 0; g < LMM_XG; g++)
        lmin[g] = INFINITY;
      for (size_t i = xc->nlazy; i-- > 0;) {
        size_t l = xc->lazy[i];
        const lmm_xhot *h = &xc->hot[l];
        if (gmax[h->g1] > h->lim) {
          lmm_xclass_list_take(xc, l);
          lmm_xclass_list_put(xc, l, false);
        } else if (h->lim < lmin[h->g1]) {
          lmin[h->g1] = h->lim;
        }
      }
      memcpy(xc->lazy_min, lmin, sizeof lmin);
    }
    n_skipped = xc->nlazy;
    for (int pass = 0; pass < 2; pass++)
      for (size_t wi = 0; wi < xc->nwalk && (pass || xc->nmixed); wi++) {
        size_t l = xc->walk[wi];
        const lmm_xhot *h = &xc->hot[l];
        bool mixed = h->mixed;
        if (mixed != (pass == 0))
          continue;
        unsigned g1 = h->g1; /* the group, when only one crosses b */
        lmm_xlink *xl = &xc->links[l];
        double coef = xl->coef;
        lmm_constraint *b = xl->b;
        if (xl->since != xc->nev)
          xlink_sync(sys, xc, xl);
        /* may it be skipped next time? (read now: b's lines are here anyway) */
        bool lazy_ok = !mixed && b->policy == LMM_SHARED && isfinite(b->capacity) &&
                       b->capacity > 0 && !b->sat && b->n_active == xl->k &&
                       fabs(b->load - (double)xl->k * coef * xc->value[g1]) <= 1e-9 * b->capacity;
        xc->hot[l].lim = lazy_ok ? b->capacity * (1 - p) * (1 - 1e-6) / ((double)xl->k * coef)
                                 : -1;
        if (b->in_c == in_S) { /* a follower */
          b->nfree += xl->k;
          if (mixed) {
            for (size_t q = 0; q < nsq; q++)
              if (sq[q] != LMM_XDEAD)
                b->free_old += coef * g_nx[sq[q]];
          } else {
            for (size_t j = 0; j < xl->k; j++)
              b->free_old += coef * g_nx[g1];
          }
          for (unsigned g = 0; g < xc->ng; g++)
            if (xl->kg[g] && g_ul[g] > b->usage)
              b->usage = g_ul[g];
          continue;
        }
        if (b->policy == LMM_FATPIPE) {
          if (b->sat)
            return false;
          for (unsigned g = 0; g < xc->ng; g++)
            if (xl->kg[g] && coef * lmm_dmax(g_x[g], g_nx[g]) >= b->capacity * (1 - p))
              return false;
        }
        if (b->in_c != iter)
          nC = enter_link(sys, b, iter, nC);
        if (mixed) {
          for (size_t q = 0; q < nsq; q++) {
            unsigned g = sq[q];
            if (g == LMM_XDEAD)
              continue;
            b->free_old += coef * g_dc[g];
            b->rem += coef * g_dm[g];
            if (g_ch[g])
              b->usage += fabs(coef * g_dx[g]);
          }
        } else {
          double dc = coef * g_dc[g1], dm = coef * g_dm[g1], dx = fabs(coef * g_dx[g1]);
          /* in registers: through b, each add would wait for the previous one's store */
          double free_old = b->free_old, rem = b->rem, usage = b->usage;
          for (size_t j = 0; j < xl->k; j++) {
            free_old += dc;
            rem += dm;
          }
          if (g_ch[g1])
            for (size_t j = 0; j < xl->k; j++)
              usage += dx;
          b->free_old = free_old;
          b->rem = rem;
          b->usage = usage;
        }
        for (unsigned g = 0; g < xc->ng; g++)
          if (xl->kg[g] && g_ul[g] > b->pf_level)
            b->pf_level = g_ul[g];
        /* the check below, early: usage only grows */
        if (b->policy == LMM_SHARED && b->sat && b->usage > b->capacity * p)
          return false;
      }
    for (size_t q = 0; q < nsq; q++)
      if (sq[q] != LMM_XDEAD)
        load += xc->coef_c * g_nx[sq[q]];
    for (unsigned g = 0; g < xc->ng; g++)
      if (xc->gn[g] && g_ul[g] > max_level)
        max_level = g_ul[g];
    /* the first flow after the members: the others are few (flows that just started) */
    first = &c->active;
    while (first->prev != &c->active && !list_entry(first->prev, lmm_element, cnode)->var->xidx)
      first = first->prev;
  }
  for (list_node *n = first, *n_next_; n != &c->active; n = n_next_) {
    n_next_ = n->next;
    /* the list is a chain of cache misses (each element in its flow's array, each flow
     * elsewhere): the next element is known already; fetch its flow and the one after it
     * while this flow is processed */
    if (n_next_ != &c->active) {
      __builtin_prefetch(list_entry(n_next_, lmm_element, cnode)->var);
      __builtin_prefetch(n_next_->next);
    }
    const lmm_element *ec = list_entry(n, lmm_element, cnode);
    lmm_variable *u = ec->var;
    double old = u->value, x = level / u->penalty;
    bool changed = lmm_value_changed(sys, x, old);
    double nx = changed ? x : old;
    double ulevel = nx * u->penalty;
    /* per flow, not per element (the same operations, so the same bits) */
    double d_check = lmm_dmax(x, nx) - old, d_commit = nx - old, d_x = x - old;
    double bound = u->bound;
    bool bound_moot = bound < 0; /* lmm_bound_matters(u) == false, in the same walk */
    for (size_t k = 0, ne = u->n_elems; k < ne; k++) {
      const lmm_element *e = &u->elems[k];
      lmm_constraint *b = e->cnst;
      if (e->coef <= 0)
        continue;
      lmm_xlink_read(sys, b); /* a member walked flow by flow (the class not usable) */
      if (!bound_moot && bound * e->coef >= b->capacity)
        bound_moot = true;
      if (b == c)
        continue;
      if (b->in_c == in_S) { /* a follower: counted, checked below */
        b->nfree++;
        b->free_old += e->coef * nx;
        if (ulevel > b->usage)
          b->usage = ulevel;
        continue;
      }
      if (b->policy == LMM_FATPIPE &&
          (b->sat || e->coef * lmm_dmax(x, nx) >= b->capacity * (1 - p)))
        return false;
      if (b->in_c != iter)
        nC = enter_link(sys, b, iter, nC);
      b->free_old += e->coef * d_check;
      b->rem += e->coef * d_commit;
      if (changed)
        b->usage += fabs(e->coef * d_x);
      if (ulevel > b->pf_level)
        b->pf_level = ulevel;
    }
    if (!bound_moot && bound * u->penalty <= level)
      return false;
    F[nF] = u;
    fx[nF++] = nx;
    load += ec->coef * nx;
    if (ulevel > max_level)
      max_level = ulevel;
  }
  sys->nC = nC;
  sys->nF = nF;
  /* An unsaturated b must stay so (its saturation level stays above lambda). A saturated one
   * (a bottleneck of flows not on c) must see what check (a) lets pass: the flows of c on it
   * change by at most P * capacity in all and leave it saturated; and it must not overflow
   * (its level stays at or above lambda, so that c still comes first in the filling). */
  for (size_t i = 0; i < sys->nC; i++) {
    const lmm_constraint *b = sys->C[i];
    if (b->policy != LMM_SHARED)
      continue;
    double bload = b->load + b->free_old;
    if (b->sat ? !(bload < b->capacity) || b->usage > b->capacity * p ||
                     bload < b->capacity * (1 - p)
               : bload >= b->capacity * (1 - p))
      return false;
  }
  for (size_t i = 0; i < sys->nS; i++)
    if (sys->S[i] != c && sys->S[i]->n_active && sys->S[i]->nfree != sys->S[i]->n_active)
      return false;

  /* commit */
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *b = sys->C[i];
    if (b->policy == LMM_SHARED) {
      b->load += b->rem;
      b->sat = b->load >= b->capacity * (1 - p);
    }
    if (b->pf_level > b->max_level)
      b->max_level = b->pf_level;
  }
  for (size_t i = 0; i < sys->nF; i++) {
    lmm_variable *u = sys->F[i];
    if (sys->fx[i] == u->value)
      continue;
    u->value = sys->fx[i];
    if (u->mod_mark != sys->solve_no) {
      u->mod_mark = sys->solve_no;
      XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
      sys->modified[sys->n_modified++] = u;
    }
  }
  if (by_class && (n_skipped || xc->pending)) { /* the skipped links' log */
    XGROW(xc->log, xc->capev, xc->nev + 1);
    lmm_xevent *ev = &xc->log[xc->nev++];
    for (unsigned g = 0; g < LMM_XG; g++) {
      ev->dm[g] = g < xc->ng ? g_dm[g] : 0;
      ev->ul[g] = g < xc->ng ? g_ul[g] : 0;
    }
    for (size_t i = 0; i < xc->nwalk; i++) /* every one walked, none moved since */
      xc->links[xc->walk[i]].since = xc->nev;
    xc->pending = true;
    if (xc->nev >= 4096) /* the log stays short */
      lmm_xlink_sync_all(sys);
  }
  if (by_class) { /* the members' commit: the same test, group by group */
    bool any = false;
    for (unsigned g = 0; g < xc->ng; g++) {
      xc->gchanged[g] = xc->gn[g] && g_nx[g] != xc->value[g];
      any |= xc->gchanged[g];
      if (xc->gn[g])
        xc->value[g] = g_nx[g];
    }
    if (any) {
      for (size_t i = 0; i < xc->n; i++)
        if (xc->gchanged[xc->grp[i]])
          xc->vars[i]->value = g_nx[xc->grp[i]];
      xc->changed = true;
    }
  }
  c->load = load;
  c->max_level = max_level;
  c->sat = load >= c->capacity * (1 - p);
  for (size_t i = 0; i < sys->nS; i++) { /* followers, and those that lost their last flow */
    lmm_constraint *d = sys->S[i];
    if (d == c)
      continue;
    d->load = d->n_active ? d->free_old : 0;
    d->max_level = d->n_active ? d->usage : 0;
    d->sat = d->load >= d->capacity * (1 - p);
  }
  sys->stats.passes++;
  sys->stats.constraints_visited += sys->nS + sys->nC + n_skipped;
  sys->stats.lazy_skips += n_skipped;
  sys->stats.variables_visited += c->n_active;
  sys->stats.fast_bottleneck++;
  if (sys->xcls_min)
    lmm_xclass_grow(sys, c);
  return true;
}
