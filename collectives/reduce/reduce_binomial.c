/* Reduce along a binomial tree (MPICH; SimGrid's binomial). Relative to the root, a rank
 * whose bit k is clear receives from rank + 2^k (if it exists) and folds it in; at its
 * lowest set bit it sends its partial result to rank - 2^k and stops. Blocking messages, so
 * a parent takes its children one at a time, smallest subtree first.
 *
 *   mask 1: 1->0 3->2 5->4 7->6      mask 2: 2->0 6->4      mask 4: 4->0
 *
 * Higher ranks' data is the right operand; for a non-commutative op the tree is rooted at
 * rank 0 (so that the order holds) and rank 0 sends the result on to the root. */
#include "collectives/coll_group.h"

int coll_reduce_binomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  bool commutative = smpi_op_is_commutative(a->op);
  int lroot = commutative ? a->root : 0;
  /* the accumulator: rbuf at the root (already holding the data when in place) */
  void *acc = me == a->root ? a->rbuf : coll_tmp_dt(x, count, a->rdt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, a->rdt);
  coll_group g = {0, 1, n, me};
  if (lroot == 0) {
    coll_group_reduce_binomial(x, a, &g, acc, count, COLL_TAG_REDUCE);
  } else { /* relative ranks: a group rotated to start at the root */
    void *tmp = coll_tmp_dt(x, count, a->rdt);
    int rel = (me - lroot + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
      if ((rel & mask) == 0) {
        if ((rel | mask) >= n)
          continue;
        coll_recv(x, tmp, count, a->rdt, ((rel | mask) + lroot) % n, COLL_TAG_REDUCE);
        coll_reduce(x, a, tmp, acc, count);
      } else {
        coll_send(x, acc, count, a->rdt, ((rel & ~mask) + lroot) % n, COLL_TAG_REDUCE);
        break;
      }
    }
  }
  if (lroot != a->root) {
    if (me == 0)
      coll_send(x, acc, count, a->rdt, a->root, COLL_TAG_REDUCE);
    else if (me == a->root)
      coll_recv(x, a->rbuf, count, a->rdt, 0, COLL_TAG_REDUCE);
  }
  return x->err;
}
