/* Barrier by recursive doubling (Open MPI). With p the largest power of two <= n, ranks
 * >= p first check in with rank - p; the first p ranks then exchange with rank ^ 1,
 * rank ^ 2, ... (log2 p rounds); finally ranks < n - p release their partner rank + p. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_recursivedoubling(coll_ctx *x, const coll_args *args)
{
  (void)args;
  const smpi_dt *b = coll_byte();
  int n = x->size, me = x->rank, p = coll_pof2_floor(n);
  if (p != n) {
    if (me >= p)
      coll_sendrecv(x, NULL, 0, b, me - p, NULL, 0, b, me - p, COLL_TAG_BARRIER);
    else if (me < n - p)
      coll_recv(x, NULL, 0, b, me + p, COLL_TAG_BARRIER);
  }
  if (me < p)
    for (int mask = 1; mask < p; mask <<= 1)
      coll_sendrecv(x, NULL, 0, b, me ^ mask, NULL, 0, b, me ^ mask, COLL_TAG_BARRIER);
  if (p != n && me < n - p)
    coll_send(x, NULL, 0, b, me + p, COLL_TAG_BARRIER);
  return x->err;
}
