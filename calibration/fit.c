/* Segmented regression (model and notation in fit.h).
 *
 * Breakpoint search, for n measured sizes and K segments, is a dynamic programme over the
 * index of the last point of each prefix:
 *
 *   D[1][j] = cost(0, j)
 *   D[k][j] = min over i of D[k-1][i-1] + cost(i, j)      (i - 1 >= k-1 segments' worth)
 *
 * with cost(i, j) = -ln r(i..j) for the paper's criterion (so the sum is minus the log of
 * the product of the correlation coefficients) or the sum of the log errors of the points
 * i..j under the segment's own fit for the log-error criterion. Both are sums over segments,
 * which is what makes the programme exact; it costs O(K n^2) segment costs. A continuity
 * constraint couples neighbouring segments and breaks that additivity: with it, the log-error
 * criterion enumerates every admissible set of breakpoints instead (the paper's criterion
 * does not depend on the fitted lines, so its breakpoints are still the programme's).
 *
 * From fitted segments to the simulator's factors, worked example (segment starting at the
 * measured size 16384 B; route latency L = 1 us, rate B = 1.25e9 B/s; fit lat = 3.9 us,
 * inv_bw = 2e-4 us/B):
 *
 *   lat_factor = 3.9 us / 1 us = 3.9          bw_factor = 1 / (2e-10 s/B * 1.25e9 B/s) = 4
 *   threshold  = 16384 + 16 - 1 = 16399
 *
 * The simulator applies the section with the largest threshold STRICTLY below the payload
 * (size + 16). A 16384-byte message has payload 16400 > 16399: it gets this section. A
 * 16383-byte message has payload 16399, not strictly below: it keeps the lower section, as the
 * model says (sizes under a segment's first measured size belong to the segment below). The
 * simulated one-way time of 16384 B is then 1 us * 3.9 + 16400 B / (1.25e9 B/s * 4) =
 * 3.9 us + 3.28 us = 7.18 us = lat + inv_bw * (16384 + 16), the fitted value. The first
 * segment gets threshold 0, below every payload (>= 16). */
#include "calibration/fit.h"

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_NEW_CATEGORY(calibration, "smpi-calibrate: fitting the network model to measurements");
LOG_DEFAULT_CATEGORY(calibration);

/* A segment whose correlation is <= 0 (a flat run of points, noisy or constant) is not
 * excluded by the paper's criterion, only made very unattractive; excluding it could leave
 * no admissible segmentation at all. */
#define R_FLOOR 1e-6
/* Above this many breakpoint sets the exhaustive search (continuous + logerr) gives up. */
#define MAX_COMBINATIONS 20000

static const char *const reg_names[] = {"ls", "rel", "lad", "rel-lad"};
static const char *const crit_names[] = {"corr", "logerr"};

int fit_regression_parse(const char *s)
{
  for (int i = 0; i < 4; i++)
    if (strcmp(s, reg_names[i]) == 0)
      return i;
  return -1;
}

int fit_criterion_parse(const char *s)
{
  for (int i = 0; i < 2; i++)
    if (strcmp(s, crit_names[i]) == 0)
      return i;
  return -1;
}

const char *fit_regression_name(fit_regression r)
{
  ASSERT((unsigned)r < 4);
  return reg_names[r];
}

const char *fit_criterion_name(fit_criterion c)
{
  ASSERT((unsigned)c < 2);
  return crit_names[c];
}

/* ---- data ---------------------------------------------------------------------------- */

typedef struct obs_key {
  double size;
  size_t index;
} obs_key;

static int cmp_obs_key(const void *a, const void *b)
{
  const obs_key *x = a, *y = b;
  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index; /* stable: input order */
}

void fit_data_build(fit_data *d, const fit_obs *obs, size_t nobs)
{
  *d = (fit_data){0};
  obs_key *keys = xmalloc((nobs ? nobs : 1) * sizeof *keys);
  for (size_t i = 0; i < nobs; i++)
    keys[i] = (obs_key){obs[i].size, i};
  qsort(keys, nobs, sizeof *keys, cmp_obs_key);
  d->obs = xmalloc((nobs ? nobs : 1) * sizeof *d->obs);
  d->nobs = nobs;
  for (size_t i = 0; i < nobs; i++) {
    fit_obs o = obs[keys[i].index];
    if (!(o.t > 0)) {
      double repl = (o.res > 0 ? o.res : 1e-3) / 4;
      LOG_WARN("%s: time %g us at %g B is below the printing resolution; using %g us (a "
               "logarithmic error needs a positive time)",
               o.src ? o.src : "?", o.t, o.size, repl);
      o.t = repl;
    }
    d->obs[i] = o;
  }
  free(keys);
  d->pts = xmalloc((nobs ? nobs : 1) * sizeof *d->pts);
  d->first = xmalloc((nobs + 1) * sizeof *d->first);
  for (size_t i = 0; i < nobs;) {
    size_t j = i;
    double st = 0, sse = 0, res = 0;
    while (j < nobs && d->obs[j].size == d->obs[i].size) {
      st += d->obs[j].t;
      sse += d->obs[j].se * d->obs[j].se;
      if (d->obs[j].res > res)
        res = d->obs[j].res;
      j++;
    }
    double m = (double)(j - i);
    d->first[d->n] = i;
    d->pts[d->n++] = (fit_point){
        .size = d->obs[i].size, .t = st / m, .se = sqrt(sse) / m, .res = res, .nobs = j - i};
    i = j;
  }
  d->first[d->n] = nobs;
}

void fit_data_free(fit_data *d)
{
  free(d->pts);
  free(d->obs);
  free(d->first);
  *d = (fit_data){0};
}

/* ---- errors and correlation ---------------------------------------------------------- */

double fit_log_error(double measured, double predicted)
{
  if (!(predicted > 0) || !(measured > 0))
    return INFINITY;
  return fabs(log(measured) - log(predicted));
}

void fit_errors(const fit_point *pts, size_t n, const double *pred, double *mean, double *worst)
{
  double sum = 0, w = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fit_log_error(pts[i].t, pred[i]);
    sum += e;
    if (e > w)
      w = e;
  }
  *mean = n ? sum / (double)n : 0;
  *worst = w;
}

double fit_correlation(const fit_point *pts, size_t first, size_t last)
{
  ASSERT(last > first);
  double n = (double)(last - first + 1), mx = 0, my = 0;
  for (size_t i = first; i <= last; i++) {
    mx += pts[i].size;
    my += pts[i].t;
  }
  mx /= n;
  my /= n;
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = first; i <= last; i++) {
    double dx = pts[i].size - mx, dy = pts[i].t - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  ASSERTF(sxx > 0, "segment of identical sizes (%g B)", pts[first].size);
  /* Constant times (a latency floor printed as "0.3" at every size) have no linear
   * association to measure: r is undefined. Counting them as r = 1 lets the paper's
   * criterion reward the rounding of the printed values (it then cuts the floor into
   * "perfect" flat segments, and any replicate with a little noise disagrees); counting them
   * as r = 0 makes a flat run join a neighbouring trend, as it does once noise is added. */
  if (syy == 0)
    return 0.0;
  return sxy / sqrt(sxx * syy);
}

/* ---- per-segment regressions --------------------------------------------------------- */

static double weight(const fit_point *p, bool rel) { return rel ? 1.0 / (p->t * p->t) : 1.0; }

static double sse_of(const fit_point *pts, size_t first, size_t last, bool rel, double lat,
                     double inv_bw)
{
  double s = 0;
  for (size_t i = first; i <= last; i++) {
    double r = pts[i].t - lat - inv_bw * (pts[i].size + FIT_ENVELOPE);
    s += weight(&pts[i], rel) * r * r;
  }
  return s;
}

/* Weighted least squares of t = lat + inv_bw * payload subject to lat >= 0, inv_bw >= 0.
 * A convex problem in two variables: if the free optimum is feasible it is the answer;
 * otherwise the optimum lies on one of the two bounds, where the problem has one variable
 * and a closed form (and, all times being positive, that form is feasible). */
static void fit_ls(const fit_point *pts, size_t first, size_t last, bool rel, double *lat,
                   double *inv_bw)
{
  double sw = 0, sp = 0, sy = 0;
  for (size_t i = first; i <= last; i++) {
    double w = weight(&pts[i], rel);
    sw += w;
    sp += w * (pts[i].size + FIT_ENVELOPE);
    sy += w * pts[i].t;
  }
  double pm = sp / sw, ym = sy / sw, sxx = 0, sxy = 0, swpp = 0, swpy = 0;
  for (size_t i = first; i <= last; i++) {
    double w = weight(&pts[i], rel), p = pts[i].size + FIT_ENVELOPE;
    sxx += w * (p - pm) * (p - pm);
    sxy += w * (p - pm) * (pts[i].t - ym);
    swpp += w * p * p;
    swpy += w * p * pts[i].t;
  }
  ASSERT(sxx > 0);
  double b = sxy / sxx, a = ym - b * pm;
  if (a >= 0 && b >= 0) {
    *lat = a;
    *inv_bw = b;
    return;
  }
  double b0 = swpy / swpp; /* lat = 0 */
  double a0 = ym;          /* inv_bw = 0 */
  if (sse_of(pts, first, last, rel, 0, b0) <= sse_of(pts, first, last, rel, a0, 0)) {
    *lat = 0;
    *inv_bw = b0;
  } else {
    *lat = a0;
    *inv_bw = 0;
  }
}

/* Least absolute (relative) deviation of nseg segments at once, as one LP:
 *
 *   min  sum_i w_i (u_i + v_i)
 *   s.t. c_k + q_k x_i + u_i - v_i = t_i        i in segment k (u_i - v_i: the residual)
 *        c_k + q_k X_k - c_{k+1} - q_{k+1} X_k = 0     (continuous: meet at the boundary)
 *        c_k, q_k, u_i, v_i >= 0
 *
 * x_i = payload_i / scale keeps the columns of comparable magnitude (payloads span 1 B to
 * MiBs); inv_bw_k = q_k / scale. w_i = 1 (LAD) or 1 / t_i (relative deviation). One equality
 * row per point (rather than two inequalities with one |residual| column) keeps the basis
 * small: the bootstrap solves hundreds of thousands of these. */
static void fit_lad(const fit_point *pts, const size_t *seg_first, const size_t *seg_last,
                    size_t nseg, bool rel, bool continuous, double *lat, double *inv_bw)
{
  size_t p0 = seg_first[0], p1 = seg_last[nseg - 1], np = p1 - p0 + 1;
  double scale = pts[p1].size + FIT_ENVELOPE;
  glp_prob *lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  int ncols = (int)(2 * nseg + 2 * np);
  glp_add_cols(lp, ncols);
  for (int c = 1; c <= ncols; c++)
    glp_set_col_bnds(lp, c, GLP_LO, 0.0, 0.0);
  size_t nrows = np + (continuous ? nseg - 1 : 0);
  glp_add_rows(lp, (int)nrows);
  size_t nnz = 4 * np + 4 * (nseg - 1) + 1;
  int *ia = xmalloc(nnz * sizeof *ia), *ja = xmalloc(nnz * sizeof *ja);
  double *ar = xmalloc(nnz * sizeof *ar);
  size_t z = 1;
  int row = 1;
  for (size_t k = 0; k < nseg; k++) {
    int cc = (int)(2 * k + 1), cq = cc + 1;
    for (size_t i = seg_first[k]; i <= seg_last[k]; i++, row++) {
      int cu = (int)(2 * nseg + 2 * (i - p0) + 1), cv = cu + 1;
      double w = rel ? 1.0 / pts[i].t : 1.0;
      glp_set_obj_coef(lp, cu, w);
      glp_set_obj_coef(lp, cv, w);
      glp_set_row_bnds(lp, row, GLP_FX, pts[i].t, pts[i].t);
      ia[z] = row, ja[z] = cc, ar[z++] = 1.0;
      ia[z] = row, ja[z] = cq, ar[z++] = (pts[i].size + FIT_ENVELOPE) / scale;
      ia[z] = row, ja[z] = cu, ar[z++] = 1.0;
      ia[z] = row, ja[z] = cv, ar[z++] = -1.0;
    }
  }
  if (continuous) {
    for (size_t k = 0; k + 1 < nseg; k++, row++) {
      double X = (pts[seg_first[k + 1]].size + FIT_ENVELOPE) / scale;
      int cc = (int)(2 * k + 1);
      glp_set_row_bnds(lp, row, GLP_FX, 0.0, 0.0);
      ia[z] = row, ja[z] = cc, ar[z++] = 1.0;
      ia[z] = row, ja[z] = cc + 1, ar[z++] = X;
      ia[z] = row, ja[z] = cc + 2, ar[z++] = -1.0;
      ia[z] = row, ja[z] = cc + 3, ar[z++] = -X;
    }
  }
  glp_load_matrix(lp, (int)(z - 1), ia, ja, ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  int rc = glp_simplex(lp, &parm);
  /* always feasible (the residual columns absorb anything) and bounded (objective >= 0):
   * anything else is a bug */
  ASSERTF(rc == 0 && glp_get_status(lp) == GLP_OPT, "GLPK: simplex returned %d, status %d", rc,
          glp_get_status(lp));
  for (size_t k = 0; k < nseg; k++) {
    lat[k] = fmax(0.0, glp_get_col_prim(lp, (int)(2 * k + 1)));
    inv_bw[k] = fmax(0.0, glp_get_col_prim(lp, (int)(2 * k + 2))) / scale;
  }
  free(ia);
  free(ja);
  free(ar);
  glp_delete_prob(lp);
}

static bool reg_is_lad(fit_regression r) { return r == FIT_REG_LAD || r == FIT_REG_REL_LAD; }

static bool reg_is_rel(fit_regression r) { return r == FIT_REG_REL || r == FIT_REG_REL_LAD; }

static void fit_segment_line(const fit_point *pts, size_t first, size_t last, fit_regression reg,
                             double *lat, double *inv_bw)
{
  if (reg_is_lad(reg))
    fit_lad(pts, &first, &last, 1, reg_is_rel(reg), false, lat, inv_bw);
  else
    fit_ls(pts, first, last, reg_is_rel(reg), lat, inv_bw);
}

static double seg_log_error_sum(const fit_point *pts, size_t first, size_t last, double lat,
                                double inv_bw)
{
  double s = 0;
  for (size_t i = first; i <= last; i++)
    s += fit_log_error(pts[i].t, lat + inv_bw * (pts[i].size + FIT_ENVELOPE));
  return s;
}

/* ---- breakpoint search ------------------------------------------------------------- */

size_t fit_max_segments(size_t n, size_t kmax, size_t min_points)
{
  size_t k = min_points ? n / min_points : 0;
  if (k > kmax)
    k = kmax;
  if (k > FIT_MAX_SEGMENTS)
    k = FIT_MAX_SEGMENTS;
  return k;
}

typedef struct seg_cost {
  double cost, lat, inv_bw;
  bool done;
} seg_cost;

typedef struct search {
  const fit_point *pts;
  size_t n, m;
  const fit_options *opt;
  seg_cost *cost; /* n x n, lazily filled */
} search;

static seg_cost *cost_of(search *s, size_t i, size_t j)
{
  seg_cost *c = &s->cost[i * s->n + j];
  if (c->done)
    return c;
  c->done = true;
  if (s->opt->criterion == FIT_CRIT_CORR) {
    c->cost = -log(fmax(fit_correlation(s->pts, i, j), R_FLOOR));
    c->lat = c->inv_bw = NAN; /* fitted later, for the chosen segments only */
  } else {
    fit_segment_line(s->pts, i, j, s->opt->regression, &c->lat, &c->inv_bw);
    c->cost = seg_log_error_sum(s->pts, i, j, c->lat, c->inv_bw);
  }
  return c;
}

/* Fills starts[0..k) with the first point of each segment (starts[0] = 0). */
static void dp_breakpoints(search *s, size_t k, size_t *starts)
{
  size_t n = s->n, m = s->m;
  double *D = xmalloc(k * n * sizeof *D);
  size_t *arg = xmalloc(k * n * sizeof *arg);
  for (size_t x = 0; x < k * n; x++)
    D[x] = INFINITY, arg[x] = 0;
  for (size_t j = m - 1; j < n; j++)
    D[j] = cost_of(s, 0, j)->cost;
  for (size_t kk = 1; kk < k; kk++) {
    for (size_t j = (kk + 1) * m - 1; j < n; j++) {
      double best = INFINITY;
      size_t besti = 0;
      /* last segment = i..j with i >= kk*m (room for kk segments before it) */
      for (size_t i = kk * m; i + m <= j + 1; i++) {
        double v = D[(kk - 1) * n + i - 1];
        if (v == INFINITY)
          continue;
        v += cost_of(s, i, j)->cost;
        if (v < best) {
          best = v;
          besti = i;
        }
      }
      D[kk * n + j] = best;
      arg[kk * n + j] = besti;
    }
  }
  size_t j = n - 1;
  for (size_t kk = k - 1; kk > 0; kk--) {
    starts[kk] = arg[kk * n + j];
    ASSERT(starts[kk] > 0);
    j = starts[kk] - 1;
  }
  starts[0] = 0;
  free(D);
  free(arg);
}

static void fill_model(const fit_point *pts, size_t n, size_t k, const size_t *starts,
                       const double *lat, const double *inv_bw, fit_model *out)
{
  out->nseg = k;
  for (size_t s = 0; s < k; s++) {
    fit_segment *g = &out->seg[s];
    g->first = starts[s];
    g->last = s + 1 < k ? starts[s + 1] - 1 : n - 1;
    g->start = s == 0 ? 0 : pts[g->first].size;
    g->lat = lat[s];
    g->inv_bw = fmax(inv_bw[s], FIT_MIN_INV_BW); /* the model is exactly what is emitted */
    g->r = fit_correlation(pts, g->first, g->last);
  }
}

static double mean_log_error(const fit_point *pts, size_t n, const fit_model *m)
{
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += fit_log_error(pts[i].t, fit_predict(m, pts[i].size));
  return sum / (double)n;
}

static void joint_fit(const fit_point *pts, size_t n, size_t k, const size_t *starts,
                      const fit_options *opt, double *lat, double *inv_bw)
{
  size_t first[FIT_MAX_SEGMENTS], last[FIT_MAX_SEGMENTS];
  for (size_t s = 0; s < k; s++) {
    first[s] = starts[s];
    last[s] = s + 1 < k ? starts[s + 1] - 1 : n - 1;
  }
  fit_lad(pts, first, last, k, reg_is_rel(opt->regression), true, lat, inv_bw);
}

/* Every admissible breakpoint set, in lexicographic order; calls back with each. */
typedef struct enum_state {
  const fit_point *pts;
  size_t n, k, m;
  const fit_options *opt;
  size_t starts[FIT_MAX_SEGMENTS], best[FIT_MAX_SEGMENTS];
  double best_score;
} enum_state;

static void enumerate(enum_state *e, size_t seg)
{
  if (seg == e->k) {
    double lat[FIT_MAX_SEGMENTS], inv_bw[FIT_MAX_SEGMENTS];
    fit_model mdl;
    joint_fit(e->pts, e->n, e->k, e->starts, e->opt, lat, inv_bw);
    fill_model(e->pts, e->n, e->k, e->starts, lat, inv_bw, &mdl);
    double score = mean_log_error(e->pts, e->n, &mdl);
    if (score < e->best_score) {
      e->best_score = score;
      memcpy(e->best, e->starts, sizeof e->best);
    }
    return;
  }
  size_t lo = e->starts[seg - 1] + e->m;
  for (size_t i = lo; i + (e->k - seg) * e->m <= e->n; i++) {
    e->starts[seg] = i;
    enumerate(e, seg + 1);
  }
}

/* C(n - k*m + k - 1, k - 1): the number of admissible breakpoint sets, saturated. */
static double count_combinations(size_t n, size_t k, size_t m)
{
  double free_slots = (double)(n - k * m) + (double)(k - 1), c = 1;
  for (size_t i = 1; i < k; i++)
    c = c * (free_slots - (double)(i - 1)) / (double)i;
  return c;
}

int fit_piecewise(const fit_point *pts, size_t n, size_t k, const fit_options *opt,
                  fit_model *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out); /* unused segments too: models compare bytewise */
  size_t m = opt->min_points;
  if (m < 2) {
    snprintf(err, errlen, "at least 2 points per segment are needed to fit a line (got %zu)", m);
    return -1;
  }
  if (k < 1 || k > FIT_MAX_SEGMENTS) {
    snprintf(err, errlen, "%zu segments: between 1 and %d are supported", k, FIT_MAX_SEGMENTS);
    return -1;
  }
  if (k * m > n) {
    snprintf(err, errlen,
             "%zu segments of at least %zu sizes need %zu measured sizes, the "
             "data have %zu",
             k, m, k * m, n);
    return -1;
  }
  if (opt->continuous && !reg_is_lad(opt->regression)) {
    snprintf(err, errlen,
             "continuous fits are linear programs: use the lad or rel-lad "
             "regression (not %s)",
             fit_regression_name(opt->regression));
    return -1;
  }
  for (size_t i = 1; i < n; i++)
    ASSERTF(pts[i].size > pts[i - 1].size, "points not sorted by increasing size");

  size_t starts[FIT_MAX_SEGMENTS];
  double lat[FIT_MAX_SEGMENTS], inv_bw[FIT_MAX_SEGMENTS];
  if (opt->continuous && opt->criterion == FIT_CRIT_LOGERR) {
    double combos = count_combinations(n, k, m);
    if (combos > MAX_COMBINATIONS) {
      snprintf(err, errlen,
               "a continuous log-error fit tries every set of breakpoints: %.0f "
               "sets for %zu segments over %zu sizes is too many (limit %d); "
               "use fewer segments, a larger --min-points or --criterion=corr",
               combos, k, n, MAX_COMBINATIONS);
      return -1;
    }
    enum_state e = {.pts = pts, .n = n, .k = k, .m = m, .opt = opt, .best_score = INFINITY};
    e.starts[0] = 0;
    enumerate(&e, 1);
    memcpy(starts, e.best, sizeof starts);
    joint_fit(pts, n, k, starts, opt, lat, inv_bw);
  } else {
    search s = {.pts = pts, .n = n, .m = m, .opt = opt};
    s.cost = xcalloc(n * n, sizeof *s.cost);
    dp_breakpoints(&s, k, starts);
    if (opt->continuous) {
      joint_fit(pts, n, k, starts, opt, lat, inv_bw);
    } else {
      for (size_t g = 0; g < k; g++) {
        size_t last = g + 1 < k ? starts[g + 1] - 1 : n - 1;
        seg_cost *c = cost_of(&s, starts[g], last);
        if (isnan(c->lat))
          fit_segment_line(pts, starts[g], last, opt->regression, &c->lat, &c->inv_bw);
        lat[g] = c->lat;
        inv_bw[g] = c->inv_bw;
      }
    }
    free(s.cost);
  }
  fill_model(pts, n, k, starts, lat, inv_bw, out);
  if (opt->criterion == FIT_CRIT_CORR) {
    out->score = 1;
    for (size_t g = 0; g < k; g++)
      out->score *= fmax(out->seg[g].r, 0.0);
  } else {
    out->score = mean_log_error(pts, n, out);
  }
  return 0;
}

/* ---- using a model ----------------------------------------------------------------- */

const fit_segment *fit_segment_of(const fit_model *m, double size)
{
  ASSERT(m->nseg > 0);
  size_t s = 0;
  while (s + 1 < m->nseg && m->seg[s + 1].start <= size)
    s++;
  return &m->seg[s];
}

double fit_predict(const fit_model *m, double size)
{
  const fit_segment *g = fit_segment_of(m, size);
  return g->lat + g->inv_bw * (size + FIT_ENVELOPE);
}

size_t fit_detect_switch(const fit_model *m, double min_ratio, double *ratio)
{
  size_t best = 0;
  double best_ratio = 0;
  for (size_t s = 1; s < m->nseg; s++) {
    double x = m->seg[s].start + FIT_ENVELOPE;
    double before = m->seg[s - 1].lat + m->seg[s - 1].inv_bw * x;
    double after = m->seg[s].lat + m->seg[s].inv_bw * x;
    double q = before > 0 ? after / before : INFINITY;
    if (q >= min_ratio && q > best_ratio) {
      best = s;
      best_ratio = q;
    }
  }
  if (ratio)
    *ratio = best_ratio;
  return best;
}

double fit_link_rate(const fit_link *l)
{
  double rate = l->bw;
  if (l->tcp_gamma > 0 && l->lat > 0 && l->tcp_gamma / (2 * l->lat) < rate)
    rate = l->tcp_gamma / (2 * l->lat);
  return rate;
}

double fit_default_affine(const fit_link *l, double size)
{
  return 1e6 * (l->lat + (size + FIT_ENVELOPE) / fit_link_rate(l));
}

double fit_lat_factor(const fit_segment *s, const fit_link *l) { return s->lat * 1e-6 / l->lat; }

double fit_bw_factor(const fit_segment *s, const fit_link *l)
{
  return 1.0 / (fmax(s->inv_bw, FIT_MIN_INV_BW) * 1e-6 * fit_link_rate(l));
}

double fit_factor_threshold(const fit_segment *s)
{
  return s->start == 0 ? 0 : s->start + FIT_ENVELOPE - 1;
}
