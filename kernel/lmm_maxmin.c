/* Weighted max-min fair sharing by progressive filling, re-solved locally after each change.
 *
 * DATA MODEL (struct definitions in lmm_private.h)
 *
 *              active list (coef > 0, variable enabled)           idle list (the rest)
 *   link L1 ──> e(A,L1) <-> e(B,L1)                                 ──> e(Z,L1) (Z disabled)
 *   link L2 ──> e(A,L2) <-> e(C,L2)
 *   link L3 ──> e(A,L3) <-> e(D,L3) <-> e(E,L3)
 *                  ^
 *   flow A: elems[] = { e(A,L1), e(A,L2), e(A,L3) }   (the element lives in the array, the
 *                                                       constraint lists link into it)
 * A solve copies the part it works on into flat scratch arrays, reused from solve to solve:
 *   F = [A, D, B]            free variables, with fx[] (new values) and ffixed[] beside it
 *   fe = [L3: (1,A) (1,D) | L1: (1,A) (1,B) | L2: (1,A)]   (coef, index in F) per constraint
 * so that the filling walks arrays instead of chasing list pointers across the heap (a full
 * solve of 100 000 flows went from 575 to 150 ms with this layout).
 *
 * PROGRESSIVE FILLING. Every free variable v has level x_v * p_v; all unfixed levels rise
 * together as one number lambda. Events, taken in increasing lambda from a binary heap:
 *   - SHARED c saturates at lambda = rem_c / usage_c, rem_c = capacity - consumption of the
 *     variables already fixed, usage_c = sum over unfixed variables of coef / p;
 *   - FATPIPE c saturates at lambda = min over its unfixed variables of capacity * p / coef
 *     (when its largest coef*x reaches the capacity);
 *   - a bounded variable reaches its bound at lambda = bound * p (fixed at x = bound).
 * When c saturates, every unfixed variable on it is fixed at x = lambda / p (for a FATPIPE
 * this includes variables that alone would not fill it: SimGrid's rule). Keys in the heap are
 * refreshed lazily (fixing a variable only raises its constraints' saturation levels, so a
 * stale key is a lower bound, recomputed when it reaches the top), and a bound that some
 * constraint alone makes unreachable (bound * coef >= capacity) never enters the heap.
 * A variable without any element of coefficient > 0 gets its bound if it has one, else 0
 * (lmm.h's contract leaves this open; it is our convention). bound = 0 is a real
 * bound (value 0), and a capacity <= 0 gives 0 to its variables; SimGrid ignores both cases,
 * which the network and CPU models never produce.
 *
 * Where the precision P (relative) is used:
 *   - saturation during the filling: rem_c <= P * capacity counts as full (SimGrid's rule);
 *   - a constraint is "saturated" between solves when load >= (1 - P) * capacity;
 *   - a variable's value "changed" when |new - old| > P * max(|new|, |old|); otherwise the old
 *     value is kept, so that rounding noise does not re-key activities or spread repairs;
 *   - levels differ when one exceeds the other by more than a factor (1 + P).
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
 * SHORTCUTS (same floating-point operations, so the same bits as the pass they replace):
 * the end of a flow that was alone on its links (S holds no active element, D is empty)
 * only resets those constraints (settle_empty), and a flow starting alone on unsaturated
 * links is filled in one loop over its elements (solve_lone): a token ring's every message.
 * A third shortcut, for one loaded link whose flows come and go one at a time
 * (solve_one_bottleneck), gives the same allocation but not the same bits: see there.
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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(lmm, kernel, "max-min bandwidth-sharing solver");
LOG_DEFAULT_CATEGORY(lmm);

#define ORDER_CNST ((uint64_t)1 << 62)

/* max of two finite numbers: libm's fmax is a call (its NaN rule keeps GCC from inlining it),
 * 3 % of a fat-tree Allreduce's instructions in the one-bottleneck loop */
static inline double dmax(double a, double b) { return a >= b ? a : b; }

/* ======================================================================================
 * Event heap (min on key, then order)
 * ====================================================================================== */

static inline bool ev_before(const lmm_event *a, const lmm_event *b)
{
  return a->key < b->key || (a->key == b->key && a->order < b->order);
}

static void heap_place(lmm_system *sys, lmm_event *e, size_t i)
{
  sys->heap[i] = e;
  e->pos = i;
}

static void heap_sift_up(lmm_system *sys, size_t i)
{
  lmm_event *e = sys->heap[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!ev_before(e, sys->heap[parent]))
      break;
    heap_place(sys, sys->heap[parent], i);
    i = parent;
  }
  heap_place(sys, e, i);
}

static void heap_sift_down(lmm_system *sys, size_t i)
{
  lmm_event *e = sys->heap[i];
  size_t n = sys->nheap;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n && ev_before(sys->heap[child + 1], sys->heap[child]))
      child++;
    if (!ev_before(sys->heap[child], e))
      break;
    heap_place(sys, sys->heap[child], i);
    i = child;
  }
  heap_place(sys, e, i);
}

static void heap_push_ev(lmm_system *sys, lmm_event *e, double key)
{
  XGROW(sys->heap, sys->capheap, sys->nheap + 1);
  e->key = key;
  heap_place(sys, e, sys->nheap++);
  heap_sift_up(sys, e->pos);
}

static void heap_remove_ev(lmm_system *sys, lmm_event *e)
{
  if (e->pos == LMM_NOT_IN_HEAP)
    return;
  size_t i = e->pos;
  lmm_event *last = sys->heap[--sys->nheap];
  e->pos = LMM_NOT_IN_HEAP;
  if (last == e)
    return;
  heap_place(sys, last, i);
  heap_sift_up(sys, i);
  heap_sift_down(sys, last->pos);
}

static lmm_event *heap_pop_ev(lmm_system *sys)
{
  lmm_event *top = sys->heap[0];
  heap_remove_ev(sys, top);
  return top;
}

static void heap_update_ev(lmm_system *sys, lmm_event *e, double key)
{
  double old = e->key;
  e->key = key;
  if (key < old)
    heap_sift_up(sys, e->pos);
  else if (key > old)
    heap_sift_down(sys, e->pos);
}

/* ======================================================================================
 * System, constraints, variables
 * ====================================================================================== */

lmm_system *lmm_system_new(double precision)
{
  ASSERTF(precision >= 0 && precision < 1, "bad max-min precision %g", precision);
  lmm_system *sys = xcalloc(1, sizeof *sys);
  sys->precision = precision;
  sys->repair_limit = 0.25;
  list_init(&sys->variables);
  list_init(&sys->constraints);
  list_init(&sys->spare_vars);
  list_init(&sys->dirty_cnsts);
  list_init(&sys->dirty_vars);
  list_init(&sys->pending_mod);
  sys->solve_no = 1;
  sys->iter = 1;
  return sys;
}

void lmm_system_free(lmm_system *sys)
{
  if (!sys)
    return;
  list_foreach(n, &sys->variables) {
    lmm_variable *v = list_entry(n, lmm_variable, all_node);
    free(v->elems);
    free(v);
  }
  while (!list_empty(&sys->spare_vars)) {
    lmm_variable *v = list_entry(list_pop_front(&sys->spare_vars), lmm_variable, all_node);
    free(v->elems);
    free(v);
  }
  list_foreach(n, &sys->constraints) free(list_entry(n, lmm_constraint, all_node));
  free(sys->var_at);
  free(sys->cnst_at);
  free(sys->S);
  free(sys->C);
  free(sys->D);
  free(sys->F);
  free(sys->fx);
  free(sys->fval);
  free(sys->fpen);
  free(sys->ffixed);
  free(sys->fe);
  free(sys->heap);
  free(sys->fp);
  free(sys->modified);
  free(sys);
}

static uint64_t next_seq(lmm_system *sys)
{
  return sys->next_seq++;
}

static void cnst_mark_dirty(lmm_system *sys, lmm_constraint *c)
{
  if (!list_linked(&c->dirty_node))
    list_push_back(&sys->dirty_cnsts, &c->dirty_node);
}

static void var_mark_dirty(lmm_system *sys, lmm_variable *v)
{
  if (v->penalty > 0 && !list_linked(&v->dirty_node))
    list_push_back(&sys->dirty_vars, &v->dirty_node);
}

static void var_mark_modified(lmm_system *sys, lmm_variable *v)
{
  if (!list_linked(&v->mod_node))
    list_push_back(&sys->pending_mod, &v->mod_node);
}

static inline bool var_enabled(const lmm_variable *v)
{
  return v->penalty > 0;
}

static inline bool elem_active(const lmm_element *e)
{
  return e->coef > 0 && var_enabled(e->var);
}

/* The element array moved: re-point the list neighbours at the new node addresses. Two
 * elements of one variable are never neighbours (they sit on different constraints). */
static void elem_relink(lmm_element *e)
{
  e->cnode.prev->next = &e->cnode;
  e->cnode.next->prev = &e->cnode;
}

lmm_constraint *lmm_constraint_new(lmm_system *sys, void *id, double capacity, lmm_sharing policy)
{
  ASSERTF(capacity >= 0 && !isnan(capacity), "bad constraint capacity %g", capacity);
  lmm_constraint *c = xcalloc(1, sizeof *c);
  c->id = id;
  c->capacity = capacity;
  c->policy = policy;
  c->seq = next_seq(sys);
  list_init(&c->active);
  list_init(&c->idle);
  list_init(&c->dirty_node);
  c->ev.pos = LMM_NOT_IN_HEAP;
  c->ev.order = ORDER_CNST | c->seq;
  c->pf_level = -1;
  list_push_back(&sys->constraints, &c->all_node);
  sys->n_cnsts++;
  sys->cnst_at_ok = false;
  return c;
}

/* Take element e out of its variable's array (keeping the order of the others). */
static void var_remove_elem(lmm_variable *v, lmm_element *e)
{
  size_t i = (size_t)(e - v->elems);
  ASSERT(i < v->n_elems);
  list_remove(&e->cnode);
  memmove(e, e + 1, (v->n_elems - i - 1) * sizeof *e);
  v->n_elems--;
  for (size_t j = i; j < v->n_elems; j++)
    elem_relink(&v->elems[j]);
}

void lmm_constraint_free(lmm_system *sys, lmm_constraint *c)
{
  list_node *lists[2] = {&c->active, &c->idle};
  for (int l = 0; l < 2; l++) {
    while (!list_empty(lists[l])) {
      lmm_element *e = list_entry(list_first(lists[l]), lmm_element, cnode);
      lmm_variable *v = e->var;
      bool was_active = elem_active(e);
      var_remove_elem(v, e);
      if (was_active)
        var_mark_dirty(sys, v); /* one constraint less: it may get more */
    }
  }
  sys->n_active_total -= c->n_active;
  if (list_linked(&c->dirty_node))
    list_remove(&c->dirty_node);
  list_remove(&c->all_node);
  sys->n_cnsts--;
  sys->cnst_at_ok = false;
  free(c);
}

void lmm_constraint_set_capacity(lmm_system *sys, lmm_constraint *c, double capacity)
{
  ASSERTF(capacity >= 0 && !isnan(capacity), "bad constraint capacity %g", capacity);
  if (capacity == c->capacity)
    return;
  c->capacity = capacity;
  cnst_mark_dirty(sys, c);
}

double lmm_constraint_capacity(const lmm_constraint *c)
{
  return c->capacity;
}

lmm_sharing lmm_constraint_sharing(const lmm_constraint *c)
{
  return c->policy;
}

void *lmm_constraint_id(const lmm_constraint *c)
{
  return c->id;
}

double lmm_constraint_load(const lmm_constraint *c)
{
  double load = 0;
  list_foreach(n, &c->active) {
    const lmm_element *e = list_entry(n, lmm_element, cnode);
    double x = e->coef * e->var->value;
    if (c->policy == LMM_SHARED)
      load += x;
    else if (x > load)
      load = x;
  }
  return load;
}

lmm_variable *lmm_variable_new(lmm_system *sys, void *id, double penalty, double bound,
                               size_t elements_hint)
{
  ASSERTF(penalty >= 0 && isfinite(penalty), "bad sharing penalty %g", penalty);
  ASSERTF(!isnan(bound), "bad bound");
  lmm_variable *v;
  if (!list_empty(&sys->spare_vars)) {
    /* Every field starts as from xcalloc except the element array, which is empty (no
     * element of it is linked anywhere) and merely keeps its capacity. */
    v = list_entry(list_pop_front(&sys->spare_vars), lmm_variable, all_node);
    lmm_element *elems = v->elems;
    size_t cap = v->cap_elems;
    memset(v, 0, sizeof *v);
    v->elems = elems;
    v->cap_elems = cap;
  } else {
    v = xcalloc(1, sizeof *v);
  }
  v->id = id;
  v->penalty = penalty;
  v->bound = bound;
  v->seq = next_seq(sys);
  if (elements_hint > v->cap_elems) {
    free(v->elems); /* nothing to keep or relink: n_elems is 0 */
    v->elems = xmalloc(elements_hint * sizeof *v->elems);
    v->cap_elems = elements_hint;
  }
  list_init(&v->dirty_node);
  list_init(&v->mod_node);
  v->ev.pos = LMM_NOT_IN_HEAP;
  v->ev.order = v->seq;
  list_push_back(&sys->variables, &v->all_node);
  sys->n_vars++;
  sys->var_at_ok = false;
  var_mark_modified(sys, v);
  var_mark_dirty(sys, v);
  return v;
}

/* The variable's consumption leaves its constraints (freed or disabled). A constraint that
 * was not saturated was nobody's bottleneck: nothing to repair there. */
static void var_withdraw(lmm_system *sys, lmm_variable *v)
{
  for (size_t i = 0; i < v->n_elems; i++) {
    lmm_element *e = &v->elems[i];
    if (!elem_active(e))
      continue;
    lmm_constraint *c = e->cnst;
    if (v->value > 0) {
      if (c->policy == LMM_SHARED)
        c->load -= e->coef * v->value;
      if (c->sat)
        cnst_mark_dirty(sys, c);
    }
    list_remove(&e->cnode);
    list_push_back(&c->idle, &e->cnode);
    c->usage_all = --c->n_active ? c->usage_all - e->coef / v->penalty : 0;
    sys->n_active_total--;
  }
  v->value = 0;
  if (list_linked(&v->dirty_node))
    list_remove(&v->dirty_node);
}

void lmm_variable_free(lmm_system *sys, lmm_variable *v)
{
  if (var_enabled(v))
    var_withdraw(sys, v);
  for (size_t i = 0; i < v->n_elems; i++)
    list_remove(&v->elems[i].cnode);
  if (list_linked(&v->dirty_node))
    list_remove(&v->dirty_node);
  if (list_linked(&v->mod_node))
    list_remove(&v->mod_node);
  list_remove(&v->all_node);
  sys->n_vars--;
  sys->var_at_ok = false;
  v->n_elems = 0; /* the elements were unlinked above */
  list_push_front(&sys->spare_vars, &v->all_node); /* LIFO: the most recent is in cache */
}

void lmm_expand(lmm_system *sys, lmm_constraint *c, lmm_variable *v, double coef)
{
  ASSERTF(coef >= 0 && isfinite(coef), "bad consumption coefficient %g", coef);
  lmm_element *e = NULL;
  for (size_t i = 0; i < v->n_elems && !e; i++)
    if (v->elems[i].cnst == c)
      e = &v->elems[i];
  if (!e) {
    if (v->n_elems == v->cap_elems) {
      size_t ncap = v->cap_elems ? 2 * v->cap_elems : 4;
      v->elems = xrealloc(v->elems, ncap * sizeof *v->elems);
      v->cap_elems = ncap;
      for (size_t i = 0; i < v->n_elems; i++)
        elem_relink(&v->elems[i]);
    }
    e = &v->elems[v->n_elems++];
    e->cnst = c;
    e->var = v;
    e->coef = 0;
    list_push_back(&c->idle, &e->cnode);
  }
  if (coef == 0)
    return;
  bool was_active = elem_active(e);
  e->coef += coef;
  if (!var_enabled(v))
    return;
  if (!was_active) {
    list_remove(&e->cnode);
    list_push_back(&c->active, &e->cnode);
    c->n_active++;
    sys->n_active_total++;
  }
  c->usage_all += (was_active ? coef : e->coef) / v->penalty;
  /* keep the invariants "load = sum coef*value" and "max_level >= every level on c" */
  if (c->policy == LMM_SHARED)
    c->load += coef * v->value;
  double level = v->value * v->penalty;
  if (level > c->max_level)
    c->max_level = level;
  var_mark_dirty(sys, v);
}

void lmm_variable_set_penalty(lmm_system *sys, lmm_variable *v, double penalty)
{
  ASSERTF(penalty >= 0 && isfinite(penalty), "bad sharing penalty %g", penalty);
  if (penalty == v->penalty)
    return;
  var_mark_modified(sys, v);
  if (penalty == 0) {
    var_withdraw(sys, v);
    v->penalty = 0;
    return;
  }
  if (!var_enabled(v)) {
    v->penalty = penalty;
    for (size_t i = 0; i < v->n_elems; i++) {
      lmm_element *e = &v->elems[i];
      if (e->coef > 0) {
        list_remove(&e->cnode);
        list_push_back(&e->cnst->active, &e->cnode);
        e->cnst->n_active++;
        e->cnst->usage_all += e->coef / penalty;
        sys->n_active_total++;
      }
    }
  } else {
    double old = v->penalty;
    v->penalty = penalty;
    /* the level changes with the penalty: keep max_level an upper bound */
    double level = v->value * penalty;
    for (size_t i = 0; i < v->n_elems; i++) {
      lmm_element *e = &v->elems[i];
      if (e->coef <= 0)
        continue;
      e->cnst->usage_all += e->coef / penalty - e->coef / old;
      if (level > e->cnst->max_level)
        e->cnst->max_level = level;
    }
  }
  var_mark_dirty(sys, v);
}

void lmm_variable_set_bound(lmm_system *sys, lmm_variable *v, double bound)
{
  ASSERTF(!isnan(bound), "bad bound");
  if (bound == v->bound || (bound < 0 && v->bound < 0))
    return;
  v->bound = bound;
  var_mark_modified(sys, v);
  var_mark_dirty(sys, v);
}

double lmm_variable_value(const lmm_variable *v)
{
  return v->value;
}

double lmm_variable_penalty(const lmm_variable *v)
{
  return v->penalty;
}

double lmm_variable_bound(const lmm_variable *v)
{
  return v->bound;
}

void *lmm_variable_id(const lmm_variable *v)
{
  return v->id;
}

size_t lmm_variable_element_count(const lmm_variable *v)
{
  return v->n_elems;
}

lmm_constraint *lmm_variable_constraint(const lmm_variable *v, size_t i, double *coef)
{
  ASSERTF(i < v->n_elems, "element %zu of %zu", i, v->n_elems);
  if (coef)
    *coef = v->elems[i].coef;
  return v->elems[i].cnst;
}

size_t lmm_variable_count(const lmm_system *sys)
{
  return sys->n_vars;
}

size_t lmm_constraint_count(const lmm_system *sys)
{
  return sys->n_cnsts;
}

lmm_variable *lmm_variable_at(const lmm_system *csys, size_t i)
{
  lmm_system *sys = (lmm_system *)csys; /* the cache is not part of the system's state */
  ASSERTF(i < sys->n_vars, "variable %zu of %zu", i, sys->n_vars);
  if (!sys->var_at_ok) {
    XGROW(sys->var_at, sys->var_at_cap, sys->n_vars);
    size_t k = 0;
    list_foreach(n, &sys->variables) sys->var_at[k++] = list_entry(n, lmm_variable, all_node);
    sys->var_at_ok = true;
  }
  return sys->var_at[i];
}

lmm_constraint *lmm_constraint_at(const lmm_system *csys, size_t i)
{
  lmm_system *sys = (lmm_system *)csys;
  ASSERTF(i < sys->n_cnsts, "constraint %zu of %zu", i, sys->n_cnsts);
  if (!sys->cnst_at_ok) {
    XGROW(sys->cnst_at, sys->cnst_at_cap, sys->n_cnsts);
    size_t k = 0;
    list_foreach(n, &sys->constraints) sys->cnst_at[k++] = list_entry(n, lmm_constraint, all_node);
    sys->cnst_at_ok = true;
  }
  return sys->cnst_at[i];
}

size_t lmm_modified_count(const lmm_system *sys)
{
  return sys->n_modified;
}

lmm_variable *lmm_modified_get(const lmm_system *sys, size_t i)
{
  ASSERTF(i < sys->n_modified, "modified variable %zu of %zu", i, sys->n_modified);
  return sys->modified[i];
}

void lmm_get_stats(const lmm_system *sys, lmm_stats *out)
{
  *out = sys->stats;
}

/* ======================================================================================
 * Solve
 * ====================================================================================== */

static inline bool value_changed(const lmm_system *sys, double x_new, double x_old)
{
  return fabs(x_new - x_old) > sys->precision * dmax(fabs(x_new), fabs(x_old));
}

/* the value F[i] will have after this solve: the old one when the change is noise */
static inline double next_value(const lmm_system *sys, size_t i)
{
  double old = sys->fval[i];
  return value_changed(sys, sys->fx[i], old) ? sys->fx[i] : old;
}

static void s_add(lmm_system *sys, lmm_constraint *c)
{
  if (c->in_s == sys->solve_no)
    return;
  c->in_s = sys->solve_no;
  sys->s_incidences += c->n_active;
  XGROW(sys->S, sys->capS, sys->nS + 1);
  sys->S[sys->nS++] = c;
}

static void c_add(lmm_system *sys, lmm_constraint *c)
{
  c->in_c = sys->iter;
  c->usage = 0;
  c->free_old = 0;
  c->pf_level = -1;
  c->nfree = 0;
  c->fp_pos = c->fp_end = 0;
  XGROW(sys->C, sys->capC, sys->nC + 1);
  sys->C[sys->nC++] = c;
}

static void f_add(lmm_system *sys, lmm_variable *v)
{
  if (v->in_f == sys->iter)
    return;
  v->in_f = sys->iter;
  XGROW(sys->F, sys->capF, sys->nF + 1);
  ASSERT(sys->nF < UINT32_MAX);
  v->fidx = (uint32_t)sys->nF;
  sys->F[sys->nF++] = v;
}

/* FATPIPE slices of sys->fp are binary min-heaps on (level, F index): built in O(n), and
 * only the variables that reach the top before being fixed elsewhere are ever popped. */
static inline bool fp_before(const lmm_fp_entry *a, const lmm_fp_entry *b)
{
  return a->level < b->level || (a->level == b->level && a->fidx < b->fidx);
}

static void fp_sift_down(lmm_fp_entry *h, size_t n, size_t i)
{
  lmm_fp_entry x = h[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n && fp_before(&h[child + 1], &h[child]))
      child++;
    if (!fp_before(&h[child], &x))
      break;
    h[i] = h[child];
    i = child;
  }
  h[i] = x;
}

/* drop fixed variables from the top of c's slice; false when none is left */
static bool fp_top_unfixed(lmm_system *sys, lmm_constraint *c)
{
  lmm_fp_entry *h = sys->fp + c->fp_pos;
  while (c->fp_end > c->fp_pos && sys->ffixed[h[0].fidx]) {
    size_t n = --c->fp_end - c->fp_pos;
    h[0] = h[n];
    fp_sift_down(h, n, 0);
  }
  return c->fp_end > c->fp_pos;
}

/* A bound that cannot bind: some constraint alone stops the variable before it (x <= cap/coef
 * on any SHARED or FATPIPE constraint). SMPI's bound min(route bandwidth, gamma / 2 lat) is
 * mostly of this kind; skipping it keeps such events out of the queue. */
static bool bound_matters(const lmm_variable *v)
{
  if (v->bound < 0)
    return false;
  for (size_t k = 0; k < v->n_elems; k++) {
    const lmm_element *e = &v->elems[k];
    if (e->coef > 0 && v->bound * e->coef >= e->cnst->capacity)
      return false;
  }
  return true;
}

static bool over_repair_limit(const lmm_system *sys)
{
  return (double)sys->nF > sys->repair_limit * (double)sys->n_vars ||
         (double)sys->s_incidences > sys->repair_limit * (double)sys->n_active_total;
}

/* Room for n entries in the arrays indexed like F (fx and the three beside it). */
static void fx_reserve(lmm_system *sys, size_t n)
{
  if (n <= sys->capfx)
    return;
  XGROW(sys->fx, sys->capfx, n);
  sys->ffixed = xrealloc(sys->ffixed, sys->capfx * sizeof *sys->ffixed);
  sys->fval = xrealloc(sys->fval, sys->capfx * sizeof *sys->fval);
  sys->fpen = xrealloc(sys->fpen, sys->capfx * sizeof *sys->fpen);
}

/* F, S u B, the free slices and the residual capacities of one pass. full: all is free.
 * Returns false, having done nothing else, when a local pass would free more than the repair
 * limit (the caller switches to a full pass). */
static bool build_region(lmm_system *sys, bool full)
{
  sys->iter++;
  sys->nC = 0;
  sys->nF = 0;
  for (size_t i = 0; i < sys->nS; i++)
    c_add(sys, sys->S[i]);
  if (full) {
    list_foreach(n, &sys->variables) {
      lmm_variable *v = list_entry(n, lmm_variable, all_node);
      if (var_enabled(v))
        f_add(sys, v);
    }
  } else {
    for (size_t i = 0; i < sys->nD; i++)
      f_add(sys, sys->D[i]);
    for (size_t i = 0; i < sys->nS; i++) {
      list_foreach(n, &sys->S[i]->active) f_add(sys, list_entry(n, lmm_element, cnode)->var);
      if (over_repair_limit(sys)) /* stop early: this walk chases pointers */
        return false;
    }
  }
  fx_reserve(sys, sys->nF);

  /* count the free elements of each constraint, discovering B on the way */
  size_t nfe = 0, nfp = 0;
  for (size_t i = 0; i < sys->nF; i++) {
    lmm_variable *v = sys->F[i];
    sys->fx[i] = 0;
    sys->fval[i] = v->value;
    sys->fpen[i] = v->penalty;
    sys->ffixed[i] = false;
    for (size_t k = 0; k < v->n_elems; k++) {
      lmm_element *e = &v->elems[k];
      if (e->coef <= 0)
        continue;
      lmm_constraint *c = e->cnst;
      if (c->in_c != sys->iter)
        c_add(sys, c);
      c->nfree++;
      nfe++;
      if (c->policy == LMM_SHARED) {
        c->usage += e->coef / v->penalty;
        c->free_old += e->coef * v->value;
      } else {
        nfp++;
      }
    }
  }
  XGROW(sys->fe, sys->capfe, nfe);
  XGROW(sys->fp, sys->capfp, nfp);
  size_t at = 0, fat = 0;
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    c->fe_pos = at;
    at += c->nfree;
    c->nunfixed = 0; /* used as the fill cursor below */
    if (c->policy == LMM_SHARED) {
      c->rem = c->in_s == sys->solve_no ? c->capacity : c->capacity - (c->load - c->free_old);
      if (c->rem < 0)
        c->rem = 0;
    } else {
      c->rem = c->capacity;
      c->fp_pos = c->fp_end = fat;
      fat += c->nfree;
    }
  }
  for (size_t i = 0; i < sys->nF; i++) {
    lmm_variable *v = sys->F[i];
    for (size_t k = 0; k < v->n_elems; k++) {
      lmm_element *e = &v->elems[k];
      if (e->coef <= 0)
        continue;
      lmm_constraint *c = e->cnst;
      sys->fe[c->fe_pos + c->nunfixed++] = (lmm_free_elem){e->coef, (uint32_t)i};
      if (c->policy == LMM_FATPIPE)
        sys->fp[c->fp_end++] = (lmm_fp_entry){c->capacity * v->penalty / e->coef, (uint32_t)i};
    }
  }
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    if (c->policy == LMM_FATPIPE)
      for (size_t j = (c->fp_end - c->fp_pos) / 2; j-- > 0;)
        fp_sift_down(sys->fp + c->fp_pos, c->fp_end - c->fp_pos, j);
  }
  sys->stats.constraints_visited += sys->nC;
  sys->stats.variables_visited += sys->nF;
  return true;
}

static double shared_key(const lmm_system *sys, lmm_constraint *c, double cur)
{
  if (c->rem <= c->capacity * sys->precision)
    return cur;
  if (c->usage <= 0) { /* rounding ate the usage of the last unfixed variables: recount */
    c->usage = 0;
    const lmm_free_elem *fe = sys->fe + c->fe_pos;
    for (size_t j = 0; j < c->nfree; j++)
      if (!sys->ffixed[fe[j].fidx])
        c->usage += fe[j].coef / sys->fpen[fe[j].fidx];
  }
  double key = c->rem / c->usage;
  return key > cur ? key : cur;
}

/* Keys are updated lazily: fixing a variable at the current level can only raise the
 * saturation level of its other constraints (if x/p <= rem/usage then
 * (rem - coef x) / (usage - coef/p) >= rem/usage), so a key in the heap is a lower bound,
 * recomputed when it reaches the top. The one exception is the precision rule (rem falls
 * under P * capacity: saturated now), applied here at once. */
static void fix_var(lmm_system *sys, size_t i, double x, double cur)
{
  lmm_variable *v = sys->F[i];
  sys->ffixed[i] = true;
  sys->n_unfixed--;
  sys->fx[i] = x;
  for (size_t k = 0; k < v->n_elems; k++) {
    lmm_element *e = &v->elems[k];
    if (e->coef <= 0)
      continue;
    lmm_constraint *c = e->cnst;
    c->nunfixed--;
    if (c->policy == LMM_SHARED) {
      c->rem -= e->coef * x;
      c->usage -= e->coef / v->penalty;
      if (c->nunfixed && c->ev.pos != LMM_NOT_IN_HEAP && c->ev.key > cur &&
          c->rem <= c->capacity * sys->precision)
        heap_update_ev(sys, &c->ev, cur);
    }
  }
}

static void progressive_filling(lmm_system *sys)
{
  double cur = 0;
  sys->nheap = 0;
  sys->n_unfixed = sys->nF;
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    c->ev.pos = LMM_NOT_IN_HEAP;
    if (c->nunfixed == 0)
      continue;
    double key = c->policy == LMM_SHARED ? shared_key(sys, c, 0)
                                         : dmax(sys->fp[c->fp_pos].level, 0);
    heap_push_ev(sys, &c->ev, key);
  }
  for (size_t i = 0; i < sys->nF; i++) {
    lmm_variable *v = sys->F[i];
    v->ev.pos = LMM_NOT_IN_HEAP;
    if (bound_matters(v)) {
      heap_push_ev(sys, &v->ev, v->bound * v->penalty);
    } else if (v->bound < 0) { /* nothing limits a variable without element: 0 by convention */
      bool any = false;
      for (size_t k = 0; k < v->n_elems && !any; k++)
        any = v->elems[k].coef > 0;
      if (!any)
        fix_var(sys, i, 0, 0);
    }
  }

  /* Once every variable is fixed, each remaining event would be popped for nothing (a
   * fixed bound, a constraint without unfixed variable: no arithmetic, no re-push), at a
   * sift each: a full solve of 1 024 flows that one backbone fixes at once left 2 000 such
   * events. The positions they keep are reset by the next filling before any use. */
  while (sys->nheap && sys->n_unfixed) {
    lmm_event *ev = heap_pop_ev(sys);
    if (!(ev->order & ORDER_CNST)) {
      lmm_variable *v = container_of(ev, lmm_variable, ev);
      if (sys->ffixed[v->fidx])
        continue;
      if (ev->key > cur)
        cur = ev->key;
      fix_var(sys, v->fidx, v->bound, cur);
      continue;
    }
    lmm_constraint *c = container_of(ev, lmm_constraint, ev);
    if (c->nunfixed == 0)
      continue;
    double level;
    if (c->policy == LMM_SHARED) {
      level = shared_key(sys, c, cur);
    } else {
      bool any = fp_top_unfixed(sys, c);
      ASSERT(any);
      level = dmax(sys->fp[c->fp_pos].level, cur);
    }
    if (level > ev->key) { /* stale key: back in the queue at its true level */
      heap_push_ev(sys, &c->ev, level);
      continue;
    }
    cur = level;
    c->pf_level = cur;
    const lmm_free_elem *fe = sys->fe + c->fe_pos;
    for (size_t j = 0; j < c->nfree && c->nunfixed; j++) {
      size_t i = fe[j].fidx;
      if (!sys->ffixed[i])
        fix_var(sys, i, cur / sys->fpen[i], cur);
    }
  }
  sys->nheap = 0;
  LOG_DEBUG("filling of %zu variables over %zu constraints: top level %g", sys->nF, sys->nC, cur);
}

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
        if (value_changed(sys, x, old)) {
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

static void commit(lmm_system *sys)
{
  double p = sys->precision;
  /* boundary constraints first, while the old values are still there */
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    if (c->in_s == sys->solve_no)
      continue;
    double fat_max = 0;
    const lmm_free_elem *fe = sys->fe + c->fe_pos;
    for (size_t j = 0; j < c->nfree; j++) {
      size_t f = fe[j].fidx;
      double x = next_value(sys, f);
      if (c->policy == LMM_SHARED)
        c->load += fe[j].coef * (x - sys->fval[f]);
      else if (fe[j].coef * x > fat_max)
        fat_max = fe[j].coef * x;
      if (x * sys->fpen[f] > c->max_level)
        c->max_level = x * sys->fpen[f];
    }
    if (c->policy == LMM_SHARED)
      c->sat = c->load >= c->capacity * (1 - p);
    else
      c->sat = c->sat || fat_max >= c->capacity * (1 - p);
  }
  for (size_t i = 0; i < sys->nF; i++) {
    if (!value_changed(sys, sys->fx[i], sys->fval[i]))
      continue;
    lmm_variable *v = sys->F[i];
    v->value = sys->fval[i] = sys->fx[i];
    if (v->mod_mark != sys->solve_no) {
      v->mod_mark = sys->solve_no;
      XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
      sys->modified[sys->n_modified++] = v;
    }
  }
  /* S: every variable on it is free; recompute exactly (this also cancels the drift of the
   * incremental load) from the slices, which hold all its active elements */
  for (size_t i = 0; i < sys->nS; i++) {
    lmm_constraint *c = sys->S[i];
    double load = 0, max_level = 0;
    /* (no pointer arithmetic on a NULL array when no constraint has a free element) */
    const lmm_free_elem *fe = c->nfree ? sys->fe + c->fe_pos : NULL;
    for (size_t j = 0; j < c->nfree; j++) {
      double value = sys->fval[fe[j].fidx], penalty = sys->fpen[fe[j].fidx];
      double x = fe[j].coef * value;
      if (c->policy == LMM_SHARED)
        load += x;
      else if (x > load)
        load = x;
      if (value * penalty > max_level)
        max_level = value * penalty;
    }
    c->sat = load >= c->capacity * (1 - p);
    c->load = c->policy == LMM_SHARED ? load : 0;
    c->max_level = max_level;
  }
}

/* True when no constraint of S holds an active element: the usual end of a flow that
 * shared none of its links (a token ring's only message). */
static bool s_all_empty(const lmm_system *sys)
{
  for (size_t i = 0; i < sys->nS; i++)
    if (sys->S[i]->n_active)
      return false;
  return true;
}

/* The pass that solve() would run when D is empty and S holds no active element, without
 * the machinery: F is empty (only S's active elements and D feed it), so C = S, nothing is
 * filled, validated or changed, and commit() only resets each constraint of S to "no free
 * variable": load 0, max_level 0, sat = 0 >= capacity * (1 - P). Doing exactly that here
 * (same stats too) leaves every value, and thus every simulated date, as before. */
static void settle_empty(lmm_system *sys)
{
  double p = sys->precision;
  for (size_t i = 0; i < sys->nS; i++) {
    lmm_constraint *c = sys->S[i];
    c->sat = 0 >= c->capacity * (1 - p);
    c->load = 0;
    c->max_level = 0;
  }
  sys->stats.passes++;
  sys->stats.constraints_visited += sys->nS;
  sys->nS = 0;
}

/* The pass that solve() would run for one dirty variable v that is the only active one on
 * each of its constraints, none of them saturated (S is empty), computed directly with the
 * same floating-point operations in the same order, so that the result is bit for bit the
 * same: a flow starting alone on its links (a token ring's every message).
 *   F = {v}, C = v's constraints; SHARED c: key = rem / usage with usage = coef / p and
 *   rem = max(0, capacity - (load - coef * value)), or 0 once rem <= P * capacity; FATPIPE c:
 *   key = capacity * p / coef; bound (if bound_matters): key = bound * p. The heap would pop
 *   the least (key, order) first and fix v there: x = bound, or x = key / p; nothing else
 *   happens in the filling. Check (a) cannot fire (no constraint of v is saturated), and
 *   check (b) only on the constraint that fixed v: when it would fire, or v has no element,
 *   returns false having changed nothing, and the general path runs. */
static bool solve_lone(lmm_system *sys, lmm_variable *v)
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
      key = dmax(c->capacity * pen / e->coef, 0);
    }
    lmm_event ev = {.key = key, .order = ORDER_CNST | c->seq};
    if (ev_before(&ev, &best)) {
      best = ev;
      winner = c;
    }
    nc++;
  }
  if (nc == 0)
    return false;
  double x;
  if (bound_matters(v) && v->bound * pen <= best.key) { /* ties: bounds first */
    x = v->bound;
    winner = NULL;
  } else {
    if (winner->max_level > best.key * (1 + p))
      return false;
    x = best.key / pen;
  }
  /* commit(), boundary part then the variable */
  double old = v->value;
  double nx = value_changed(sys, x, old) ? x : old;
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
  if (value_changed(sys, x, old)) {
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
  return true;
}

/* The pass for one loaded constraint c: S holds c, maybe constraints that carry only flows
 * of c (the other links of their common path) and constraints that lost their last flow; D
 * holds only flows of c; every other constraint of c's flows is unsaturated and stays so,
 * or is saturated by other flows and sees a change within precision (below).
 * Then the pass that solve() would run gives every flow of c the level
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
static bool solve_one_bottleneck(lmm_system *sys)
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
    if (d->policy != LMM_SHARED || !(d->capacity > 0) || !(d->usage_all > 0) ||
        ++n_followers > 8)
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
  /* sys's counters and arrays in locals: the stores through b could alias them */
  const uint64_t solve_no = sys->solve_no, iter = ++sys->iter;
  size_t nC = 0, nF = 0;
  sys->nC = sys->nF = 0; /* what a failed walk leaves */
  XGROW(sys->F, sys->capF, c->n_active);
  fx_reserve(sys, c->n_active);
  lmm_variable **F = sys->F;
  double *fx = sys->fx;
  double load = 0, max_level = 0;
  list_foreach(n, &c->active) {
    const lmm_element *ec = list_entry(n, lmm_element, cnode);
    lmm_variable *u = ec->var;
    double old = u->value, x = level / u->penalty;
    bool changed = value_changed(sys, x, old);
    double nx = changed ? x : old;
    double ulevel = nx * u->penalty;
    /* per flow, not per element (the same operations, so the same bits) */
    double d_check = dmax(x, nx) - old, d_commit = nx - old, d_x = x - old;
    double bound = u->bound;
    bool bound_moot = bound < 0; /* bound_matters(u) == false, in the same walk */
    for (size_t k = 0, ne = u->n_elems; k < ne; k++) {
      const lmm_element *e = &u->elems[k];
      lmm_constraint *b = e->cnst;
      if (e->coef <= 0)
        continue;
      if (!bound_moot && bound * e->coef >= b->capacity)
        bound_moot = true;
      if (b == c)
        continue;
      if (b->in_s == solve_no) { /* a follower: counted, checked below */
        b->nfree++;
        b->free_old += e->coef * nx;
        if (ulevel > b->usage)
          b->usage = ulevel;
        continue;
      }
      if (b->policy == LMM_FATPIPE && (b->sat || e->coef * dmax(x, nx) >= b->capacity * (1 - p)))
        return false;
      if (b->in_c != iter) {
        b->in_c = iter;
        b->free_old = b->rem = b->usage = b->pf_level = 0;
        XGROW(sys->C, sys->capC, nC + 1);
        sys->C[nC++] = b;
      }
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
  sys->stats.constraints_visited += sys->nS + sys->nC;
  sys->stats.variables_visited += c->n_active;
  return true;
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

  /* created or penalty/bound changed since the last solve: reported whatever happens */
  while (!list_empty(&sys->pending_mod)) {
    lmm_variable *v = list_entry(list_pop_front(&sys->pending_mod), lmm_variable, mod_node);
    v->mod_mark = sys->solve_no;
    XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
    sys->modified[sys->n_modified++] = v;
  }

  while (!list_empty(&sys->dirty_cnsts))
    s_add(sys, list_entry(list_pop_front(&sys->dirty_cnsts), lmm_constraint, dirty_node));
  while (!list_empty(&sys->dirty_vars)) {
    lmm_variable *v = list_entry(list_pop_front(&sys->dirty_vars), lmm_variable, dirty_node);
    XGROW(sys->D, sys->capD, sys->nD + 1);
    sys->D[sys->nD++] = v;
  }
  if (full) {
    list_foreach(n, &sys->constraints) s_add(sys, list_entry(n, lmm_constraint, all_node));
  } else {
    for (size_t i = 0; i < sys->nD; i++) {
      lmm_variable *v = sys->D[i];
      for (size_t k = 0; k < v->n_elems; k++)
        if (v->elems[k].coef > 0 && v->elems[k].cnst->sat)
          s_add(sys, v->elems[k].cnst);
    }
    if (sys->nS == 0 && sys->nD == 0)
      return;
    if (sys->nD == 0 && s_all_empty(sys)) {
      settle_empty(sys);
      return;
    }
    if (sys->nS == 0 && sys->nD == 1 && solve_lone(sys, sys->D[0])) {
      sys->nD = 0;
      return;
    }
    if (sys->nS && solve_one_bottleneck(sys)) {
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
    if (!full && (over_repair_limit(sys) || !build_region(sys, false))) {
      full = true;
      sys->stats.fallbacks++;
      /* Only constraints with an enabled variable can bind; the others are already in S if
       * they just lost their last one (dirty). Walking the variables rather than every
       * constraint keeps the fallback proportional to the activity: a platform of 4 096
       * hosts has 12 000 constraints, a token ring 2 variables. */
      list_foreach(n, &sys->variables) {
        lmm_variable *v = list_entry(n, lmm_variable, all_node);
        if (!var_enabled(v))
          continue;
        for (size_t k = 0; k < v->n_elems; k++)
          if (v->elems[k].coef > 0)
            s_add(sys, v->elems[k].cnst);
      }
    }
    if (full)
      build_region(sys, true);
    progressive_filling(sys);
    passes++;
    if (full || !validate_boundary(sys))
      break;
  }
  sys->stats.passes += (unsigned long)passes;
  LOG_DEBUG("solve #%llu: %d pass(es), %zu free variables, %zu constraints",
            (unsigned long long)sys->solve_no, passes, sys->nF, sys->nC);
  commit(sys);
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

void lmm_solve(lmm_system *sys)
{
  solve(sys, false);
}

void lmm_solve_full(lmm_system *sys)
{
  solve(sys, true);
}

void lmm_dump(const lmm_system *sys, FILE *out)
{
  fprintf(out, "lmm system: %zu constraints, %zu variables, precision %g\n", sys->n_cnsts,
          sys->n_vars, sys->precision);
  list_foreach(n, &sys->constraints) {
    const lmm_constraint *c = list_entry(n, lmm_constraint, all_node);
    fprintf(out, "  c#%llu %s cap %.17g load %.17g%s:", (unsigned long long)c->seq,
            c->policy == LMM_SHARED ? "shared" : "fatpipe", c->capacity, lmm_constraint_load(c),
            c->sat ? " (saturated)" : "");
    list_foreach(m, &c->active) {
      const lmm_element *e = list_entry(m, lmm_element, cnode);
      fprintf(out, " %g*v#%llu", e->coef, (unsigned long long)e->var->seq);
    }
    fputc('\n', out);
  }
  list_foreach(n, &sys->variables) {
    const lmm_variable *v = list_entry(n, lmm_variable, all_node);
    fprintf(out, "  v#%llu penalty %g bound %g value %.17g\n", (unsigned long long)v->seq,
            v->penalty, v->bound, v->value);
  }
}
