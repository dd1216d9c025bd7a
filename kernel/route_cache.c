/* Route cache: storage, replacement and mirroring; see route_cache.h for the layout and
 * why. The worked example of a mirror, pairwise exchange on a flat cluster:
 *
 *   A -> B looked up:  nfwd 2 [A_UP B_DOWN]  nback 2 [B_UP A_DOWN]   coefs 1 1 .05 .05
 *   B -> A mirrored:   nfwd 2 [B_UP A_DOWN]  nback 2 [A_UP B_DOWN]   coefs 1 1 .05 .05
 *                      lat and back_lat swapped, penalty summed again over B_UP A_DOWN */
#include "kernel/route_cache.h"

#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/mem.h"

void route_cache_init(route_cache *rc, size_t nhosts, double weight_s, bool crosstraffic,
                      route_cache_fill_fn fill)
{
  memset(rc, 0, sizeof *rc);
  rc->nhosts = nhosts;
  rc->weight_s = weight_s;
  rc->mirror = crosstraffic;
  rc->fill = fill;
}

void route_cache_free(route_cache *rc)
{
  xfree_lazy(rc->ways, (size_t)RC_WAYS * rc->sets, sizeof *rc->ways);
  xfree_lazy(rc->keys, rc->sets, sizeof *rc->keys);
  free(rc->next);
  memset(rc, 0, sizeof *rc);
}

static void alloc_sets(route_cache *rc)
{
  size_t sets = 1;
  while (sets < rc->nhosts && sets < RC_MAX_SETS)
    sets *= 2;
  /* aligned on a cache line (xcalloc_lazy's) so that an entry spans as few lines as its size
   * allows, and a set's keys fill exactly one. Lazily faulted: sized by the platform's hosts
   * (6.3 MiB of ways for 4 096), of which a run's ranks use a few sets of a few ways. */
  ASSERT(sizeof *rc->ways % 64 == 0 && sizeof *rc->keys == 64);
  rc->ways = xcalloc_lazy((size_t)RC_WAYS * sets, sizeof *rc->ways);
  rc->keys = xcalloc_lazy(sets, sizeof *rc->keys);
  rc->next = xcalloc(sets, 1);
  rc->sets = (uint32_t)sets;
}

/* The entry of src -> dst made from the cached one of dst -> src, whose routes are the same
 * two with their roles swapped: in a pairwise exchange every message's reverse comes soon
 * after it, and each would otherwise look both routes up again (~400 instructions on a fat
 * tree, a sixth of a pairwise Alltoall's message). Only when no link is used twice (then
 * the elements are the two routes, each in its order, with coefficients 1 and the
 * cross-traffic one): the same elements in the same order, and the penalty summed by
 * route_cache_penalty_add over the same links in the same order, as the fill function
 * would give, so the same bits. */
static bool route_cache_mirror(const route_cache *rc, size_t src, size_t dst, rc_entry *out)
{
  if (!rc->mirror)
    return false; /* the reverse route is not there */
  size_t set = dst & (rc->sets - 1);
  const rc_keys *k = &rc->keys[set];
  for (int w = 0; w < RC_WAYS; w++) {
    if (k->src1[w] != (uint32_t)dst + 1 || k->dst[w] != (uint32_t)src)
      continue;
    const rc_entry *r = &rc->ways[(size_t)w * rc->sets + set];
    if (r->nback == RC_MERGED || r == out) /* out: the victim way, when the sets coincide */
      return false;
    out->nfwd = r->nback;
    out->nback = r->nfwd;
    out->n = r->n;
    out->lat = r->back_lat;
    out->back_lat = r->lat;
    double penalty = out->lat;
    for (size_t i = 0; i < r->nback; i++) {
      lmm_constraint *c = r->el[r->nfwd + i].cnst;
      penalty = route_cache_penalty_add(rc->weight_s, penalty, c);
      out->el[i].cnst = c;
      out->el[i].coef = 1.0;
    }
    for (size_t i = 0; i < r->nfwd; i++) {
      out->el[r->nback + i].cnst = r->el[i].cnst;
      out->el[r->nback + i].coef = RC_CROSS_TRAFFIC_COEF;
    }
    out->penalty = penalty;
    return true;
  }
  return false;
}

const rc_entry *route_cache_miss(route_cache *rc, size_t src, size_t dst, char *err,
                                 size_t errlen)
{
  if (!rc->keys)
    alloc_sets(rc);
  size_t set = src & (rc->sets - 1);
  rc_keys *k = &rc->keys[set];
  int w = rc->next[set];
  rc_entry *e = &rc->ways[(size_t)w * rc->sets + set];
  if (route_cache_mirror(rc, src, dst, e)) {
    rc->mirrored++;
  } else {
    rc->computed++;
    if (rc->fill(src, dst, &rc->scratch, err, errlen) != 0)
      return NULL;
    if (rc->scratch.n > RC_ELEMS)
      return &rc->scratch;
    *e = rc->scratch;
  }
  rc->next[set] = (uint8_t)((w + 1) % RC_WAYS);
  k->src1[w] = (uint32_t)src + 1;
  k->dst[w] = (uint32_t)dst;
  return e;
}
