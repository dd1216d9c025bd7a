/* Alltoallv in batches of peers, MPICH's "scattered" algorithm: batch b posts receives from
 * rank + Tb .. rank + Tb + T-1 and sends to rank - Tb .. rank - Tb - (T-1), then waits for
 * them all; the own block is a local copy and empty blocks are skipped. The throttle T
 * bounds the messages in flight per rank: MPICH's is 32 (MPIR_CVAR_ALLTOALL_THROTTLE);
 * SimGrid 3.32's alltoallv "bruck" is this algorithm with T = 4 (alltoallv_bruck.c). */
#include "collectives/coll_private.h"

int coll_alltoallv_batches(coll_ctx *x, const coll_args *a, int throttle)
{
  int n = x->size, me = x->rank;
  coll_copy(x, coll_at(a->sbuf, (size_t)a->sdispls[me], a->sdt), (size_t)a->scounts[me], a->sdt,
            coll_at(a->rbuf, (size_t)a->rdispls[me], a->rdt), (size_t)a->rcounts[me], a->rdt);
  for (int ii = 0; ii < n; ii += throttle) {
    int ss = n - ii < throttle ? n - ii : throttle;
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

int coll_alltoallv_mpich_scattered(coll_ctx *x, const coll_args *a)
{
  return coll_alltoallv_batches(x, a, 32);
}
