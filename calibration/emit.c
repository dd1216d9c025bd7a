/* Writing the fitted model in the simulator's terms (thresholds and factors: see the worked
 * example at the top of fit.c). */
#include "calibration/emit.h"

#include "src/invariant.h"
#include "src/mem.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Factors are printed with 10 significant digits: the reproduction of the model is then
 * exact to ~1e-9, far inside the 1 % the round trip asks for. */
static char *factor_string(const fit_model *m, const fit_link *l, bool lat)
{
  char *s = xstrdup("");
  for (size_t i = 0; i < m->nseg; i++) {
    const fit_segment *g = &m->seg[i];
    double v = lat ? fit_lat_factor(g, l) : fit_bw_factor(g, l);
    char *n = xasprintf("%s%s%.0f:%.10g", s, i ? ";" : "", fit_factor_threshold(g), v);
    free(s);
    s = n;
  }
  return s;
}

char *emit_lat_factor(const fit_model *m, const fit_link *l) { return factor_string(m, l, true); }

char *emit_bw_factor(const fit_model *m, const fit_link *l) { return factor_string(m, l, false); }

/* All the per-segment latency goes into lat-factor and nothing into the send/receive
 * overheads: the overheads of the simulator are charged only on some protocol paths (os
 * only to detached sends, or only after them), so a ping-pong cannot tell them apart from
 * latency, and the factors reproduce it on every path. They are written out as 0 so that a
 * platform file's or a user's earlier values do not add to the calibrated latency. */
char *emit_settings(const fit_model *m, const fit_link *l, double switch_size)
{
  char *bw = emit_bw_factor(m, l), *lat = emit_lat_factor(m, l);
  char *s = xasprintf("smpi/bw-factor:%s smpi/lat-factor:%s smpi/os:0:0:0 smpi/or:0:0:0 "
                      "smpi/ois:0:0:0",
                      bw, lat);
  if (switch_size > 0) {
    char *t = xasprintf("%s smpi/async-small-thresh:%.0f smpi/send-is-detached-thresh:%.0f", s,
                        switch_size, switch_size);
    free(s);
    s = t;
  }
  free(bw);
  free(lat);
  return s;
}

/* (no double hyphen here: the text also goes into an XML comment) */
static void link_comment(FILE *out, const fit_link *l, const char *prefix)
{
  double rate = fit_link_rate(l);
  fprintf(out,
          "%sThe factors are relative to a route of total latency %.10g s and bottleneck\n"
          "%sbandwidth %.10g B/s (options link-lat, link-bw), i.e. a lone flow's rate of "
          "%.10g B/s\n%s(network/TCP-gamma %.10g B bounds it by gamma / (2 x latency)). "
          "On another route they\n%sscale accordingly: keep these link values for "
          "the hosts you calibrated.\n",
          prefix, l->lat, prefix, l->bw, rate, prefix, l->tcp_gamma, prefix);
}

void emit_cfg_file(FILE *out, const fit_model *m, const fit_link *l, double switch_size,
                   const char *provenance)
{
  fprintf(out, "# smpi-calibrate: simulator settings for the fitted piecewise model\n");
  fprintf(out, "# %s\n", provenance);
  link_comment(out, l, "# ");
  fprintf(out, "# Use: smpirun $(grep -v '^#' THIS_FILE) ...  (typed by hand, quote each "
               "--cfg: the values hold ';')\n");
  fprintf(out, "# Segments (one-way time = lat + (size + 16 B) / bw; thresholds are on the "
               "payload size + 16):\n");
  for (size_t i = 0; i < m->nseg; i++) {
    const fit_segment *g = &m->seg[i];
    fprintf(out,
            "#   sizes >= %-9.0f lat %.6g us, bw %.6g B/s -> threshold %.0f: lat-factor "
            "%.6g, bw-factor %.6g\n",
            g->start, g->lat, g->inv_bw > FIT_MIN_INV_BW ? 1e6 / g->inv_bw : INFINITY,
            fit_factor_threshold(g), fit_lat_factor(g, l), fit_bw_factor(g, l));
  }
  if (switch_size > 0)
    fprintf(out, "# Eager/rendezvous switch detected: messages under %.0f B are sent eagerly.\n",
            switch_size);
  else
    fprintf(out, "# No eager/rendezvous switch detected: the protocol thresholds keep their "
                 "defaults.\n");
  char *s = emit_settings(m, l, switch_size);
  for (char *save = NULL, *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save))
    fprintf(out, "--cfg=%s\n", t);
  free(s);
}

void emit_platform(FILE *out, const fit_model *m, const fit_link *l, double switch_size,
                   const char *provenance)
{
  fprintf(out, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
               "\"https://simgrid.org/simgrid.dtd\">\n");
  fprintf(out, "<!-- smpi-calibrate: two hosts and the route the calibrated factors assume.\n"
               "     ");
  /* an XML comment may not hold "--" (file names might) */
  for (const char *c = provenance; *c; c++) {
    fputc(*c, out);
    if (*c == '-' && (c[1] == '-' || c[1] == '\0'))
      fputc(' ', out);
  }
  fputc('\n', out);
  link_comment(out, l, "     ");
  fprintf(out, "     The link is SPLITDUPLEX (each direction its own capacity) so that a\n"
               "     message's cross-traffic share on the reverse direction cannot slow it.\n"
               "     In a <cluster>, a route crosses two private links (and the backbone, if\n"
               "     any): give them latencies summing to the value above and bandwidths no\n"
               "     smaller than it. Host speeds do not matter to a ping-pong. -->\n");
  fprintf(out, "<platform version=\"4.1\">\n  <config id=\"smpi-calibrate\">\n");
  char *s = emit_settings(m, l, switch_size);
  for (char *save = NULL, *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    char *colon = strchr(t, ':');
    ASSERT(colon);
    fprintf(out, "    <prop id=\"%.*s\" value=\"%s\"/>\n", (int)(colon - t), t, colon + 1);
  }
  free(s);
  fprintf(out,
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
}

void emit_samples_header(FILE *out, const fit_link *l, size_t nsamples, unsigned long long seed,
                         const char *provenance)
{
  fprintf(out, "# smpi-calibrate samples v1: %zu parameter sets drawn by bootstrap (seed %llu)\n",
          nsamples, seed);
  fprintf(out, "# %s\n", provenance);
  link_comment(out, l, "# ");
  fprintf(out, "# Each non-comment line is one complete set of settings, \"key:value\" separated "
               "by spaces\n# (the syntax of one --cfg= string each). Running the simulator once "
               "per line gives a\n# prediction interval for a program's run time. By hand:\n"
               "#   sed -n '/^[^#]/p' FILE | while read -r l; do smpirun $(printf -- "
               "\"--cfg=%%s \" $l) ...; done\n");
}
