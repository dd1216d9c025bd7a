/* Alltoall, Open MPI's pairwise: n - 1 exchanges, sending to rank + i and receiving from
 * rank - i, then the own block (a local copy). */
#include "collectives/coll_private.h"

int coll_alltoall_ompi_pairwise(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  for (int i = 1; i < n; i++) {
    int d = (me + i) % n, s = (me - i + n) % n;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)d * sc, a->sdt), sc, a->sdt, d,
                  coll_at(a->rbuf, (size_t)s * rc, a->rdt), rc, a->rdt, s, COLL_TAG_ALLTOALL);
  }
  coll_copy(x, coll_at(a->sbuf, (size_t)me * sc, a->sdt), sc, a->sdt,
            coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt);
  return x->err;
}
