/* Reduce, linear and nonblocking (SimGrid's default): every non-root sends its vector; the
 * root receives them all at once into scratch buffers, then combines them in rank order,
 * right to left (v0 op (v1 op (... op v(n-1)))), which keeps the operand order of
 * non-commutative ops.
 *
 * The last vector starts the result: it is received straight into rbuf (no scratch, no copy:
 * at 16 ranks x 1 MiB, 256 of the root's 3 840 first page faults and 1 MiB copied per call)
 * unless rbuf holds the root's own vector (in place) or the scratch is folded memory. */
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
  bool last_in_rbuf = root != n - 1 && a->sbuf != a->rbuf && !x->fold_tmp;
  for (int i = 0; i < n; i++) {
    if (i == root)
      continue;
    void *t = i == n - 1 && last_in_rbuf ? a->rbuf : coll_tmp_dt(x, cnt, a->rdt);
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
  if (!last_in_rbuf)
    coll_copy(x, v[n - 1], cnt, a->rdt, a->rbuf, cnt, a->rdt);
  for (int i = n - 2; i >= 0; i--)
    coll_reduce(x, a, v[i], a->rbuf, cnt);
  return x->err;
}
