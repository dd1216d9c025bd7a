/* smpi-calibrate: the SKaMPI reader on the real files and on malformed ones (rejected with the
 * right line), breakpoint and parameter recovery on synthetic data with known models, the
 * constraints that keep a fit representable, the emitted settings read back through the
 * simulator's own factor parser and platform loader (the analytic half of the round trip),
 * the bootstrap's determinism and intervals, the figure files, and the command line.
 *
 * The synthetic models are those of tests/data/skampi/synthetic/generate.py. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "calibration/bootstrap.h"
#include "calibration/collect.h"
#include "calibration/emit.h"
#include "calibration/fit.h"
#include "calibration/plot.h"
#include "calibration/report.h"
#include "calibration/skampi.h"
#include "kernel/factors.h"
#include "kernel/network.h"
#include "smpi/mpi/p2p.h"
#include "src/cfg.h"
#include "src/mem.h"
#include "src/platform.h"

#define DATA SMPI_SOURCE_ROOT "/tests/data/skampi/"
#define SYN DATA "synthetic/"

/* generate.py's models: (start, lat us, inv_bw us/B) */
typedef struct seg3 {
  double start, lat, inv_bw;
} seg3;
static const seg3 three[] = {{0, 1.0, 1e-3}, {4096, 8.0, 2e-4}, {262144, 0.5, 3e-4}};
static const seg3 cont[] = {{0, 2.0, 2e-3}, {1024, 3.56, 5e-4}, {65536, 19.948, 2.5e-4}};

static const fit_link link_10g = {.bw = 1.25e9, .lat = 1e-6, .tcp_gamma = 4194304};

/* ---- helpers ------------------------------------------------------------------------- */

static void read_ok(skampi_set *set, const char *path)
{
  char err[512];
  ck_assert_msg(skampi_read_file(set, path, err, sizeof err) == 0, "%s: %s", path, err);
}

/* Loads the default block(s) of files into d. */
static void load_data(fit_data *d, const char *const *files, size_t nfiles,
                      const char *const *patterns, size_t np)
{
  skampi_set set = {0};
  for (size_t i = 0; i < nfiles; i++)
    read_ok(&set, files[i]);
  collect c;
  char err[512];
  ck_assert_msg(collect_blocks(&set, patterns, np, true, &c, err, sizeof err) == 0, "%s", err);
  fit_data_build(d, c.obs, c.nobs);
  collect_free(&c);
  skampi_set_free(&set);
}

static void load1(fit_data *d, const char *file) { load_data(d, &file, 1, NULL, 0); }

static void fit_ok(const fit_data *d, size_t k, fit_options opt, fit_model *m)
{
  char err[512];
  ck_assert_msg(fit_piecewise(d->pts, d->n, k, &opt, m, err, sizeof err) == 0, "%s", err);
}

static void check_model(const fit_model *m, const seg3 *truth, size_t k, double rel_tol,
                        const char *what)
{
  ck_assert_uint_eq(m->nseg, k);
  for (size_t s = 0; s < k; s++) {
    ck_assert_msg(m->seg[s].start == truth[s].start, "%s: segment %zu starts at %g, not %g", what,
                  s, m->seg[s].start, truth[s].start);
    /* a latency is judged against the segment's time scale: 0.5 us under an 80 us message
     * with 2 % noise is not measurable to 10 % */
    double t0 = truth[s].lat + truth[s].inv_bw * (fmax(truth[s].start, 1) + FIT_ENVELOPE);
    ck_assert_msg(fabs(m->seg[s].lat - truth[s].lat) < rel_tol * t0,
                  "%s: segment %zu latency %g, expected %g", what, s, m->seg[s].lat,
                  truth[s].lat);
    ck_assert_msg(fabs(m->seg[s].inv_bw / truth[s].inv_bw - 1) < rel_tol,
                  "%s: segment %zu inv_bw %g, expected %g", what, s, m->seg[s].inv_bw,
                  truth[s].inv_bw);
  }
}

/* ---- the reader --------------------------------------------------------------------- */

START_TEST(test_read_real_pingpong)
{
  skampi_set set = {0};
  read_ok(&set, DATA "pingpong_np2_bindcore_run1.sko");
  ck_assert_uint_eq(set.nblocks, 5);
  const char *names[] = {"Pingpong_Send_Recv", "Pingpong_Send_Recv-sqrt2", "Pingpong_Isend_Recv",
                         "Pingpong_Ssend_Recv", "Pingpong_Sendrecv"};
  const size_t npts[] = {23, 44, 23, 23, 23};
  for (size_t b = 0; b < 5; b++) {
    ck_assert_str_eq(set.blocks[b].name, names[b]);
    ck_assert_uint_eq(set.blocks[b].npts, npts[b]);
    ck_assert_uint_eq(set.blocks[b].nranks, 2);
  }
  const skampi_block *b = &set.blocks[0];
  ck_assert_int_eq(b->begin_line, 6);
  /* count= 4194304  4194304    1811.3     137.9       64    1678.8    1653.6 (line 29) */
  const skampi_point *p = &b->pts[22];
  ck_assert_double_eq(p->size, 4194304);
  ck_assert_double_eq_tol(p->time, 1811.3, 1e-9);
  ck_assert_double_eq_tol(p->stderr_us, 137.9, 1e-9);
  ck_assert_int_eq(p->reps, 64);
  ck_assert_int_eq(p->line, 29);
  ck_assert_double_eq_tol(p->resolution, 0.1, 1e-12);
  ck_assert_double_eq_tol(b->rank_times[p->rank_first], 1678.8, 1e-9);
  ck_assert_double_eq_tol(b->rank_times[p->rank_first + 1], 1653.6, 1e-9);
  /* count= 128 128 2.8 0.1 64 2.8 2.7: the spike */
  ck_assert_double_eq_tol(b->pts[7].time, 2.8, 1e-9);
  /* the sqrt(2) grid: 1 2 3 4 6 8 11 ... 2965821 4194304 */
  ck_assert_double_eq(set.blocks[1].pts[2].size, 3);
  ck_assert_double_eq(set.blocks[1].pts[42].size, 2965821);
  skampi_set_free(&set);
  ck_assert_uint_eq(set.nblocks, 0);
}
END_TEST

START_TEST(test_read_echoed_source)
{
  /* skampi -s: "#> " lines, nine blocks of MPI_INT pingpongs (sizes 4 .. 16384 bytes) */
  skampi_set set = {0};
  read_ok(&set, DATA "skampi_pt2pt_np2.sko");
  ck_assert_uint_eq(set.nblocks, 9);
  ck_assert_str_eq(set.blocks[0].name, "Pingpong_Send_Recv");
  ck_assert_uint_eq(set.blocks[0].npts, 24);
  ck_assert_double_eq(set.blocks[0].pts[0].size, 4);
  ck_assert_double_eq(set.blocks[0].pts[23].size, 16384);
  ck_assert_str_eq(set.blocks[8].name, "Pingpong_Sendrecv_replace");
  /* several files append to one set */
  read_ok(&set, DATA "pingpong_np2_nobind_run2.sko");
  ck_assert_uint_eq(set.nblocks, 14);
  ck_assert_str_eq(set.blocks[9].file, DATA "pingpong_np2_nobind_run2.sko");
  skampi_set_free(&set);
}
END_TEST

START_TEST(test_read_all_real_files)
{
  const char *files[] = {"pingpong_np2_bindcore_run1.sko", "pingpong_np2_bindcore_run2.sko",
                         "pingpong_np2_nobind_run1.sko", "pingpong_np2_nobind_run2.sko",
                         "skampi_pt2pt_np2.sko"};
  for (size_t i = 0; i < 5; i++) {
    skampi_set set = {0};
    char path[512];
    snprintf(path, sizeof path, DATA "%s", files[i]);
    read_ok(&set, path);
    size_t total = 0;
    for (size_t b = 0; b < set.nblocks; b++)
      total += set.blocks[b].npts;
    ck_assert_msg(total >= 23 * 5 || (i == 4 && total > 200), "%s: %zu points", files[i], total);
    skampi_set_free(&set);
  }
}
END_TEST

START_TEST(test_read_dashes)
{
  /* "    ---   ": a process without a valid value; line 15 of the synthetic file */
  skampi_set set = {0};
  read_ok(&set, SYN "sqrt2_two_segments.sko");
  ck_assert_uint_eq(set.nblocks, 2);
  const skampi_block *b = &set.blocks[0];
  ck_assert(isnan(b->rank_times[b->pts[3].rank_first + 1]));
  ck_assert(!isnan(b->rank_times[b->pts[3].rank_first]));
  ck_assert_double_eq_tol(b->pts[0].resolution, 0.1, 1e-12);
  skampi_set_free(&set);
}
END_TEST

typedef struct bad_case {
  const char *file;
  int line;
  const char *words;
} bad_case;

static const bad_case bad[] = {
    {"unterminated.sko", 11, "end of file inside result block"},
    {"data_outside.sko", 4, "outside a '# begin result' block"},
    {"mismatched_end.sko", 14, "closes block \"Pingpong_Send_Recv\" opened at line 6"},
    {"nested_begin.sko", 10, "is still open"},
    {"end_without_begin.sko", 21, "without a matching"},
    {"not_a_number.sko", 9, "'2.0x' is not the time in microseconds"},
    {"truncated_line.sko", 10, "truncated data line"},
    {"rank_count.sko", 12, "1 per-process times"},
    {"negative_time.sko", 8, "negative time"},
    {"zero_reps.sko", 13, "0 repetitions"},
    {"begin_no_quotes.sko", 6, "quoted measurement name"},
    {"text_line.sko", 17, "'Killed' outside"},
    {"fractional_size.sko", 11, "message size in bytes (an integer)"},
    {"loop_var_no_value.sko", 7, "has no value"},
    {"bad_rank_time.sko", 7, "'n/a' is neither"},
};

START_TEST(test_read_malformed)
{
  const bad_case *c = &bad[_i];
  char path[512], err[512], prefix[600];
  snprintf(path, sizeof path, DATA "bad/%s", c->file);
  skampi_set set = {0};
  read_ok(&set, SYN "three_segments.sko"); /* blocks of earlier files must survive */
  ck_assert_msg(skampi_read_file(&set, path, err, sizeof err) != 0, "%s accepted", c->file);
  snprintf(prefix, sizeof prefix, "%s:%d: ", path, c->line);
  ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "%s: '%s' does not start with '%s'",
                c->file, err, prefix);
  ck_assert_msg(strstr(err, c->words), "%s: '%s' lacks '%s'", c->file, err, c->words);
  ck_assert_uint_eq(set.nblocks, 1);
  skampi_set_free(&set);
}
END_TEST

START_TEST(test_read_missing_file)
{
  skampi_set set = {0};
  char err[512];
  ck_assert_int_ne(skampi_read_file(&set, DATA "no_such_file.sko", err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "cannot open"));
}
END_TEST

/* ---- block selection ---------------------------------------------------------------- */

START_TEST(test_collect)
{
  skampi_set set = {0};
  read_ok(&set, DATA "pingpong_np2_bindcore_run1.sko");
  collect c;
  char err[1024];
  ck_assert_int_eq(collect_blocks(&set, NULL, 0, true, &c, err, sizeof err), 0);
  ck_assert_uint_eq(c.nblocks, 1);
  ck_assert_uint_eq(c.nobs, 23);
  /* round trip 1811.3 us -> one way 905.65 us; printing step 0.1 -> 0.05 */
  ck_assert_double_eq_tol(c.obs[22].t, 905.65, 1e-9);
  ck_assert_double_eq_tol(c.obs[22].se, 68.95, 1e-9);
  ck_assert_double_eq_tol(c.obs[22].res, 0.05, 1e-12);
  ck_assert_ptr_nonnull(strstr(c.obs[22].src, "pingpong_np2_bindcore_run1.sko:29"));
  collect_free(&c);

  const char *glob[] = {"Pingpong_Send_Recv*"};
  ck_assert_int_eq(collect_blocks(&set, glob, 1, false, &c, err, sizeof err), 0);
  ck_assert_uint_eq(c.nblocks, 2);
  ck_assert_uint_eq(c.nobs, 23 + 44);
  ck_assert_double_eq_tol(c.obs[22].t, 1811.3, 1e-9);
  collect_free(&c);

  const char *none[] = {"Pingpong_Bsend_Recv"};
  ck_assert_int_ne(collect_blocks(&set, none, 1, true, &c, err, sizeof err), 0);
  ck_assert_msg(strstr(err, "\"Pingpong_Bsend_Recv\"") && strstr(err, "\"Pingpong_Isend_Recv\""),
                "%s", err);
  skampi_set_free(&set);
}
END_TEST

START_TEST(test_pooling)
{
  /* two runs of the same model: one point per size, the mean of both */
  const char *files[] = {SYN "run_a.sko", SYN "run_b.sko"};
  fit_data d;
  load_data(&d, files, 2, NULL, 0);
  ck_assert_uint_eq(d.n, 23);
  ck_assert_uint_eq(d.nobs, 46);
  for (size_t i = 0; i < d.n; i++) {
    ck_assert_uint_eq(d.pts[i].nobs, 2);
    ck_assert_double_eq_tol(d.pts[i].t, (d.obs[2 * i].t + d.obs[2 * i + 1].t) / 2, 1e-12);
  }
  fit_model m;
  fit_ok(&d, 3, (fit_options){FIT_REG_REL, FIT_CRIT_CORR, false, 3}, &m);
  check_model(&m, three, 3, 0.05, "two runs");
  fit_data_free(&d);
}
END_TEST

/* ---- fits --------------------------------------------------------------------------- */

START_TEST(test_recover_exact)
{
  /* every regression and criterion finds the breakpoints and parameters of the model
   * (up to the 3-decimal printing) */
  fit_data d;
  load1(&d, SYN "three_segments.sko");
  ck_assert_uint_eq(d.n, 23);
  for (int r = FIT_REG_LS; r <= FIT_REG_REL_LAD; r++)
    for (int c = FIT_CRIT_CORR; c <= FIT_CRIT_LOGERR; c++) {
      fit_model m;
      fit_ok(&d, 3, (fit_options){r, c, false, 3}, &m);
      char what[64];
      snprintf(what, sizeof what, "%s/%s", fit_regression_name(r), fit_criterion_name(c));
      check_model(&m, three, 3, 2e-3, what);
    }
  fit_data_free(&d);
}
END_TEST

START_TEST(test_recover_noisy)
{
  /* 2 % noise: breakpoints exact, parameters within 10 % */
  fit_data d;
  load1(&d, SYN "three_segments_noisy.sko");
  for (int r = FIT_REG_LS; r <= FIT_REG_REL_LAD; r++)
    for (int c = FIT_CRIT_CORR; c <= FIT_CRIT_LOGERR; c++) {
      fit_model m;
      fit_ok(&d, 3, (fit_options){r, c, false, 3}, &m);
      check_model(&m, three, 3, 0.10, "noisy");
    }
  fit_data_free(&d);
}
END_TEST

START_TEST(test_recover_sqrt2_grid)
{
  /* a breakpoint that is not a power of two, data printed with one decimal like SKaMPI */
  fit_data d;
  load1(&d, SYN "sqrt2_two_segments.sko");
  ck_assert_uint_eq(d.n, 40);
  for (int c = FIT_CRIT_CORR; c <= FIT_CRIT_LOGERR; c++) {
    fit_model m;
    fit_ok(&d, 2, (fit_options){FIT_REG_REL, c, false, 3}, &m);
    ck_assert_uint_eq(m.nseg, 2);
    ck_assert_double_eq(m.seg[1].start, 11585);
    ck_assert_double_eq_tol(m.seg[1].inv_bw, 1.5e-4, 1.5e-6);
    double ratio;
    ck_assert_uint_eq(fit_detect_switch(&m, 1.5, &ratio), 1);
    ck_assert(ratio > 2 && ratio < 2.3);
  }
  fit_data_free(&d);
}
END_TEST

START_TEST(test_continuous)
{
  /* A continuous model: its breakpoint points lie on both neighbouring lines, so without
   * continuity the boundary may go either side of them; with it (one LP per breakpoint set,
   * exhaustive) the model is recovered exactly. */
  fit_data d;
  load1(&d, SYN "continuous.sko");
  for (int r = FIT_REG_LAD; r <= FIT_REG_REL_LAD; r++) {
    fit_model m;
    fit_ok(&d, 3, (fit_options){r, FIT_CRIT_LOGERR, true, 3}, &m);
    check_model(&m, cont, 3, 1e-4, "continuous");
    for (size_t s = 1; s < 3; s++) { /* the segments meet */
      double x = m.seg[s].start + FIT_ENVELOPE;
      double a = m.seg[s - 1].lat + m.seg[s - 1].inv_bw * x,
             b = m.seg[s].lat + m.seg[s].inv_bw * x;
      ck_assert_double_eq_tol(a, b, 1e-9 * b);
    }
    ck_assert_uint_eq(fit_detect_switch(&m, 1.5, NULL), 0);
  }
  /* the paper's criterion does not depend on the lines: DP breakpoints, then the joint LP */
  fit_model m;
  fit_ok(&d, 3, (fit_options){FIT_REG_LAD, FIT_CRIT_CORR, true, 3}, &m);
  ck_assert_uint_eq(m.nseg, 3);
  char err[256];
  fit_options ls = {FIT_REG_LS, FIT_CRIT_LOGERR, true, 3};
  ck_assert_int_ne(fit_piecewise(d.pts, d.n, 3, &ls, &m, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "lad"));
  fit_data_free(&d);
}
END_TEST

START_TEST(test_constraints)
{
  /* Times that fall with size (a cache effect, or noise): the free least-squares line has a
   * negative slope; the fit keeps lat >= 0 and inv_bw >= 0 (what the simulator can express).
   * And a steep line through a negative intercept: lat clamps to 0. */
  fit_point down[] = {{10, 5.0, 0, 0.001, 1}, {20, 4.0, 0, 0.001, 1}, {40, 3.0, 0, 0.001, 1}};
  fit_point steep[] = {{1000, 1.0, 0, 0.001, 1},
                       {2000, 3.0, 0, 0.001, 1},
                       {3000, 5.0, 0, 0.001, 1}};
  for (int r = FIT_REG_LS; r <= FIT_REG_REL_LAD; r++) {
    fit_model m;
    char err[256];
    fit_options o = {r, FIT_CRIT_LOGERR, false, 2};
    ck_assert_int_eq(fit_piecewise(down, 3, 1, &o, &m, err, sizeof err), 0);
    ck_assert(m.seg[0].lat >= 0 && m.seg[0].inv_bw >= 0);
    ck_assert_double_eq(m.seg[0].inv_bw, FIT_MIN_INV_BW); /* flat: the floor */
    ck_assert(m.seg[0].lat >= 3.0 && m.seg[0].lat <= 5.0);
    ck_assert_int_eq(fit_piecewise(steep, 3, 1, &o, &m, err, sizeof err), 0);
    ck_assert(m.seg[0].lat >= 0 && m.seg[0].inv_bw > 0);
    ck_assert_double_eq_tol(m.seg[0].lat, 0, 1e-9);
  }
  /* least squares on the bound has a closed form: sum(p t) / sum(p^2) */
  fit_model m;
  char err[256];
  fit_options o = {FIT_REG_LS, FIT_CRIT_CORR, false, 2};
  ck_assert_int_eq(fit_piecewise(steep, 3, 1, &o, &m, err, sizeof err), 0);
  double spt = 1016 * 1.0 + 2016 * 3.0 + 3016 * 5.0,
         spp = 1016.0 * 1016 + 2016.0 * 2016 + 3016.0 * 3016;
  ck_assert_double_eq_tol(m.seg[0].inv_bw, spt / spp, 1e-15);
}
END_TEST

START_TEST(test_argument_errors)
{
  fit_data d;
  load1(&d, SYN "three_segments.sko");
  fit_model m;
  char err[256];
  fit_options o = {FIT_REG_LS, FIT_CRIT_CORR, false, 3};
  ck_assert_int_ne(fit_piecewise(d.pts, d.n, 8, &o, &m, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "need 24 measured sizes, the data have 23"));
  ck_assert_uint_eq(fit_max_segments(d.n, 16, 3), 7);
  o.min_points = 1;
  ck_assert_int_ne(fit_piecewise(d.pts, d.n, 2, &o, &m, err, sizeof err), 0);
  ck_assert_int_eq(fit_regression_parse("rel-lad"), FIT_REG_REL_LAD);
  ck_assert_int_eq(fit_regression_parse("l2"), -1);
  ck_assert_int_eq(fit_criterion_parse("logerr"), FIT_CRIT_LOGERR);
  fit_data_free(&d);
}
END_TEST

START_TEST(test_log_error)
{
  ck_assert_double_eq_tol(fit_log_error(2, 1), log(2), 1e-15);
  ck_assert_double_eq_tol(fit_log_error(1, 2), log(2), 1e-15);
  ck_assert_double_eq_tol(report_pct(log(2)), 100, 1e-12);
  ck_assert(isinf(fit_log_error(1, 0)));
  fit_point p[] = {{1, 1, 0, 0, 1}, {2, 2, 0, 0, 1}, {3, 4, 0, 0, 1}};
  double pred[] = {1, 4, 2}, mean, worst;
  fit_errors(p, 3, pred, &mean, &worst);
  ck_assert_double_eq_tol(mean, 2 * log(2) / 3, 1e-15);
  ck_assert_double_eq_tol(worst, log(2), 1e-15);
}
END_TEST

START_TEST(test_predict_boundaries)
{
  fit_data d;
  load1(&d, SYN "three_segments.sko");
  fit_model m;
  fit_ok(&d, 3, (fit_options){FIT_REG_LS, FIT_CRIT_CORR, false, 3}, &m);
  /* sizes under a segment's first measured size belong to the segment below */
  ck_assert_ptr_eq(fit_segment_of(&m, 4095), &m.seg[0]);
  ck_assert_ptr_eq(fit_segment_of(&m, 4096), &m.seg[1]);
  ck_assert_ptr_eq(fit_segment_of(&m, 0), &m.seg[0]);
  ck_assert_ptr_eq(fit_segment_of(&m, 1e12), &m.seg[2]);
  ck_assert_double_eq_tol(fit_predict(&m, 8192), 8.0 + 2e-4 * 8208, 1e-3);
  double ratio;
  ck_assert_uint_eq(fit_detect_switch(&m, 1.5, &ratio), 1);
  ck_assert_double_eq_tol(ratio, (8.0 + 2e-4 * 4112) / (1.0 + 1e-3 * 4112), 1e-3);
  ck_assert_uint_eq(fit_detect_switch(&m, 2.0, NULL), 0);
  fit_data_free(&d);
}
END_TEST

START_TEST(test_zero_time)
{
  /* a printed 0.0 has no logarithm: it becomes a quarter of the printing step */
  fit_obs o[] = {{.size = 1, .t = 0, .res = 0.05, .src = "x:1"},
                 {.size = 2, .t = 0.1, .res = 0.05}};
  fit_data d;
  fit_data_build(&d, o, 2);
  ck_assert_double_eq_tol(d.pts[0].t, 0.0125, 1e-15);
  ck_assert_double_eq_tol(d.pts[1].t, 0.1, 1e-15);
  fit_data_free(&d);
}
END_TEST

/* ---- what the simulator reads ---------------------------------------------------------- */

/* The simulator's one-way time of an uncontended message ("The model the references show" in
 * tools/simgrid-ref/README.md), from the emitted strings parsed by the simulator's own parser:
 * route latency x lat_factor(payload) + payload / (rate x bw_factor(payload)),
 * payload = size + 16, in microseconds. */
static double simulated(const fac_func *bw, const fac_func *lat, const fit_link *l, double size)
{
  double p = size + 16;
  return 1e6 * (l->lat * fac_factor(lat, p) + p / (fit_link_rate(l) * fac_factor(bw, p)));
}

static void check_emitted(const fit_model *m, const fit_point *pts, size_t n, const fit_link *l)
{
  char *bws = emit_bw_factor(m, l), *lats = emit_lat_factor(m, l), err[256];
  fac_func bw, lat;
  ck_assert_msg(fac_parse_factor("smpi/bw-factor", bws, FAC_POSITIVE, &bw, err, sizeof err) == 0,
                "%s: %s", bws, err);
  ck_assert_msg(fac_parse_factor("smpi/lat-factor", lats, FAC_NONNEGATIVE, &lat, err,
                                 sizeof err) == 0,
                "%s: %s", lats, err);
  for (size_t i = 0; i < n; i++) {
    /* at every measured size, and one byte on either side of it */
    for (int dx = -1; dx <= 1; dx++) {
      double s = pts[i].size + dx;
      if (s < 0)
        continue;
      double want = fit_predict(m, s), got = simulated(&bw, &lat, l, s);
      ck_assert_msg(fabs(got / want - 1) < 1e-8,
                    "size %g: simulator %.9g us, model %.9g us "
                    "(bw %s, lat %s)",
                    s, got, want, bws, lats);
    }
  }
  fac_free(&bw);
  fac_free(&lat);
  free(bws);
  free(lats);
}

START_TEST(test_emitted_factors_reproduce_model)
{
  /* The analytic half of the round trip: the emitted thresholds and factors, looked up the
   * way the simulator does (strict "largest threshold below the payload"), give back the
   * fitted model at every measured size and one byte on either side. Several links,
   * including one where TCP-gamma bounds the rate. */
  const char *files[] = {SYN "three_segments.sko", SYN "sqrt2_two_segments.sko",
                         DATA "pingpong_np2_bindcore_run1.sko",
                         DATA "pingpong_np2_nobind_run2.sko"};
  const fit_link links[] = {link_10g,
                            {.bw = 1.25e10, .lat = 1e-7, .tcp_gamma = 4194304},
                            {.bw = 1.25e9, .lat = 0.01, .tcp_gamma = 4194304}};
  ck_assert_double_eq_tol(fit_link_rate(&links[2]), 4194304 / 0.02, 1e-3);
  for (size_t f = 0; f < 4; f++) {
    fit_data d;
    load1(&d, files[f]);
    for (int c = FIT_CRIT_CORR; c <= FIT_CRIT_LOGERR; c++) {
      fit_model m;
      fit_ok(&d, f == 1 ? 2 : 3, (fit_options){FIT_REG_REL_LAD, c, false, 3}, &m);
      for (size_t l = 0; l < 3; l++)
        check_emitted(&m, d.pts, d.n, &links[l]);
    }
    fit_data_free(&d);
  }
}
END_TEST

START_TEST(test_threshold_worked_example)
{
  /* fit.c's worked example: a segment from 16384 B gets threshold 16399 */
  fit_segment g = {.start = 16384, .lat = 3.9, .inv_bw = 2e-4};
  ck_assert_double_eq(fit_factor_threshold(&g), 16399);
  ck_assert_double_eq_tol(fit_lat_factor(&g, &link_10g), 3.9, 1e-12);
  ck_assert_double_eq_tol(fit_bw_factor(&g, &link_10g), 4, 1e-12);
  fit_segment first = {.start = 0};
  ck_assert_double_eq(fit_factor_threshold(&first), 0);
  /* default affine: lat + (size + 16) / rate */
  ck_assert_double_eq_tol(fit_default_affine(&link_10g, 1234), 1 + 1250 / 1250.0, 1e-12);
}
END_TEST

static void declare_smpi_keys(void)
{
  /* the modules' own tables (the platform loader refuses unknown keys): the emitted settings
   * must suit the keys the simulator really has */
  net_declare_config();
  smpi_p2p_declare_config();
}

START_TEST(test_platform_snippet_loads)
{
  /* the emitted platform loads with our loader, its <config> sets the factors, and its one
   * link has the reference latency and bandwidth the factors assume */
  fit_data d;
  load1(&d, SYN "three_segments.sko");
  fit_model m;
  fit_ok(&d, 3, (fit_options){FIT_REG_REL, FIT_CRIT_CORR, false, 3}, &m);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  emit_platform(f, &m, &link_10g, 4096, "test");
  fclose(f);
  declare_smpi_keys();
  plat_platform *p;
  char err[512];
  ck_assert_msg(plat_load_string(buf, "calibrated.xml", &p, err, sizeof err) == 0, "%s\n%s", err,
                buf);
  ck_assert_uint_eq(plat_host_count(p), 2);
  plat_link_ref ref;
  ck_assert(plat_find_link(p, "calibrated-link", PLAT_DIR_UP, &ref));
  double bwv, latv;
  plat_sharing sh;
  plat_link_ref_props(&ref, &bwv, &latv, &sh);
  ck_assert_double_eq_tol(bwv, 1.25e9, 1e-3);
  ck_assert_double_eq_tol(latv, 1e-6, 1e-18);
  char *want = emit_bw_factor(&m, &link_10g);
  ck_assert_str_eq(cfg_get_string("smpi/bw-factor"), want);
  free(want);
  ck_assert_int_eq(cfg_get_int("smpi/send-is-detached-thresh"), 4096);
  ck_assert_int_eq(cfg_get_int("smpi/async-small-thresh"), 4096);
  plat_free(p);
  cfg_reset();
  free(buf);
  /* the settings string is what cfg_parse takes */
  char *s = emit_settings(&m, &link_10g, 0);
  ck_assert_msg(cfg_parse(s, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0, "%s: %s", s, err);
  ck_assert_ptr_null(strstr(s, "thresh"));
  free(s);
  cfg_reset();
  fit_data_free(&d);
}
END_TEST

/* ---- bootstrap ---------------------------------------------------------------------- */

START_TEST(test_rng)
{
  rng_state a, b;
  rng_seed(&a, 42);
  rng_seed(&b, 42);
  for (int i = 0; i < 100; i++)
    ck_assert(rng_next(&a) == rng_next(&b));
  rng_seed(&b, 43);
  ck_assert(rng_next(&a) != rng_next(&b));
  /* the stream itself (xoshiro256** seeded by splitmix64, computed independently): a change
   * would change every bootstrap interval and smpi/seed's draws */
  rng_seed(&a, 42);
  ck_assert(rng_next(&a) == 0x15780b2e0c2ec716ULL);
  ck_assert(rng_next(&a) == 0x6104d9866d113a7eULL);
  ck_assert(rng_next(&a) == 0xae17533239e499a1ULL);
  /* moments of 200 000 normal deviates (fixed seed: a fixed, checked outcome) */
  rng_seed(&a, 7);
  double s = 0, s2 = 0;
  for (int i = 0; i < 200000; i++) {
    double z = rng_normal(&a);
    s += z;
    s2 += z * z;
  }
  ck_assert_double_eq_tol(s / 200000, 0, 0.01);
  ck_assert_double_eq_tol(s2 / 200000, 1, 0.01);
}
END_TEST

START_TEST(test_interval)
{
  double v[101];
  for (int i = 0; i < 101; i++)
    v[i] = 101 - i; /* any order */
  boot_interval iv = boot_interval_of(v, 101, 0.9);
  ck_assert_double_eq_tol(iv.mid, 51, 1e-12);
  ck_assert_double_eq_tol(iv.lo, 6, 1e-12); /* 0.05 * 100 = 5 -> 6th smallest */
  ck_assert_double_eq_tol(iv.hi, 96, 1e-12);
  double w[] = {NAN, 1, NAN, 3};
  iv = boot_interval_of(w, 4, 0.5);
  ck_assert_double_eq_tol(iv.mid, 2, 1e-12);
  ck_assert_double_eq_tol(iv.lo, 1.5, 1e-12);
}
END_TEST

START_TEST(test_bootstrap)
{
  fit_data d;
  load1(&d, SYN "three_segments_noisy.sko");
  fit_options o = {FIT_REG_REL, FIT_CRIT_LOGERR, false, 3};
  boot_result a, b, c;
  char err[256];
  ck_assert_int_eq(boot_run(&d, 3, &o, 60, 11, &a, err, sizeof err), 0);
  ck_assert_int_eq(boot_run(&d, 3, &o, 60, 11, &b, err, sizeof err), 0);
  ck_assert_int_eq(boot_run(&d, 3, &o, 60, 12, &c, err, sizeof err), 0);
  ck_assert_uint_eq(a.nrep, 60);
  ck_assert(memcmp(a.models, b.models, 60 * sizeof *a.models) == 0); /* same seed, same fits */
  ck_assert(memcmp(a.models, c.models, 60 * sizeof *a.models) != 0);
  /* the breakpoints are clear: every replicate finds them; the true parameters lie in the
   * 95 % intervals (the file's times carry 2 % noise and say so in their standard error) */
  double *v = xmalloc(60 * sizeof *v);
  for (size_t s = 0; s < 3; s++) {
    for (size_t r = 0; r < 60; r++)
      ck_assert_double_eq(a.models[r].seg[s].start, three[s].start);
    for (int which = 0; which < 2; which++) {
      for (size_t r = 0; r < 60; r++)
        v[r] = which ? a.models[r].seg[s].inv_bw : a.models[r].seg[s].lat;
      boot_interval iv = boot_interval_of(v, 60, 0.95);
      double truth = which ? three[s].inv_bw : three[s].lat;
      ck_assert_msg(iv.lo < iv.hi, "segment %zu: empty interval", s);
      /* widened by 50 % of its half-width: 60 replicates estimate the quantiles roughly */
      double half = (iv.hi - iv.lo) / 2;
      ck_assert_msg(truth > iv.lo - half && truth < iv.hi + half,
                    "segment %zu %s: %g outside [%g, %g]", s, which ? "inv_bw" : "lat", truth,
                    iv.lo, iv.hi);
    }
  }
  free(v);
  boot_free(&a);
  boot_free(&b);
  boot_free(&c);
  /* replicates of one exact run: only the printing step's noise, intervals very narrow */
  fit_data e;
  load1(&e, SYN "three_segments.sko");
  ck_assert_int_eq(boot_run(&e, 3, &o, 30, 1, &a, err, sizeof err), 0);
  for (size_t r = 0; r < 30; r++)
    ck_assert_double_eq_tol(a.models[r].seg[1].inv_bw, 2e-4, 2e-6);
  boot_free(&a);
  fit_data_free(&e);
  fit_data_free(&d);
}
END_TEST

START_TEST(test_bootstrap_resamples_runs)
{
  /* Two runs per size, 1 us and 3 us, no noise: a replicate draws two runs with
   * replacement, so its time is 1, 2 or 3 us, never anything else, and all three occur. */
  fit_obs o[8];
  for (int i = 0; i < 8; i++)
    o[i] = (fit_obs){.size = (double)(1 << (i / 2)), .t = i % 2 ? 3.0 : 1.0, .reps = 1};
  fit_data d;
  fit_data_build(&d, o, 8);
  ck_assert_uint_eq(d.n, 4);
  ck_assert_double_eq(d.pts[0].t, 2.0);
  rng_state r;
  rng_seed(&r, 3);
  fit_point rep[4];
  int seen[4] = {0};
  for (int k = 0; k < 50; k++) {
    boot_replicate(&d, &r, rep);
    for (size_t i = 0; i < 4; i++) {
      ck_assert(rep[i].t == 1.0 || rep[i].t == 2.0 || rep[i].t == 3.0);
      seen[(int)rep[i].t]++;
    }
  }
  ck_assert(seen[1] > 0 && seen[2] > 0 && seen[3] > 0);
  ck_assert(seen[2] > seen[1] && seen[2] > seen[3]); /* 1/2 vs 1/4 each: 200 draws */
  fit_data_free(&d);
}
END_TEST

/* ---- reports and figure --------------------------------------------------------------- */

static long file_size(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

START_TEST(test_plot_files)
{
  fit_data d;
  load1(&d, SYN "three_segments_noisy.sko");
  fit_options o = {FIT_REG_REL, FIT_CRIT_CORR, false, 3};
  fit_model pw, af;
  fit_ok(&d, 3, o, &pw);
  fit_ok(&d, 1, o, &af);
  boot_result b;
  char err[512];
  ck_assert_int_eq(boot_run(&d, 3, &o, 20, 1, &b, err, sizeof err), 0);
  report_eval e;
  report_eval_compute(&e, d.pts, d.n, &pw, &af, &link_10g);
  ck_assert(e.pw_mean < 0.03 && e.af_mean > 0.1 && e.df_mean > 0.3);
  const char *base = SMPI_BUILD_ROOT "/check_calibration_plot";
  ck_assert_msg(report_plot(base, "test", &e, &pw, &af, &link_10g, &b, 0.95, err, sizeof err) ==
                    0,
                "%s", err);
  char path[600];
  snprintf(path, sizeof path, "%s.png", base);
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  unsigned char sig[8];
  ck_assert_uint_eq(fread(sig, 1, 8, f), 8);
  fclose(f);
  ck_assert(memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
  ck_assert(file_size(path) > 10000);
  snprintf(path, sizeof path, "%s.svg", base);
  f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char head[512] = "";
  ck_assert(fread(head, 1, sizeof head - 1, f) > 0);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(head, "<svg"));
  /* an unknown extension is a user error, not a crash */
  plot *p = plot_new(100, 100);
  ck_assert_int_ne(plot_save(p, SMPI_BUILD_ROOT "/x.pdf", err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, ".svg or .png"));
  plot_free(p);
  /* CSV: header + one line per size, with the interval columns */
  boot_interval *iv = report_prediction_intervals(&e, &b, 0.95);
  char *buf = NULL;
  size_t len = 0;
  f = open_memstream(&buf, &len);
  report_csv(f, &e, iv);
  fclose(f);
  size_t lines = 0;
  for (char *c = buf; *c; c++)
    lines += *c == '\n';
  ck_assert_uint_eq(lines, d.n + 1);
  ck_assert_ptr_nonnull(strstr(buf, "piecewise_hi_us"));
  free(buf);
  free(iv);
  report_eval_free(&e);
  boot_free(&b);
  fit_data_free(&d);
}
END_TEST

START_TEST(test_byte_labels)
{
  char b[32];
  plot_label_bytes(1, b, sizeof b);
  ck_assert_str_eq(b, "1");
  plot_label_bytes(4096, b, sizeof b);
  ck_assert_str_eq(b, "4Ki");
  plot_label_bytes(4194304, b, sizeof b);
  ck_assert_str_eq(b, "4Mi");
  plot_label_bytes(1000, b, sizeof b);
  ck_assert_str_eq(b, "1000");
}
END_TEST

/* ---- the command line ------------------------------------------------------------------ */

static int run_tool(const char *args, char **out)
{
  char *cmd = xasprintf("%s/calibration/smpi-calibrate %s 2>&1", SMPI_BUILD_ROOT, args);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t cap = 0, len = 0;
  *out = NULL;
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) {
    XGROW(*out, cap, len + n + 1);
    memcpy(*out + len, chunk, n);
    len += n;
  }
  if (!*out)
    *out = xstrdup("");
  else
    (*out)[len] = '\0';
  int st = pclose(p);
  free(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_cli)
{
  char *out;
  const char *cfg = SMPI_BUILD_ROOT "/check_calibration.cfg";
  char *args = xasprintf("--open-loop -q --cfg-out=%s -p %s %s", cfg, SYN "run_a.sko",
                         SYN "three_segments.sko");
  ck_assert_int_eq(run_tool(args, &out), 0);
  ck_assert_msg(strstr(out, "3 0 4096 262144"), "%s", out);
  ck_assert_msg(strstr(out, "eager/rendezvous switch: the model steps up x1.73 at 4096 B"), "%s",
                out);
  ck_assert_msg(strstr(out, "--cfg='smpi/send-is-detached-thresh:4096'"), "%s", out);
  ck_assert_msg(strstr(out, "run_a.sko"), "%s", out);
  free(out);
  free(args);
  FILE *f = fopen(cfg, "r");
  ck_assert_ptr_nonnull(f);
  char line[1024];
  int ncfg = 0;
  while (fgets(line, sizeof line, f))
    ncfg += strncmp(line, "--cfg=smpi/", 11) == 0;
  fclose(f);
  ck_assert_int_eq(ncfg, 7);
  /* errors: a malformed file names file:line; a missing block lists the blocks; bad options */
  ck_assert_int_eq(run_tool("--open-loop " DATA "bad/zero_reps.sko", &out), 1);
  ck_assert_msg(strstr(out, "zero_reps.sko:13: 0 repetitions"), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool("--open-loop -b Nope " SYN "three_segments.sko", &out), 1);
  ck_assert_msg(strstr(out, "blocks present: \"Pingpong_Send_Recv\""), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool("--open-loop --criterion=best " SYN "three_segments.sko", &out), 1);
  ck_assert_msg(strstr(out, "one of corr, logerr"), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool("--open-loop --link-bw=10Gbs " SYN "three_segments.sko", &out), 1);
  ck_assert_msg(strstr(out, "Gbs"), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool("--open-loop --continuous " SYN "three_segments.sko", &out), 1);
  ck_assert_msg(strstr(out, "needs --regression=lad"), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool("", &out), 1);
  free(out);
  /* bootstrap samples: a header, then one settings line per replicate */
  const char *samples = SMPI_BUILD_ROOT "/check_calibration_samples.txt";
  args = xasprintf("--open-loop -q -B 25 --seed 5 --samples-out=%s %s", samples,
                   SYN "three_segments_noisy.sko");
  ck_assert_int_eq(run_tool(args, &out), 0);
  ck_assert_msg(strstr(out, "bootstrap: 25 replicates"), "%s", out);
  free(out);
  free(args);
  f = fopen(samples, "r");
  ck_assert_ptr_nonnull(f);
  int nsamples = 0;
  char err[256];
  while (fgets(line, sizeof line, f))
    if (line[0] != '#') {
      nsamples++;
      line[strcspn(line, "\n")] = '\0';
      declare_smpi_keys();
      ck_assert_msg(cfg_parse(line, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0, "%s: %s", line,
                    err);
      cfg_reset();
    }
  fclose(f);
  ck_assert_int_eq(nsamples, 25);
}
END_TEST

/* The default is the closed-loop fit (issue 26): its report holds what a user must read, with
 * -q too; bad input is refused with a message naming the file and what to do; the legacy fit
 * stays reachable with --open-loop, and its options are refused without it. */
START_TEST(test_cli_default)
{
  static const char *const items[] = {
      "in-sample (fit on all runs)",
      "leave-one-run-out (fit on the others)",
      "noise floor (mean of the other runs)",
      "best-fit affine, leave-one-run-out",
      "default affine (simulator, no factors)",
      "95% intervals contain",
      "of the left-out runs' points",
      "verdict: the ",
      "summary: insample=",
      "settings: ",
  };
  const char *runs3 = DATA "pingpong_np2_bindcore_run1.sko " DATA
                           "pingpong_np2_nobind_run2.sko " DATA "skampi_pt2pt_np2.sko";
  for (int quiet = 0; quiet < 2; quiet++) {
    char *out, *args = xasprintf("%s%s", quiet ? "-q " : "", runs3);
    ck_assert_int_eq(run_tool(args, &out), 0);
    for (size_t i = 0; i < sizeof items / sizeof *items; i++)
      ck_assert_msg(strstr(out, items[i]), "no \"%s\" in the report:\n%s", items[i], out);
    /* the fit is closed-loop: the protocol is part of it, no round trip / 2 */
    ck_assert_msg(strstr(out, "smpi/async-small-thresh:16384"), "%s", out);
    ck_assert_msg(!strstr(out, "round trip / 2"), "%s", out);
    ck_assert_msg(quiet == !strstr(out, "closed-loop fit (the default"), "%s", out);
    free(out);
    free(args);
  }
  char *out;
  /* --closed-loop, the default said aloud, gives the same */
  char *args = xasprintf("--closed-loop -q %s", runs3);
  ck_assert_int_eq(run_tool(args, &out), 0);
  ck_assert_msg(strstr(out, "summary: insample="), "%s", out);
  free(out);
  free(args);
  /* one run: no floor, no leave-one-run-out, no honest interval: refused, --open-loop named */
  ck_assert_int_eq(run_tool(DATA "pingpong_np2_bindcore_run1.sko", &out), 1);
  ck_assert_msg(strstr(out, "pingpong_np2_bindcore_run1.sko: one run only: the closed-loop fit "
                            "needs two runs or more"),
                "%s", out);
  ck_assert_msg(strstr(out, "--open-loop fits a single run"), "%s", out);
  ck_assert_msg(!strstr(out, "summary:") && !strstr(out, "settings:"), "%s", out);
  free(out);
  /* the same run twice: a noise floor of zero, a verdict about nothing */
  ck_assert_int_eq(run_tool(DATA "pingpong_np2_nobind_run1.sko " DATA "skampi_pt2pt_np2.sko " DATA
                                 "pingpong_np2_nobind_run1.sko",
                            &out),
                   1);
  ck_assert_msg(strstr(out, "pingpong_np2_nobind_run1.sko holds the same measurements as"), "%s",
                out);
  free(out);
  /* a run without a ping-pong block: the blocks it has are listed */
  const char *coll = SMPI_BUILD_ROOT "/check_calibration_coll.sko";
  FILE *f = fopen(coll, "w");
  ck_assert_ptr_nonnull(f);
  fputs("# begin result \"Bcast\"\ncount= 1        1     2.060     0.020       16     2.060     "
        "1.998\n# end result \"Bcast\"\n",
        f);
  fclose(f);
  args = xasprintf("%s %s", DATA "pingpong_np2_bindcore_run1.sko", coll);
  ck_assert_int_eq(run_tool(args, &out), 1);
  ck_assert_msg(strstr(out, "check_calibration_coll.sko: no result block matches "
                            "\"Pingpong_Send_Recv\"; blocks present: \"Bcast\""),
                "%s", out);
  free(out);
  free(args);
  /* runs that share no size: no floor, and the verdict says so instead of comparing with NaN */
  const char *lo = SMPI_BUILD_ROOT "/check_calibration_lo.sko",
             *hi = SMPI_BUILD_ROOT "/check_calibration_hi.sko";
  for (int k = 0; k < 2; k++) {
    f = fopen(k ? hi : lo, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# begin result \"Pingpong_Send_Recv\"\n", f);
    for (int e = 0; e < 4; e++) {
      double size = ldexp(1, k ? 16 + e : e), t = 2.0 + size / 1000.0;
      fprintf(f, "count= %.0f %.0f %.3f 0.010 16 %.3f %.3f\n", size, size, t, t, t);
    }
    fputs("# end result \"Pingpong_Send_Recv\"\n", f);
    fclose(f);
  }
  args = xasprintf("-q %s %s", lo, hi);
  ck_assert_int_eq(run_tool(args, &out), 0);
  ck_assert_msg(strstr(out, "noise floor (mean of the other runs)     n/a: the runs share no "
                            "measured size"),
                "%s", out);
  ck_assert_msg(strstr(out, "verdict: none:"), "%s", out);
  ck_assert_msg(!strstr(out, "nan%") && !strstr(out, "nanx"), "%s", out);
  free(out);
  free(args);
  /* unreadable (a directory: CI runs as root), missing, empty */
  args = xasprintf("%s %s", DATA "pingpong_np2_bindcore_run1.sko", DATA "synthetic");
  ck_assert_int_eq(run_tool(args, &out), 1);
  ck_assert_msg(strstr(out, "synthetic:0: cannot read: Is a directory"), "%s", out);
  free(out);
  free(args);
  ck_assert_int_eq(run_tool(DATA "pingpong_np2_bindcore_run1.sko " DATA "none.sko", &out), 1);
  ck_assert_msg(strstr(out, "none.sko: cannot open"), "%s", out);
  free(out);
  ck_assert_int_eq(run_tool(DATA "pingpong_np2_bindcore_run1.sko /dev/null", &out), 1);
  ck_assert_msg(strstr(out, "holds no SKaMPI result block"), "%s", out);
  free(out);
  /* the legacy fit's options need --open-loop; the closed loop's are refused with it */
  args = xasprintf("-p %s %s", SYN "run_b.sko", runs3);
  ck_assert_int_eq(run_tool(args, &out), 1);
  ck_assert_msg(strstr(out, "--predict is an option of the legacy open-loop fit: add "
                            "--open-loop"),
                "%s", out);
  free(out);
  free(args);
  args = xasprintf("--open-loop --penalty=1 %s", runs3);
  ck_assert_int_eq(run_tool(args, &out), 1);
  ck_assert_msg(strstr(out, "--penalty belongs to the closed-loop fit"), "%s", out);
  free(out);
  free(args);
  args = xasprintf("--open-loop --closed-loop %s", runs3);
  ck_assert_int_eq(run_tool(args, &out), 1);
  ck_assert_msg(strstr(out, "choose one"), "%s", out);
  free(out);
  free(args);
  /* --open-loop on one run: the legacy fit and report */
  ck_assert_int_eq(run_tool("--open-loop -q " DATA "pingpong_np2_bindcore_run1.sko", &out), 0);
  ck_assert_msg(strstr(out, "open-loop fit (legacy, --open-loop)"), "%s", out);
  ck_assert_msg(strstr(out, "one-way time = round trip / 2"), "%s", out);
  free(out);
}
END_TEST

static Suite *calibration_suite(void)
{
  Suite *s = suite_create("calibration");
  TCase *tc = tcase_create("reader");
  tcase_add_test(tc, test_read_real_pingpong);
  tcase_add_test(tc, test_read_echoed_source);
  tcase_add_test(tc, test_read_all_real_files);
  tcase_add_test(tc, test_read_dashes);
  tcase_add_loop_test(tc, test_read_malformed, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(tc, test_read_missing_file);
  tcase_add_test(tc, test_collect);
  tcase_add_test(tc, test_pooling);
  suite_add_tcase(s, tc);

  tc = tcase_create("fit");
  tcase_add_test(tc, test_recover_exact);
  tcase_add_test(tc, test_recover_noisy);
  tcase_add_test(tc, test_recover_sqrt2_grid);
  tcase_add_test(tc, test_continuous);
  tcase_add_test(tc, test_constraints);
  tcase_add_test(tc, test_argument_errors);
  tcase_add_test(tc, test_log_error);
  tcase_add_test(tc, test_predict_boundaries);
  tcase_add_test(tc, test_zero_time);
  suite_add_tcase(s, tc);

  tc = tcase_create("simulator");
  tcase_add_test(tc, test_emitted_factors_reproduce_model);
  tcase_add_test(tc, test_threshold_worked_example);
  tcase_add_test(tc, test_platform_snippet_loads);
  suite_add_tcase(s, tc);

  tc = tcase_create("uncertainty");
  tcase_add_test(tc, test_rng);
  tcase_add_test(tc, test_interval);
  tcase_add_test(tc, test_bootstrap);
  tcase_add_test(tc, test_bootstrap_resamples_runs);
  suite_add_tcase(s, tc);

  tc = tcase_create("output");
  tcase_add_test(tc, test_plot_files);
  tcase_add_test(tc, test_byte_labels);
  tcase_add_test(tc, test_cli);
  tcase_add_test(tc, test_cli_default);
  tcase_set_timeout(tc, 60);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(calibration_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
