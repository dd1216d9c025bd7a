/* Allgather, linear and nonblocking (SimGrid's default): every rank posts a receive from
 * and a send to every other rank at once; n (n - 1) concurrent messages. */
#include "collectives/coll_private.h"

int coll_allgather_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc,
            a->rdt);
  for (int k = 1; k < n; k++) {
    int src = (me - k + n) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)src * rc, a->rdt), rc, a->rdt, src,
               COLL_TAG_ALLGATHER);
  }
  for (int k = 1; k < n; k++)
    coll_isend(x, a->sbuf, (size_t)a->scount, a->sdt, (me + k) % n, COLL_TAG_ALLGATHER);
  coll_wait(x);
  return x->err;
}
