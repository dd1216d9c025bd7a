/* Closed-loop calibration: the fitted settings are those for which the simulator, running the
 * measurement's own communication pattern, reproduces the measurement; with a robust
 * breakpoint search, prediction intervals from out-of-sample residuals, and the
 * leave-one-run-out evaluation that says how well a run the fit never saw is predicted.
 *
 * Why the pattern matters. SKaMPI's Pingpong_Send_Recv times, per repetition, rank 0's
 * Send + Recv and then sends one more message outside the timed loop; repetitions run back
 * to back. In the simulator that extra message is not free: with the default protocol
 * (detached sends below 64 KiB, no eager transfer) it waits for rank 1's next receive, and
 * the next repetition's message queues behind it, so a repetition costs THREE one-way times:
 *
 *   rank 0  Send A ....... Recv B |t1 Send C | Send A' ........ Recv B' |t1'
 *   rank 1  ..Recv A  Send B  Recv C ......... Recv A' ....... Send B'
 *   wire          [A]     [B]        [C]             [A']         [B']
 *                                    <------- 3 one-way times ------->
 *
 * With eager transfers (smpi/async-small-thresh) C and A' leave together and share the
 * wire: 2 latencies + 3 payload times. From the rendezvous size on, Send blocks: exactly 2.
 * The fit therefore regresses each measured time on the pattern's own coefficients,
 *
 *     time(size) = a * lat_i + b * (size + 16) * inv_bw_i        (segment i's one-way terms)
 *
 * with (a, b) from the pattern and the protocol at that size (cl_coef), and emits the
 * protocol it assumed: messages under the detected switch eager (async-small-thresh =
 * send-is-detached-thresh = switch), rendezvous from it on.
 *
 * The fit: candidate breakpoints are the measured sizes; dynamic programming picks the
 * segmentation minimising (sum over every run's points of |ln measured - ln model|) +
 * penalty x runs per segment; each segment is a least-absolute-relative-deviation fit
 * (iteratively reweighted), so one size that spikes in every run (SKaMPI's 128 B) or a bump
 * that moves between runs does not drag a segment. The switch is the largest upward step of
 * the fitted model (x switch_ratio at least); the fit is redone with the switch as a forced
 * breakpoint and the eager coefficients below it, until the switch stays put.
 *
 * Intervals: residuals (log) of every run against fits that did not see it (inner
 * leave-one-run-out) plus the in-sample residuals, pooled over the sizes within a factor
 * 4 of the size asked; the interval is their split-conformal quantile pair. They include the
 * run-to-run spread and the model's misfit, not only the fitted mean's uncertainty. */
#ifndef SMPI_CALIBRATION_CLOSEDLOOP_H
#define SMPI_CALIBRATION_CLOSEDLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "calibration/fit.h"
#include "calibration/skampi.h"

/* The simulator's timing of SKaMPI's point-to-point patterns (cl_coef). */
typedef enum {
  CL_PAT_SEND_RECV,  /* Send_Recv, Send_Recv_AnyTag, Send_Irecv, Isend_Recv: round trip */
  CL_PAT_SSEND_RECV, /* Ssend_Recv, Issend_Recv: round trip, never detached */
  CL_PAT_SENDRECV,   /* Sendrecv, Sendrecv_replace: one exchange, both directions at once */
  CL_PAT_HANDSHAKE,  /* calibration/pingpong_skampi.c's Send_Recv: a round trip timed after a
                        handshake, nothing else in flight */
  CL_NPAT
} cl_pattern;

/* The pattern of a SKaMPI block name ("Pingpong_Send_Recv", "Pingpong_Isend_Recv-2"...):
 * -1 when the name is none of them, -2 for Send_Iprobe_Recv (see closedloop.c). A file that
 * calibration/pingpong_skampi.c wrote (its first line says so) has CL_PAT_HANDSHAKE instead
 * of CL_PAT_SEND_RECV: cl_data_load sees to it. */
int cl_pattern_of_block(const char *name);
const char *cl_pattern_name(cl_pattern p);

typedef struct cl_point {
  double size; /* bytes */
  double t;    /* microseconds, as SKaMPI reports it */
  int pat;     /* cl_pattern */
  int blk;     /* index in cl_data.blocks */
  size_t run;  /* index of the file it comes from */
  double wt;   /* weight in the fit: 1, or the runs a per-size mean stands for */
} cl_point;

typedef struct cl_data {
  cl_point *pts; /* sorted by size */
  size_t n;
  size_t nruns;
  char **runs;   /* file names */
  char **blocks; /* SKaMPI pattern names present ("Isend_Recv"...), each once */
  size_t nblocks;
} cl_data;

/* Reads files (one run each) and keeps the points of blocks matching one of the globs. */
int cl_data_load(cl_data *d, const char *const *files, size_t nfiles, const char *const *globs,
                 size_t nglobs, char *err, size_t errlen);
void cl_data_free(cl_data *d);

typedef struct cl_options {
  double penalty;      /* per segment and per run, in summed |log error| */
  size_t min_points;   /* distinct sizes per segment */
  size_t max_segments; /* <= FIT_MAX_SEGMENTS */
  double switch_ratio; /* 0: no protocol switch */
  double level;        /* of the prediction intervals, e.g. 0.95 */
  double window;       /* residuals pooled within size x/÷ window */
  bool per_run;        /* fit every run's points (their median), not the per-size means */
} cl_options;
#define CL_OPTIONS_DEFAULT                        \
  ((cl_options){.penalty = 0.3,                   \
                .min_points = 3,                  \
                .max_segments = FIT_MAX_SEGMENTS, \
                .switch_ratio = 1.5,              \
                .level = 0.95,                    \
                .window = 8.0})

typedef struct cl_model {
  fit_model m;           /* one-way segments (lat, inv_bw), microseconds */
  double eager_below;    /* switch: eager below, rendezvous from (0: rendezvous everywhere) */
  double switch_ratio;   /* the step that was detected (0 if none) */
  bool default_protocol; /* the simulator's defaults instead (baseline only) */
  double c2, cx;         /* payload-time multipliers: two flows one way; an exchange */
  double lone_rate, gamma_bound, link_bw; /* B/s: a lone flow's, TCP-gamma's, the link's */
  double cost;                            /* summed |log error| over the training points */
  double lo[FIT_MAX_SEGMENTS], hi[FIT_MAX_SEGMENTS]; /* each segment's measured sizes */
} cl_model;

/* The pattern's coefficients at size: time = a * lat + b * (size + 16) * inv_bw. */
void cl_coef(const cl_model *m, int pat, double size, double *a, double *b);
double cl_predict(const cl_model *m, int pat, double size);

/* Fits the points of d whose run is not `skip` (SIZE_MAX: all). Returns -1 with a message
 * when there are too few sizes. */
int cl_fit(const cl_data *d, size_t skip, const cl_options *o, const fit_link *l,
           size_t max_segments, cl_model *out, char *err, size_t errlen);
/* The simulator without factors on the reference route, default protocol. */
void cl_default_model(const fit_link *l, cl_model *out);

typedef struct cl_resid {
  double *size, *e; /* log residuals ln measured - ln predicted */
  size_t n;
} cl_resid;
void cl_resid_free(cl_resid *r);
/* Out-of-sample (inner leave-one-run-out, when >= 2 runs remain) plus in-sample residuals of
 * the runs other than skip, against `m` for the in-sample part. */
int cl_residuals(const cl_data *d, size_t skip, const cl_options *o, const fit_link *l,
                 const cl_model *m, cl_resid *out, char *err, size_t errlen);
/* Multiplicative interval [lo, hi] on a prediction at size; the quantile u in (0, 1) alone
 * with cl_quantile. */
void cl_interval(const cl_resid *r, const cl_options *o, double size, double *lo, double *hi);
double cl_quantile(const cl_resid *r, const cl_options *o, double size, double u);

typedef struct cl_eval {
  size_t npts;
  double insample;     /* mean |log error| of the final fit on its own data */
  double loro;         /* leave-one-run-out mean |log error| */
  double floor;        /* predicting each run by the mean of the others */
  double affine;       /* best-fit affine (1 segment) in leave-one-run-out */
  double def_affine;   /* the simulator's defaults */
  double coverage;     /* share of left-out points inside their interval */
  double width;        /* geometric mean of hi / lo over those intervals */
  double loro_run[64]; /* per run (first 64) */
  double floor_run[64];
  double cover_run[64];
} cl_eval;
int cl_evaluate(const cl_data *d, const cl_options *o, const fit_link *l, const cl_model *fin,
                cl_eval *ev, char *err, size_t errlen);

/* Settings for the simulator: factors, zero overheads, the protocol thresholds, smpi/wtime:0.
 * scale multiplies every segment's time (1: the fit itself; a draw otherwise). */
char *cl_settings(const cl_model *m, const fit_link *l);

/* Prints the report; writes the plot, cfg, platform, samples and pattern table when given. */
typedef struct cl_outputs {
  const char *cfg_out, *platform_out, *samples_out, *table_out, *plot_base;
  size_t nsamples;
} cl_outputs;
int cl_main(const char *const *files, size_t nfiles, const char *const *globs, size_t nglobs,
            const cl_options *o, const fit_link *l, const cl_outputs *out, bool quiet);

#endif
