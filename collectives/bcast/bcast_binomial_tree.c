/* Broadcast along a binomial tree (MPICH's short-message algorithm, SimGrid's default).
 *
 * In ranks relative to the root (vr = rank - root mod n), vr receives from vr minus its
 * lowest set bit, then sends to vr + 2^k for every 2^k below that bit, largest first, with
 * blocking sends (each child is served in turn). n = 6, root 0:
 *
 *     0 -> 4, 0 -> 2, 0 -> 1        (0's lowest set bit is "above" everything)
 *     2 -> 3;  4 -> 5
 *
 * ceil(log2 n) rounds; the root sends ceil(log2 n) times the whole buffer. */
#include "collectives/coll_private.h"

int coll_bcast_binomial_tree(coll_ctx *x, const coll_args *a)
{
  int n = x->size, vr = (x->rank - a->root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, (x->rank - mask + n) % n, COLL_TAG_BCAST);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n)
      coll_send(x, a->rbuf, (size_t)a->rcount, a->rdt, (x->rank + mask) % n, COLL_TAG_BCAST);
  return x->err;
}
