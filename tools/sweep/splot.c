/* Figures of a sweep, drawn with calibration/plot.c (the cairo API of smpi-gantt and
 * smpi-calibrate): the simulated time (or an output) against one parameter with one line per
 * value of another, or a heat map over two parameters. Each plotted value is the mean over
 * the points that share the plotted parameters' values (seeds, other parameters), failed and
 * missing points left out.
 *
 * A parameter whose values are all plain numbers gets a numeric axis (logarithmic when they
 * span two decades or more); any other (10Gbps, FAT_TREE) one tick per value, in the
 * study's order, labelled with the value's text.
 */
#include "tools/sweep/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration/plot.h"
#include "src/mem.h"

/* The labels of the categorical axes (plot_label_fn has no context pointer). */
static struct splot_labels {
  const sweep_param *axis[2]; /* per plot axis, NULL: numeric */
} splot_labels;

static void label_of(int a, double v, char *buf, size_t len)
{
  const sweep_param *p = splot_labels.axis[a];
  long k = lround(v);
  if (!p || fabs(v - (double)k) > 1e-9 || k < 0 || (size_t)k >= p->nvalues)
    buf[0] = 0;
  else
    snprintf(buf, len, "%s", p->values[k]);
}
static void label_x(double v, char *buf, size_t len) { label_of(0, v, buf, len); }
static void label_y(double v, char *buf, size_t len) { label_of(1, v, buf, len); }

static const sweep_param *find_param(const sweep_study *st, const char *name, size_t *index,
                                     char *err, size_t errlen)
{
  for (size_t j = 0; j < st->nparams; j++)
    if (!strcmp(st->params[j].name, name)) {
      *index = j;
      return &st->params[j];
    }
  size_t used = (size_t)snprintf(err, errlen, "no parameter '%s' in %s (its parameters:", name,
                                 st->path);
  for (size_t j = 0; j < st->nparams && used < errlen; j++)
    used += (size_t)snprintf(err + used, errlen - used, " %s", st->params[j].name);
  if (used < errlen)
    snprintf(err + used, errlen - used, ")");
  return NULL;
}

/* all values numbers? then *vals holds them */
static bool numeric_values(const sweep_param *p, double *vals)
{
  for (size_t k = 0; k < p->nvalues; k++) {
    char *end;
    vals[k] = strtod(p->values[k], &end);
    if (end == p->values[k] || *end)
      return false;
  }
  return true;
}

static bool spans_decades(const double *v, size_t n)
{
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < n; k++) {
    if (v[k] <= 0)
      return false;
    lo = fmin(lo, v[k]);
    hi = fmax(hi, v[k]);
  }
  return n > 2 && hi / lo >= 100;
}

/* sums[a * nb + b] over the points, the y of each point: sim_time or an output */
static int gather(const sweep_study *st, const sweep_dirs *d, const char *y, size_t pa, size_t pb,
                  bool has_b, double *sum, size_t *count, char *err, size_t errlen)
{
  long out = -1;
  if (strcmp(y, "time")) {
    for (size_t o = 0; o < st->noutputs; o++)
      if (!strcmp(st->outputs[o].name, y))
        out = (long)o;
    if (out < 0) {
      snprintf(err, errlen, "--y %s: not 'time' nor an output of the study", y);
      return -1;
    }
  }
  size_t nb = has_b ? st->params[pb].nvalues : 1;
  size_t *vidx = xcalloc(st->nparams + 1, sizeof *vidx);
  size_t used = 0;
  for (size_t i = 0; i < st->npoints; i++) {
    sweep_record r;
    sweep_record_read(st, d, i, &r);
    double v = NAN;
    if (r.ok)
      v = out < 0 ? r.sim_time : r.outputs[out] ? strtod(r.outputs[out], NULL) : NAN;
    sweep_record_clear(&r);
    if (!isfinite(v))
      continue;
    sweep_point_values(st, i, vidx);
    size_t cell = vidx[pa] * nb + (has_b ? vidx[pb] : 0);
    sum[cell] += v;
    count[cell]++;
    used++;
  }
  free(vidx);
  if (used == 0) {
    snprintf(err, errlen, "no point of %s has a value to plot yet (smpi-sweep run first)",
             d->out);
    return -1;
  }
  return 0;
}

static const plot_color palette[] = {
    {0.12, 0.35, 0.75, 1}, {0.80, 0.15, 0.10, 1}, {0.10, 0.55, 0.20, 1}, {0.90, 0.55, 0.05, 1},
    {0.50, 0.25, 0.65, 1}, {0.10, 0.60, 0.65, 1}, {0.55, 0.35, 0.20, 1}, {0.40, 0.40, 0.40, 1},
};

/* dark blue (low) -> teal -> yellow (high), as viridis, readable in grey too */
static plot_color heat_color(double t)
{
  static const double stops[3][3] = {{0.27, 0.00, 0.33}, {0.13, 0.57, 0.55}, {0.99, 0.91, 0.14}};
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  int k = t < 0.5 ? 0 : 1;
  double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
  return (plot_color){stops[k][0] + u * (stops[k + 1][0] - stops[k][0]),
                      stops[k][1] + u * (stops[k + 1][1] - stops[k][1]),
                      stops[k][2] + u * (stops[k + 1][2] - stops[k][2]), 1};
}

int sweep_plot(const sweep_study *st, const sweep_dirs *d, const sweep_plot_opts *o, char *err,
               size_t errlen)
{
  size_t px = 0, pl = 0;
  const sweep_param *x = NULL, *l = NULL;
  bool heat = o->heat != NULL;
  if (heat) {
    char *comma = strchr(o->heat, ',');
    if (!comma) {
      snprintf(err, errlen, "--heat needs two parameters, P,Q");
      return -1;
    }
    char *first = xstrndup(o->heat, (size_t)(comma - o->heat));
    x = find_param(st, first, &px, err, errlen);
    free(first);
    if (x)
      l = find_param(st, comma + 1, &pl, err, errlen);
  } else if (!o->x) {
    snprintf(err, errlen, "plot needs --x PARAM (a line plot) or --heat P,Q (a heat map)");
    return -1;
  } else {
    x = find_param(st, o->x, &px, err, errlen);
    if (x && o->lines)
      l = find_param(st, o->lines, &pl, err, errlen);
  }
  if (!x || (!l && (heat || o->lines)))
    return -1;
  if (l && pl == px) {
    snprintf(err, errlen, "plot: the two parameters must differ (both are %s)", x->name);
    return -1;
  }
  size_t nx = x->nvalues, nl = l ? l->nvalues : 1;
  double *sum = xcalloc(nx * nl, sizeof *sum);
  size_t *count = xcalloc(nx * nl, sizeof *count);
  if (gather(st, d, o->y, px, pl, l != NULL, sum, count, err, errlen) != 0) {
    free(sum);
    free(count);
    return -1;
  }
  const char *yname = strcmp(o->y, "time") ? o->y : "simulated time (s)";
  plot *p = plot_new(heat ? 760 : 800, 560);
  char title[256];
  splot_labels.axis[0] = splot_labels.axis[1] = NULL;
  double *xv = xcalloc(nx, sizeof *xv), *yv = xcalloc(nx, sizeof *yv);
  if (heat) {
    snprintf(title, sizeof title, "%s over %s and %s", yname, x->name, l->name);
    plot_title(p, title);
    splot_labels.axis[0] = x;
    splot_labels.axis[1] = l;
    plot_axis(p, PLOT_AXIS_X, PLOT_LINEAR, x->name);
    plot_axis(p, PLOT_AXIS_Y, PLOT_LINEAR, l->name);
    plot_axis_range(p, PLOT_AXIS_X, -0.5, (double)nx - 0.5);
    plot_axis_range(p, PLOT_AXIS_Y, -0.5, (double)nl - 0.5);
    plot_axis_ticks(p, PLOT_AXIS_X, 10, label_x);
    plot_axis_ticks(p, PLOT_AXIS_Y, 10, label_y);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < nx * nl; k++)
      if (count[k]) {
        lo = fmin(lo, sum[k] / (double)count[k]);
        hi = fmax(hi, sum[k] / (double)count[k]);
      }
    for (size_t a = 0; a < nx; a++)
      for (size_t b = 0; b < nl; b++) {
        size_t k = a * nl + b;
        char text[32] = "";
        plot_color c = {0.9, 0.9, 0.9, 1};
        if (count[k]) {
          double v = sum[k] / (double)count[k];
          c = heat_color(hi > lo ? (v - lo) / (hi - lo) : 0.5);
          snprintf(text, sizeof text, "%.4g", v);
        }
        plot_rect(p, (double)a - 0.5, (double)b - 0.5, (double)a + 0.5, (double)b + 0.5, c, text);
      }
    char leg[96];
    snprintf(leg, sizeof leg, "low: %.4g", lo);
    plot_swatch(p, heat_color(0), leg);
    snprintf(leg, sizeof leg, "high: %.4g", hi);
    plot_swatch(p, heat_color(1), leg);
    plot_swatch(p, (plot_color){0.9, 0.9, 0.9, 1}, "no value");
    plot_legend_right(p, 150);
  } else {
    snprintf(title, sizeof title, "%s against %s%s%s", yname, x->name, l ? ", one line per " : "",
             l ? l->name : "");
    plot_title(p, title);
    bool num = numeric_values(x, xv);
    if (!num) {
      for (size_t a = 0; a < nx; a++)
        xv[a] = (double)a;
      splot_labels.axis[0] = x;
      plot_axis_range(p, PLOT_AXIS_X, -0.5, (double)nx - 0.5);
      plot_axis_ticks(p, PLOT_AXIS_X, 10, label_x);
    }
    plot_axis(p, PLOT_AXIS_X, num && spans_decades(xv, nx) ? PLOT_LOG : PLOT_LINEAR, x->name);
    double *all = xcalloc(nx * nl, sizeof *all);
    size_t nall = 0;
    for (size_t k = 0; k < nx * nl; k++)
      if (count[k])
        all[nall++] = sum[k] / (double)count[k];
    plot_axis(p, PLOT_AXIS_Y, spans_decades(all, nall) ? PLOT_LOG : PLOT_LINEAR, yname);
    free(all);
    for (size_t b = 0; b < nl; b++) {
      for (size_t a = 0; a < nx; a++) {
        size_t k = a * nl + b;
        yv[a] = count[k] ? sum[k] / (double)count[k] : NAN;
      }
      char leg[160];
      if (l)
        snprintf(leg, sizeof leg, "%s = %s", l->name, l->values[b]);
      plot_series(p, xv, yv, nx,
                  (plot_style){.color = palette[b % (sizeof palette / sizeof *palette)],
                               .line_width = 1.5,
                               .marker = PLOT_MARK_CIRCLE,
                               .marker_size = 3},
                  l ? leg : NULL);
    }
    if (l)
      plot_legend_right(p, 170);
  }
  int rc = plot_save(p, o->out, err, errlen);
  plot_free(p);
  free(xv);
  free(yv);
  free(sum);
  free(count);
  return rc;
}
