/* Allgather by recursive doubling (MPICH; SimGrid's rdb). In step i a rank swaps with
 * rank ^ 2^i all the blocks its subtree of 2^i ranks holds, so the data doubles each step.
 * With a size that is not a power of two some ranks lack a partner; the ranks of their
 * subtree that got the partner's blocks pass them on down a binomial tree (MPICH's
 * "haves send to the have-nots"). Sizes are computed, not read from statuses: after step
 * i a subtree rooted at T holds blocks [T, min(T + 2^(i+1), n)). */
#include "collectives/coll_private.h"

int coll_allgather_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, dt), rc, dt);
  size_t *pos = coll_tmp(x, ((size_t)n + 1) * sizeof *pos);
  for (int i = 0; i <= n; i++)
    pos[i] = (size_t)i * rc;
  coll_allgather_rdb_blocks(x, a->rbuf, pos, dt, COLL_TAG_ALLGATHER, NULL);
  return x->err;
}
