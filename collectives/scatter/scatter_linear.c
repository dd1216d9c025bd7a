/* Scatter, linear and nonblocking (SimGrid's default): the root posts every send at once,
 * so the blocks leave concurrently and share the root's link. */
#include "collectives/coll_private.h"

int coll_scatter_linear(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, a->root, COLL_TAG_SCATTER);
    return x->err;
  }
  size_t sc = (size_t)a->scount;
  for (int i = 0; i < x->size; i++)
    if (i != a->root)
      coll_isend(x, coll_at(a->sbuf, (size_t)i * sc, a->sdt), sc, a->sdt, i, COLL_TAG_SCATTER);
  coll_copy(x, coll_at(a->sbuf, (size_t)a->root * sc, a->sdt), sc, a->sdt, a->rbuf,
            (size_t)a->rcount, a->rdt);
  coll_wait(x);
  return x->err;
}
