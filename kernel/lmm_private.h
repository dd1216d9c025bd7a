/* Internals of the max-min solver, shared by its files and nothing else:
 *   lmm_system.c        bookkeeping: system, constraints, variables, elements, the marks that
 *                       modifications leave for the next solve, configuration, accessors
 *   lmm_repair.c        lmm_solve: which part to re-solve, local repair growing it, fallback
 *   lmm_fill.c          progressive filling of one region (F over S u B) and its commit;
 *                       the full pass's region in one walk (maxmin/fast-path-full)
 *   lmm_fast_empty.c    fast path: the changed constraints have no flow left
 *   lmm_fast_lone.c     fast path: one flow starting alone on unsaturated links
 *   lmm_fast_bottleneck.c  fast path: flows coming and going on one loaded link
 *   lmm_glpk.c          the same allocation by linear programs (tests, maxmin/solver:glpk)
 *   lmm_class.c         what act_class.c (maxmin/class-sharing) reads: a bottleneck that can
 *                       form a class, a pointer per constraint
 *
 *
 *   constraint c1 ── active list ──> e(v1,c1) <──> e(v2,c1) <──> ...   (intrusive, O(1) removal)
 *                  └─ idle list ──> elements with coef 0 or of disabled variables
 *   variable  v1 ── elems[] = { e(v1,c1), e(v1,c3) }                  (array: routes are short)
 *
 * An element lives in its variable's array and is linked into one of its constraint's two
 * lists; when the array grows, the neighbours of every moved element are re-pointed.
 *
 * Bytes per in-flight flow (issue 27: a 4 096-rank Alltoall holds 16.8 M flows at once, so
 * each byte here is 16.8 MB), one arena block per variable and its hinted elements:
 *
 *   | lmm_variable 120 B: hot line 64 | dirty link, slots, ev 56 | e0 40 | e1 | e2 | e3 | e4 |
 *   '------------------------------- 320 B: 5 whole cache lines -----------------------------'
 *
 * (5 elements: a flat cluster's route of 3 links and 2 of cross-traffic), and the scratch of
 * the pass that re-solves them all, sized to it plus an eighth (XGROW_TIGHT): fe 12 + ve 12
 * per element, fx fval fpen fbkey 8 + ffixed 1 + ve_pos 4 + F 8 + fchg 1/8 per flow. _Static_asserts
 * below pin the sizes. */
#ifndef SMPI_KERNEL_LMM_PRIVATE_H
#define SMPI_KERNEL_LMM_PRIVATE_H

#include "kernel/lmm.h"
#include "src/heap.h"
#include "src/list.h"
#include "src/mem.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LMM_NOT_IN_HEAP ((size_t)-1)
#define LMM_DEFERRED ((size_t)-2) /* held back from the filling's heap (lmm_fill.c) */

/* An entry of the solver's priority queue: a constraint's saturation or a variable's bound,
 * both expressed as the common level at which they happen. */
typedef struct lmm_event {
  double key;
  uint64_t order; /* ties: bounds before constraints, then creation order */
  size_t pos;     /* slot in the heap, LMM_NOT_IN_HEAP when absent */
} lmm_event;

typedef struct lmm_element {
  lmm_constraint *cnst;
  lmm_variable *var;
  double coef;
  list_node cnode; /* in cnst->active (coef > 0 and var enabled) or cnst->idle */
} lmm_element;
_Static_assert(sizeof(lmm_element) == 40, "lmm_element grew: 5 per flow (issue 27)");

/* Solve scratch: a free variable's element seen from its constraint. Each constraint of
 * S u B owns a contiguous slice of these (sys->fe), so that the filling walks arrays rather
 * than lists, and refers to the variable by its index in F (fixed flags and new values are
 * small arrays indexed the same way). */
typedef struct __attribute__((packed)) lmm_free_elem {
  double coef; /* (packed: 12 bytes, not 16; x86 loads it unaligned at no cost but for the
                  one entry in 16 that straddles two lines) */
  uint32_t fidx;
} lmm_free_elem;

/* Solve scratch: a free variable's element seen from the variable, laid out in F order
 * (sys->ve[sys->ve_pos[i] .. sys->ve_pos[i + 1]) for F[i]): fixing a variable walks these
 * instead of loading the variable and its element array, two cache misses per flow when a
 * pass fixes 16 000 flows. Only elements of coefficient > 0, in the variable's order. */
typedef struct __attribute__((packed)) lmm_var_elem {
  double coef;
  uint32_t cidx; /* the constraint, sys->C[cidx] (12 bytes, not 16 with a pointer) */
} lmm_var_elem;
/* one of each per element of a full pass (issue 27: 1.3 M of them at 512 ranks of an
 * Alltoall, 84 M at 4 096) */
_Static_assert(sizeof(lmm_free_elem) == 12 && sizeof(lmm_var_elem) == 12, "scratch entries");

struct lmm_constraint {
  /* First cache line: all that lmm_fast_bottleneck.c reads or writes for each link of each
   * flow it walks (4 000 flows of a linear Reduce's root link, each with two private links
   * besides the shared ones: with a second line per link the walk moved 30 % more memory,
   * and it is bound by memory traffic, not latency). */
  double capacity;
  uint8_t policy;  /* lmm_sharing */
  bool sat;        /* saturated within precision at the last solve that touched it */
  uint32_t xl_idx; /* its slot + 1 in sys->xcls->links, 0 when no member crosses it (here:
                      every path that reads a load checks it, lmm_xlink_read) */
  double load;     /* SHARED: sum of coef*value, updated incrementally; FATPIPE: unused */
  uint64_t in_c;   /* scratch: == sys->iter: in S u B for this pass */
  double free_old; /* scratch, SHARED: consumption of the free variables before the solve */
  double usage;    /* scratch, SHARED: sum coef/penalty over unfixed free variables */
  double rem;      /* scratch: residual capacity left for the unfixed free variables */
  double pf_level; /* scratch: level at which it saturated and fixed free variables, -1 if it
                      did not */

  /* Second line: the rest of a pass's scratch and the filling's event (a full pass of
   * 5 600 links touched a third line of each for the event alone). The counts and offsets
   * into the pass's arrays fit 32 bits: ASSERTed where the arrays are laid out. */
  double max_level; /* upper bound of value*penalty over its active elements */
  uint64_t in_s;    /* scratch: == sys->solve_no: in S (all its variables are free) */
  size_t n_active;
  uint32_t nfree;    /* its free elements: sys->fe[fe_pos .. fe_pos + nfree) */
  uint32_t nunfixed; /* how many of them are not fixed yet */
  uint32_t fe_pos;
  uint32_t c_idx; /* its slot in sys->C during a filling pass (lmm_var_elem) */
  lmm_event ev;

  size_t fp_pos, fp_end; /* FATPIPE: heap slice of sys->fp keyed by saturation level */
  void *id;
  uint64_t seq; /* creation number: deterministic ties */
  list_node all_node;
  list_node active;
  list_node idle;
  double usage_all;     /* SHARED: sum of coef / penalty over the active elements, kept
                       incrementally (exactly 0 again whenever the last one leaves) */
  list_node dirty_node; /* on sys->dirty_cnsts when a modification invalidated it */

  void *cls; /* act_class.c's data while a class uses it (maxmin/class-sharing), else NULL */
  /* act_class.c's count of the flows enabled together that cross it (lmm_class_count) */
  uint64_t cls_stamp;
  size_t cls_fresh;
  bool cls_tainted;
};

/* A variable and the elements of its hint are one arena block (lmm_variable_new), the
 * elements right after the variable (elems == (lmm_element *)(v + 1) until lmm_expand outgrows
 * them), the block rounded to whole cache lines: a flow of a flat cluster's 5 elements (3
 * route links, 2 of cross-traffic) is 120 + 5 x 40 = 320 bytes, 5 lines, where a 192-byte
 * variable and a 256-byte array were 448 (issue 27). Not in a list of all variables
 * (sys->by_order has them in creation order) nor of the pending ones (sys->pending): 32
 * bytes of links less, which is what makes the 5 elements fit 5 lines. */
struct lmm_variable {
  /* First cache line: what a solve reads or writes for each flow it re-solves (the
   * one-bottleneck path and the commit touch nothing else of it). */
  void *id;
  double penalty; /* 0: disabled */
  double bound;   /* < 0: none */
  double value;
  lmm_element *elems;
  uint32_t n_elems;  /* (a route of 4 billion links is not a route) */
  uint32_t fidx;     /* scratch: its index in F while in_f says it is free */
  uint64_t mod_mark; /* scratch: == sys->solve_no: already in the modified array */
  uint64_t in_f;     /* scratch: == sys->iter: free in this pass, at sys->F[fidx] */

  list_node dirty_node; /* on sys->dirty_vars: must be re-solved; on sys->spare_vars once
                           freed */
  uint32_t cap_elems;   /* room of elems (ASSERTed < UINT32_MAX with n_elems) */
  uint32_t order_pos;   /* slot in sys->by_order (fewer than UINT32_MAX variables: ASSERTed) */
  uint32_t pend_pos;    /* its slot + 1 in sys->pending, 0 when not pending */
  uint32_t xidx;        /* its slot + 1 in sys->xcls->vars, 0 when not a member */

  /* More scratch of the current solve. */
  lmm_event ev; /* bound event; ev.order is also its creation number (deterministic ties,
                   the "seq" of a constraint) */
};
/* The bytes per in-flight flow that issue 27 brought down (at 16.8 M flows of a 4 096-rank
 * Alltoall every 8 bytes here are 134 MB): grow these only knowingly, and keep the first 64
 * bytes of a variable as they are (the solver's hot line). */
_Static_assert(sizeof(struct lmm_variable) == 120, "lmm_variable grew: see issue 27");
_Static_assert(offsetof(struct lmm_variable, dirty_node) == 64, "the hot line is 64 bytes");

/* The exact class (lmm_xclass.c): flows at the head of one constraint's active list that
 * have one coefficient on it and one of a few penalties (a group per penalty: a fat tree's
 * routes of two lengths), so that the one-bottleneck walk gives all the members of a group
 * the same steps with the same operands. Their other constraints are kept once each, with
 * how many members of each group cross them. */
#define LMM_XDEAD 0xff /* sq: a member that left */
typedef struct lmm_xlink {
  lmm_constraint *b;
  double coef;       /* every member's coefficient on b */
  size_t k;          /* members crossing b */
  size_t kg[LMM_XG]; /* of each group; more than one group: every member crosses b (k == n) */
  /* The lazy commit (lmm_fast_bottleneck.c, LAZY LINKS): events of the class's log
   * [since, nev) are not in b's load, max_level and sat yet. */
  size_t since;
} lmm_xlink;

/* What the walk reads of every link of the class at each event, dense beside the links (the
 * lazy ones are skipped on this alone) */
typedef struct lmm_xhot {
  double lim;    /* skipped while the group's max(old, x, nx) <= lim: only members on it,
                    far from saturation when last walked; -1: walked */
  uint32_t lpos; /* its slot in xc->walk or xc->lazy */
  uint8_t g1;    /* the group that crosses it, when only one does */
  bool mixed;    /* crossed by several groups */
  bool in_lazy;  /* in xc->lazy (else in xc->walk) */
} lmm_xhot;

/* One event of the lazy links' log: what the walk adds to a link crossed by one group */
typedef struct lmm_xevent {
  double dm[LMM_XG]; /* the group's value change, as committed (new - old) */
  double ul[LMM_XG]; /* the group's level (value * penalty) */
} lmm_xevent;

typedef struct lmm_xclass {
  lmm_constraint *c;
  double coef_c;
  double bound; /* the least bound >= 0 a member had (INFINITY: none), for the walk's test */
  size_t ng;    /* groups used so far */
  double pen[LMM_XG], value[LMM_XG];
  size_t gn[LMM_XG]; /* members of each group */
  bool gchanged[LMM_XG];
  lmm_variable **vars; /* the members, any order (the list order is c's: sq) */
  uint8_t *grp;
  size_t *pos; /* slot in sq */
  size_t n, cap, adopted;
  /* c's list order: each member's group (LMM_XDEAD once it left) and index in vars */
  uint8_t *sq;
  size_t *sqm;
  size_t nsq, capsq, ndead;
  lmm_xlink *links;
  lmm_xhot *hot; /* beside links, as long */
  /* The links as the walk sees them (lmm_fast_bottleneck.c, LAZY LINKS): those it walks,
   * and the lazy ones, of which those of group g have lim >= lazy_min[g] (a lower bound,
   * made exact whenever the walk looks through them) */
  uint32_t *walk, *lazy;
  size_t nwalk, caplwalk, nlazy, caplazy;
  double lazy_min[LMM_XG];
  size_t nl, capl, nmixed; /* nmixed: links crossed by more than one group */
  lmm_xevent *log;         /* the lazy links' pending events (none pending: nev == 0) */
  size_t nev, capev;
  bool pending; /* some link has events of the log pending */
  bool changed; /* a group's value changed at the last solve */
  bool broken;  /* a member was modified through the API: the next solve dissolves it */
} lmm_xclass;

typedef struct lmm_fp_entry {
  double level; /* capacity * penalty / coef: where this element alone fills the FATPIPE */
  uint32_t fidx;
} lmm_fp_entry;

struct lmm_system {
  double precision;
  double repair_limit;   /* see lmm_set_repair_limit */
  list_node constraints; /* creation order (the variables' is sys->by_order) */
  /* Freed variables kept for reuse with their element arrays (linked by dirty_node): a
   * simulation creates and frees one variable per message, and the two mallocs and two
   * frees cost about as much as the solve of an uncontended flow. A spare variable keeps
   * its array (cap_elems): in its own block, or one that lmm_expand grew. */
  list_node spare_vars;
  /* Variables (each with its hinted elements in one block), grown element arrays and
   * constraints come from 2 MiB chunks marked for transparent huge pages (lmm_system.c's
   * arena): a pass over 16 000 flows touches them all, and with 4 KiB pages nearly every
   * flow was a TLB miss as well as a cache miss. Never freed one by one (freed variables are
   * reused; an outgrown element array or a freed constraint is left behind: the models free
   * neither), all at lmm_system_free. */
  void *arena_chunks;
  char *arena_cur, *arena_end;
  size_t arena_total; /* bytes of all chunks */
  size_t n_vars, n_cnsts;
  /* The variables in creation order (the only record of them all: no list runs through
   * them), an array that a full pass walks with prefetches (a list walk is one dependent
   * cache miss per flow): a freed variable leaves a NULL, squeezed out by the next full walk
   * or once they outnumber the others. */
  lmm_variable **by_order;
  size_t n_by_order, cap_by_order, n_by_order_dead;
  size_t n_active_total; /* active elements of all constraints */
  size_t n_active_fp;    /* those of FATPIPE constraints (a full pass's sys->fp) */
  size_t s_incidences;   /* active elements of the constraints of S (current solve) */
  uint64_t next_seq;
  list_node dirty_cnsts, dirty_vars;
  /* Variables created or whose penalty or bound changed since the last solve, in that order:
   * reported by the next solve whatever their values do. A freed one leaves a NULL (it knows
   * its slot, pend_pos); the next solve empties the array. An array rather than a list
   * through every variable: 4 bytes of each instead of 16 (issue 27). */
  lmm_variable **pending;
  size_t n_pending, cap_pending;

  /* lmm_variable_at / lmm_constraint_at: arrays rebuilt after a creation or a removal */
  lmm_variable **var_at;
  size_t var_at_cap;
  bool var_at_ok;
  lmm_constraint **cnst_at;
  size_t cnst_at_cap;
  bool cnst_at_ok;

  /* Scratch arrays reused by every solve (no allocation in the steady state). */
  uint64_t solve_no, iter;
  lmm_constraint **S, **C;
  size_t nS, capS, nC, capC;
  lmm_variable **D, **F;
  size_t nD, capD, nF, capF;
  double *fx;       /* new value of F[i] */
  double *fval;     /* F[i]->value (the committed one once commit() has updated it) and */
  double *fpen;     /* F[i]->penalty, copied beside fx: the filling and the commit read them per
                    element, and F[i] itself is a cache miss in a system of 10^6 flows */
  bool *ffixed;     /* F[i] is fixed */
  uint64_t *fchg;   /* bit i: fx[i] differs from fval[i] (lmm_value_changed), set by the
                       filling as it fixes F[i], so that the commit visits only those */
  double *fbkey;    /* F[i]'s bound event key (bound x penalty) when lmm_bound_matters, else
                       LMM_NO_BOUND_EVENT, or LMM_NO_ELEMENT (no element of coef > 0 and no
                       bound: fixed at 0 by the filling) */
  uint32_t *ve_pos; /* nF + 1 offsets into ve (fit: nfe < UINT32_MAX is ASSERTed) */
  size_t n_unfixed; /* variables of F not fixed yet (filling) */
  size_t capfx;
  lmm_free_elem *fe;
  size_t capfe;
  lmm_var_elem *ve;
  size_t capve;
  lmm_variable **walk; /* a local pass's walk of S's active lists (lmm_fill.c) */
  size_t capwalk;
  lmm_event **heap;
  /* hkeys[i]: heap[i]'s (heap_ord(key), order), src/heap.h's heap_key, so that a sift
   * compares an array instead of loading each event (lmm_fill.c) */
  heap_key *hkeys;
  size_t nheap, capheap;
  lmm_event **deferred; /* constraints' events far above the least key (lmm_fill.c) */
  size_t ndeferred, capdeferred;
  double deferred_min; /* their least key */
  lmm_fp_entry *fp;
  size_t capfp;
  lmm_variable **modified;
  size_t n_modified, cap_modified;

  /* Read once from the configuration by lmm_system_new (lmm_declare_config). */
  bool use_glpk;        /* maxmin/solver:glpk: every solve by lmm_glpk_solve_system */
  bool fast_empty;      /* maxmin/fast-path-empty */
  bool fast_lone;       /* maxmin/fast-path-lone */
  bool fast_bottleneck; /* maxmin/fast-path-bottleneck */
  bool fast_full;       /* maxmin/fast-path-full */

  /* The exact class, if any (one per system); xcls_min: 0 when its owner did not ask for
   * classes (lmm_xclass_allow), else the fewest flows that form one. */
  lmm_xclass *xcls;
  size_t xcls_min;

  lmm_stats stats;
};

/* sys->fbkey's values other than a bound event's key (which is >= 0) */
#define LMM_NO_BOUND_EVENT (-1.0)
#define LMM_NO_ELEMENT (-2.0)

/* Event order bit: constraints after bounds at equal keys */
#define LMM_ORDER_CNST ((uint64_t)1 << 62)

/* max of two finite numbers: libm's fmax is a call (its NaN rule keeps GCC from inlining it),
 * 3 % of a fat-tree Allreduce's instructions in the one-bottleneck loop */
static inline double lmm_dmax(double a, double b) { return a >= b ? a : b; }

static inline bool lmm_var_enabled(const lmm_variable *v) { return v->penalty > 0; }

static inline bool lmm_elem_active(const lmm_element *e)
{
  return e->coef > 0 && lmm_var_enabled(e->var);
}

/* A value "changed" when it moved by more than the precision (relative): otherwise the old
 * value is kept, so that rounding noise does not re-key activities or spread repairs. */
static inline bool lmm_value_changed(const lmm_system *sys, double x_new, double x_old)
{
  return fabs(x_new - x_old) > sys->precision * lmm_dmax(fabs(x_new), fabs(x_old));
}

static inline bool lmm_ev_before(const lmm_event *a, const lmm_event *b)
{
  return a->key < b->key || (a->key == b->key && a->order < b->order);
}

/* A bound that cannot bind: some constraint alone stops the variable before it (x <= cap/coef
 * on any SHARED or FATPIPE constraint). SMPI's bound min(route bandwidth, gamma / 2 lat) is
 * mostly of this kind; skipping it keeps such events out of the queue. */
static inline bool lmm_bound_matters(const lmm_variable *v)
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

static inline bool lmm_over_repair_limit(const lmm_system *sys)
{
  return (double)sys->nF > sys->repair_limit * (double)sys->n_vars ||
         (double)sys->s_incidences > sys->repair_limit * (double)sys->n_active_total;
}

void lmm_xlink_read_slow(lmm_system *sys, lmm_constraint *c);

/* c joins S, the constraints whose every variable is free in this solve (a pass overwrites
 * their loads: a lazy link's pending events go in first; none should be lazy, being neither
 * saturated nor dirty, but a double count would be silent) */
static inline void lmm_s_add(lmm_system *sys, lmm_constraint *c)
{
  if (c->in_s == sys->solve_no)
    return;
  if (c->xl_idx && sys->xcls && sys->xcls->pending)
    lmm_xlink_read_slow(sys, c);
  c->in_s = sys->solve_no;
  sys->s_incidences += c->n_active;
  XGROW(sys->S, sys->capS, sys->nS + 1);
  sys->S[sys->nS++] = c;
}

/* v is no longer pending (freed, or taken out of the solver by a class) */
static inline void lmm_var_unpend(lmm_system *sys, lmm_variable *v)
{
  if (v->pend_pos) {
    sys->pending[v->pend_pos - 1] = NULL;
    v->pend_pos = 0;
  }
}

/* lmm_system.c: squeezes the NULLs out of sys->by_order */
void lmm_by_order_squeeze(lmm_system *sys);

/* lmm_fill.c: one pass over the region of sys->S and sys->D (see there) */
bool lmm_build_region(lmm_system *sys, bool full);
/* The region of a full pass in one walk of the variables, S growing by every constraint met
 * (maxmin/fast-path-full; the same region, arrays and order as lmm_build_region(sys, true)
 * after lmm_repair.c's walk that puts those constraints in S). */
void lmm_build_full_region(lmm_system *sys);
void lmm_progressive_filling(lmm_system *sys);
void lmm_commit(lmm_system *sys);
void lmm_fx_reserve(lmm_system *sys, size_t n);

/* Fast paths, tried by lmm_repair.c's solve in this order, each when its switch is on. Each
 * returns false, having changed nothing, when its case does not apply; true when it did the
 * whole solve (S and D are then to be emptied by the caller). */
bool lmm_fast_empty(lmm_system *sys);
bool lmm_fast_lone(lmm_system *sys, lmm_variable *v);
bool lmm_fast_bottleneck(lmm_system *sys);
/* lmm_fast_bottleneck.c: the lazy links (LAZY LINKS there). touch: c's load, sat and
 * max_level up to date before something else reads or changes them or the members on it,
 * and no skipping until the walk reads it again; sync_all: every link up to date. */
void lmm_xlink_sync_all(lmm_system *sys);
void lmm_xclass_list_put(lmm_xclass *xc, size_t li, bool lazy); /* lmm_xclass.c */
void lmm_xclass_list_take(lmm_xclass *xc, size_t li);
void lmm_xlink_drop_all(lmm_system *sys); /* before a full pass, which rewrites them all */
void lmm_xlink_touch_slow(lmm_system *sys, lmm_constraint *c);
static inline void lmm_xlink_touch(lmm_system *sys, lmm_constraint *c)
{
  if (c->xl_idx && sys->xcls)
    lmm_xlink_touch_slow(sys, c);
}
/* c's load, sat and max_level up to date before a pass reads them (it may stay lazy) */
static inline void lmm_xlink_read(lmm_system *sys, lmm_constraint *c)
{
  if (c->xl_idx && sys->xcls && sys->xcls->pending)
    lmm_xlink_read_slow(sys, c);
}

/* lmm_xclass.c: forms the exact class on c, or grows it by the flows of F that just took its
 * value, after a successful one-bottleneck pass on c */
void lmm_xclass_grow(lmm_system *sys, lmm_constraint *c);

/* lmm_glpk.c: a whole lmm_solve by linear programs (maxmin/solver:glpk) */
void lmm_glpk_solve_system(lmm_system *sys);

#endif
