/* Allgather, all at once in rotated order (A. Faraj and X. Yuan; SimGrid's
 * spreading_simple): the own block reaches rbuf as a message to itself, then every rank
 * posts receives from rank + 1, rank + 2, ... and sends its block to rank + 1, rank + 2, ...
 * in that order, and waits for all. */
#include "collectives/coll_private.h"

int coll_allgather_spreading_simple(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me,
                coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt, me, COLL_TAG_ALLGATHER);
  for (int i = 1; i < n; i++) {
    int src = (me + i) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)src * rc, a->rdt), rc, a->rdt, src,
               COLL_TAG_ALLGATHER);
  }
  for (int i = 1; i < n; i++)
    coll_isend(x, a->sbuf, (size_t)a->scount, a->sdt, (me + i) % n, COLL_TAG_ALLGATHER);
  coll_wait(x);
  return x->err;
}
