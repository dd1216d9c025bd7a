/* cairo rendering of plot.h's figures. Layout, in device units:
 *
 *   +------------------------------------------------+
 *   |                    title                       |  top margin
 *   |      +-------------------------------------+   |
 *   | tick | legend                              |   |
 *   | lbls |      plot area (clipped items)      |   |  right margin
 *   |      +-------------------------------------+   |
 *   |       tick labels, then the x axis label       |  bottom margin
 *   +------------------------------------------------+
 *     left margin (tick labels, rotated y axis label)
 *
 * One drawing function serves both surfaces, so the SVG and the PNG show the same figure. */
#include "calibration/plot.h"

#include "src/invariant.h"
#include "src/mem.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { IT_SERIES, IT_BAND, IT_RECT, IT_TEXT, IT_VLINE, IT_ARROW, IT_SWATCH } item_kind;

typedef struct item {
  item_kind kind;
  double *x, *y, *y2; /* series: x, y; band: x, lo, hi */
  size_t n;
  plot_style st;
  plot_color fill;
  double x0, y0, x1, y1; /* rect, arrow; text at (x0, y0); vline at x0 */
  char *text;
  char *legend;
} item;

typedef struct axis {
  plot_scale scale;
  char *label;
  bool fixed;
  double min, max;
  double base;
  plot_label_fn fn;
} axis;

struct plot {
  double w, h;
  char *title;
  axis ax[2];
  item *items;
  size_t n, cap;
  double legend_right; /* width of the legend column right of the plot area, 0: inside */
};

void plot_label_default(double v, char *buf, size_t len)
{
  if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3))
    snprintf(buf, len, "%.3g", v);
  else
    snprintf(buf, len, "%g", v);
}

void plot_label_bytes(double v, char *buf, size_t len)
{
  static const char *const suffix[] = {"", "Ki", "Mi", "Gi", "Ti"};
  int i = 0;
  while (i < 4 && fabs(v) >= 1024 && fmod(v, 1024) == 0) {
    v /= 1024;
    i++;
  }
  snprintf(buf, len, "%g%s", v, suffix[i]);
}

plot *plot_new(double width, double height)
{
  ASSERT(width > 0 && height > 0);
  plot *p = xcalloc(1, sizeof *p);
  p->w = width;
  p->h = height;
  for (int a = 0; a < 2; a++)
    p->ax[a] = (axis){.scale = PLOT_LINEAR, .base = 10, .fn = plot_label_default};
  return p;
}

static void item_free(item *it)
{
  free(it->x);
  free(it->y);
  free(it->y2);
  free(it->text);
  free(it->legend);
}

void plot_free(plot *p)
{
  if (!p)
    return;
  for (size_t i = 0; i < p->n; i++)
    item_free(&p->items[i]);
  free(p->items);
  free(p->title);
  free(p->ax[0].label);
  free(p->ax[1].label);
  free(p);
}

void plot_title(plot *p, const char *title)
{
  free(p->title);
  p->title = title ? xstrdup(title) : NULL;
}

void plot_axis(plot *p, plot_axis_id a, plot_scale scale, const char *label)
{
  p->ax[a].scale = scale;
  free(p->ax[a].label);
  p->ax[a].label = label ? xstrdup(label) : NULL;
}

void plot_axis_range(plot *p, plot_axis_id a, double min, double max)
{
  ASSERTF(max > min, "empty axis range [%g, %g]", min, max);
  ASSERTF(p->ax[a].scale == PLOT_LINEAR || min > 0, "log axis range must be positive");
  p->ax[a].fixed = true;
  p->ax[a].min = min;
  p->ax[a].max = max;
}

void plot_axis_ticks(plot *p, plot_axis_id a, double base, plot_label_fn label)
{
  ASSERT(base > 1);
  p->ax[a].base = base;
  p->ax[a].fn = label ? label : plot_label_default;
}

static item *add_item(plot *p, item_kind kind)
{
  XGROW(p->items, p->cap, p->n + 1);
  item *it = &p->items[p->n++];
  *it = (item){.kind = kind};
  return it;
}

static double *copy(const double *v, size_t n)
{
  double *c = xmalloc((n ? n : 1) * sizeof *c);
  if (n)
    memcpy(c, v, n * sizeof *c);
  return c;
}

void plot_series(plot *p, const double *x, const double *y, size_t n, plot_style st,
                 const char *legend)
{
  item *it = add_item(p, IT_SERIES);
  it->x = copy(x, n);
  it->y = copy(y, n);
  it->n = n;
  it->st = st;
  it->legend = legend ? xstrdup(legend) : NULL;
}

void plot_band(plot *p, const double *x, const double *lo, const double *hi, size_t n,
               plot_color fill, const char *legend)
{
  item *it = add_item(p, IT_BAND);
  it->x = copy(x, n);
  it->y = copy(lo, n);
  it->y2 = copy(hi, n);
  it->n = n;
  it->fill = fill;
  it->legend = legend ? xstrdup(legend) : NULL;
}

void plot_rect(plot *p, double x0, double y0, double x1, double y1, plot_color fill,
               const char *label)
{
  item *it = add_item(p, IT_RECT);
  it->x0 = fmin(x0, x1), it->x1 = fmax(x0, x1);
  it->y0 = fmin(y0, y1), it->y1 = fmax(y0, y1);
  it->fill = fill;
  it->text = label ? xstrdup(label) : NULL;
}

void plot_text(plot *p, double x, double y, const char *text, plot_color c)
{
  item *it = add_item(p, IT_TEXT);
  it->x0 = x, it->y0 = y;
  it->fill = c;
  it->text = xstrdup(text);
}

void plot_vline(plot *p, double x, plot_style st, const char *legend)
{
  item *it = add_item(p, IT_VLINE);
  it->x0 = x;
  it->st = st;
  it->legend = legend ? xstrdup(legend) : NULL;
}

void plot_arrow(plot *p, double x0, double y0, double x1, double y1, plot_style st)
{
  item *it = add_item(p, IT_ARROW);
  it->x0 = x0, it->y0 = y0, it->x1 = x1, it->y1 = y1;
  it->st = st;
}

void plot_swatch(plot *p, plot_color fill, const char *legend)
{
  item *it = add_item(p, IT_SWATCH);
  it->fill = fill;
  it->legend = xstrdup(legend);
}

void plot_legend_right(plot *p, double width)
{
  ASSERT(width >= 0 && width < p->w);
  p->legend_right = width;
}

/* ---- ranges and ticks -------------------------------------------------------------- */

typedef struct range {
  double min, max;
  bool any;
} range;

static void range_add(range *r, const axis *a, double v)
{
  if (!isfinite(v) || (a->scale == PLOT_LOG && v <= 0))
    return;
  if (!r->any || v < r->min)
    r->min = v;
  if (!r->any || v > r->max)
    r->max = v;
  r->any = true;
}

static double log_b(double v, double base) { return log(v) / log(base); }

static double nice_step(double span)
{
  double raw = span / 6, mag = pow(10, floor(log10(raw))), f = raw / mag;
  return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

/* Resolves an axis's range: fixed, or the data's snapped outwards to ticks. */
static void resolve(const plot *p, int a, double *min, double *max)
{
  const axis *ax = &p->ax[a];
  if (ax->fixed) {
    *min = ax->min;
    *max = ax->max;
    return;
  }
  range r = {0};
  for (size_t i = 0; i < p->n; i++) {
    const item *it = &p->items[i];
    switch (it->kind) {
    case IT_SERIES:
    case IT_BAND:
      for (size_t k = 0; k < it->n; k++) {
        range_add(&r, ax, a == 0 ? it->x[k] : it->y[k]);
        if (a == 1 && it->y2)
          range_add(&r, ax, it->y2[k]);
      }
      break;
    case IT_RECT:
    case IT_ARROW:
      range_add(&r, ax, a == 0 ? it->x0 : it->y0);
      range_add(&r, ax, a == 0 ? it->x1 : it->y1);
      break;
    case IT_SWATCH:
      break;
    case IT_TEXT:
      range_add(&r, ax, a == 0 ? it->x0 : it->y0);
      break;
    case IT_VLINE:
      if (a == 0)
        range_add(&r, ax, it->x0);
      break;
    }
  }
  if (!r.any)
    r = ax->scale == PLOT_LOG ? (range){1, 10, true} : (range){0, 1, true};
  if (ax->scale == PLOT_LOG) {
    if (r.max <= r.min)
      r.max = r.min * ax->base;
    *min = pow(ax->base, floor(log_b(r.min, ax->base) + 1e-9));
    *max = pow(ax->base, ceil(log_b(r.max, ax->base) - 1e-9));
    if (*max <= *min)
      *max = *min * ax->base;
  } else {
    if (r.max <= r.min)
      r.max = r.min + 1;
    double step = nice_step(r.max - r.min);
    *min = floor(r.min / step) * step;
    *max = ceil(r.max / step) * step;
  }
}

/* ---- drawing ----------------------------------------------------------------------- */

typedef struct frame {
  double left, top, width, height; /* plot area */
  double xmin, xmax, ymin, ymax;
  plot_scale xs, ys;
} frame;

static double axis_pos(double v, double min, double max, plot_scale s)
{
  if (s == PLOT_LOG)
    return v > 0 ? (log(v) - log(min)) / (log(max) - log(min)) : NAN;
  return (v - min) / (max - min);
}

static double fx(const frame *f, double v)
{
  return f->left + f->width * axis_pos(v, f->xmin, f->xmax, f->xs);
}

static double fy(const frame *f, double v)
{
  return f->top + f->height * (1 - axis_pos(v, f->ymin, f->ymax, f->ys));
}

static void set_color(cairo_t *cr, plot_color c)
{
  cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

static void set_line(cairo_t *cr, const plot_style *st)
{
  cairo_set_line_width(cr, st->line_width > 0 ? st->line_width : 1);
  if (st->dash > 0) {
    double d[2] = {st->dash, st->dash * 0.6};
    cairo_set_dash(cr, d, 2, 0);
  } else {
    cairo_set_dash(cr, NULL, 0, 0);
  }
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double halign, double valign)
{
  cairo_text_extents_t e;
  cairo_text_extents(cr, s, &e);
  cairo_move_to(cr, x - e.x_advance * halign, y + e.height * valign);
  cairo_show_text(cr, s);
}

static void marker(cairo_t *cr, plot_marker m, double x, double y, double r)
{
  cairo_set_dash(cr, NULL, 0, 0);
  switch (m) {
  case PLOT_MARK_NONE:
    return;
  case PLOT_MARK_CIRCLE:
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    cairo_fill(cr);
    return;
  case PLOT_MARK_SQUARE:
    cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
    cairo_fill(cr);
    return;
  case PLOT_MARK_CROSS:
    cairo_set_line_width(cr, fmax(1, r / 2));
    cairo_move_to(cr, x - r, y - r);
    cairo_line_to(cr, x + r, y + r);
    cairo_move_to(cr, x - r, y + r);
    cairo_line_to(cr, x + r, y - r);
    cairo_stroke(cr);
    return;
  }
}

static void draw_ticks(cairo_t *cr, const plot *p, const frame *f, int a)
{
  const axis *ax = &p->ax[a];
  double min = a == 0 ? f->xmin : f->ymin, max = a == 0 ? f->xmax : f->ymax;
  double ticks[256];
  size_t nt = 0;
  if (ax->scale == PLOT_LOG) {
    long k0 = (long)ceil(log_b(min, ax->base) - 1e-9),
         k1 = (long)floor(log_b(max, ax->base) + 1e-9);
    long stride = (k1 - k0) / 14 + 1; /* at most ~14 labels */
    for (long k = k0; k <= k1 && nt < 256; k += stride)
      ticks[nt++] = pow(ax->base, (double)k);
  } else {
    double step = nice_step(max - min);
    for (double v = ceil(min / step - 1e-9) * step; v <= max + step * 1e-9 && nt < 256; v += step)
      ticks[nt++] = fabs(v) < step * 1e-9 ? 0 : v;
  }
  cairo_set_font_size(cr, 11);
  for (size_t i = 0; i < nt; i++) {
    char buf[64];
    ax->fn(ticks[i], buf, sizeof buf);
    cairo_set_source_rgba(cr, 0.88, 0.88, 0.88, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_set_dash(cr, NULL, 0, 0);
    if (a == 0) {
      double x = fx(f, ticks[i]);
      cairo_move_to(cr, x, f->top);
      cairo_line_to(cr, x, f->top + f->height);
      cairo_stroke(cr);
      set_color(cr, PLOT_BLACK);
      text_at(cr, x, f->top + f->height + 6, buf, 0.5, 1.0);
    } else {
      double y = fy(f, ticks[i]);
      cairo_move_to(cr, f->left, y);
      cairo_line_to(cr, f->left + f->width, y);
      cairo_stroke(cr);
      set_color(cr, PLOT_BLACK);
      text_at(cr, f->left - 6, y, buf, 1.0, 0.5);
    }
  }
}

static void draw_series(cairo_t *cr, const frame *f, const item *it)
{
  set_color(cr, it->st.color);
  if (it->st.line_width > 0) {
    set_line(cr, &it->st);
    bool pen = false;
    for (size_t k = 0; k < it->n; k++) {
      double x = fx(f, it->x[k]), y = fy(f, it->y[k]);
      if (!isfinite(x) || !isfinite(y)) {
        pen = false;
        continue;
      }
      if (pen)
        cairo_line_to(cr, x, y);
      else
        cairo_move_to(cr, x, y);
      pen = true;
    }
    cairo_stroke(cr);
  }
  for (size_t k = 0; k < it->n; k++) {
    double x = fx(f, it->x[k]), y = fy(f, it->y[k]);
    if (isfinite(x) && isfinite(y))
      marker(cr, it->st.marker, x, y, it->st.marker_size > 0 ? it->st.marker_size : 3);
  }
}

static void draw_band(cairo_t *cr, const frame *f, const item *it)
{
  set_color(cr, it->fill);
  size_t k = 0;
  while (k < it->n) {
    /* one polygon per run of drawable points */
    size_t a = k;
    while (a < it->n && !(isfinite(fx(f, it->x[a])) && isfinite(fy(f, it->y[a])) &&
                          isfinite(fy(f, it->y2[a]))))
      a++;
    size_t b = a;
    while (b < it->n && isfinite(fx(f, it->x[b])) && isfinite(fy(f, it->y[b])) &&
           isfinite(fy(f, it->y2[b])))
      b++;
    if (b > a + 1) {
      cairo_move_to(cr, fx(f, it->x[a]), fy(f, it->y[a]));
      for (size_t i = a + 1; i < b; i++)
        cairo_line_to(cr, fx(f, it->x[i]), fy(f, it->y[i]));
      for (size_t i = b; i-- > a;)
        cairo_line_to(cr, fx(f, it->x[i]), fy(f, it->y2[i]));
      cairo_close_path(cr);
      cairo_fill(cr);
    }
    k = b > a ? b : a + 1;
  }
}

static void draw_item(cairo_t *cr, const frame *f, const item *it)
{
  switch (it->kind) {
  case IT_SERIES:
    draw_series(cr, f, it);
    break;
  case IT_BAND:
    draw_band(cr, f, it);
    break;
  case IT_RECT: {
    double x0 = fx(f, it->x0), x1 = fx(f, it->x1), y0 = fy(f, it->y1), y1 = fy(f, it->y0);
    if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) || !isfinite(y1))
      break;
    set_color(cr, it->fill);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_fill(cr);
    if (it->text) {
      cairo_text_extents_t e;
      cairo_set_font_size(cr, 10);
      cairo_text_extents(cr, it->text, &e);
      if (e.x_advance + 4 < x1 - x0 && e.height + 2 < y1 - y0) {
        set_color(cr, PLOT_BLACK);
        text_at(cr, (x0 + x1) / 2, (y0 + y1) / 2, it->text, 0.5, 0.5);
      }
    }
    break;
  }
  case IT_TEXT: {
    double x = fx(f, it->x0), y = fy(f, it->y0);
    if (isfinite(x) && isfinite(y)) {
      set_color(cr, it->fill);
      cairo_set_font_size(cr, 10);
      text_at(cr, x, y, it->text, 0.0, 0.5);
    }
    break;
  }
  case IT_VLINE: {
    double x = fx(f, it->x0);
    if (isfinite(x)) {
      set_color(cr, it->st.color);
      set_line(cr, &it->st);
      cairo_move_to(cr, x, f->top);
      cairo_line_to(cr, x, f->top + f->height);
      cairo_stroke(cr);
    }
    break;
  }
  case IT_ARROW: {
    double x0 = fx(f, it->x0), y0 = fy(f, it->y0), x1 = fx(f, it->x1), y1 = fy(f, it->y1);
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
      break;
    set_color(cr, it->st.color);
    set_line(cr, &it->st);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_stroke(cr);
    double len = hypot(x1 - x0, y1 - y0), head = fmin(6, len / 2);
    if (len > 0) {
      double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      cairo_move_to(cr, x1, y1);
      cairo_line_to(cr, x1 - head * ux + head * 0.45 * uy, y1 - head * uy - head * 0.45 * ux);
      cairo_line_to(cr, x1 - head * ux - head * 0.45 * uy, y1 - head * uy + head * 0.45 * ux);
      cairo_close_path(cr);
      cairo_fill(cr);
    }
    break;
  }
  case IT_SWATCH:
    break;
  }
}

static void draw_legend(cairo_t *cr, const plot *p, const frame *f)
{
  size_t n = 0;
  double wmax = 0;
  cairo_set_font_size(cr, 11);
  for (size_t i = 0; i < p->n; i++)
    if (p->items[i].legend) {
      cairo_text_extents_t e;
      cairo_text_extents(cr, p->items[i].legend, &e);
      wmax = fmax(wmax, e.x_advance);
      n++;
    }
  if (n == 0)
    return;
  double lh = 16, x = f->left + 10, y = f->top + 10, w = wmax + 46, h = lh * (double)n + 8;
  if (p->legend_right > 0)
    x = f->left + f->width + 12, y = f->top;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_rectangle(cr, x, y, w, h);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0.6, 0.6, 0.6, 1);
  cairo_set_line_width(cr, 0.8);
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_stroke(cr);
  double cy = y + 4 + lh / 2;
  for (size_t i = 0; i < p->n; i++) {
    const item *it = &p->items[i];
    if (!it->legend)
      continue;
    if (it->kind == IT_BAND || it->kind == IT_RECT || it->kind == IT_SWATCH) {
      set_color(cr, it->fill);
      cairo_rectangle(cr, x + 6, cy - 5, 26, 10);
      cairo_fill(cr);
    } else {
      set_color(cr, it->st.color);
      if (it->st.line_width > 0 || it->kind == IT_VLINE) {
        set_line(cr, &it->st);
        cairo_move_to(cr, x + 6, cy);
        cairo_line_to(cr, x + 32, cy);
        cairo_stroke(cr);
      }
      marker(cr, it->st.marker, x + 19, cy, it->st.marker_size > 0 ? it->st.marker_size : 3);
    }
    set_color(cr, PLOT_BLACK);
    cairo_set_font_size(cr, 11);
    text_at(cr, x + 38, cy, it->legend, 0.0, 0.35);
    cy += lh;
  }
}

static frame layout(const plot *p)
{
  frame f = {.left = 72, .top = p->title ? 36 : 16, .xs = p->ax[0].scale, .ys = p->ax[1].scale};
  f.width = p->w - f.left - 20 - (p->legend_right > 0 ? p->legend_right + 12 : 0);
  f.height = p->h - f.top - 52;
  return f;
}

void plot_area(const plot *p, double *left, double *top, double *width, double *height)
{
  frame f = layout(p);
  *left = f.left, *top = f.top, *width = f.width, *height = f.height;
}

static void draw(cairo_t *cr, const plot *p)
{
  frame f = layout(p);
  resolve(p, 0, &f.xmin, &f.xmax);
  resolve(p, 1, &f.ymin, &f.ymax);

  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  draw_ticks(cr, p, &f, 0);
  draw_ticks(cr, p, &f, 1);

  cairo_save(cr);
  cairo_rectangle(cr, f.left, f.top, f.width, f.height);
  cairo_clip(cr);
  for (size_t i = 0; i < p->n; i++)
    draw_item(cr, &f, &p->items[i]);
  cairo_restore(cr);

  set_color(cr, PLOT_BLACK);
  cairo_set_line_width(cr, 1);
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_rectangle(cr, f.left, f.top, f.width, f.height);
  cairo_stroke(cr);
  cairo_set_font_size(cr, 12);
  if (p->ax[0].label)
    text_at(cr, f.left + f.width / 2, p->h - 12, p->ax[0].label, 0.5, 0.0);
  if (p->ax[1].label) {
    cairo_save(cr);
    cairo_translate(cr, 16, f.top + f.height / 2);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, p->ax[1].label, 0.5, 0.5);
    cairo_restore(cr);
  }
  if (p->title) {
    cairo_set_font_size(cr, 14);
    text_at(cr, p->w / 2, 14, p->title, 0.5, 0.5);
  }
  draw_legend(cr, p, &f);
}

static bool ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int plot_save(const plot *p, const char *path, char *err, size_t errlen)
{
  bool svg = ends_with(path, ".svg");
  if (!svg && !ends_with(path, ".png")) {
    snprintf(err, errlen, "%s: the plot's file name must end in .svg or .png", path);
    return -1;
  }
  cairo_surface_t *s = svg ? cairo_svg_surface_create(path, p->w, p->h)
                           : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(p->w),
                                                        (int)ceil(p->h));
  cairo_status_t st = cairo_surface_status(s);
  if (st != CAIRO_STATUS_SUCCESS) {
    snprintf(err, errlen, "%s: cannot create the %s surface: %s (is the directory writable?)",
             path, svg ? "SVG" : "PNG", cairo_status_to_string(st));
    cairo_surface_destroy(s);
    return -1;
  }
  cairo_t *cr = cairo_create(s);
  draw(cr, p);
  st = cairo_status(cr);
  cairo_destroy(cr);
  if (st == CAIRO_STATUS_SUCCESS) {
    if (svg) {
      cairo_surface_finish(s);
      st = cairo_surface_status(s);
    } else {
      st = cairo_surface_write_to_png(s, path);
    }
  }
  cairo_surface_destroy(s);
  if (st != CAIRO_STATUS_SUCCESS) {
    snprintf(err, errlen, "%s: cannot write the plot: %s", path, cairo_status_to_string(st));
    return -1;
  }
  return 0;
}
