/* Reduce = reduce-scatter by recursive halving + binomial gather (Rabenseifner; MPICH's
 * long-message reduce, SimGrid's scatter_gather). With p the largest power of two <= n and
 * rem = n - p, odd ranks below 2 rem first hand their vector to their even neighbour and
 * sit out. The p others halve the vector log2(p) times, exchanging the half they do not
 * keep with rank ^ mask and folding in the half they keep; each ends with 1/p of the
 * result, which a binomial gather brings to the root. ~2 m bytes per rank instead of
 * m log2 p: the long-message choice. Commutative ops only. The group form runs it inside
 * a host or among host leaders (two-level algorithms). */
#include "collectives/coll_group.h"
#include "collectives/coll_halving.h"

void coll_group_reduce_scatter_gather(coll_ctx *x, const coll_args *a, const coll_group *g,
                                      void *buf, size_t count, int root, int tag)
{
  int n = g->n, me = g->me;
  const smpi_dt *dt = a->rdt;
  if (n == 1)
    return;
  void *tmp = coll_tmp_dt(x, count, dt);
  coll_halving h;
  coll_halving_init_sub(&h, n, 0, g->base, g->stride, me);
  int pof2 = h.p, rem = h.rem;
  int newrank = coll_halving_fold(x, a, &h, buf, tmp, count, dt, tag);
  coll_halving_even_blocks(x, &h, count);
  if (newrank >= 0)
    coll_halving_reduce_scatter(x, a, &h, newrank, buf, tmp, dt, tag);
  /* gather to the root; a root that sat out gets newrank 0's part and plays its role */
  int newroot;
  if (root < 2 * rem) {
    if (root % 2) {
      if (me == root) {
        coll_recv(x, buf, h.cnts[0], dt, coll_group_rank(g, 0), tag);
        newrank = 0;
        h.send_idx = 0;
        h.last_idx = 2;
      } else if (newrank == 0) {
        coll_send(x, buf, h.cnts[0], dt, coll_group_rank(g, root), tag);
        newrank = -1;
      }
      newroot = 0;
    } else {
      newroot = root / 2;
    }
  } else {
    newroot = root - rem;
  }
  if (newrank >= 0) {
    int j = 0, mask = 1;
    while (mask < pof2) {
      mask <<= 1;
      j++;
    }
    mask >>= 1;
    j--;
    for (; mask > 0; mask >>= 1, j--) {
      int nd = newrank ^ mask, dst = coll_halving_real(&h, nd);
      if (nd == 0 && root < 2 * rem && root % 2)
        dst = coll_group_rank(g, root);
      coll_halving_step s = coll_halving_unsplit(&h, newrank < nd, pof2 / (mask * 2));
      if ((nd >> j << j) == (newroot >> j << j)) {
        coll_send(x, coll_at(buf, s.soff, dt), s.scnt, dt, dst, tag);
        break;
      }
      coll_recv(x, coll_at(buf, s.roff, dt), s.rcnt, dt, dst, tag);
    }
  }
}

int coll_reduce_scatter_gather(coll_ctx *x, const coll_args *a)
{
  int me = x->rank;
  size_t count = (size_t)a->rcount;
  void *buf = me == a->root ? a->rbuf : coll_tmp_dt(x, count, a->rdt);
  coll_copy(x, a->sbuf, count, a->sdt, buf, count, a->rdt);
  coll_group g = {0, 1, x->size, me};
  coll_group_reduce_scatter_gather(x, a, &g, buf, count, a->root, COLL_TAG_REDUCE);
  return x->err;
}
