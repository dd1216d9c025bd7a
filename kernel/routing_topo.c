/* What a <cluster> generates, whatever its topology, and routing="Cluster" zones built with
 * <host_link>/<backbone>. The topologies themselves (FLAT, FAT_TREE, TORUS, DRAGONFLY: link
 * layout, names and routes) are kernel/topo_*.c behind the operations of kernel/topo.h;
 * this file gives each cluster its ids (topology links, then limiters, loopbacks, backbone:
 * rt_cluster in routing_private.h), names the links the topology does not own, and looks
 * a route up: the loopback of a host to itself, the check that a non-FLAT cluster's router
 * is no route end (SimGrid does not create it), then the topology's route. Everything is
 * arithmetic on the host ranks: nothing is stored per host or per generated link.
 *
 * The names and hop sequences are SimGrid 3.32's, as observed with Host::route_to on many
 * platforms (recorded in the .routes files of tests/data/routing, which
 * tests/check_routing.c compares with ours route by route). */
#include "kernel/topo.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "src/invariant.h"

/* ------------------------------------------------------------------------------------------
 * The table of topologies
 * ---------------------------------------------------------------------------------------- */

#define RT_TOPO_ENTRY(name) &rt_topo_##name,
static const rt_topo *const topologies[] = {RT_TOPOLOGIES(RT_TOPO_ENTRY)};
#undef RT_TOPO_ENTRY
#define NTOPOLOGIES (sizeof topologies / sizeof topologies[0])

const rt_topo *rt_topo_find(const char *name)
{
  for (size_t i = 0; i < NTOPOLOGIES; i++)
    if (strcmp(topologies[i]->name, name) == 0)
      return topologies[i];
  return NULL;
}

void rt_topo_names(char *buf, size_t len)
{
  size_t used = 0;
  if (len)
    buf[0] = '\0';
  for (size_t i = 0; i < NTOPOLOGIES && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", topologies[i]->name);
}

void rt_topo_declare_config(void)
{
  for (size_t i = 0; i < NTOPOLOGIES; i++)
    if (topologies[i]->declare_config)
      topologies[i]->declare_config();
}

void rt_topo_part_text(const plat_cluster *c, size_t i, char *buf, size_t len)
{
  size_t n, used = 0;
  const unsigned *v = rt_topo_part(c, i, &n);
  if (len)
    buf[0] = '\0';
  for (size_t k = 0; k < n && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%u", k ? "," : "", v[k]);
}

/* ------------------------------------------------------------------------------------------
 * Layouts
 * ---------------------------------------------------------------------------------------- */

int rt_cluster_layout(rt_cluster *cl, char *err, size_t errlen)
{
  const plat_cluster *c = cl->c;
  const char *id = cl->zone->id;
  size_t n = c->count;
  char msg[768];
  cl->topology = rt_topo_find(c->topology);
  if (!cl->topology) {
    char names[256];
    rt_topo_names(names, sizeof names);
    snprintf(err, errlen, "cluster '%s': unknown topology '%s'; expected one of %s", id,
             c->topology, names);
    return -1;
  }
  if (cl->topology->parse(cl, msg, sizeof msg) != 0) {
    snprintf(err, errlen, "cluster '%s': %s", id, msg);
    return -1;
  }
  if (cl->topo_hosts != 0 && cl->topo_hosts != n) {
    snprintf(err, errlen,
             "cluster '%s': topo_parameters '%s' describe %" PRIu64 " hosts (%s) but radical "
             "'%s' gives %zu",
             id, c->topo_parameters, cl->topo_hosts, c->topology, c->radical, n);
    return -1;
  }
  if (cl->topology->layout(cl, msg, sizeof msg) != 0) {
    snprintf(err, errlen, "cluster '%s': %s", id, msg);
    return -1;
  }
  cl->split = c->sharing == PLAT_SHARING_SPLITDUPLEX ? 2 : 1;
  cl->ntopo = cl->nuids * cl->split;
  cl->nlim = c->has_limiter ? n + cl->nswitches : 0;
  uint64_t off = cl->ntopo;
  cl->off_lim = cl->off_loop = cl->off_bb = RT_NONE;
  if (c->has_limiter) {
    cl->off_lim = (uint32_t)off;
    off += cl->nlim;
  }
  if (c->has_loopback) {
    cl->off_loop = (uint32_t)off;
    off += n;
  }
  if (c->has_backbone && c->flat) {
    cl->off_bb = (uint32_t)off;
    off += 1;
  }
  if (off >= UINT32_MAX / 2) {
    snprintf(err, errlen, "cluster '%s' generates %" PRIu64 " links: too many", id, off);
    return -1;
  }
  cl->count = (uint32_t)off;
  return 0;
}

void rt_cluster_free(rt_cluster *cl)
{
  if (cl->topology && cl->topology->free_state)
    cl->topology->free_state(cl);
  cl->topo = NULL;
}

/* ------------------------------------------------------------------------------------------
 * Names and characteristics
 * ---------------------------------------------------------------------------------------- */

static const char *dir_suffix(const rt_cluster *cl, uint32_t rel)
{
  if (cl->split == 1)
    return "";
  return rel % 2 ? "_DOWN" : "_UP";
}

int rt_cluster_link_name(const rt_cluster *cl, uint32_t rel, char *buf, size_t len)
{
  const plat_cluster *c = cl->c;
  const char *id = cl->zone->id;
  if (rel < cl->ntopo)
    return cl->topology->link_name(cl, rel / cl->split, dir_suffix(cl, rel), buf, len);
  if (cl->off_lim != RT_NONE && rel >= cl->off_lim && rel < cl->off_lim + cl->nlim) {
    size_t k = rel - cl->off_lim;
    int64_t node;
    if (c->flat)
      node = plat_cluster_number(c, k);
    else if (k < c->count)
      node = (int64_t)k; /* SimGrid names topology limiters by node id: the rank */
    else
      node = 2 * (int64_t)c->count - 1 - (int64_t)(k - c->count);
    return snprintf(buf, len, "%s_link_%" PRId64 "_limiter", id, node);
  }
  if (cl->off_loop != RT_NONE && rel >= cl->off_loop && rel < cl->off_loop + c->count)
    return snprintf(buf, len, "%s_link_%" PRId64 "_loopback", id,
                    plat_cluster_number(c, rel - cl->off_loop));
  ASSERTF(rel == cl->off_bb, "link %u of cluster '%s' (%u links)", rel, id, cl->count);
  return snprintf(buf, len, "%s_backbone", id);
}

void rt_cluster_link_info(const rt_cluster *cl, uint32_t rel, double *bw, double *lat,
                          lmm_sharing *sharing)
{
  const plat_cluster *c = cl->c;
  if (rel < cl->ntopo) {
    /* SimGrid 3.32 creates these links SHARED even for sharing_policy="FATPIPE" (it ignores
     * the attribute); we honour FATPIPE on purpose: it is what the platform file says. */
    *sharing = c->sharing == PLAT_SHARING_FATPIPE ? LMM_FATPIPE : LMM_SHARED;
    *lat = c->lat;
    *bw = cl->topology->link_bw ? cl->topology->link_bw(cl, rel / cl->split) : c->bw;
    return;
  }
  if (cl->off_lim != RT_NONE && rel >= cl->off_lim && rel < cl->off_lim + cl->nlim) {
    *bw = c->limiter_bw, *lat = 0, *sharing = LMM_SHARED;
    return;
  }
  if (cl->off_loop != RT_NONE && rel >= cl->off_loop && rel < cl->off_loop + c->count) {
    *bw = c->loopback_bw, *lat = c->loopback_lat, *sharing = LMM_FATPIPE;
    return;
  }
  ASSERT(rel == cl->off_bb);
  *bw = c->bb_bw, *lat = c->bb_lat;
  *sharing = c->bb_sharing == PLAT_SHARING_FATPIPE ? LMM_FATPIPE : LMM_SHARED;
}

bool rt_topo_parse_int(const char *s, size_t len, int64_t *out)
{
  bool neg = len > 0 && s[0] == '-';
  size_t i = neg;
  if (i == len || len - i > 18)
    return false;
  int64_t v = 0;
  for (; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = neg ? -v : v;
  return true;
}

static bool ends_with(const char *s, size_t len, const char *suffix, size_t *stem)
{
  size_t sl = strlen(suffix);
  if (len < sl || memcmp(s + len - sl, suffix, sl) != 0)
    return false;
  *stem = len - sl;
  return true;
}

long rt_topo_confirm(const rt_cluster *cl, uint64_t rel, const char *name)
{
  if (rel >= cl->count)
    return -1;
  char buf[512];
  rt_cluster_link_name(cl, (uint32_t)rel, buf, sizeof buf);
  return strcmp(buf, name) == 0 ? (long)rel : -1;
}

long rt_topo_link_by_trailing_uid(const rt_cluster *cl, const char *name, size_t stem,
                                  uint64_t dir)
{
  size_t us = stem;
  int64_t v;
  while (us > 0 && name[us - 1] >= '0' && name[us - 1] <= '9')
    us--;
  if (us == 0 || us == stem || name[us - 1] != '_' ||
      !rt_topo_parse_int(name + us, stem - us, &v))
    return -1;
  return rt_topo_confirm(cl, (uint64_t)v * cl->split + dir, name);
}

long rt_cluster_link_by_name(const rt_cluster *cl, const char *name)
{
  const plat_cluster *c = cl->c;
  size_t len = strlen(name), stem, idlen = strlen(cl->zone->id);
  bool prefixed = len > idlen && strncmp(name, cl->zone->id, idlen) == 0;
  int64_t v;
  if (prefixed && strncmp(name + idlen, "_link_", 6) == 0) {
    const char *num = name + idlen + 6;
    size_t numlen, numstart = idlen + 6;
    if (ends_with(name, len, "_limiter", &stem) && cl->off_lim != RT_NONE) {
      if (stem <= numstart)
        return -1;
      numlen = stem - numstart;
      if (!rt_topo_parse_int(num, numlen, &v))
        return -1;
      if (c->flat) {
        char host[512];
        size_t rank;
        snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
        if (v < 0 || !plat_cluster_rank_of(c, host, &rank))
          return -1;
        return rt_topo_confirm(cl, cl->off_lim + rank, name);
      }
      /* hosts by rank, then switches/routers k named 2N-1-k */
      int64_t n = (int64_t)c->count;
      int64_t k = v >= 0 && v < n ? v : n + (2 * n - 1 - v);
      return k >= 0 && (uint64_t)k < cl->nlim
                 ? rt_topo_confirm(cl, cl->off_lim + (uint64_t)k, name)
                 : -1;
    }
    if (ends_with(name, len, "_loopback", &stem) && cl->off_loop != RT_NONE) {
      if (stem <= numstart)
        return -1;
      numlen = stem - numstart;
      char host[512];
      size_t rank;
      if (!rt_topo_parse_int(num, numlen, &v) || v < 0)
        return -1;
      snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
      if (!plat_cluster_rank_of(c, host, &rank))
        return -1;
      return rt_topo_confirm(cl, cl->off_loop + rank, name);
    }
  }
  if (prefixed && strcmp(name + idlen, "_backbone") == 0)
    return cl->off_bb != RT_NONE ? (long)cl->off_bb : -1;

  /* the topology's links: optional direction, then the topology's own names */
  uint64_t dir = 0;
  stem = len;
  if (cl->split == 2) {
    if (ends_with(name, len, "_UP", &stem))
      dir = 0;
    else if (ends_with(name, len, "_DOWN", &stem))
      dir = 1;
    else
      return -1;
  }
  return cl->topology->link_by_name(cl, name, stem, dir);
}

/* ------------------------------------------------------------------------------------------
 * Routes
 * ---------------------------------------------------------------------------------------- */

int rt_cluster_route(rt_ctx *x, const rt_cluster *cl, const plat_point *a, const plat_point *b,
                     route_path *path)
{
  const plat_cluster *c = cl->c;
  bool ah = a->kind == PLAT_POINT_CLUSTER_HOST, bh = b->kind == PLAT_POINT_CLUSTER_HOST;
  if (ah && bh && a->rank == b->rank && cl->off_loop != RT_NONE) {
    rt_path_push(path, cl->base + cl->off_loop + a->rank, c->loopback_lat);
    return 0;
  }
  if (!c->flat && (!ah || !bh)) {
    char name[256];
    plat_point_name(ah ? b : a, name, sizeof name);
    return rt_fail(x, cl->zone,
                   "'%s' is the router of %s cluster '%s', which SimGrid does not create: use "
                   "one of the cluster's hosts as gateway",
                   name, c->topology, cl->zone->id);
  }
  cl->topology->route(cl, a, b, path);
  return 0;
}

static bool ref_equal(const plat_link_ref *a, const plat_link_ref *b)
{
  return a->link == b->link && a->cluster == b->cluster && a->which == b->which &&
         a->rank == b->rank && a->dir == b->dir;
}

int rt_hostlink_route(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                      route_path *path)
{
  const route_table *rt = x->rt;
  const plat_host_link *ha = a->kind == PLAT_POINT_HOST ? rt->host_link_of[a->u.host->index]
                                                        : NULL;
  const plat_host_link *hb = b->kind == PLAT_POINT_HOST ? rt->host_link_of[b->u.host->index]
                                                        : NULL;
  if (ha) {
    uint32_t id = rt_ref_id(rt, &ha->up);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
  if (z->backbone) {
    uint32_t id = rt->explicit_link_base[z->backbone->index];
    rt_path_push(path, id, z->backbone->latency);
  }
  if (hb && !(plat_point_equal(a, b) && ref_equal(&hb->up, &hb->down))) {
    uint32_t id = rt_ref_id(rt, &hb->down);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
  return 0;
}
