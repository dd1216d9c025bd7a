/* Closed-loop calibration (see closedloop.h for the picture and the method). */
#include "calibration/closedloop.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "calibration/emit.h"
#include "calibration/plot.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- patterns ---- */

static const struct {
  const char *name; /* SKaMPI's measurement function, after "Pingpong_" */
  int pat;
} cl_names[] = {
    {"Send_Recv", CL_PAT_SEND_RECV},       {"Send_Recv_AnyTag", CL_PAT_SEND_RECV},
    {"Send_Recv_AT", CL_PAT_SEND_RECV},    {"Send_Irecv", CL_PAT_SEND_RECV},
    {"Isend_Recv", CL_PAT_SEND_RECV},      {"Ssend_Recv", CL_PAT_SSEND_RECV},
    {"Issend_Recv", CL_PAT_SSEND_RECV},    {"Sendrecv", CL_PAT_SENDRECV},
    {"Sendrecv_replace", CL_PAT_SENDRECV},
};

/* Send_Iprobe_Recv polls MPI_Iprobe until the message is there: in the simulator each call
 * injects smpi/iprobe (100 us by default, growing while it fails), so the time is set by
 * that option, not by the network, and SKaMPI reports rank 0's whole time undivided. */
int cl_pattern_of_block(const char *name)
{
  const char *p = strncmp(name, "Pingpong_", 9) == 0 ? name + 9 : name;
  size_t len = strcspn(p, "-"); /* "Pingpong_Send_Recv-sqrt2": a user's label after '-' */
  if (len == strlen("Send_Iprobe_Recv") && strncmp(p, "Send_Iprobe_Recv", len) == 0)
    return -2;
  for (size_t i = 0; i < sizeof cl_names / sizeof cl_names[0]; i++)
    if (strlen(cl_names[i].name) == len && strncmp(p, cl_names[i].name, len) == 0)
      return cl_names[i].pat;
  return -1;
}

const char *cl_pattern_name(cl_pattern p)
{
  static const char *const n[CL_NPAT] = {"Send_Recv", "Ssend_Recv", "Sendrecv",
                                         "pingpong_skampi"};
  return p < CL_NPAT ? n[p] : "?";
}

/* ---- data ---- */

static int cmp_point(const void *a, const void *b)
{
  const cl_point *x = a, *y = b;
  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  return x->run < y->run ? -1 : x->run > y->run;
}

/* calibration/pingpong_skampi.c writes SKaMPI's format under SKaMPI's block name but times
 * another pattern; its first line says who wrote it. */
static bool written_by_pingpong_skampi(const char *path)
{
  FILE *f = fopen(path, "r");
  char line[64] = "";
  if (!f)
    return false;
  bool ours = fgets(line, sizeof line, f) && strncmp(line, "# pingpong_skampi ", 18) == 0;
  fclose(f);
  return ours;
}

static int data_load(cl_data *d, const char *const *files, size_t nfiles,
                     const char *const *globs, size_t nglobs, bool lenient, char *err,
                     size_t errlen)
{
  memset(d, 0, sizeof *d);
  size_t cap = 0;
  d->runs = xcalloc(nfiles ? nfiles : 1, sizeof *d->runs);
  for (size_t f = 0; f < nfiles; f++) {
    skampi_set set = {0};
    if (skampi_read_file(&set, files[f], err, errlen) != 0) {
      skampi_set_free(&set);
      return -1;
    }
    d->runs[d->nruns++] = xstrdup(files[f]);
    bool ours = written_by_pingpong_skampi(files[f]);
    size_t used = 0;
    for (size_t b = 0; b < set.nblocks; b++) {
      const skampi_block *blk = &set.blocks[b];
      bool match = false;
      for (size_t g = 0; g < nglobs && !match; g++)
        match = fnmatch(globs[g], blk->name, 0) == 0;
      if (!match)
        continue;
      int pat = cl_pattern_of_block(blk->name);
      if (pat < 0 && lenient)
        continue;
      if (pat < 0) {
        snprintf(err, errlen, "%s:%d: block \"%s\": %s (choose blocks with --block)", files[f],
                 blk->begin_line, blk->name,
                 pat == -2 ? "Send_Iprobe_Recv is timed by smpi/iprobe's injected polling cost, "
                             "not by the network: it cannot calibrate it"
                           : "not a SKaMPI point-to-point pattern the closed-loop fit models "
                             "(Send_Recv, Send_Recv_AnyTag, Send_Irecv, Isend_Recv, Ssend_Recv, "
                             "Issend_Recv, Sendrecv, Sendrecv_replace)");
        skampi_set_free(&set);
        return -1;
      }
      used++;
      /* the pattern's SKaMPI name, without "Pingpong_" and a user's "-label" */
      const char *nm = strncmp(blk->name, "Pingpong_", 9) == 0 ? blk->name + 9 : blk->name;
      char *canon = xasprintf("%.*s", (int)strcspn(nm, "-"), nm);
      if (ours && pat == CL_PAT_SEND_RECV) {
        pat = CL_PAT_HANDSHAKE;
        free(canon);
        canon = xstrdup(cl_pattern_name(CL_PAT_HANDSHAKE));
      }
      if (!strcmp(canon, "Send_Recv_AT")) {
        free(canon);
        canon = xstrdup("Send_Recv_AnyTag");
      }
      int bi = -1;
      for (size_t k = 0; k < d->nblocks; k++)
        if (!strcmp(d->blocks[k], canon))
          bi = (int)k;
      if (bi < 0) {
        d->blocks = xrealloc(d->blocks, (d->nblocks + 1) * sizeof *d->blocks);
        bi = (int)d->nblocks;
        d->blocks[d->nblocks++] = canon;
      } else {
        free(canon);
      }
      for (size_t i = 0; i < blk->npts; i++) {
        if (d->n == cap) {
          cap = cap ? 2 * cap : 256;
          d->pts = xrealloc(d->pts, cap * sizeof *d->pts);
        }
        const skampi_point *sp = &blk->pts[i];
        /* a time printed as 0.0 has no logarithm: a quarter of its printing step */
        double t = sp->time > 0 ? sp->time : sp->resolution / 4;
        d->pts[d->n++] =
            (cl_point){.size = sp->size, .t = t, .pat = pat, .blk = bi, .run = f, .wt = 1};
      }
    }
    if (!used && !lenient) {
      /* what was asked, then what the file has: a ping-pong file of another benchmark or a
       * file of collectives only reads the same here */
      size_t len = (size_t)snprintf(err, errlen, "%s: no result block matches ", files[f]);
      for (size_t g = 0; g < nglobs && len < errlen; g++)
        len += (size_t)snprintf(err + len, errlen - len, "%s\"%s\"", g ? " or " : "", globs[g]);
      if (len < errlen && set.nblocks == 0)
        snprintf(err + len, errlen - len,
                 ": the file holds no SKaMPI result block (empty, or not SKaMPI output?)");
      else if (len < errlen) {
        len += (size_t)snprintf(err + len, errlen - len, "; blocks present: ");
        for (size_t b = 0; b < set.nblocks && len < errlen; b++)
          len += (size_t)snprintf(err + len, errlen - len, "%s\"%s\"", b ? ", " : "",
                                  set.blocks[b].name);
        if (len < errlen)
          snprintf(err + len, errlen - len,
                   " (the fit needs SKaMPI's point-to-point ping-pong blocks, e.g. "
                   "Pingpong_Send_Recv; choose with --block)");
      }
      skampi_set_free(&set);
      return -1;
    }
    skampi_set_free(&set);
  }
  qsort(d->pts, d->n, sizeof *d->pts, cmp_point);
  return 0;
}

int cl_data_load(cl_data *d, const char *const *files, size_t nfiles, const char *const *globs,
                 size_t nglobs, char *err, size_t errlen)
{
  return data_load(d, files, nfiles, globs, nglobs, false, err, errlen);
}

void cl_data_free(cl_data *d)
{
  for (size_t i = 0; i < d->nruns; i++)
    free(d->runs[i]);
  free(d->runs);
  for (size_t i = 0; i < d->nblocks; i++)
    free(d->blocks[i]);
  free(d->blocks);
  free(d->pts);
  memset(d, 0, sizeof *d);
}

/* ---- the pattern model ---- */

static int cmp_double_asc(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef enum { CL_EAGER, CL_DETACHED, CL_RDV } cl_proto;

static cl_proto proto_at(const cl_model *m, double size)
{
  if (m->default_protocol)
    return size < 65536 ? CL_DETACHED : CL_RDV;
  return size < m->eager_below ? CL_EAGER : CL_RDV;
}

/* Steady state of each pattern in the simulator, repetitions back to back, os = or = ois = 0,
 * W = one flow's payload time alone:
 *  Send_Recv   eager:    A' leaves with the extra message C and shares the wire (c2 W), then
 *                        B' alone: 2 lat + (1 + c2) W
 *              detached: C, A', B' one after the other (each waits for its receive): 3 (lat+W)
 *              rendezvous: Send blocks, C completes before A' starts: 2 (lat + W)
 *  Ssend_Recv  never detached: 2 (lat + W)
 *  pingpong_skampi.c's round trip: rank 1 posts its receive and says so (an empty message)
 *              before rank 0's clock starts, and the next handshake follows the timed part:
 *              2 (lat + W) whatever the protocol
 *  Sendrecv    both directions at once, each slowed by the other's 5 % cross-traffic: lat+cx W
 *              (plus, eager, the skew the ranks entered with: exchange_skew; the fit of a
 *              Sendrecv block leaves that term out, it belongs to the first segment) */
void cl_coef(const cl_model *m, int pat, double size, double *a, double *b)
{
  cl_proto p = proto_at(m, size);
  switch (pat) {
  case CL_PAT_SEND_RECV:
    *a = p == CL_DETACHED ? 3 : 2;
    *b = p == CL_DETACHED ? 3 : p == CL_EAGER ? 1 + m->c2 : 2;
    return;
  case CL_PAT_SSEND_RECV:
  case CL_PAT_HANDSHAKE:
    *a = 2;
    *b = 2;
    return;
  case CL_PAT_SENDRECV:
    *a = 1;
    *b = m->cx;
    return;
  default:
    ASSERT(!"unknown pattern");
  }
}

/* An eager exchange never resynchronises the two ranks: they enter the batch skewed by the
 * barrier before it (its release reaches rank 1 one empty message's time after rank 0
 * leaves), each repetition ends when the partner's message is in, and the flows overlap only
 * partly. No closed form: this is the simulator's fluid model for two ranks, replayed for
 * the batch (CL_REPS repetitions, each one's slower rank, middle half averaged, as
 * skampi_patterns.c and SKaMPI do). Every flow crosses both directions of the link (its own,
 * and 5 % cross-traffic on the other), so all flows get the same max-min share. */
#define CL_REPS 16
typedef struct cl_flow {
  double start, lat_end, rem, end; /* rem: payload left, in microseconds at the lone rate */
  bool done;
} cl_flow;

static double exchange_sim(const cl_model *m, double size)
{
  const fit_segment *g = fit_segment_of(&m->m, size), *g0 = fit_segment_of(&m->m, 0);
  double w = (size + FIT_ENVELOPE) * g->inv_bw;
  cl_flow f[2][CL_REPS];
  double start[2][CL_REPS + 1];
  size_t known[2] = {1, 1};
  start[0][0] = 0;
  start[1][0] = g0->lat + FIT_ENVELOPE * g0->inv_bw;
  for (int r = 0; r < 2; r++)
    f[r][0] = (cl_flow){start[r][0], start[r][0] + g->lat, w, 0, false};
  double t = 0;
  for (int guard = 0; guard < 100000; guard++) {
    for (int r = 0; r < 2; r++)
      while (known[r] <= CL_REPS && known[r] - 1 < known[1 - r] && f[1 - r][known[r] - 1].done) {
        size_t k = known[r];
        start[r][k] = fmax(start[r][k - 1], f[1 - r][k - 1].end);
        if (k < CL_REPS)
          f[r][k] = (cl_flow){start[r][k], start[r][k] + g->lat, w, 0, false};
        known[r]++;
        if (k >= CL_REPS)
          break;
      }
    if (known[0] > CL_REPS && known[1] > CL_REPS)
      break;
    int n[2] = {0, 0}; /* flows moving data, per direction */
    for (int r = 0; r < 2; r++)
      for (size_t k = 0; k < known[r] && k < CL_REPS; k++)
        n[r] += !f[r][k].done && f[r][k].lat_end <= t;
    double share = fmin(m->gamma_bound, fmin(m->link_bw / (n[0] + 0.05 * n[1]),
                                             m->link_bw / (n[1] + 0.05 * n[0])));
    double speed = share / m->lone_rate, next = INFINITY;
    for (int r = 0; r < 2; r++)
      for (size_t k = 0; k < known[r] && k < CL_REPS; k++) {
        const cl_flow *x = &f[r][k];
        if (!x->done)
          next = fmin(next, x->lat_end > t ? x->lat_end : t + x->rem / speed);
      }
    ASSERT(isfinite(next));
    for (int r = 0; r < 2; r++)
      for (size_t k = 0; k < known[r] && k < CL_REPS; k++) {
        cl_flow *x = &f[r][k];
        if (x->done || x->lat_end > t)
          continue;
        if (t + x->rem / speed <= next) { /* this one ends now */
          x->done = true;
          x->end = next;
        } else {
          x->rem -= (next - t) * speed;
        }
      }
    t = next;
  }
  double d[CL_REPS], sum = 0;
  for (int k = 0; k < CL_REPS; k++)
    d[k] = fmax(start[0][k + 1] - start[0][k], start[1][k + 1] - start[1][k]);
  qsort(d, CL_REPS, sizeof d[0], cmp_double_asc);
  for (int k = CL_REPS / 4; k < CL_REPS - CL_REPS / 4; k++)
    sum += d[k];
  return sum / (CL_REPS - 2 * (CL_REPS / 4));
}

double cl_predict(const cl_model *m, int pat, double size)
{
  if (pat == CL_PAT_SENDRECV && proto_at(m, size) == CL_EAGER)
    return exchange_sim(m, size);
  const fit_segment *g = fit_segment_of(&m->m, size);
  double a, b;
  cl_coef(m, pat, size, &a, &b);
  return a * g->lat + b * (size + FIT_ENVELOPE) * g->inv_bw;
}

static void set_sharing(cl_model *m, const fit_link *l)
{
  double lone = fit_link_rate(l);
  double gamma_bound = l->tcp_gamma > 0 ? l->tcp_gamma / (2 * l->lat) : INFINITY;
  m->lone_rate = lone;
  m->gamma_bound = gamma_bound;
  m->link_bw = l->bw;
  m->c2 = lone / fmin(l->bw / 2, gamma_bound);
  m->cx = lone / fmin(l->bw / 1.05, gamma_bound);
}

void cl_default_model(const fit_link *l, cl_model *out)
{
  memset(out, 0, sizeof *out);
  out->m.nseg = 1;
  out->m.seg[0] =
      (fit_segment){.start = 0, .lat = l->lat * 1e6, .inv_bw = 1e6 / fit_link_rate(l), .r = 0};
  out->default_protocol = true;
  set_sharing(out, l);
}

/* ---- the fit ---- */

/* Least absolute relative deviation of y = a lat + b P inv_bw over pts (P = size + 16),
 * lat >= 0 and inv_bw >= FIT_MIN_INV_BW, by iteratively reweighted least squares; returns
 * the summed |log error|. */
static double fit_segment_lad(const cl_point *const *pts, size_t n, const cl_model *shape,
                              double *lat, double *inv_bw)
{
  double x0 = 0, x1 = FIT_MIN_INV_BW;
  double *u = xmalloc(2 * n * sizeof *u), *v = u + n, *w = xmalloc(n * sizeof *w);
  for (size_t k = 0; k < n; k++) {
    cl_coef(shape, pts[k]->pat, pts[k]->size, &u[k], &v[k]);
    v[k] *= pts[k]->size + FIT_ENVELOPE;
    w[k] = pts[k]->wt;
  }
  for (int it = 0; it < 40; it++) {
    double m00 = 0, m01 = 0, m11 = 0, r0 = 0, r1 = 0;
    for (size_t k = 0; k < n; k++) {
      double y = pts[k]->t, W = w[k] / (y * y);
      m00 += W * u[k] * u[k];
      m01 += W * u[k] * v[k];
      m11 += W * v[k] * v[k];
      r0 += W * u[k] * pts[k]->t;
      r1 += W * v[k] * pts[k]->t;
    }
    double det = m00 * m11 - m01 * m01;
    bool ok = det > 1e-12 * m00 * m11;
    double n0 = ok ? (r0 * m11 - r1 * m01) / det : -1, n1 = ok ? (m00 * r1 - m01 * r0) / det : -1;
    if (!(n0 >= 0 && n1 >= FIT_MIN_INV_BW)) {
      /* the better of the two constrained fits: latency alone or bandwidth alone */
      double l_only = r0 / m00, b_only = fmax(r1 / m11, FIT_MIN_INV_BW);
      double e_l = 0, e_b = 0;
      for (size_t k = 0; k < n; k++) {
        double y = pts[k]->t;
        e_l += w[k] * pow((y - u[k] * l_only - v[k] * FIT_MIN_INV_BW) / y, 2);
        e_b += w[k] * pow((y - v[k] * b_only) / y, 2);
      }
      if (e_l <= e_b) {
        n0 = fmax(l_only, 0);
        n1 = FIT_MIN_INV_BW;
      } else {
        n0 = 0;
        n1 = b_only;
      }
    }
    double change = fabs(n0 - x0) / (fabs(x0) + 1e-30) + fabs(n1 - x1) / (fabs(x1) + 1e-30);
    x0 = n0;
    x1 = n1;
    for (size_t k = 0; k < n; k++) {
      double y = pts[k]->t, r = fabs(y - u[k] * x0 - v[k] * x1) / y;
      w[k] = pts[k]->wt / fmax(r, 1e-5);
    }
    if (it > 3 && change < 1e-9)
      break;
  }
  double cost = 0;
  for (size_t k = 0; k < n; k++)
    cost += pts[k]->wt * fabs(log(pts[k]->t) - log(fmax(u[k] * x0 + v[k] * x1, 1e-300)));
  free(u);
  free(w);
  *lat = x0;
  *inv_bw = x1;
  return cost;
}

typedef struct cl_work {
  const cl_point **raw; /* the training points, sorted by size: the switch detection's */
  size_t nraw;
  size_t *rfirst;
  cl_point *agg;        /* per (size, pattern): the mean over the runs */
  const cl_point **pts; /* what the segments are fitted to: raw or agg */
  size_t n;
  double *sizes; /* distinct */
  size_t nsizes;
  size_t *first; /* pts of sizes[i]: first[i] .. first[i + 1] */
  size_t nruns;
} cl_work;

static void work_build(cl_work *w, const cl_data *d, size_t skip, bool per_run)
{
  memset(w, 0, sizeof *w);
  size_t cap = d->n ? d->n : 1;
  w->raw = xmalloc(cap * sizeof *w->raw);
  w->pts = xmalloc(cap * sizeof *w->pts);
  w->agg = xmalloc(cap * sizeof *w->agg);
  w->sizes = xmalloc(cap * sizeof *w->sizes);
  w->first = xmalloc((d->n + 1) * sizeof *w->first);
  w->rfirst = xmalloc((d->n + 1) * sizeof *w->rfirst);
  bool *seen = xcalloc(d->nruns ? d->nruns : 1, sizeof *seen);
  for (size_t i = 0; i < d->n; i++) {
    if (d->pts[i].run == skip)
      continue;
    if (!seen[d->pts[i].run]) {
      seen[d->pts[i].run] = true;
      w->nruns++;
    }
    if (w->nsizes == 0 || w->sizes[w->nsizes - 1] != d->pts[i].size) {
      w->rfirst[w->nsizes] = w->nraw;
      w->sizes[w->nsizes++] = d->pts[i].size;
    }
    w->raw[w->nraw++] = &d->pts[i];
  }
  w->rfirst[w->nsizes] = w->nraw;
  free(seen);
  size_t nagg = 0;
  for (size_t k = 0; k < w->nsizes; k++) {
    w->first[k] = w->n;
    if (per_run) {
      for (size_t i = w->rfirst[k]; i < w->rfirst[k + 1]; i++)
        w->pts[w->n++] = w->raw[i];
      continue;
    }
    for (int pat = 0; pat < CL_NPAT; pat++) {
      double sum = 0;
      size_t c = 0;
      for (size_t i = w->rfirst[k]; i < w->rfirst[k + 1]; i++)
        if (w->raw[i]->pat == pat) {
          sum += w->raw[i]->t;
          c++;
        }
      if (c) {
        w->agg[nagg] = (cl_point){.size = w->sizes[k],
                                  .t = sum / (double)c,
                                  .pat = pat,
                                  .run = SIZE_MAX,
                                  .wt = (double)c};
        w->pts[w->n++] = &w->agg[nagg++];
      }
    }
  }
  w->first[w->nsizes] = w->n;
}

static void work_free(cl_work *w)
{
  free(w->raw);
  free(w->rfirst);
  free(w->agg);
  free(w->pts);
  free(w->sizes);
  free(w->first);
}

/* Best segmentation for a given switch (eager below `sw`, 0: none) with at most kmax
 * segments; a segment may not straddle the switch. Returns the penalised cost (INFINITY when
 * no segmentation exists). */
static double dp_fit(const cl_work *w, const cl_options *o, double sw, size_t kmax, cl_model *m)
{
  size_t n = w->nsizes, mp = o->min_points;
  double lambda = o->penalty * (double)(w->nruns ? w->nruns : 1);
  m->eager_below = sw;
  m->default_protocol = false;
  /* cost[i * (n + 1) + j]: segment of sizes i .. j - 1 */
  double *cost = xmalloc(n * (n + 1) * sizeof *cost), *lat = xmalloc(n * (n + 1) * sizeof *lat),
         *ib = xmalloc(n * (n + 1) * sizeof *ib);
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j <= n; j++) {
      size_t c = i * (n + 1) + j;
      cost[c] = INFINITY;
      if (j - i < mp || (sw > 0 && w->sizes[i] < sw && w->sizes[j - 1] >= sw))
        continue;
      cost[c] = fit_segment_lad(w->pts + w->first[i], w->first[j] - w->first[i], m, &lat[c],
                                &ib[c]);
    }
  /* best[k][j]: the first j sizes in k segments */
  double *best = xmalloc((kmax + 1) * (n + 1) * sizeof *best);
  size_t *arg = xmalloc((kmax + 1) * (n + 1) * sizeof *arg);
  for (size_t x = 0; x < (kmax + 1) * (n + 1); x++)
    best[x] = INFINITY;
  best[0] = 0;
  for (size_t k = 1; k <= kmax; k++)
    for (size_t j = 1; j <= n; j++)
      for (size_t i = 0; i < j; i++) {
        double v = best[(k - 1) * (n + 1) + i] + cost[i * (n + 1) + j];
        if (v < best[k * (n + 1) + j]) {
          best[k * (n + 1) + j] = v;
          arg[k * (n + 1) + j] = i;
        }
      }
  size_t kbest = 0;
  double total = INFINITY;
  for (size_t k = 1; k <= kmax; k++)
    if (best[k * (n + 1) + n] + lambda * (double)k < total) {
      total = best[k * (n + 1) + n] + lambda * (double)k;
      kbest = k;
    }
  if (kbest > 0) {
    m->m.nseg = kbest;
    size_t j = n;
    for (size_t k = kbest; k >= 1; k--) {
      size_t i = arg[k * (n + 1) + j], c = i * (n + 1) + j;
      m->m.seg[k - 1] = (fit_segment){.first = i,
                                      .last = j - 1,
                                      .start = k == 1 ? 0 : w->sizes[i],
                                      .lat = lat[c],
                                      .inv_bw = ib[c],
                                      .r = 0};
      m->lo[k - 1] = w->sizes[i];
      m->hi[k - 1] = w->sizes[j - 1];
      j = i;
    }
    m->cost = best[kbest * (n + 1) + n];
    m->m.score = m->cost / (double)(w->n ? w->n : 1);
  }
  free(cost);
  free(lat);
  free(ib);
  free(best);
  free(arg);
  return total;
}

/* The eager/rendezvous switch, from the data: in each run (and pattern), the step into size
 * s_k is the smallest time at s_k or above over the time at s_(k-1) grown in proportion to
 * the size (what a bandwidth-bound segment would give). A protocol switch is a step that
 * stays (the 128 B spike or a 4 KiB bump comes back down, so its step is < 1) and beats
 * plain bandwidth growth by switch_ratio. Every run votes ln(step) for its s_k; the size
 * with the most votes is the switch (0: none). */
static double detect_switch(const cl_work *w, const cl_options *o, double *ratio)
{
  double *vs = xcalloc(w->nsizes ? w->nsizes : 1, sizeof *vs);
  size_t *nv = xcalloc(w->nsizes ? w->nsizes : 1, sizeof *nv);
  size_t maxrun = 0;
  for (size_t i = 0; i < w->nraw; i++)
    maxrun = w->raw[i]->run > maxrun ? w->raw[i]->run : maxrun;
  double *t = xmalloc((w->nsizes ? w->nsizes : 1) * sizeof *t);
  size_t *idx = xmalloc((w->nsizes ? w->nsizes : 1) * sizeof *idx);
  for (size_t run = 0; run <= maxrun; run++)
    for (int pat = 0; pat < CL_NPAT; pat++) {
      size_t m = 0; /* this run's series for this pattern, one value per size (the mean) */
      for (size_t k = 0; k < w->nsizes; k++) {
        double sum = 0;
        size_t c = 0;
        for (size_t i = w->rfirst[k]; i < w->rfirst[k + 1]; i++)
          if (w->raw[i]->run == run && w->raw[i]->pat == pat) {
            sum += w->raw[i]->t;
            c++;
          }
        if (c) {
          t[m] = sum / (double)c;
          idx[m++] = k;
        }
      }
      for (size_t k = 1; k < m; k++) {
        double low = INFINITY;
        for (size_t j = k; j < m; j++)
          low = fmin(low, t[j]);
        double step = low / (t[k - 1] * w->sizes[idx[k]] / w->sizes[idx[k - 1]]);
        if (step >= o->switch_ratio) {
          vs[idx[k]] += log(step);
          nv[idx[k]]++;
        }
      }
    }
  size_t best = 0;
  for (size_t k = 1; k < w->nsizes; k++)
    if (vs[k] > vs[best])
      best = k;
  double sw = vs[best] > 0 ? w->sizes[best] : 0;
  *ratio = vs[best] > 0 ? exp(vs[best] / (double)nv[best]) : 0;
  free(vs);
  free(nv);
  free(t);
  free(idx);
  return sw;
}

int cl_fit(const cl_data *d, size_t skip, const cl_options *o, const fit_link *l,
           size_t max_segments, cl_model *out, char *err, size_t errlen)
{
  cl_work w;
  work_build(&w, d, skip, o->per_run);
  memset(out, 0, sizeof *out);
  set_sharing(out, l);
  size_t kmax = max_segments < FIT_MAX_SEGMENTS ? max_segments : FIT_MAX_SEGMENTS;
  if (kmax == 0 || w.nsizes < o->min_points) {
    snprintf(err, errlen, "%zu measured sizes: not enough for one segment of %zu sizes", w.nsizes,
             o->min_points);
    work_free(&w);
    return -1;
  }
  double ratio = 0, sw = o->switch_ratio > 0 && kmax > 1 ? detect_switch(&w, o, &ratio) : 0;
  if (sw > 0) {
    cl_model trial = *out;
    if (isfinite(dp_fit(&w, o, sw, kmax, &trial)))
      *out = trial;
    else
      sw = 0; /* too few sizes on one side to keep the switch as a breakpoint */
  }
  if (sw == 0)
    dp_fit(&w, o, 0, kmax, out);
  out->eager_below = sw;
  out->switch_ratio = sw > 0 ? ratio : 0;
  work_free(&w);
  return 0;
}

/* ---- residuals and intervals ---- */

void cl_resid_free(cl_resid *r)
{
  free(r->size);
  free(r->e);
  memset(r, 0, sizeof *r);
}

static void resid_add(cl_resid *r, size_t *cap, double size, double e)
{
  if (r->n == *cap) {
    *cap = *cap ? 2 * *cap : 256;
    r->size = xrealloc(r->size, *cap * sizeof *r->size);
    r->e = xrealloc(r->e, *cap * sizeof *r->e);
  }
  r->size[r->n] = size;
  r->e[r->n++] = e;
}

int cl_residuals(const cl_data *d, size_t skip, const cl_options *o, const fit_link *l,
                 const cl_model *m, cl_resid *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  size_t cap = 0, nruns = 0;
  for (size_t r = 0; r < d->nruns; r++)
    nruns += r != skip;
  for (size_t i = 0; i < d->n; i++)
    if (d->pts[i].run != skip)
      resid_add(out, &cap, d->pts[i].size,
                log(d->pts[i].t) - log(cl_predict(m, d->pts[i].pat, d->pts[i].size)));
  if (nruns < 2)
    return 0;
  /* each remaining run against a fit on the others (neither it nor skip) */
  for (size_t r = 0; r < d->nruns; r++) {
    if (r == skip)
      continue;
    cl_data sub = *d;
    sub.pts = xmalloc((d->n ? d->n : 1) * sizeof *sub.pts);
    sub.n = 0;
    for (size_t i = 0; i < d->n; i++)
      if (d->pts[i].run != skip)
        sub.pts[sub.n++] = d->pts[i];
    cl_model inner;
    if (cl_fit(&sub, r, o, l, o->max_segments, &inner, err, errlen) != 0) {
      free(sub.pts);
      cl_resid_free(out);
      return -1;
    }
    for (size_t i = 0; i < sub.n; i++)
      if (sub.pts[i].run == r)
        resid_add(out, &cap, sub.pts[i].size,
                  log(sub.pts[i].t) - log(cl_predict(&inner, sub.pts[i].pat, sub.pts[i].size)));
    free(sub.pts);
  }
  return 0;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* the residuals within size x/÷ window, sorted; widens the window until 8 are found */
static size_t local_resid(const cl_resid *r, const cl_options *o, double size, double *buf)
{
  size_t k = 0;
  for (double win = o->window; k < 8 && win < 1e12; win *= 2) {
    k = 0;
    for (size_t i = 0; i < r->n; i++)
      if (r->size[i] <= size * win && r->size[i] >= size / win)
        buf[k++] = r->e[i];
    if (k == r->n)
      break;
  }
  qsort(buf, k, sizeof *buf, cmp_double);
  return k;
}

/* split-conformal ranks: the ceil((k + 1) u)-th smallest for an upper quantile, the
 * floor((k + 1) u)-th for a lower one, clamped to the sample */
static double rank_pick(const double *s, size_t k, double u)
{
  if (k == 0)
    return 0;
  double pos = u >= 0.5 ? ceil((double)(k + 1) * u) : floor((double)(k + 1) * u);
  if (pos < 1)
    pos = 1;
  if (pos > (double)k)
    pos = (double)k;
  return s[(size_t)pos - 1];
}

double cl_quantile(const cl_resid *r, const cl_options *o, double size, double u)
{
  double *buf = xmalloc((r->n ? r->n : 1) * sizeof *buf);
  size_t k = local_resid(r, o, size, buf);
  double q = rank_pick(buf, k, u);
  free(buf);
  return exp(q);
}

void cl_interval(const cl_resid *r, const cl_options *o, double size, double *lo, double *hi)
{
  double a = (1 - o->level) / 2;
  *lo = cl_quantile(r, o, size, a);
  *hi = cl_quantile(r, o, size, 1 - a);
}

/* ---- evaluation ---- */

static double log_err(double measured, double predicted)
{
  return fabs(log(measured) - log(fmax(predicted, 1e-300)));
}

/* Run r's time at size (same pattern), interpolated log-log between its neighbours; NAN when
 * size is outside the run's range. */
static double run_value(const cl_data *d, size_t r, int pat, double size)
{
  double below = NAN, bs = 0, above = NAN, as = 0, sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < d->n; i++) {
    const cl_point *p = &d->pts[i];
    if (p->run != r || p->pat != pat)
      continue;
    if (p->size == size) {
      sum += p->t;
      n++;
    } else if (p->size < size) {
      below = p->t;
      bs = p->size;
    } else if (isnan(above)) {
      above = p->t;
      as = p->size;
    }
  }
  if (n)
    return sum / (double)n;
  if (isnan(below) || isnan(above))
    return NAN;
  double f = (log(size) - log(bs)) / (log(as) - log(bs));
  return exp((1 - f) * log(below) + f * log(above));
}

int cl_evaluate(const cl_data *d, const cl_options *o, const fit_link *l, const cl_model *fin,
                cl_eval *ev, char *err, size_t errlen)
{
  memset(ev, 0, sizeof *ev);
  ev->npts = d->n;
  cl_model def;
  cl_default_model(l, &def);
  double s_in = 0, s_def = 0;
  for (size_t i = 0; i < d->n; i++) {
    s_in += log_err(d->pts[i].t, cl_predict(fin, d->pts[i].pat, d->pts[i].size));
    s_def += log_err(d->pts[i].t, cl_predict(&def, d->pts[i].pat, d->pts[i].size));
  }
  ev->insample = d->n ? s_in / (double)d->n : NAN;
  ev->def_affine = d->n ? s_def / (double)d->n : NAN;
  ev->loro = ev->floor = ev->affine = ev->coverage = NAN;
  if (d->nruns < 2)
    return 0;
  double s_loro = 0, s_floor = 0, s_aff = 0, s_width = 0;
  size_t n_all = 0, n_floor = 0, n_cov = 0;
  for (size_t r = 0; r < d->nruns; r++) {
    cl_model m, aff;
    cl_resid res;
    if (cl_fit(d, r, o, l, o->max_segments, &m, err, errlen) != 0 ||
        cl_fit(d, r, o, l, 1, &aff, err, errlen) != 0 ||
        cl_residuals(d, r, o, l, &m, &res, err, errlen) != 0)
      return -1;
    double sl = 0, sf = 0;
    size_t nr = 0, nf = 0, nc = 0;
    for (size_t i = 0; i < d->n; i++) {
      const cl_point *p = &d->pts[i];
      if (p->run != r)
        continue;
      double pred = cl_predict(&m, p->pat, p->size), lo, hi;
      sl += log_err(p->t, pred);
      s_aff += log_err(p->t, cl_predict(&aff, p->pat, p->size));
      cl_interval(&res, o, p->size, &lo, &hi);
      nc += p->t >= pred * lo && p->t <= pred * hi;
      s_width += log(hi / lo);
      nr++;
      /* the noise floor: the mean of the other runs at this size */
      double sum = 0;
      size_t k = 0;
      for (size_t q = 0; q < d->nruns; q++) {
        double v = q == r ? NAN : run_value(d, q, p->pat, p->size);
        if (!isnan(v)) {
          sum += v;
          k++;
        }
      }
      if (k) {
        sf += log_err(p->t, sum / (double)k);
        nf++;
      }
    }
    cl_resid_free(&res);
    s_loro += sl;
    s_floor += sf;
    n_all += nr;
    n_floor += nf;
    n_cov += nc;
    if (r < 64) {
      ev->loro_run[r] = nr ? sl / (double)nr : NAN;
      ev->floor_run[r] = nf ? sf / (double)nf : NAN;
      ev->cover_run[r] = nr ? (double)nc / (double)nr : NAN;
    }
  }
  ev->loro = s_loro / (double)n_all;
  ev->affine = s_aff / (double)n_all;
  ev->floor = n_floor ? s_floor / (double)n_floor : NAN;
  ev->coverage = (double)n_cov / (double)n_all;
  ev->width = exp(s_width / (double)n_all);
  return 0;
}

/* ---- output ---- */

char *cl_settings(const cl_model *m, const fit_link *l)
{
  char *bw = emit_bw_factor(&m->m, l), *lat = emit_lat_factor(&m->m, l);
  /* the protocol the fit assumed, always written: the defaults (detached below 64 KiB, never
   * eager) would time SKaMPI's pattern differently from the fit. smpi/wtime:0 because the
   * measured times already include the real clock reads. */
  char *s = xasprintf("smpi/bw-factor:%s smpi/lat-factor:%s smpi/os:0:0:0 smpi/or:0:0:0 "
                      "smpi/ois:0:0:0 smpi/async-small-thresh:%.0f "
                      "smpi/send-is-detached-thresh:%.0f smpi/wtime:0",
                      bw, lat, m->eager_below, m->eager_below);
  free(bw);
  free(lat);
  return s;
}

static double pct(double logerr) { return 100 * (exp(logerr) - 1); }

static FILE *open_w(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f)
    fprintf(stderr, "smpi-calibrate: cannot write %s: %s (check the directory exists)\n", path,
            strerror(errno));
  return f;
}

static int close_w(FILE *f, const char *path)
{
  if (ferror(f) | fclose(f)) {
    fprintf(stderr, "smpi-calibrate: error writing %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

static void write_settings_lines(FILE *f, const char *s, bool xml)
{
  char *c = xstrdup(s);
  for (char *save = NULL, *t = strtok_r(c, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    if (xml) {
      char *colon = strchr(t, ':');
      fprintf(f, "    <prop id=\"%.*s\" value=\"%s\"/>\n", (int)(colon - t), t, colon + 1);
    } else {
      fprintf(f, "--cfg=%s\n", t);
    }
  }
  free(c);
}

static int write_platform(const char *path, const cl_model *m, const fit_link *l,
                          const char *prov)
{
  FILE *f = open_w(path);
  if (!f)
    return -1;
  char *s = cl_settings(m, l);
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
             "\"https://simgrid.org/simgrid.dtd\">\n<!-- smpi-calibrate closed-loop fit: ");
  for (const char *c = prov; *c; c++) {
    fputc(*c, f);
    if (*c == '-' && (c[1] == '-' || c[1] == '\0'))
      fputc(' ', f);
  }
  fprintf(f,
          "\n     Factors relative to a route of latency %.10g s, bandwidth %.10g B/s. -->\n"
          "<platform version=\"4.1\">\n  <config id=\"smpi-calibrate\">\n",
          l->lat, l->bw);
  write_settings_lines(f, s, true);
  fprintf(f,
          "  </config>\n  <zone id=\"calibrated\" routing=\"Full\">\n"
          "    <host id=\"node-0\" speed=\"1Gf\"/>\n"
          "    <host id=\"node-1\" speed=\"1Gf\"/>\n"
          "    <link id=\"calibrated-link\" bandwidth=\"%.10gBps\" latency=\"%.10gs\" "
          "sharing_policy=\"SPLITDUPLEX\"/>\n"
          "    <route src=\"node-0\" dst=\"node-1\" symmetrical=\"NO\">"
          "<link_ctn id=\"calibrated-link\" direction=\"UP\"/></route>\n"
          "    <route src=\"node-1\" dst=\"node-0\" symmetrical=\"NO\">"
          "<link_ctn id=\"calibrated-link\" direction=\"DOWN\"/></route>\n"
          "  </zone>\n</platform>\n",
          l->bw, l->lat);
  free(s);
  return close_w(f, path);
}

/* One parameter draw: every segment's time scaled by the u-quantile of the residuals near
 * the geometric middle of the segment's measured sizes, the same u for all (a run is slow or fast as a whole more often than
 * size by size). */
static void draw_model(const cl_model *m, const cl_resid *res, const cl_options *o, double u,
                       cl_model *out)
{
  *out = *m;
  for (size_t s = 0; s < m->m.nseg; s++) {
    fit_segment *g = &out->m.seg[s];
    double lo = m->lo[s] > 0 ? m->lo[s] : 1, hi = m->hi[s] > lo ? m->hi[s] : lo;
    double f = cl_quantile(res, o, sqrt(lo * hi), u);
    g->lat *= f;
    g->inv_bw *= f;
  }
}

static int write_plot(const char *base, const cl_data *d, const cl_model *m, const cl_resid *res,
                      const cl_options *o, int pat)
{
  static const plot_color colors[] = {
      PLOT_RED, PLOT_GREEN, PLOT_ORANGE, PLOT_GREY, {0.55, 0.25, 0.65, 1}, {0.2, 0.6, 0.7, 1}};
  plot *p = plot_new(860, 600);
  char title[160];
  snprintf(title, sizeof title,
           "SKaMPI %s: %zu runs, closed-loop fit, %.0f%% prediction interval",
           cl_pattern_name((cl_pattern)pat), d->nruns, 100 * o->level);
  plot_title(p, title);
  plot_axis(p, PLOT_AXIS_X, PLOT_LOG, "message size (bytes)");
  plot_axis_ticks(p, PLOT_AXIS_X, 4, plot_label_bytes);
  plot_axis(p, PLOT_AXIS_Y, PLOT_LOG,
            pat == CL_PAT_SENDRECV ? "exchange time (us)" : "round-trip time (us)");
  double smin = INFINITY, smax = 0;
  for (size_t i = 0; i < d->n; i++)
    if (d->pts[i].pat == pat) {
      smin = fmin(smin, d->pts[i].size);
      smax = fmax(smax, d->pts[i].size);
    }
  size_t ng = 400;
  double *gx = xmalloc(4 * ng * sizeof *gx), *gy = gx + ng, *lo = gy + ng, *hi = lo + ng;
  for (size_t i = 0; i < ng; i++) {
    gx[i] = exp(log(smin) + (log(smax) - log(smin)) * (double)i / (double)(ng - 1));
    gy[i] = cl_predict(m, pat, gx[i]);
    double a, b;
    cl_interval(res, o, gx[i], &a, &b);
    lo[i] = gy[i] * a;
    hi[i] = gy[i] * b;
  }
  char leg[64];
  snprintf(leg, sizeof leg, "%.0f%% prediction interval", 100 * o->level);
  plot_band(p, gx, lo, hi, ng, (plot_color){0.12, 0.35, 0.75, 0.18}, leg);
  plot_series(p, gx, gy, ng, (plot_style){.color = PLOT_BLUE, .line_width = 2},
              "closed-loop fit (as simulated)");
  double *x = xmalloc(2 * (d->n ? d->n : 1) * sizeof *x), *y = x + d->n;
  for (size_t r = 0; r < d->nruns; r++) {
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++)
      if (d->pts[i].run == r && d->pts[i].pat == pat) {
        x[k] = d->pts[i].size;
        y[k++] = d->pts[i].t;
      }
    const char *name = strrchr(d->runs[r], '/') ? strrchr(d->runs[r], '/') + 1 : d->runs[r];
    plot_series(p, x, y, k,
                (plot_style){.color = colors[r % 6],
                             .marker = r % 3 == 0   ? PLOT_MARK_CIRCLE
                                       : r % 3 == 1 ? PLOT_MARK_SQUARE
                                                    : PLOT_MARK_CROSS,
                             .marker_size = 3},
                name);
  }
  int rc = 0;
  char err[256];
  for (int f = 0; f < 2 && rc == 0; f++) {
    char *path = xasprintf("%s.%s", base, f ? "png" : "svg");
    rc = plot_save(p, path, err, sizeof err);
    if (rc)
      fprintf(stderr, "smpi-calibrate: %s\n", err);
    free(path);
  }
  free(x);
  free(gx);
  plot_free(p);
  return rc;
}

static int cmp_point_full(const void *a, const void *b)
{
  const cl_point *x = a, *y = b;
  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  if (x->pat != y->pat)
    return x->pat - y->pat;
  if (x->blk != y->blk)
    return x->blk - y->blk;
  return x->t < y->t ? -1 : x->t > y->t;
}

/* Index of a run holding exactly the measurements of an earlier one (the same file given
 * twice, or a copy), with that earlier run in *twin; SIZE_MAX if none. Two such runs would
 * make a noise floor of zero and a verdict about nothing. */
static size_t duplicate_run(const cl_data *d, size_t *twin)
{
  cl_point *mine = xmalloc((d->n ? d->n : 1) * sizeof *mine);
  cl_point *other = xmalloc((d->n ? d->n : 1) * sizeof *other);
  size_t found = SIZE_MAX;
  for (size_t r = 1; r < d->nruns && found == SIZE_MAX; r++) {
    size_t nm = 0;
    for (size_t i = 0; i < d->n; i++)
      if (d->pts[i].run == r)
        mine[nm++] = d->pts[i];
    qsort(mine, nm, sizeof *mine, cmp_point_full);
    for (size_t q = 0; q < r && found == SIZE_MAX; q++) {
      size_t no = 0;
      for (size_t i = 0; i < d->n; i++)
        if (d->pts[i].run == q)
          other[no++] = d->pts[i];
      if (no != nm)
        continue;
      qsort(other, no, sizeof *other, cmp_point_full);
      bool same = true;
      for (size_t i = 0; i < nm && same; i++)
        same = cmp_point_full(&mine[i], &other[i]) == 0;
      if (same) {
        found = r;
        *twin = q;
      }
    }
  }
  free(mine);
  free(other);
  return found;
}

int cl_main(const char *const *files, size_t nfiles, const char *const *globs, size_t nglobs,
            const cl_options *o, const fit_link *l, const cl_outputs *out, bool quiet)
{
  char err[1024];
  cl_data d;
  cl_model m;
  cl_resid res = {0};
  cl_eval ev;
  int rc = 1;
  char *prov = NULL;
  if (cl_data_load(&d, files, nfiles, globs, nglobs, err, sizeof err) != 0) {
    fprintf(stderr, "smpi-calibrate: %s\n", err);
    goto done;
  }
  if (d.nruns < 2) {
    /* without a second run there is no noise floor, no leave-one-run-out error and no
     * out-of-sample residual: the report could only print the in-sample misfit */
    fprintf(stderr,
            "smpi-calibrate: %s: one run only: the closed-loop fit needs two runs or more, one "
            "SKaMPI output file each (run the benchmark again, at another time), to measure "
            "the noise floor, the leave-one-run-out error and prediction intervals that hold "
            "the run-to-run spread; --open-loop fits a single run the legacy way "
            "(one-way = round trip / 2)\n",
            d.nruns ? d.runs[0] : "(no file)");
    goto done;
  }
  size_t twin, dup = duplicate_run(&d, &twin);
  if (dup != SIZE_MAX) {
    fprintf(stderr,
            "smpi-calibrate: %s holds the same measurements as %s: the same run given twice? "
            "Each file must be a run of its own (the noise floor is the spread between them)\n",
            d.runs[dup], d.runs[twin]);
    goto done;
  }
  if (cl_fit(&d, SIZE_MAX, o, l, o->max_segments, &m, err, sizeof err) != 0 ||
      cl_residuals(&d, SIZE_MAX, o, l, &m, &res, err, sizeof err) != 0 ||
      cl_evaluate(&d, o, l, &m, &ev, err, sizeof err) != 0) {
    fprintf(stderr, "smpi-calibrate: %s\n", err);
    goto done;
  }
  prov = xasprintf("closed-loop fit of %zu run(s), %zu values, penalty %g per segment and run",
                   d.nruns, d.n, o->penalty);
  int pats[CL_NPAT] = {0};
  for (size_t i = 0; i < d.n; i++)
    pats[d.pts[i].pat]++;

  if (!quiet) {
    printf("closed-loop fit (the default; --open-loop: the legacy fit): %zu runs, %zu values (",
           d.nruns, d.n);
    for (int p = 0, first = 1; p < CL_NPAT; p++)
      if (pats[p]) {
        printf("%s%s %d", first ? "" : ", ", cl_pattern_name((cl_pattern)p), pats[p]);
        first = 0;
      }
    printf("), each time modelled as the simulator runs its benchmark's pattern\n");
    for (size_t r = 0; r < d.nruns; r++)
      printf("  run %zu: %s\n", r + 1, d.runs[r]);
    if (m.eager_below > 0)
      printf("protocol: eager below %.0f B, rendezvous from it (a step of x%.2f in the data)\n",
             m.eager_below, m.switch_ratio);
    else
      printf("protocol: no eager/rendezvous step of x%g found: rendezvous at every size\n",
             o->switch_ratio);
    printf("segments (one way: lat + (size + 16) / bw):\n");
    for (size_t s = 0; s < m.m.nseg; s++) {
      const fit_segment *g = &m.m.seg[s];
      printf("  from %9.0f B: lat %9.4g us  bw %10.4g B/s  lat-factor %9.4g  bw-factor %9.4g\n",
             g->start, g->lat, g->inv_bw > FIT_MIN_INV_BW ? 1e6 / g->inv_bw : INFINITY,
             fit_lat_factor(g, l), fit_bw_factor(g, l));
    }
    printf("\n%10s %-10s %10s %10s %10s   measured (us), run by run\n", "size", "pattern",
           "fitted", "lo", "hi");
    for (size_t i = 0; i < d.n;) {
      size_t j = i;
      while (j < d.n && d.pts[j].size == d.pts[i].size && d.pts[j].pat == d.pts[i].pat)
        j++;
      double pred = cl_predict(&m, d.pts[i].pat, d.pts[i].size), lo, hi;
      cl_interval(&res, o, d.pts[i].size, &lo, &hi);
      printf("%10.0f %-10s %10.4g %10.4g %10.4g  ", d.pts[i].size,
             cl_pattern_name((cl_pattern)d.pts[i].pat), pred, pred * lo, pred * hi);
      for (size_t k = i; k < j; k++)
        printf(" %g", d.pts[k].t);
      printf("\n");
      i = j;
    }
  }
  /* the report (-q keeps it): how well a run the fit never saw is predicted, against what
   * the runs themselves allow and against the affine models; then the verdict */
  printf("\nerrors (mean |ln measured - ln predicted|, shown as e^x - 1):\n");
  printf("  in-sample (fit on all runs)              %7.1f%%\n", pct(ev.insample));
  printf("  leave-one-run-out (fit on the others)    %7.1f%%\n", pct(ev.loro));
  if (ev.floor > 0)
    printf("  noise floor (mean of the other runs)     %7.1f%%   leave-one-run-out = %.2fx it\n",
           pct(ev.floor), ev.loro / ev.floor);
  else
    printf("  noise floor (mean of the other runs)     n/a: %s\n",
           isnan(ev.floor) ? "the runs share no measured size" : "the runs agree exactly");
  printf("  best-fit affine, leave-one-run-out       %7.1f%%\n", pct(ev.affine));
  printf("  default affine (simulator, no factors)   %7.1f%%\n", pct(ev.def_affine));
  printf("  %.0f%% intervals contain %.1f%% of the left-out runs' points (typical width: "
         "hi = %.2f x lo)\n",
         100 * o->level, 100 * ev.coverage, ev.width);
  printf("  by run:");
  for (size_t r = 0; r < d.nruns && r < 64; r++) {
    char fl[32] = "n/a";
    if (!isnan(ev.floor_run[r]))
      snprintf(fl, sizeof fl, "%.1f%%", pct(ev.floor_run[r]));
    printf(" [%zu] %.1f%% (floor %s, cover %.0f%%)", r + 1, pct(ev.loro_run[r]), fl,
           100 * ev.cover_run[r]);
  }
  printf("\n");
  if (!(ev.floor > 0))
    printf("verdict: none: the runs agree exactly or share no measured size, so there is no "
           "noise floor to compare with; give runs that measured the same sizes.\n");
  else if (ev.loro <= 1.2 * ev.floor)
    printf("verdict: the DATA limits the accuracy: a run the fit never saw is predicted about "
           "as well as by the other runs themselves (%.2fx the noise floor); a richer model "
           "cannot do better, more or quieter runs can.\n",
           ev.loro / ev.floor);
  else
    printf("verdict: the MODEL limits the accuracy: it predicts a new run %.2fx worse than "
           "the other runs do; more segments (--penalty lower) or another model may help.\n",
           ev.loro / ev.floor);
  if (d.nruns == 2)
    printf("note: with two runs the intervals come from one run's residuals per fold and "
           "under-cover; give three runs or more.\n");
  printf("summary: insample=%.6f loro=%.6f floor=%.6f affine=%.6f default=%.6f "
         "coverage=%.6f level=%g runs=%zu points=%zu\n",
         ev.insample, ev.loro, ev.floor, ev.affine, ev.def_affine, ev.coverage, o->level, d.nruns,
         d.n);
  char *s = cl_settings(&m, l);
  printf("\nsettings: %s\n", s);

  if (out->cfg_out) {
    FILE *f = open_w(out->cfg_out);
    if (!f)
      goto done_s;
    fprintf(f,
            "# smpi-calibrate: %s\n# Factors relative to a route of latency %.10g s and "
            "bandwidth %.10g B/s.\n",
            prov, l->lat, l->bw);
    write_settings_lines(f, s, false);
    if (close_w(f, out->cfg_out))
      goto done_s;
  }
  if (out->platform_out && write_platform(out->platform_out, &m, l, prov))
    goto done_s;
  if (out->table_out) {
    /* what the simulator must reproduce: every pattern of the input at every measured size */
    FILE *f = open_w(out->table_out);
    if (!f)
      goto done_s;
    /* every point-to-point pattern of the files, fitted or not */
    static const char *const all[] = {"*"};
    cl_data t;
    if (data_load(&t, files, nfiles, all, 1, true, err, sizeof err) != 0) {
      fprintf(stderr, "smpi-calibrate: %s\n", err);
      fclose(f);
      goto done_s;
    }
    fprintf(f, "# pattern size fitted_us (closed-loop fit; SKaMPI's time per repetition)\n");
    for (size_t b = 0; b < t.nblocks; b++) {
      double last = -1;
      for (size_t i = 0; i < t.n; i++)
        if (t.pts[i].blk == (int)b && t.pts[i].size != last) {
          fprintf(f, "%s %.0f %.9g\n", t.blocks[b], t.pts[i].size,
                  cl_predict(&m, t.pts[i].pat, t.pts[i].size));
          last = t.pts[i].size;
        }
    }
    cl_data_free(&t);
    if (close_w(f, out->table_out))
      goto done_s;
  }
  if (out->samples_out) {
    FILE *f = open_w(out->samples_out);
    if (!f)
      goto done_s;
    fprintf(f,
            "# smpi-calibrate samples v1: %zu parameter sets drawn from the closed-loop fit's "
            "prediction intervals\n# %s\n# Draw i scales every segment by the quantile "
            "(i + 0.5) / N of the residuals near it. One line = one set of settings.\n",
            out->nsamples, prov);
    for (size_t i = 0; i < out->nsamples; i++) {
      cl_model dm;
      draw_model(&m, &res, o, ((double)i + 0.5) / (double)out->nsamples, &dm);
      char *ds = cl_settings(&dm, l);
      fprintf(f, "%s\n", ds);
      free(ds);
    }
    if (close_w(f, out->samples_out))
      goto done_s;
  }
  if (out->plot_base) {
    static const int order[] = {CL_PAT_SEND_RECV, CL_PAT_HANDSHAKE, CL_PAT_SSEND_RECV,
                                CL_PAT_SENDRECV};
    int pat = CL_PAT_SENDRECV;
    for (int k = 3; k >= 0; k--)
      pat = pats[order[k]] ? order[k] : pat;
    if (write_plot(out->plot_base, &d, &m, &res, o, pat))
      goto done_s;
  }
  rc = 0;
done_s:
  free(s);
done:
  free(prov);
  cl_resid_free(&res);
  cl_data_free(&d);
  return rc;
}
