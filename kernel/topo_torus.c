/* TORUS: topo_parameters "x,y,z,...", the size of each dimension (any number of them);
 * host rank = x + X (y + Y z) ... Host r has one link per dimension d, uid r * ndims + d,
 * towards its +1 neighbour in that dimension, named <id>_link_from_<r>_to_<neighbour>.
 *
 * Routes, as SimGrid 3.32 computes them (tests/data/routing/torus*.routes): dimension
 * order, x first; in a ring of n, go "up" (towards +1) iff (t > m and t <= m + n/2) or
 * (m > n/2 and (m + n/2) mod n >= t), m and t the current and target coordinates,
 * re-evaluated at each hop: in a ring of 4, 0 -> 2 goes up but 2 -> 0 goes down and 3 -> 1
 * goes up. The limiter of the source first, then that of each node reached. */
#include "kernel/topo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/mem.h"

#define TORUS_MAX_DIMS 64

typedef struct torus_state {
  size_t ndims;
  const unsigned *dims; /* the platform's values */
} torus_state;

static int torus_parse(rt_cluster *cl, char *err, size_t errlen)
{
  const plat_cluster *c = cl->c;
  if (c->topo.nparts == 0) {
    snprintf(err, errlen,
             "TORUS needs topo_parameters: the size of each dimension, e.g. \"4,4,4\"");
    return -1;
  }
  if (c->topo.nparts != 1) {
    snprintf(err, errlen,
             "TORUS topo_parameters '%s' must be one ','-separated list of dimension sizes "
             "(e.g. \"4,4,4\"), without ';'",
             c->topo_parameters);
    return -1;
  }
  size_t nd;
  const unsigned *dims = rt_topo_part(c, 0, &nd);
  if (nd > TORUS_MAX_DIMS) {
    snprintf(err, errlen, "TORUS topo_parameters '%s': too many dimensions", c->topo_parameters);
    return -1;
  }
  torus_state *t = xcalloc(1, sizeof *t);
  t->ndims = nd;
  t->dims = dims;
  cl->topo = t;
  size_t hosts = 1;
  for (size_t i = 0; i < nd; i++)
    hosts *= dims[i];
  cl->topo_hosts = hosts;
  return 0;
}

static int torus_layout(rt_cluster *cl, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  const torus_state *t = cl->topo;
  cl->nuids = (uint64_t)cl->c->count * t->ndims;
  cl->nswitches = 0;
  return 0;
}

static void torus_free(rt_cluster *cl) { free(cl->topo); }

/* the +1 neighbour of rank in dimension dim */
static size_t torus_next(const torus_state *t, size_t rank, size_t dim)
{
  size_t w = 1;
  for (size_t k = 0; k < dim; k++)
    w *= t->dims[k];
  size_t n = t->dims[dim];
  size_t coord = rank / w % n;
  return rank - coord * w + (coord + 1) % n * w;
}

static int torus_link_name(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf,
                           size_t len)
{
  const torus_state *t = cl->topo;
  size_t nd = t->ndims, rank = (size_t)(uid / nd);
  size_t next = torus_next(t, rank, (size_t)(uid % nd));
  return snprintf(buf, len, "%s_link_from_%zu_to_%zu%s", cl->zone->id, rank, next, suffix);
}

/* <id>_link_from_<rank>_to_...: one of the rank's ndims links */
static long torus_link_by_name(const rt_cluster *cl, const char *name, size_t stem, uint64_t dir)
{
  const torus_state *t = cl->topo;
  char fmt_prefix[600];
  int64_t v;
  int plen = snprintf(fmt_prefix, sizeof fmt_prefix, "%s_link_from_", cl->zone->id);
  if (plen < 0 || (size_t)plen >= sizeof fmt_prefix || stem <= (size_t)plen ||
      strncmp(name, fmt_prefix, (size_t)plen) != 0)
    return -1;
  const char *rest = name + plen;
  const char *to = strstr(rest, "_to_");
  if (!to || !rt_topo_parse_int(rest, (size_t)(to - rest), &v) || v < 0 ||
      (uint64_t)v >= cl->c->count)
    return -1;
  for (size_t d = 0; d < t->ndims; d++) {
    long r = rt_topo_confirm(cl, ((uint64_t)v * t->ndims + d) * cl->split + dir, name);
    if (r >= 0)
      return r;
  }
  return -1;
}

static void torus_route(const rt_cluster *cl, const plat_point *a, const plat_point *b,
                        route_path *path)
{
  const torus_state *t = cl->topo;
  size_t nd = t->ndims, s = a->rank, d = b->rank;
  rt_topo_push_lim(path, cl, s);
  size_t cur = s, w = 1;
  /* dimension order: once a coordinate matches, it is never touched again */
  for (size_t dim = 0; dim < nd; w *= t->dims[dim], dim++) {
    size_t n = t->dims[dim], tc = d / w % n, m = cur / w % n;
    while (m != tc) {
      /* re-evaluated at each hop, as SimGrid does */
      bool up = (tc > m && tc <= m + n / 2) || (m > n / 2 && (m + n / 2) % n >= tc);
      size_t m2 = up ? (m + 1 == n ? 0 : m + 1) : (m == 0 ? n - 1 : m - 1);
      size_t next = cur - m * w + m2 * w;
      rt_topo_push(path, cl, (uint64_t)(up ? cur : next) * nd + dim, !up);
      cur = next;
      m = m2;
      rt_topo_push_lim(path, cl, cur);
    }
  }
  ASSERT(cur == d);
}

const rt_topo rt_topo_torus = {
    .name = "TORUS",
    .parse = torus_parse,
    .layout = torus_layout,
    .free_state = torus_free,
    .link_name = torus_link_name,
    .link_by_name = torus_link_by_name,
    .route = torus_route,
};
