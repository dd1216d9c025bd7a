/* Reference max-min solver: the same allocation as lmm_fill.c's progressive filling, by
 * successive linear programs solved with GLPK. Written to be obviously right rather than
 * fast: the tests compare the solver with it (lmm_solve_glpk), and --cfg=maxmin/solver:glpk
 * runs a whole simulation on it (lmm_glpk_solve_system: every lmm_solve from scratch), to
 * tell a solver bug from a model bug.
 *
 * METHOD. Variables are either fixed (with a value) or unfixed. Each round solves
 *
 *     maximise t
 *     subject to  sum over unfixed v of coef*x_v <= capacity - consumption of fixed ones
 *                                                          (each SHARED constraint)
 *                 penalty_v * x_v - t >= 0                 ("level rows", each unfixed v)
 *                 0 <= x_v <= bound_v                      (when bounded)
 *                 x_v <= L_c / penalty_v                   (each FATPIPE c of v, see below)
 *
 * t* is the next level of the progressive filling. A variable whose level row has a non-zero
 * dual value cannot exceed t* / penalty in any optimal solution (complementary slackness), so
 * it is fixed there. The duals of the level rows sum to 1 (the column of t), so each round
 * fixes at least one variable. Blocked variables whose dual happens to be 0 are fixed in a
 * later round, at the same t*.
 *
 * FATPIPE is not linear in SimGrid's semantics: when the largest coef*x on it reaches the
 * capacity, all its unfixed variables stop. That happens at the level
 * L_c = min over its unfixed variables u of capacity * penalty_u / coef_u, hence the column
 * bounds above; after each round every FATPIPE with L_c <= t* freezes its unfixed variables.
 *
 * Variables disabled (penalty 0) get 0; a variable without any element of coefficient > 0
 * gets its bound, or 0 without bound (lmm_fill.c's convention).
 *
 * Each LP is solved by GLPK's floating-point primal simplex with feasibility tolerances
 * tightened to 1e-9 and automatic scaling. An optimal basis gives values accurate to about
 * 1e-13 relative on these small problems. The dual of a basic (slack) row is exactly 0; a
 * degenerate non-basic one may carry rounding noise, hence the blocking test |dual| > 1e-12
 * (genuine duals of level rows sum to 1 over at most a few dozen rows). glp_exact (rational
 * arithmetic) is deliberately not used: on some of these problems it returned a level 7e-11
 * (relative) below the optimum, with a KKT primal error of 5e-6 on its own solution, which
 * the floating simplex did not.
 *
 * TOLERANCE against the maxmin solver. On one system, both give the exact allocation to
 * about 1e-13 relative (tests/check_lmm.c: 1e-9 relative plus 1e-13 of the capacities'
 * scale, since both subtract consumptions from capacities). GLPK ignores the precision P's
 * saturation rule (rem <= P * capacity counts as full), and as a simulation's solver
 * (lmm_glpk_solve_system) it keeps a variable's old value when the new one is within P of
 * it, as lmm_commit does; so values, and the simulated dates that follow from them, agree
 * with the maxmin solver's to a few P relative (P = precision/work-amount, 1e-5 by default).
 *
 * WORKED EXAMPLE (capacities 1, penalties 1): L1 = {A, B}, L2 = {A, C}, L3 = {A, D, E}.
 *   Round 1: max t s.t. xA+xB <= 1, xA+xC <= 1, xA+xD+xE <= 1, x_v - t >= 0.
 *     t* = 1/3; the dual puts 1/3 on L3's row and 1/3 on the level rows of A, D, E (their
 *     sum is 1), 0 on B and C: A = D = E = 1/3 are fixed.
 *   Round 2: xB <= 1 - 1/3, xC <= 2/3, x_v - t >= 0: t* = 2/3, both blocked: B = C = 2/3.
 */
#include "kernel/lmm_private.h"

#include <dlfcn.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/invariant.h"
#include "src/mem.h"

/* GLPK is loaded on first use, not linked: only maxmin/solver:glpk and the tests need it, and
 * linking it made every run load seven libraries more (GLPK, AMD, COLAMD, GMP, ltdl, ...),
 * 0.3 ms of CPU per start, a tenth of an empty MPI program's. The build gives its soname. */
#ifndef SMPI_GLPK_SONAME
#define SMPI_GLPK_SONAME "libglpk.so.40"
#endif
#define GLPK_FUNCTIONS(X) \
  X(add_cols)             \
  X(add_rows)             \
  X(create_prob)          \
  X(delete_prob)          \
  X(get_obj_val)          \
  X(get_row_dual)         \
  X(get_status)           \
  X(init_smcp)            \
  X(load_matrix)          \
  X(scale_prob)           \
  X(set_col_bnds)         \
  X(set_obj_coef)         \
  X(set_obj_dir)          \
  X(set_row_bnds)         \
  X(simplex)              \
  X(term_out)

static struct glpk_api {
  bool tried;                                          /* dlopen attempted (once per process) */
  char why[512];                                       /* why it failed, empty if loaded */
#define GLPK_FIELD(name) __typeof__(&glp_##name) name; /* glp_<name> */
  GLPK_FUNCTIONS(GLPK_FIELD)
#undef GLPK_FIELD
} glpk;

int lmm_glpk_load(char *err, size_t errlen)
{
  if (!glpk.tried) {
    glpk.tried = true;
    void *lib = dlopen(SMPI_GLPK_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      snprintf(glpk.why, sizeof glpk.why,
               "maxmin/solver:glpk needs GLPK, which does not load (%s): install it "
               "(apt-get install libglpk40) or use the default maxmin/solver:maxmin",
               e ? e : SMPI_GLPK_SONAME);
    }
#define GLPK_LOOKUP(name)                                                              \
  if (lib && !glpk.why[0]) {                                                           \
    *(void **)&glpk.name = dlsym(lib, "glp_" #name);                                   \
    if (!glpk.name)                                                                    \
      snprintf(glpk.why, sizeof glpk.why,                                              \
               "maxmin/solver:glpk: %s has no glp_" #name " (a GLPK older than 4.x?)", \
               SMPI_GLPK_SONAME);                                                      \
  }
    GLPK_FUNCTIONS(GLPK_LOOKUP)
#undef GLPK_LOOKUP
  }
  if (glpk.why[0]) {
    snprintf(err, errlen, "%s", glpk.why);
    return -1;
  }
  return 0;
}

typedef struct gvar {
  lmm_variable *v;
  bool fixed;
  double value;
  int col; /* column in the current LP, 0 if absent */
  int row; /* its level row */
} gvar;

/* Index of v in creation order: sequence numbers grow with creation, so bisect on them. */
static size_t var_index(const lmm_system *sys, const lmm_variable *v)
{
  size_t lo = 0, hi = lmm_variable_count(sys);
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (lmm_variable_at(sys, mid)->ev.order <= v->ev.order)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static size_t cnst_index(const lmm_system *sys, const lmm_constraint *c)
{
  size_t lo = 0, hi = lmm_constraint_count(sys);
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (lmm_constraint_at(sys, mid)->seq <= c->seq)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static bool has_active_element(const lmm_variable *v)
{
  for (size_t k = 0; k < v->n_elems; k++)
    if (v->elems[k].coef > 0)
      return true;
  return false;
}

static int solve_lp(glp_prob *lp)
{
  glp_smcp parm;
  glpk.init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  parm.tol_bnd = 1e-9; /* relative primal and dual feasibility, default 1e-7 */
  parm.tol_dj = 1e-9;
  glpk.scale_prob(lp, GLP_SF_AUTO); /* capacities span 1 .. 1e10 */
  if (glpk.simplex(lp, &parm) != 0 || glpk.get_status(lp) != GLP_OPT)
    return -1;
  return 0;
}

int lmm_solve_glpk(const lmm_system *sys, double *values)
{
  char why[512];
  if (lmm_glpk_load(why, sizeof why) != 0)
    return -1;
  size_t n = lmm_variable_count(sys);
  size_t m = lmm_constraint_count(sys);
  gvar *g = xcalloc(n ? n : 1, sizeof *g);
  size_t unfixed = 0;
  int ret = 0;

  int term = glpk.term_out(GLP_OFF); /* global to GLPK: restored on the way out */
  for (size_t i = 0; i < n; i++) {
    lmm_variable *v = lmm_variable_at(sys, i);
    g[i].v = v;
    if (v->penalty <= 0) {
      g[i].fixed = true;
    } else if (!has_active_element(v)) {
      g[i].fixed = true;
      g[i].value = v->bound >= 0 ? v->bound : 0;
    } else {
      unfixed++;
    }
  }

  /* one LP's matrix: level rows (2 entries) + SHARED rows (one entry per element) */
  size_t nz_cap = 1, ne_total = 0;
  for (size_t i = 0; i < n; i++)
    ne_total += g[i].v->n_elems;
  nz_cap += 2 * n + ne_total;
  int *ia = xmalloc(nz_cap * sizeof *ia);
  int *ja = xmalloc(nz_cap * sizeof *ja);
  double *ar = xmalloc(nz_cap * sizeof *ar);
  double *fat_level = xmalloc((m ? m : 1) * sizeof *fat_level);

  while (unfixed > 0 && ret == 0) {
    glp_prob *lp = glpk.create_prob();
    glpk.set_obj_dir(lp, GLP_MAX);
    int ncols = 0, nrows = 0, ne = 0;

    /* FATPIPE saturation levels over the unfixed variables */
    for (size_t j = 0; j < m; j++) {
      lmm_constraint *c = lmm_constraint_at(sys, j);
      fat_level[j] = INFINITY;
      if (c->policy != LMM_FATPIPE)
        continue;
      list_foreach (it, &c->active) {
        lmm_element *e = list_entry(it, lmm_element, cnode);
        if (!g[var_index(sys, e->var)].fixed)
          fat_level[j] = fmin(fat_level[j], c->capacity * e->var->penalty / e->coef);
      }
    }

    int tcol = ++ncols;
    glpk.add_cols(lp, 1);
    glpk.set_col_bnds(lp, tcol, GLP_LO, 0, 0);
    glpk.set_obj_coef(lp, tcol, 1);
    for (size_t i = 0; i < n; i++) {
      g[i].col = g[i].row = 0;
      if (g[i].fixed)
        continue;
      lmm_variable *v = g[i].v;
      double ub = v->bound >= 0 ? v->bound : INFINITY;
      for (size_t k = 0; k < v->n_elems; k++) {
        lmm_constraint *c = v->elems[k].cnst;
        if (v->elems[k].coef > 0 && c->policy == LMM_FATPIPE) {
          ub = fmin(ub, fat_level[cnst_index(sys, c)] / v->penalty);
        }
      }
      g[i].col = ++ncols;
      glpk.add_cols(lp, 1);
      if (isinf(ub))
        glpk.set_col_bnds(lp, g[i].col, GLP_LO, 0, 0);
      else if (ub <= 0)
        glpk.set_col_bnds(lp, g[i].col, GLP_FX, 0, 0);
      else
        glpk.set_col_bnds(lp, g[i].col, GLP_DB, 0, ub);
      g[i].row = ++nrows;
      glpk.add_rows(lp, 1);
      glpk.set_row_bnds(lp, g[i].row, GLP_LO, 0, 0);
      ne++, ia[ne] = g[i].row, ja[ne] = g[i].col, ar[ne] = v->penalty;
      ne++, ia[ne] = g[i].row, ja[ne] = tcol, ar[ne] = -1;
    }
    for (size_t j = 0; j < m; j++) {
      lmm_constraint *c = lmm_constraint_at(sys, j);
      if (c->policy != LMM_SHARED)
        continue;
      double rhs = c->capacity;
      int row = 0;
      list_foreach (it, &c->active) {
        lmm_element *e = list_entry(it, lmm_element, cnode);
        gvar *gv = &g[var_index(sys, e->var)];
        if (gv->fixed) {
          rhs -= e->coef * gv->value;
          continue;
        }
        if (!row) {
          row = ++nrows;
          glpk.add_rows(lp, 1);
        }
        ne++, ia[ne] = row, ja[ne] = gv->col, ar[ne] = e->coef;
      }
      if (row)
        glpk.set_row_bnds(lp, row, GLP_UP, 0, fmax(rhs, 0));
    }
    glpk.load_matrix(lp, ne, ia, ja, ar);

    if (solve_lp(lp) != 0) {
      ret = -1;
      glpk.delete_prob(lp);
      break;
    }
    double t = glpk.get_obj_val(lp);
    size_t before = unfixed;
    for (size_t i = 0; i < n; i++) {
      if (g[i].fixed || fabs(glpk.get_row_dual(lp, g[i].row)) <= 1e-12)
        continue;
      g[i].fixed = true;
      g[i].value = t / g[i].v->penalty;
      unfixed--;
    }
    for (size_t j = 0; j < m; j++) {
      if (!(fat_level[j] <= t * (1 + 1e-12)))
        continue;
      lmm_constraint *c = lmm_constraint_at(sys, j);
      list_foreach (it, &c->active) {
        lmm_element *e = list_entry(it, lmm_element, cnode);
        gvar *gv = &g[var_index(sys, e->var)];
        if (!gv->fixed) {
          gv->fixed = true;
          gv->value = t / gv->v->penalty;
          unfixed--;
        }
      }
    }
    glpk.delete_prob(lp);
    if (unfixed == before)
      ret = -1; /* no dual away from 0: the LP solution is degenerate beyond repair */
  }

  for (size_t i = 0; i < n; i++)
    values[i] = g[i].value;
  glpk.term_out(term);
  free(fat_level);
  free(ia);
  free(ja);
  free(ar);
  free(g);
  return ret;
}

void lmm_glpk_solve_system(lmm_system *sys)
{
  size_t n = lmm_variable_count(sys);
  double *values = xmalloc((n ? n : 1) * sizeof *values);
  ASSERTF(lmm_solve_glpk(sys, values) == 0,
          "GLPK failed on a max-min system of %zu variables and %zu constraints "
          "(maxmin/solver:glpk is for debugging; the default, maxmin, does not use GLPK)",
          n, lmm_constraint_count(sys));
  for (size_t i = 0; i < n; i++) {
    lmm_variable *v = lmm_variable_at(sys, i);
    if (!lmm_value_changed(sys, values[i], v->value))
      continue; /* as lmm_commit: rounding noise does not re-key activities */
    v->value = values[i];
    if (v->mod_mark != sys->solve_no) {
      v->mod_mark = sys->solve_no;
      XGROW(sys->modified, sys->cap_modified, sys->n_modified + 1);
      sys->modified[sys->n_modified++] = v;
    }
  }
  free(values);
  /* What the maxmin solver keeps between solves, kept here too so that the system stays
   * one the other solver could take over: load, max_level, saturation. */
  double p = sys->precision;
  list_foreach (it, &sys->constraints) {
    lmm_constraint *c = list_entry(it, lmm_constraint, all_node);
    double load = 0, max_level = 0;
    list_foreach (m, &c->active) {
      const lmm_element *e = list_entry(m, lmm_element, cnode);
      double x = e->coef * e->var->value;
      if (c->policy == LMM_SHARED)
        load += x;
      else if (x > load)
        load = x;
      if (e->var->value * e->var->penalty > max_level)
        max_level = e->var->value * e->var->penalty;
    }
    c->sat = load >= c->capacity * (1 - p);
    c->load = c->policy == LMM_SHARED ? load : 0;
    c->max_level = max_level;
  }
  sys->stats.passes++;
  sys->stats.constraints_visited += sys->n_cnsts;
  sys->stats.variables_visited += n;
}
