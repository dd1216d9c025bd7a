/* Alltoall, MVAPICH2's scattered destinations (SimGrid's mvapich2_scatter_dest): MPICH's
 * scattered algorithm (alltoall_mpich_scattered.c) with a throttle of 4 peers per batch,
 * batch b posting receives from rank + 4b .. rank + 4b + 3 and sends to rank - 4b ..
 * rank - 4b - 3 and waiting for them all; the own block is a message to itself (first of
 * batch 0). Nothing at all when the receive count is 0. */
#include "collectives/coll_private.h"

#define THROTTLE 4

int coll_alltoall_mvapich2_scatter_dest(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  if (rc == 0)
    return x->err;
  for (int ii = 0; ii < n; ii += THROTTLE) {
    int ss = n - ii < THROTTLE ? n - ii : THROTTLE;
    for (int i = 0; i < ss; i++) {
      int s = (me + i + ii) % n;
      coll_irecv(x, coll_at(a->rbuf, (size_t)s * rc, a->rdt), rc, a->rdt, s, COLL_TAG_ALLTOALL);
    }
    for (int i = 0; i < ss; i++) {
      int d = (me - i - ii + n) % n;
      coll_isend(x, coll_at(a->sbuf, (size_t)d * sc, a->sdt), sc, a->sdt, d, COLL_TAG_ALLTOALL);
    }
    coll_wait(x);
  }
  return x->err;
}
