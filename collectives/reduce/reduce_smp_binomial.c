/* SMP-aware reduce: a binomial reduction inside each host to its leader (its lowest rank),
 * then a binomial reduction among the leaders to rank 0, then rank 0 sends the result to
 * the root if that is another rank. Hosts hold equal blocks of consecutive ranks
 * (COLL_F_SMP), so every step combines neighbours in rank order: any op. Intra-host
 * messages are cheap, so only (hosts - 1) messages cross the network. */
#include "collectives/coll_group.h"

int coll_reduce_smp_binomial(coll_ctx *x, const coll_args *a)
{
  int me = x->rank;
  size_t count = (size_t)a->rcount;
  void *acc = me == 0 && a->root == 0 ? a->rbuf : coll_tmp_dt(x, count, a->rdt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, a->rdt);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_group_reduce_binomial(x, a, &intra, acc, count, COLL_TAG_REDUCE);
  coll_group_reduce_binomial(x, a, &inter, acc, count, COLL_TAG_REDUCE);
  if (a->root != 0) {
    if (me == 0)
      coll_send(x, acc, count, a->rdt, a->root, COLL_TAG_REDUCE);
    else if (me == a->root)
      coll_recv(x, a->rbuf, count, a->rdt, 0, COLL_TAG_REDUCE);
  }
  return x->err;
}
