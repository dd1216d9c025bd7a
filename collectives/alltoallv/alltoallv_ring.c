/* Alltoallv on a ring of distances: step i sends to rank + i and receives from rank - i,
 * i = 0 .. n-1 (step 0 to itself). As SimGrid 3.32's alltoallv ring does, a power-of-two
 * size exchanges with rank ^ i instead (its pairwise pattern; seen on a fat tree, where the
 * two patterns cross different links). */
#include "collectives/coll_private.h"

int coll_alltoallv_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  bool pow2 = coll_is_pow2(n);
  for (int i = 0; i < n; i++) {
    int d = pow2 ? me ^ i : (me + i) % n, s = pow2 ? me ^ i : (me - i + n) % n;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)a->sdispls[d], a->sdt), (size_t)a->scounts[d],
                  a->sdt, d, coll_at(a->rbuf, (size_t)a->rdispls[s], a->rdt),
                  (size_t)a->rcounts[s], a->rdt, s, COLL_TAG_ALLTOALLV);
  }
  return x->err;
}
