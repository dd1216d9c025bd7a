/* Max-min fair sharing of resources between activities ("linear max-min", lmm_).
 *
 * Data model: a system holds constraints (resources: a link, a CPU) and variables (flows,
 * executions). An element joins one variable to one constraint with a consumption
 * coefficient. The solver gives each enabled variable a value (its rate) such that
 *   SHARED constraint c:   sum over its elements of coef * value <= capacity(c)
 *   FATPIPE constraint c:  coef * value <= capacity(c) for each element alone
 *   bound(v) >= 0:         value(v) <= bound(v)
 * and the allocation is weighted max-min fair: every variable's "level" value * penalty is as
 * large as possible, raising all levels together (progressive filling). A penalty of 0
 * disables the variable (value 0, consumes nothing): that is how a flow in its latency phase
 * waits. See lmm_fill.c for the algorithm and lmm_repair.c for the local re-solve, each with
 * a worked example; lmm_private.h lists the solver's files.
 *
 * lmm_solve() re-solves only the part of the system that changed since the last solve and
 * records which variables changed value (lmm_modified_*), so that the models re-key only
 * those activities' completion dates.
 *
 * Configuration (lmm_declare_config), read by lmm_system_new into the new system:
 *   maxmin/solver:maxmin|glpk   glpk: every solve from scratch by GLPK's linear programs
 *                               (lmm_glpk.c), for debugging; slow; values agree to about the
 *                               precision P (default maxmin)
 *   maxmin/fast-path-empty, maxmin/fast-path-lone, maxmin/fast-path-bottleneck,
 *   maxmin/fast-path-full: yes|no
 *                               the solve's shortcuts (lmm_repair.c), for debugging: off, the
 *                               general pass runs instead, with the same results (bottleneck:
 *                               to rounding) (default yes)
 */
#ifndef SMPI_KERNEL_LMM_H
#define SMPI_KERNEL_LMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { LMM_SHARED, LMM_FATPIPE } lmm_sharing;

typedef struct lmm_system lmm_system;
typedef struct lmm_constraint lmm_constraint;
typedef struct lmm_variable lmm_variable;

/* Declares the maxmin/ configuration keys above (idempotent). */
void lmm_declare_config(void);

/* precision: relative tolerance used to decide saturation and changes (maxmin/precision).
 * The solver and its fast paths follow the configuration at this call. */
lmm_system *lmm_system_new(double precision);
void lmm_system_free(lmm_system *sys); /* frees all constraints and variables left */

lmm_constraint *lmm_constraint_new(lmm_system *sys, void *id, double capacity,
                                   lmm_sharing policy);
void lmm_constraint_free(lmm_system *sys, lmm_constraint *c); /* its elements are removed */
void lmm_constraint_set_capacity(lmm_system *sys, lmm_constraint *c, double capacity);
double lmm_constraint_capacity(const lmm_constraint *c);
/* Calls fn on every variable that uses c (enabled or not); fn must not change c's elements
 * (setting a bound is fine). */
void lmm_constraint_foreach_variable(lmm_constraint *c, void (*fn)(lmm_variable *v, void *arg),
                                     void *arg);
lmm_sharing lmm_constraint_sharing(const lmm_constraint *c);
void *lmm_constraint_id(const lmm_constraint *c);
/* current load: sum (SHARED) or max (FATPIPE) of coef * value over enabled elements */
double lmm_constraint_load(const lmm_constraint *c);

/* bound < 0: unbounded. elements_hint sizes the element array (it grows anyway). */
lmm_variable *lmm_variable_new(lmm_system *sys, void *id, double penalty, double bound,
                               size_t elements_hint);
void lmm_variable_free(lmm_system *sys, lmm_variable *v);
/* Add consumption coef of v on c; expanding twice on the same pair adds the coefficients. */
void lmm_expand(lmm_system *sys, lmm_constraint *c, lmm_variable *v, double coef);
void lmm_variable_set_penalty(lmm_system *sys, lmm_variable *v, double penalty);
void lmm_variable_set_bound(lmm_system *sys, lmm_variable *v, double bound);
double lmm_variable_value(const lmm_variable *v);
double lmm_variable_penalty(const lmm_variable *v);
double lmm_variable_bound(const lmm_variable *v);
void *lmm_variable_id(const lmm_variable *v);
size_t lmm_variable_element_count(const lmm_variable *v);
lmm_constraint *lmm_variable_constraint(const lmm_variable *v, size_t i, double *coef);

/* Selective solve: only what changed since the last solve. */
void lmm_solve(lmm_system *sys);
/* When the variables re-solved by lmm_solve's local repair exceed this fraction of all
 * variables, it finishes with one full pass instead (default 0.25; > 1: never). */
void lmm_set_repair_limit(lmm_system *sys, double fraction);
/* Everything, from scratch (reference for tests and benchmarks). */
void lmm_solve_full(lmm_system *sys);

/* Variables whose value changed during the last lmm_solve/lmm_solve_full, plus every
 * variable created or whose penalty/bound changed since the solve before. Valid until the
 * next modification of the system. */
size_t lmm_modified_count(const lmm_system *sys);
lmm_variable *lmm_modified_get(const lmm_system *sys, size_t i);

size_t lmm_variable_count(const lmm_system *sys);
size_t lmm_constraint_count(const lmm_system *sys);
/* iteration in creation order (for the reference solver, tests and dumps) */
lmm_variable *lmm_variable_at(const lmm_system *sys, size_t i);
lmm_constraint *lmm_constraint_at(const lmm_system *sys, size_t i);

/* Reference solver (lmm_glpk.c): the same max-min allocation computed by successive linear
 * programs with GLPK, written into values[i] for lmm_variable_at(sys, i). Slow: tests (and,
 * through lmm_solve, maxmin/solver:glpk).
 * Returns 0, or -1 if GLPK failed. */
int lmm_solve_glpk(const lmm_system *sys, double *values);
/* Loads GLPK (dlopen, once per process): 0, or -1 with what to do in err. lmm_solve_glpk
 * loads it itself; a simulation on maxmin/solver:glpk calls this at init to fail early. */
int lmm_glpk_load(char *err, size_t errlen);

/* Statistics for benchmarks: constraints and variables visited by the solves so far. */
typedef struct lmm_stats {
  unsigned long solves;
  unsigned long constraints_visited;
  unsigned long variables_visited;
  unsigned long passes;    /* progressive fillings (a local repair may need several) */
  unsigned long fallbacks; /* local repairs that spread too far and finished as a full solve */
  unsigned long fast_empty, fast_lone, fast_bottleneck; /* solves done by each fast path */
  unsigned long fast_full; /* full passes whose region one walk built (fast-path-full) */
  unsigned long lazy_skips, lazy_replays; /* links skipped by the class's walk; events
                                             replayed to them later (lmm_fast_bottleneck.c) */
} lmm_stats;
void lmm_get_stats(const lmm_system *sys, lmm_stats *out);

void lmm_dump(const lmm_system *sys, FILE *out);

/* c's load (SHARED: sum of coef * value, as kept incrementally), max_level and saturation
 * as the next solve will read them: with the lazy links' pending events applied to a copy
 * (the system is not changed). For tests that compare the bookkeeping bit for bit. */
void lmm_constraint_state(const lmm_system *sys, const lmm_constraint *c, double *load,
                          double *max_level, bool *sat);

/* For the class path (kernel/act_class.c, maxmin/class-sharing; lmm_class.c). */
size_t lmm_constraint_active_count(const lmm_constraint *c); /* enabled, coef > 0 */
bool lmm_constraint_saturated(const lmm_constraint *c);      /* at the last solve touching it */
/* One pointer per constraint for act_class.c (NULL unless a class uses it). */
void *lmm_constraint_class(const lmm_constraint *c);
void lmm_constraint_set_class(lmm_constraint *c, void *cls);
/* v's bound may bind (no constraint alone stops v before it) */
bool lmm_variable_bound_binds(const lmm_variable *v);
/* The SHARED constraint c that bottlenecks v if c and the flows on it can form a class: c is
 * v's only saturated constraint, has at least min_flows active flows, none with a bound that
 * may bind, and every other constraint of those flows is SHARED, unsaturated and carries only
 * flows of c; no constraint of theirs has a class pointer. Else NULL. Reads the last solve.
 * A c with more than max_flows flows is not examined (the probe would cost more than the
 * solve that led to it). */
lmm_constraint *lmm_class_probe(lmm_system *sys, lmm_variable *v, size_t min_flows,
                                size_t max_flows);
/* c's active variables in list order into out[0 .. count) (out: room for the active count) */
size_t lmm_constraint_active_vars(const lmm_constraint *c, lmm_variable **out);
double lmm_system_precision(const lmm_system *sys);
/* Disables v for a class (as penalty 0) without marking it for the next solve: a constraint
 * it leaves empty is reset (load 0, unsaturated), one that keeps flows is marked dirty if v
 * had a share of it while saturated. lmm_variable_set_penalty enables it again. */
void lmm_class_detach(lmm_system *sys, lmm_variable *v);
/* Flows enabled at one date, examined together (stamp: one per batch): each counts itself on
 * its constraints; one that stays on the general path taints them; a constraint all of whose
 * active flows are counted and none tainted can become the link of a class. */
void lmm_class_count(lmm_constraint *c, uint64_t stamp);
void lmm_class_taint(lmm_constraint *c, uint64_t stamp);
bool lmm_class_all_counted(const lmm_constraint *c, uint64_t stamp);

/* The exact class (lmm_xclass.c, maxmin/exact-class), for kernel/act_exact.c only: members
 * of one bottleneck that the one-bottleneck pass updates as one. Their values are written
 * at every solve as before, but they are not listed in the modified array: the caller
 * updates them as one (lmm_xclass_changed). Members [adopted, size) joined at the last solve
 * and are listed as modified; the caller adopts or drops them (truncate) before the next. */
#define LMM_XG 4 /* groups at most (one per penalty) */
void lmm_xclass_allow(lmm_system *sys, size_t min_flows);
size_t lmm_xclass_size(const lmm_system *sys);
size_t lmm_xclass_adopted(const lmm_system *sys);
void lmm_xclass_set_adopted(lmm_system *sys, size_t n);
lmm_variable *lmm_xclass_var(const lmm_system *sys, size_t i);
unsigned lmm_xclass_group(const lmm_system *sys, size_t i); /* < 4: one per penalty */
bool lmm_xclass_changed(const lmm_system *sys);
bool lmm_xclass_group_changed(const lmm_system *sys, unsigned g);
bool lmm_xclass_broken(const lmm_system *sys);
double lmm_xclass_value(const lmm_system *sys, unsigned g);
size_t lmm_variable_xindex(const lmm_variable *v); /* slot + 1 in the class, 0: none */
void lmm_xclass_remove(lmm_system *sys, size_t i); /* the last member moves to slot i */
void lmm_xclass_truncate(lmm_system *sys, size_t n);
/* After a solve that changed members flow by flow (any path but the class's): true, the
 * groups' values and changed flags taken from the members, when every group's members still
 * share one value; false (nothing changed) otherwise. */
bool lmm_xclass_resync(lmm_system *sys);
void lmm_xclass_dissolve(lmm_system *sys);

#endif
