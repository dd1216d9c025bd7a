/* Reduce, Open MPI's basic linear: non-roots send with a blocking send; the root starts
 * from rank n-1's vector and folds in n-2, ..., 0 one receive at a time (left operands:
 * the order holds for any op). */
#include "collectives/coll_private.h"

int coll_reduce_ompi_basic_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  if (me != a->root) {
    coll_send(x, a->sbuf, count, a->sdt, a->root, COLL_TAG_REDUCE);
    return x->err;
  }
  const void *own = a->sbuf;
  if (a->sbuf == a->rbuf && me != n - 1) { /* in place: rbuf is about to be overwritten */
    void *copy = coll_tmp_dt(x, count, a->rdt);
    coll_copy(x, a->rbuf, count, a->rdt, copy, count, a->rdt);
    own = copy;
  }
  if (me == n - 1)
    coll_copy(x, own, count, a->rdt, a->rbuf, count, a->rdt);
  else
    coll_recv(x, a->rbuf, count, a->rdt, n - 1, COLL_TAG_REDUCE);
  void *tmp = coll_tmp_dt(x, count, a->rdt);
  for (int i = n - 2; i >= 0; i--) {
    const void *in = own;
    if (i != me) {
      coll_recv(x, tmp, count, a->rdt, i, COLL_TAG_REDUCE);
      in = tmp;
    }
    coll_reduce(x, a, in, a->rbuf, count);
  }
  return x->err;
}
