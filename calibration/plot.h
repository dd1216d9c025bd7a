/* A small 2-D plotting API over cairo, writing SVG or PNG from the same drawing code (the
 * file name's extension chooses). Shared by the calibration's log-log figure
 * (calibration/report.c) and smpi-gantt's space-time charts (tools/smpi-gantt.c): a Gantt
 * chart is rectangles, arrows and legend swatches in data coordinates.
 *
 *   plot *p = plot_new(800, 560);
 *   plot_title(p, "ping-pong, one way");
 *   plot_axis(p, PLOT_AXIS_X, PLOT_LOG, "message size (bytes)");
 *   plot_axis_ticks(p, PLOT_AXIS_X, 4, plot_label_bytes);   // ticks at 4^k: 1 4 16 .. 1Ki
 *   plot_series(p, x, y, n, (plot_style){.color = PLOT_BLUE, .marker = PLOT_MARK_CIRCLE,
 *                                       .marker_size = 3}, "measured");
 *   plot_save(p, "fig.svg", err, sizeof err);  plot_save(p, "fig.png", err, sizeof err);
 *   plot_free(p);
 *
 * Items are kept (copied) and drawn at save time, in the order they were added. Axes range
 * over the data unless set; a log axis ignores values <= 0. A NaN in a series breaks its line.
 * Sizes are in points for SVG and pixels for PNG (the same numbers). */
#ifndef SMPI_TOOLS_PLOT_H
#define SMPI_TOOLS_PLOT_H

#include <stddef.h>

typedef struct plot_color {
  double r, g, b, a;
} plot_color;

#define PLOT_BLACK ((plot_color){0, 0, 0, 1})
#define PLOT_BLUE ((plot_color){0.12, 0.35, 0.75, 1})
#define PLOT_RED ((plot_color){0.80, 0.15, 0.10, 1})
#define PLOT_GREEN ((plot_color){0.10, 0.55, 0.20, 1})
#define PLOT_ORANGE ((plot_color){0.90, 0.55, 0.05, 1})
#define PLOT_GREY ((plot_color){0.5, 0.5, 0.5, 1})

typedef enum { PLOT_AXIS_X, PLOT_AXIS_Y } plot_axis_id;
typedef enum { PLOT_LINEAR, PLOT_LOG } plot_scale;
typedef enum { PLOT_MARK_NONE, PLOT_MARK_CIRCLE, PLOT_MARK_SQUARE, PLOT_MARK_CROSS } plot_marker;

typedef struct plot_style {
  plot_color color;
  double line_width; /* 0: no line (markers only) */
  double dash;       /* 0: solid, else the dash length */
  plot_marker marker;
  double marker_size; /* radius */
} plot_style;

/* Writes the label of tick value v into buf. */
typedef void (*plot_label_fn)(double v, char *buf, size_t len);
void plot_label_bytes(double v, char *buf, size_t len);   /* 1, 512, 1Ki, 64Ki, 1Mi ... */
void plot_label_default(double v, char *buf, size_t len); /* %g */

typedef struct plot plot;

plot *plot_new(double width, double height);
void plot_free(plot *p);
void plot_title(plot *p, const char *title);
void plot_axis(plot *p, plot_axis_id a, plot_scale scale, const char *label);
void plot_axis_range(plot *p, plot_axis_id a, double min, double max);
/* log axis: ticks at base^k (default 10); linear axis: base ignored (1-2-5 steps). */
void plot_axis_ticks(plot *p, plot_axis_id a, double base, plot_label_fn label);

void plot_series(plot *p, const double *x, const double *y, size_t n, plot_style st,
                 const char *legend);
/* shaded area between lo and hi */
void plot_band(plot *p, const double *x, const double *lo, const double *hi, size_t n,
               plot_color fill, const char *legend);
/* rectangle in data coordinates, with an optional label drawn inside when it fits */
void plot_rect(plot *p, double x0, double y0, double x1, double y1, plot_color fill,
               const char *label);
void plot_text(plot *p, double x, double y, const char *text, plot_color c);
/* vertical line across the plot area at data x */
void plot_vline(plot *p, double x, plot_style st, const char *legend);
/* line from (x0, y0) to (x1, y1) in data coordinates with an arrowhead at its end */
void plot_arrow(plot *p, double x0, double y0, double x1, double y1, plot_style st);
/* a legend entry alone: a filled swatch and its text (for rectangles drawn without one) */
void plot_swatch(plot *p, plot_color fill, const char *legend);
/* Draws the legend in a column of this width (device units) right of the plot area instead
 * of over it; 0 (default): inside, top left. */
void plot_legend_right(plot *p, double width);
/* Where the plot area falls in device units (pixels of the PNG), for callers that place
 * data at pixel resolution. */
void plot_area(const plot *p, double *left, double *top, double *width, double *height);

/* Draws everything into path (.svg or .png). Returns 0 or -1 with a message. */
int plot_save(const plot *p, const char *path, char *err, size_t errlen);

#endif
