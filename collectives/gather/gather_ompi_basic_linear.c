/* Gather, Open MPI's basic linear: non-roots send with a blocking send; the root receives
 * the blocks one at a time in rank order. */
#include "collectives/coll_private.h"

int coll_gather_ompi_basic_linear(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_send(x, a->sbuf, (size_t)a->scount, a->sdt, a->root, COLL_TAG_GATHER);
    return x->err;
  }
  size_t rc = (size_t)a->rcount;
  for (int i = 0; i < x->size; i++) {
    char *dst = coll_at(a->rbuf, (size_t)i * rc, a->rdt);
    if (i == x->rank)
      coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, dst, rc, a->rdt);
    else
      coll_recv(x, dst, rc, a->rdt, i, COLL_TAG_GATHER);
  }
  return x->err;
}
