/* Reports of a calibration: the per-size comparison of the measured times with the three
 * models (piecewise fit, best-fit affine, default affine) and their logarithmic errors, as a
 * text table, a CSV file and the log-log figure (the SMPI paper's Figure 3), plus the
 * per-segment parameters with bootstrap intervals.
 *
 * Logarithmic error: err = |ln measured - ln predicted|, shown as e^err - 1 in percent (a
 * prediction twice or half the measurement is 100 % either way). All times are one way. */
#ifndef SMPI_CALIBRATION_REPORT_H
#define SMPI_CALIBRATION_REPORT_H

#include <stdio.h>

#include "calibration/bootstrap.h"
#include "calibration/fit.h"

typedef struct report_eval {
  const fit_point *pts; /* not owned */
  size_t n;
  double *pw, *af, *df; /* predictions (us): piecewise, best-fit affine, default affine */
  double pw_mean, pw_worst, af_mean, af_worst, df_mean, df_worst; /* log errors */
} report_eval;

void report_eval_compute(report_eval *e, const fit_point *pts, size_t n, const fit_model *pw,
                         const fit_model *affine, const fit_link *l);
void report_eval_free(report_eval *e);

/* e^err - 1, in percent */
double report_pct(double logerr);

/* Per-size prediction intervals of the piecewise model over the bootstrap replicates (n
 * entries; free the result). */
boot_interval *report_prediction_intervals(const report_eval *e, const boot_result *b,
                                           double level);

/* iv may be NULL (no bootstrap). */
void report_table(FILE *out, const report_eval *e, const boot_interval *iv, double level);
void report_csv(FILE *out, const report_eval *e, const boot_interval *iv);
/* Segments with latency, bandwidth and factors; with b, their intervals and how stable the
 * breakpoints were over the replicates. */
void report_segments(FILE *out, const fit_model *m, const fit_link *l, const boot_result *b,
                     double level);
/* Writes base.svg and base.png. b may be NULL. */
int report_plot(const char *base, const char *title, const report_eval *e, const fit_model *pw,
                const fit_model *affine, const fit_link *l, const boot_result *b, double level,
                char *err, size_t errlen);

#endif
