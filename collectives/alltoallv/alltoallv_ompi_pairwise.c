/* Alltoallv, Open MPI's pairwise: n - 1 exchanges, sending to rank + i and receiving from
 * rank - i, then the own block (a local copy). */
#include "collectives/coll_private.h"

int coll_alltoallv_ompi_pairwise(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  for (int i = 1; i < n; i++) {
    int d = (me + i) % n, s = (me - i + n) % n;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)a->sdispls[d], a->sdt), (size_t)a->scounts[d],
                  a->sdt, d, coll_at(a->rbuf, (size_t)a->rdispls[s], a->rdt),
                  (size_t)a->rcounts[s], a->rdt, s, COLL_TAG_ALLTOALLV);
  }
  coll_copy(x, coll_at(a->sbuf, (size_t)a->sdispls[me], a->sdt), (size_t)a->scounts[me], a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[me], a->rdt), (size_t)a->rcounts[me], a->rdt);
  return x->err;
}
