/* Alltoallv, pairwise exchange: step i exchanges with rank ^ i (power-of-two sizes). */
#include "collectives/coll_private.h"

int coll_alltoallv_pair(coll_ctx *x, const coll_args *a)
{
  for (int i = 0; i < x->size; i++) {
    int p = x->rank ^ i;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)a->sdispls[p], a->sdt), (size_t)a->scounts[p],
                  a->sdt, p, coll_at(a->rbuf, (size_t)a->rdispls[p], a->rdt),
                  (size_t)a->rcounts[p], a->rdt, p, COLL_TAG_ALLTOALLV);
  }
  return x->err;
}
