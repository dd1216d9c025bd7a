/* Alltoall, MPICH's long-message pairwise exchange: own block copied locally, then n - 1
 * exchanges: with rank ^ i for a power-of-two size, else sending to rank + i and receiving
 * from rank - i. */
#include "collectives/coll_private.h"

int coll_alltoall_mpich_pairwise(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  bool pow2 = coll_is_pow2(n);
  coll_copy(x, coll_at(a->sbuf, (size_t)me * sc, a->sdt), sc, a->sdt,
            coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt);
  for (int i = 1; i < n; i++) {
    int d = pow2 ? me ^ i : (me + i) % n, s = pow2 ? me ^ i : (me - i + n) % n;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)d * sc, a->sdt), sc, a->sdt, d,
                  coll_at(a->rbuf, (size_t)s * rc, a->rdt), rc, a->rdt, s, COLL_TAG_ALLTOALL);
  }
  return x->err;
}
