/* smpi-calibrate --closed-loop (calibration/closedloop.c): the pattern coefficients against
 * hand-computed SKaMPI repetitions, recovery of a known model with an eager/rendezvous switch
 * from synthetic runs generated through the pattern model, robustness to a spike and a bump
 * that move between runs, and the honesty of the intervals on runs with a known spread.
 * (The simulated half of the closed loop is calibration/closedloop.sh, run by the
 * closedloop_sim_* tests.) */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration/closedloop.h"
#include "src/mem.h"

static const fit_link link_10g = {.bw = 1.25e9, .lat = 1e-6, .tcp_gamma = 4194304};

/* one way: 0.5 us + P / 2 GB/s below 1 KiB, 1 us + P / 4 GB/s to 16 KiB (eager), then a
 * rendezvous step: 12 us + P / 8 GB/s (x1.7 beyond proportional growth) */
static void true_model(cl_model *m)
{
  cl_default_model(&link_10g, m);
  m->default_protocol = false;
  m->eager_below = 16384;
  m->m.nseg = 3;
  m->m.seg[0] = (fit_segment){.start = 0, .lat = 0.5, .inv_bw = 1 / 2000.0};
  m->m.seg[1] = (fit_segment){.start = 1024, .lat = 1.0, .inv_bw = 1 / 4000.0};
  m->m.seg[2] = (fit_segment){.start = 16384, .lat = 12.0, .inv_bw = 1 / 8000.0};
}

/* deterministic noise in [-1, 1] */
static double jitter(unsigned i)
{
  i = i * 2654435761u + 12345u;
  i ^= i >> 13;
  i *= 2246822519u;
  i ^= i >> 16;
  return (double)(i % 20001) / 10000.0 - 1.0;
}

/* nruns Send_Recv runs at 1 B .. 4 MiB, factor 2, relative noise `noise` (run-wide factor
 * and per point); run 0 gets a x5 spike at 128 B, run 1 a x3 bump at 4 KiB */
static void synth(cl_data *d, size_t nruns, double noise, bool outliers)
{
  cl_model m;
  true_model(&m);
  memset(d, 0, sizeof *d);
  d->nruns = nruns;
  d->runs = xcalloc(nruns, sizeof *d->runs);
  d->pts = xmalloc(nruns * 23 * sizeof *d->pts);
  for (size_t r = 0; r < nruns; r++) {
    d->runs[r] = xasprintf("synthetic-%zu", r);
    double run_factor = 1 + noise * jitter((unsigned)r * 977u);
    for (int k = 0; k <= 22; k++) {
      double s = ldexp(1, k), t = cl_predict(&m, CL_PAT_SEND_RECV, s) * run_factor;
      t *= 1 + noise * jitter((unsigned)(r * 100 + (size_t)k));
      if (outliers && r == 0 && s == 128)
        t *= 5;
      if (outliers && r == 1 && s == 4096)
        t *= 3;
      d->pts[d->n++] = (cl_point){.size = s, .t = t, .pat = CL_PAT_SEND_RECV, .run = r, .wt = 1};
    }
  }
  /* sorted by size as cl_data_load leaves them */
  for (size_t i = 1; i < d->n; i++)
    for (size_t j = i;
         j > 0 && (d->pts[j - 1].size > d->pts[j].size ||
                   (d->pts[j - 1].size == d->pts[j].size && d->pts[j - 1].run > d->pts[j].run));
         j--) {
      cl_point x = d->pts[j];
      d->pts[j] = d->pts[j - 1];
      d->pts[j - 1] = x;
    }
}

START_TEST(test_pattern_names)
{
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Send_Recv"), CL_PAT_SEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Send_Recv-sqrt2"), CL_PAT_SEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Send_Recv_AnyTag"), CL_PAT_SEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Isend_Recv"), CL_PAT_SEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Send_Irecv"), CL_PAT_SEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Ssend_Recv"), CL_PAT_SSEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Issend_Recv"), CL_PAT_SSEND_RECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Sendrecv"), CL_PAT_SENDRECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Sendrecv_replace"), CL_PAT_SENDRECV);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Send_Iprobe_Recv"), -2);
  ck_assert_int_eq(cl_pattern_of_block("Pingpong_Bsend_Recv"), -1);
  ck_assert_int_eq(cl_pattern_of_block("Bcast"), -1);
}
END_TEST

/* SKaMPI's Send_Recv in the simulator, by hand: detached (the defaults) 3 one-way times per
 * repetition, eager 2 latencies + 3 payload times (C and A' share the wire), rendezvous 2
 * one-way times; the default model is the bare route: 1 us, 1.25 GB/s. */
START_TEST(test_coefficients)
{
  cl_model d;
  cl_default_model(&link_10g, &d);
  double one = 1.0 + 17 / 1250.0; /* 1 B: latency + payload 17 B at 1250 B/us */
  ck_assert_double_eq_tol(cl_predict(&d, CL_PAT_SEND_RECV, 1), 3 * one, 1e-9);
  double big = 1.0 + 65552 / 1250.0;
  ck_assert_double_eq_tol(cl_predict(&d, CL_PAT_SEND_RECV, 65536), 2 * big, 1e-9);
  ck_assert_double_eq_tol(cl_predict(&d, CL_PAT_SSEND_RECV, 1), 2 * one, 1e-9);
  cl_model m;
  true_model(&m);
  double w = 1040 / 4000.0; /* 1 KiB: payload 1040 B at 4000 B/us */
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_SEND_RECV, 1024), 2 * 1.0 + 3 * w, 1e-9);
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_SSEND_RECV, 1024), 2 * (1.0 + w), 1e-9);
  double wr = 16400 / 8000.0;
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_SEND_RECV, 16384), 2 * (12.0 + wr), 1e-9);
  /* a rendezvous exchange: both directions at once, each at 1 / 1.05 of the rate */
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_SENDRECV, 16384), 12.0 + 1.05 * wr, 1e-9);
  /* an eager exchange of nothing: one latency, plus the skew the barrier left (0.5 us) */
  cl_model z = m;
  z.m.seg[0].inv_bw = 1e-12;
  z.m.seg[1].inv_bw = 1e-12;
  ck_assert_double_eq_tol(cl_predict(&z, CL_PAT_SENDRECV, 1024), 1.0 + 0.5, 1e-6);
}
END_TEST

/* exact runs: the model comes back, switch, breakpoints and parameters */
START_TEST(test_recovery)
{
  cl_data d;
  synth(&d, 3, 0, false);
  cl_options o = CL_OPTIONS_DEFAULT;
  cl_model m, t;
  char err[256];
  true_model(&t);
  ck_assert_int_eq(cl_fit(&d, SIZE_MAX, &o, &link_10g, FIT_MAX_SEGMENTS, &m, err, sizeof err), 0);
  ck_assert_double_eq(m.eager_below, 16384);
  ck_assert_uint_eq(m.m.nseg, 3);
  ck_assert_double_eq(m.m.seg[1].start, 1024);
  ck_assert_double_eq(m.m.seg[2].start, 16384);
  for (size_t s = 0; s < 3; s++) {
    ck_assert_double_eq_tol(m.m.seg[s].lat, t.m.seg[s].lat, 1e-4 * t.m.seg[s].lat);
    ck_assert_double_eq_tol(m.m.seg[s].inv_bw, t.m.seg[s].inv_bw, 1e-4 * t.m.seg[s].inv_bw);
  }
  cl_data_free(&d);
}
END_TEST

/* a x5 spike at 128 B in one run and a x3 bump at 4 KiB in another, 2 % noise: no segment
 * follows them, every other size stays within 5 % of the truth */
START_TEST(test_outliers)
{
  cl_data d;
  synth(&d, 4, 0.02, true);
  cl_options o = CL_OPTIONS_DEFAULT;
  cl_model m, t;
  char err[256];
  true_model(&t);
  ck_assert_int_eq(cl_fit(&d, SIZE_MAX, &o, &link_10g, FIT_MAX_SEGMENTS, &m, err, sizeof err), 0);
  ck_assert_double_eq(m.eager_below, 16384);
  for (int k = 0; k <= 22; k++) {
    double s = ldexp(1, k);
    double rel = cl_predict(&m, CL_PAT_SEND_RECV, s) / cl_predict(&t, CL_PAT_SEND_RECV, s) - 1;
    ck_assert_msg(fabs(rel) < 0.05, "size %g: fitted %g off the truth by %.1f %%", s,
                  cl_predict(&m, CL_PAT_SEND_RECV, s), 100 * rel);
  }
  cl_data_free(&d);
}
END_TEST

/* runs that differ by up to +-20 % as a whole: the 95 % intervals of leave-one-run-out
 * contain >= 90 % of the left-out points, and are not absurdly wide */
START_TEST(test_intervals)
{
  cl_data d;
  synth(&d, 6, 0.2, false);
  cl_options o = CL_OPTIONS_DEFAULT;
  cl_model m;
  cl_eval ev;
  char err[256];
  ck_assert_int_eq(cl_fit(&d, SIZE_MAX, &o, &link_10g, FIT_MAX_SEGMENTS, &m, err, sizeof err), 0);
  ck_assert_int_eq(cl_evaluate(&d, &o, &link_10g, &m, &ev, err, sizeof err), 0);
  ck_assert_msg(ev.coverage >= 0.9, "coverage %g", ev.coverage);
  ck_assert_msg(ev.width < 2.5, "width %g", ev.width);
  ck_assert_msg(ev.loro < 1.2 * ev.floor, "loro %g floor %g", ev.loro, ev.floor);
  cl_data_free(&d);
}
END_TEST

/* the real files: one run per file, blocks by glob, patterns by name; Send_Iprobe_Recv refused
 * with the reason and the file's line */
START_TEST(test_load)
{
  const char *files[] = {SMPI_SOURCE_ROOT "/tests/data/skampi/pingpong_np2_bindcore_run1.sko",
                         SMPI_SOURCE_ROOT "/tests/data/skampi/skampi_pt2pt_np2.sko"};
  const char *glob_sr[] = {"Pingpong_Send_Recv*", "Pingpong_Sendrecv"};
  cl_data d;
  char err[512];
  ck_assert_int_eq(cl_data_load(&d, files, 2, glob_sr, 2, err, sizeof err), 0);
  ck_assert_uint_eq(d.nruns, 2);
  /* Send_Recv (23 + 44 on the sqrt(2) grid + 24), Send_Recv_AnyTag (24), Sendrecv (23 + 24) */
  ck_assert_uint_eq(d.n, 23 + 44 + 24 + 24 + 23 + 24);
  ck_assert_uint_eq(d.nblocks, 3);
  ck_assert_str_eq(d.blocks[0], "Send_Recv");
  size_t sendrecv = 0;
  for (size_t i = 0; i < d.n; i++) {
    ck_assert(i == 0 || d.pts[i - 1].size <= d.pts[i].size);
    sendrecv += d.pts[i].pat == CL_PAT_SENDRECV;
  }
  ck_assert_uint_eq(sendrecv, 23 + 24);
  cl_data_free(&d);
  const char *glob_all[] = {"Pingpong_*"};
  ck_assert_int_eq(cl_data_load(&d, files + 1, 1, glob_all, 1, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "skampi_pt2pt_np2.sko:"));
  ck_assert_ptr_nonnull(strstr(err, "smpi/iprobe"));
  cl_data_free(&d);
}
END_TEST

/* calibration/pingpong_skampi.c's output: SKaMPI's block name, its own pattern (a round trip
 * after a handshake: 2 (lat + W) at every size, where SKaMPI's Send_Recv has 3 below the
 * switch), mixed with a SKaMPI run */
START_TEST(test_load_ours)
{
  const char *files[] = {SMPI_SOURCE_ROOT "/tests/data/pingpong_skampi/pingpong_skampi_run1.sko",
                         SMPI_SOURCE_ROOT "/tests/data/skampi/pingpong_np2_bindcore_run1.sko"};
  const char *glob[] = {"Pingpong_Send_Recv"};
  cl_data d;
  char err[512];
  ck_assert_int_eq(cl_data_load(&d, files, 2, glob, 1, err, sizeof err), 0);
  ck_assert_uint_eq(d.nblocks, 2);
  ck_assert_str_eq(d.blocks[0], "pingpong_skampi");
  ck_assert_str_eq(d.blocks[1], "Send_Recv");
  for (size_t i = 0; i < d.n; i++)
    ck_assert_int_eq(d.pts[i].pat, d.pts[i].run == 0 ? CL_PAT_HANDSHAKE : CL_PAT_SEND_RECV);
  cl_data_free(&d);
  cl_model m;
  true_model(&m);
  double w = 1040 / 4000.0; /* 1 KiB, eager: payload 1040 B at 4000 B/us */
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_HANDSHAKE, 1024), 2 * (1.0 + w), 1e-9);
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_SEND_RECV, 1024), 2 * 1.0 + 3 * w, 1e-9);
  double wr = 16400 / 8000.0; /* rendezvous */
  ck_assert_double_eq_tol(cl_predict(&m, CL_PAT_HANDSHAKE, 16384), 2 * (12.0 + wr), 1e-9);
}
END_TEST

static Suite *closedloop_suite(void)
{
  Suite *s = suite_create("closedloop");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pattern_names);
  tcase_add_test(tc, test_load);
  tcase_add_test(tc, test_load_ours);
  tcase_add_test(tc, test_coefficients);
  tcase_add_test(tc, test_recovery);
  tcase_add_test(tc, test_outliers);
  tcase_add_test(tc, test_intervals);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(closedloop_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
