/* Gatherv, linear and nonblocking: the root posts every receive at once. */
#include "collectives/coll_private.h"

int coll_gatherv_linear(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_send(x, a->sbuf, (size_t)a->scount, a->sdt, a->root, COLL_TAG_GATHERV);
    return x->err;
  }
  for (int i = 0; i < x->size; i++)
    if (i != a->root)
      coll_irecv(x, coll_at(a->rbuf, (size_t)a->rdispls[i], a->rdt), (size_t)a->rcounts[i],
                 a->rdt, i, COLL_TAG_GATHERV);
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[a->root], a->rdt), (size_t)a->rcounts[a->root],
            a->rdt);
  coll_wait(x);
  return x->err;
}
