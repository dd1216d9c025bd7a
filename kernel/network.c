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

#include "kernel/factors.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(network, kernel, "network model (messages on links)");
LOG_DEFAULT_CATEGORY(network);

/* SimGrid 3.32's defaults for the SMPI model (smpirun), from its --help. */
#define DEFAULT_SMPI_BW_FACTOR                                                              \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;" \
  "732:0.341987;257:0.338112;0:0.812084"
#define DEFAULT_SMPI_LAT_FACTOR                                                             \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"    \
  "732:1.9503;257:1.95341;0:2.01467"

#define CROSS_TRAFFIC_COEF 0.05

/* Route cache: what a message between two hosts needs from the routing, computed once per
 * (src, dst) pair and reused while the pair stays cached. A token ring or a collective
 * repeats the same pairs over and over; looking a route up (zones, cluster arithmetic, the
 * reverse route for cross-traffic) and merging the elements cost about 1 000 instructions
 * per message, a hit about 50. What is cached depends only on the platform (routes, link
 * capacities, which never change during a run) and on the configuration read at init, so a
 * hit gives bit-identical elements and penalty. Routes with more merged elements than fit
 * an entry are simply not cached.
 *
 * Layout: one set per source host (hosts beyond NET_RC_MAX_SETS share sets), NET_RC_WAYS
 * ways. The keys of a set fill one cache line, so a lookup reads one line of keys and then
 * the entry it finds; each way's entries are an array of their own:
 *
 *   keys:  [src 0: 0->1 0->15 0->240 0->16 ...] [src 1: 1->2 ...] ...
 *   way0:  [src 0: 0->1 ] [src 1: 1->2] [src 2: 2->3] ...
 *   way1:  [src 0: 0->15] [          ] [          ] ...
 *
 * A rank talks to few peers at a time: one in rings and shifts, four in a 2-D stencil, six
 * in a 3-D one, a few in trees; with two ways a 2-D stencil missed on every message (each
 * of its four peers came back after the other three), ~900 instructions each on a fat
 * tree. A miss takes the set's ways in turn (round robin), so they fill in order before any
 * is replaced, and a ring's entries fill way0 only: fewer pages to fault in (the arrays are
 * calloc'ed and touched only where used). */
#define NET_RC_WAYS 8
#define NET_RC_ELEMS 10 /* 192-byte entries: a flat cluster's 5 elements in two cache lines */
#define NET_RC_MAX_SETS (1u << 15)
#define NET_RC_MERGED UINT16_MAX
typedef struct net_route_entry {
  _Alignas(64) uint16_t nfwd; /* links of the forward route (0: latency only) */
  uint16_t n;         /* merged elements */
  uint16_t nback;     /* links of the reverse route if no link is used twice (then elements
                         are the forward links, then the reverse ones); else NET_RC_MERGED */
  double lat;         /* forward route latency, seconds */
  double back_lat;    /* reverse route latency */
  double penalty;     /* lat + sum of weight_S / capacity, summed in route order */
  struct {
    lmm_constraint *cnst;
    double coef;
  } el[NET_RC_ELEMS]; /* side by side: a message reads both */
} net_route_entry;

/* the keys of a set, one cache line: src1 = src + 1 (0: empty, so that calloc'ed is empty) */
typedef struct net_rc_keys {
  uint32_t src1[NET_RC_WAYS];
  uint32_t dst[NET_RC_WAYS];
} net_rc_keys;

typedef struct net_link {
  lmm_constraint *cnst; /* NULL until a flow first crosses the link */
  uint32_t stamp;       /* == N.stamp: already an element of the flow being built */
  uint32_t pos;         /* its index in N.el_* then */
} net_link;

static struct {
  bool initialized;
  act_model model;
  const route_table *rt;
  net_model_kind kind;
  /* factors: piecewise (SMPI) or constant (CM02, LV08) */
  bool piecewise;
  fac_func bw_factor, lat_factor;
  double bw_const, lat_const;
  double constant_delay; /* Constant model */
  double weight_s;
  double tcp_gamma;
  bool crosstraffic;
  /* links, lazily given a constraint */
  net_link *links;
  size_t nlinks;
  size_t nconstraints;
  /* scratch, reused by every message */
  route_path fwd, back;
  uint32_t stamp;
  uint32_t *el_link;
  double *el_coef;
  size_t el_cap;
  net_route_entry *rcache; /* way w of set s at rcache[w * rcache_sets + s]; NULL until used */
  void *rcache_mem;        /* its allocation */
  net_rc_keys *rc_keys;    /* per set */
  void *rc_keys_mem;
  uint8_t *rc_next;        /* per set: the way its next miss fills */
  uint32_t rcache_sets;    /* power of two */
  net_route_entry rscratch;
  size_t rc_computed, rc_mirrored;
  /* the factors of the last message size: most messages of a run have the size of the one
   * before (rings, shifts, collectives), and a piecewise lookup is a binary search */
  double fac_bytes; /* -1: none yet */
  double fac_lat, fac_bw;
} N;

void net_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING("network/model", "SMPI", "SMPI|CM02|LV08|Constant",
                     "Network model. SMPI (default here, what smpirun uses): piecewise "
                     "smpi/bw-factor and smpi/lat-factor, weight-S 8775. LV08 (SimGrid's default "
                     "outside smpirun): bandwidth x0.97, latency x13.01, weight-S 20537. CM02: no "
                     "correction, weight-S 0. Constant: every message takes "
                     "network/latency-factor seconds (13.01 unless set), whatever its size"),
      CFG_KEY_DOUBLE("network/TCP-gamma", 4194304.0,
                     "Size of the biggest TCP window (bytes): a flow's rate is at most "
                     "TCP-gamma / (2 x route latency); 0 disables the bound"),
      CFG_KEY_DOUBLE("network/weight-S", 8775.0,
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
      CFG_KEY_STRING("smpi/lat-factor", DEFAULT_SMPI_LAT_FACTOR, NULL,
                     "Latency factors of the SMPI network model, 'threshold:value;...', same "
                     "lookup rule as smpi/bw-factor"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

static int parse_kind(const char *s, net_model_kind *out)
{
  static const struct {
    const char *name;
    net_model_kind kind;
  } names[] = {{"SMPI", NET_MODEL_SMPI},
               {"CM02", NET_MODEL_CM02},
               {"LV08", NET_MODEL_LV08},
               {"Constant", NET_MODEL_CONSTANT}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) {
      *out = names[i].kind;
      return 0;
    }
  return -1;
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

int net_model_init(const route_table *rt, char *err, size_t errlen)
{
  ASSERTF(!N.initialized, "net_model_init called twice without net_model_shutdown");
  ASSERTF(eng_initialized(), "net_model_init before eng_init");
  net_declare_config();

  net_model_kind kind;
  const char *name = cfg_get_string("network/model");
  if (parse_kind(name, &kind) != 0) {
    snprintf(err, errlen, "invalid value '%s' for 'network/model' (one of: SMPI, CM02, LV08, "
             "Constant)", name);
    return -1;
  }
  double def_ws = 0, def_bw = 1, def_lat = 1;
  switch (kind) {
  case NET_MODEL_SMPI: def_ws = 8775; break;
  case NET_MODEL_LV08: def_ws = 20537; def_bw = 0.97; def_lat = 13.01; break;
  case NET_MODEL_CM02: break;
  case NET_MODEL_CONSTANT: def_lat = 13.01; break;
  }
  double weight_s, gamma, bwc, latc;
  if (read_double("network/weight-S", def_ws, 0, false, &weight_s, err, errlen) != 0 ||
      read_double("network/TCP-gamma", 4194304.0, 0, false, &gamma, err, errlen) != 0 ||
      read_double("network/bandwidth-factor", def_bw, 0, true, &bwc, err, errlen) != 0 ||
      read_double("network/latency-factor", def_lat, 0, false, &latc, err, errlen) != 0)
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

  memset(&N, 0, sizeof N);
  N.rt = rt;
  N.kind = kind;
  N.piecewise = kind == NET_MODEL_SMPI;
  N.bw_factor = bwf;
  N.lat_factor = latf;
  N.bw_const = kind == NET_MODEL_CONSTANT ? 1.0 : bwc;
  N.lat_const = kind == NET_MODEL_CONSTANT ? 1.0 : latc;
  N.constant_delay = latc;
  N.weight_s = weight_s;
  N.tcp_gamma = gamma;
  N.crosstraffic = cfg_get_bool("network/crosstraffic");
  N.fac_bytes = -1;
  N.nlinks = route_link_count(rt);
  /* calloc'ed: the pages of links no flow crosses are never touched */
  N.links = xcalloc(N.nlinks ? N.nlinks : 1, sizeof *N.links);
  route_path_init(&N.fwd);
  route_path_init(&N.back);
  act_model_init(&N.model, "network", eng_work_precision());
  N.initialized = true;
  LOG_VERB("network model %s: weight-S %g, TCP-gamma %g, crosstraffic %d", name, weight_s,
              gamma, N.crosstraffic);
  return 0;
}

void net_model_shutdown(void)
{
  if (!N.initialized)
    return;
  act_model_destroy(&N.model);
  fac_free(&N.bw_factor);
  fac_free(&N.lat_factor);
  route_path_free(&N.fwd);
  route_path_free(&N.back);
  free(N.links);
  free(N.el_link);
  free(N.el_coef);
  free(N.rcache_mem);
  free(N.rc_keys_mem);
  free(N.rc_next);
  memset(&N, 0, sizeof N);
}

bool net_model_initialized(void) { return N.initialized; }
net_model_kind net_model_get_kind(void) { return N.kind; }
act_model *net_act_model(void) { return &N.model; }
size_t net_constraint_count(void) { return N.nconstraints; }

void net_route_cache_stats(size_t *computed, size_t *mirrored)
{
  *computed = N.rc_computed;
  *mirrored = N.rc_mirrored;
}

double net_bw_factor(double bytes)
{
  ASSERT(N.initialized);
  return N.piecewise ? fac_factor(&N.bw_factor, bytes) : N.bw_const;
}

double net_lat_factor(double bytes)
{
  ASSERT(N.initialized);
  return N.piecewise ? fac_factor(&N.lat_factor, bytes) : N.lat_const;
}

static lmm_constraint *link_constraint(uint32_t id)
{
  ASSERTF(id < N.nlinks, "link id %u out of range (%zu links)", id, N.nlinks);
  net_link *l = &N.links[id];
  if (!l->cnst) {
    double bw, lat;
    lmm_sharing sharing;
    route_link_info(N.rt, id, &bw, &lat, &sharing);
    ASSERTF(bw > 0 && isfinite(bw), "link %u: bandwidth %g", id, bw);
    l->cnst = lmm_constraint_new(N.model.sys, (void *)(uintptr_t)(id + 1), bw, sharing);
    N.nconstraints++;
  }
  return l->cnst;
}

/* Adds coef of link id to the flow being built (N.el_*, *n elements so far). */
static void add_use(uint32_t id, double coef, size_t *n)
{
  lmm_constraint *c = link_constraint(id);
  net_link *l = &N.links[id];
  if (l->stamp == N.stamp) {
    double *e = &N.el_coef[l->pos];
    if (lmm_constraint_sharing(c) == LMM_FATPIPE)
      *e = coef > *e ? coef : *e;
    else
      *e += coef;
    return;
  }
  if (*n == N.el_cap) {
    N.el_cap = N.el_cap ? 2 * N.el_cap : 16;
    N.el_link = xrealloc(N.el_link, N.el_cap * sizeof *N.el_link);
    N.el_coef = xrealloc(N.el_coef, N.el_cap * sizeof *N.el_coef);
  }
  l->stamp = N.stamp;
  l->pos = (uint32_t)*n;
  N.el_link[*n] = id;
  N.el_coef[*n] = coef;
  (*n)++;
}

static void next_stamp(void)
{
  if (++N.stamp == 0) { /* wrapped: forget every old stamp so none looks current */
    for (size_t i = 0; i < N.nlinks; i++)
      N.links[i].stamp = 0;
    N.stamp = 1;
  }
}

/* A flow's penalty, one forward link at a time from its latency: SimGrid's summation order
 * (latency first, then the links in route order), so that penalties compare bit for bit.
 * route_compute and route_mirror both sum with it, hence mirror entries have the bits of
 * looked-up ones. */
static inline double penalty_add(double penalty, const lmm_constraint *c)
{
  return N.weight_s > 0 ? penalty + N.weight_s / lmm_constraint_capacity(c) : penalty;
}

/* Looks the route src -> dst up (and dst -> src with cross-traffic) and fills *e with the
 * merged elements; e->n may exceed NET_RC_ELEMS, in which case only N.el_* hold them all.
 * Returns -1 with a message in err when a route is missing. */
static int route_compute(size_t src, size_t dst, net_route_entry *e, char *err, size_t errlen)
{
  N.fwd.count = 0;
  N.fwd.latency = 0;
  if (route_get(N.rt, src, dst, &N.fwd, err, errlen) != 0)
    return -1;
  N.back.count = 0;
  N.back.latency = 0;
  if (N.crosstraffic && route_get(N.rt, dst, src, &N.back, err, errlen) != 0)
    return -1; /* err says "no route from 'b' to 'a'": the reverse one, for cross-traffic */

  /* elements, merged per link (see the top of this file) */
  next_stamp();
  size_t n = 0;
  for (size_t i = 0; i < N.fwd.count; i++)
    add_use(N.fwd.links[i], 1.0, &n);
  for (size_t i = 0; i < N.back.count; i++)
    add_use(N.back.links[i], CROSS_TRAFFIC_COEF, &n);

  double penalty = N.fwd.latency;
  for (size_t i = 0; i < N.fwd.count; i++)
    penalty = penalty_add(penalty, N.links[N.fwd.links[i]].cnst);
  ASSERTF(N.fwd.count < NET_RC_MERGED && N.back.count < NET_RC_MERGED,
           "routes of %zu and %zu links", N.fwd.count, N.back.count);
  e->nfwd = (uint16_t)N.fwd.count;
  e->n = (uint16_t)n;
  e->nback = n == N.fwd.count + N.back.count ? (uint16_t)N.back.count : NET_RC_MERGED;
  e->lat = N.fwd.latency;
  e->back_lat = N.back.latency;
  e->penalty = penalty;
  for (size_t i = 0; i < n && i < NET_RC_ELEMS; i++) {
    e->el[i].cnst = N.links[N.el_link[i]].cnst;
    e->el[i].coef = N.el_coef[i];
  }
  return 0;
}

/* The entry of src -> dst made from the cached one of dst -> src, whose routes are the same
 * two with their roles swapped: in a pairwise exchange every message's reverse comes soon
 * after it, and each would otherwise look both routes up again (~400 instructions on a fat
 * tree, a sixth of a pairwise Alltoall's message). Only when no link is used twice (then
 * the elements are the two routes, each in its order, with coefficients 1 and the
 * cross-traffic one): the same elements in the same order, and the penalty summed by
 * penalty_add over the same links in the same order, as route_compute would give, so the
 * same bits. */
static bool route_mirror(size_t src, size_t dst, net_route_entry *out)
{
  if (!N.crosstraffic)
    return false; /* the reverse route is not there */
  size_t set = dst & (N.rcache_sets - 1);
  const net_rc_keys *k = &N.rc_keys[set];
  for (int w = 0; w < NET_RC_WAYS; w++) {
    if (k->src1[w] != (uint32_t)dst + 1 || k->dst[w] != (uint32_t)src)
      continue;
    const net_route_entry *r = &N.rcache[(size_t)w * N.rcache_sets + set];
    if (r->nback == NET_RC_MERGED || r == out) /* out: the victim way, when the sets coincide */
      return false;
    out->nfwd = r->nback;
    out->nback = r->nfwd;
    out->n = r->n;
    out->lat = r->back_lat;
    out->back_lat = r->lat;
    double penalty = out->lat;
    for (size_t i = 0; i < r->nback; i++) {
      lmm_constraint *c = r->el[r->nfwd + i].cnst;
      penalty = penalty_add(penalty, c);
      out->el[i].cnst = c;
      out->el[i].coef = 1.0;
    }
    for (size_t i = 0; i < r->nfwd; i++) {
      out->el[r->nback + i].cnst = r->el[i].cnst;
      out->el[r->nback + i].coef = CROSS_TRAFFIC_COEF;
    }
    out->penalty = penalty;
    return true;
  }
  return false;
}

/* The cache entry of src -> dst, filled on a miss; NULL with err when there is no route.
 * A route with more than NET_RC_ELEMS elements comes back in a scratch entry whose
 * elements are in N.el_* (both valid until the next message). */
static const net_route_entry *route_entry(size_t src, size_t dst, char *err, size_t errlen)
{
  if (!N.rcache) {
    size_t want = route_host_count(N.rt);
    size_t sets = 1;
    while (sets < want && sets < NET_RC_MAX_SETS)
      sets *= 2;
    /* aligned on a cache line so that an entry spans as few lines as its size allows, and
     * a set's keys fill exactly one */
    ASSERT(sizeof *N.rcache % 64 == 0 && sizeof *N.rc_keys == 64);
    N.rcache_mem = xcalloc(NET_RC_WAYS * sets + 1, sizeof *N.rcache);
    N.rcache = (net_route_entry *)(((uintptr_t)N.rcache_mem + 63) & ~(uintptr_t)63);
    N.rc_keys_mem = xcalloc(sets + 1, sizeof *N.rc_keys);
    N.rc_keys = (net_rc_keys *)(((uintptr_t)N.rc_keys_mem + 63) & ~(uintptr_t)63);
    N.rc_next = xcalloc(sets, 1);
    N.rcache_sets = (uint32_t)sets;
  }
  size_t set = src & (N.rcache_sets - 1);
  net_rc_keys *k = &N.rc_keys[set];
  uint32_t key = (uint32_t)src + 1;
  for (int w = 0; w < NET_RC_WAYS; w++)
    if (k->src1[w] == key && k->dst[w] == (uint32_t)dst)
      return &N.rcache[(size_t)w * N.rcache_sets + set];
  int w = N.rc_next[set];
  net_route_entry *e = &N.rcache[(size_t)w * N.rcache_sets + set];
  if (route_mirror(src, dst, e)) {
    N.rc_mirrored++;
  } else {
    N.rc_computed++;
    if (route_compute(src, dst, &N.rscratch, err, errlen) != 0)
      return NULL;
    if (N.rscratch.n > NET_RC_ELEMS)
      return &N.rscratch;
    *e = N.rscratch;
  }
  N.rc_next[set] = (uint8_t)((w + 1) % NET_RC_WAYS);
  k->src1[w] = key;
  k->dst[w] = (uint32_t)dst;
  return e;
}

act_action *net_comm_start(size_t src, size_t dst, double bytes, act_finish_fn fn, void *data,
                           char *err, size_t errlen)
{
  ASSERTF(N.initialized, "network model not initialized");
  ASSERTF(bytes >= 0 && isfinite(bytes), "bad message size %g", bytes);
  size_t nhosts = route_host_count(N.rt);
  ASSERTF(src < nhosts && dst < nhosts, "host index out of range (%zu -> %zu, %zu hosts)", src,
          dst, nhosts);

  if (N.kind == NET_MODEL_CONSTANT)
    return act_action_new(&N.model, 0.0, N.constant_delay, 1.0, -1.0, 0, fn, data);

  const net_route_entry *e = route_entry(src, dst, err, errlen);
  if (!e)
    return NULL;
  if (bytes != N.fac_bytes) {
    N.fac_lat = net_lat_factor(bytes);
    N.fac_bw = net_bw_factor(bytes);
    N.fac_bytes = bytes;
  }
  double lat = e->lat;
  double latency = lat * N.fac_lat;
  double bwf = N.fac_bw;
  /* without a latency phase SimGrid creates the flow with penalty 1, and keeps it */
  double penalty = latency > 0 ? e->penalty : 1.0;
  double bound = lat > 0 && N.tcp_gamma > 0 ? N.tcp_gamma / (2.0 * lat) : -1.0;
  /* a route without links (only latency): the message ends when the latency is paid */
  double work = e->nfwd ? bytes : 0.0;

  act_action *a = act_action_new(&N.model, work, latency, penalty, bound, e->n, fn, data);
  act_action_set_rate_factor(a, bwf);
  if (e->n <= NET_RC_ELEMS)
    for (size_t i = 0; i < e->n; i++)
      lmm_expand(N.model.sys, e->el[i].cnst, a->var, e->el[i].coef);
  else
    for (size_t i = 0; i < e->n; i++)
      lmm_expand(N.model.sys, N.links[N.el_link[i]].cnst, a->var, N.el_coef[i]);
  LOG_DEBUG("comm %p: %zu -> %zu, %.17g B, %u links, latency %.17g, penalty %.17g, bound %g, "
            "bw factor %g",
            (void *)a, src, dst, bytes, e->nfwd, latency, penalty, bound, bwf);
  return a;
}
