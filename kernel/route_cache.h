/* Route cache: what a message between two hosts needs from the routing, computed once per
 * (src, dst) pair and reused while the pair stays cached. A token ring or a collective
 * repeats the same pairs over and over; looking a route up (zones, cluster arithmetic, the
 * reverse route for cross-traffic) and merging the elements cost about 1 000 instructions
 * per message, a hit about 50. What is cached depends only on the platform (routes, link
 * capacities, which never change during a run) and on the configuration the network model
 * read at init, so a hit gives bit-identical elements and penalty. Routes with more merged
 * elements than fit an entry are simply not cached.
 *
 * The cache does not look routes up itself: on a miss it asks the network model's fill
 * function (kernel/network.c, route_compute), which knows the constraints and the merging
 * rule; what it adds is the storage, the replacement and the mirroring of an entry into
 * the reverse pair's (route_cache_mirror in route_cache.c).
 *
 * Layout: one set per source host (hosts beyond RC_MAX_SETS share sets), RC_WAYS ways. The
 * keys of a set fill one cache line, so a lookup reads one line of keys and then the entry
 * it finds; each way's entries are an array of their own:
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
 * allocated on the first miss, by xcalloc_lazy: only the pages touched are faulted in).
 *
 * The hit path (route_cache_get) is inline: it runs for every message. */
#ifndef SMPI_KERNEL_ROUTE_CACHE_H
#define SMPI_KERNEL_ROUTE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lmm.h"

#define RC_WAYS 8
#define RC_ELEMS 10 /* 192-byte entries: a flat cluster's 5 elements in two cache lines */
#define RC_MAX_SETS (1u << 15)
#define RC_MERGED UINT16_MAX
#define RC_CROSS_TRAFFIC_COEF 0.05 /* coefficient of the reverse route's links */

typedef struct rc_entry {
  _Alignas(64) uint16_t nfwd; /* links of the forward route (0: latency only) */
  uint16_t n;                 /* merged elements */
  uint16_t nback;  /* links of the reverse route if no link is used twice (then elements
                         are the forward links, then the reverse ones); else RC_MERGED */
  double lat;      /* forward route latency, seconds */
  double back_lat; /* reverse route latency */
  double penalty;  /* lat + sum of weight_S / capacity, summed in route order */
  struct {
    lmm_constraint *cnst;
    double coef;
  } el[RC_ELEMS]; /* side by side: a message reads both */
} rc_entry;

/* the keys of a set, one cache line: src1 = src + 1 (0: empty, so that calloc'ed is empty) */
typedef struct rc_keys {
  uint32_t src1[RC_WAYS];
  uint32_t dst[RC_WAYS];
} rc_keys;

/* Fills *e for src -> dst (e->n may exceed RC_ELEMS: then the caller keeps the elements
 * elsewhere); -1 with a message in err when a route is missing. */
typedef int (*route_cache_fill_fn)(size_t src, size_t dst, rc_entry *e, char *err, size_t errlen);

typedef struct route_cache {
  rc_keys *keys;  /* per set; NULL until the first miss */
  rc_entry *ways; /* way w of set s at ways[w * sets + s] */
  uint8_t *next;  /* per set: the way its next miss fills */
  uint32_t sets;  /* power of two */
  size_t nhosts;
  double weight_s; /* network/weight-S, for the penalty of mirrored entries */
  bool mirror;     /* entries hold the reverse route (cross-traffic): mirroring allowed */
  route_cache_fill_fn fill;
  rc_entry scratch;          /* a route too long to cache, until the next miss */
  size_t computed, mirrored; /* misses: looked up, made from the reverse pair's entry */
} route_cache;

/* Sets up an empty cache for nhosts hosts (nothing allocated yet). */
void route_cache_init(route_cache *rc, size_t nhosts, double weight_s, bool crosstraffic,
                      route_cache_fill_fn fill);
void route_cache_free(route_cache *rc);

/* A flow's penalty, one forward link at a time from its latency: SimGrid's summation order
 * (latency first, then the links in route order), so that penalties compare bit for bit.
 * The network model's lookup and route_cache_mirror both sum with it, hence mirrored
 * entries have the bits of looked-up ones. */
static inline double route_cache_penalty_add(double weight_s, double penalty,
                                             const lmm_constraint *c)
{
  return weight_s > 0 ? penalty + weight_s / lmm_constraint_capacity(c) : penalty;
}

/* the miss path of route_cache_get */
const rc_entry *route_cache_miss(route_cache *rc, size_t src, size_t dst, char *err,
                                 size_t errlen);

/* The entry of src -> dst, filled on a miss; NULL with err when there is no route. A route
 * with more than RC_ELEMS elements comes back in rc->scratch, whose elements only the fill
 * function kept (both valid until the next miss). */
static inline const rc_entry *route_cache_get(route_cache *rc, size_t src, size_t dst, char *err,
                                              size_t errlen)
{
  if (rc->keys) {
    size_t set = src & (rc->sets - 1);
    const rc_keys *k = &rc->keys[set];
    uint32_t key = (uint32_t)src + 1;
    for (int w = 0; w < RC_WAYS; w++)
      if (k->src1[w] == key && k->dst[w] == (uint32_t)dst)
        return &rc->ways[(size_t)w * rc->sets + set];
  }
  return route_cache_miss(rc, src, dst, err, errlen);
}

#endif
