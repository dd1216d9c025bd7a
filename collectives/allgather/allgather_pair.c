/* Allgather, pairwise exchange: step i swaps own blocks with rank ^ i (power of two). */
#include "collectives/coll_private.h"

int coll_allgather_pair(coll_ctx *x, const coll_args *a)
{
  size_t rc = (size_t)a->rcount;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)x->rank * rc, a->rdt),
            rc, a->rdt);
  for (int i = 1; i < x->size; i++) {
    int p = x->rank ^ i;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, p,
                  coll_at(a->rbuf, (size_t)p * rc, a->rdt), rc, a->rdt, p, COLL_TAG_ALLGATHER);
  }
  return x->err;
}
