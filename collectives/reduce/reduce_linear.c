/* Reduce, linear and nonblocking (SimGrid's default): every non-root sends its vector; the
 * root posts all its receives at once, so that every sender's flow starts as soon as it
 * sends (the simulated times are those of that pattern, whatever the root does with the
 * data).
 *
 * With a predefined op (always commutative) the root combines each vector as it lands, in
 * arrival order, all of them through one scratch vector (coll_irecv_reduce):
 *
 *   rbuf = v_root;  v_3 lands -> rbuf = v_3 op rbuf;  v_1 lands -> rbuf = v_1 op rbuf; ...
 *
 * Holding every vector until the last one came took (n - 1) vectors of scratch: 4 GiB at
 * the root of a 4 096-rank Reduce of 1 MiB, faulted in afresh by each call that needed more
 * than the heap kept (6-10 CPU-s of clear_page in the users' Allreduce at 4 096 ranks).
 * Arrival order is deterministic where the simulation is (a sum of doubles may differ in its
 * last bits from run to run only where measured computation moves the arrivals).
 *
 * A user-defined op is the program's code, which must run in the root's own context, and
 * may be non-commutative: those vectors (and folded scratch, one buffer per vector) are all
 * received, then combined in rank order, right to left (v0 op (v1 op (... op v(n-1)))),
 * which keeps the operand order. The last vector starts the result: it is received straight
 * into rbuf unless rbuf holds the root's own vector (in place) or the scratch is folded. */
#include "collectives/coll_private.h"

int coll_reduce_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, root = a->root;
  size_t cnt = (size_t)a->rcount;
  if (x->rank != root) {
    coll_send(x, a->sbuf, cnt, a->sdt, root, COLL_TAG_REDUCE);
    return x->err;
  }
  if (a->op && smpi_op_is_predefined(a->op) && !x->fold_tmp) {
    if (a->sbuf != a->rbuf)
      coll_copy(x, a->sbuf, cnt, a->rdt, a->rbuf, cnt, a->rdt);
    void *landing = coll_tmp_dt(x, cnt, a->rdt);
    coll_reduce_sink sink;
    coll_reduce_sink_init(&sink, x, a, a->rbuf, cnt);
    for (int i = 0; i < n; i++)
      if (i != root)
        coll_irecv_reduce(x, landing, i, COLL_TAG_REDUCE, &sink);
    coll_wait(x);
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
