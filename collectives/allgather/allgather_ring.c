/* Allgather by distances (SimGrid's ring): in step i every rank sends its own block to
 * rank + i and receives the block of rank - i, i = 1 .. n-1. */
#include "collectives/coll_private.h"

int coll_allgather_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc,
            a->rdt);
  for (int i = 1; i < n; i++) {
    int src = (me - i + n) % n, dst = (me + i) % n;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, dst,
                  coll_at(a->rbuf, (size_t)src * rc, a->rdt), rc, a->rdt, src,
                  COLL_TAG_ALLGATHER);
  }
  return x->err;
}
