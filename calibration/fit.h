/* Piecewise-linear model of the one-way time of a message, fitted to ping-pong data, and its
 * translation into the simulator's terms.
 *
 * Model (the SMPI paper's, Clauss et al. IPDPS 2011, in the simulator's coordinates): the
 * sizes are cut into K segments; segment i covers sizes [start_i, start_{i+1}) and predicts
 *
 *     t(size) = lat_i + inv_bw_i * (size + 16)          microseconds, one way
 *
 * where size + 16 is the simulator's payload (the MPI envelope, see "The model the references
 * show" in tools/simgrid-ref/README.md). Writing the model over the payload instead of the bare
 * size is what lets the emitted factors reproduce it exactly: the simulator charges
 * route_latency * lat_factor(payload) + payload / (route_bandwidth * bw_factor(payload)), so
 *
 *     lat_factor_i = lat_i / route_latency        bw_factor_i = 1 / (inv_bw_i * rate)
 *
 * with rate = min(route_bandwidth, TCP_gamma / (2 * route_latency)). Every fit is constrained
 * to lat_i >= 0 and inv_bw_i >= 0 (a negative latency factor or bandwidth has no meaning in
 * the simulator), so whatever the fit returns is representable.
 *
 * Segment boundaries sit on measured sizes: start_0 = 0 and start_i (i > 0) is the first
 * measured size of segment i, so the sizes between two measured points belong to the lower
 * segment. Boundaries are chosen by dynamic programming over the measured sizes, with either
 * the paper's criterion (maximise the product of the segments' correlation coefficients) or
 * the minimum mean logarithmic error; each segment needs at least min_points sizes.
 *
 * The per-segment regression is ordinary least squares (the paper's), least squares on
 * relative residuals (weights 1/t^2, a close proxy for the log error), or least absolute
 * (relative) deviation solved as a linear program with GLPK. With `continuous`, neighbouring
 * segments must meet at the boundary (one joint GLPK LP, LAD regressions only). */
#ifndef SMPI_CALIBRATION_FIT_H
#define SMPI_CALIBRATION_FIT_H

#include <stdbool.h>
#include <stddef.h>

#define FIT_MAX_SEGMENTS 16
#define FIT_ENVELOPE 16.0 /* bytes the simulator adds to every message */
/* A flat segment (inv_bw = 0) would need an infinite bandwidth factor: fitted models use at
 * least 1e-12 us/B (1 EB/s), which changes a 4 MiB message's time by 4 ps. Reports show such
 * a segment's bandwidth as infinite. */
#define FIT_MIN_INV_BW 1e-12

/* One measured value, already one-way (a ping-pong's round trip halved). */
typedef struct fit_obs {
  double size; /* bytes */
  double t;    /* microseconds */
  double se;   /* standard error of t, microseconds */
  double res;  /* printing step of t, microseconds (rounding noise) */
  long reps;
  const char *src; /* "file:line", for messages; not owned */
} fit_obs;

/* The observations of one size merged: what the fits see. */
typedef struct fit_point {
  double size;
  double t;  /* mean of the observations */
  double se; /* standard error of that mean */
  double res;
  size_t nobs;
} fit_point;

typedef struct fit_data {
  fit_point *pts; /* increasing, distinct sizes */
  size_t n;
  fit_obs *obs; /* sorted by size: pts[i] merges obs[first[i] .. first[i + 1]) */
  size_t nobs;
  size_t *first; /* n + 1 entries */
} fit_data;

/* Copies and merges obs. Times <= 0 (printed as 0.0) cannot have a logarithmic error: they
 * are replaced by a quarter of their printing step, with a warning. */
void fit_data_build(fit_data *d, const fit_obs *obs, size_t nobs);
void fit_data_free(fit_data *d);

typedef enum { FIT_REG_LS, FIT_REG_REL, FIT_REG_LAD, FIT_REG_REL_LAD } fit_regression;
typedef enum { FIT_CRIT_CORR, FIT_CRIT_LOGERR } fit_criterion;

typedef struct fit_options {
  fit_regression regression;
  fit_criterion criterion;
  bool continuous;   /* LAD regressions only */
  size_t min_points; /* per segment, >= 2 */
} fit_options;

/* "ls", "rel", "lad", "rel-lad" / "corr", "logerr": -1 when unknown */
int fit_regression_parse(const char *s);
int fit_criterion_parse(const char *s);
const char *fit_regression_name(fit_regression r);
const char *fit_criterion_name(fit_criterion c);

typedef struct fit_segment {
  size_t first, last; /* indices of the segment's points, inclusive */
  double start;       /* smallest size the segment applies to, bytes */
  double lat;         /* microseconds: time of a zero-byte payload */
  double inv_bw;      /* microseconds per byte of payload */
  double r;           /* Pearson correlation of the segment's (size, time) points; 0 when
                       * all its times are equal (see fit_correlation) */
} fit_segment;

typedef struct fit_model {
  size_t nseg;
  fit_segment seg[FIT_MAX_SEGMENTS];
  double score; /* the criterion: product of the r's (corr), mean log error (logerr) */
} fit_model;

/* Fits k segments to pts (increasing sizes). Returns 0, or -1 with a message when k
 * segments of min_points do not fit in n points or the options conflict. */
int fit_piecewise(const fit_point *pts, size_t n, size_t k, const fit_options *opt,
                  fit_model *out, char *err, size_t errlen);
/* Largest k <= kmax that n points allow (0 if none). */
size_t fit_max_segments(size_t n, size_t kmax, size_t min_points);

/* One-way time predicted for a message of size bytes, microseconds. */
double fit_predict(const fit_model *m, double size);
const fit_segment *fit_segment_of(const fit_model *m, double size);

/* |ln measured - ln predicted| (INFINITY when predicted <= 0); shown as e^err - 1. */
double fit_log_error(double measured, double predicted);
/* mean and worst log error of pred[] against pts[].t */
void fit_errors(const fit_point *pts, size_t n, const double *pred, double *mean, double *worst);
double fit_correlation(const fit_point *pts, size_t first, size_t last);

/* The largest upward step between neighbouring segments (the time just after the boundary
 * over the lower segment's prediction there) if it is at least min_ratio: the eager to
 * rendezvous switch, whose threshold is the upper segment's start. Returns the segment index
 * (>= 1), or 0 when no step is that large. */
size_t fit_detect_switch(const fit_model *m, double min_ratio, double *ratio);

/* The simulated route the factors are relative to. */
typedef struct fit_link {
  double bw;        /* bottleneck bandwidth of the route, bytes/s */
  double lat;       /* total latency of the route, seconds */
  double tcp_gamma; /* network/TCP-gamma, bytes (0: no bound) */
} fit_link;

/* min(bw, tcp_gamma / (2 lat)): the rate a lone flow gets before the bandwidth factor */
double fit_link_rate(const fit_link *l);
/* The "default affine" baseline: the simulator without factors, lat + (size + 16) / rate,
 * one way, microseconds. */
double fit_default_affine(const fit_link *l, double size);
double fit_lat_factor(const fit_segment *s, const fit_link *l);
double fit_bw_factor(const fit_segment *s, const fit_link *l);
/* The threshold of smpi/bw-factor and smpi/lat-factor that starts segment s (see fit.c). */
double fit_factor_threshold(const fit_segment *s);

#endif
