/* Allgatherv on a ring (MPICH; SimGrid's mpich_ring): in step i a rank passes the block it
 * got last (its own first) to rank + 1 and receives block rank - i - 1 from rank - 1. */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_mpich_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  agv_own(x, a);
  int right = (me + 1) % n, left = (me - 1 + n) % n, j = me, jnext = left;
  for (int i = 1; i < n; i++) {
    coll_sendrecv(x, agv_block(a, j), (size_t)a->rcounts[j], a->rdt, right, agv_block(a, jnext),
                  (size_t)a->rcounts[jnext], a->rdt, left, COLL_TAG_ALLGATHERV);
    j = jnext;
    jnext = (jnext - 1 + n) % n;
  }
  return x->err;
}
