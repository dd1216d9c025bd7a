/* Bookkeeping of the max-min solver: the system, its constraints and variables, the
 * elements joining them, and the marks each modification leaves for the next solve
 * (lmm_repair.c reads them). No solving here.
 *
 *              active list (coef > 0, variable enabled)           idle list (the rest)
 *   link L1 ──> e(A,L1) <-> e(B,L1)                                 ──> e(Z,L1) (Z disabled)
 *   link L2 ──> e(A,L2) <-> e(C,L2)
 *   link L3 ──> e(A,L3) <-> e(D,L3) <-> e(E,L3)
 *                  ^
 *   flow A: elems[] = { e(A,L1), e(A,L2), e(A,L3) }   (the element lives in the array, the
 *                                                       constraint lists link into it)
 *
 * What a modification marks (the repair starts from these):
 *   - dirty constraint (sys->dirty_cnsts, joins S): its capacity changed, or a variable with a
 *     value > 0 left it (freed or disabled) while it was saturated; a constraint that was not
 *     saturated was nobody's bottleneck, so nothing needs repair there;
 *   - dirty variable (sys->dirty_vars, D): created, enabled, penalty or bound changed,
 *     element added, or one of its constraints freed;
 *   - pending modified (sys->pending): created or penalty/bound changed, reported by the
 *     next solve whatever its value does.
 * Kept incrementally for the solve: each constraint's load (SHARED: sum of coef * value),
 * max_level (an upper bound of value * penalty over its active elements) and usage_all (sum of
 * coef / penalty, exactly 0 again whenever the last active element leaves).
 *
 * The configuration (maxmin/solver, maxmin/fast-path-*) is declared here and read once, into
 * the system, when it is created.
 */
#include "kernel/lmm_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(lmm, kernel, "max-min bandwidth-sharing solver");
LOG_DEFAULT_CATEGORY(lmm);

void lmm_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING("maxmin/solver", "maxmin", "maxmin|glpk",
                     "Solver of the max-min sharing: maxmin (progressive filling, re-solving "
                     "only what changed) or glpk (every solve from scratch by GLPK linear "
                     "programs: very slow, for debugging; values agree with maxmin's to the "
                     "solver precision)"),
      CFG_KEY_BOOL("maxmin/fast-path-empty", true,
                   "Solver shortcut for a solve whose changed constraints lost their last flow "
                   "(no: the general pass, same results; for debugging)"),
      CFG_KEY_BOOL("maxmin/fast-path-lone", true,
                   "Solver shortcut for a flow starting alone on unsaturated links (no: the "
                   "general pass, same results; for debugging)"),
      CFG_KEY_BOOL("maxmin/fast-path-bottleneck", true,
                   "Solver shortcut for flows coming and going on one loaded link (no: the "
                   "general pass, the same allocation to rounding; for debugging)"),
      CFG_KEY_BOOL("maxmin/fast-path-full", true,
                   "Solver shortcut for a full pass (a repair that spread past its limit): one "
                   "walk of the flows builds its region (no: the three walks of the general "
                   "pass, same results; for debugging)"),
      CFG_KEY_BOOL("maxmin/class-sharing", false,
                   "Network flows that one saturated link alone bottlenecks share one rate and "
                   "a virtual clock: a start or end costs O(log flows), not O(flows) (yes: "
                   "dates move in their last bits, measured up to 4.3e-15 relative; see "
                   "docs/class-sharing.md)"),
      CFG_KEY_BOOL("maxmin/exact-class", true,
                   "Network flows of one bottleneck with one penalty and rate factor "
                   "are updated as one by the one-bottleneck path: the same results to the "
                   "bit, O(flows) dense work per event instead of a walk of each flow (no: "
                   "flow by flow; for debugging and tests)"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

/* The arena (see lmm_system in lmm_private.h). Each chunk starts with the link to the
 * previous one. The first chunks are small and of ordinary pages, so that a small
 * simulation does not pay a 2 MiB page per system; once the arena holds 2 MiB, chunks are
 * 2 MiB huge-page candidates. An allocation larger than a quarter of a chunk gets a chunk of
 * its own. */
#define LMM_ARENA_SMALL ((size_t)128 << 10)
#define LMM_ARENA_HUGE ((size_t)2 << 20)
#define LMM_ARENA_HEAD 64

static void *arena_new_chunk(lmm_system *sys, size_t size)
{
  bool huge = sys->arena_total >= LMM_ARENA_HUGE;
  void *chunk;
  if (posix_memalign(&chunk, huge ? LMM_ARENA_HUGE : 64, size) != 0) { /* as xmalloc says */
    fprintf(stderr, "smpi: out of memory (allocating %zu bytes); the simulation cannot go on\n",
            size);
    abort();
  }
  if (huge)
    (void)madvise(chunk, size, MADV_HUGEPAGE); /* a hint: without THP, ordinary pages */
  sys->arena_total += size;
  *(void **)chunk = sys->arena_chunks;
  sys->arena_chunks = chunk;
  return (char *)chunk + LMM_ARENA_HEAD;
}

static void *arena_alloc(lmm_system *sys, size_t size)
{
  size = (size + 63) & ~(size_t)63; /* whole cache lines */
  size_t chunk = sys->arena_total >= LMM_ARENA_HUGE ? LMM_ARENA_HUGE : LMM_ARENA_SMALL;
  if (size > chunk / 4)
    return arena_new_chunk(sys, size + LMM_ARENA_HEAD);
  if ((size_t)(sys->arena_end - sys->arena_cur) < size) {
    sys->arena_cur = arena_new_chunk(sys, chunk);
    sys->arena_end = sys->arena_cur - LMM_ARENA_HEAD + chunk;
  }
  void *p = sys->arena_cur;
  sys->arena_cur += size;
  return p;
}

lmm_system *lmm_system_new(double precision)
{
  ASSERTF(precision >= 0 && precision < 1, "bad max-min precision %g", precision);
  lmm_system *sys = xcalloc(1, sizeof *sys);
  sys->precision = precision;
  sys->repair_limit = 0.25;
  list_init(&sys->constraints);
  list_init(&sys->spare_vars);
  list_init(&sys->dirty_cnsts);
  list_init(&sys->dirty_vars);
  sys->solve_no = 1;
  sys->iter = 1;
  lmm_declare_config();
  sys->use_glpk = strcmp(cfg_get_string("maxmin/solver"), "glpk") == 0;
  static bool glpk_announced; /* once per run, not per model */
  if (sys->use_glpk && !glpk_announced) {
    glpk_announced = true;
    LOG_INFO("max-min sharing solved by GLPK's linear programs (maxmin/solver:glpk): slow, "
             "for debugging");
  }
  sys->fast_empty = cfg_get_bool("maxmin/fast-path-empty");
  sys->fast_lone = cfg_get_bool("maxmin/fast-path-lone");
  sys->fast_bottleneck = cfg_get_bool("maxmin/fast-path-bottleneck");
  sys->fast_full = cfg_get_bool("maxmin/fast-path-full");
  return sys;
}

void lmm_system_free(lmm_system *sys)
{
  if (!sys)
    return;
  lmm_xclass_dissolve(sys);
  while (sys->arena_chunks) { /* every variable and element array */
    void *chunk = sys->arena_chunks;
    sys->arena_chunks = *(void **)chunk;
    free(chunk);
  }
  free(sys->var_at);
  free(sys->by_order);
  free(sys->cnst_at);
  free(sys->S);
  free(sys->C);
  free(sys->D);
  free(sys->F);
  free(sys->fx);
  free(sys->fval);
  free(sys->fpen);
  free(sys->ffixed);
  free(sys->fchg);
  free(sys->fbkey);
  free(sys->ve_pos);
  free(sys->ve);
  free(sys->fe);
  free(sys->heap);
  free(sys->hkeys);
  free(sys->walk);
  free(sys->deferred);
  free(sys->fp);
  free(sys->modified);
  free(sys->pending);
  free(sys);
}

static uint64_t next_seq(lmm_system *sys) { return sys->next_seq++; }

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
  if (!v->pend_pos) {
    XGROW(sys->pending, sys->cap_pending, sys->n_pending + 1);
    ASSERT(sys->n_pending < UINT32_MAX);
    sys->pending[sys->n_pending++] = v;
    v->pend_pos = (uint32_t)sys->n_pending;
  }
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
  lmm_constraint *c = arena_alloc(sys, sizeof *c);
  memset(c, 0, sizeof *c);
  c->id = id;
  c->capacity = capacity;
  c->policy = policy;
  c->seq = next_seq(sys);
  list_init(&c->active);
  list_init(&c->idle);
  list_init(&c->dirty_node);
  c->ev.pos = LMM_NOT_IN_HEAP;
  c->ev.order = LMM_ORDER_CNST | c->seq;
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
      bool was_active = lmm_elem_active(e);
      var_remove_elem(v, e);
      if (was_active)
        var_mark_dirty(sys, v); /* one constraint less: it may get more */
    }
  }
  sys->n_active_total -= c->n_active;
  if (c->policy == LMM_FATPIPE)
    sys->n_active_fp -= c->n_active;
  if (list_linked(&c->dirty_node))
    list_remove(&c->dirty_node);
  list_remove(&c->all_node);
  sys->n_cnsts--;
  sys->cnst_at_ok = false; /* its memory stays in the arena (the models never free one) */
}

void lmm_constraint_set_capacity(lmm_system *sys, lmm_constraint *c, double capacity)
{
  /* (the walk by class reads capacities as the walk flow by flow does: nothing to do) */
  ASSERTF(capacity >= 0 && !isnan(capacity), "bad constraint capacity %g", capacity);
  if (capacity == c->capacity)
    return;
  lmm_xlink_touch(sys, c); /* its pending events saturate against the old capacity */
  c->capacity = capacity;
  cnst_mark_dirty(sys, c);
}

double lmm_constraint_capacity(const lmm_constraint *c) { return c->capacity; }

void lmm_constraint_foreach_variable(lmm_constraint *c, void (*fn)(lmm_variable *v, void *arg),
                                     void *arg)
{
  list_node *lists[2] = {&c->active, &c->idle};
  for (int i = 0; i < 2; i++)
    list_foreach (n, lists[i])
      fn(list_entry(n, lmm_element, cnode)->var, arg);
}

lmm_sharing lmm_constraint_sharing(const lmm_constraint *c) { return c->policy; }

void *lmm_constraint_id(const lmm_constraint *c) { return c->id; }

double lmm_constraint_load(const lmm_constraint *c)
{
  double load = 0;
  list_foreach (n, &c->active) {
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
  ASSERTF(elements_hint < UINT32_MAX, "%zu elements", elements_hint);
  lmm_variable *v;
  if (!list_empty(&sys->spare_vars)) {
    /* Every field starts as from xcalloc except the element array, which is empty (no
     * element of it is linked anywhere) and merely keeps its capacity. */
    v = list_entry(list_pop_front(&sys->spare_vars), lmm_variable, dirty_node);
    lmm_element *elems = v->elems;
    uint32_t cap = v->cap_elems;
    mem_zero(v, sizeof *v);
    v->elems = elems;
    v->cap_elems = cap;
    if (elements_hint > cap) {
      /* nothing to keep or relink (n_elems is 0); the old array stays in the arena */
      v->elems = arena_alloc(sys, elements_hint * sizeof *v->elems);
      v->cap_elems = (uint32_t)elements_hint;
    }
  } else {
    /* one block: the variable, then its elements (see struct lmm_variable) */
    v = arena_alloc(sys, sizeof *v + elements_hint * sizeof *v->elems);
    memset(v, 0, sizeof *v);
    v->elems = (lmm_element *)(v + 1);
    v->cap_elems = (uint32_t)elements_hint;
  }
  v->id = id;
  v->penalty = penalty;
  v->bound = bound;
  list_init(&v->dirty_node);
  v->ev.pos = LMM_NOT_IN_HEAP;
  v->ev.order = next_seq(sys);
  XGROW(sys->by_order, sys->cap_by_order, sys->n_by_order + 1);
  ASSERT(sys->n_by_order < UINT32_MAX);
  v->order_pos = (uint32_t)sys->n_by_order;
  sys->by_order[sys->n_by_order++] = v;
  sys->n_vars++;
  sys->var_at_ok = false;
  var_mark_modified(sys, v);
  var_mark_dirty(sys, v);
  return v;
}

/* Drops the NULLs of freed variables from sys->by_order (amortised: at least as many were
 * freed since the last squeeze as are left). */
void lmm_by_order_squeeze(lmm_system *sys)
{
  size_t j = 0;
  for (size_t i = 0; i < sys->n_by_order; i++) {
    lmm_variable *v = sys->by_order[i];
    if (v) {
      v->order_pos = (uint32_t)j;
      sys->by_order[j++] = v;
    }
  }
  sys->n_by_order = j;
  sys->n_by_order_dead = 0;
}

/* The variable's consumption leaves its constraints (freed or disabled). A constraint that
 * was not saturated was nobody's bottleneck: nothing to repair there. */
static void var_withdraw(lmm_system *sys, lmm_variable *v)
{
  for (size_t i = 0; i < v->n_elems; i++) {
    lmm_element *e = &v->elems[i];
    if (!lmm_elem_active(e))
      continue;
    lmm_constraint *c = e->cnst;
    lmm_xlink_touch(sys, c);
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
    sys->n_active_fp -= c->policy == LMM_FATPIPE;
  }
  v->value = 0;
  if (list_linked(&v->dirty_node))
    list_remove(&v->dirty_node);
}

void lmm_variable_free(lmm_system *sys, lmm_variable *v)
{
  ASSERTF(!v->xidx, "a member of the exact class freed before it left the class");
  if (lmm_var_enabled(v))
    var_withdraw(sys, v);
  for (size_t i = 0; i < v->n_elems; i++)
    list_remove(&v->elems[i].cnode);
  if (list_linked(&v->dirty_node))
    list_remove(&v->dirty_node);
  lmm_var_unpend(sys, v);
  sys->by_order[v->order_pos] = NULL;
  if (++sys->n_by_order_dead > sys->n_vars && sys->n_by_order_dead >= 64)
    lmm_by_order_squeeze(sys);
  sys->n_vars--;
  sys->var_at_ok = false;
  v->n_elems = 0;                                    /* the elements were unlinked above */
  list_push_front(&sys->spare_vars, &v->dirty_node); /* LIFO: the most recent is in cache */
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
      ASSERT(v->cap_elems < UINT32_MAX / 2);
      uint32_t ncap = v->cap_elems ? 2 * v->cap_elems : 4;
      lmm_element *grown = arena_alloc(sys, ncap * sizeof *v->elems);
      if (v->n_elems)
        memcpy(grown, v->elems, v->n_elems * sizeof *v->elems);
      v->elems = grown; /* the old one stays in the arena */
      v->cap_elems = ncap;
      for (size_t i = 0; i < v->n_elems; i++)
        elem_relink(&v->elems[i]);
    }
    ASSERT(v->n_elems < UINT32_MAX);
    e = &v->elems[v->n_elems++];
    e->cnst = c;
    e->var = v;
    e->coef = 0;
    list_push_back(&c->idle, &e->cnode);
  }
  if (coef == 0)
    return;
  if (v->xidx)
    sys->xcls->broken = true;
  lmm_xlink_touch(sys, c);
  bool was_active = lmm_elem_active(e);
  e->coef += coef;
  if (!lmm_var_enabled(v))
    return;
  if (!was_active) {
    list_remove(&e->cnode);
    list_push_back(&c->active, &e->cnode);
    c->n_active++;
    sys->n_active_total++;
    sys->n_active_fp += c->policy == LMM_FATPIPE;
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
  if (v->xidx)
    sys->xcls->broken = true;
  for (size_t i = 0; i < v->n_elems; i++)
    lmm_xlink_touch(sys, v->elems[i].cnst);
  var_mark_modified(sys, v);
  if (penalty == 0) {
    var_withdraw(sys, v);
    v->penalty = 0;
    return;
  }
  if (!lmm_var_enabled(v)) {
    v->penalty = penalty;
    for (size_t i = 0; i < v->n_elems; i++) {
      lmm_element *e = &v->elems[i];
      if (e->coef > 0) {
        list_remove(&e->cnode);
        list_push_back(&e->cnst->active, &e->cnode);
        e->cnst->n_active++;
        e->cnst->usage_all += e->coef / penalty;
        sys->n_active_total++;
        sys->n_active_fp += e->cnst->policy == LMM_FATPIPE;
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
  if (v->xidx)
    sys->xcls->broken = true;
  var_mark_modified(sys, v);
  var_mark_dirty(sys, v);
}

double lmm_variable_value(const lmm_variable *v) { return v->value; }

double lmm_variable_penalty(const lmm_variable *v) { return v->penalty; }

double lmm_variable_bound(const lmm_variable *v) { return v->bound; }

void *lmm_variable_id(const lmm_variable *v) { return v->id; }

size_t lmm_variable_element_count(const lmm_variable *v) { return v->n_elems; }

lmm_constraint *lmm_variable_constraint(const lmm_variable *v, size_t i, double *coef)
{
  ASSERTF(i < v->n_elems, "element %zu of %zu", i, (size_t)v->n_elems);
  if (coef)
    *coef = v->elems[i].coef;
  return v->elems[i].cnst;
}

size_t lmm_variable_count(const lmm_system *sys) { return sys->n_vars; }

size_t lmm_constraint_count(const lmm_system *sys) { return sys->n_cnsts; }

lmm_variable *lmm_variable_at(const lmm_system *csys, size_t i)
{
  lmm_system *sys = (lmm_system *)csys; /* the cache is not part of the system's state */
  ASSERTF(i < sys->n_vars, "variable %zu of %zu", i, sys->n_vars);
  if (!sys->var_at_ok) {
    XGROW(sys->var_at, sys->var_at_cap, sys->n_vars);
    size_t k = 0;
    for (size_t o = 0; o < sys->n_by_order; o++)
      if (sys->by_order[o])
        sys->var_at[k++] = sys->by_order[o];
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
    list_foreach (n, &sys->constraints)
      sys->cnst_at[k++] = list_entry(n, lmm_constraint, all_node);
    sys->cnst_at_ok = true;
  }
  return sys->cnst_at[i];
}

size_t lmm_modified_count(const lmm_system *sys) { return sys->n_modified; }

lmm_variable *lmm_modified_get(const lmm_system *sys, size_t i)
{
  ASSERTF(i < sys->n_modified, "modified variable %zu of %zu", i, sys->n_modified);
  return sys->modified[i];
}

void lmm_get_stats(const lmm_system *sys, lmm_stats *out) { *out = sys->stats; }

void lmm_dump(const lmm_system *sys, FILE *out)
{
  fprintf(out, "lmm system: %zu constraints, %zu variables, precision %g\n", sys->n_cnsts,
          sys->n_vars, sys->precision);
  list_foreach (n, &sys->constraints) {
    const lmm_constraint *c = list_entry(n, lmm_constraint, all_node);
    fprintf(out, "  c#%llu %s cap %.17g load %.17g%s:", (unsigned long long)c->seq,
            c->policy == LMM_SHARED ? "shared" : "fatpipe", c->capacity, lmm_constraint_load(c),
            c->sat ? " (saturated)" : "");
    list_foreach (m, &c->active) {
      const lmm_element *e = list_entry(m, lmm_element, cnode);
      fprintf(out, " %g*v#%llu", e->coef, (unsigned long long)e->var->ev.order);
    }
    fputc('\n', out);
  }
  for (size_t o = 0; o < sys->n_by_order; o++) {
    const lmm_variable *v = sys->by_order[o];
    if (!v)
      continue;
    fprintf(out, "  v#%llu penalty %g bound %g value %.17g\n", (unsigned long long)v->ev.order,
            v->penalty, v->bound, v->value);
  }
}
