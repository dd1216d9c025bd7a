/* FAT_TREE: an XGFT, topo_parameters "levels;down_1,...;up_1,...;count_1,...".
 *
 * A node of level l (0 = hosts) has one digit per level k = 1..L, digit 1 least
 * significant; digit k counts up to up_k for k <= l, to down_k for k > l. A level-l node and
 * a level-(l+1) node are linked (count_{l+1} parallel links) iff their digits agree
 * everywhere except digit l+1. Links are named link_from_<child>_<parent>_<uid>, hosts by
 * rank and switch s (global index) by 2N-1-s, as SimGrid 3.32 does.
 *
 * Routes, as SimGrid 3.32 computes them (tests/data/routing/fat_tree*.routes):
 *   up: D-mod-K (parent port = (dst / (up_1..up_l)) mod (up_{l+1} count_{l+1}), port p =
 *   parent digit p % up + parallel link p / up); a host always takes at least one hop up,
 *   even to itself.
 *   down: SimGrid scans the child ports of the current switch from down_l * (src mod
 *   count_l) and takes every port whose digit matches the destination, *continuing the same
 *   scan* (same counter) in the child it moved to; when the counter runs past the child's
 *   port count a new scan starts. So the parallel link taken going down depends on the
 *   source and on where the previous scan stopped. Example "2;2,3;1,1;3,1" (hosts 0..5):
 *   n0 -> n2 goes down through link_from_2_10_7 (parallel link 1), n3 -> n2 through
 *   link_from_2_10_6 (parallel link 0).
 *   limiters: before each up link, the limiter of the node it leaves; after each down link,
 *   the limiter of the switch it leaves; the destination's at the end. */
#include "kernel/topo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/invariant.h"
#include "src/mem.h"

typedef struct ft_state {
  size_t levels;
  const unsigned *down, *up, *count; /* the platform's values, index k-1 for level k */
  size_t *nodes;                     /* [L+1] nodes per level */
  size_t *first_sw; /* [L+1] global index of the first switch of level l (l >= 1) */
  uint64_t *layer;  /* [L+2] link uid of the first link between levels l-1 and l (l >= 1) */
  size_t *stride;   /* [(L+1)*(L+2)] stride[l*(L+2)+k]: positional weight of digit k */
  size_t *upprod;   /* [L+1] up_1 * ... * up_l */
  size_t nswitches;
  uint64_t nlinks; /* link uids 0 .. nlinks-1 */
} ft_state;

static int ft_parse(rt_cluster *cl, char *err, size_t errlen)
{
  const plat_cluster *c = cl->c;
  if (c->topo.nparts != 4) {
    snprintf(err, errlen,
             "FAT_TREE topo_parameters '%s' must have 4 ';'-separated parts "
             "\"levels;down1,...;up1,...;count1,...\" (e.g. \"2;4,4;1,2;1,2\"), not %zu",
             c->topo_parameters, c->topo.nparts);
    return -1;
  }
  size_t n;
  const unsigned *lv = rt_topo_part(c, 0, &n);
  if (n != 1 || lv[0] > 16) {
    char text[256];
    rt_topo_part_text(c, 0, text, sizeof text);
    snprintf(err, errlen,
             "FAT_TREE topo_parameters '%s': the number of levels '%s' must be an integer "
             "between 1 and 16",
             c->topo_parameters, text);
    return -1;
  }
  size_t levels = lv[0];
  const unsigned *v[3];
  static const char *const names[3] = {"FAT_TREE down-link counts (2nd part)",
                                       "FAT_TREE up-link counts (3rd part)",
                                       "FAT_TREE parallel link counts (4th part)"};
  for (int k = 0; k < 3; k++) {
    v[k] = rt_topo_part(c, (size_t)k + 1, &n);
    if (n != levels) {
      char text[256];
      rt_topo_part_text(c, (size_t)k + 1, text, sizeof text);
      snprintf(err, errlen, "%s '%s' has %zu value%s, %zu expected (one per level, %zu levels)",
               names[k], text, n, n == 1 ? "" : "s", levels, levels);
      return -1;
    }
  }
  ft_state *ft = xcalloc(1, sizeof *ft);
  ft->levels = levels;
  ft->down = v[0];
  ft->up = v[1];
  ft->count = v[2];
  cl->topo = ft;
  size_t hosts = 1;
  for (size_t i = 0; i < levels; i++)
    hosts *= ft->down[i];
  cl->topo_hosts = hosts;
  return 0;
}

static int ft_layout(rt_cluster *cl, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  ft_state *ft = cl->topo;
  size_t L = ft->levels;
  ft->nodes = xcalloc(L + 1, sizeof *ft->nodes);
  ft->first_sw = xcalloc(L + 1, sizeof *ft->first_sw);
  ft->layer = xcalloc(L + 2, sizeof *ft->layer);
  ft->stride = xcalloc((L + 1) * (L + 2), sizeof *ft->stride);
  ft->upprod = xcalloc(L + 1, sizeof *ft->upprod);
  ft->nodes[0] = cl->c->count;
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
    ft->layer[l + 1] = ft->layer[l] +
                       (uint64_t)ft->nodes[l - 1] * ft->up[l - 1] * ft->count[l - 1];
  ft->nlinks = ft->layer[L + 1];
  for (size_t l = 0; l <= L; l++) {
    size_t s = 1;
    for (size_t k = 1; k <= L; k++) {
      ft->stride[l * (L + 2) + k] = s;
      s *= k <= l ? ft->up[k - 1] : ft->down[k - 1];
    }
    ft->stride[l * (L + 2) + L + 1] = s;
  }
  cl->nuids = ft->nlinks;
  cl->nswitches = ft->nswitches;
  return 0;
}

static void ft_free(rt_cluster *cl)
{
  ft_state *ft = cl->topo;
  if (!ft)
    return;
  free(ft->nodes);
  free(ft->first_sw);
  free(ft->layer);
  free(ft->stride);
  free(ft->upprod);
  free(ft);
}

/* weight of digit k for a node of level l (k = L+1: the node count of the level) */
static size_t ft_stride(const ft_state *ft, size_t l, size_t k)
{
  return ft->stride[l * (ft->levels + 2) + k];
}

static int64_t ft_node_id(const rt_cluster *cl, size_t level, size_t pos)
{
  const ft_state *ft = cl->topo;
  if (level == 0)
    return (int64_t)pos;
  return 2 * (int64_t)cl->c->count - 1 - (int64_t)(ft->first_sw[level] + pos);
}

/* child of the fat-tree link uid: (level, pos) of both ends */
static void ft_link_ends(const rt_cluster *cl, uint64_t uid, size_t *clevel, size_t *cpos,
                         size_t *ppos)
{
  const ft_state *ft = cl->topo;
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

static int ft_link_name(const rt_cluster *cl, uint64_t uid, const char *suffix, char *buf,
                        size_t len)
{
  size_t level, cpos, ppos;
  ft_link_ends(cl, uid, &level, &cpos, &ppos);
  return snprintf(buf, len, "link_from_%" PRId64 "_%" PRId64 "_%" PRIu64 "%s",
                  ft_node_id(cl, level, cpos), ft_node_id(cl, level + 1, ppos), uid, suffix);
}

static bool ft_contains(const ft_state *ft, size_t level, size_t pos, size_t host)
{
  return pos / ft->upprod[level] == host / ft_stride(ft, 0, level + 1);
}

static void ft_route(const rt_cluster *cl, const plat_point *a, const plat_point *b,
                     route_path *path)
{
  const ft_state *ft = cl->topo;
  size_t N = cl->c->count, s = a->rank, d = b->rank;
  size_t level = 0, pos = s;
  /* up, D-mod-K; a host always leaves (SimGrid routes n -> n through its first switch) */
  while (level == 0 || !ft_contains(ft, level, pos, d)) {
    ASSERT(level < ft->levels);
    size_t up = ft->up[level], cnt = ft->count[level];
    size_t q = d / ft->upprod[level] % (up * cnt);
    size_t bp = q % up, j = q / up;
    uint64_t uid = ft->layer[level + 1] + (uint64_t)pos * up * cnt + bp * cnt + j;
    rt_topo_push_lim(path, cl, level == 0 ? pos : N + ft->first_sw[level] + pos);
    rt_topo_push(path, cl, uid, false);
    size_t w = ft->upprod[level];
    pos = pos % w + bp * w + pos / (w * ft->down[level]) * w * up;
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
      size_t bp = pos / w % up; /* the switch's digit for this level */
      size_t child = pos % w + digit * w + pos / (w * up) * w * dn;
      rt_topo_push(path, cl, ft->layer[level] + (uint64_t)child * up * cnt + bp * cnt + j, true);
      rt_topo_push_lim(path, cl, N + ft->first_sw[level] + pos);
      level--;
      pos = child;
      i++;
    }
  }
  ASSERT(pos == d);
  rt_topo_push_lim(path, cl, d);
}

const rt_topo rt_topo_fat_tree = {
    .name = "FAT_TREE",
    .parse = ft_parse,
    .layout = ft_layout,
    .free_state = ft_free,
    .link_name = ft_link_name,
    .link_by_name = rt_topo_link_by_trailing_uid,
    .route = ft_route,
};
