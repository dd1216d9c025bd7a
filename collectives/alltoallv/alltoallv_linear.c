/* Alltoallv, linear and nonblocking (SimGrid's default): every receive and send at once. */
#include "collectives/coll_private.h"

int coll_alltoallv_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  coll_copy(x, coll_at(a->sbuf, (size_t)a->sdispls[me], a->sdt), (size_t)a->scounts[me], a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[me], a->rdt), (size_t)a->rcounts[me], a->rdt);
  for (int k = 1; k < n; k++) {
    int src = (me + k) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)a->rdispls[src], a->rdt), (size_t)a->rcounts[src],
               a->rdt, src, COLL_TAG_ALLTOALLV);
  }
  for (int k = 1; k < n; k++) {
    int dst = (me + n - k) % n;
    coll_isend(x, coll_at(a->sbuf, (size_t)a->sdispls[dst], a->sdt), (size_t)a->scounts[dst],
               a->sdt, dst, COLL_TAG_ALLTOALLV);
  }
  coll_wait(x);
  return x->err;
}
