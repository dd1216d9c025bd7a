/* Parametric + resampling bootstrap (the scheme is described in bootstrap.h). */
#include "calibration/bootstrap.h"

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

LOG_NEW_SUBCATEGORY(bootstrap, calibration, "bootstrap of the calibration");
LOG_DEFAULT_CATEGORY(bootstrap);

void boot_replicate(const fit_data *d, rng_state *r, fit_point *out)
{
  for (size_t i = 0; i < d->n; i++) {
    size_t first = d->first[i], m = d->first[i + 1] - first;
    double sum = 0;
    for (size_t j = 0; j < m; j++) {
      const fit_obs *o = &d->obs[first + (m > 1 ? (size_t)(rng_uniform(r) * (double)m) : 0)];
      double sd = sqrt(o->se * o->se + o->res * o->res / 12.0);
      sum += o->t + sd * rng_normal(r);
    }
    out[i] = d->pts[i];
    double t = sum / (double)m;
    /* a draw at or below zero (tiny times, wide noise) has no logarithm: keep it positive,
     * at the same floor fit_data_build uses for a printed 0.0 */
    double floor_t = (d->pts[i].res > 0 ? d->pts[i].res : 1e-3) / 4;
    out[i].t = t > floor_t ? t : floor_t;
  }
}

int boot_run(const fit_data *d, size_t k, const fit_options *opt, size_t nrep, uint64_t seed,
             boot_result *out, char *err, size_t errlen)
{
  *out = (boot_result){0};
  rng_state rng;
  rng_seed(&rng, seed);
  fit_point *pts = xmalloc((d->n ? d->n : 1) * sizeof *pts);
  out->models = xmalloc((nrep ? nrep : 1) * sizeof *out->models);
  for (size_t rep = 0; rep < nrep; rep++) {
    boot_replicate(d, &rng, pts);
    if (fit_piecewise(pts, d->n, k, opt, &out->models[rep], err, errlen) != 0) {
      free(pts);
      boot_free(out);
      return -1;
    }
    out->nrep = rep + 1;
    if ((rep + 1) % 100 == 0)
      LOG_VERB("%zu / %zu replicates", rep + 1, nrep);
  }
  free(pts);
  return 0;
}

void boot_free(boot_result *b)
{
  free(b->models);
  *b = (boot_result){0};
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear interpolation between order statistics (Hyndman & Fan's type 7, R's default). */
static double quantile_sorted(const double *v, size_t n, double q)
{
  double h = (double)(n - 1) * q;
  size_t lo = (size_t)floor(h);
  if (lo + 1 >= n)
    return v[n - 1];
  return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

boot_interval boot_interval_of(const double *vals, size_t n, double level)
{
  ASSERT(level > 0 && level < 1);
  double *v = xmalloc((n ? n : 1) * sizeof *v);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(vals[i]))
      v[m++] = vals[i];
  boot_interval iv = {NAN, NAN, NAN};
  if (m > 0) {
    qsort(v, m, sizeof *v, cmp_double);
    iv.lo = quantile_sorted(v, m, (1 - level) / 2);
    iv.mid = quantile_sorted(v, m, 0.5);
    iv.hi = quantile_sorted(v, m, (1 + level) / 2);
  }
  free(v);
  return iv;
}
