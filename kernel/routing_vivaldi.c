/* Routes of a Vivaldi zone (SimGrid's routing="Vivaldi"): no declared routes; a host sits at
 * coordinates (x, y, height) and the route from a to b is
 *
 *   a's private UP link (a <peer>'s link_<id>_UP), if any,
 *   b's private DOWN link, if any,
 *   plus a latency of  sqrt((xa - xb)^2 + (ya - yb)^2) + |ha| + |hb|  milliseconds.
 *
 * Worked example (SimGrid's two_peers.xml): peers at 25.5 9.4 1.4 and -12.7 -9.9 2.1 are
 * sqrt(38.2^2 + 19.3^2) + 1.4 + 2.1 = 46.299 ms apart; a message between them crosses the
 * sender's UP and the receiver's DOWN link. A route without private links is latency only. */
#include <math.h>

#include "kernel/routing_private.h"

double rt_vivaldi_latency(const double a[3], const double b[3])
{
  double dx = a[0] - b[0], dy = a[1] - b[1];
  return (sqrt(dx * dx + dy * dy) + fabs(a[2]) + fabs(b[2])) / 1000;
}

void rt_vivaldi_links(const route_table *rt, const plat_point *a, const plat_point *b,
                      route_path *path)
{
  const plat_host_link *la = a->kind == PLAT_POINT_HOST ? rt->host_link_of[a->u.host->index]
                                                        : NULL;
  const plat_host_link *lb = b->kind == PLAT_POINT_HOST ? rt->host_link_of[b->u.host->index]
                                                        : NULL;
  if (la) {
    uint32_t id = rt_ref_id(rt, &la->up);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
  if (lb) {
    uint32_t id = rt_ref_id(rt, &lb->down);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
}

int rt_vivaldi_route(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                     route_path *path)
{
  if (a->kind != PLAT_POINT_HOST || b->kind != PLAT_POINT_HOST)
    return rt_fail(x, z, "Vivaldi zone '%s' routes between its hosts only", z->id);
  rt_vivaldi_links(x->rt, a, b, path);
  path->latency += rt_vivaldi_latency(a->u.host->coords, b->u.host->coords);
  return 0;
}
