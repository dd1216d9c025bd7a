/* Scatterv, linear and nonblocking: the root posts every send at once. */
#include "collectives/coll_private.h"

int coll_scatterv_linear(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, a->root, COLL_TAG_SCATTERV);
    return x->err;
  }
  for (int i = 0; i < x->size; i++)
    if (i != a->root)
      coll_isend(x, coll_at(a->sbuf, (size_t)a->sdispls[i], a->sdt), (size_t)a->scounts[i],
                 a->sdt, i, COLL_TAG_SCATTERV);
  coll_copy(x, coll_at(a->sbuf, (size_t)a->sdispls[a->root], a->sdt), (size_t)a->scounts[a->root],
            a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
  coll_wait(x);
  return x->err;
}
