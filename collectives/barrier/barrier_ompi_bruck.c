/* Barrier by dissemination (Open MPI's "bruck", MPICH's algorithm too): in round k every
 * rank sends to rank + 2^k and receives from rank - 2^k (mod n); after ceil(log2 n) rounds
 * everyone has heard, directly or not, from everyone. Works for any n. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_bruck(coll_ctx *x, const coll_args *args)
{
  (void)args;
  const smpi_dt *b = coll_byte();
  int n = x->size, me = x->rank;
  for (int d = 1; d < n; d <<= 1)
    coll_sendrecv(x, NULL, 0, b, (me + d) % n, NULL, 0, b, (me - d + n) % n, COLL_TAG_BARRIER);
  return x->err;
}
