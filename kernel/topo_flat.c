/* FLAT: SimGrid's plain cluster. Each host has a private link (uid = its rank), named after
 * the host's radical number, and the cluster may have a backbone and a router (both named
 * and handled by the generic cluster code, routing_topo.c):
 *
 *   a -> b   = [a_limiter] a_UP [backbone] b_DOWN [b_limiter]
 *   a -> a   = a_loopback if any, else the same as a -> b, except that the second half is
 *              dropped when up and down are one link (not SPLITDUPLEX)
 *   router   a -> router = [a_limiter] a_UP [backbone]; router -> b the other half
 *
 * topo_parameters are ignored (the loader warns). */
#include "kernel/topo.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int flat_parse(rt_cluster *cl, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  cl->topo_hosts = 0;
  return 0;
}

static int flat_layout(rt_cluster *cl, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  cl->nuids = cl->c->count;
  cl->nswitches = 0;
  return 0;
}

static int flat_link_name(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf,
                          size_t len)
{
  return snprintf(buf, len, "%s_link_%" PRId64 "%s", cl->zone->id,
                  plat_cluster_number(cl->c, uid), suffix);
}

/* <id>_link_<number>, then the direction */
static long flat_link_by_name(const rt_cluster *cl, const char *name, size_t stem, uint64_t dir)
{
  const plat_cluster *c = cl->c;
  size_t idlen = strlen(cl->zone->id), numstart = idlen + 6;
  if (strncmp(name, cl->zone->id, idlen) != 0 || strncmp(name + idlen, "_link_", 6) != 0)
    return -1;
  int64_t v;
  char host[512];
  size_t rank;
  if (stem <= numstart || !rt_topo_parse_int(name + numstart, stem - numstart, &v) || v < 0)
    return -1;
  snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
  if (!plat_cluster_rank_of(c, host, &rank))
    return -1;
  return rt_topo_confirm(cl, rank * cl->split + dir, name);
}

static void flat_route(const rt_cluster *cl, const plat_point *a, const plat_point *b,
                       route_path *path)
{
  const plat_cluster *c = cl->c;
  bool ah = a->kind == PLAT_POINT_CLUSTER_HOST, bh = b->kind == PLAT_POINT_CLUSTER_HOST;
  bool self = ah && bh && a->rank == b->rank;
  if (ah) {
    rt_topo_push_lim(path, cl, a->rank);
    rt_topo_push(path, cl, a->rank, false);
  }
  if (cl->off_bb != RT_NONE)
    rt_path_push(path, cl->base + cl->off_bb, c->bb_lat);
  /* to itself through a single (non-SPLITDUPLEX) private link, SimGrid keeps one crossing */
  if (bh && !(self && cl->split == 1)) {
    rt_topo_push(path, cl, b->rank, true);
    rt_topo_push_lim(path, cl, b->rank);
  }
}

const rt_topo rt_topo_flat = {
    .name = "FLAT",
    .parse = flat_parse,
    .layout = flat_layout,
    .link_name = flat_link_name,
    .link_by_name = flat_link_by_name,
    .route = flat_route,
};
