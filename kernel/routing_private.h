/* Private part of the routing module, shared by routing.c (table, ids, names, the global
 * route through zones, Full/Floyd/Dijkstra) and routing_topo.c (everything a <cluster> or a
 * routing="Cluster" zone generates: link layouts, names, and local routes), and the
 * topologies' files (kernel/topo.h). Nothing else includes it.
 *
 * Link ids, in this order (route_link_count() = the total):
 *
 *   explicit links, document order    L -> 1 id, or 2 (L_UP, L_DOWN) for SPLITDUPLEX
 *   per <cluster>, document order     [topology or private links] [limiters] [loopbacks]
 *                                      [backbone]   (see rt_cluster)
 *   the model-level loopback          "__loopback__"
 */
#ifndef SMPI_KERNEL_ROUTING_PRIVATE_H
#define SMPI_KERNEL_ROUTING_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/routing.h"

#define RT_NONE UINT32_MAX

typedef struct rt_topo rt_topo; /* a topology's operations (kernel/topo.h) */

/* What a <cluster> generates. Ids base .. base+count-1:
 *   [0, ntopo)                the topology's links (uid*split + dir; FLAT: the private
 *                             links, uid = rank)
 *   [off_lim, +nlim)          limiters: hosts by rank, then the topology's nswitches
 *                             switches / routers (FAT_TREE, DRAGONFLY: SimGrid gives them
 *                             limiters too)
 *   [off_loop, +hosts)        loopbacks by rank
 *   off_bb                    the backbone */
typedef struct rt_cluster {
  const plat_zone *zone;
  const plat_cluster *c;
  size_t index;      /* position in route_table.clusters */
  size_t host_start; /* dense index of rank 0 */
  uint32_t base, count;
  uint32_t split; /* 2 when the private/topology links are SPLITDUPLEX, else 1 */
  const rt_topo *topology;
  void *topo;                         /* the topology's own state (its parse allocates it) */
  uint64_t topo_hosts;                /* hosts the topo_parameters describe (0: any) */
  uint64_t nuids;                     /* the topology's links */
  size_t nswitches;                   /* its nodes other than hosts that get limiters */
  uint64_t ntopo;                     /* nuids * split */
  uint32_t off_lim, off_loop, off_bb; /* relative to base; RT_NONE when absent */
  size_t nlim;
} rt_cluster;

/* One declared route in one direction (a symmetrical route gives two). Its links, in
 * crossing order, are route_table.link_pool[off .. off+nids), and their latencies are
 * lat_pool[off ..] (latencies are summed link by link, as SimGrid does). Small on purpose:
 * a fully routed platform of n hosts declares n^2 of them. */
typedef struct rt_entry {
  const plat_route *r;
  uint32_t off, nids;
  bool reversed;
} rt_entry;

/* ends and gateways of an entry, after reversal */
static inline const plat_point *rt_src(const rt_entry *e)
{
  return e->reversed ? &e->r->dst : &e->r->src;
}
static inline const plat_point *rt_dst(const rt_entry *e)
{
  return e->reversed ? &e->r->src : &e->r->dst;
}
static inline const plat_point *rt_gw_src(const rt_entry *e)
{
  return e->reversed ? &e->r->gw_dst : &e->r->gw_src;
}
static inline const plat_point *rt_gw_dst(const rt_entry *e)
{
  return e->reversed ? &e->r->gw_src : &e->r->gw_dst;
}

/* Open addressing map (z, a, b) -> int32. */
typedef struct rt_hash {
  uint32_t *keys; /* 3 per slot; z == UINT32_MAX marks an empty slot */
  int32_t *vals;
  size_t cap, size;
} rt_hash;

typedef struct rt_dcache rt_dcache;

/* Routing data of a zone routed through its declared routes (Floyd, Dijkstra). */
typedef struct rt_zone {
  /* Floyd: components (hosts and routers of a leaf in document order, or sub-zones) */
  size_t n;
  uint32_t *cost;
  int32_t *pred, *via; /* via: entry of the direct route, -1 if none */
  /* Dijkstra: graph nodes in creation order (route declaration order) */
  size_t nnodes;
  size_t *adj_start; /* [nnodes+1] */
  int32_t *adj_to, *adj_entry;
  rt_dcache **cache; /* DijkstraCache: per source node, filled on demand */
} rt_zone;

struct route_table {
  const plat_platform *p;
  size_t nhosts;
  size_t *explicit_dense;       /* [p->nhosts] */
  uint32_t *explicit_link_base; /* [p->nlinks] */
  uint32_t n_explicit_ids;
  rt_cluster *clusters;
  size_t nclusters;
  int32_t *cluster_of_zone; /* [p->nzones] */
  uint32_t nlinks;
  uint32_t loopback_id;
  double loop_bw, loop_lat;
  size_t nnp;       /* netpoints: explicit hosts, routers, zones */
  int32_t *np_slot; /* Floyd component / Dijkstra node of a netpoint in its zone */
  rt_entry *entries;
  size_t nentries;
  uint32_t *link_pool;
  double *lat_pool;
  size_t npool;
  rt_hash decl;                        /* (zone, src, dst) -> entry, <route> and <zoneRoute> */
  rt_hash bypass;                      /* (zone, src, dst) -> entry, bypass routes */
  bool *has_bypass;                    /* [p->nzones] */
  rt_zone *zones;                      /* [p->nzones] */
  const plat_host_link **host_link_of; /* [p->nhosts] */
};

/* Per-call state of a route computation: where errors go. */
typedef struct rt_ctx {
  const route_table *rt;
  const plat_point *src, *dst; /* of the whole route: named only if it fails */
  char *err;
  size_t errlen;
  int depth;
} rt_ctx;

/* routing.c */
void rt_path_push(route_path *path, uint32_t id, double latency);
/* "no route from 'a' to 'b': <why> (<file>:<line>)" with z's location */
int rt_fail(rt_ctx *x, const plat_zone *z, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
uint32_t rt_ref_id(const route_table *rt, const plat_link_ref *ref);
double rt_link_latency(const route_table *rt, uint32_t id);

/* routing_topo.c */
void rt_topo_declare_config(void); /* every topology's keys */
int rt_cluster_layout(rt_cluster *cl, char *err, size_t errlen);
void rt_cluster_free(rt_cluster *cl);
int rt_cluster_link_name(const rt_cluster *cl, uint32_t rel, char *buf, size_t len);
void rt_cluster_link_info(const rt_cluster *cl, uint32_t rel, double *bw, double *lat,
                          lmm_sharing *sharing);
long rt_cluster_link_by_name(const rt_cluster *cl, const char *name);
/* route between two points of a cluster zone (its hosts, and its router for FLAT) */
int rt_cluster_route(rt_ctx *x, const rt_cluster *cl, const plat_point *a, const plat_point *b,
                     route_path *path);
/* route inside a routing="Cluster"/"Star" zone built with <host_link> and <backbone> */
/* A Vivaldi zone (kernel/routing_vivaldi.c): a's UP and b's DOWN private links, if any,
 * and the latency of their coordinates' distance. */
int rt_vivaldi_route(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                     route_path *path);
/* The pieces: latency (s) between two coordinates; a's UP and b's DOWN private links, if
 * they are hosts with some (the latencies of those links are added too). */
double rt_vivaldi_latency(const double a[3], const double b[3]);
void rt_vivaldi_links(const route_table *rt, const plat_point *a, const plat_point *b,
                      route_path *path);
int rt_hostlink_route(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                      route_path *path);

#endif
