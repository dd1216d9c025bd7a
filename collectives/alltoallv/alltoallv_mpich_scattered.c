/* Alltoallv, MPICH's algorithm: batches of 32 peers (MPIR_CVAR_ALLTOALL_THROTTLE), each
 * batch posted at once and waited for; own block local, empty blocks skipped. */
#include "collectives/coll_private.h"

#define THROTTLE 32

int coll_alltoallv_mpich_scattered(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  coll_copy(x, coll_at(a->sbuf, (size_t)a->sdispls[me], a->sdt), (size_t)a->scounts[me], a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[me], a->rdt), (size_t)a->rcounts[me], a->rdt);
  for (int ii = 0; ii < n; ii += THROTTLE) {
    int ss = n - ii < THROTTLE ? n - ii : THROTTLE;
    for (int i = 0; i < ss; i++) {
      int s = (me + i + ii) % n;
      if (s != me && a->rcounts[s])
        coll_irecv(x, coll_at(a->rbuf, (size_t)a->rdispls[s], a->rdt), (size_t)a->rcounts[s],
                   a->rdt, s, COLL_TAG_ALLTOALLV);
    }
    for (int i = 0; i < ss; i++) {
      int d = (me - i - ii + n) % n;
      if (d != me && a->scounts[d])
        coll_isend(x, coll_at(a->sbuf, (size_t)a->sdispls[d], a->sdt), (size_t)a->scounts[d],
                   a->sdt, d, COLL_TAG_ALLTOALLV);
    }
    coll_wait(x);
  }
  return x->err;
}
