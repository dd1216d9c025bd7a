/* Allreduce by recursive doubling (MPICH's short-message algorithm; Open MPI's
 * recursivedoubling has the same messages; SimGrid's rdb). Even ranks below 2 rem (rem = n
 * minus the largest power of two p <= n) give their vector to their odd neighbour and wait;
 * the p others exchange whole vectors with rank ^ 2^k for k = 0 .. log2 p - 1, folding
 * each in; finally the odd helpers return the result. log2 p rounds of m bytes. */
#include "collectives/coll_group.h"

int coll_allreduce_rdb(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  coll_group g = {0, 1, x->size, x->rank};
  coll_group_allreduce_rdb(x, a, &g, a->rbuf, count, COLL_TAG_ALLREDUCE);
  return x->err;
}
