/* Routing: the route between two hosts through the zone tree, as SimGrid 3.32 computes it.
 *
 * route(src, dst), Z the deepest zone containing both, Sx/Dx the children of Z holding them:
 *
 *   1. a bypass route declared in Z wins: <bypassRoute src dst> when both are directly in
 *      Z, else the first <bypassZoneRoute> found for a pair (zone around src, zone around
 *      dst), nearest zones first; then route(src, gw_src) + its links + route(gw_dst, dst),
 *      both halves computed even when a gateway is the end itself (SimGrid does: a Full leaf
 *      then contributes its loopback);
 *   2. src and dst directly in Z: Z's own routing (declared routes, shortest paths over them,
 *      or what a <cluster> generates: routing_topo.c and the topologies, kernel/topo.h);
 *   3. else the zone route(s) from Sx to Dx in Z (one <zoneRoute> for Full; a chain of them
 *      for Floyd/Dijkstra, joined by routes between consecutive gateways), preceded by
 *      route(src, gw_src) unless src is that gateway and followed by route(gw_dst, dst)
 *      unless dst is.
 *
 *   world (Full)                     a1 -> b1 = route(a1 -> ra in A)      la1_UP
 *    +- A (Full): a1, a2, ra                 + zoneRoute A->B links        wan1_UP
 *    +- B (Full): b1, rb                     + route(rb -> b1 in B)        lb1
 *    zoneRoute A->B gw ra->rb wan1_UP   b1 -> a1 = lb1 wan1_DOWN la1_DOWN (symmetrical: links
 *                                              reversed, SPLITDUPLEX halves swapped)
 *
 * Shortest paths (Floyd, Dijkstra) count links: a route of 3 links weighs 3. Ties: Floyd
 * prefers the intermediate declared first (hosts and routers in document order);
 * Dijkstra settles nodes by (distance, order of first appearance in a route) and keeps the
 * first predecessor found. A host to itself in a Full/Floyd/Dijkstra zone uses a declared
 * route to itself, else the model loopback (network/loopback-bw, -lat, FATPIPE).
 *
 * Latencies are added link by link in SimGrid's order, so that the sums match bit for bit:
 * in case 3 the zone route's links count before the parts on either side of it, and a
 * Dijkstra zone counts its routes last first. */
#include "kernel/routing.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/routing_private.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/mem.h"

#define MAX_DEPTH 64

/* ------------------------------------------------------------------------------------------
 * Configuration
 * ---------------------------------------------------------------------------------------- */

void route_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_DOUBLE("network/loopback-bw", 1e10,
                     "Bandwidth of the loopback link (B/s) used for a host sending to itself "
                     "when the platform gives no route for it"),
      CFG_KEY_DOUBLE("network/loopback-lat", 0.0,
                     "Latency of the loopback link (s) used for a host sending to itself "
                     "when the platform gives no route for it"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  rt_topo_declare_config();
}

/* ------------------------------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------------------------- */

void route_path_init(route_path *path) { memset(path, 0, sizeof *path); }

void route_path_free(route_path *path)
{
  free(path->links);
  memset(path, 0, sizeof *path);
}

void rt_path_push(route_path *path, uint32_t id, double latency)
{
  if (path->count == path->cap)
    XGROW(path->links, path->cap, path->count + 1);
  path->links[path->count++] = id;
  path->latency += latency;
}

/* the links only: their latencies were counted elsewhere */
static void path_append_links(route_path *path, const uint32_t *ids, size_t n)
{
  if (n == 0)
    return; /* a latency-only hop (Vivaldi): ids may be NULL, not for memcpy */
  if (path->count + n > path->cap)
    XGROW(path->links, path->cap, path->count + n);
  memcpy(path->links + path->count, ids, n * sizeof *ids);
  path->count += n;
}

int rt_fail(rt_ctx *x, const plat_zone *z, const char *fmt, ...)
{
  char why[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  const plat_platform *p = x->rt->p;
  char na[256], nb[256];
  plat_point_name(x->src, na, sizeof na);
  plat_point_name(x->dst, nb, sizeof nb);
  snprintf(x->err, x->errlen, "no route from '%s' to '%s': %s (%s:%" PRIu32 ")", na, nb, why,
           plat_loc_file(p, z->loc), z->loc.line);
  return -1;
}

static int build_fail(char *err, size_t errlen, const plat_platform *p, plat_loc loc,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int build_fail(char *err, size_t errlen, const plat_platform *p, plat_loc loc,
                      const char *fmt, ...)
{
  char why[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(err, errlen, "%s:%" PRIu32 ": %s", plat_loc_file(p, loc), loc.line, why);
  return -1;
}

static const char *pname(const plat_point *pt, char *buf, size_t len)
{
  plat_point_name(pt, buf, len);
  return buf;
}

/* ------------------------------------------------------------------------------------------
 * (zone, a, b) -> int32 map
 * ---------------------------------------------------------------------------------------- */

static uint64_t hash3(uint32_t z, uint32_t a, uint32_t b)
{
  uint64_t h = 0x9e3779b97f4a7c15ull;
  h ^= z;
  h *= 0xff51afd7ed558ccdull;
  h ^= a + (h >> 29);
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= b + (h >> 31);
  h *= 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

static void hash_free(rt_hash *h)
{
  free(h->keys);
  free(h->vals);
}

static int32_t *hash_slot(rt_hash *h, uint32_t z, uint32_t a, uint32_t b, bool *fresh);

static void hash_grow(rt_hash *h)
{
  rt_hash old = *h;
  h->cap = old.cap ? old.cap * 2 : 16;
  h->keys = xmalloc(h->cap * 3 * sizeof *h->keys);
  h->vals = xmalloc(h->cap * sizeof *h->vals);
  h->size = 0;
  for (size_t i = 0; i < h->cap; i++)
    h->keys[3 * i] = UINT32_MAX;
  for (size_t i = 0; i < old.cap; i++) {
    if (old.keys[3 * i] == UINT32_MAX)
      continue;
    bool fresh;
    *hash_slot(h, old.keys[3 * i], old.keys[3 * i + 1], old.keys[3 * i + 2],
               &fresh) = old.vals[i];
  }
  hash_free(&old);
}

/* the value slot of key, created (fresh) if absent */
static int32_t *hash_slot(rt_hash *h, uint32_t z, uint32_t a, uint32_t b, bool *fresh)
{
  if (10 * (h->size + 1) > 7 * h->cap)
    hash_grow(h);
  size_t mask = h->cap - 1, i = (size_t)hash3(z, a, b) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t *k = &h->keys[3 * i];
    if (k[0] == UINT32_MAX) {
      k[0] = z, k[1] = a, k[2] = b;
      h->vals[i] = -1;
      h->size++;
      *fresh = true;
      return &h->vals[i];
    }
    if (k[0] == z && k[1] == a && k[2] == b) {
      *fresh = false;
      return &h->vals[i];
    }
  }
}

static int32_t hash_get(const rt_hash *h, uint32_t z, uint32_t a, uint32_t b)
{
  if (h->cap == 0)
    return -1;
  size_t mask = h->cap - 1, i = (size_t)hash3(z, a, b) & mask;
  for (;; i = (i + 1) & mask) {
    const uint32_t *k = &h->keys[3 * i];
    if (k[0] == UINT32_MAX)
      return -1;
    if (k[0] == z && k[1] == a && k[2] == b)
      return h->vals[i];
  }
}

/* ------------------------------------------------------------------------------------------
 * Netpoints: explicit hosts, routers and zones get one global number each
 * ---------------------------------------------------------------------------------------- */

static int64_t np_of(const route_table *rt, const plat_point *pt)
{
  const plat_platform *p = rt->p;
  switch (pt->kind) {
  case PLAT_POINT_HOST:
    return (int64_t)pt->u.host->index;
  case PLAT_POINT_ROUTER:
    return (int64_t)(p->nhosts + pt->u.router->index);
  case PLAT_POINT_ZONE:
    return (int64_t)(p->nhosts + p->nrouters + pt->u.zone->index);
  default:
    return -1;
  }
}

static plat_point zone_point(const plat_zone *z)
{
  plat_point pt = {0};
  pt.kind = PLAT_POINT_ZONE;
  pt.u.zone = (plat_zone *)z;
  return pt;
}

/* ------------------------------------------------------------------------------------------
 * Link ids
 * ---------------------------------------------------------------------------------------- */

static size_t explicit_of(const route_table *rt, uint32_t id)
{
  size_t lo = 0, hi = rt->p->nlinks; /* last link whose base <= id */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (rt->explicit_link_base[mid] <= id)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static const rt_cluster *cluster_of_id(const route_table *rt, uint32_t id)
{
  size_t lo = 0, hi = rt->nclusters;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (rt->clusters[mid].base <= id)
      lo = mid;
    else
      hi = mid;
  }
  const rt_cluster *cl = &rt->clusters[lo];
  ASSERTF(id >= cl->base && id < cl->base + cl->count, "link id %u", id);
  return cl;
}

uint32_t rt_ref_id(const route_table *rt, const plat_link_ref *ref)
{
  if (ref->link) {
    uint32_t base = rt->explicit_link_base[ref->link->index];
    return base + (ref->dir == PLAT_DIR_DOWN);
  }
  const rt_cluster *cl = &rt->clusters[rt->cluster_of_zone[ref->cluster->index]];
  switch (ref->which) {
  case PLAT_CLINK_PRIVATE:
    ASSERT(cl->c->flat);
    return cl->base + ref->rank * cl->split + (cl->split == 2 && ref->dir == PLAT_DIR_DOWN);
  case PLAT_CLINK_LIMITER:
    ASSERT(cl->off_lim != RT_NONE);
    return cl->base + cl->off_lim + ref->rank;
  case PLAT_CLINK_LOOPBACK:
    ASSERT(cl->off_loop != RT_NONE);
    return cl->base + cl->off_loop + ref->rank;
  case PLAT_CLINK_BACKBONE:
    ASSERT(cl->off_bb != RT_NONE);
    return cl->base + cl->off_bb;
  }
  UNREACHABLE();
}

size_t route_link_count(const route_table *rt) { return rt->nlinks; }

void route_link_info(const route_table *rt, uint32_t link, double *bandwidth, double *latency,
                     lmm_sharing *sharing)
{
  ASSERTF(link < rt->nlinks, "link %u of %u", link, rt->nlinks);
  if (link == rt->loopback_id) {
    *bandwidth = rt->loop_bw, *latency = rt->loop_lat, *sharing = LMM_FATPIPE;
    return;
  }
  if (link < rt->n_explicit_ids) {
    const plat_link *l = rt->p->links[explicit_of(rt, link)];
    *bandwidth = l->bandwidth;
    *latency = l->latency;
    *sharing = l->sharing == PLAT_SHARING_FATPIPE ? LMM_FATPIPE : LMM_SHARED;
    return;
  }
  const rt_cluster *cl = cluster_of_id(rt, link);
  rt_cluster_link_info(cl, link - cl->base, bandwidth, latency, sharing);
}

double rt_link_latency(const route_table *rt, uint32_t id)
{
  double bw, lat;
  lmm_sharing s;
  route_link_info(rt, id, &bw, &lat, &s);
  return lat;
}

int route_link_name(const route_table *rt, uint32_t link, char *buf, size_t len)
{
  ASSERTF(link < rt->nlinks, "link %u of %u", link, rt->nlinks);
  if (link == rt->loopback_id)
    return snprintf(buf, len, "__loopback__");
  if (link < rt->n_explicit_ids) {
    size_t i = explicit_of(rt, link);
    const plat_link *l = rt->p->links[i];
    if (l->sharing != PLAT_SHARING_SPLITDUPLEX)
      return snprintf(buf, len, "%s", l->id);
    return snprintf(buf, len, "%s%s", l->id, link == rt->explicit_link_base[i] ? "_UP" : "_DOWN");
  }
  const rt_cluster *cl = cluster_of_id(rt, link);
  return rt_cluster_link_name(cl, link - cl->base, buf, len);
}

long route_link_by_name(const route_table *rt, const char *name)
{
  plat_link_ref ref;
  if (plat_find_link(rt->p, name, PLAT_DIR_NONE, &ref)) {
    if (ref.link)
      return rt_ref_id(rt, &ref);
    if (ref.cluster->cluster->flat)
      return rt_ref_id(rt, &ref);
  }
  for (size_t i = 0; i < rt->nclusters; i++) {
    long rel = rt_cluster_link_by_name(&rt->clusters[i], name);
    if (rel >= 0)
      return (long)rt->clusters[i].base + rel;
  }
  if (strcmp(name, "__loopback__") == 0)
    return rt->loopback_id;
  return -1;
}

/* ------------------------------------------------------------------------------------------
 * Hosts
 * ---------------------------------------------------------------------------------------- */

size_t route_host_count(const route_table *rt) { return rt->nhosts; }

long route_host_by_name(const route_table *rt, const char *name)
{
  plat_point pt;
  if (!plat_find_point(rt->p, name, &pt))
    return -1;
  if (pt.kind == PLAT_POINT_HOST)
    return (long)rt->explicit_dense[pt.u.host->index];
  if (pt.kind == PLAT_POINT_CLUSTER_HOST)
    return (long)(rt->clusters[rt->cluster_of_zone[pt.u.zone->index]].host_start + pt.rank);
  return -1;
}

int route_host_name(const route_table *rt, size_t host, char *buf, size_t len)
{
  ASSERTF(host < rt->nhosts, "host %zu of %zu", host, rt->nhosts);
  plat_point pt = plat_host_at(rt->p, host);
  return plat_point_name(&pt, buf, len);
}

void route_host_desc(const route_table *rt, size_t host, plat_host_desc *out)
{
  ASSERTF(host < rt->nhosts, "host %zu of %zu", host, rt->nhosts);
  plat_point pt = plat_host_at(rt->p, host);
  plat_point_host_desc(&pt, out);
}

/* ------------------------------------------------------------------------------------------
 * Shortest paths
 * ---------------------------------------------------------------------------------------- */

struct rt_dcache {
  int32_t *pred; /* entry reaching each node on the shortest path tree, -1 if none */
};

/* A path of declared routes; short ones (the usual case) need no allocation. */
typedef struct hops {
  int32_t *v;
  size_t n, cap;
  int32_t inline_v[8];
} hops;

static void hops_init(hops *h)
{
  h->v = h->inline_v;
  h->n = 0;
  h->cap = sizeof h->inline_v / sizeof h->inline_v[0];
}

static void hops_push(hops *h, int32_t e)
{
  if (h->n == h->cap) {
    int32_t *heap = xmalloc(2 * h->cap * sizeof *heap);
    memcpy(heap, h->v, h->n * sizeof *heap);
    if (h->v != h->inline_v)
      free(h->v);
    h->v = heap;
    h->cap *= 2;
  }
  h->v[h->n++] = e;
}

static void hops_free(hops *h)
{
  if (h->v != h->inline_v)
    free(h->v);
}

static void hops_reverse(hops *h)
{
  for (size_t i = 0, j = h->n ? h->n - 1 : 0; i < j; i++, j--) {
    int32_t t = h->v[i];
    h->v[i] = h->v[j];
    h->v[j] = t;
  }
}

/* Dijkstra from node s; pred[] receives the entry reaching each node. Nodes are settled in
 * (distance, node) order and only a strictly shorter distance replaces a predecessor. */
static void dijkstra(const route_table *rt, const rt_zone *zr, size_t s, int32_t *pred)
{
  size_t n = zr->nnodes;
  uint64_t *dist = xmalloc(n * sizeof *dist);
  for (size_t i = 0; i < n; i++) {
    dist[i] = UINT64_MAX;
    pred[i] = -1;
  }
  /* binary heap of (dist, node), stale entries skipped */
  size_t hcap = n + 1, hn = 0;
  uint64_t *hd = xmalloc(hcap * sizeof *hd);
  size_t *hv = xmalloc(hcap * sizeof *hv);
#define HLESS(i, j) (hd[i] < hd[j] || (hd[i] == hd[j] && hv[i] < hv[j]))
#define HSWAP(i, j)                                       \
  do {                                                    \
    uint64_t td = hd[i];                                  \
    size_t tv = hv[i];                                    \
    hd[i] = hd[j], hv[i] = hv[j], hd[j] = td, hv[j] = tv; \
  } while (0)
  dist[s] = 0;
  hd[0] = 0, hv[0] = s, hn = 1;
  while (hn > 0) {
    uint64_t d = hd[0];
    size_t v = hv[0];
    hn--;
    hd[0] = hd[hn], hv[0] = hv[hn];
    for (size_t i = 0;;) {
      size_t l = 2 * i + 1, r = l + 1, m = i;
      if (l < hn && HLESS(l, m))
        m = l;
      if (r < hn && HLESS(r, m))
        m = r;
      if (m == i)
        break;
      HSWAP(i, m);
      i = m;
    }
    if (d > dist[v])
      continue;
    for (size_t k = zr->adj_start[v]; k < zr->adj_start[v + 1]; k++) {
      size_t u = (size_t)zr->adj_to[k];
      uint64_t nd = d + rt->entries[zr->adj_entry[k]].nids;
      if (nd >= dist[u])
        continue;
      dist[u] = nd;
      pred[u] = zr->adj_entry[k];
      if (hn == hcap) {
        hcap *= 2;
        hd = xrealloc(hd, hcap * sizeof *hd);
        hv = xrealloc(hv, hcap * sizeof *hv);
      }
      size_t i = hn++;
      hd[i] = nd, hv[i] = u;
      while (i > 0 && HLESS(i, (i - 1) / 2)) {
        HSWAP(i, (i - 1) / 2);
        i = (i - 1) / 2;
      }
    }
  }
#undef HLESS
#undef HSWAP
  free(hd);
  free(hv);
  free(dist);
}

/* The declared routes leading from a to b (distinct points directly in z), in order. */
static int routed_hops(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                       hops *out)
{
  const route_table *rt = x->rt;
  char na[256], nb[256];
  int64_t npa = np_of(rt, a), npb = np_of(rt, b);
  ASSERT(npa >= 0 && npb >= 0);
  bool zones = a->kind == PLAT_POINT_ZONE;
  switch (z->routing) {
  case PLAT_ROUTING_FULL: {
    int32_t e = hash_get(&rt->decl, (uint32_t)z->index, (uint32_t)npa, (uint32_t)npb);
    if (e < 0)
      return rt_fail(x, z, "zone '%s' (Full routing) declares no %s from '%s' to '%s'", z->id,
                     zones ? "zoneRoute" : "route", pname(a, na, sizeof na),
                     pname(b, nb, sizeof nb));
    hops_push(out, e);
    return 0;
  }
  case PLAT_ROUTING_FLOYD: {
    const rt_zone *zr = &rt->zones[z->index];
    int32_t i = rt->np_slot[npa], j = rt->np_slot[npb];
    size_t n = zr->n;
    if (zr->pred[(size_t)i * n + (size_t)j] < 0)
      return rt_fail(x, z, "zone '%s' (Floyd routing) has no path of %s from '%s' to '%s'", z->id,
                     zones ? "zoneRoutes" : "routes", pname(a, na, sizeof na),
                     pname(b, nb, sizeof nb));
    for (int32_t cur = j; cur != i;) {
      int32_t p = zr->pred[(size_t)i * n + (size_t)cur];
      hops_push(out, zr->via[(size_t)p * n + (size_t)cur]);
      cur = p;
    }
    hops_reverse(out);
    return 0;
  }
  case PLAT_ROUTING_DIJKSTRA:
  case PLAT_ROUTING_DIJKSTRA_CACHE: {
    const rt_zone *zr = &rt->zones[z->index];
    int32_t i = rt->np_slot[npa], j = rt->np_slot[npb];
    if (i < 0 || j < 0)
      return rt_fail(x, z, "zone '%s' (%s routing): '%s' appears in none of its %s", z->id,
                     plat_routing_name(z->routing),
                     i < 0 ? pname(a, na, sizeof na) : pname(b, nb, sizeof nb),
                     zones ? "zoneRoutes" : "routes");
    int32_t *pred, *tmp = NULL;
    if (zr->cache) {
      if (!zr->cache[i]) {
        zr->cache[i] = xmalloc(sizeof *zr->cache[i]);
        zr->cache[i]->pred = xmalloc(zr->nnodes * sizeof(int32_t));
        dijkstra(rt, zr, (size_t)i, zr->cache[i]->pred);
      }
      pred = zr->cache[i]->pred;
    } else {
      pred = tmp = xmalloc(zr->nnodes * sizeof *tmp);
      dijkstra(rt, zr, (size_t)i, pred);
    }
    int rc = 0;
    if (pred[j] < 0) {
      rc = rt_fail(x, z, "zone '%s' (%s routing) has no path of %s from '%s' to '%s'", z->id,
                   plat_routing_name(z->routing), zones ? "zoneRoutes" : "routes",
                   pname(a, na, sizeof na), pname(b, nb, sizeof nb));
    } else {
      for (int32_t cur = j; cur != i;) {
        int32_t e = pred[cur];
        hops_push(out, e);
        cur = rt->np_slot[np_of(rt, rt_src(&rt->entries[e]))];
      }
      hops_reverse(out);
    }
    free(tmp);
    return rc;
  }
  default:
    return rt_fail(x, z, "zone '%s' (%s routing) cannot route between %s", z->id,
                   plat_routing_name(z->routing), zones ? "sub-zones" : "these points");
  }
}

/* ------------------------------------------------------------------------------------------
 * The route through the zone tree
 * ---------------------------------------------------------------------------------------- */

static int global_route(rt_ctx *x, const plat_point *src, const plat_point *dst,
                        route_path *path);

static void append_entry(const route_table *rt, route_path *path, int32_t e)
{
  const rt_entry *en = &rt->entries[e];
  path_append_links(path, rt->link_pool + en->off, en->nids);
  for (size_t i = 0; i < en->nids; i++)
    path->latency += rt->lat_pool[en->off + i];
}

/* src and dst directly in z */
static int leaf_route(rt_ctx *x, const plat_zone *z, const plat_point *src, const plat_point *dst,
                      route_path *path)
{
  const route_table *rt = x->rt;
  switch (z->routing) {
  case PLAT_ROUTING_CLUSTER:
    if (z->cluster)
      return rt_cluster_route(x, &rt->clusters[rt->cluster_of_zone[z->index]], src, dst, path);
    return rt_hostlink_route(x, z, src, dst, path);
  case PLAT_ROUTING_STAR:
    return rt_hostlink_route(x, z, src, dst, path);
  case PLAT_ROUTING_NONE:
    return rt_fail(x, z, "zone '%s' has routing None: nothing is routed in it", z->id);
  case PLAT_ROUTING_VIVALDI:
    if (!plat_point_equal(src, dst))
      return rt_vivaldi_route(x, z, src, dst, path);
    break; /* to self: the loopback, as in any zone */
  case PLAT_ROUTING_FULL:
  case PLAT_ROUTING_FLOYD:
  case PLAT_ROUTING_DIJKSTRA:
  case PLAT_ROUTING_DIJKSTRA_CACHE:
    break;
  }
  if (plat_point_equal(src, dst)) {
    int64_t np = np_of(rt, src);
    int32_t e = hash_get(&rt->decl, (uint32_t)z->index, (uint32_t)np, (uint32_t)np);
    if (e >= 0)
      append_entry(rt, path, e);
    else
      rt_path_push(path, rt->loopback_id, rt->loop_lat);
    return 0;
  }
  hops h;
  hops_init(&h);
  int rc = routed_hops(x, z, src, dst, &h);
  bool dijkstra = z->routing == PLAT_ROUTING_DIJKSTRA ||
                  z->routing == PLAT_ROUTING_DIJKSTRA_CACHE;
  if (rc == 0 && dijkstra) {
    /* SimGrid's Dijkstra walks the path backwards: it counts the last route's latencies
     * first (and lists each route's links reversed, a bug we do not copy: the links stay in
     * crossing order) */
    for (size_t i = 0; i < h.n; i++)
      path_append_links(path, rt->link_pool + rt->entries[h.v[i]].off, rt->entries[h.v[i]].nids);
    for (size_t i = h.n; i-- > 0;)
      for (size_t k = 0; k < rt->entries[h.v[i]].nids; k++)
        path->latency += rt->lat_pool[rt->entries[h.v[i]].off + k];
  } else {
    for (size_t i = 0; rc == 0 && i < h.n; i++)
      append_entry(rt, path, h.v[i]);
  }
  hops_free(&h);
  return rc;
}

/* a bypass route of z applying to src -> dst: the entry, or -1 */
static int32_t find_bypass(const route_table *rt, const plat_zone *z, const plat_point *src,
                           const plat_point *dst, const plat_zone *zs, const plat_zone *zd)
{
  uint32_t zi = (uint32_t)z->index;
  if (zs == z && zd == z) {
    int64_t a = np_of(rt, src), b = np_of(rt, dst);
    if (a < 0 || b < 0)
      return -1;
    return hash_get(&rt->bypass, zi, (uint32_t)a, (uint32_t)b);
  }
  /* the zones around each end, innermost first, up to z itself */
  const plat_zone *S[MAX_DEPTH], *D[MAX_DEPTH];
  size_t ns = 0, nd = 0;
  for (const plat_zone *w = zs; ns < MAX_DEPTH; w = w->parent) {
    S[ns++] = w;
    if (w == z)
      break;
  }
  for (const plat_zone *w = zd; nd < MAX_DEPTH; w = w->parent) {
    D[nd++] = w;
    if (w == z)
      break;
  }
  size_t nz = rt->p->nhosts + rt->p->nrouters;
#define TRY(i, j)                                                        \
  do {                                                                   \
    int32_t e_ = hash_get(&rt->bypass, zi, (uint32_t)(nz + S[i]->index), \
                          (uint32_t)(nz + D[j]->index));                 \
    if (e_ >= 0)                                                         \
      return e_;                                                         \
  } while (0)
  size_t top = ns > nd ? ns : nd;
  for (size_t lvl = 0; lvl < top; lvl++) {
    for (size_t i = 0; i < lvl; i++) {
      if (i < ns && lvl < nd)
        TRY(i, lvl);
      if (lvl < ns && i < nd)
        TRY(lvl, i);
    }
    if (lvl < ns && lvl < nd)
      TRY(lvl, lvl);
  }
#undef TRY
  return -1;
}

/* Between two sub-zones (or a sub-zone and a host) of a Vivaldi zone, as SimGrid: a sub-zone
 * Z is entered at its router "router_Z", which has coordinates; the Vivaldi part's latency
 * counts first, then src -> gateway, the private links of host ends, gateway -> dst. */
static int vivaldi_zones(rt_ctx *x, const plat_zone *z, const plat_point *src,
                         const plat_point *dst, const plat_zone *ca, const plat_zone *cb,
                         route_path *path)
{
  const plat_zone *sub[2] = {ca, cb};
  const plat_point *end[2] = {src, dst};
  plat_point gw[2];
  const double *co[2];
  for (int i = 0; i < 2; i++) {
    if (!sub[i]) {
      if (end[i]->kind != PLAT_POINT_HOST || !end[i]->u.host->has_coords)
        return rt_fail(x, z, "Vivaldi zone '%s' routes between hosts with coordinates only",
                       z->id);
      gw[i] = *end[i];
      co[i] = end[i]->u.host->coords;
      continue;
    }
    char name[300];
    snprintf(name, sizeof name, "router_%s", sub[i]->id);
    plat_router *r = plat_find_router(x->rt->p, name);
    if (!r || !r->has_coords)
      return rt_fail(x, z,
                     "Vivaldi zone '%s': its sub-zone '%s' is entered at a router '%s' with "
                     "coordinates, which the platform lacks",
                     z->id, sub[i]->id, name);
    gw[i] = (plat_point){.kind = PLAT_POINT_ROUTER, .u.router = r};
    co[i] = r->coords;
  }
  path->latency += rt_vivaldi_latency(co[0], co[1]);
  if (ca && global_route(x, src, &gw[0], path) != 0)
    return -1;
  route_path links;
  route_path_init(&links);
  rt_vivaldi_links(x->rt, &gw[0], &gw[1], &links);
  path_append_links(path, links.links, links.count);
  route_path_free(&links);
  if (cb && global_route(x, &gw[1], dst, path) != 0)
    return -1;
  return 0;
}

static int global_route(rt_ctx *x, const plat_point *src, const plat_point *dst, route_path *path)
{
  const route_table *rt = x->rt;
  const plat_zone *zs = plat_point_zone(src), *zd = plat_point_zone(dst);
  if (++x->depth > MAX_DEPTH)
    return rt_fail(x, zs, "the zone routes recurse more than %d times (a gateway loop?)",
                   MAX_DEPTH);
  /* deepest common zone, and the children of it holding each end */
  size_t ds = 0, dd = 0;
  for (const plat_zone *w = zs; w; w = w->parent)
    ds++;
  for (const plat_zone *w = zd; w; w = w->parent)
    dd++;
  const plat_zone *a = zs, *b = zd, *ca = NULL, *cb = NULL;
  for (; ds > dd; ds--)
    ca = a, a = a->parent;
  for (; dd > ds; dd--)
    cb = b, b = b->parent;
  while (a != b) {
    ca = a, a = a->parent;
    cb = b, b = b->parent;
  }
  const plat_zone *z = a;
  ASSERT(z != NULL);

  if (rt->has_bypass[z->index]) {
    int32_t e = find_bypass(rt, z, src, dst, zs, zd);
    if (e >= 0) {
      const rt_entry *en = &rt->entries[e];
      if (en->r->kind == PLAT_BYPASS_ROUTE) {
        append_entry(rt, path, e);
      } else {
        if (global_route(x, src, rt_gw_src(en), path) != 0)
          return -1;
        append_entry(rt, path, e);
        if (global_route(x, rt_gw_dst(en), dst, path) != 0)
          return -1;
      }
      x->depth--;
      return 0;
    }
  }
  if (!ca && !cb) {
    int rc = leaf_route(x, z, src, dst, path);
    x->depth--;
    return rc;
  }
  if (z->routing == PLAT_ROUTING_VIVALDI) {
    int rc = vivaldi_zones(x, z, src, dst, ca, cb, path);
    x->depth--;
    return rc;
  }
  if (!ca || !cb)
    return rt_fail(x, z, "zone '%s' holds both points and sub-zones", z->id);

  /* The links go src part, zone part, dst part; SimGrid counts the zone part's latency
   * first, and the sum of latencies must come out bit for bit the same. */
  plat_point pa = zone_point(ca), pb = zone_point(cb);
  hops h;
  hops_init(&h);
  route_path zp;
  route_path_init(&zp);
  zp.latency = path->latency;
  int rc = routed_hops(x, z, &pa, &pb, &h);
  for (size_t i = 0; rc == 0 && i < h.n; i++) {
    const rt_entry *en = &rt->entries[h.v[i]];
    if (i > 0 && !plat_point_equal(rt_gw_dst(&rt->entries[h.v[i - 1]]), rt_gw_src(en)))
      rc = global_route(x, rt_gw_dst(&rt->entries[h.v[i - 1]]), rt_gw_src(en), &zp);
    if (rc == 0)
      append_entry(rt, &zp, h.v[i]);
  }
  if (rc == 0) {
    const rt_entry *first = &rt->entries[h.v[0]], *last = &rt->entries[h.v[h.n - 1]];
    path->latency = zp.latency;
    if (!plat_point_equal(src, rt_gw_src(first)))
      rc = global_route(x, src, rt_gw_src(first), path);
    if (rc == 0)
      path_append_links(path, zp.links, zp.count);
    if (rc == 0 && !plat_point_equal(rt_gw_dst(last), dst))
      rc = global_route(x, rt_gw_dst(last), dst, path);
  }
  route_path_free(&zp);
  hops_free(&h);
  x->depth--;
  return rc;
}

int route_get(const route_table *rt, size_t src, size_t dst, route_path *path, char *err,
              size_t errlen)
{
  ASSERTF(src < rt->nhosts && dst < rt->nhosts, "hosts %zu, %zu of %zu", src, dst, rt->nhosts);
  plat_point a = plat_host_at(rt->p, src), b = plat_host_at(rt->p, dst);
  rt_ctx x = {rt, &a, &b, err, errlen, 0};
  size_t mark = path->count;
  double lat = path->latency;
  if (global_route(&x, &a, &b, path) != 0) {
    path->count = mark;
    path->latency = lat;
    return -1;
  }
  if (path->count == mark && !(path->latency > lat && src != dst)) {
    /* (a Vivaldi zone's route may be latency only: SimGrid runs it, the message then pays
     * the latency and no bandwidth) SimGrid gives no link here (e.g. a TORUS host to itself without loopback nor
     * limiter) and then refuses to communicate; a message to oneself gets the model
     * loopback instead. Between two hosts, an empty route is an error. */
    if (src == dst) {
      rt_path_push(path, rt->loopback_id, rt->loop_lat);
      return 0;
    }
    rt_fail(&x, plat_point_zone(&a), "the route between them crosses no link");
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Building
 * ---------------------------------------------------------------------------------------- */

static bool route_is_zone_kind(const plat_route *r)
{
  return r->kind == PLAT_ZONE_ROUTE || r->kind == PLAT_BYPASS_ZONE_ROUTE;
}

static void make_entry(route_table *rt, const plat_route *r, bool reversed, rt_entry *e)
{
  e->r = r;
  e->reversed = reversed;
  e->nids = (uint32_t)r->nlinks;
  e->off = (uint32_t)rt->npool;
  rt->npool += r->nlinks;
  uint32_t *ids = rt->link_pool + e->off;
  double *lats = rt->lat_pool + e->off;
  for (size_t i = 0; i < r->nlinks; i++) {
    plat_link_ref ref = r->links[reversed ? r->nlinks - 1 - i : i];
    if (reversed && ref.dir != PLAT_DIR_NONE)
      ref.dir = ref.dir == PLAT_DIR_UP ? PLAT_DIR_DOWN : PLAT_DIR_UP;
    ids[i] = rt_ref_id(rt, &ref);
    lats[i] = rt_link_latency(rt, ids[i]);
  }
}

static const char *route_elem(const plat_route *r)
{
  switch (r->kind) {
  case PLAT_ROUTE:
    return "route";
  case PLAT_ZONE_ROUTE:
    return "zoneRoute";
  case PLAT_BYPASS_ROUTE:
    return "bypassRoute";
  case PLAT_BYPASS_ZONE_ROUTE:
    return "bypassZoneRoute";
  }
  UNREACHABLE();
}

/* A gateway SimGrid does not create: the router of a non-FLAT cluster. */
static bool phantom_router(const plat_point *pt)
{
  if (pt->kind != PLAT_POINT_ROUTER || !pt->u.router->generated)
    return false;
  const plat_zone *z = pt->u.router->zone;
  return z->cluster && !z->cluster->flat;
}

static int add_entries(route_table *rt, char *err, size_t errlen)
{
  const plat_platform *p = rt->p;
  size_t total = 0, nlinks = 0;
  for (size_t zi = 0; zi < p->nzones; zi++) {
    for (size_t k = 0; k < p->zones[zi]->nroutes; k++) {
      const plat_route *r = p->zones[zi]->routes[k];
      size_t ways = r->symmetrical && !plat_point_equal(&r->src, &r->dst) ? 2 : 1;
      total += ways;
      nlinks += ways * r->nlinks;
    }
  }
  if (nlinks >= UINT32_MAX)
    return build_fail(err, errlen, p, p->root->loc, "the routes list more than %u links in all",
                      UINT32_MAX - 1);
  rt->entries = xcalloc(total ? total : 1, sizeof *rt->entries);
  rt->link_pool = xmalloc((nlinks ? nlinks : 1) * sizeof *rt->link_pool);
  rt->lat_pool = xmalloc((nlinks ? nlinks : 1) * sizeof *rt->lat_pool);
  char na[256], nb[256], nc[256], nd[256];
  for (size_t zi = 0; zi < p->nzones; zi++) {
    const plat_zone *z = p->zones[zi];
    for (size_t k = 0; k < z->nroutes; k++) {
      const plat_route *r = z->routes[k];
      bool bypass = r->kind == PLAT_BYPASS_ROUTE || r->kind == PLAT_BYPASS_ZONE_ROUTE;
      if (!bypass && (z->routing == PLAT_ROUTING_CLUSTER || z->routing == PLAT_ROUTING_STAR ||
                      z->routing == PLAT_ROUTING_NONE || z->routing == PLAT_ROUTING_VIVALDI))
        return build_fail(err, errlen, p, r->loc,
                          "%s %s -> %s: zone '%s' has routing %s, which takes no declared "
                          "routes%s",
                          route_elem(r), pname(&r->src, na, sizeof na),
                          pname(&r->dst, nb, sizeof nb), z->id, plat_routing_name(z->routing),
                          z->routing == PLAT_ROUTING_NONE      ? ""
                          : z->routing == PLAT_ROUTING_VIVALDI ? " (coordinates give the routes)"
                                                               : " (hosts reach the backbone "
                                                                 "through <host_link>)");
      if (route_is_zone_kind(r)) { /* the loader checks these; a broken one would loop */
        const plat_point *ends[2][2] = {{&r->src, &r->gw_src}, {&r->dst, &r->gw_dst}};
        for (int i = 0; i < 2; i++) {
          const plat_zone *sub = ends[i][0]->u.zone, *w = plat_point_zone(ends[i][1]);
          while (w && w != sub)
            w = w->parent;
          if (ends[i][0]->kind != PLAT_POINT_ZONE || !w ||
              (r->kind == PLAT_ZONE_ROUTE && sub->parent != z))
            return build_fail(err, errlen, p, r->loc,
                              "%s %s -> %s: gateway '%s' is not inside zone '%s', or that zone "
                              "is not a sub-zone of '%s'",
                              route_elem(r), pname(&r->src, na, sizeof na),
                              pname(&r->dst, nb, sizeof nb), pname(ends[i][1], nc, sizeof nc),
                              ends[i][0]->kind == PLAT_POINT_ZONE ? sub->id : "?", z->id);
        }
      }
      if (route_is_zone_kind(r) && (phantom_router(&r->gw_src) || phantom_router(&r->gw_dst))) {
        const plat_point *gw = phantom_router(&r->gw_src) ? &r->gw_src : &r->gw_dst;
        const plat_zone *cz = gw->u.router->zone;
        return build_fail(err, errlen, p, r->loc,
                          "%s %s -> %s: gateway '%s' is the router of %s cluster '%s', which "
                          "SimGrid does not create (only FLAT clusters have one): use one of "
                          "the cluster's hosts as gateway",
                          route_elem(r), pname(&r->src, na, sizeof na),
                          pname(&r->dst, nb, sizeof nb), gw->u.router->id, cz->cluster->topology,
                          cz->id);
      }
      if (r->kind == PLAT_BYPASS_ROUTE) {
        const plat_point *ends[2] = {&r->src, &r->dst};
        for (int i = 0; i < 2; i++)
          if (plat_point_zone(ends[i]) != z)
            return build_fail(err, errlen, p, r->loc,
                              "bypassRoute %s -> %s: '%s' is in zone '%s', not directly in "
                              "zone '%s' where the bypass is declared, so it would never "
                              "apply; between sub-zones, use <bypassZoneRoute>",
                              pname(&r->src, na, sizeof na), pname(&r->dst, nb, sizeof nb),
                              pname(ends[i], nc, sizeof nc), plat_point_zone(ends[i])->id, z->id);
      }
      bool twoway = r->symmetrical && !plat_point_equal(&r->src, &r->dst);
      for (int rev = 0; rev <= (int)twoway; rev++) {
        rt_entry *e = &rt->entries[rt->nentries];
        make_entry(rt, r, rev, e);
        int64_t a = np_of(rt, rt_src(e)), b = np_of(rt, rt_dst(e));
        ASSERT(a >= 0 && b >= 0);
        bool fresh;
        int32_t *slot = hash_slot(bypass ? &rt->bypass : &rt->decl, (uint32_t)zi, (uint32_t)a,
                                  (uint32_t)b, &fresh);
        if (!fresh) {
          const rt_entry *o = &rt->entries[*slot];
          return build_fail(
              err, errlen, p, r->loc,
              "%s %s -> %s: a route from '%s' to '%s' is already declared at %s:%" PRIu32 "%s",
              route_elem(r), pname(&r->src, na, sizeof na), pname(&r->dst, nb, sizeof nb),
              pname(rt_src(e), nc, sizeof nc), pname(rt_dst(e), nd, sizeof nd),
              plat_loc_file(p, o->r->loc), o->r->loc.line,
              rev || o->reversed ? " (routes are symmetrical unless symmetrical=\"NO\")" : "");
        }
        *slot = (int32_t)rt->nentries++;
        if (bypass)
          rt->has_bypass[zi] = true;
      }
    }
  }
  return 0;
}

static int cmp_loc_points(const void *x, const void *y)
{
  const plat_point *a = x, *b = y;
  plat_loc la = a->kind == PLAT_POINT_HOST ? a->u.host->loc : a->u.router->loc;
  plat_loc lb = b->kind == PLAT_POINT_HOST ? b->u.host->loc : b->u.router->loc;
  if (la.file != lb.file)
    return la.file < lb.file ? -1 : 1;
  if (la.line != lb.line)
    return la.line < lb.line ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind == PLAT_POINT_HOST ? -1 : 1;
  size_t ia = a->kind == PLAT_POINT_HOST ? a->u.host->index : a->u.router->index;
  size_t ib = b->kind == PLAT_POINT_HOST ? b->u.host->index : b->u.router->index;
  return ia < ib ? -1 : ia > ib;
}

/* Floyd-Warshall over the zone's declared routes (weights: number of links). */
static void build_floyd(route_table *rt, const plat_zone *z)
{
  rt_zone *zr = &rt->zones[z->index];
  size_t n;
  plat_point *comp;
  if (z->nchildren) {
    n = z->nchildren;
    comp = xmalloc(n * sizeof *comp);
    for (size_t i = 0; i < n; i++)
      comp[i] = zone_point(z->children[i]);
  } else {
    /* SimGrid numbers a zone's hosts and routers in document order; ties between equal
     * paths go to the lowest number */
    n = z->nhosts + z->nrouters;
    comp = xcalloc(n ? n : 1, sizeof *comp);
    for (size_t i = 0; i < z->nhosts; i++)
      comp[i].kind = PLAT_POINT_HOST, comp[i].u.host = z->hosts[i];
    for (size_t i = 0; i < z->nrouters; i++)
      comp[z->nhosts + i].kind = PLAT_POINT_ROUTER, comp[z->nhosts + i].u.router = z->routers[i];
    qsort(comp, n, sizeof *comp, cmp_loc_points);
  }
  for (size_t i = 0; i < n; i++)
    rt->np_slot[np_of(rt, &comp[i])] = (int32_t)i;
  free(comp);
  zr->n = n;
  zr->cost = xmalloc((n ? n * n : 1) * sizeof *zr->cost);
  zr->pred = xmalloc((n ? n * n : 1) * sizeof *zr->pred);
  zr->via = xmalloc((n ? n * n : 1) * sizeof *zr->via);
  for (size_t i = 0; i < n * n; i++) {
    zr->cost[i] = UINT32_MAX;
    zr->pred[i] = -1;
    zr->via[i] = -1;
  }
  for (size_t e = 0; e < rt->nentries; e++) {
    const rt_entry *en = &rt->entries[e];
    if (en->r->zone != z || en->r->kind == PLAT_BYPASS_ROUTE ||
        en->r->kind == PLAT_BYPASS_ZONE_ROUTE)
      continue;
    size_t i = (size_t)rt->np_slot[np_of(rt, rt_src(en))];
    size_t j = (size_t)rt->np_slot[np_of(rt, rt_dst(en))];
    if (i == j)
      continue;
    zr->cost[i * n + j] = en->nids;
    zr->pred[i * n + j] = (int32_t)i;
    zr->via[i * n + j] = (int32_t)e;
  }
  for (size_t k = 0; k < n; k++)
    for (size_t i = 0; i < n; i++) {
      uint32_t ik = zr->cost[i * n + k];
      if (ik == UINT32_MAX)
        continue;
      for (size_t j = 0; j < n; j++) {
        uint32_t kj = zr->cost[k * n + j];
        if (kj == UINT32_MAX || i == j)
          continue;
        if (zr->cost[i * n + j] == UINT32_MAX || ik + kj < zr->cost[i * n + j]) {
          zr->cost[i * n + j] = ik + kj;
          zr->pred[i * n + j] = zr->pred[k * n + j];
        }
      }
    }
}

/* The graph of the zone's declared routes: nodes in order of first appearance (src before
 * dst), edges in declaration order with each symmetrical route's reverse right after it. */
static void build_dijkstra(route_table *rt, const plat_zone *z)
{
  rt_zone *zr = &rt->zones[z->index];
  size_t nn = 0;
  size_t first = SIZE_MAX, last = 0; /* this zone's entries are contiguous */
  for (size_t e = 0; e < rt->nentries; e++) {
    const rt_entry *en = &rt->entries[e];
    if (en->r->zone != z || en->r->kind == PLAT_BYPASS_ROUTE ||
        en->r->kind == PLAT_BYPASS_ZONE_ROUTE)
      continue;
    if (first == SIZE_MAX)
      first = e;
    last = e;
    const plat_point *ends[2] = {rt_src(en), rt_dst(en)};
    for (int k = 0; k < 2; k++) {
      int64_t np = np_of(rt, ends[k]);
      if (rt->np_slot[np] < 0)
        rt->np_slot[np] = (int32_t)nn++;
    }
  }
  zr->nnodes = nn;
  zr->adj_start = xcalloc(nn + 1, sizeof *zr->adj_start);
  size_t nedges = 0;
  for (size_t e = first; first != SIZE_MAX && e <= last; e++) {
    const rt_entry *en = &rt->entries[e];
    if (en->r->zone != z || en->r->kind == PLAT_BYPASS_ROUTE ||
        en->r->kind == PLAT_BYPASS_ZONE_ROUTE || plat_point_equal(rt_src(en), rt_dst(en)))
      continue;
    zr->adj_start[rt->np_slot[np_of(rt, rt_src(en))] + 1]++;
    nedges++;
  }
  for (size_t i = 0; i < nn; i++)
    zr->adj_start[i + 1] += zr->adj_start[i];
  zr->adj_to = xmalloc((nedges ? nedges : 1) * sizeof *zr->adj_to);
  zr->adj_entry = xmalloc((nedges ? nedges : 1) * sizeof *zr->adj_entry);
  size_t *fill = xcalloc(nn ? nn : 1, sizeof *fill);
  for (size_t e = first; first != SIZE_MAX && e <= last; e++) {
    const rt_entry *en = &rt->entries[e];
    if (en->r->zone != z || en->r->kind == PLAT_BYPASS_ROUTE ||
        en->r->kind == PLAT_BYPASS_ZONE_ROUTE || plat_point_equal(rt_src(en), rt_dst(en)))
      continue;
    size_t s = (size_t)rt->np_slot[np_of(rt, rt_src(en))];
    size_t k = zr->adj_start[s] + fill[s]++;
    zr->adj_to[k] = rt->np_slot[np_of(rt, rt_dst(en))];
    zr->adj_entry[k] = (int32_t)e;
  }
  free(fill);
  if (z->routing == PLAT_ROUTING_DIJKSTRA_CACHE)
    zr->cache = xcalloc(nn ? nn : 1, sizeof *zr->cache);
}

static int check_zone(route_table *rt, const plat_zone *z, char *err, size_t errlen)
{
  const plat_platform *p = rt->p;
  if ((z->routing == PLAT_ROUTING_CLUSTER || z->routing == PLAT_ROUTING_STAR) && !z->cluster &&
      z->nchildren)
    return build_fail(err, errlen, p, z->loc,
                      "zone '%s' has routing %s but contains sub-zones ('%s'): such a zone "
                      "routes its own hosts only; use Full, Floyd or Dijkstra to connect zones",
                      z->id, plat_routing_name(z->routing), z->children[0]->id);
  for (size_t i = 0; i < z->nhost_links; i++) {
    const plat_host_link *hl = &z->host_links[i];
    if (hl->host->zone != z)
      return build_fail(err, errlen, p, hl->loc,
                        "host_link '%s': host '%s' is in zone '%s', not in zone '%s'",
                        hl->host->id, hl->host->id, hl->host->zone->id, z->id);
    rt->host_link_of[hl->host->index] = hl;
  }
  return 0;
}

void route_table_free(route_table *rt)
{
  if (!rt)
    return;
  for (size_t i = 0; i < rt->nclusters; i++)
    rt_cluster_free(&rt->clusters[i]);
  free(rt->clusters);
  free(rt->cluster_of_zone);
  free(rt->explicit_dense);
  free(rt->explicit_link_base);
  free(rt->np_slot);
  free(rt->entries);
  free(rt->link_pool);
  free(rt->lat_pool);
  hash_free(&rt->decl);
  hash_free(&rt->bypass);
  free(rt->has_bypass);
  if (rt->zones) {
    for (size_t i = 0; i < rt->p->nzones; i++) {
      rt_zone *zr = &rt->zones[i];
      free(zr->cost);
      free(zr->pred);
      free(zr->via);
      free(zr->adj_start);
      free(zr->adj_to);
      free(zr->adj_entry);
      if (zr->cache) {
        for (size_t k = 0; k < zr->nnodes; k++) {
          if (zr->cache[k]) {
            free(zr->cache[k]->pred);
            free(zr->cache[k]);
          }
        }
        free(zr->cache);
      }
    }
    free(rt->zones);
  }
  free(rt->host_link_of);
  free(rt);
}

int route_table_build(const plat_platform *p, route_table **out, char *err, size_t errlen)
{
  *out = NULL;
  route_declare_config();
  route_table *rt = xcalloc(1, sizeof *rt);
  rt->p = p;
  rt->loop_bw = cfg_get_double("network/loopback-bw");
  rt->loop_lat = cfg_get_double("network/loopback-lat");

  /* hosts: explicit ones by their dense index, clusters by their first rank's */
  rt->nhosts = plat_host_count(p);
  rt->explicit_dense = xcalloc(p->nhosts ? p->nhosts : 1, sizeof *rt->explicit_dense);
  rt->nclusters = p->nclusters;
  rt->clusters = xcalloc(p->nclusters ? p->nclusters : 1, sizeof *rt->clusters);
  rt->cluster_of_zone = xmalloc((p->nzones ? p->nzones : 1) * sizeof *rt->cluster_of_zone);
  for (size_t i = 0; i < p->nzones; i++)
    rt->cluster_of_zone[i] = -1;
  for (size_t i = 0; i < p->nclusters; i++) {
    rt->clusters[i].zone = p->clusters[i];
    rt->clusters[i].c = p->clusters[i]->cluster;
    rt->clusters[i].index = i;
    rt->cluster_of_zone[p->clusters[i]->index] = (int32_t)i;
  }
  for (size_t i = 0; i < rt->nhosts;) {
    plat_point pt = plat_host_at(p, i);
    if (pt.kind == PLAT_POINT_HOST) {
      rt->explicit_dense[pt.u.host->index] = i++;
    } else {
      rt_cluster *cl = &rt->clusters[rt->cluster_of_zone[pt.u.zone->index]];
      cl->host_start = i - pt.rank;
      i += cl->c->count - pt.rank;
    }
  }

  /* link ids */
  rt->explicit_link_base = xmalloc((p->nlinks ? p->nlinks : 1) * sizeof *rt->explicit_link_base);
  uint64_t next = 0;
  for (size_t i = 0; i < p->nlinks; i++) {
    rt->explicit_link_base[i] = (uint32_t)next;
    next += p->links[i]->sharing == PLAT_SHARING_SPLITDUPLEX ? 2 : 1;
  }
  rt->n_explicit_ids = (uint32_t)next;
  for (size_t i = 0; i < p->nclusters; i++) {
    rt_cluster *cl = &rt->clusters[i];
    if (rt_cluster_layout(cl, err, errlen) != 0) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s", err);
      build_fail(err, errlen, p, cl->zone->loc, "%s", msg);
      route_table_free(rt);
      return -1;
    }
    cl->base = (uint32_t)next;
    next += cl->count;
    if (next >= UINT32_MAX - 1) {
      build_fail(err, errlen, p, cl->zone->loc, "more than %u links in the platform",
                 UINT32_MAX - 2);
      route_table_free(rt);
      return -1;
    }
  }
  rt->loopback_id = (uint32_t)next;
  rt->nlinks = (uint32_t)next + 1;

  /* zones and declared routes */
  rt->nnp = p->nhosts + p->nrouters + p->nzones;
  rt->np_slot = xmalloc((rt->nnp ? rt->nnp : 1) * sizeof *rt->np_slot);
  for (size_t i = 0; i < rt->nnp; i++)
    rt->np_slot[i] = -1;
  rt->has_bypass = xcalloc(p->nzones ? p->nzones : 1, sizeof *rt->has_bypass);
  rt->zones = xcalloc(p->nzones ? p->nzones : 1, sizeof *rt->zones);
  rt->host_link_of = xcalloc(p->nhosts ? p->nhosts : 1, sizeof *rt->host_link_of);
  for (size_t i = 0; i < p->nzones; i++) {
    if (check_zone(rt, p->zones[i], err, errlen) != 0) {
      route_table_free(rt);
      return -1;
    }
  }
  if (add_entries(rt, err, errlen) != 0) {
    route_table_free(rt);
    return -1;
  }
  for (size_t i = 0; i < p->nzones; i++) {
    const plat_zone *z = p->zones[i];
    if (z->routing == PLAT_ROUTING_FLOYD)
      build_floyd(rt, z);
    else if (z->routing == PLAT_ROUTING_DIJKSTRA || z->routing == PLAT_ROUTING_DIJKSTRA_CACHE)
      build_dijkstra(rt, z);
  }
  *out = rt;
  return 0;
}
