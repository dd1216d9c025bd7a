/* Allgather on a logical ring, nonblocking (STAR-MPI; SimGrid's NTSLR_NB): as NTSLR, but
 * the n - 1 receives from rank - 1 are all posted first; step i then sends the block of
 * rank - i to rank + 1 and waits for receive i and for that send. */
#include "collectives/coll_private.h"

int coll_allgather_NTSLR_NB(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me,
                coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc, a->rdt, me, COLL_TAG_ALLGATHER);
  int to = (me + 1) % n, from = (me - 1 + n) % n;
  int *recv = coll_tmp(x, sizeof(int) * (size_t)(n > 1 ? n - 1 : 1));
  for (int i = 0; i < n - 1; i++)
    recv[i] = coll_irecv(x, coll_at(a->rbuf, (size_t)((me - i - 1 + n) % n) * rc, a->rdt), rc,
                         a->rdt, from, COLL_TAG_ALLGATHER);
  for (int i = 0; i < n - 1; i++) {
    int send = coll_isend(x, coll_at(a->rbuf, (size_t)((me - i + n) % n) * rc, a->rdt), rc,
                          a->rdt, to, COLL_TAG_ALLGATHER);
    coll_wait_req(x, recv[i]);
    coll_wait_req(x, send);
  }
  coll_wait(x);
  return x->err;
}
