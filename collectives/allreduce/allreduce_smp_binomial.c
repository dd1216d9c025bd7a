/* SMP-aware allreduce: binomial reduce inside each host to its leader, binomial reduce
 * among leaders to rank 0, binomial bcast among leaders, binomial bcast inside each host.
 * Hosts hold equal blocks of consecutive ranks (COLL_F_SMP); operand order holds. */
#include "collectives/coll_group.h"

int coll_allreduce_smp_binomial(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_group_reduce_binomial(x, a, &intra, a->rbuf, count, COLL_TAG_ALLREDUCE);
  coll_group_reduce_binomial(x, a, &inter, a->rbuf, count, COLL_TAG_ALLREDUCE);
  coll_group_bcast_binomial(x, &inter, a->rbuf, count, a->rdt, COLL_TAG_ALLREDUCE);
  coll_group_bcast_binomial(x, &intra, a->rbuf, count, a->rdt, COLL_TAG_ALLREDUCE);
  return x->err;
}
