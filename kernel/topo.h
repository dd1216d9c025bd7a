/* Cluster topologies (<cluster topology="..." topo_parameters="...">): THE list, and the
 * operations each one provides to the routing.
 *
 * Adding a topology NAME:
 *   1. kernel/topo_<name>.c defining `const rt_topo rt_topo_<name>` (see the operations
 *      below; topo_torus.c is a short, complete example), listed in kernel/meson.build;
 *   2. one RT_TOPO line in RT_TOPOLOGIES below;
 *   3. tests/data/routing/<name>.xml and the routes SimGrid computes on it, <name>.routes
 *      (`tests/data/routing/record.sh <name>` records them; tests/check_routing.c compares
 *      every .routes file of that directory with our routes, link by link and bit for bit).
 *      If SimGrid lacks the topology, write the .routes file by hand in the same format.
 * Nothing else knows the topologies: the loader accepts any topology name, unknown ones
 * are reported by route_table_build, listing the names of this table.
 *
 * Layering. The platform loader (src/, the base layer) cannot call into kernel/. It reads
 * topo_parameters without knowing what they mean: ';'-separated parts, each a list of
 * ','-separated positive integers (plat_topo_params in src/platform.h; every format
 * SimGrid defines has this shape: "4,4,4", "2;4,4;1,2;1,2", "3,4;3,2;3,1;2"). So syntax
 * errors are reported at load time, and everything a topology gives meaning to (the number
 * of parts and values, the hosts they describe against the radical, limits) is checked
 * here, by `parse`, when the routing is built; both messages start with the <cluster>'s
 * file:line. The table lives in kernel/ with the routing, which is where topologies do
 * their work; the loader knows FLAT only as the plain cluster whose private links,
 * backbone and router it names itself (plat_cluster.flat).
 *
 * Link ids. A topology numbers its own links with uids 0 .. nuids-1; the cluster turns
 * them into ids (uid * split + direction for SPLITDUPLEX) and appends the limiters (hosts
 * by rank, then the topology's nswitches switches/routers), loopbacks and backbone (see
 * rt_cluster in routing_private.h). Everything is arithmetic: nothing per host or link.
 *
 * Operations, called in this order at build time: parse, layout; then any of the others.
 * err/errlen: a message without file:line (the caller adds the cluster's). */
#ifndef SMPI_KERNEL_TOPO_H
#define SMPI_KERNEL_TOPO_H

#include "kernel/routing_private.h"

/* RT_TOPO(name): the topology whose operations are rt_topo_<name> */
#define RT_TOPOLOGIES(RT_TOPO) \
  RT_TOPO(flat)                \
  RT_TOPO(fat_tree)            \
  RT_TOPO(torus)               \
  RT_TOPO(dragonfly)

typedef struct rt_topo {
  const char *name; /* the topology="..." value */
  /* Declares the configuration keys of the topology (optional; idempotent). */
  void (*declare_config)(void);
  /* Checks cl->c->topo (the parsed topo_parameters), allocates cl->topo (the topology's
   * own state, freed by free_state) and sets cl->topo_hosts, the number of hosts the
   * parameters describe (0: any number, FLAT). The caller then checks it against the
   * radical. */
  int (*parse)(rt_cluster *cl, char *err, size_t errlen);
  /* Sets cl->nuids (links of the topology) and cl->nswitches (switches or routers that
   * get a limiter link when the cluster has limiters, after the hosts'). */
  int (*layout)(rt_cluster *cl, char *err, size_t errlen);
  void (*free_state)(rt_cluster *cl); /* optional */
  /* Name of link uid, suffix ("", "_UP" or "_DOWN") appended, snprintf-style. */
  int (*link_name)(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf, size_t len);
  /* Bandwidth of link uid (optional: the cluster's bw). */
  double (*link_bw)(const rt_cluster *cl, uint64_t uid);
  /* The relative id of the topology link named name, or -1. name[0..stem) is the name
   * without its _UP/_DOWN suffix, dir is 1 for _DOWN; check candidates with
   * rt_topo_confirm. */
  long (*link_by_name)(const rt_cluster *cl, const char *name, size_t stem, uint64_t dir);
  /* Appends the links from a to b (hosts of the cluster; for FLAT also its router) to path,
   * a != b or the cluster has no loopback. */
  void (*route)(const rt_cluster *cl, const plat_point *a, const plat_point *b, route_path *path);
} rt_topo;

#define RT_TOPO_DECLARE(name) extern const rt_topo rt_topo_##name;
RT_TOPOLOGIES(RT_TOPO_DECLARE)
#undef RT_TOPO_DECLARE

/* The topology named name, or NULL. */
const rt_topo *rt_topo_find(const char *name);
/* "FLAT, FAT_TREE, ..." into buf */
void rt_topo_names(char *buf, size_t len);

/* ---- helpers for the topologies' files ---- */

/* Values of part i of the topo_parameters (i < c->topo.nparts). */
static inline const unsigned *rt_topo_part(const plat_cluster *c, size_t i, size_t *n)
{
  *n = c->topo.start[i + 1] - c->topo.start[i];
  return c->topo.values + c->topo.start[i];
}

/* Part i written back ("4,4,4"), for messages. */
void rt_topo_part_text(const plat_cluster *c, size_t i, char *buf, size_t len);

/* rel if the link of that relative id is named name, else -1. */
long rt_topo_confirm(const rt_cluster *cl, uint64_t rel, const char *name);

/* link_by_name for names ending with _<uid> (then the direction), FAT_TREE's and
 * DRAGONFLY's */
long rt_topo_link_by_trailing_uid(const rt_cluster *cl, const char *name, size_t stem,
                                  uint64_t dir);

/* decimal integer (optionally negative) exactly filling s[0..len) */
bool rt_topo_parse_int(const char *s, size_t len, int64_t *out);

/* the limiter of node k (hosts by rank, then switches), when the cluster has limiters */
static inline void rt_topo_push_lim(route_path *path, const rt_cluster *cl, size_t k)
{
  if (cl->off_lim != RT_NONE)
    rt_path_push(path, cl->base + cl->off_lim + (uint32_t)k, 0);
}

/* topology link uid, crossed upwards (UP half) or downwards (DOWN half) */
static inline void rt_topo_push(route_path *path, const rt_cluster *cl, uint64_t uid, bool down)
{
  uint32_t id = cl->base + (uint32_t)(uid * cl->split + (cl->split == 2 && down));
  rt_path_push(path, id, cl->c->lat);
}

#endif
