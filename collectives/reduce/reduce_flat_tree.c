/* Reduce, flat tree (STAR-MPI; SimGrid's flat_tree): every non-root sends its vector with
 * a blocking send; the root takes them one at a time, from rank root-1 downwards
 * (root-1, root-2, ..., 0, n-1, ..., root+1). To keep the operand order of
 * non-commutative ops the ranks below and above the root accumulate separately:
 * result = (v0 op ... op v(root-1)) op v(root) op (v(root+1) op ... op v(n-1)). */
#include "collectives/coll_private.h"

int coll_reduce_flat_tree(coll_ctx *x, const coll_args *a)
{
  int n = x->size, root = a->root;
  size_t count = (size_t)a->rcount;
  if (x->rank != root) {
    coll_send(x, a->sbuf, count, a->sdt, root, COLL_TAG_REDUCE);
    return x->err;
  }
  void *tmp = coll_tmp_dt(x, count, a->rdt);
  void *low = root > 0 ? coll_tmp_dt(x, count, a->rdt) : NULL;
  void *high = root < n - 1 ? coll_tmp_dt(x, count, a->rdt) : NULL;
  for (int i = 1; i < n; i++) {
    int src = (root - i + n) % n;
    bool is_low = src < root;
    void *acc = is_low ? low : high;
    bool first = is_low ? src == root - 1 : src == n - 1;
    coll_recv(x, first ? acc : tmp, count, a->rdt, src, COLL_TAG_REDUCE);
    if (!first) /* src is just below what acc holds */
      coll_reduce(x, a, tmp, acc, count);
  }
  /* rbuf = low op own op high (in place, own is already in rbuf) */
  if (high) {
    coll_reduce(x, a, a->sbuf, high, count);
    coll_copy(x, high, count, a->rdt, a->rbuf, count, a->rdt);
  } else {
    coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  }
  if (low)
    coll_reduce(x, a, low, a->rbuf, count);
  return x->err;
}
