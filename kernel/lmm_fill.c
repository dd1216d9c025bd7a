/* Progressive filling of one region of the max-min system, and the commit of its result.
 * lmm_repair.c decides the region (S, D; or everything) and calls, per pass,
 * lmm_build_region, lmm_progressive_filling, then once lmm_commit.
 *
 * REGION. F = D + every enabled variable with an element on S ("free"); C = S u B, B being
 * the other constraints of F's variables ("boundary"). Every other variable keeps its value.
 * A constraint of S has only free variables (rem = capacity); a SHARED c in B gets capacity
 * minus the consumption of its fixed variables (its incrementally kept load minus the old
 * consumption of its free variables), a FATPIPE in B its capacity.
 *
 * LAYOUT. A pass copies its region into flat scratch arrays, reused from solve to solve:
 *     L1: A, B      L2: A, C      L3: A, D, E        (S = {L3}, E gone: F = {A, D, B})
 *   F = [A, D, B]            free variables, with fx[] (new values) and ffixed[] beside it
 *   fe = [L3: (1,A) (1,D) | L1: (1,A) (1,B) | L2: (1,A)]   (coef, index in F) per constraint
 * so that the filling walks arrays instead of chasing list pointers across the heap (a full
 * solve of 100 000 flows went from 575 to 150 ms with this layout). The same elements seen
 * from F, in F order (ve = [A: L1 L2 L3 | D: L3 | B: L1], with coef), are what fix_var
 * walks; the full pass finds the variables in sys->by_order, an array it can prefetch.
 *
 * PROGRESSIVE FILLING. Every free variable v has level x_v * p_v; all unfixed levels rise
 * together as one number lambda. Events, taken in increasing lambda from a binary heap (below):
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
 * WORKED EXAMPLE (capacities 1, penalties 1, SHARED, full pass) on the links above with E:
 *   usage L1 = 2, L2 = 2, L3 = 3, so L3 saturates first at lambda = 1/3: A = D = E = 1/3.
 *   L1: rem = 1 - 1/3 = 2/3, usage 1 (B) -> B = 2/3; likewise L2 gives C = 2/3.
 */
#include "kernel/lmm_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/heap.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_DEFAULT_CATEGORY(lmm);

/* ======================================================================================
 * Event heap (min on key, then order)
 * ====================================================================================== */

/* lmm_ev_before's order as src/heap.h's integers: ties, which are common, without a branch */
static inline heap_key hkey_of(const lmm_event *e)
{
  return (heap_key){heap_ord(e->key), e->order};
}

static inline void heap_place(lmm_system *sys, lmm_event *e, heap_key k, size_t i)
{
  sys->heap[i] = e;
  sys->hkeys[i] = k;
  e->pos = i;
}

static void heap_sift_up(lmm_system *sys, size_t i)
{
  lmm_event *e = sys->heap[i];
  heap_key k = sys->hkeys[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!heap_key_before(k, sys->hkeys[parent]))
      break;
    heap_place(sys, sys->heap[parent], sys->hkeys[parent], i);
    i = parent;
  }
  heap_place(sys, e, k, i);
}

static void heap_sift_down(lmm_system *sys, size_t i)
{
  lmm_event *e = sys->heap[i];
  heap_key k = sys->hkeys[i];
  const heap_key *keys = sys->hkeys;
  size_t n = sys->nheap;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n)
      child += heap_key_before(keys[child + 1], keys[child]);
    if (!heap_key_before(keys[child], k))
      break;
    heap_place(sys, sys->heap[child], keys[child], i);
    i = child;
  }
  heap_place(sys, e, k, i);
}

static void heap_push_ev(lmm_system *sys, lmm_event *e, double key)
{
  if (sys->nheap + 1 > sys->capheap) {
    size_t cap = sys->capheap;
    XGROW(sys->heap, cap, sys->nheap + 1);
    sys->hkeys = xrealloc(sys->hkeys, cap * sizeof *sys->hkeys);
    sys->capheap = cap;
  }
  e->key = key;
  heap_place(sys, e, hkey_of(e), sys->nheap++);
  heap_sift_up(sys, e->pos);
}

static void heap_remove_ev(lmm_system *sys, lmm_event *e)
{
  if (e->pos == LMM_NOT_IN_HEAP)
    return;
  size_t i = e->pos;
  size_t l = --sys->nheap;
  lmm_event *last = sys->heap[l];
  e->pos = LMM_NOT_IN_HEAP;
  if (last == e)
    return;
  heap_place(sys, last, sys->hkeys[l], i);
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
  sys->hkeys[e->pos] = hkey_of(e);
  if (key < old)
    heap_sift_up(sys, e->pos);
  else if (key > old)
    heap_sift_down(sys, e->pos);
}

/* the value F[i] will have after this solve: the old one when the change is noise */
static inline double next_value(const lmm_system *sys, size_t i)
{
  double old = sys->fval[i];
  return lmm_value_changed(sys, sys->fx[i], old) ? sys->fx[i] : old;
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
  c->c_idx = (uint32_t)sys->nC; /* (C holds a constraint once: 2^32 of them are 1 TiB) */
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

/* Room for n entries in the arrays indexed like F (fx and the five beside it), sized as
 * XGROW_TIGHT sizes them: their contents are written by the pass that reserves them. */
void lmm_fx_reserve(lmm_system *sys, size_t n)
{
  if (n <= sys->capfx && sys->ve_pos) /* (ve_pos has one more: allocated even for n = 0) */
    return;
  XGROW_TIGHT(sys->fx, sys->capfx, n);
  size_t cap = sys->capfx;
  free(sys->ffixed);
  free(sys->fchg);
  free(sys->fval);
  free(sys->fpen);
  free(sys->fbkey);
  free(sys->ve_pos);
  sys->ffixed = xmalloc(cap * sizeof *sys->ffixed);
  sys->fchg = xmalloc((cap / 64 + 1) * sizeof *sys->fchg);
  sys->fval = xmalloc(cap * sizeof *sys->fval);
  sys->fpen = xmalloc(cap * sizeof *sys->fpen);
  sys->fbkey = xmalloc(cap * sizeof *sys->fbkey);
  sys->ve_pos = xmalloc((cap + 1) * sizeof *sys->ve_pos);
}

/* F[i]'s entry of sys->fbkey, from what the walk over its elements found: lmm_bound_matters
 * (bound_moot: some constraint alone stops it first) and whether it has an element */
static inline double bound_key(const lmm_variable *v, double pen, bool bound_moot, bool any)
{
  if (v->bound >= 0 && !bound_moot)
    return v->bound * pen;
  return v->bound < 0 && !any ? LMM_NO_ELEMENT : LMM_NO_BOUND_EVENT;
}

/* WALKS OF S. A local pass frees the variables of S's active lists in list order (the order
 * F, and so every sum of the pass, follows), and each step of a list is a cache miss that
 * the next one waits for (elements are scattered over the flows' blocks): one list's walk
 * cannot go faster than one miss at a time. walk_lists follows up to LMM_WALK_WAYS lists at
 * once, each into its own segment of sys->walk, so that their misses overlap, and fetches
 * each flow for the f_add that follows; F then takes the segments in S's order, as one walk
 * after another would. The limit checks that stop the walk early can only come later than
 * they did (after a group of lists, not after each list): the verdict is the same, since nF
 * only grows and past the limit the pass is dropped whatever F holds.
 *   S = [L1, L2]   L1: a1 -> a2 -> a3   L2: b1 -> b2
 *   steps: (a1, b1) (a2, b2) (a3)   walk = [a1 a2 a3 | b1 b2]   F += a1 a2 a3 b1 b2 */
#define LMM_WALK_WAYS 4

static inline size_t lmm_min_size(size_t a, size_t b) { return a < b ? a : b; }

/* The variables of the active lists of cs[0 .. n), list after list, into sys->walk; returns
 * how many. */
static size_t walk_lists(lmm_system *sys, lmm_constraint *const *cs, size_t n)
{
  const list_node *head[LMM_WALK_WAYS], *at[LMM_WALK_WAYS];
  size_t pos[LMM_WALK_WAYS], end[LMM_WALK_WAYS], total = 0;
  for (size_t j = 0; j < n; j++) {
    head[j] = &cs[j]->active;
    at[j] = head[j]->next;
    pos[j] = total;
    total += cs[j]->n_active;
    end[j] = total;
  }
  XGROW(sys->walk, sys->capwalk, total);
  lmm_variable **walk = sys->walk;
  for (size_t left = n; left;) {
    left = 0;
    for (size_t j = 0; j < n; j++) {
      if (at[j] == head[j])
        continue;
      ASSERTF(pos[j] < end[j], "active list longer than its count (%zu)", cs[j]->n_active);
      lmm_variable *v = list_entry(at[j], lmm_element, cnode)->var;
      __builtin_prefetch(v);
      walk[pos[j]++] = v;
      at[j] = at[j]->next;
      left += at[j] != head[j];
    }
  }
  for (size_t j = 0; j < n; j++)
    ASSERTF(pos[j] == end[j], "active list shorter than its count (%zu)", cs[j]->n_active);
  return total;
}

/* F, S u B, the free slices and the residual capacities of one pass. full: all is free.
 * Returns false, having done nothing else, when a local pass would free more than the repair
 * limit (the caller switches to a full pass). */
bool lmm_build_region(lmm_system *sys, bool full)
{
  sys->iter++;
  sys->nC = 0;
  sys->nF = 0;
  for (size_t i = 0; i < sys->nS; i++)
    c_add(sys, sys->S[i]);
  if (full) {
    for (size_t o = 0; o < sys->n_by_order; o++) {
      lmm_variable *v = sys->by_order[o];
      if (v && lmm_var_enabled(v))
        f_add(sys, v);
    }
  } else {
    for (size_t i = 0; i < sys->nD; i++)
      f_add(sys, sys->D[i]);
    /* the walk frees at least this many: past the limit already, no need to walk (a linear
     * Reduce's root link of 1 800 flows, at every event that leaves its path) */
    for (size_t i = 0; i < sys->nS; i++)
      if ((double)sys->S[i]->n_active > sys->repair_limit * (double)sys->n_vars)
        return false;
    for (size_t i = 0; i < sys->nS; i += LMM_WALK_WAYS) {
      size_t ng = lmm_min_size(LMM_WALK_WAYS, sys->nS - i);
      size_t n = walk_lists(sys, sys->S + i, ng);
      for (size_t k = 0; k < n; k++)
        f_add(sys, sys->walk[k]);
      if (lmm_over_repair_limit(sys)) /* stop early: these walks chase pointers */
        return false;
    }
  }
  lmm_fx_reserve(sys, sys->nF);
  /* the lazy links (lmm_fast_bottleneck.c): a local pass reads the loads of B (below); a
   * full one only writes them, every link of a member being in S */
  if (full)
    lmm_xlink_drop_all(sys);

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
      if (c->in_c != sys->iter) {
        lmm_xlink_read(sys, c);
        c_add(sys, c);
      }
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
  ASSERTF(nfe < UINT32_MAX, "%zu free elements in one pass", nfe); /* (lmm_constraint) */
  XGROW_TIGHT(sys->fe, sys->capfe, nfe);
  XGROW_TIGHT(sys->fp, sys->capfp, nfp);
  XGROW_TIGHT(sys->ve, sys->capve, nfe);
  size_t at = 0, fat = 0;
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    c->fe_pos = (uint32_t)at;
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
  size_t nve = 0;
  for (size_t i = 0; i < sys->nF; i++) {
    lmm_variable *v = sys->F[i];
    bool bound_moot = false;
    sys->ve_pos[i] = (uint32_t)nve;
    for (size_t k = 0; k < v->n_elems; k++) {
      lmm_element *e = &v->elems[k];
      if (e->coef <= 0)
        continue;
      lmm_constraint *c = e->cnst;
      sys->fe[c->fe_pos + c->nunfixed++] = (lmm_free_elem){e->coef, (uint32_t)i};
      sys->ve[nve++] = (lmm_var_elem){e->coef, c->c_idx};
      if (v->bound * e->coef >= c->capacity)
        bound_moot = true;
      if (c->policy == LMM_FATPIPE)
        sys->fp[c->fp_end++] = (lmm_fp_entry){c->capacity * v->penalty / e->coef, (uint32_t)i};
    }
    sys->fbkey[i] = bound_key(v, v->penalty, bound_moot, nve > sys->ve_pos[i]);
  }
  sys->ve_pos[sys->nF] = (uint32_t)nve;
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

/* Constraint c enters the full region: its free elements are exactly its active ones (every
 * enabled variable is free), so its slices of fe and fp are laid out at once, n_active long,
 * and filled as the walk meets them. */
static inline void full_c_add(lmm_system *sys, lmm_constraint *c, size_t *at, size_t *fat)
{
  c_add(sys, c);
  c->fe_pos = (uint32_t)*at;
  c->nfree = (uint32_t)c->n_active; /* all of them, as the walk will find */
  c->nunfixed = 0;                  /* the fill cursor, as in lmm_build_region */
  c->rem = c->capacity;
  if (c->policy == LMM_FATPIPE) {
    /* fp holds the FATPIPE elements only (sys->n_active_fp): as long as fe, it was 16 bytes
     * per flow more at the peak of a run with a loopback link or none */
    c->fp_pos = c->fp_end = *fat;
    *fat += c->n_active;
  }
  *at += c->n_active;
}

/* lmm_build_region(sys, true) after the fallback's walk that puts every constraint of an
 * enabled variable into S, in one walk instead of three (that one, F's discovery, then two
 * over F's elements): a full pass of 4 032 flows of an Alltoallv on a fat tree's leaf spent
 * 40 % of its time in the three. Everything that decides the bits is the same: F in the order
 * of the variables list, each constraint's usage summed and its slices filled in F order, S
 * and C in the order the walk meets the constraints, every constraint of S with
 * rem = capacity. */
void lmm_build_full_region(lmm_system *sys)
{
  sys->iter++;
  sys->nC = 0;
  sys->nF = 0;
  lmm_xlink_drop_all(sys); /* every load is written by the commit (see lmm_build_region) */
  XGROW_TIGHT(sys->F, sys->capF, sys->n_vars);
  lmm_fx_reserve(sys, sys->n_vars);
  ASSERTF(sys->n_active_total < UINT32_MAX, "%zu active elements", sys->n_active_total);
  XGROW_TIGHT(sys->fe, sys->capfe, sys->n_active_total);
  XGROW_TIGHT(sys->fp, sys->capfp, sys->n_active_fp);
  XGROW_TIGHT(sys->ve, sys->capve, sys->n_active_total);
  const uint64_t iter = sys->iter;
  size_t at = 0, fat = 0, nF = 0, nve = 0;
  /* locals: the stores below could alias sys as far as the compiler knows (a reload of each
   * per element) */
  lmm_free_elem *const fe = sys->fe;
  lmm_var_elem *const ve = sys->ve;
  lmm_fp_entry *const fp = sys->fp;
  lmm_variable **const F = sys->F;
  double *const fx = sys->fx, *const fval = sys->fval, *const fpen = sys->fpen;
  double *const fbkey = sys->fbkey;
  bool *const ffixed = sys->ffixed;
  uint32_t *const ve_pos = sys->ve_pos;
  for (size_t i = 0; i < sys->nS; i++)
    full_c_add(sys, sys->S[i], &at, &fat);
  /* sys->by_order rather than the list: the same order, but the flows ahead are known, so
   * their structures and element arrays are fetched while this one is processed (a pass
   * over 16 000 flows spread over 10 MB was one dependent cache miss after another). The
   * NULLs of freed variables are squeezed out on the way. */
  lmm_variable **order = sys->by_order;
  const size_t n_order = sys->n_by_order;
  size_t live = 0;
  for (size_t o = 0; o < n_order; o++) {
    if (o + 16 < n_order && order[o + 16])
      __builtin_prefetch(order[o + 16]);
    if (o + 8 < n_order && order[o + 8]) {
      const lmm_element *ahead = order[o + 8]->elems;
      __builtin_prefetch(ahead);
      __builtin_prefetch((const char *)ahead + 64);
      __builtin_prefetch((const char *)ahead + 128);
    }
    lmm_variable *v = order[o];
    if (!v)
      continue;
    if (live != o) /* (v->order_pos == o: no store, its second line stays where it is) */
      v->order_pos = (uint32_t)live;
    order[live++] = v;
    if (!lmm_var_enabled(v))
      continue;
    double pen = v->penalty;
    v->in_f = iter;
    v->fidx = (uint32_t)nF;
    F[nF] = v;
    fx[nF] = 0;
    fval[nF] = v->value;
    fpen[nF] = pen;
    ffixed[nF] = false;
    ve_pos[nF] = (uint32_t)nve;
    double bound = v->bound;
    bool bound_moot = false;
    for (size_t k = 0, ne = v->n_elems; k < ne; k++) {
      const lmm_element *e = &v->elems[k];
      double coef = e->coef;
      if (coef <= 0)
        continue;
      lmm_constraint *c = e->cnst;
      if (c->in_c != iter) {
        lmm_s_add(sys, c);
        full_c_add(sys, c, &at, &fat);
      }
      fe[c->fe_pos + c->nunfixed++] = (lmm_free_elem){coef, (uint32_t)nF};
      ve[nve++] = (lmm_var_elem){coef, c->c_idx};
      if (bound * coef >= c->capacity)
        bound_moot = true;
      if (c->policy == LMM_SHARED)
        c->usage += coef / pen;
      else
        fp[c->fp_end++] = (lmm_fp_entry){c->capacity * pen / coef, (uint32_t)nF};
    }
    fbkey[nF] = bound_key(v, pen, bound_moot, nve > ve_pos[nF]);
    nF++;
  }
  ve_pos[nF] = (uint32_t)nve;
  sys->n_by_order = live;
  sys->n_by_order_dead = 0;
  ASSERT(nF < UINT32_MAX);
  sys->nF = nF;
  ASSERTF(at == sys->n_active_total, "%zu active elements, %zu counted", at, sys->n_active_total);
  ASSERTF(fat == sys->n_active_fp, "%zu FATPIPE elements, %zu counted", fat, sys->n_active_fp);
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    ASSERT(c->nunfixed == c->n_active);
    if (c->policy == LMM_FATPIPE)
      for (size_t j = (c->fp_end - c->fp_pos) / 2; j-- > 0;)
        fp_sift_down(sys->fp + c->fp_pos, c->fp_end - c->fp_pos, j);
  }
  sys->stats.constraints_visited += sys->nC;
  sys->stats.variables_visited += sys->nF;
  sys->stats.fast_full++;
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
  sys->ffixed[i] = true;
  sys->n_unfixed--;
  sys->fx[i] = x;
  if (lmm_value_changed(sys, x, sys->fval[i]))
    sys->fchg[i / 64] |= UINT64_C(1) << (i % 64);
  const double pen = sys->fpen[i];
  /* indices, not pointers: with no element at all sys->ve is NULL, and NULL + 0 is UB; the
   * arrays in locals: the heap calls below could change them as far as the compiler knows */
  const lmm_var_elem *ve = sys->ve;
  lmm_constraint *const *C = sys->C;
  for (size_t k = sys->ve_pos[i], end = sys->ve_pos[i + 1]; k < end; k++) {
    const lmm_var_elem *e = &ve[k];
    lmm_constraint *c = C[e->cidx];
    c->nunfixed--;
    if (c->policy == LMM_SHARED) {
      c->rem -= e->coef * x;
      c->usage -= e->coef / pen;
      if (c->nunfixed && c->ev.pos != LMM_NOT_IN_HEAP && c->ev.key > cur &&
          c->rem <= c->capacity * sys->precision) {
        if (c->ev.pos == LMM_DEFERRED)
          heap_push_ev(sys, &c->ev, cur); /* its entry in sys->deferred is dead now */
        else
          heap_update_ev(sys, &c->ev, cur);
      }
    }
  }
}

/* DEFERRED EVENTS. A full pass keys ~1 800 constraints and pops ~165 of them before every
 * variable is fixed (a Reduce's root link fixes its 1 800 flows at once; their own links,
 * keyed thousands of times higher, would pop only as no-ops). So the events above
 * LMM_DEFER_FACTOR times the least key wait in sys->deferred, outside the heap, and join
 * it, all at once, when the heap's least key reaches the least of them (or it is empty),
 * except those whose variables are all fixed by then: they would pop for nothing. Until
 * then every pop precedes each of them in the (key, order) total order, so the events pop
 * in the same order as from one heap; a deferred key lowered by the precision rule
 * (fix_var) joins the heap at once. */
#define LMM_DEFER_FACTOR 4.0

static void flush_deferred(lmm_system *sys)
{
  for (size_t i = 0; i < sys->ndeferred; i++) {
    lmm_event *e = sys->deferred[i];
    /* one whose variables are all fixed would pop for nothing: it stays out */
    if (e->pos == LMM_DEFERRED && container_of(e, lmm_constraint, ev)->nunfixed)
      heap_push_ev(sys, e, e->key);
  }
  sys->ndeferred = 0;
}

void lmm_progressive_filling(lmm_system *sys)
{
  double cur = 0, kmin = INFINITY;
  sys->nheap = 0;
  sys->ndeferred = 0;
  sys->n_unfixed = sys->nF;
  memset(sys->fchg, 0, (sys->nF / 64 + 1) * sizeof *sys->fchg);
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    c->ev.pos = LMM_NOT_IN_HEAP;
    if (c->nunfixed == 0)
      continue;
    c->ev.key = c->policy == LMM_SHARED ? shared_key(sys, c, 0)
                                        : lmm_dmax(sys->fp[c->fp_pos].level, 0);
    if (c->ev.key < kmin)
      kmin = c->ev.key;
  }
  double defer_above = kmin * LMM_DEFER_FACTOR;
  sys->deferred_min = INFINITY;
  for (size_t i = 0; i < sys->nC; i++) {
    lmm_constraint *c = sys->C[i];
    if (c->nunfixed == 0)
      continue;
    if (!(c->ev.key > defer_above)) {
      heap_push_ev(sys, &c->ev, c->ev.key);
      continue;
    }
    c->ev.pos = LMM_DEFERRED;
    XGROW(sys->deferred, sys->capdeferred, sys->ndeferred + 1);
    sys->deferred[sys->ndeferred++] = &c->ev;
    if (c->ev.key < sys->deferred_min)
      sys->deferred_min = c->ev.key;
  }
  /* (a variable's ev.pos is only read while it is in the heap: set when pushed) */
  for (size_t i = 0; i < sys->nF; i++) {
    double bkey = sys->fbkey[i];
    if (bkey >= 0) { /* lmm_bound_matters */
      lmm_variable *v = sys->F[i];
      v->ev.pos = LMM_NOT_IN_HEAP;
      heap_push_ev(sys, &v->ev, bkey);
    } else if (bkey == LMM_NO_ELEMENT) { /* nothing limits it: 0 by convention */
      fix_var(sys, i, 0, 0);
    }
  }

  /* Once every variable is fixed, each remaining event would be popped for nothing (a
   * fixed bound, a constraint without unfixed variable: no arithmetic, no re-push), at a
   * sift each: a full solve of 1 024 flows that one backbone fixes at once left 2 000 such
   * events. The positions they keep are reset by the next filling before any use. */
  while ((sys->nheap || sys->ndeferred) && sys->n_unfixed) {
    if (sys->ndeferred && (!sys->nheap || sys->heap[0]->key >= sys->deferred_min)) {
      flush_deferred(sys);
      continue;
    }
    lmm_event *ev = sys->heap[0];
    if (!(ev->order & LMM_ORDER_CNST)) {
      heap_pop_ev(sys);
      lmm_variable *v = container_of(ev, lmm_variable, ev);
      if (sys->ffixed[v->fidx])
        continue;
      if (ev->key > cur)
        cur = ev->key;
      fix_var(sys, v->fidx, v->bound, cur);
      continue;
    }
    lmm_constraint *c = container_of(ev, lmm_constraint, ev);
    if (c->nunfixed == 0) {
      heap_pop_ev(sys);
      continue;
    }
    double level;
    if (c->policy == LMM_SHARED) {
      level = shared_key(sys, c, cur);
    } else {
      bool any = fp_top_unfixed(sys, c);
      ASSERT(any);
      level = lmm_dmax(sys->fp[c->fp_pos].level, cur);
    }
    if (level > ev->key) { /* stale key: down the queue to its true level (one sift, not a
                              pop and a push: the same contents, so the same order) */
      heap_update_ev(sys, ev, level);
      continue;
    }
    heap_pop_ev(sys);
    cur = level;
    c->pf_level = cur;
    const lmm_free_elem *fe = sys->fe + c->fe_pos;
    for (size_t j = 0; j < c->nfree && c->nunfixed; j++) {
      size_t i = fe[j].fidx;
      if (!sys->ffixed[i])
        fix_var(sys, i, cur / sys->fpen[i], cur);
    }
  }
  /* every variable is fixed by now (each of its constraints is keyed and pops before the
   * heap empties), but fchg must cover any that was not: its fx is 0 */
  if (sys->n_unfixed)
    for (size_t i = 0; i < sys->nF; i++)
      if (!sys->ffixed[i] && lmm_value_changed(sys, sys->fx[i], sys->fval[i]))
        sys->fchg[i / 64] |= UINT64_C(1) << (i % 64);
  sys->nheap = 0;
  sys->ndeferred = 0;
  LOG_DEBUG("filling of %zu variables over %zu constraints: top level %g", sys->nF, sys->nC, cur);
}

void lmm_commit(lmm_system *sys)
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
  /* the changed variables, in F order (fchg's bits): a full pass of 3 800 flows changes
   * about a third of them, and this visited every one */
  const size_t nwords = sys->nF / 64 + 1;
  const uint64_t *chg = sys->fchg;
  size_t ahead_w = 0, lead = 0;
  uint64_t ahead_bits = chg[0];
  for (size_t w = 0; w < nwords; w++) {
    for (uint64_t bits = chg[w]; bits; bits &= bits - 1, lead--) {
      /* the variables written are scattered: keep 8 fetches ahead of the writes */
      while (lead < 8) {
        while (!ahead_bits && ++ahead_w < nwords)
          ahead_bits = chg[ahead_w];
        if (!ahead_bits)
          break;
        __builtin_prefetch(sys->F[ahead_w * 64 + (size_t)__builtin_ctzll(ahead_bits)], 1);
        ahead_bits &= ahead_bits - 1;
        lead++;
      }
      size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
      lmm_variable *v = sys->F[i];
      v->value = sys->fval[i] = sys->fx[i];
      if (v->mod_mark != sys->solve_no) {
        v->mod_mark = sys->solve_no;
        XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
        sys->modified[sys->n_modified++] = v;
      }
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
