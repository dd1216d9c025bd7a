/* Allgather by recursive doubling (MPICH; SimGrid's rdb). In step i a rank swaps with
 * rank ^ 2^i all the blocks its subtree of 2^i ranks holds, so the data doubles each step.
 * With a size that is not a power of two some ranks lack a partner; the ranks of their
 * subtree that got the partner's blocks pass them on down a binomial tree (MPICH's
 * "haves send to the have-nots"). Sizes are computed, not read from statuses: after step
 * i a subtree rooted at T holds blocks [T, min(T + 2^(i+1), n)). */
#include "collectives/coll_private.h"

int coll_allgather_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, dt), rc, dt);
  size_t curr = 1; /* blocks held */
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = me ^ mask;
    int dst_root = dst >> i << i, my_root = me >> i << i;
    int dst_hi = dst_root + mask < n ? dst_root + mask : n;
    size_t last = dst_hi > dst_root ? (size_t)(dst_hi - dst_root) : 0; /* blocks received */
    if (dst < n) {
      coll_sendrecv(x, coll_at(a->rbuf, (size_t)my_root * rc, dt), curr * rc, dt, dst,
                    coll_at(a->rbuf, (size_t)dst_root * rc, dt), last * rc, dt, dst, COLL_TAG_ALLGATHER);
      curr += last;
    }
    if (dst_root + mask > n) {
      int done = n - my_root - mask, k = 0;
      for (int j = mask; j; j >>= 1)
        k++;
      k--;
      size_t off = (size_t)(my_root + mask) * rc;
      for (int tmask = mask >> 1; tmask; tmask >>= 1, k--) {
        int d = me ^ tmask, tree_root = me >> k << k;
        if (d > me && me < tree_root + done && d >= tree_root + done) {
          coll_send(x, coll_at(a->rbuf, off, dt), last * rc, dt, d, COLL_TAG_ALLGATHER);
        } else if (d < me && d < tree_root + done && me >= tree_root + done) {
          coll_recv(x, coll_at(a->rbuf, off, dt), last * rc, dt, d, COLL_TAG_ALLGATHER);
          curr += last;
        }
      }
    }
  }
  return x->err;
}
