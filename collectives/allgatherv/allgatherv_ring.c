/* Allgatherv by distances (SimGrid's ring): step i sends the own block to rank + i and
 * receives the block of rank - i. */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  agv_own(x, a);
  for (int i = 1; i < n; i++) {
    int src = (me - i + n) % n, dst = (me + i) % n;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, dst, agv_block(a, src),
                  (size_t)a->rcounts[src], a->rdt, src, COLL_TAG_ALLGATHERV);
  }
  return x->err;
}
