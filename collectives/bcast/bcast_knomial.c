/* Broadcast along a k-nomial tree, k = 4 (MVAPICH2's and MPICH's knomial trees): in base
 * k, relative rank v receives from v with its lowest non-zero digit cleared, then sends to
 * v + j k^p for every digit position p below that digit and j = 1 .. k-1, largest
 * subtrees first, all sends at once. ceil(log_k n) rounds, k - 1 sends per round and rank:
 * fewer rounds than binomial for small messages. 16 ranks: 0 -> 4 8 12 1 2 3; 4 -> 5 6 7. */
#include "collectives/coll_private.h"

#define K 4

int coll_bcast_knomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, v = (x->rank - a->root + n) % n;
  int span = 1; /* k^p with p the lowest non-zero digit of v (beyond n for the root) */
  while (span < n && (v / span) % K == 0)
    span *= K;
  if (v != 0) {
    int parent = v - ((v / span) % K) * span;
    coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, (parent + a->root) % n, COLL_TAG_BCAST);
  }
  for (int p = span / K; p >= 1; p /= K)
    for (int j = 1; j < K; j++) {
      int c = v + j * p;
      if (c < n)
        coll_isend(x, a->rbuf, (size_t)a->rcount, a->rdt, (c + a->root) % n, COLL_TAG_BCAST);
    }
  coll_wait(x);
  return x->err;
}
