/* Alltoall, MPICH's medium-message algorithm ("scattered"): batches of 32 peers; batch b
 * posts receives from rank + 32b .. and sends to rank - 32b .., then waits for them all
 * (Tony Ladd's throttle: at most 32 messages in flight per rank and direction). The own
 * block is a local copy. */
#include "collectives/coll_private.h"

#define THROTTLE 32

int coll_alltoall_mpich_scattered(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  coll_copy(x, coll_at(a->sbuf, (size_t)me * sc, a->sdt), sc, a->sdt,
            coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt);
  for (int ii = 0; ii < n; ii += THROTTLE) {
    int ss = n - ii < THROTTLE ? n - ii : THROTTLE;
    for (int i = 0; i < ss; i++) {
      int s = (me + i + ii) % n;
      if (s != me)
        coll_irecv(x, coll_at(a->rbuf, (size_t)s * rc, a->rdt), rc, a->rdt, s, COLL_TAG_ALLTOALL);
    }
    for (int i = 0; i < ss; i++) {
      int d = (me - i - ii + n) % n;
      if (d != me)
        coll_isend(x, coll_at(a->sbuf, (size_t)d * sc, a->sdt), sc, a->sdt, d, COLL_TAG_ALLTOALL);
    }
    coll_wait(x);
  }
  return x->err;
}
