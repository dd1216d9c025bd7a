/* Network model (CM02 family and Constant); see network.h for the timing rules.
 *
 * Worked example (platform pair.xml: one SHARED link 1 Gbps = 1.25e8 B/s, 50 us; SMPI
 * model, default factors, cross-traffic on), 1 MiB from A to B:
 *
 *   lat      = 50e-6 s, lat_factor(1048576) = 11.6436    -> latency phase 5.8218e-4 s
 *   elements = {link: 1 (route) + 0.05 (reverse route)}  -> share = 1.25e8 / 1.05
 *   bound    = 4194304 / (2 x 50e-6) = 4.19e10 (not reached)
 *   speed    = 1.25e8 / 1.05 x bw_factor(1048576) = 1.19048e8 x 0.940694 = 1.11987e8 B/s
 *   date     = 5.8218e-4 + 1048576 / 1.11987e8 = 0.0099455 s (SimGrid: 0.00994552068)
 *
 * On-node vs network traffic. Ranks live on hosts; a message between two hosts follows
 * the route between them, so every rank of a host shares that host's links: in a
 * <cluster>, its private link (or the _UP/_DOWN pair of a SPLITDUPLEX one) and, when
 * limiter_link is set, the <id>_link_<n>_limiter link that caps the host's total traffic;
 * in a Full zone, whatever links the declared routes name. A message between two ranks of
 * the same host takes routing's loopback route: the cluster's <id>_link_<n>_loopback when
 * loopback_bw is set, otherwise the model-level loopback (network/loopback-bw,
 * network/loopback-lat, FATPIPE: concurrent on-node copies are each capped at loopback-bw
 * but do not slow each other down). There is no other memory-bandwidth model.
 *
 * Element merging: the forward and reverse routes of one flow may share links (a cluster
 * backbone, a SHARED host link, the loopback). Each link gets one element whose coefficient
 * is the sum (SHARED) or the max (FATPIPE) of its uses, in first-use order. A per-link stamp
 * finds repeats in O(route length). */
#include "kernel/network.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/act_class.h"
#include "kernel/act_exact.h"
#include "kernel/factors.h"
#include "kernel/route_cache.h"
#include "kernel/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(network, kernel, "network model (messages on links)");
LOG_DEFAULT_CATEGORY(network);

/* maxmin/class-sharing:yes: a class forms from this many flows on one bottleneck (fewer are
 * cheap enough on the general path, which keeps today's bits) */
#define NET_CLASS_MIN_FLOWS 32
/* below this, a class saves less than its forming costs */
#define NET_EXACT_MIN_FLOWS 32

/* SimGrid 3.32's defaults for the SMPI model (smpirun), from its --help. */
/* the SMPI model's weight-S: network/weight-S's default and the SMPI row of net_models */
#define NET_SMPI_WEIGHT_S 8775.0
#define DEFAULT_SMPI_BW_FACTOR                                                          \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;" \
  "732:0.341987;257:0.338112;0:0.812084"
#define DEFAULT_SMPI_LAT_FACTOR                                                      \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;" \
  "732:1.9503;257:1.95341;0:2.01467"

void net_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING(
          "network/model", "SMPI", "SMPI|IB|CM02|LV08|Constant",
          "Network model. SMPI (default here, what smpirun uses): piecewise "
          "smpi/bw-factor and smpi/lat-factor, weight-S 8775. IB: SMPI plus InfiniBand "
          "contention penalties (smpi/IB-penalty-factors). LV08 (SimGrid's default "
          "outside smpirun): bandwidth x0.97, latency x13.01, weight-S 20537. CM02: no "
          "correction, weight-S 0. Constant: every message takes "
          "network/latency-factor seconds (13.01 unless set), whatever its size"),
      CFG_KEY_DOUBLE("network/TCP-gamma", 4194304.0,
                     "Size of the biggest TCP window (bytes): a flow's rate is at most "
                     "TCP-gamma / (2 x route latency); 0 disables the bound"),
      CFG_KEY_DOUBLE("network/weight-S", NET_SMPI_WEIGHT_S,
                     "Sharing weight of competing flows (bytes): a flow's penalty is route "
                     "latency + sum of weight-S / link bandwidth. Unless set, the model's "
                     "value: SMPI 8775, LV08 20537, CM02 0"),
      CFG_KEY_BOOL("network/crosstraffic", true,
                   "Each flow also loads the reverse route with 5% of its rate (TCP acks)"),
      CFG_KEY_DOUBLE("network/bandwidth-factor", 1.0,
                     "Correction factor of the bandwidth for CM02 and LV08 (unless set, the "
                     "model's value: CM02 1, LV08 0.97). Ignored by SMPI (see smpi/bw-factor)"),
      CFG_KEY_DOUBLE("network/latency-factor", 1.0,
                     "Correction factor of the latency for CM02 and LV08 (unless set, the "
                     "model's value: CM02 1, LV08 13.01), and the duration of every message "
                     "in seconds for Constant (13.01 unless set). Ignored by SMPI (see "
                     "smpi/lat-factor)"),
      /* SimGrid's solver modes, accepted so that users' command lines carry over. Our solver
       * always gives the exact max-min allocation (what SimGrid calls Full), recomputing only
       * the region a change touches; SimGrid's default Lazy update can differ from it
       * (tools/simgrid-ref/README.md: four flows leaving latency at one date overload a link). */
      CFG_KEY_STRING("network/optim", "Lazy", "Lazy|Full|TI",
                     "Accepted for compatibility with SimGrid; no effect: smpi always computes "
                     "the exact max-min sharing (SimGrid's Full answer), incrementally"),
      CFG_KEY_BOOL("network/maxmin-selective-update", true,
                   "Accepted for compatibility with SimGrid; no effect (smpi's solver always "
                   "updates only the constraints a change reaches)"),
      CFG_KEY_STRING("smpi/bw-factor", DEFAULT_SMPI_BW_FACTOR, NULL,
                     "Bandwidth factors of the SMPI network model, "
                     "'threshold:value;...': a message of s bytes uses the value of the largest "
                     "threshold strictly below s (1 if none)"),
      CFG_KEY_STRING("smpi/IB-penalty-factors", "0.965;0.925;1.35", NULL,
                     "Penalties of network/model:IB, 'betae;betas;gammar': a flow's rate bound "
                     "is divided by max(ps, pe), ps = out-degree of its source x betas (x "
                     "gammar when that node also receives 3 or more flows), pe = distinct "
                     "sources of its destination x betae x flows from its source there"),
      CFG_KEY_STRING("smpi/lat-factor", DEFAULT_SMPI_LAT_FACTOR, NULL,
                     "Latency factors of the SMPI network model, 'threshold:value;...', same "
                     "lookup rule as smpi/bw-factor"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

/* Each model's values where the user set none: the only place they are written (the keys'
 * descriptions quote them). The SMPI model's weight-S is also network/weight-S's declared
 * default (NET_SMPI_WEIGHT_S, above), which is what --cfg=help shows. */
static const struct net_model_params {
  const char *name;
  net_model_kind kind;
  double weight_s, bw_factor, lat_factor;
} net_models[] = {
    {"SMPI", NET_MODEL_SMPI, NET_SMPI_WEIGHT_S, 1, 1},
    {"IB", NET_MODEL_SMPI, NET_SMPI_WEIGHT_S, 1, 1}, /* + penalties (ib_* below) */
    {"CM02", NET_MODEL_CM02, 0, 1, 1},
    {"LV08", NET_MODEL_LV08, 20537, 0.97, 13.01},
    {"Constant", NET_MODEL_CONSTANT, 0, 1, 13.01},
};

static const struct net_model_params *find_model(const char *name)
{
  for (size_t i = 0; i < sizeof net_models / sizeof net_models[0]; i++)
    if (strcmp(name, net_models[i].name) == 0)
      return &net_models[i];
  return NULL;
}

/* A double key that must lie in [min, +inf) (or (min, +inf) when strict). */
static int read_double(const char *key, double def, double min, bool strict, double *out,
                       char *err, size_t errlen)
{
  double v = cfg_is_default(key) ? def : cfg_get_double(key);
  if (!isfinite(v) || v < min || (strict && v == min)) {
    snprintf(err, errlen, "invalid value %g for '%s' (a finite number %s %g is expected)", v, key,
             strict ? ">" : ">=", min);
    return -1;
  }
  *out = v;
  return 0;
}

static int route_compute(size_t src, size_t dst, rc_entry *e, char *err, size_t errlen);

/* ---- network/model:IB ----
 *
 * SimGrid's InfiniBand model (its documentation of smpi/IB-penalty-factors, after J.-F.
 * Vienne's thesis): the SMPI model, plus a penalty p per flow from s to e, recomputed
 * whenever a flow starts or ends at one of its ends:
 *
 *   ps = 1 if out(s) = 1; out(s) x betas x gammar if out(s) >= 2 and in(s) >= 3;
 *        else out(s) x betas
 *   pe = 1 if in(e) = 1; else srcs(e) x betae x flows(s, e)
 *   p  = max(ps, pe);  the flow's rate bound (TCP-gamma / 2 lat) becomes bound / p
 *
 * out/in count the flows under way (latency phase included) leaving / reaching a host,
 * srcs(e) the distinct hosts sending to e. Example, betas = 0.925: one host sending 1 MB
 * to three others at once has out = 3, so each flow's bound is divided by 2.775 (measured
 * on SimGrid 3.32: tests/simgrid_compat ib_* cases). A flow without a bound is not
 * slowed, as in SimGrid. */
typedef struct net_ib_flow {
  act_action *a;
  double bound; /* the flow's own bound, < 0: none */
} net_ib_flow;

static int ib_parse(const char *s, double out[3], char *err, size_t errlen)
{
  char *end;
  const char *p = s;
  for (int i = 0; i < 3; i++) {
    out[i] = strtod(p, &end);
    if (end == p || !(out[i] > 0) || !isfinite(out[i]) || (i < 2 ? *end != ';' : *end != 0)) {
      snprintf(err, errlen,
               "invalid value '%s' for 'smpi/IB-penalty-factors': three positive numbers "
               "'betae;betas;gammar' (e.g. 0.965;0.925;1.35)",
               s);
      return -1;
    }
    p = end + 1;
  }
  return 0;
}

static void ib_apply(net_ib_flow *f)
{
  if (f->bound < 0)
    return;
  size_t s = f->a->src, e = f->a->dst;
  size_t out_s = 0, in_s = 0, in_e = 0, se = 0, srcs_e = 0;
  for (size_t i = 0; i < kworld.net.ib_n; i++) {
    const act_action *b = kworld.net.ib_flows[i].a;
    out_s += b->src == s;
    in_s += b->dst == s;
    in_e += b->dst == e;
    se += b->src == s && b->dst == e;
    if (b->dst == e) { /* a source counted once: at its first flow to e */
      size_t j = 0;
      while (j < i &&
             !(kworld.net.ib_flows[j].a->dst == e && kworld.net.ib_flows[j].a->src == b->src))
        j++;
      srcs_e += j == i;
    }
  }
  double ps = out_s <= 1  ? 1.0
              : in_s >= 3 ? (double)out_s * kworld.net.ib_bs * kworld.net.ib_gr
                          : (double)out_s * kworld.net.ib_bs;
  double pe = in_e <= 1 ? 1.0 : (double)srcs_e * kworld.net.ib_be * (double)se;
  double p = ps > pe ? ps : pe;
  lmm_variable_set_bound(kworld.net.model.sys, f->a->var, f->bound / p);
  kworld.net.model.dirty = true;
}

/* The flows with an end at host a or b get their penalty again. */
static void ib_update(size_t a, size_t b)
{
  for (size_t i = 0; i < kworld.net.ib_n; i++) {
    const act_action *f = kworld.net.ib_flows[i].a;
    if (f->src == a || f->dst == a || f->src == b || f->dst == b)
      ib_apply(&kworld.net.ib_flows[i]);
  }
}

static void ib_flow_start(act_action *a, double bound)
{
  if (kworld.net.ib_n == kworld.net.ib_cap) {
    kworld.net.ib_cap = kworld.net.ib_cap ? 2 * kworld.net.ib_cap : 16;
    kworld.net.ib_flows = xrealloc(kworld.net.ib_flows,
                                   kworld.net.ib_cap * sizeof *kworld.net.ib_flows);
  }
  kworld.net.ib_flows[kworld.net.ib_n++] = (net_ib_flow){a, bound};
  ib_update(a->src, a->dst);
}

static void ib_flow_end(act_action *a)
{
  for (size_t i = 0; i < kworld.net.ib_n; i++)
    if (kworld.net.ib_flows[i].a == a) {
      memmove(&kworld.net.ib_flows[i], &kworld.net.ib_flows[i + 1],
              (kworld.net.ib_n - i - 1) * sizeof *kworld.net.ib_flows);
      kworld.net.ib_n--;
      ib_update(a->src, a->dst);
      return;
    }
}

int net_model_init(const route_table *rt, char *err, size_t errlen)
{
  ASSERTF(!kworld.net.initialized, "net_model_init called twice without net_model_shutdown");
  ASSERTF(eng_initialized(), "net_model_init before eng_init");
  net_declare_config();

  const char *name = cfg_get_string("network/model");
  /* SimGrid's host/model:default, when set explicitly, is Cas01 + LV08 whatever network/model
   * says (checked: a platform's <config> with it gives LV08's times under smpirun) */
  if (cfg_is_declared("host/model") && cfg_get_origin("host/model") != CFG_ORIGIN_DEFAULT &&
      !strcmp(cfg_get_string("host/model"), "default"))
    name = "LV08";
  const struct net_model_params *model = find_model(name);
  if (!model) {
    snprintf(err, errlen,
             "invalid value '%s' for 'network/model' (one of: SMPI, IB, CM02, LV08, "
             "Constant)",
             name);
    return -1;
  }
  net_model_kind kind = model->kind;
  lmm_declare_config();
  if (!strcmp(cfg_get_string("maxmin/solver"), "glpk") && lmm_glpk_load(err, errlen) != 0)
    return -1; /* GLPK is loaded on demand (lmm_glpk.c): say so now, not at the first solve */
  double weight_s, gamma, bwc, latc;
  if (read_double("network/weight-S", model->weight_s, 0, false, &weight_s, err, errlen) != 0 ||
      read_double("network/TCP-gamma", cfg_get_double("network/TCP-gamma"), 0, false, &gamma, err,
                  errlen) != 0 ||
      read_double("network/bandwidth-factor", model->bw_factor, 0, true, &bwc, err, errlen) !=
          0 ||
      read_double("network/latency-factor", model->lat_factor, 0, false, &latc, err, errlen) != 0)
    return -1;

  fac_func bwf = {0}, latf = {0};
  if (kind == NET_MODEL_SMPI) {
    if (fac_parse_factor("smpi/bw-factor", cfg_get_string("smpi/bw-factor"), FAC_POSITIVE, &bwf,
                         err, errlen) != 0)
      return -1;
    if (fac_parse_factor("smpi/lat-factor", cfg_get_string("smpi/lat-factor"), FAC_NONNEGATIVE,
                         &latf, err, errlen) != 0) {
      fac_free(&bwf);
      return -1;
    }
  }

  double ibf[3] = {0};
  if (!strcmp(model->name, "IB") &&
      ib_parse(cfg_get_string("smpi/IB-penalty-factors"), ibf, err, errlen) != 0) {
    fac_free(&bwf);
    fac_free(&latf);
    return -1;
  }

  memset(&kworld.net, 0, sizeof kworld.net);
  kworld.net.ib = !strcmp(model->name, "IB");
  kworld.net.ib_be = ibf[0];
  kworld.net.ib_bs = ibf[1];
  kworld.net.ib_gr = ibf[2];
  kworld.net.rt = rt;
  kworld.net.kind = kind;
  kworld.net.piecewise = kind == NET_MODEL_SMPI;
  kworld.net.bw_factor = bwf;
  kworld.net.lat_factor = latf;
  kworld.net.bw_const = kind == NET_MODEL_CONSTANT ? 1.0 : bwc;
  kworld.net.lat_const = kind == NET_MODEL_CONSTANT ? 1.0 : latc;
  kworld.net.constant_delay = latc;
  kworld.net.weight_s = weight_s;
  kworld.net.tcp_gamma = gamma;
  kworld.net.crosstraffic = cfg_get_bool("network/crosstraffic");
  kworld.net.fac_bytes = -1;
  route_cache_init(&kworld.net.rc, route_host_count(rt), weight_s, kworld.net.crosstraffic,
                   route_compute);
  kworld.net.nlinks = route_link_count(rt);
  /* the pages of links no flow crosses are never touched (12 289 links on a 4 096-host fat
   * tree: 480 KiB) */
  kworld.net.links = xcalloc_lazy(kworld.net.nlinks, sizeof *kworld.net.links);
  route_path_init(&kworld.net.fwd);
  route_path_init(&kworld.net.back);
  act_model_init(&kworld.net.model, "network", eng_work_precision());
  if (kworld.net.ib)
    kworld.net.model.on_end = ib_flow_end;
  /* classes need penalties and bounds that stay as the flow started (not under IB's), and
   * the saturation flags of the incremental solver (not GLPK's from-scratch solves) */
  else if (kind != NET_MODEL_CONSTANT && cfg_get_bool("maxmin/class-sharing") &&
           strcmp(cfg_get_string("maxmin/solver"), "glpk") != 0)
    act_classes_enable(&kworld.net.model, NET_CLASS_MIN_FLOWS);
  else if (kind != NET_MODEL_CONSTANT && cfg_get_bool("maxmin/exact-class") &&
           strcmp(cfg_get_string("maxmin/solver"), "glpk") != 0)
    act_exact_enable(&kworld.net.model, NET_EXACT_MIN_FLOWS);
  kworld.net.initialized = true;
  LOG_VERB("network model %s: weight-S %g, TCP-gamma %g, crosstraffic %d", name, weight_s, gamma,
           kworld.net.crosstraffic);
  return 0;
}

void net_model_shutdown(void)
{
  if (!kworld.net.initialized)
    return;
  act_model_destroy(&kworld.net.model);
  fac_free(&kworld.net.bw_factor);
  fac_free(&kworld.net.lat_factor);
  route_path_free(&kworld.net.fwd);
  route_path_free(&kworld.net.back);
  xfree_lazy(kworld.net.links, kworld.net.nlinks, sizeof *kworld.net.links);
  free(kworld.net.host_down);
  free(kworld.net.ib_flows);
  free(kworld.net.el_link);
  free(kworld.net.el_coef);
  route_cache_free(&kworld.net.rc);
  memset(&kworld.net, 0, sizeof kworld.net);
}

bool net_model_initialized(void) { return kworld.net.initialized; }
net_model_kind net_model_get_kind(void) { return kworld.net.kind; }
act_model *net_act_model(void) { return &kworld.net.model; }
size_t net_constraint_count(void) { return kworld.net.nconstraints; }

void net_route_cache_stats(size_t *computed, size_t *mirrored)
{
  *computed = kworld.net.rc.computed;
  *mirrored = kworld.net.rc.mirrored;
}

double net_bw_factor(double bytes)
{
  ASSERT(kworld.net.initialized);
  return kworld.net.piecewise ? fac_factor(&kworld.net.bw_factor, bytes) : kworld.net.bw_const;
}

double net_lat_factor(double bytes)
{
  ASSERT(kworld.net.initialized);
  return kworld.net.piecewise ? fac_factor(&kworld.net.lat_factor, bytes) : kworld.net.lat_const;
}

static lmm_constraint *link_constraint(uint32_t id)
{
  ASSERTF(id < kworld.net.nlinks, "link id %u out of range (%zu links)", id, kworld.net.nlinks);
  net_link *l = &kworld.net.links[id];
  if (!l->cnst) {
    double bw, lat;
    lmm_sharing sharing;
    route_link_info(kworld.net.rt, id, &bw, &lat, &sharing);
    if (l->bandwidth > 0)
      bw = l->bandwidth;
    ASSERTF(bw > 0 && isfinite(bw), "link %u: bandwidth %g", id, bw);
    l->cnst = lmm_constraint_new(kworld.net.model.sys, (void *)(uintptr_t)(id + 1), bw, sharing);
    kworld.net.nconstraints++;
  }
  return l->cnst;
}

/* Adds coef of link id to the flow being built (kworld.net.el_*, *n elements so far). */
static void add_use(uint32_t id, double coef, size_t *n)
{
  lmm_constraint *c = link_constraint(id);
  net_link *l = &kworld.net.links[id];
  if (l->stamp == kworld.net.stamp) {
    double *e = &kworld.net.el_coef[l->pos];
    if (lmm_constraint_sharing(c) == LMM_FATPIPE)
      *e = coef > *e ? coef : *e;
    else
      *e += coef;
    return;
  }
  if (*n == kworld.net.el_cap) {
    kworld.net.el_cap = kworld.net.el_cap ? 2 * kworld.net.el_cap : 16;
    kworld.net.el_link = xrealloc(kworld.net.el_link,
                                  kworld.net.el_cap * sizeof *kworld.net.el_link);
    kworld.net.el_coef = xrealloc(kworld.net.el_coef,
                                  kworld.net.el_cap * sizeof *kworld.net.el_coef);
  }
  l->stamp = kworld.net.stamp;
  l->pos = (uint32_t)*n;
  kworld.net.el_link[*n] = id;
  kworld.net.el_coef[*n] = coef;
  (*n)++;
}

static void next_stamp(void)
{
  if (++kworld.net.stamp == 0) { /* wrapped: forget every old stamp so none looks current */
    for (size_t i = 0; i < kworld.net.nlinks; i++)
      kworld.net.links[i].stamp = 0;
    kworld.net.stamp = 1;
  }
}

/* The route cache's fill function: looks the route src -> dst up (and dst -> src with
 * cross-traffic) and fills *e with the merged elements; e->n may exceed RC_ELEMS, in which
 * case only kworld.net.el_* hold them all. Returns -1 with a message in err when a route is
 * missing. */
static int route_compute(size_t src, size_t dst, rc_entry *e, char *err, size_t errlen)
{
  kworld.net.fwd.count = 0;
  kworld.net.fwd.latency = 0;
  if (route_get(kworld.net.rt, src, dst, &kworld.net.fwd, err, errlen) != 0)
    return -1;
  kworld.net.back.count = 0;
  kworld.net.back.latency = 0;
  if (kworld.net.crosstraffic &&
      route_get(kworld.net.rt, dst, src, &kworld.net.back, err, errlen) != 0)
    return -1; /* err says "no route from 'b' to 'a'": the reverse one, for cross-traffic */

  if (kworld.net.lat_profiled) { /* latency profiles: the links' current latencies */
    for (size_t i = 0; i < kworld.net.fwd.count; i++)
      kworld.net.fwd.latency += kworld.net.links[kworld.net.fwd.links[i]].lat_delta;
    for (size_t i = 0; i < kworld.net.back.count; i++)
      kworld.net.back.latency += kworld.net.links[kworld.net.back.links[i]].lat_delta;
  }
  /* elements, merged per link (see the top of this file) */
  next_stamp();
  size_t n = 0;
  for (size_t i = 0; i < kworld.net.fwd.count; i++)
    add_use(kworld.net.fwd.links[i], 1.0, &n);
  for (size_t i = 0; i < kworld.net.back.count; i++)
    add_use(kworld.net.back.links[i], RC_CROSS_TRAFFIC_COEF, &n);

  double penalty = kworld.net.fwd.latency;
  for (size_t i = 0; i < kworld.net.fwd.count; i++)
    penalty = route_cache_penalty_add(kworld.net.weight_s, penalty,
                                      kworld.net.links[kworld.net.fwd.links[i]].cnst);
  ASSERTF(kworld.net.fwd.count < RC_MERGED && kworld.net.back.count < RC_MERGED,
          "routes of %zu and %zu links", kworld.net.fwd.count, kworld.net.back.count);
  e->nfwd = (uint16_t)kworld.net.fwd.count;
  e->n = (uint16_t)n;
  e->nback = n == kworld.net.fwd.count + kworld.net.back.count ? (uint16_t)kworld.net.back.count
                                                               : RC_MERGED;
  e->lat = kworld.net.fwd.latency;
  e->back_lat = kworld.net.back.latency;
  e->penalty = penalty;
  for (size_t i = 0; i < n && i < RC_ELEMS; i++) {
    e->el[i].cnst = kworld.net.links[kworld.net.el_link[i]].cnst;
    e->el[i].coef = kworld.net.el_coef[i];
  }
  return 0;
}

act_action *net_comm_start(size_t src, size_t dst, double bytes, act_finish_fn fn, void *data,
                           char *err, size_t errlen)
{
  ASSERTF(kworld.net.initialized, "network model not initialized");
  ASSERTF(bytes >= 0 && isfinite(bytes), "bad message size %g", bytes);
  size_t nhosts = route_host_count(kworld.net.rt);
  ASSERTF(src < nhosts && dst < nhosts, "host index out of range (%zu -> %zu, %zu hosts)", src,
          dst, nhosts);

  if (kworld.net.kind == NET_MODEL_CONSTANT)
    return act_action_new(&kworld.net.model, 0.0, kworld.net.constant_delay, 1.0, -1.0, 0, fn,
                          data);

  const rc_entry *e = route_cache_get(&kworld.net.rc, src, dst, err, errlen);
  if (!e)
    return NULL;
  if (bytes != kworld.net.fac_bytes) {
    kworld.net.fac_lat = net_lat_factor(bytes);
    kworld.net.fac_bw = net_bw_factor(bytes);
    kworld.net.fac_bytes = bytes;
  }
  double lat = e->lat;
  double latency = lat * kworld.net.fac_lat;
  double bwf = kworld.net.fac_bw;
  /* without a latency phase SimGrid creates the flow with penalty 1, and keeps it */
  double penalty = latency > 0 ? e->penalty : 1.0;
  double bound = lat > 0 && kworld.net.tcp_gamma > 0 ? kworld.net.tcp_gamma / (2.0 * lat) : -1.0;
  /* a route without links (only latency): the message ends when the latency is paid */
  double work = e->nfwd ? bytes : 0.0;

  act_action *a = act_action_new(&kworld.net.model, work, latency, penalty, bound, e->n, fn,
                                 data);
  act_action_set_rate_factor(a, bwf);
  a->src = (uint32_t)src;
  a->dst = (uint32_t)dst;
  if (kworld.net.ib && src != dst)
    ib_flow_start(a, bound);
  if (e->n <= RC_ELEMS)
    for (size_t i = 0; i < e->n; i++)
      lmm_expand(kworld.net.model.sys, e->el[i].cnst, a->var, e->el[i].coef);
  else
    for (size_t i = 0; i < e->n; i++)
      lmm_expand(kworld.net.model.sys, kworld.net.links[kworld.net.el_link[i]].cnst, a->var,
                 kworld.net.el_coef[i]);
  LOG_DEBUG("comm %p: %zu -> %zu, %.17g B, %u links, latency %.17g, penalty %.17g, bound %g, "
            "bw factor %g",
            (void *)a, src, dst, bytes, e->nfwd, latency, penalty, bound, bwf);
  return a;
}

void net_link_set_bandwidth(uint32_t link, double bandwidth)
{
  ASSERTF(kworld.net.initialized && link < kworld.net.nlinks, "bad link %u", link);
  ASSERTF(bandwidth > 0 && isfinite(bandwidth), "link %u: bandwidth %g", link, bandwidth);
  net_link *l = &kworld.net.links[link];
  l->bandwidth = bandwidth;
  if (l->cnst) {
    /* Flows keep the sharing penalty of their start (weight-S / bandwidth of then), and the
     * route cache the penalty of its first message: exact for lone flows and while no
     * profile changes a link of competing flows */
    act_classes_capacity_changed(&kworld.net.model, l->cnst);
    lmm_constraint_set_capacity(kworld.net.model.sys, l->cnst, bandwidth);
    kworld.net.model.dirty = true;
  }
}

double net_link_load(uint32_t link)
{
  ASSERTF(kworld.net.initialized && link < kworld.net.nlinks, "bad link %u", link);
  const net_link *l = &kworld.net.links[link];
  if (!l->cnst)
    return 0;
  double cap = lmm_constraint_capacity(l->cnst);
  double load = lmm_constraint_load(l->cnst) + act_classes_load(&kworld.net.model, l->cnst);
  return cap > 0 ? load / cap : 0;
}

void net_link_set_latency(uint32_t link, double latency)
{
  ASSERTF(kworld.net.initialized && link < kworld.net.nlinks, "bad link %u", link);
  ASSERTF(latency >= 0 && isfinite(latency), "link %u: latency %g", link, latency);
  double bw, lat;
  lmm_sharing sharing;
  route_link_info(kworld.net.rt, link, &bw, &lat, &sharing);
  kworld.net.links[link].lat_delta = latency - lat;
  kworld.net.lat_profiled = true;
  /* messages from now on see the new latency: the cached routes are recomputed (flows under
   * way keep theirs; SimGrid also updates their sharing penalty and TCP-gamma bound) */
  route_cache_free(&kworld.net.rc);
  route_cache_init(&kworld.net.rc, route_host_count(kworld.net.rt), kworld.net.weight_s,
                   kworld.net.crosstraffic, route_compute);
}

/* ---- state profiles ---- */

/* Fails the running flows that pred selects. They are collected first: failing one calls
 * its owner, which may start or end others. */
static void fail_flows(bool (*pred)(const act_action *a, size_t arg), size_t arg)
{
  lmm_system *sys = kworld.net.model.sys;
  size_t n = lmm_variable_count(sys), k = 0;
  act_action **doomed = xcalloc(n ? n : 1, sizeof *doomed);
  for (size_t i = 0; i < n; i++) {
    act_action *a = lmm_variable_id(lmm_variable_at(sys, i));
    if (a && a->state == ACT_RUNNING && pred(a, arg))
      doomed[k++] = a;
  }
  for (size_t i = 0; i < k; i++)
    act_action_cancel(doomed[i], ACT_FAILED);
  if (k)
    kworld.net.model.dirty = true;
  free(doomed);
}

static bool touches_host(const act_action *a, size_t host)
{
  return a->src == host || a->dst == host;
}

static bool crosses_link(const act_action *a, size_t link)
{
  for (size_t i = 0; i < lmm_variable_element_count(a->var); i++) {
    lmm_constraint *c = lmm_variable_constraint(a->var, i, NULL);
    if ((uintptr_t)lmm_constraint_id(c) == link + 1)
      return true;
  }
  return false;
}

void net_host_set_up(size_t host, bool up)
{
  size_t nhosts = route_host_count(kworld.net.rt);
  ASSERTF(kworld.net.initialized && host < nhosts, "bad host %zu", host);
  if (!kworld.net.host_down)
    kworld.net.host_down = xcalloc(nhosts, sizeof *kworld.net.host_down);
  kworld.net.host_down[host] = !up;
  if (up)
    return;
  kworld.net.failures = true;
  char name[256];
  route_host_name(kworld.net.rt, host, name, sizeof name);
  snprintf(kworld.net.failure, sizeof kworld.net.failure, "host '%s' went down", name);
  fail_flows(touches_host, host);
}

void net_link_set_up(uint32_t link, bool up)
{
  ASSERTF(kworld.net.initialized && link < kworld.net.nlinks, "bad link %u", link);
  kworld.net.links[link].down = !up;
  if (up)
    return;
  kworld.net.failures = true;
  char name[256];
  route_link_name(kworld.net.rt, link, name, sizeof name);
  snprintf(kworld.net.failure, sizeof kworld.net.failure, "link '%s' went down", name);
  fail_flows(crosses_link, link);
}

bool net_host_is_up(size_t host) { return !kworld.net.host_down || !kworld.net.host_down[host]; }

bool net_path_down(size_t src, size_t dst, char *why, size_t len)
{
  if (!kworld.net.failures)
    return false;
  if (!why) { /* the caller only asks */
    static char scratch[8];
    why = scratch;
    len = sizeof scratch;
  }
  char name[256];
  for (int i = 0; i < 2; i++) {
    size_t h = i ? dst : src;
    if (!net_host_is_up(h)) {
      route_host_name(kworld.net.rt, h, name, sizeof name);
      snprintf(why, len, "host '%s' is down", name);
      return true;
    }
  }
  route_path p;
  route_path_init(&p);
  char err[256];
  bool down = false;
  if (route_get(kworld.net.rt, src, dst, &p, err, sizeof err) == 0)
    for (size_t i = 0; i < p.count && !down; i++)
      if (kworld.net.links[p.links[i]].down) {
        route_link_name(kworld.net.rt, p.links[i], name, sizeof name);
        snprintf(why, len, "link '%s' is down", name);
        down = true;
      }
  route_path_free(&p);
  return down;
}

const char *net_failure(void) { return kworld.net.failure; }

void net_link_foreach_use(uint32_t link, void (*fn)(uint16_t tag, double used, void *arg),
                          void *arg)
{
  ASSERTF(kworld.net.initialized && link < kworld.net.nlinks, "bad link %u", link);
  lmm_constraint *c = kworld.net.links[link].cnst;
  if (c)
    act_constraint_foreach_use(c, fn, arg);
}
