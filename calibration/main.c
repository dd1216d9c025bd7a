/* smpi-calibrate: fit the simulator's network model to SKaMPI ping-pong measurements.
 *
 *   smpi-calibrate [options] run1.sko run2.sko [...]            closed loop (the default)
 *   smpi-calibrate --open-loop [options] run1.sko [...]         the legacy fit
 *
 * By default the fit is closed-loop (closedloop.c): one run per file, at least two runs, each
 * block's SKaMPI pattern modelled as the simulator runs it, with prediction intervals and a
 * leave-one-run-out report. --open-loop is the earlier fit (fit.c, report.c): it pools the
 * Pingpong_Send_Recv blocks, takes one-way = round trip / 2, fits piecewise-linear models with
 * 1 .. K segments, prints them with their errors against the two affine baselines, and writes
 * the per-size table (--csv), the bootstrap (-B N) and --predict on other runs. Both write
 * --cfg-out, --platform-out, --plot and --samples-out. See calibration/README.md. */
#include "calibration/bootstrap.h"
#include "calibration/closedloop.h"
#include "calibration/collect.h"
#include "calibration/emit.h"
#include "calibration/fit.h"
#include "calibration/report.h"
#include "calibration/skampi.h"
#include "kernel/network.h"
#include "src/cfg.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/units.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "smpi-calibrate"

/* a printf format: its one conversion is the default of --tcp-gamma */
static const char usage[] =
    "Usage: " PROG " [options] RUN1.sko RUN2.sko...     (closed loop, the default)\n"
    "       " PROG " --open-loop [options] FILE.sko...  (the legacy fit)\n"
    "Fit the simulator's piecewise network model to SKaMPI ping-pong output.\n"
    "\n"
    "By default the fit is closed-loop: every measured time is modelled as the simulator runs\n"
    "that block's own SKaMPI pattern (protocol thresholds included), so that SKaMPI simulated\n"
    "with the emitted settings reproduces the fit. One run per file, two runs or more: the\n"
    "report gives the in-sample and leave-one-run-out errors, the noise floor (each run\n"
    "predicted by the others), the affine baselines, the coverage of the prediction intervals\n"
    "and whether the data or the model limits the accuracy.\n"
    "\n"
    "Data:\n"
    "  -b, --block=PATTERN      result block(s) to use, shell glob, repeatable\n"
    "                           (default: Pingpong_Send_Recv)\n"
    "Closed loop (the default; see calibration/README.md):\n"
    "      --closed-loop        the default, accepted for scripts that say it\n"
    "      --penalty=P          cost of a segment, per run, in summed |log error|\n"
    "                           (default 0.3)\n"
    "      --min-points=M       measured sizes per segment, at least (default 3)\n"
    "      --switch-ratio=Q     an eager/rendezvous switch is a lasting step of x Q or more\n"
    "                           beyond proportional growth (default 1.5; 0: never)\n"
    "      --per-run            fit every run's points (their median across runs) instead\n"
    "                           of the per-size means\n"
    "      --interval-window=F  intervals pool the residuals of sizes within x/÷ F\n"
    "                           (default 8)\n"
    "      --pattern-table=FILE the fitted time of every pattern at every measured size\n"
    "  -B N                     N parameter draws from the intervals (for --samples-out)\n"
    "Legacy open-loop fit (--open-loop): one-way time = round trip / 2, the protocol left\n"
    "to the simulator's defaults (SKaMPI's ping-pong simulated with its settings measures\n"
    "up to 1.5x the fitted round trip below 64 KiB):\n"
    "      --open-loop          use it; the options below need it\n"
    "      --one-way            the times are one-way already (default: ping-pong round\n"
    "                           trips, halved)\n"
    "  -k, --segments=K         fit 1 .. K segments, use K (default 3)\n"
    "  -c, --criterion=C        breakpoints: corr (maximise the product of the segments'\n"
    "                           correlation coefficients, the SMPI paper's; default) or\n"
    "                           logerr (minimise the mean logarithmic error)\n"
    "  -r, --regression=R       per segment: rel (least squares of relative residuals,\n"
    "                           default), ls (ordinary least squares, the paper's), lad\n"
    "                           (least absolute deviation, GLPK), rel-lad (least absolute\n"
    "                           relative deviation, GLPK)\n"
    "      --continuous         segments meet at the breakpoints (lad and rel-lad only)\n"
    "  -p, --predict=FILE       evaluate the model on another run, repeatable\n"
    "      --csv=FILE           per-size table\n"
    "  -B, --bootstrap=N        N bootstrap replicates (default 0: none)\n"
    "      --seed=S             random seed of the bootstrap (default 1)\n"
    "      (--min-points and --switch-ratio apply too: a step of the fitted model)\n"
    "Reference route (what the factors are relative to):\n"
    "      --link-bw=BW         bottleneck bandwidth of the route (default 10Gbps)\n"
    "      --link-lat=LAT       total latency of the route (default 1us)\n"
    "      --tcp-gamma=BYTES    network/TCP-gamma of the simulator (default %.0f)\n"
    "Outputs (both modes):\n"
    "      --cfg-out=FILE       --cfg= lines for the simulator\n"
    "      --platform-out=FILE  a two-host platform with the settings in <config>\n"
    "      --plot=BASE          log-log figure: BASE.svg and BASE.png\n"
    "      --level=L            interval coverage (default 0.95)\n"
    "      --samples-out=FILE   the -B N parameter sets, one set per line\n"
    "  -q, --quiet              no per-size table on standard output\n"
    "Other:\n"
    "      --log=CAT.thresh:LEVEL   logging, repeatable\n"
    "  -h, --help, --version\n";

typedef struct options {
  const char **blocks;
  size_t nblocks;
  bool one_way;
  size_t k;
  fit_options fit;
  double switch_ratio;
  fit_link link;
  const char *link_bw_text, *link_lat_text;
  const char *cfg_out, *platform_out, *csv, *plot, *samples_out;
  const char **predict;
  size_t npredict;
  bool quiet;
  size_t bootstrap;
  unsigned long long seed;
  double level;
  bool closed_loop, open_loop;
  const char *open_only;   /* the first option given that only the open-loop fit has */
  const char *closed_only; /* the first option given that only the closed-loop fit has */
  bool per_run;
  double window;
  double penalty;
  const char *pattern_table;
  bool min_points_set;
  const char **inputs;
  size_t ninputs;
} options;

enum {
  OPT_ONE_WAY = 256,
  OPT_CONTINUOUS,
  OPT_MIN_POINTS,
  OPT_SWITCH_RATIO,
  OPT_LINK_BW,
  OPT_LINK_LAT,
  OPT_TCP_GAMMA,
  OPT_CFG_OUT,
  OPT_PLATFORM_OUT,
  OPT_CSV,
  OPT_PLOT,
  OPT_SEED,
  OPT_LEVEL,
  OPT_SAMPLES_OUT,
  OPT_LOG,
  OPT_VERSION,
  OPT_CLOSED_LOOP,
  OPT_PENALTY,
  OPT_PATTERN_TABLE,
  OPT_PER_RUN,
  OPT_WINDOW,
  OPT_OPEN_LOOP,
};

static int bad(const char *fmt, const char *a, const char *b)
{
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  return -1;
}

static int parse_count(const char *opt, const char *s, size_t min, size_t *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || errno || v < (long long)min) {
    char m[32];
    snprintf(m, sizeof m, "%zu", min);
    fprintf(stderr, PROG ": --%s=%s: an integer >= %s is expected\n", opt, s, m);
    return -1;
  }
  *out = (size_t)v;
  return 0;
}

static int parse_real(const char *opt, const char *s, double min, double max, double *out)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !(v >= min && v <= max)) {
    fprintf(stderr, PROG ": --%s=%s: a number in [%g, %g] is expected\n", opt, s, min, max);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
  static const struct option longopts[] = {
      {"block", required_argument, NULL, 'b'},
      {"one-way", no_argument, NULL, OPT_ONE_WAY},
      {"segments", required_argument, NULL, 'k'},
      {"criterion", required_argument, NULL, 'c'},
      {"regression", required_argument, NULL, 'r'},
      {"continuous", no_argument, NULL, OPT_CONTINUOUS},
      {"min-points", required_argument, NULL, OPT_MIN_POINTS},
      {"switch-ratio", required_argument, NULL, OPT_SWITCH_RATIO},
      {"link-bw", required_argument, NULL, OPT_LINK_BW},
      {"link-lat", required_argument, NULL, OPT_LINK_LAT},
      {"tcp-gamma", required_argument, NULL, OPT_TCP_GAMMA},
      {"cfg-out", required_argument, NULL, OPT_CFG_OUT},
      {"platform-out", required_argument, NULL, OPT_PLATFORM_OUT},
      {"csv", required_argument, NULL, OPT_CSV},
      {"plot", required_argument, NULL, OPT_PLOT},
      {"predict", required_argument, NULL, 'p'},
      {"quiet", no_argument, NULL, 'q'},
      {"bootstrap", required_argument, NULL, 'B'},
      {"seed", required_argument, NULL, OPT_SEED},
      {"level", required_argument, NULL, OPT_LEVEL},
      {"samples-out", required_argument, NULL, OPT_SAMPLES_OUT},
      {"log", required_argument, NULL, OPT_LOG},
      {"closed-loop", no_argument, NULL, OPT_CLOSED_LOOP},
      {"open-loop", no_argument, NULL, OPT_OPEN_LOOP},
      {"penalty", required_argument, NULL, OPT_PENALTY},
      {"pattern-table", required_argument, NULL, OPT_PATTERN_TABLE},
      {"per-run", no_argument, NULL, OPT_PER_RUN},
      {"interval-window", required_argument, NULL, OPT_WINDOW},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  size_t bcap = 0, pcap = 0;
  int c;
  char err[512];
  while ((c = getopt_long(argc, argv, "b:k:c:r:p:qB:h", longopts, NULL)) != -1) {
    switch (c) {
    case 'b':
      XGROW(o->blocks, bcap, o->nblocks + 1);
      o->blocks[o->nblocks++] = optarg;
      break;
    case OPT_ONE_WAY:
      o->open_only = o->open_only ? o->open_only : "--one-way";
      o->one_way = true;
      break;
    case 'k':
      o->open_only = o->open_only ? o->open_only : "--segments";
      if (parse_count("segments", optarg, 1, &o->k))
        return -1;
      if (o->k > FIT_MAX_SEGMENTS)
        return bad("--segments=%s: at most %s segments are supported", optarg, "16");
      break;
    case 'c': {
      o->open_only = o->open_only ? o->open_only : "--criterion";
      int v = fit_criterion_parse(optarg);
      if (v < 0)
        return bad("--criterion=%s: one of corr, logerr is expected%s", optarg, "");
      o->fit.criterion = (fit_criterion)v;
      break;
    }
    case 'r': {
      o->open_only = o->open_only ? o->open_only : "--regression";
      int v = fit_regression_parse(optarg);
      if (v < 0)
        return bad("--regression=%s: one of ls, rel, lad, rel-lad is expected%s", optarg, "");
      o->fit.regression = (fit_regression)v;
      break;
    }
    case OPT_CONTINUOUS:
      o->open_only = o->open_only ? o->open_only : "--continuous";
      o->fit.continuous = true;
      break;
    case OPT_MIN_POINTS:
      if (parse_count("min-points", optarg, 2, &o->fit.min_points))
        return -1;
      break;
    case OPT_SWITCH_RATIO:
      if (parse_real("switch-ratio", optarg, 0, 1e300, &o->switch_ratio))
        return -1;
      break;
    case OPT_LINK_BW:
      if (units_parse_bandwidth(optarg, &o->link.bw, err, sizeof err) != 0)
        return bad("--link-bw: %s%s", err, "");
      if (!(o->link.bw > 0))
        return bad("--link-bw=%s: the bandwidth must be positive%s", optarg, "");
      o->link_bw_text = optarg;
      break;
    case OPT_LINK_LAT:
      if (units_parse_latency(optarg, &o->link.lat, err, sizeof err) != 0)
        return bad("--link-lat: %s%s", err, "");
      if (!(o->link.lat > 0))
        return bad("--link-lat=%s: the latency must be positive (the latency factors are "
                   "relative to it)%s",
                   optarg, "");
      o->link_lat_text = optarg;
      break;
    case OPT_TCP_GAMMA:
      if (parse_real("tcp-gamma", optarg, 0, 1e300, &o->link.tcp_gamma))
        return -1;
      break;
    case OPT_CFG_OUT:
      o->cfg_out = optarg;
      break;
    case OPT_PLATFORM_OUT:
      o->platform_out = optarg;
      break;
    case OPT_CSV:
      o->open_only = o->open_only ? o->open_only : "--csv";
      o->csv = optarg;
      break;
    case OPT_PLOT:
      o->plot = optarg;
      break;
    case 'p':
      o->open_only = o->open_only ? o->open_only : "--predict";
      XGROW(o->predict, pcap, o->npredict + 1);
      o->predict[o->npredict++] = optarg;
      break;
    case 'q':
      o->quiet = true;
      break;
    case 'B':
      if (parse_count("bootstrap", optarg, 0, &o->bootstrap))
        return -1;
      break;
    case OPT_SEED: {
      o->open_only = o->open_only ? o->open_only : "--seed";
      size_t s;
      if (parse_count("seed", optarg, 0, &s))
        return -1;
      o->seed = s;
      break;
    }
    case OPT_LEVEL:
      if (parse_real("level", optarg, 0.01, 0.999, &o->level))
        return -1;
      break;
    case OPT_SAMPLES_OUT:
      o->samples_out = optarg;
      break;
    case OPT_CLOSED_LOOP:
      o->closed_loop = true;
      break;
    case OPT_OPEN_LOOP:
      o->open_loop = true;
      break;
    case OPT_PENALTY:
      o->closed_only = o->closed_only ? o->closed_only : "--penalty";
      if (parse_real("penalty", optarg, 0, 1e300, &o->penalty))
        return -1;
      break;
    case OPT_WINDOW:
      o->closed_only = o->closed_only ? o->closed_only : "--interval-window";
      if (parse_real("interval-window", optarg, 1.000001, 1e300, &o->window))
        return -1;
      break;
    case OPT_PER_RUN:
      o->closed_only = o->closed_only ? o->closed_only : "--per-run";
      o->per_run = true;
      break;
    case OPT_PATTERN_TABLE:
      o->closed_only = o->closed_only ? o->closed_only : "--pattern-table";
      o->pattern_table = optarg;
      break;
    case OPT_LOG:
      if (log_parse_setting(optarg, err, sizeof err) != 0)
        return bad("--log=%s: %s", optarg, err);
      break;
    case 'h':
      printf(usage, cfg_get_double("network/TCP-gamma"));
      exit(0);
    case OPT_VERSION:
      puts(PROG " (smpi) 0.1.0");
      exit(0);
    default:
      fprintf(stderr, "Try '" PROG " --help'.\n");
      return -1;
    }
  }
  o->inputs = (const char **)argv + optind;
  o->ninputs = (size_t)(argc - optind);
  if (o->ninputs == 0)
    return bad("no input file (SKaMPI .sko output expected; see --help)%s%s", "", "");
  if (o->closed_loop && o->open_loop)
    return bad("--closed-loop and --open-loop: choose one (the closed loop is the "
               "default)%s%s",
               "", "");
  if (!o->open_loop && o->open_only)
    return bad("%s is an option of the legacy open-loop fit: add --open-loop to use it (the "
               "default closed-loop fit has no such choice%s; see --help)",
               o->open_only,
               !strcmp(o->open_only, "--predict") ? ": its leave-one-run-out report predicts "
                                                    "each run from the others"
                                                  : "");
  if (o->open_loop && o->closed_only)
    return bad("%s belongs to the closed-loop fit, the default: leave out --open-loop%s",
               o->closed_only, "");
  if (o->fit.continuous && o->fit.regression != FIT_REG_LAD &&
      o->fit.regression != FIT_REG_REL_LAD)
    return bad("--continuous needs --regression=lad or rel-lad (a continuous fit is solved as "
               "one linear program)%s%s",
               "", "");
  if (o->samples_out && o->bootstrap == 0)
    return bad("--samples-out needs -B N (N > 0): the number of parameter sets to write%s%s", "",
               "");
  return 0;
}

/* Reads files and collects the selected blocks' observations into data. */
static int load(const options *o, const char **files, size_t nfiles, skampi_set *set,
                collect *col, fit_data *data)
{
  char err[1024];
  for (size_t i = 0; i < nfiles; i++)
    if (skampi_read_file(set, files[i], err, sizeof err) != 0) {
      fprintf(stderr, PROG ": %s\n", err);
      return -1;
    }
  if (collect_blocks(set, o->blocks, o->nblocks, !o->one_way, col, err, sizeof err) != 0) {
    fprintf(stderr, PROG ": %s\n", err);
    return -1;
  }
  fit_data_build(data, col->obs, col->nobs);
  return 0;
}

static FILE *open_out(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f)
    fprintf(stderr, PROG ": cannot write %s: %s (check the directory exists and is writable)\n",
            path, strerror(errno));
  return f;
}

static int close_out(FILE *f, const char *path)
{
  if (ferror(f) | fclose(f)) {
    fprintf(stderr, PROG ": error writing %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

static void print_breakpoints(FILE *out, const fit_model *m)
{
  char buf[256] = "";
  size_t len = 0;
  for (size_t s = 0; s < m->nseg && len < sizeof buf; s++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.0f", s ? " " : "", m->seg[s].start);
  fprintf(out, "%-36s", buf);
}

static int run(options *o)
{
  int rc = 1;
  skampi_set set = {0};
  collect col = {0};
  fit_data data = {0};
  fit_model *models = NULL;
  boot_result boot = {0};
  boot_interval *piv = NULL;
  report_eval ev = {0};
  char *prov = NULL;
  char err[1024];
  if (load(o, o->inputs, o->ninputs, &set, &col, &data) != 0)
    goto out;

  size_t kmax = fit_max_segments(data.n, o->k, o->fit.min_points);
  if (kmax == 0) {
    fprintf(stderr, PROG ": %zu measured sizes: not enough for one segment of %zu sizes\n",
            data.n, o->fit.min_points);
    goto out;
  }
  if (kmax < o->k)
    fprintf(stderr,
            PROG ": warning: %zu sizes allow at most %zu segments of %zu sizes; "
                 "fitting %zu\n",
            data.n, kmax, o->fit.min_points, kmax);
  models = xcalloc(kmax, sizeof *models);
  for (size_t k = 1; k <= kmax; k++)
    if (fit_piecewise(data.pts, data.n, k, &o->fit, &models[k - 1], err, sizeof err) != 0) {
      fprintf(stderr, PROG ": %s\n", err);
      goto out;
    }
  const fit_model *pw = &models[kmax - 1], *affine = &models[0];
  double ratio = 0;
  size_t sw = o->switch_ratio > 0 ? fit_detect_switch(pw, o->switch_ratio, &ratio) : 0;
  double switch_size = sw ? pw->seg[sw].start : 0;
  prov = xasprintf("fitted on %s: %zu sizes, %zu segments, criterion %s, regression %s%s",
                   col.description, data.n, kmax, fit_criterion_name(o->fit.criterion),
                   fit_regression_name(o->fit.regression),
                   o->fit.continuous ? ", continuous" : "");

  printf("open-loop fit (legacy, --open-loop)\n");
  printf("data: %zu sizes (%zu values) from %s; %s\n", data.n, col.nobs, col.description,
         o->one_way ? "times taken as one-way" : "one-way time = round trip / 2");
  printf("reference route: latency %.6g s, bandwidth %.6g B/s (rate %.6g B/s after the "
         "TCP-gamma bound)\n",
         o->link.lat, o->link.bw, fit_link_rate(&o->link));
  printf("model: t(size) = lat + (size + 16) / bw per segment; simulator: lat = route latency x "
         "lat-factor, bw = rate x bw-factor\n");
  printf("note: this is the legacy open-loop fit: SKaMPI's ping-pong simulated with these "
         "settings is not what was fitted (the default protocol times its back-to-back sends "
         "differently); the default closed-loop fit (without --open-loop) fits the pattern as "
         "simulated, with prediction intervals and a leave-one-run-out report\n\n");
  printf("fits by number of segments (criterion %s, regression %s%s):\n",
         fit_criterion_name(o->fit.criterion), fit_regression_name(o->fit.regression),
         o->fit.continuous ? ", continuous" : "");
  printf("%3s %-36s %12s %10s %10s\n", "k", "segment starts (B)",
         o->fit.criterion == FIT_CRIT_CORR ? "prod(r)" : "mean logerr", "mean err", "worst err");
  for (size_t k = 1; k <= kmax; k++) {
    double *pred = xmalloc(data.n * sizeof *pred), mean, worst;
    for (size_t i = 0; i < data.n; i++)
      pred[i] = fit_predict(&models[k - 1], data.pts[i].size);
    fit_errors(data.pts, data.n, pred, &mean, &worst);
    free(pred);
    printf("%3zu ", k);
    print_breakpoints(stdout, &models[k - 1]);
    printf(" %12.6g %9.1f%% %9.1f%%\n", models[k - 1].score, report_pct(mean), report_pct(worst));
  }

  if (o->bootstrap > 0) {
    if (boot_run(&data, kmax, &o->fit, o->bootstrap, o->seed, &boot, err, sizeof err) != 0) {
      fprintf(stderr, PROG ": bootstrap: %s\n", err);
      goto out;
    }
  }
  printf("\nsegments of the %zu-segment model:\n", kmax);
  report_segments(stdout, pw, &o->link, o->bootstrap ? &boot : NULL, o->level);
  if (sw)
    printf("\neager/rendezvous switch: the model steps up x%.2f at %.0f B (segment %zu): "
           "messages under %.0f B are eager\n",
           ratio, switch_size, sw, switch_size);
  else
    printf("\nno eager/rendezvous switch detected (no step up of x%g or more)\n",
           o->switch_ratio);

  report_eval_compute(&ev, data.pts, data.n, pw, affine, &o->link);
  if (o->bootstrap)
    piv = report_prediction_intervals(&ev, &boot, o->level);
  if (!o->quiet) {
    printf("\nper size (one way; err = e^|ln measured - ln predicted| - 1; best affine = the "
           "1-segment fit; default affine = latency + (size + 16) / rate):\n");
    report_table(stdout, &ev, piv, o->level);
  } else {
    printf("\nerrors (mean / worst): piecewise %.1f%% / %.1f%%, best-fit affine %.1f%% / "
           "%.1f%%, default affine %.1f%% / %.1f%%\n",
           report_pct(ev.pw_mean), report_pct(ev.pw_worst), report_pct(ev.af_mean),
           report_pct(ev.af_worst), report_pct(ev.df_mean), report_pct(ev.df_worst));
  }

  if (o->npredict > 0) {
    printf("\nprediction of other runs with the model above (mean / worst log error):\n");
    printf("%-44s %6s %17s %17s %17s\n", "data", "sizes", "piecewise", "best-fit affine",
           "default affine");
    for (size_t f = 0; f < o->npredict; f++) {
      skampi_set ps = {0};
      collect pc = {0};
      fit_data pd = {0};
      report_eval pe = {0};
      if (load(o, &o->predict[f], 1, &ps, &pc, &pd) != 0) {
        skampi_set_free(&ps);
        goto out;
      }
      report_eval_compute(&pe, pd.pts, pd.n, pw, affine, &o->link);
      printf("%-44s %6zu %7.1f%% / %5.1f%% %7.1f%% / %5.1f%% %7.1f%% / %5.1f%%\n", o->predict[f],
             pd.n, report_pct(pe.pw_mean), report_pct(pe.pw_worst), report_pct(pe.af_mean),
             report_pct(pe.af_worst), report_pct(pe.df_mean), report_pct(pe.df_worst));
      report_eval_free(&pe);
      fit_data_free(&pd);
      collect_free(&pc);
      skampi_set_free(&ps);
    }
  }

  char *settings = emit_settings(pw, &o->link, switch_size);
  printf("\nsimulator settings (paste; the platform's route: latency %s, bandwidth %s):\n",
         o->link_lat_text, o->link_bw_text);
  for (char *save = NULL, *t = strtok_r(settings, " ", &save); t; t = strtok_r(NULL, " ", &save))
    printf("  --cfg='%s'\n", t);
  free(settings);

  FILE *f;
  if (o->cfg_out) {
    if (!(f = open_out(o->cfg_out)))
      goto out;
    emit_cfg_file(f, pw, &o->link, switch_size, prov);
    if (close_out(f, o->cfg_out))
      goto out;
  }
  if (o->platform_out) {
    if (!(f = open_out(o->platform_out)))
      goto out;
    emit_platform(f, pw, &o->link, switch_size, prov);
    if (close_out(f, o->platform_out))
      goto out;
  }
  if (o->csv) {
    if (!(f = open_out(o->csv)))
      goto out;
    report_csv(f, &ev, piv);
    if (close_out(f, o->csv))
      goto out;
  }
  if (o->samples_out) {
    if (!(f = open_out(o->samples_out)))
      goto out;
    emit_samples_header(f, &o->link, boot.nrep, o->seed, prov);
    for (size_t r = 0; r < boot.nrep; r++) {
      double rq;
      size_t rsw = o->switch_ratio > 0 ? fit_detect_switch(&boot.models[r], o->switch_ratio, &rq)
                                       : 0;
      char *s = emit_settings(&boot.models[r], &o->link, rsw ? boot.models[r].seg[rsw].start : 0);
      fprintf(f, "%s\n", s);
      free(s);
    }
    if (close_out(f, o->samples_out))
      goto out;
  }
  if (o->plot) {
    char *title = xasprintf("ping-pong one-way time: %zu-segment fit (%s, %s)", kmax,
                            fit_criterion_name(o->fit.criterion),
                            fit_regression_name(o->fit.regression));
    int prc = report_plot(o->plot, title, &ev, pw, affine, &o->link, o->bootstrap ? &boot : NULL,
                          o->level, err, sizeof err);
    free(title);
    if (prc != 0) {
      fprintf(stderr, PROG ": %s\n", err);
      goto out;
    }
  }
  rc = 0;
out:
  free(prov);
  free(piv);
  report_eval_free(&ev);
  boot_free(&boot);
  free(models);
  fit_data_free(&data);
  collect_free(&col);
  skampi_set_free(&set);
  return rc;
}

static int run_closed_loop(const options *o)
{
  static const char *const def_block[] = {COLLECT_DEFAULT_BLOCK};
  cl_options co = CL_OPTIONS_DEFAULT;
  if (o->penalty >= 0)
    co.penalty = o->penalty;
  co.min_points = o->fit.min_points;
  co.switch_ratio = o->switch_ratio;
  co.level = o->level;
  co.per_run = o->per_run;
  if (o->window > 0)
    co.window = o->window;
  cl_outputs out = {.cfg_out = o->cfg_out,
                    .platform_out = o->platform_out,
                    .samples_out = o->samples_out,
                    .table_out = o->pattern_table,
                    .plot_base = o->plot,
                    .nsamples = o->bootstrap};
  return cl_main(o->inputs, o->ninputs, o->nblocks ? (const char *const *)o->blocks : def_block,
                 o->nblocks ? o->nblocks : 1, &co, &o->link, &out, o->quiet) == 0
             ? 0
             : 1;
}

int main(int argc, char **argv)
{
  options o = {
      .k = 3,
      .fit = {.regression = FIT_REG_REL, .criterion = FIT_CRIT_CORR, .min_points = 3},
      .switch_ratio = 1.5,
      .link = {.bw = 1.25e9, .lat = 1e-6},
      .link_bw_text = "10Gbps",
      .link_lat_text = "1us",
      .seed = 1,
      .level = 0.95,
      .penalty = -1,
  };
  /* the simulator's keys, so that the default of --tcp-gamma is the simulator's own */
  net_declare_config();
  o.link.tcp_gamma = cfg_get_double("network/TCP-gamma");
  int rc = parse_options(argc, argv, &o) == 0 ? (o.open_loop ? run(&o) : run_closed_loop(&o)) : 1;
  free(o.blocks);
  free(o.predict);
  return rc;
}
