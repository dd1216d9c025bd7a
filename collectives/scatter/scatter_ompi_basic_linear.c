/* Scatter, Open MPI's basic linear: the root sends the blocks one at a time in rank order
 * with blocking sends; its linear_nb (scatter_ompi_linear_nb.c) posts the same sends
 * nonblocking and waits for them all. */
#include "collectives/coll_private.h"

int coll_scatter_ompi_linear(coll_ctx *x, const coll_args *a, bool nonblocking)
{
  if (x->rank != a->root) {
    coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, a->root, COLL_TAG_SCATTER);
    return x->err;
  }
  size_t sc = (size_t)a->scount;
  for (int i = 0; i < x->size; i++) {
    const char *src = coll_at(a->sbuf, (size_t)i * sc, a->sdt);
    if (i == x->rank)
      coll_copy(x, src, sc, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
    else if (nonblocking)
      coll_isend(x, src, sc, a->sdt, i, COLL_TAG_SCATTER);
    else
      coll_send(x, src, sc, a->sdt, i, COLL_TAG_SCATTER);
  }
  if (nonblocking)
    coll_wait(x);
  return x->err;
}

int coll_scatter_ompi_basic_linear(coll_ctx *x, const coll_args *a)
{
  return coll_scatter_ompi_linear(x, a, false);
}
