/* Alltoall, basic linear (Open MPI's basic_linear, SimGrid's default above 511 bytes per
 * block): every receive and every send posted at once, peers taken in the order
 * rank+1, rank+2, ... so that not everyone starts with rank 0. */
#include "collectives/coll_private.h"

int coll_alltoall_basic_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  coll_copy(x, coll_at(a->sbuf, (size_t)me * sc, a->sdt), sc, a->sdt,
            coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt);
  for (int k = 1; k < n; k++) {
    int src = (me + k) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)src * rc, a->rdt), rc, a->rdt, src, COLL_TAG_ALLTOALL);
  }
  for (int k = 1; k < n; k++) {
    int dst = (me + n - k) % n;
    coll_isend(x, coll_at(a->sbuf, (size_t)dst * sc, a->sdt), sc, a->sdt, dst, COLL_TAG_ALLTOALL);
  }
  coll_wait(x);
  return x->err;
}
