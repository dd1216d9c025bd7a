/* Allgatherv, linear and nonblocking (SimGrid's default): every rank posts a receive from
 * and a send to every other rank at once. */
#include "collectives/coll_private.h"

int coll_allgatherv_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[me], a->rdt), (size_t)a->rcounts[me], a->rdt);
  for (int k = 1; k < n; k++) {
    int src = (me - k + n) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)a->rdispls[src], a->rdt), (size_t)a->rcounts[src],
               a->rdt, src, COLL_TAG_ALLGATHERV);
  }
  for (int k = 1; k < n; k++)
    coll_isend(x, a->sbuf, (size_t)a->scount, a->sdt, (me + k) % n, COLL_TAG_ALLGATHERV);
  coll_wait(x);
  return x->err;
}
