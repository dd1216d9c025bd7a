/* Broadcast along a 4-nomial tree, MVAPICH2's intra-node k-nomial (SimGrid's
 * mvapich2_knomial_intra_node, run on the whole communicator; factor 4, MVAPICH2's default
 * mv2_intra_node_knomial_factor): the tree of bcast_knomial.c, but a rank sends to the up
 * to 3 children of one level at once and waits for them before the next, smaller level. */
#include "collectives/coll_private.h"

#define K 4

int coll_bcast_mvapich2_knomial_intra_node(coll_ctx *x, const coll_args *a)
{
  int n = x->size, v = (x->rank - a->root + n) % n;
  if (n <= 1)
    return x->err;
  int mask = 1;
  while (mask < n) {
    if (v % (K * mask)) {
      int parent = v / (K * mask) * (K * mask);
      coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, (parent + a->root) % n, COLL_TAG_BCAST);
      break;
    }
    mask *= K;
  }
  for (mask /= K; mask > 0; mask /= K) {
    for (int j = 1; j < K; j++)
      if (v + mask * j < n)
        coll_isend(x, a->rbuf, (size_t)a->rcount, a->rdt, (x->rank + mask * j) % n,
                   COLL_TAG_BCAST);
    coll_wait(x);
  }
  return x->err;
}
