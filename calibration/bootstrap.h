/* Uncertainty of a calibration by bootstrap: refit the model on many data sets drawn from
 * the measurements, and read intervals off the spread of the refitted parameters.
 *
 * A SKaMPI file keeps, per size, a mean, its standard error and the repetition count, not the
 * individual repetitions; so one replicate is drawn, size by size, as
 *
 *   - the observations at that size (one per run or block given) resampled with
 *     replacement: run-to-run variation, when several runs were given;
 *   - each drawn observation perturbed by a normal deviate of standard deviation
 *     sqrt(se^2 + res^2 / 12): the sampling error SKaMPI reports plus the rounding of the
 *     printed value (a uniform error over one printing step res; "0.0" is not zero spread);
 *   - the replicate's time = mean of the drawn values (as for the data).
 *
 * Every replicate is refitted from scratch (breakpoints included), so the spread covers the
 * choice of breakpoints too. The generator is src/rng.h (xoshiro256** seeded by
 * splitmix64): the same seed gives the same replicates on every machine with IEEE doubles
 * and the same libm. */
#ifndef SMPI_CALIBRATION_BOOTSTRAP_H
#define SMPI_CALIBRATION_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

#include "calibration/fit.h"
#include "src/rng.h"

/* One replicate of d's points into out[0 .. d->n). */
void boot_replicate(const fit_data *d, rng_state *r, fit_point *out);

typedef struct boot_result {
  size_t nrep;
  fit_model *models; /* one per replicate, k segments each */
} boot_result;

/* nrep replicates, each fitted with k segments and opt. Returns 0 or -1 (the options do not
 * fit the data: the same message fit_piecewise gives). */
int boot_run(const fit_data *d, size_t k, const fit_options *opt, size_t nrep, uint64_t seed,
             boot_result *out, char *err, size_t errlen);
void boot_free(boot_result *b);

typedef struct boot_interval {
  double lo, mid, hi; /* (1 - level) / 2 quantile, median, (1 + level) / 2 quantile */
} boot_interval;

/* Percentile interval of vals (NaNs ignored; all NaN gives NaNs). vals is not modified. */
boot_interval boot_interval_of(const double *vals, size_t n, double level);

#endif
