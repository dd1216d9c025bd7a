/* Reduce_scatter, pairwise exchange (MPICH's long-message algorithm, SimGrid's
 * mpich_pair): in step i a rank sends the block of rank + i (from its input) and receives
 * its own block's contribution from rank - i, folding it in. n - 1 steps of one block.
 * Commutative ops only. */
#include "collectives/coll_private.h"

int coll_reduce_scatter_mpich_pair(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt;
  size_t count = (size_t)a->scount, mine = (size_t)a->rcounts[me];
  size_t *disps = coll_tmp(x, (size_t)n * sizeof *disps);
  disps[0] = 0;
  for (int i = 1; i < n; i++)
    disps[i] = disps[i - 1] + (size_t)a->rcounts[i - 1];
  const void *in = a->sbuf;
  if (a->sbuf == a->rbuf) { /* in place: the input must outlive the result's writes */
    void *copy = coll_tmp_dt(x, count, dt);
    coll_copy(x, a->rbuf, count, dt, copy, count, dt);
    in = copy;
  }
  coll_copy(x, coll_at(in, disps[me], dt), mine, dt, a->rbuf, mine, dt);
  void *tmp = coll_tmp_dt(x, mine, dt);
  for (int i = 1; i < n; i++) {
    int src = (me - i + n) % n, dst = (me + i) % n;
    coll_sendrecv(x, coll_at(in, disps[dst], dt), (size_t)a->rcounts[dst], dt, dst, tmp, mine, dt,
                  src, COLL_TAG_REDUCE_SCATTER);
    coll_reduce(x, a, tmp, a->rbuf, mine);
  }
  return x->err;
}
