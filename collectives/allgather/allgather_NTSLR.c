/* Allgather on a logical ring (STAR-MPI's NTSLR, "non-topology-specific logical ring";
 * SimGrid's NTSLR): the own block reaches rbuf as a message to itself, then in step i
 * every rank passes the block it got last (its own first) to rank + 1 and receives block
 * rank - i - 1 from rank - 1, with one blocking exchange per step. */
#include "collectives/coll_private.h"

int coll_allgather_NTSLR(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me,
                coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt, me, COLL_TAG_ALLGATHER);
  int to = (me + 1) % n, from = (me - 1 + n) % n;
  for (int i = 0; i < n - 1; i++) {
    int sb = (me - i + n) % n, rb = (me - i - 1 + n) % n;
    coll_sendrecv(x, coll_at(a->rbuf, (size_t)sb * rc, a->rdt), rc, a->rdt, to,
                  coll_at(a->rbuf, (size_t)rb * rc, a->rdt), rc, a->rdt, from,
                  COLL_TAG_ALLGATHER);
  }
  return x->err;
}
