/* DRAGONFLY: topo_parameters "groups,blue;chassis,black;routers,green;nodes": groups of
 * chassis of routers, each router with `nodes` hosts; blue/black/green parallel links
 * between each pair of groups / of chassis of a group (same blade) / of routers of a
 * chassis, merged into one link of that many times the bandwidth. Link uids:
 *
 *   [0, hosts)              host rank's link to its router (local_link_from_router_...)
 *   [green_base, +)         per group, per chassis, per pair of routers
 *   [black_base, +)         per group, per pair of chassis, per blade
 *   [blue_base, nlinks)     per pair of groups
 *
 * Routes, as SimGrid 3.32 computes them (tests/data/routing/dragonfly*.routes): group g
 * reaches group h through its router of local index h (chassis h / R, blade h % R); each
 * in-group leg changes blade first (green) then chassis (black). SimGrid 3.32 forgets the
 * chassis after a green hop in the last leg (it continues from chassis 0): a route
 * n(1,2) -> n(0,0) inside a group has no black link, n(1,2) -> n(1,0) gets a spurious
 * "chassis 0 and 1" one. Kept by default so that simulated times match;
 * routing/dragonfly:minimal fixes it. */
#include "kernel/topo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cfg.h"
#include "src/mem.h"

typedef struct df_state {
  unsigned groups, chassis, routers, nodes;
  unsigned blue, black, green; /* parallel links, merged into one link of that many times bw */
  size_t nrouters;
  uint64_t green_base, black_base, blue_base, nlinks;
  bool quirk; /* reproduce SimGrid 3.32's chassis reset after a green hop (routing/dragonfly) */
} df_state;

static uint64_t pair_count(uint64_t n) { return n * (n - 1) / 2; }

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

static void df_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING("routing/dragonfly", "simgrid", "simgrid|minimal",
                     "DRAGONFLY clusters: 'simgrid' reproduces SimGrid 3.32's routes (which "
                     "skip or add a chassis hop after a blade change in the destination "
                     "group), 'minimal' takes the true minimal route"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

static int df_parse(rt_cluster *cl, char *err, size_t errlen)
{
  const plat_cluster *c = cl->c;
  if (c->topo.nparts != 4) {
    snprintf(err, errlen,
             "DRAGONFLY topo_parameters '%s' must have 4 ';'-separated parts "
             "\"groups,links;chassis,links;routers,links;nodes\" (e.g. \"3,4;3,2;3,1;2\"), "
             "not %zu",
             c->topo_parameters, c->topo.nparts);
    return -1;
  }
  static const char *const names[4] = {"DRAGONFLY groups part (\"groups,links\")",
                                       "DRAGONFLY chassis part (\"chassis per group,links\")",
                                       "DRAGONFLY routers part (\"routers per chassis,links\")",
                                       "DRAGONFLY nodes part (\"nodes per router\")"};
  const unsigned *v[4];
  for (size_t k = 0; k < 4; k++) {
    size_t n, want = k < 3 ? 2 : 1;
    v[k] = rt_topo_part(c, k, &n);
    if (n != want) {
      char text[256];
      rt_topo_part_text(c, k, text, sizeof text);
      snprintf(err, errlen, "%s '%s' has %zu value%s, %zu expected", names[k], text, n,
               n == 1 ? "" : "s", want);
      return -1;
    }
  }
  df_state *df = xcalloc(1, sizeof *df);
  df->groups = v[0][0];
  df->blue = v[0][1];
  df->chassis = v[1][0];
  df->black = v[1][1];
  df->routers = v[2][0];
  df->green = v[2][1];
  df->nodes = v[3][0];
  df->quirk = strcmp(cfg_get_string("routing/dragonfly"), "simgrid") == 0;
  cl->topo = df;
  cl->topo_hosts = (uint64_t)df->groups * df->chassis * df->routers * df->nodes;
  return 0;
}

static int df_layout(rt_cluster *cl, char *err, size_t errlen)
{
  df_state *df = cl->topo;
  if ((uint64_t)df->groups > (uint64_t)df->chassis * df->routers) {
    snprintf(err, errlen,
             "DRAGONFLY topology '%s' has %u groups but only %u routers per group; group g "
             "reaches group h through its router number h, so a group needs at least as many "
             "routers (chassis x routers) as there are groups",
             cl->c->topo_parameters, df->groups, df->chassis * df->routers);
    return -1;
  }
  df->nrouters = (size_t)df->groups * df->chassis * df->routers;
  df->green_base = cl->c->count;
  df->black_base = df->green_base + (uint64_t)df->groups * df->chassis * pair_count(df->routers);
  df->blue_base = df->black_base + (uint64_t)df->groups * pair_count(df->chassis) * df->routers;
  df->nlinks = df->blue_base + pair_count(df->groups);
  cl->nuids = df->nlinks;
  cl->nswitches = df->nrouters;
  return 0;
}

static void df_free(rt_cluster *cl) { free(cl->topo); }

static int df_link_name(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf,
                        size_t len)
{
  const df_state *df = cl->topo;
  if (uid < df->green_base) {
    return snprintf(buf, len,
                    "local_link_from_router_%" PRIu64 "_to_node_%" PRIu64 "_%" PRIu64 "%s",
                    uid / df->nodes, uid % df->nodes, uid, suffix);
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

static double df_link_bw(const rt_cluster *cl, uint64_t uid)
{
  const df_state *df = cl->topo;
  double bw = cl->c->bw;
  if (uid >= df->blue_base)
    return bw * df->blue;
  if (uid >= df->black_base)
    return bw * df->black;
  if (uid >= df->green_base)
    return bw * df->green;
  return bw;
}

static void df_route(const rt_cluster *cl, const plat_point *pa, const plat_point *pb,
                     route_path *path)
{
  const df_state *df = cl->topo;
  size_t s = pa->rank, d = pb->rank;
  size_t N = cl->c->count, R = df->routers, C = df->chassis;
  size_t rs = s / df->nodes, rd = d / df->nodes;
  size_t g = rs / (C * R), c = rs / R % C, b = rs % R;
  size_t gd = rd / (C * R), cd = rd / R % C, bd = rd % R;
#define ROUTER(g_, c_, b_) (((g_)*C + (c_)) * R + (b_))
#define GREEN(g_, c_, b1, b2)                        \
  df->green_base + ((g_)*C + (c_)) * pair_count(R) + \
      pair_index((b1) < (b2) ? (b1) : (b2), (b1) < (b2) ? (b2) : (b1), R)
#define BLACK(g_, c1, c2, b_)                                                 \
  df->black_base +                                                            \
      ((g_)*pair_count(C) +                                                   \
       pair_index((c1) < (c2) ? (c1) : (c2), (c1) < (c2) ? (c2) : (c1), C)) * \
          R +                                                                 \
      (b_)
  rt_topo_push_lim(path, cl, s);
  rt_topo_push(path, cl, s, false);
  if (g != gd) {
    size_t cg = gd / R, bg = gd % R;
    if (b != bg) {
      rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
      rt_topo_push(path, cl, GREEN(g, c, b, bg), bg < b);
      b = bg;
    }
    if (c != cg) {
      rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
      rt_topo_push(path, cl, BLACK(g, c, cg, b), cg < c);
      c = cg;
    }
    rt_topo_push(path, cl,
                 df->blue_base + pair_index(g < gd ? g : gd, g < gd ? gd : g, df->groups),
                 gd < g);
    rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
    size_t from = g;
    g = gd;
    c = from / R;
    b = from % R;
    rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
  } else {
    rt_topo_push_lim(path, cl, N + rs);
  }
  if (b != bd) {
    rt_topo_push(path, cl, GREEN(g, c, b, bd), bd < b);
    b = bd;
    if (df->quirk)
      c = 0;
    rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
  }
  if (c != cd) {
    rt_topo_push(path, cl, BLACK(g, c, cd, b), cd < c);
    c = cd;
    rt_topo_push_lim(path, cl, N + ROUTER(g, c, b));
  }
  rt_topo_push(path, cl, d, true);
  rt_topo_push_lim(path, cl, d);
#undef ROUTER
#undef GREEN
#undef BLACK
}

const rt_topo rt_topo_dragonfly = {
    .name = "DRAGONFLY",
    .declare_config = df_declare_config,
    .parse = df_parse,
    .layout = df_layout,
    .free_state = df_free,
    .link_name = df_link_name,
    .link_bw = df_link_bw,
    .link_by_name = rt_topo_link_by_trailing_uid,
    .route = df_route,
};
