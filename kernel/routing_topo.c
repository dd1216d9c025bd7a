/* Routing inside what a <cluster> generates (FLAT, FAT_TREE, TORUS, DRAGONFLY) and inside
 * routing="Cluster" zones built with <host_link>/<backbone>. Everything is arithmetic on the
 * host ranks: nothing is stored per host or per generated link.
 *
 * The names and hop sequences are SimGrid 3.32's, as observed with Host::route_to on many
 * platforms (recorded in the .routes files of tests/data/routing, which
 * tests/check_routing.c compares with ours route by route). The surprising parts:
 *
 *   FLAT      a -> b   = [a_limiter] a_UP [backbone] b_DOWN [b_limiter]
 *             a -> a   = a_loopback if any, else the same as a -> b, except that the second
 *                        half is dropped when up and down are one link (not SPLITDUPLEX)
 *   FAT_TREE  up: D-mod-K (parent port = (dst / (up_1..up_l)) mod (up_{l+1} count_{l+1}),
 *             port p = parent digit p % up + parallel link p / up); a host always takes at
 *             least one hop up, even to itself.
 *             down: SimGrid scans the child ports of the current switch from
 *             down_l * (src mod count_l) and takes every port whose digit matches the
 *             destination, *continuing the same scan* (same counter) in the child it moved
 *             to; when the counter runs past the child's port count a new scan starts. So
 *             the parallel link taken going down depends on the source and on where the
 *             previous scan stopped. Example "2;2,3;1,1;3,1" (hosts 0..5): n0 -> n2 goes
 *             down through link_from_2_10_7 (parallel link 1), n3 -> n2 through
 *             link_from_2_10_6 (parallel link 0).
 *             limiters: before each up link, the limiter of the node it leaves; after each
 *             down link, the limiter of the switch it leaves; the destination's at the end.
 *   TORUS     dimension order, x first; in a ring of n, go "up" (towards +1) iff
 *             (t > m and t <= m + n/2) or (m > n/2 and (m + n/2) mod n >= t), m and t the
 *             current and target coordinates, re-evaluated at each hop: in a ring of 4,
 *             0 -> 2 goes up but 2 -> 0 goes down and 3 -> 1 goes up.
 *   DRAGONFLY group g reaches group h through its router of local index h (chassis h / R,
 *             blade h % R); each in-group leg changes blade first (green) then chassis
 *             (black). SimGrid 3.32 forgets the chassis after a green hop in the last leg
 *             (it continues from chassis 0): a route n(1,2) -> n(0,0) inside a group has no
 *             black link, n(1,2) -> n(1,0) gets a spurious "chassis 0 and 1" one. Kept by
 *             default so that simulated times match; routing/dragonfly:minimal fixes it.
 *
 * Link-id layouts are described in routing_private.h (rt_cluster). */
#include "kernel/routing_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/mem.h"

static uint64_t pair_count(uint64_t n)
{
  return n * (n - 1) / 2;
}

/* index of pair (i, j), i < j < n, in lexicographic order */
static uint64_t pair_index(uint64_t i, uint64_t j, uint64_t n)
{
  return i * n - i * (i + 1) / 2 + (j - i - 1);
}

static void pair_unrank(uint64_t idx, uint64_t n, unsigned *i, unsigned *j)
{
  uint64_t a = 0;
  while (idx >= n - a - 1) {
    idx -= n - a - 1;
    a++;
  }
  *i = (unsigned)a;
  *j = (unsigned)(a + 1 + idx);
}

/* ------------------------------------------------------------------------------------------
 * Layouts
 * ---------------------------------------------------------------------------------------- */

static void ft_layout(rt_cluster *cl)
{
  const plat_cluster *c = cl->c;
  rt_ft *ft = &cl->ft;
  size_t L = c->topo.fat_tree.levels;
  ft->levels = L;
  ft->down = c->topo.fat_tree.down;
  ft->up = c->topo.fat_tree.up;
  ft->count = c->topo.fat_tree.count;
  ft->nodes = xcalloc(L + 1, sizeof *ft->nodes);
  ft->first_sw = xcalloc(L + 1, sizeof *ft->first_sw);
  ft->layer = xcalloc(L + 2, sizeof *ft->layer);
  ft->stride = xcalloc((L + 1) * (L + 2), sizeof *ft->stride);
  ft->upprod = xcalloc(L + 1, sizeof *ft->upprod);
  ft->nodes[0] = c->count;
  for (size_t l = 1; l <= L; l++)
    ft->nodes[l] = ft->nodes[l - 1] / ft->down[l - 1] * ft->up[l - 1];
  ft->upprod[0] = 1;
  for (size_t l = 1; l <= L; l++)
    ft->upprod[l] = ft->upprod[l - 1] * ft->up[l - 1];
  size_t sw = 0;
  for (size_t l = 1; l <= L; l++) {
    ft->first_sw[l] = sw;
    sw += ft->nodes[l];
  }
  ft->nswitches = sw;
  ft->layer[1] = 0;
  for (size_t l = 1; l <= L; l++)
    ft->layer[l + 1] =
        ft->layer[l] + (uint64_t)ft->nodes[l - 1] * ft->up[l - 1] * ft->count[l - 1];
  ft->nlinks = ft->layer[L + 1];
  for (size_t l = 0; l <= L; l++) {
    size_t s = 1;
    for (size_t k = 1; k <= L; k++) {
      ft->stride[l * (L + 2) + k] = s;
      s *= k <= l ? ft->up[k - 1] : ft->down[k - 1];
    }
    ft->stride[l * (L + 2) + L + 1] = s;
  }
}

/* weight of digit k for a node of level l (k = L+1: the node count of the level) */
static size_t ft_stride(const rt_ft *ft, size_t l, size_t k)
{
  return ft->stride[l * (ft->levels + 2) + k];
}

static int64_t ft_node_id(const rt_cluster *cl, size_t level, size_t pos)
{
  if (level == 0)
    return (int64_t)pos;
  return 2 * (int64_t)cl->c->count - 1 - (int64_t)(cl->ft.first_sw[level] + pos);
}

int rt_cluster_layout(rt_cluster *cl, bool df_quirk, char *err, size_t errlen)
{
  const plat_cluster *c = cl->c;
  size_t n = c->count;
  cl->split = c->sharing == PLAT_SHARING_SPLITDUPLEX ? 2 : 1;
  cl->nlim = c->has_limiter ? n : 0;
  switch (c->topology) {
  case PLAT_TOPO_FLAT:
    cl->ntopo = (uint64_t)n * cl->split;
    break;
  case PLAT_TOPO_FAT_TREE:
    ft_layout(cl);
    cl->ntopo = cl->ft.nlinks * cl->split;
    if (c->has_limiter)
      cl->nlim = n + cl->ft.nswitches;
    break;
  case PLAT_TOPO_TORUS:
    cl->ntopo = (uint64_t)n * c->topo.torus.ndims * cl->split;
    break;
  case PLAT_TOPO_DRAGONFLY: {
    rt_df *df = &cl->df;
    df->groups = c->topo.dragonfly.groups;
    df->chassis = c->topo.dragonfly.chassis;
    df->routers = c->topo.dragonfly.routers;
    df->nodes = c->topo.dragonfly.nodes;
    df->blue = c->topo.dragonfly.blue_links;
    df->black = c->topo.dragonfly.black_links;
    df->green = c->topo.dragonfly.green_links;
    df->quirk = df_quirk;
    df->nrouters = (size_t)df->groups * df->chassis * df->routers;
    if ((uint64_t)df->groups > (uint64_t)df->chassis * df->routers) {
      snprintf(err, errlen,
               "cluster '%s': DRAGONFLY topology '%s' has %u groups but only %u routers per "
               "group; group g reaches group h through its router number h, so a group needs "
               "at least as many routers (chassis x routers) as there are groups",
               cl->zone->id, c->topo_parameters, df->groups, df->chassis * df->routers);
      return -1;
    }
    df->green_base = n;
    df->black_base = df->green_base + (uint64_t)df->groups * df->chassis * pair_count(df->routers);
    df->blue_base = df->black_base + (uint64_t)df->groups * pair_count(df->chassis) * df->routers;
    df->nlinks = df->blue_base + pair_count(df->groups);
    cl->ntopo = df->nlinks * cl->split;
    if (c->has_limiter)
      cl->nlim = n + df->nrouters;
    break;
  }
  }
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
  if (c->has_backbone && c->topology == PLAT_TOPO_FLAT) {
    cl->off_bb = (uint32_t)off;
    off += 1;
  }
  if (off >= UINT32_MAX / 2) {
    snprintf(err, errlen, "cluster '%s' generates %" PRIu64 " links: too many", cl->zone->id, off);
    return -1;
  }
  cl->count = (uint32_t)off;
  return 0;
}

void rt_cluster_free(rt_cluster *cl)
{
  free(cl->ft.nodes);
  free(cl->ft.first_sw);
  free(cl->ft.layer);
  free(cl->ft.stride);
  free(cl->ft.upprod);
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

/* child of the fat-tree link uid: (level, pos) of both ends */
static void ft_link_ends(const rt_cluster *cl, uint64_t uid, size_t *clevel, size_t *cpos,
                         size_t *ppos)
{
  const rt_ft *ft = &cl->ft;
  size_t l = 1;
  while (uid >= ft->layer[l + 1])
    l++;
  uint64_t rel = uid - ft->layer[l];
  uint64_t per = (uint64_t)ft->up[l - 1] * ft->count[l - 1];
  size_t child = (size_t)(rel / per);
  size_t b = (size_t)(rel % per / ft->count[l - 1]);
  /* parent: the child's digits with digit l replaced by b */
  size_t w = ft->upprod[l - 1]; /* weight of digit l at both levels */
  size_t low = child % w, high = child / (w * ft->down[l - 1]);
  *clevel = l - 1;
  *cpos = child;
  *ppos = low + b * w + high * w * ft->up[l - 1];
}

static int df_topo_name(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf,
                        size_t len)
{
  const rt_df *df = &cl->df;
  if (uid < df->green_base) {
    return snprintf(buf, len, "local_link_from_router_%" PRIu64 "_to_node_%" PRIu64 "_%" PRIu64
                    "%s", uid / df->nodes, uid % df->nodes, uid, suffix);
  }
  unsigned i, j;
  if (uid < df->black_base) {
    uint64_t rel = uid - df->green_base, per = pair_count(df->routers);
    unsigned chassis = (unsigned)(rel / per % df->chassis);
    pair_unrank(rel % per, df->routers, &i, &j);
    return snprintf(buf, len, "green_link_in_chassis_%u_between_routers_%u_and_%u_%" PRIu64 "%s",
                    chassis, i, j, uid, suffix);
  }
  if (uid < df->blue_base) {
    uint64_t rel = uid - df->black_base, per = pair_count(df->chassis) * df->routers;
    unsigned group = (unsigned)(rel / per), blade = (unsigned)(rel % df->routers);
    pair_unrank(rel % per / df->routers, df->chassis, &i, &j);
    return snprintf(buf, len,
                    "black_link_in_group_%u_between_chassis_%u_and_%u_blade_%u_%" PRIu64 "%s",
                    group, i, j, blade, uid, suffix);
  }
  pair_unrank(uid - df->blue_base, df->groups, &i, &j);
  uint64_t per_group = (uint64_t)df->chassis * df->routers;
  return snprintf(buf, len,
                  "blue_link_between_group_%u_and_%u_routers_%" PRIu64 "_and_%" PRIu64 "_%" PRIu64
                  "%s",
                  i, j, i * per_group + j, j * per_group + i, uid, suffix);
}

static int torus_coord_next(const plat_cluster *c, size_t rank, size_t dim, size_t *next)
{
  size_t w = 1;
  for (size_t k = 0; k < dim; k++)
    w *= c->topo.torus.dims[k];
  size_t n = c->topo.torus.dims[dim];
  size_t coord = rank / w % n;
  *next = rank - coord * w + (coord + 1) % n * w;
  return 0;
}

int rt_cluster_link_name(const rt_cluster *cl, uint32_t rel, char *buf, size_t len)
{
  const plat_cluster *c = cl->c;
  const char *id = cl->zone->id;
  if (rel < cl->ntopo) {
    const char *suffix = dir_suffix(cl, rel);
    uint64_t uid = rel / cl->split;
    switch (c->topology) {
    case PLAT_TOPO_FLAT:
      return snprintf(buf, len, "%s_link_%" PRId64 "%s", id, plat_cluster_number(c, uid), suffix);
    case PLAT_TOPO_FAT_TREE: {
      size_t level, cpos, ppos;
      ft_link_ends(cl, uid, &level, &cpos, &ppos);
      return snprintf(buf, len, "link_from_%" PRId64 "_%" PRId64 "_%" PRIu64 "%s",
                      ft_node_id(cl, level, cpos), ft_node_id(cl, level + 1, ppos), uid, suffix);
    }
    case PLAT_TOPO_TORUS: {
      size_t nd = c->topo.torus.ndims, rank = (size_t)(uid / nd), next;
      torus_coord_next(c, rank, (size_t)(uid % nd), &next);
      return snprintf(buf, len, "%s_link_from_%zu_to_%zu%s", id, rank, next, suffix);
    }
    case PLAT_TOPO_DRAGONFLY:
      return df_topo_name(cl, uid, suffix, buf, len);
    }
    UNREACHABLE();
  }
  if (cl->off_lim != RT_NONE && rel >= cl->off_lim && rel < cl->off_lim + cl->nlim) {
    size_t k = rel - cl->off_lim;
    int64_t node;
    if (c->topology == PLAT_TOPO_FLAT)
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
    *bw = c->bw;
    if (c->topology == PLAT_TOPO_DRAGONFLY) {
      const rt_df *df = &cl->df;
      uint64_t uid = rel / cl->split;
      if (uid >= df->blue_base)
        *bw = c->bw * df->blue;
      else if (uid >= df->black_base)
        *bw = c->bw * df->black;
      else if (uid >= df->green_base)
        *bw = c->bw * df->green;
    }
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

/* decimal integer (optionally negative) exactly filling s[0..len) */
static bool parse_int(const char *s, size_t len, int64_t *out)
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

/* The candidate rel id, checked by regenerating its name. */
static long confirm(const rt_cluster *cl, uint64_t rel, const char *name)
{
  if (rel >= cl->count)
    return -1;
  char buf[512];
  rt_cluster_link_name(cl, (uint32_t)rel, buf, sizeof buf);
  return strcmp(buf, name) == 0 ? (long)rel : -1;
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
      if (!parse_int(num, numlen, &v))
        return -1;
      if (c->topology == PLAT_TOPO_FLAT) {
        char host[512];
        size_t rank;
        snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
        if (v < 0 || !plat_cluster_rank_of(c, host, &rank))
          return -1;
        return confirm(cl, cl->off_lim + rank, name);
      }
      /* hosts by rank, then switches/routers k named 2N-1-k */
      int64_t n = (int64_t)c->count;
      int64_t k = v >= 0 && v < n ? v : n + (2 * n - 1 - v);
      return k >= 0 && (uint64_t)k < cl->nlim ? confirm(cl, cl->off_lim + (uint64_t)k, name) : -1;
    }
    if (ends_with(name, len, "_loopback", &stem) && cl->off_loop != RT_NONE) {
      if (stem <= numstart)
        return -1;
      numlen = stem - numstart;
      char host[512];
      size_t rank;
      if (!parse_int(num, numlen, &v) || v < 0)
        return -1;
      snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
      if (!plat_cluster_rank_of(c, host, &rank))
        return -1;
      return confirm(cl, cl->off_loop + rank, name);
    }
    if (c->topology == PLAT_TOPO_FLAT) {
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
      char host[512];
      size_t rank;
      if (stem <= numstart || !parse_int(num, stem - numstart, &v) || v < 0)
        return -1;
      snprintf(host, sizeof host, "%s%" PRId64 "%s", c->prefix, v, c->suffix);
      if (!plat_cluster_rank_of(c, host, &rank))
        return -1;
      return confirm(cl, rank * cl->split + dir, name);
    }
  }
  if (prefixed && strcmp(name + idlen, "_backbone") == 0)
    return cl->off_bb != RT_NONE ? (long)cl->off_bb : -1;
  if (c->topology == PLAT_TOPO_FLAT)
    return -1;

  /* topology links: optional direction, then a trailing number */
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
  if (c->topology == PLAT_TOPO_TORUS) {
    char fmt_prefix[600];
    int plen = snprintf(fmt_prefix, sizeof fmt_prefix, "%s_link_from_", cl->zone->id);
    if (plen < 0 || (size_t)plen >= sizeof fmt_prefix || stem <= (size_t)plen ||
        strncmp(name, fmt_prefix, (size_t)plen) != 0)
      return -1;
    const char *rest = name + plen;
    const char *to = strstr(rest, "_to_");
    if (!to || !parse_int(rest, (size_t)(to - rest), &v) || v < 0 || (uint64_t)v >= c->count)
      return -1;
    for (size_t d = 0; d < c->topo.torus.ndims; d++) {
      long r = confirm(cl, ((uint64_t)v * c->topo.torus.ndims + d) * cl->split + dir, name);
      if (r >= 0)
        return r;
    }
    return -1;
  }
  size_t us = stem;
  while (us > 0 && name[us - 1] >= '0' && name[us - 1] <= '9')
    us--;
  if (us == 0 || us == stem || name[us - 1] != '_' || !parse_int(name + us, stem - us, &v))
    return -1;
  return confirm(cl, (uint64_t)v * cl->split + dir, name);
}

/* ------------------------------------------------------------------------------------------
 * Routes
 * ---------------------------------------------------------------------------------------- */

static void push_lim(route_path *path, const rt_cluster *cl, size_t k)
{
  if (cl->off_lim != RT_NONE)
    rt_path_push(path, cl->base + cl->off_lim + (uint32_t)k, 0);
}

static void push_topo(route_path *path, const rt_cluster *cl, uint64_t uid, bool down)
{
  uint32_t id = cl->base + (uint32_t)(uid * cl->split + (cl->split == 2 && down));
  rt_path_push(path, id, cl->c->lat);
}

static void flat_route(const rt_cluster *cl, const plat_point *a, const plat_point *b,
                       route_path *path)
{
  const plat_cluster *c = cl->c;
  bool ah = a->kind == PLAT_POINT_CLUSTER_HOST, bh = b->kind == PLAT_POINT_CLUSTER_HOST;
  bool self = ah && bh && a->rank == b->rank;
  if (ah) {
    push_lim(path, cl, a->rank);
    push_topo(path, cl, a->rank, false);
  }
  if (cl->off_bb != RT_NONE)
    rt_path_push(path, cl->base + cl->off_bb, c->bb_lat);
  /* to itself through a single (non-SPLITDUPLEX) private link, SimGrid keeps one crossing */
  if (bh && !(self && cl->split == 1)) {
    push_topo(path, cl, b->rank, true);
    push_lim(path, cl, b->rank);
  }
}

static bool ft_contains(const rt_ft *ft, size_t level, size_t pos, size_t host)
{
  return pos / ft->upprod[level] == host / ft_stride(ft, 0, level + 1);
}

static void ft_route(const rt_cluster *cl, size_t s, size_t d, route_path *path)
{
  const rt_ft *ft = &cl->ft;
  size_t N = cl->c->count;
  size_t level = 0, pos = s;
  /* up, D-mod-K; a host always leaves (SimGrid routes n -> n through its first switch) */
  while (level == 0 || !ft_contains(ft, level, pos, d)) {
    ASSERT(level < ft->levels);
    size_t up = ft->up[level], cnt = ft->count[level];
    size_t q = d / ft->upprod[level] % (up * cnt);
    size_t b = q % up, j = q / up;
    uint64_t uid = ft->layer[level + 1] + (uint64_t)pos * up * cnt + b * cnt + j;
    push_lim(path, cl, level == 0 ? pos : N + ft->first_sw[level] + pos);
    push_topo(path, cl, uid, false);
    size_t w = ft->upprod[level];
    pos = pos % w + b * w + pos / (w * ft->down[level]) * w * up;
    level++;
  }
  /* down: the continued scan described at the top of this file (jumping straight to the
   * next port whose digit matches, which is where the scan would stop) */
  while (level > 0) {
    size_t i = (size_t)ft->down[level - 1] * (s % ft->count[level - 1]);
    while (level > 0) {
      size_t dn = ft->down[level - 1], cnt = ft->count[level - 1];
      size_t digit = d / ft_stride(ft, 0, level) % dn;
      i += (digit + dn - i % dn) % dn;
      if (i >= dn * cnt)
        break; /* past the last port of this switch: a new scan starts here */
      size_t j = i / dn, w = ft->upprod[level - 1], up = ft->up[level - 1];
      size_t b = pos / w % up; /* the switch's digit for this level */
      size_t child = pos % w + digit * w + pos / (w * up) * w * dn;
      push_topo(path, cl, ft->layer[level] + (uint64_t)child * up * cnt + b * cnt + j, true);
      push_lim(path, cl, N + ft->first_sw[level] + pos);
      level--;
      pos = child;
      i++;
    }
  }
  ASSERT(pos == d);
  push_lim(path, cl, d);
}

static void torus_route(const rt_cluster *cl, size_t s, size_t d, route_path *path)
{
  const plat_cluster *c = cl->c;
  size_t nd = c->topo.torus.ndims;
  push_lim(path, cl, s);
  size_t cur = s, w = 1;
  /* dimension order: once a coordinate matches, it is never touched again */
  for (size_t dim = 0; dim < nd; w *= c->topo.torus.dims[dim], dim++) {
    size_t n = c->topo.torus.dims[dim], t = d / w % n, m = cur / w % n;
    while (m != t) {
      /* re-evaluated at each hop, as SimGrid does */
      bool up = (t > m && t <= m + n / 2) || (m > n / 2 && (m + n / 2) % n >= t);
      size_t m2 = up ? (m + 1 == n ? 0 : m + 1) : (m == 0 ? n - 1 : m - 1);
      size_t next = cur - m * w + m2 * w;
      push_topo(path, cl, (uint64_t)(up ? cur : next) * nd + dim, !up);
      cur = next;
      m = m2;
      push_lim(path, cl, cur);
    }
  }
  ASSERT(cur == d);
}

static void df_route(const rt_cluster *cl, size_t s, size_t d, route_path *path)
{
  const rt_df *df = &cl->df;
  size_t N = cl->c->count, R = df->routers, C = df->chassis;
  size_t rs = s / df->nodes, rd = d / df->nodes;
  size_t g = rs / (C * R), c = rs / R % C, b = rs % R;
  size_t gd = rd / (C * R), cd = rd / R % C, bd = rd % R;
#define ROUTER(g_, c_, b_) (((g_)*C + (c_)) * R + (b_))
#define GREEN(g_, c_, b1, b2)                                                                \
  df->green_base + ((g_)*C + (c_)) * pair_count(R) +                                         \
      pair_index((b1) < (b2) ? (b1) : (b2), (b1) < (b2) ? (b2) : (b1), R)
#define BLACK(g_, c1, c2, b_)                                                                \
  df->black_base +                                                                           \
      ((g_)*pair_count(C) + pair_index((c1) < (c2) ? (c1) : (c2), (c1) < (c2) ? (c2) : (c1), \
                                       C)) * R + (b_)
  push_lim(path, cl, s);
  push_topo(path, cl, s, false);
  if (g != gd) {
    size_t cg = gd / R, bg = gd % R;
    if (b != bg) {
      push_lim(path, cl, N + ROUTER(g, c, b));
      push_topo(path, cl, GREEN(g, c, b, bg), bg < b);
      b = bg;
    }
    if (c != cg) {
      push_lim(path, cl, N + ROUTER(g, c, b));
      push_topo(path, cl, BLACK(g, c, cg, b), cg < c);
      c = cg;
    }
    push_topo(path, cl, df->blue_base + pair_index(g < gd ? g : gd, g < gd ? gd : g, df->groups),
              gd < g);
    push_lim(path, cl, N + ROUTER(g, c, b));
    size_t from = g;
    g = gd;
    c = from / R;
    b = from % R;
    push_lim(path, cl, N + ROUTER(g, c, b));
  } else {
    push_lim(path, cl, N + rs);
  }
  if (b != bd) {
    push_topo(path, cl, GREEN(g, c, b, bd), bd < b);
    b = bd;
    if (df->quirk)
      c = 0;
    push_lim(path, cl, N + ROUTER(g, c, b));
  }
  if (c != cd) {
    push_topo(path, cl, BLACK(g, c, cd, b), cd < c);
    c = cd;
    push_lim(path, cl, N + ROUTER(g, c, b));
  }
  push_topo(path, cl, d, true);
  push_lim(path, cl, d);
#undef ROUTER
#undef GREEN
#undef BLACK
}

int rt_cluster_route(rt_ctx *x, const rt_cluster *cl, const plat_point *a, const plat_point *b,
                     route_path *path)
{
  const plat_cluster *c = cl->c;
  bool ah = a->kind == PLAT_POINT_CLUSTER_HOST, bh = b->kind == PLAT_POINT_CLUSTER_HOST;
  if (ah && bh && a->rank == b->rank && cl->off_loop != RT_NONE) {
    rt_path_push(path, cl->base + cl->off_loop + a->rank, c->loopback_lat);
    return 0;
  }
  if (c->topology == PLAT_TOPO_FLAT) {
    flat_route(cl, a, b, path);
    return 0;
  }
  if (!ah || !bh) {
    char name[256];
    plat_point_name(ah ? b : a, name, sizeof name);
    return rt_fail(x, cl->zone,
                   "'%s' is the router of %s cluster '%s', which SimGrid does not create: use "
                   "one of the cluster's hosts as gateway",
                   name, plat_topology_name(c->topology), cl->zone->id);
  }
  switch (c->topology) {
  case PLAT_TOPO_FAT_TREE:
    ft_route(cl, a->rank, b->rank, path);
    return 0;
  case PLAT_TOPO_TORUS:
    torus_route(cl, a->rank, b->rank, path);
    return 0;
  case PLAT_TOPO_DRAGONFLY:
    df_route(cl, a->rank, b->rank, path);
    return 0;
  case PLAT_TOPO_FLAT:
    break;
  }
  UNREACHABLE();
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
  const plat_host_link *ha = a->kind == PLAT_POINT_HOST ? rt->host_link_of[a->u.host->index] : NULL;
  const plat_host_link *hb = b->kind == PLAT_POINT_HOST ? rt->host_link_of[b->u.host->index] : NULL;
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
