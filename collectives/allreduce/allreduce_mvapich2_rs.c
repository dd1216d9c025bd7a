/* MVAPICH2's reduce-scatter allreduce (SimGrid's mvapich2_rs): MPICH's allreduce without
 * its size test. Even ranks below 2 rem fold into their odd neighbour (rem = n minus the
 * largest power of two p <= n); with count < p the p others then do recursive doubling on
 * the whole vector, else recursive halving + doubling on p blocks; the helpers get the
 * result back. Message for message rab_rdb, below p elements rdb: it runs that. */
#include "collectives/coll_group.h"

int coll_allreduce_mvapich2_rs(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  coll_group g = {0, 1, x->size, x->rank};
  coll_group_allreduce_rab_rdb(x, a, &g, a->rbuf, count, COLL_TAG_ALLREDUCE);
  return x->err;
}
