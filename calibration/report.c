/* Text, CSV and figure reports of a calibration (see report.h). */
#include "calibration/report.h"

#include "calibration/plot.h"
#include "src/invariant.h"
#include "src/mem.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void report_eval_compute(report_eval *e, const fit_point *pts, size_t n, const fit_model *pw,
                         const fit_model *affine, const fit_link *l)
{
  *e = (report_eval){.pts = pts, .n = n};
  e->pw = xmalloc((n ? n : 1) * sizeof *e->pw);
  e->af = xmalloc((n ? n : 1) * sizeof *e->af);
  e->df = xmalloc((n ? n : 1) * sizeof *e->df);
  for (size_t i = 0; i < n; i++) {
    e->pw[i] = fit_predict(pw, pts[i].size);
    e->af[i] = fit_predict(affine, pts[i].size);
    e->df[i] = fit_default_affine(l, pts[i].size);
  }
  fit_errors(pts, n, e->pw, &e->pw_mean, &e->pw_worst);
  fit_errors(pts, n, e->af, &e->af_mean, &e->af_worst);
  fit_errors(pts, n, e->df, &e->df_mean, &e->df_worst);
}

void report_eval_free(report_eval *e)
{
  free(e->pw);
  free(e->af);
  free(e->df);
  *e = (report_eval){0};
}

double report_pct(double logerr) { return 100.0 * expm1(logerr); }

boot_interval *report_prediction_intervals(const report_eval *e, const boot_result *b,
                                           double level)
{
  boot_interval *iv = xmalloc((e->n ? e->n : 1) * sizeof *iv);
  double *v = xmalloc((b->nrep ? b->nrep : 1) * sizeof *v);
  for (size_t i = 0; i < e->n; i++) {
    for (size_t r = 0; r < b->nrep; r++)
      v[r] = fit_predict(&b->models[r], e->pts[i].size);
    iv[i] = boot_interval_of(v, b->nrep, level);
  }
  free(v);
  return iv;
}

void report_table(FILE *out, const report_eval *e, const boot_interval *iv, double level)
{
  fprintf(out, "%10s %11s %11s %8s %11s %8s %11s %8s", "size", "measured", "piecewise", "err",
          "best-affine", "err", "def-affine", "err");
  if (iv)
    fprintf(out, "   piecewise %.0f%% interval", 100 * level);
  fprintf(out, "\n%10s %11s %11s %8s %11s %8s %11s %8s\n", "(bytes)", "(us)", "(us)", "", "(us)",
          "", "(us)", "");
  for (size_t i = 0; i < e->n; i++) {
    const fit_point *p = &e->pts[i];
    fprintf(out, "%10.0f %11.4g %11.4g %7.1f%% %11.4g %7.1f%% %11.4g %7.1f%%", p->size, p->t,
            e->pw[i], report_pct(fit_log_error(p->t, e->pw[i])), e->af[i],
            report_pct(fit_log_error(p->t, e->af[i])), e->df[i],
            report_pct(fit_log_error(p->t, e->df[i])));
    if (iv)
      fprintf(out, "   [%.4g, %.4g]", iv[i].lo, iv[i].hi);
    fputc('\n', out);
  }
  fprintf(out, "%10s %11s %11s %7.1f%% %11s %7.1f%% %11s %7.1f%%\n", "mean", "", "",
          report_pct(e->pw_mean), "", report_pct(e->af_mean), "", report_pct(e->df_mean));
  fprintf(out, "%10s %11s %11s %7.1f%% %11s %7.1f%% %11s %7.1f%%\n", "worst", "", "",
          report_pct(e->pw_worst), "", report_pct(e->af_worst), "", report_pct(e->df_worst));
}

void report_csv(FILE *out, const report_eval *e, const boot_interval *iv)
{
  fprintf(out,
          "size_bytes,measured_us,stderr_us,piecewise_us,piecewise_logerr,affine_us,"
          "affine_logerr,default_us,default_logerr%s\n",
          iv ? ",piecewise_lo_us,piecewise_median_us,piecewise_hi_us" : "");
  for (size_t i = 0; i < e->n; i++) {
    const fit_point *p = &e->pts[i];
    fprintf(out, "%.0f,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g", p->size, p->t, p->se,
            e->pw[i], fit_log_error(p->t, e->pw[i]), e->af[i], fit_log_error(p->t, e->af[i]),
            e->df[i], fit_log_error(p->t, e->df[i]));
    if (iv)
      fprintf(out, ",%.10g,%.10g,%.10g", iv[i].lo, iv[i].mid, iv[i].hi);
    fputc('\n', out);
  }
}

typedef enum { SP_START, SP_LAT, SP_BW, SP_LATF, SP_BWF } seg_param;

static double param_of(const fit_segment *g, const fit_link *l, seg_param p)
{
  switch (p) {
  case SP_START:
    return g->start;
  case SP_LAT:
    return g->lat;
  case SP_BW:
    return g->inv_bw > FIT_MIN_INV_BW ? 1e6 / g->inv_bw : INFINITY;
  case SP_LATF:
    return fit_lat_factor(g, l);
  case SP_BWF:
    return fit_bw_factor(g, l);
  }
  UNREACHABLE();
}

void report_segments(FILE *out, const fit_model *m, const fit_link *l, const boot_result *b,
                     double level)
{
  static const char *const names[] = {"first size (B)", "latency (us)", "bandwidth (B/s)",
                                      "lat-factor", "bw-factor"};
  fprintf(out, "%3s %10s %10s %12s %12s %12s %12s %8s\n", "seg", "sizes from", "to", "lat (us)",
          "bw (B/s)", "lat-factor", "bw-factor", "r");
  for (size_t s = 0; s < m->nseg; s++) {
    const fit_segment *g = &m->seg[s];
    fprintf(out, "%3zu %10.0f %10.0f %12.5g %12.5g %12.5g %12.5g %8.4f\n", s, g->start,
            s + 1 < m->nseg ? m->seg[s + 1].start - 1 : INFINITY, g->lat, param_of(g, l, SP_BW),
            param_of(g, l, SP_LATF), param_of(g, l, SP_BWF), g->r);
  }
  if (!b || b->nrep == 0)
    return;
  size_t same = 0;
  for (size_t r = 0; r < b->nrep; r++) {
    bool eq = b->models[r].nseg == m->nseg;
    for (size_t s = 0; eq && s < m->nseg; s++)
      eq = b->models[r].seg[s].first == m->seg[s].first;
    same += eq;
  }
  fprintf(out,
          "bootstrap: %zu replicates, %.1f%% with the same breakpoints; %.0f%% intervals "
          "(median) per segment:\n",
          b->nrep, 100.0 * (double)same / (double)b->nrep, 100 * level);
  double *v = xmalloc(b->nrep * sizeof *v);
  for (size_t s = 0; s < m->nseg; s++) {
    for (seg_param p = SP_START; p <= SP_BWF; p++) {
      if (s == 0 && p == SP_START)
        continue;
      for (size_t r = 0; r < b->nrep; r++)
        v[r] = s < b->models[r].nseg ? param_of(&b->models[r].seg[s], l, p) : NAN;
      boot_interval iv = boot_interval_of(v, b->nrep, level);
      fprintf(out, "  seg %zu %-16s %12.5g  [%.5g, %.5g]  (median %.5g)\n", s, names[p],
              param_of(&m->seg[s], l, p), iv.lo, iv.hi, iv.mid);
    }
  }
  free(v);
}

/* Points of the model curves over the size range: smooth lines on a log axis. */
#define CURVE_POINTS 480

int report_plot(const char *base, const char *title, const report_eval *e, const fit_model *pw,
                const fit_model *affine, const fit_link *l, const boot_result *b, double level,
                char *err, size_t errlen)
{
  if (e->n == 0) {
    snprintf(err, errlen, "nothing to plot");
    return -1;
  }
  double xmin = fmax(e->pts[0].size, 1), xmax = fmax(e->pts[e->n - 1].size, xmin * 2);
  size_t nc = CURVE_POINTS;
  /* one curve point per grid step, plus a NaN and two points around each boundary so that
   * the piecewise model's steps are drawn as breaks, not as slopes */
  size_t cap = nc + 3 * pw->nseg;
  double *gx = xmalloc(cap * sizeof *gx), *gpw = xmalloc(cap * sizeof *gpw);
  double *ax = xmalloc(nc * sizeof *ax), *gaf = xmalloc(nc * sizeof *gaf),
         *gdf = xmalloc(nc * sizeof *gdf);
  size_t ng = 0, seg = 0;
  for (size_t i = 0; i < nc; i++) {
    double x = xmin * pow(xmax / xmin, (double)i / (double)(nc - 1));
    while (seg + 1 < pw->nseg && pw->seg[seg + 1].start <= x) {
      double s = pw->seg[seg + 1].start;
      if (s > xmin) {
        gx[ng] = s, gpw[ng++] = pw->seg[seg].lat + pw->seg[seg].inv_bw * (s + FIT_ENVELOPE);
        gx[ng] = s, gpw[ng++] = NAN;
        gx[ng] = s, gpw[ng++] = fit_predict(pw, s);
      }
      seg++;
    }
    gx[ng] = x, gpw[ng++] = fit_predict(pw, x);
    ax[i] = x;
    gaf[i] = fit_predict(affine, x);
    gdf[i] = fit_default_affine(l, x);
  }
  plot *p = plot_new(820, 580);
  plot_title(p, title);
  plot_axis(p, PLOT_AXIS_X, PLOT_LOG, "message size (bytes)");
  plot_axis_ticks(p, PLOT_AXIS_X, 4, plot_label_bytes);
  plot_axis(p, PLOT_AXIS_Y, PLOT_LOG, "one-way time (us)");
  double *lo = NULL, *hi = NULL;
  if (b && b->nrep > 0) {
    lo = xmalloc(nc * sizeof *lo);
    hi = xmalloc(nc * sizeof *hi);
    double *v = xmalloc(b->nrep * sizeof *v);
    for (size_t i = 0; i < nc; i++) {
      for (size_t r = 0; r < b->nrep; r++)
        v[r] = fit_predict(&b->models[r], ax[i]);
      boot_interval iv = boot_interval_of(v, b->nrep, level);
      lo[i] = iv.lo;
      hi[i] = iv.hi;
    }
    free(v);
    char *leg = xasprintf("piecewise, %.0f%% bootstrap band", 100 * level);
    plot_band(p, ax, lo, hi, nc, (plot_color){0.12, 0.35, 0.75, 0.18}, leg);
    free(leg);
  }
  double *mx = xmalloc(e->n * sizeof *mx), *my = xmalloc(e->n * sizeof *my);
  for (size_t i = 0; i < e->n; i++)
    mx[i] = e->pts[i].size, my[i] = e->pts[i].t;
  char leg_pw[96], leg_af[96], leg_df[96];
  snprintf(leg_pw, sizeof leg_pw, "piecewise, %zu segments (mean err %.1f%%)", pw->nseg,
           report_pct(e->pw_mean));
  snprintf(leg_af, sizeof leg_af, "best-fit affine (mean err %.1f%%)", report_pct(e->af_mean));
  snprintf(leg_df, sizeof leg_df, "default affine (mean err %.1f%%)", report_pct(e->df_mean));
  plot_series(p, ax, gdf, nc, (plot_style){.color = PLOT_GREY, .line_width = 1.5, .dash = 6},
              leg_df);
  plot_series(p, ax, gaf, nc, (plot_style){.color = PLOT_GREEN, .line_width = 1.5, .dash = 3},
              leg_af);
  plot_series(p, gx, gpw, ng, (plot_style){.color = PLOT_BLUE, .line_width = 2}, leg_pw);
  plot_series(p, mx, my, e->n,
              (plot_style){.color = PLOT_RED, .marker = PLOT_MARK_CIRCLE, .marker_size = 3.2},
              "measured");
  int rc = 0;
  const char *ext[] = {".svg", ".png"};
  for (int k = 0; k < 2 && rc == 0; k++) {
    char *path = xasprintf("%s%s", base, ext[k]);
    rc = plot_save(p, path, err, errlen);
    free(path);
  }
  plot_free(p);
  free(gx);
  free(gpw);
  free(ax);
  free(gaf);
  free(gdf);
  free(lo);
  free(hi);
  free(mx);
  free(my);
  return rc;
}
