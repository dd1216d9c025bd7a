/* Alltoall on a ring of distances (STAR-MPI; SimGrid's ring): in step i every rank sends
 * its block for rank + i and receives the block of rank - i, i = 0 .. n-1 (step 0 is a
 * message to itself). Any size; n - 1 rounds of one block. */
#include "collectives/coll_private.h"

int coll_alltoall_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  for (int i = 0; i < n; i++) {
    int dst = (me + i) % n, src = (me - i + n) % n;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)dst * sc, a->sdt), sc, a->sdt, dst,
                  coll_at(a->rbuf, (size_t)src * rc, a->rdt), rc, a->rdt, src, COLL_TAG_ALLTOALL);
  }
  return x->err;
}
