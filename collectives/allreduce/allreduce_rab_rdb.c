/* Allreduce = reduce-scatter by recursive halving + allgather by recursive doubling
 * (Rabenseifner; MPICH's long-message allreduce, SimGrid's rab_rdb). Even ranks below
 * 2 rem fold into their odd neighbour first (rem = n minus the largest power of two p);
 * the p others halve the vector log2 p times (exchange the half they drop with
 * rank ^ mask, fold in the half they keep), then double it back, and the odd helpers
 * return the result. ~2 m bytes per rank. Commutative ops, count >= p (else: rdb).
 * The group form runs it inside one host for the SMP-aware two-level algorithms. */
#include "collectives/coll_group.h"
#include "collectives/coll_halving.h"

void coll_group_allreduce_rab_rdb(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                                  size_t count, int tag)
{
  int n = g->n, me = g->me;
  const smpi_dt *dt = a->rdt;
  int pof2 = coll_pof2_floor(n), rem = n - pof2;
  if (count < (size_t)pof2) {
    coll_group_allreduce_rdb(x, a, g, buf, count, tag);
    return;
  }
  void *tmp = coll_tmp_dt(x, count, dt);
  coll_halving h;
  coll_halving_init_sub(&h, n, 1, g->base, g->stride, me);
  int newrank = coll_halving_fold(x, a, &h, buf, tmp, count, dt, tag);
  if (newrank >= 0) {
    coll_halving_even_blocks(x, &h, count);
    coll_halving_reduce_scatter(x, a, &h, newrank, buf, tmp, dt, tag);
    for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
      int nd = newrank ^ mask, dst = coll_halving_real(&h, nd);
      coll_halving_step s = coll_halving_unsplit(&h, newrank < nd, pof2 / (mask * 2));
      coll_sendrecv(x, coll_at(buf, s.soff, dt), s.scnt, dt, dst, coll_at(buf, s.roff, dt),
                    s.rcnt, dt, dst, tag);
    }
  }
  if (me < 2 * rem) {
    if (me % 2)
      coll_send(x, buf, count, dt, coll_group_rank(g, me - 1), tag);
    else
      coll_recv(x, buf, count, dt, coll_group_rank(g, me + 1), tag);
  }
}

int coll_allreduce_rab_rdb(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  coll_group g = {0, 1, x->size, x->rank};
  coll_group_allreduce_rab_rdb(x, a, &g, a->rbuf, count, COLL_TAG_ALLREDUCE);
  return x->err;
}
