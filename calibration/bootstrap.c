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

static uint64_t splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void boot_rng_seed(boot_rng *r, uint64_t seed)
{
  for (int i = 0; i < 4; i++)
    r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

uint64_t boot_rng_next(boot_rng *r)
{
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double boot_rng_uniform(boot_rng *r)
{
  return (double)(boot_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Box-Muller; one of the pair is dropped so that each call consumes the same amount of the
 * stream, which keeps replicates reproducible whatever the call pattern. */
double boot_rng_normal(boot_rng *r)
{
  double u1 = 1.0 - boot_rng_uniform(r); /* (0, 1]: log is finite */
  double u2 = boot_rng_uniform(r);
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

void boot_replicate(const fit_data *d, boot_rng *r, fit_point *out)
{
  for (size_t i = 0; i < d->n; i++) {
    size_t first = d->first[i], m = d->first[i + 1] - first;
    double sum = 0;
    for (size_t j = 0; j < m; j++) {
      const fit_obs *o = &d->obs[first + (m > 1 ? (size_t)(boot_rng_uniform(r) * (double)m) : 0)];
      double sd = sqrt(o->se * o->se + o->res * o->res / 12.0);
      sum += o->t + sd * boot_rng_normal(r);
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
  boot_rng rng;
  boot_rng_seed(&rng, seed);
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
