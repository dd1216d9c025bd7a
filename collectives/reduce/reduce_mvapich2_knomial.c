/* Reduce along a 4-nomial tree, MVAPICH2's (SimGrid's mvapich2_knomial; factor 4, its
 * default when MVAPICH2's tables have not set one; commutative ops, which SimGrid's
 * version needs to combine anything). The tree is bcast_knomial.c's, upside down: a rank
 * posts the receives from all its children at once (smallest subtree first), combines
 * their vectors into its own, then sends the result to its parent.
 *   16 ranks, root 0: 0 <- 1 2 3 4 8 12; 4 <- 5 6 7. */
#include "collectives/coll_private.h"

#define K 4

int coll_reduce_mvapich2_knomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, v = (me - a->root + n) % n;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  if (count == 0)
    return x->err;
  char *acc = me == a->root ? a->rbuf : coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, dt);
  int mask = 1, parent = -1;
  while (mask < n) {
    if (v % (K * mask)) {
      parent = (v / (K * mask) * (K * mask) + a->root) % n;
      break;
    }
    mask *= K;
  }
  /* children, largest subtree first; received in the reverse order */
  int kids[3 * 32], nk = 0;
  for (int m = mask / K; m > 0; m /= K)
    for (int j = 1; j < K; j++)
      if (v + m * j < n)
        kids[nk++] = (me + m * j) % n;
  char *in = coll_tmp_dt(x, count * (size_t)(nk ? nk : 1), dt);
  for (int i = 0; i < nk; i++)
    coll_irecv(x, coll_at(in, (size_t)i * count, dt), count, dt, kids[nk - 1 - i],
               COLL_TAG_REDUCE);
  coll_wait(x);
  for (int i = 0; i < nk; i++)
    coll_reduce(x, a, coll_at(in, (size_t)i * count, dt), acc, count);
  if (parent >= 0) {
    coll_isend(x, acc, count, dt, parent, COLL_TAG_REDUCE);
    coll_wait(x);
  }
  return x->err;
}
