/* smpi-gantt: a space-time (Gantt) chart of a Paje trace, as SVG or PNG.
 *
 *   smpi-gantt [--from T] [--to T] [--arrows] [--width W] [--height H] trace.paje out.svg|png
 *
 * Reads the Paje trace SimGrid's SMPI (and our smpirun -trace) writes: one container per
 * rank ("rank-N"), MPI calls and computation as states pushed and popped on it, messages as
 * links. Draws one row per rank (rank 0 on top), time left to right:
 *
 *   rank 0 |####  ..... ###########  ......|     #### = a state (colour per MPI call)
 *   rank 1 |  ######......  ###  ..........|     .... = no state: outside MPI calls
 *           0                          T s
 *
 * Pixel resolution: each pixel column of a row shows the state that takes most of its time
 * there (runs of equal columns become one rectangle), so the output stays bounded whatever
 * the trace's length. When there are more ranks than pixel rows, consecutive ranks share a
 * row and the row shows the dominant state over all of them; the title says so.
 *
 * Drawing goes through calibration/plot.h (cairo), like smpi-calibrate's figures. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/mem.h"
#include "src/strmap.h"
#include "calibration/plot.h"

/* ---- the trace, reduced to what a chart needs ---- */

typedef struct container {
  char *name;
  long number;  /* N of "rank-N", -1 if the name has none */
  size_t order; /* creation order */
  /* state stack (indexes into states), and since when the top holds */
  int *stack;
  size_t depth, cap;
  double since;
  bool has_state;
  int row; /* -1: not drawn */
} container;

typedef struct interval {
  int cont, state;
  double t0, t1;
} interval;

typedef struct link_end {
  int cont;
  double t;
} link_end;

typedef struct arrow {
  int from, to;
  double t0, t1;
} arrow;

typedef enum {
  EV_OTHER,
  EV_CREATE_CONTAINER,
  EV_DEFINE_VALUE,
  EV_SET_STATE,
  EV_PUSH_STATE,
  EV_POP_STATE,
  EV_RESET_STATE,
  EV_START_LINK,
  EV_END_LINK,
} ev_kind;

#define MAX_FIELDS 16
typedef struct evdef {
  ev_kind kind;
  int nfields;
  char *fields[MAX_FIELDS];
} evdef;

static struct chart_state {
  const char *path;
  long lineno;
  evdef *defs; /* by numeric id */
  size_t ndefs;
  container *conts;
  size_t nconts, conts_cap;
  strmap *cont_by_key; /* alias and name -> index + 1 */
  char **states;
  size_t nstates, states_cap;
  strmap *state_by_key; /* alias and name -> index + 1 */
  interval *iv;
  size_t niv, iv_cap;
  strmap *open_links; /* key -> link_end* */
  arrow *arrows;
  size_t narrows, arrows_cap;
  double tmax;
} chart;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "smpi-gantt: ");
  if (chart.lineno > 0)
    fprintf(stderr, "%s:%ld: ", chart.path, chart.lineno);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static int key_index(strmap *m, const char *key)
{
  void *v = strmap_get(m, key);
  return v ? (int)((intptr_t)v - 1) : -1;
}

static int state_index(const char *key)
{
  int k = key_index(chart.state_by_key, key);
  if (k >= 0)
    return k;
  /* a state value that was never defined: its own name */
  XGROW(chart.states, chart.states_cap, chart.nstates + 1);
  chart.states[chart.nstates] = xstrdup(key);
  strmap_set(chart.state_by_key, key, (void *)(intptr_t)(chart.nstates + 1));
  return (int)chart.nstates++;
}

static int container_index(const char *key)
{
  int k = key_index(chart.cont_by_key, key);
  if (k < 0)
    die("container '%s' was never created", key);
  return k;
}

static void set_top(container *c, int ci, double t, int state, int op)
{
  /* close the interval of the state on top so far */
  if (c->depth > 0 && t > c->since) {
    XGROW(chart.iv, chart.iv_cap, chart.niv + 1);
    chart.iv[chart.niv++] = (interval){ci, c->stack[c->depth - 1], c->since, t};
  }
  c->since = t;
  switch (op) {
  case 's': /* set: replaces the whole stack */
    c->depth = 0;
    /* fall through */
  case 'p':
    XGROW(c->stack, c->cap, c->depth + 1);
    c->stack[c->depth++] = state;
    c->has_state = true;
    break;
  case 'o':
    if (c->depth > 0)
      c->depth--;
    break;
  case 'r':
    c->depth = 0;
    break;
  }
}

/* Splits a Paje event line into fields; "double quoted" fields may hold spaces. */
static int split(char *s, char **f, int max)
{
  int n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
      s++;
    if (!*s)
      break;
    if (n == max)
      die("more than %d fields on a line", max);
    if (*s == '"') {
      f[n++] = ++s;
      while (*s && *s != '"')
        s++;
      if (!*s)
        die("unterminated quoted field");
      *s++ = 0;
    } else {
      f[n++] = s;
      while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
        s++;
      if (*s)
        *s++ = 0;
    }
  }
  return n;
}

static ev_kind kind_of(const char *name)
{
  static const struct {
    const char *n;
    ev_kind k;
  } map[] = {{"PajeCreateContainer", EV_CREATE_CONTAINER},
             {"PajeDefineEntityValue", EV_DEFINE_VALUE},
             {"PajeSetState", EV_SET_STATE},
             {"PajePushState", EV_PUSH_STATE},
             {"PajePopState", EV_POP_STATE},
             {"PajeResetState", EV_RESET_STATE},
             {"PajeStartLink", EV_START_LINK},
             {"PajeEndLink", EV_END_LINK}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (!strcmp(map[i].n, name))
      return map[i].k;
  return EV_OTHER;
}

static const char *field(const evdef *d, char **f, int n, const char *name, bool required)
{
  for (int i = 0; i < d->nfields && i < n; i++)
    if (!strcmp(d->fields[i], name))
      return f[i];
  if (required)
    die("event without its %s field", name);
  return NULL;
}

static double time_field(const evdef *d, char **f, int n)
{
  const char *s = field(d, f, n, "Time", true);
  char *end;
  double t = strtod(s, &end);
  if (end == s || *end || !isfinite(t) || t < 0)
    die("bad time '%s'", s);
  if (t > chart.tmax)
    chart.tmax = t;
  return t;
}

static long rank_number(const char *name)
{
  /* "rank-12", "rank 12", "12" */
  const char *p = name;
  if (!strncmp(p, "rank", 4)) {
    p += 4;
    if (*p == '-' || *p == ' ' || *p == '_')
      p++;
  }
  char *end;
  long v = strtol(p, &end, 10);
  return end != p && *end == 0 && v >= 0 ? v : -1;
}

/* Longest line read: Paje lines are a few hundred bytes; a file without newlines (a binary,
 * /dev/zero copied to a file) is refused past it instead of filling memory. */
#define MAX_LINE ((size_t)1 << 20)

/* The trace, opened without blocking: a regular file, or a FIFO or pipe (`... | smpi-gantt
 * /dev/stdin out.svg`; a FIFO without writer reads as empty). A device such as /dev/zero
 * would be read forever, a directory reads as nothing: both are refused. */
static FILE *open_trace(const char *path)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "smpi-gantt: cannot open %s: %s\n", path, strerror(errno));
    exit(1);
  }
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    fprintf(stderr, "smpi-gantt: cannot read %s: %s, not a regular file, FIFO or pipe\n", path,
            S_ISDIR(st.st_mode)   ? "it is a directory"
            : S_ISCHR(st.st_mode) ? "it is a character device"
            : S_ISBLK(st.st_mode) ? "it is a block device"
                                  : "it is a special file");
    exit(1);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0)
    (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  FILE *in = fdopen(fd, "r");
  if (!in) {
    fprintf(stderr, "smpi-gantt: cannot open %s: %s\n", path, strerror(errno));
    exit(1);
  }
  return in;
}

/* One line (without its newline) into *line, at most MAX_LINE bytes; false at the end. */
static bool read_line(FILE *in, char **line, size_t *cap)
{
  size_t n = 0;
  int ch;
  while ((ch = getc_unlocked(in)) != EOF && ch != '\n') {
    if (n == MAX_LINE) {
      chart.lineno++;
      die("line longer than %zu MiB (is this a Paje trace?)", MAX_LINE >> 20);
    }
    if (n + 2 > *cap) {
      *cap = *cap ? *cap * 2 : 256;
      *line = xrealloc(*line, *cap);
    }
    (*line)[n++] = (char)ch;
  }
  if (ferror(in)) {
    chart.lineno = 0;
    die("%s: read error: %s", chart.path, strerror(errno));
  }
  if (ch == EOF && n == 0)
    return false;
  if (n + 2 > *cap) {
    *cap = n + 2;
    *line = xrealloc(*line, *cap);
  }
  (*line)[n++] = '\n';
  (*line)[n] = '\0';
  return true;
}

static void read_trace(const char *path)
{
  FILE *in = open_trace(path);
  chart.path = path;
  chart.cont_by_key = strmap_new();
  chart.state_by_key = strmap_new();
  chart.open_links = strmap_new();
  char *line = NULL;
  size_t cap = 0;
  evdef *cur = NULL; /* inside %EventDef ... %EndEventDef */
  size_t defs_cap = 0;
  while (read_line(in, &line, &cap)) {
    chart.lineno++;
    char *f[MAX_FIELDS + 8];
    if (line[0] == '%') {
      int n = split(line + 1, f, MAX_FIELDS + 8);
      if (n >= 3 && !strcmp(f[0], "EventDef")) {
        char *end;
        long id = strtol(f[2], &end, 10);
        if (*end || id < 0 || id > 100000)
          die("bad event id '%s'", f[2]);
        if ((size_t)id >= chart.ndefs) {
          XGROW(chart.defs, defs_cap, (size_t)id + 1);
          memset(chart.defs + chart.ndefs, 0,
                 ((size_t)id + 1 - chart.ndefs) * sizeof *chart.defs);
          chart.ndefs = (size_t)id + 1;
        }
        cur = &chart.defs[id];
        cur->kind = kind_of(f[1]);
      } else if (n >= 1 && !strcmp(f[0], "EndEventDef")) {
        cur = NULL;
      } else if (cur && n >= 1) {
        if (cur->nfields == MAX_FIELDS)
          die("event definition with more than %d fields", MAX_FIELDS);
        cur->fields[cur->nfields++] = xstrdup(f[0]);
      }
      continue;
    }
    if (line[0] == '#')
      continue;
    int n = split(line, f, MAX_FIELDS + 8);
    if (n == 0)
      continue;
    char *end;
    long id = strtol(f[0], &end, 10);
    if (*end || id < 0 || (size_t)id >= chart.ndefs)
      die("event '%s' is not defined in the header (is this a Paje trace?)", f[0]);
    const evdef *d = &chart.defs[id];
    char **a = f + 1;
    int na = n - 1;
    switch (d->kind) {
    case EV_OTHER:
      break;
    case EV_CREATE_CONTAINER: {
      const char *alias = field(d, a, na, "Alias", false), *name = field(d, a, na, "Name", true);
      time_field(d, a, na);
      XGROW(chart.conts, chart.conts_cap, chart.nconts + 1);
      container *c = &chart.conts[chart.nconts];
      *c = (container){.name = xstrdup(name),
                       .number = rank_number(name),
                       .order = chart.nconts,
                       .row = -1};
      strmap_set(chart.cont_by_key, name, (void *)(intptr_t)(chart.nconts + 1));
      if (alias)
        strmap_set(chart.cont_by_key, alias, (void *)(intptr_t)(chart.nconts + 1));
      chart.nconts++;
      break;
    }
    case EV_DEFINE_VALUE: {
      const char *alias = field(d, a, na, "Alias", false), *name = field(d, a, na, "Name", true);
      int k = state_index(name);
      if (alias)
        strmap_set(chart.state_by_key, alias, (void *)(intptr_t)(k + 1));
      break;
    }
    case EV_SET_STATE:
    case EV_PUSH_STATE:
    case EV_POP_STATE:
    case EV_RESET_STATE: {
      double t = time_field(d, a, na);
      int ci = container_index(field(d, a, na, "Container", true));
      int st = -1;
      if (d->kind == EV_SET_STATE || d->kind == EV_PUSH_STATE)
        st = state_index(field(d, a, na, "Value", true));
      char op = d->kind == EV_SET_STATE    ? 's'
                : d->kind == EV_PUSH_STATE ? 'p'
                : d->kind == EV_POP_STATE  ? 'o'
                                           : 'r';
      set_top(&chart.conts[ci], ci, t, st, op);
      break;
    }
    case EV_START_LINK:
    case EV_END_LINK: {
      double t = time_field(d, a, na);
      const char *key = field(d, a, na, "Key", true);
      const char *who = field(d, a, na,
                              d->kind == EV_START_LINK ? "StartContainer" : "EndContainer", true);
      int ci = container_index(who);
      link_end *other;
      if (strmap_remove(chart.open_links, key, (void **)&other)) {
        XGROW(chart.arrows, chart.arrows_cap, chart.narrows + 1);
        /* either end may come first in the file */
        chart.arrows[chart.narrows++] = d->kind == EV_END_LINK
                                            ? (arrow){other->cont, ci, other->t, t}
                                            : (arrow){ci, other->cont, t, other->t};
        free(other);
      } else {
        link_end *e = xmalloc(sizeof *e);
        *e = (link_end){ci, t};
        strmap_set(chart.open_links, key, e);
      }
      break;
    }
    }
  }
  free(line);
  fclose(in);
  chart.lineno = 0;
  /* states still open at the end last until the end of the trace */
  for (size_t i = 0; i < chart.nconts; i++)
    while (chart.conts[i].depth > 0)
      set_top(&chart.conts[i], (int)i, chart.tmax, -1, 'o');
}

/* ---- layout ---- */

static int cmp_rows(const void *a, const void *b)
{
  const container *x = *(container *const *)a, *y = *(container *const *)b;
  if ((x->number >= 0) != (y->number >= 0))
    return x->number >= 0 ? -1 : 1;
  if (x->number != y->number)
    return x->number < y->number ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_iv(const void *a, const void *b)
{
  const interval *x = a, *y = b;
  if (chart.conts[x->cont].row != chart.conts[y->cont].row)
    return chart.conts[x->cont].row < chart.conts[y->cont].row ? -1 : 1;
  return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static bool is_computation(const char *name)
{
  return !strcmp(name, "computing") || !strcmp(name, "computation") || !strcmp(name, "compute") ||
         !strcmp(name, "Computation");
}

/* A qualitative palette: neighbours differ in hue and lightness. */
static const plot_color palette[] = {
    {0.12, 0.47, 0.71, 1}, {1.00, 0.50, 0.05, 1}, {0.84, 0.15, 0.16, 1}, {0.58, 0.40, 0.74, 1},
    {0.55, 0.34, 0.29, 1}, {0.89, 0.47, 0.76, 1}, {0.74, 0.74, 0.13, 1}, {0.09, 0.75, 0.81, 1},
    {0.68, 0.78, 0.91, 1}, {1.00, 0.73, 0.47, 1}, {1.00, 0.60, 0.59, 1}, {0.77, 0.69, 0.84, 1},
    {0.77, 0.61, 0.58, 1}, {0.97, 0.71, 0.82, 1}, {0.86, 0.86, 0.55, 1}, {0.62, 0.85, 0.90, 1},
};
#define NPAL (sizeof palette / sizeof *palette)
static const plot_color computation_color = {0.17, 0.63, 0.17, 1};
static const plot_color other_color = {0.45, 0.45, 0.45, 1};
static const plot_color outside_color = {0.93, 0.93, 0.93, 1};

/* Rows are drawn top down at y = -rank (in ranks, whatever a row holds), so that the axis's
 * round ticks fall on round rank numbers. */
static long nranks_label;
static void rank_label(double v, char *buf, size_t len)
{
  if (v > 0 || -v >= (double)nranks_label || fabs(v - round(v)) > 1e-9)
    buf[0] = 0;
  else
    snprintf(buf, len, "%ld", -lround(v));
}

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: smpi-gantt [options] TRACE OUTPUT.svg|OUTPUT.png\n"
          "Draws the space-time chart of a Paje trace (smpirun -trace, SimGrid's -trace):\n"
          "ranks top to bottom, time left to right, one colour per MPI call.\n"
          "\n"
          "  --from T, --to T   time window in seconds (default: the whole trace)\n"
          "  --arrows           draw messages as arrows from sender to receiver\n"
          "  --width W          image width in pixels (default 1200)\n"
          "  --height H         image height (default: 14 pixels a rank, at most 900)\n"
          "  --help             this message\n"
          "With more ranks than pixel rows, consecutive ranks share a row, which shows their\n"
          "dominant state; the title says how many ranks a row holds.\n");
}

static double num_arg(const char *opt, const char *v)
{
  char *end;
  double d = strtod(v ? v : "", &end);
  if (!v || end == v || *end || !isfinite(d) || d < 0) {
    fprintf(stderr, "smpi-gantt: %s needs a non-negative number, not '%s'\n", opt, v ? v : "");
    exit(1);
  }
  return d;
}

int main(int argc, char **argv)
{
  double from = 0, to = -1, width = 1200, height = -1;
  bool arrows = false;
  const char *paths[2];
  int np = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--from")) {
      from = num_arg(a, i + 1 < argc ? argv[++i] : NULL);
    } else if (!strcmp(a, "--to")) {
      to = num_arg(a, i + 1 < argc ? argv[++i] : NULL);
    } else if (!strcmp(a, "--width")) {
      width = num_arg(a, i + 1 < argc ? argv[++i] : NULL);
    } else if (!strcmp(a, "--height")) {
      height = num_arg(a, i + 1 < argc ? argv[++i] : NULL);
    } else if (!strcmp(a, "--arrows")) {
      arrows = true;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "smpi-gantt: unknown option '%s' (see --help)\n", a);
      return 1;
    } else if (np < 2) {
      paths[np++] = a;
    } else {
      fprintf(stderr, "smpi-gantt: too many arguments (see --help)\n");
      return 1;
    }
  }
  if (np != 2) {
    usage(stderr);
    return 1;
  }
  if (width < 400 || width > 20000 || (height >= 0 && (height < 200 || height > 20000))) {
    fprintf(stderr, "smpi-gantt: --width must be in [400, 20000] and --height in [200, 20000]\n");
    return 1;
  }
  read_trace(paths[0]);

  /* rows: containers with states, ranks in order */
  container **rows = xmalloc((chart.nconts ? chart.nconts : 1) * sizeof *rows);
  size_t nr = 0;
  for (size_t i = 0; i < chart.nconts; i++)
    if (chart.conts[i].has_state)
      rows[nr++] = &chart.conts[i];
  if (nr == 0) {
    fprintf(stderr, "smpi-gantt: %s has no state to draw (was it traced with -trace?)\n",
            paths[0]);
    return 1;
  }
  qsort(rows, nr, sizeof *rows, cmp_rows);
  for (size_t r = 0; r < nr; r++)
    rows[r]->row = (int)r;
  if (to < 0)
    to = chart.tmax;
  if (to <= from) {
    fprintf(stderr, "smpi-gantt: empty time window [%g, %g] s (the trace ends at %g s)\n", from,
            to, chart.tmax);
    return 1;
  }

  /* states by total time in the window; computation keeps its own colour */
  size_t ns = chart.nstates;
  double *total = xcalloc(ns + 1, sizeof *total);
  for (size_t k = 0; k < chart.niv; k++) {
    const interval *v = &chart.iv[k];
    double a = fmax(v->t0, from), b = fmin(v->t1, to);
    if (b > a && chart.conts[v->cont].row >= 0)
      total[v->state] += b - a;
  }
  size_t *order = xmalloc((ns + 1) * sizeof *order);
  size_t nused = 0;
  for (size_t s = 0; s < ns; s++)
    if (total[s] > 0)
      order[nused++] = s;
  for (size_t i = 1; i < nused; i++) /* by total, descending (insertion sort: few states) */
    for (size_t j = i; j > 0 && total[order[j]] > total[order[j - 1]]; j--) {
      size_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  plot_color *color = xmalloc((ns + 1) * sizeof *color);
  size_t pal = 0;
  for (size_t i = 0; i < nused; i++) {
    size_t s = order[i];
    color[s] = is_computation(chart.states[s]) ? computation_color
               : pal < NPAL                    ? palette[pal++]
                                               : other_color;
  }

  /* geometry */
  /* tall enough for the legend column too (16 pixels an entry) */
  size_t nlegend = (nused < NPAL + 1 ? nused : NPAL + 2) + 1 + (arrows ? 1 : 0);
  if (height < 0)
    height = fmax(fmin(900, fmax(240, 14.0 * (double)nr + 120)), 16.0 * (double)nlegend + 110);
  plot *p = plot_new(width, height);
  plot_legend_right(p, 200);
  double left, top, aw, ah;
  plot_area(p, &left, &top, &aw, &ah);
  size_t cols = (size_t)fmax(1, floor(aw)), pixel_rows = (size_t)fmax(1, floor(ah));
  size_t per = (nr + pixel_rows - 1) / pixel_rows; /* ranks per row */
  size_t nrows = (nr + per - 1) / per;
  nranks_label = (long)nr;

  char title[512];
  const char *base = strrchr(paths[0], '/') ? strrchr(paths[0], '/') + 1 : paths[0];
  if (per > 1)
    snprintf(title, sizeof title, "%s: %zu ranks, %zu per row (dominant state shown)", base, nr,
             per);
  else
    snprintf(title, sizeof title, "%s: %zu rank%s", base, nr, nr == 1 ? "" : "s");
  plot_title(p, title);
  plot_axis(p, PLOT_AXIS_X, PLOT_LINEAR, "simulated time (s)");
  plot_axis(p, PLOT_AXIS_Y, PLOT_LINEAR, "rank");
  plot_axis_range(p, PLOT_AXIS_X, from, to);
  plot_axis_range(p, PLOT_AXIS_Y, -(double)(nrows * per), 0);
  plot_axis_ticks(p, PLOT_AXIS_Y, 10, rank_label);

  /* one background band per row, then the dominant state of each pixel column */
  double gap = ah / (double)nrows >= 6 ? 0.12 * (double)per : 0; /* white gap between tall rows */
  qsort(chart.iv, chart.niv, sizeof *chart.iv, cmp_iv);
  double colw = (to - from) / (double)cols;
  double *acc = xcalloc(cols * (ns + 1), sizeof *acc); /* time per column per state (ns = none) */
  size_t k = 0;
  for (size_t row = 0; row < nrows; row++) {
    double y0 = -(double)((row + 1) * per) + gap / 2, y1 = -(double)(row * per) - gap / 2;
    plot_rect(p, from, y0, to, y1, outside_color, NULL);
    memset(acc, 0, cols * (ns + 1) * sizeof *acc);
    size_t r_end = (row + 1) * per < nr ? (row + 1) * per : nr;
    for (size_t r = row * per; r < r_end; r++)
      for (size_t c = 0; c < cols; c++)
        acc[c * (ns + 1) + ns] += colw; /* all "outside" until states say otherwise */
    for (; k < chart.niv && (size_t)chart.conts[chart.iv[k].cont].row < r_end; k++) {
      const interval *v = &chart.iv[k];
      if (chart.conts[v->cont].row < 0)
        continue;
      double a = fmax(v->t0, from), b = fmin(v->t1, to);
      if (b <= a)
        continue;
      size_t c0 = (size_t)fmin((double)cols - 1, floor((a - from) / colw));
      size_t c1 = (size_t)fmin((double)cols - 1, floor((b - from) / colw));
      for (size_t c = c0; c <= c1; c++) {
        double cs = from + (double)c * colw, ce = cs + colw;
        double part = fmin(b, ce) - fmax(a, cs);
        if (part > 0) {
          acc[c * (ns + 1) + (size_t)v->state] += part;
          acc[c * (ns + 1) + ns] -= part;
        }
      }
    }
    /* runs of equal dominant state */
    int run_state = -1;
    size_t run_start = 0;
    for (size_t c = 0; c <= cols; c++) {
      int best = -1;
      if (c < cols) {
        double bv = acc[c * (ns + 1) + ns];
        for (size_t s = 0; s < ns; s++)
          if (acc[c * (ns + 1) + s] > bv)
            bv = acc[c * (ns + 1) + s], best = (int)s;
      }
      if (c == cols || best != run_state) {
        if (run_state >= 0)
          plot_rect(p, from + (double)run_start * colw, y0, from + (double)c * colw, y1,
                    color[run_state], NULL);
        run_state = best;
        run_start = c;
      }
    }
  }

  if (arrows) {
    for (size_t a = 0; a < chart.narrows; a++) {
      const arrow *w = &chart.arrows[a];
      int r0 = chart.conts[w->from].row, r1 = chart.conts[w->to].row;
      if (r0 < 0 || r1 < 0 || w->t1 < from || w->t0 > to)
        continue;
      double y0 = -((double)((size_t)r0 / per) + 0.5) * (double)per;
      double y1 = -((double)((size_t)r1 / per) + 0.5) * (double)per;
      plot_arrow(p, w->t0, y0, w->t1, y1,
                 (plot_style){.color = {0, 0, 0, 0.7}, .line_width = 0.8});
    }
  }

  /* legend: the states by total time, then what the background means */
  double sum = 0;
  for (size_t i = 0; i < nused; i++)
    sum += total[order[i]];
  size_t shown = 0;
  double rest = 0;
  for (size_t i = 0; i < nused; i++) {
    size_t s = order[i];
    char leg[160];
    if (shown < NPAL + 1) {
      snprintf(leg, sizeof leg, "%.40s (%.1f %%)", chart.states[s],
               sum > 0 ? 100 * total[s] / sum : 0);
      plot_swatch(p, color[s], leg);
      shown++;
    } else {
      rest += total[s];
    }
  }
  if (rest > 0) {
    char leg[160];
    snprintf(leg, sizeof leg, "other calls (%.1f %%)", 100 * rest / sum);
    plot_swatch(p, other_color, leg);
  }
  plot_swatch(p, outside_color, "outside MPI calls");
  if (arrows)
    plot_swatch(p, (plot_color){0, 0, 0, 0.7}, "message (arrow)");

  char err[512];
  int rc = plot_save(p, paths[1], err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "smpi-gantt: %s\n", err);
  else
    printf("smpi-gantt: %s: %zu ranks in %zu rows, %zu states, %zu messages, %g..%g s -> %s\n",
           base, nr, nrows, nused, chart.narrows, from, to, paths[1]);
  plot_free(p);
  free(acc);
  free(color);
  free(order);
  free(total);
  free(rows);
  return rc == 0 ? 0 : 1;
}
