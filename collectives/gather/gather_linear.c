/* Gather, linear and nonblocking (SimGrid's default): every non-root sends its block; the
 * root posts all receives at once, so the blocks arrive concurrently and share the root's
 * link. */
#include "collectives/coll_private.h"

int coll_gather_linear(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_send(x, a->sbuf, (size_t)a->scount, a->sdt, a->root, COLL_TAG_GATHER);
    return x->err;
  }
  size_t rc = (size_t)a->rcount;
  for (int i = 0; i < x->size; i++)
    if (i != a->root)
      coll_irecv(x, coll_at(a->rbuf, (size_t)i * rc, a->rdt), rc, a->rdt, i, COLL_TAG_GATHER);
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)a->root * rc, a->rdt),
            rc, a->rdt);
  coll_wait(x);
  return x->err;
}
