/* Reduce along a binomial tree (MPICH; SimGrid's binomial). Relative to the root, a rank
 * whose bit k is clear receives from rank + 2^k (if it exists) and folds it in; at its
 * lowest set bit it sends its partial result to rank - 2^k and stops. Blocking messages, so
 * a parent takes its children one at a time, smallest subtree first.
 *
 *   mask 1: 1->0 3->2 5->4 7->6      mask 2: 2->0 6->4      mask 4: 4->0
 *
 * Higher ranks' data is the right operand; for a non-commutative op the tree is rooted at
 * rank 0 (so that the order holds) and rank 0 sends the result on to the root.
 * The group form runs it inside a host or among host leaders (two-level algorithms). */
#include "collectives/coll_group.h"

void coll_group_reduce_binomial_root(coll_ctx *x, const coll_args *a, const coll_group *g,
                                     void *buf, size_t count, int root, int tag)
{
  int n = g->n, me = g->me;
  int lroot = smpi_op_is_commutative(a->op) ? root : 0;
  if (lroot == 0) {
    coll_group_reduce_binomial(x, a, g, buf, count, tag);
  } else { /* relative ranks: a group rotated to start at the root */
    void *tmp = coll_tmp_dt(x, count, a->rdt);
    int rel = (me - lroot + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
      if ((rel & mask) == 0) {
        if ((rel | mask) >= n)
          continue;
        coll_recv(x, tmp, count, a->rdt, coll_group_rank(g, ((rel | mask) + lroot) % n), tag);
        coll_reduce(x, a, tmp, buf, count);
      } else {
        coll_send(x, buf, count, a->rdt, coll_group_rank(g, ((rel & ~mask) + lroot) % n), tag);
        break;
      }
    }
  }
  if (lroot != root) {
    if (me == 0)
      coll_send(x, buf, count, a->rdt, coll_group_rank(g, root), tag);
    else if (me == root)
      coll_recv(x, buf, count, a->rdt, coll_group_rank(g, 0), tag);
  }
}

int coll_reduce_binomial(coll_ctx *x, const coll_args *a)
{
  int me = x->rank;
  size_t count = (size_t)a->rcount;
  /* the accumulator: rbuf at the root (already holding the data when in place) */
  void *acc = me == a->root ? a->rbuf : coll_tmp_dt(x, count, a->rdt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, a->rdt);
  coll_group g = {0, 1, x->size, me};
  coll_group_reduce_binomial_root(x, a, &g, acc, count, a->root, COLL_TAG_REDUCE);
  return x->err;
}
