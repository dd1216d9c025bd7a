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

int rt_vivaldi_route(rt_ctx *x, const plat_zone *z, const plat_point *a, const plat_point *b,
                     route_path *path)
{
  const route_table *rt = x->rt;
  if (a->kind != PLAT_POINT_HOST || b->kind != PLAT_POINT_HOST)
    return rt_fail(x, z, "Vivaldi zone '%s' routes between its hosts only", z->id);
  const plat_host *ha = a->u.host, *hb = b->u.host;
  const plat_host_link *la = rt->host_link_of[ha->index];
  const plat_host_link *lb = rt->host_link_of[hb->index];
  if (la) {
    uint32_t id = rt_ref_id(rt, &la->up);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
  if (lb) {
    uint32_t id = rt_ref_id(rt, &lb->down);
    rt_path_push(path, id, rt_link_latency(rt, id));
  }
  double dx = ha->coords[0] - hb->coords[0], dy = ha->coords[1] - hb->coords[1];
  path->latency += (sqrt(dx * dx + dy * dy) + fabs(ha->coords[2]) + fabs(hb->coords[2])) / 1000;
  return 0;
}
