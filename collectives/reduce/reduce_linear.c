/* Reduce, linear and nonblocking (SimGrid's default): every non-root sends its vector; the
 * root receives them all at once into scratch buffers, then combines them in rank order,
 * right to left (v0 op (v1 op (... op v(n-1)))), which keeps the operand order of
 * non-commutative ops. */
#include "collectives/coll_private.h"

int coll_reduce_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, root = a->root;
  size_t cnt = (size_t)a->rcount;
  if (x->rank != root) {
    coll_send(x, a->sbuf, cnt, a->sdt, root, COLL_TAG_REDUCE);
    return x->err;
  }
  const void **v = coll_tmp(x, (size_t)n * sizeof *v);
  for (int i = 0; i < n; i++) {
    if (i == root)
      continue;
    void *t = coll_tmp_dt(x, cnt, a->rdt);
    v[i] = t;
    coll_irecv(x, t, cnt, a->rdt, i, COLL_TAG_REDUCE);
  }
  /* in place the root's own vector is in rbuf, which accumulates: keep a copy */
  if (a->sbuf == a->rbuf && root != n - 1) {
    void *own = coll_tmp_dt(x, cnt, a->rdt);
    coll_copy(x, a->rbuf, cnt, a->rdt, own, cnt, a->rdt);
    v[root] = own;
  } else {
    v[root] = a->sbuf;
  }
  coll_wait(x);
  coll_copy(x, v[n - 1], cnt, a->rdt, a->rbuf, cnt, a->rdt);
  for (int i = n - 2; i >= 0; i--)
    coll_reduce(x, a, v[i], a->rbuf, cnt);
  return x->err;
}
