/* Allreduce = reduce-scatter by recursive halving + allgather by recursive doubling
 * (Rabenseifner; MPICH's long-message allreduce, SimGrid's rab_rdb). Even ranks below
 * 2 rem fold into their odd neighbour first (rem = n minus the largest power of two p);
 * the p others halve the vector log2 p times (exchange the half they drop with
 * rank ^ mask, fold in the half they keep), then double it back, and the odd helpers
 * return the result. ~2 m bytes per rank. Commutative ops, count >= p (else: rdb). */
#include "collectives/coll_halving.h"

int coll_allreduce_rab_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  int pof2 = coll_pof2_floor(n), rem = n - pof2;
  if (count < (size_t)pof2)
    return coll_allreduce_rdb(x, a);
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, dt);
  void *buf = a->rbuf, *tmp = coll_tmp_dt(x, count, dt);
  coll_halving h;
  coll_halving_init(&h, n, 1);
  int newrank = coll_halving_fold(x, a, &h, buf, tmp, count, dt, COLL_TAG_ALLREDUCE);
  if (newrank >= 0) {
    coll_halving_even_blocks(x, &h, count);
    coll_halving_reduce_scatter(x, a, &h, newrank, buf, tmp, dt, COLL_TAG_ALLREDUCE);
    for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
      int nd = newrank ^ mask, dst = coll_halving_real(&h, nd);
      coll_halving_step s = coll_halving_unsplit(&h, newrank < nd, pof2 / (mask * 2));
      coll_sendrecv(x, coll_at(buf, s.soff, dt), s.scnt, dt, dst, coll_at(buf, s.roff, dt),
                    s.rcnt, dt, dst, COLL_TAG_ALLREDUCE);
    }
  }
  if (me < 2 * rem) {
    if (me % 2)
      coll_send(x, buf, count, dt, me - 1, COLL_TAG_ALLREDUCE);
    else
      coll_recv(x, buf, count, dt, me + 1, COLL_TAG_ALLREDUCE);
  }
  return x->err;
}
