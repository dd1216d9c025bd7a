/* SMP-aware allgather on loosely coupled logical rings (SimGrid's loosely_lr). Hosts hold
 * equal blocks of ppn consecutive ranks (COLL_F_SMP); the host-rank-k ranks of all hosts
 * form ring k (rank -> rank + ppn). After the own block reaches rbuf as a message to
 * itself, round i = 0 .. H-1 (H hosts) on every rank:
 *   - except in the last round, post the receive of the block that ring's left neighbour
 *     passes on (host - i - 1's) and send it the one got last (host - i's; own at i = 0);
 *   - post an exchange of that block of host - i with every other rank of the host;
 *   - wait for the ring receive only.
 * Everything else is waited for at the end. */
#include "collectives/coll_private.h"

int coll_allgather_loosely_lr(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, ppn = x->ppn, hosts = n / ppn;
  int hr = me % ppn, host = me / ppn;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me, coll_at(a->rbuf, (size_t)me * rc, dt),
                rc, dt, me, COLL_TAG_ALLGATHER);
  int to = (me + ppn) % n, from = (me - ppn + n) % n;
  for (int i = 0; i < hosts; i++) {
    int have = (host - i + hosts) % hosts * ppn, next = (host - 1 - i + hosts) % hosts * ppn;
    int ring = -1;
    for (int j = 0; j < ppn; j++) {
      if (j == hr && i != hosts - 1) {
        ring = coll_irecv(x, coll_at(a->rbuf, (size_t)(next + hr) * rc, dt), rc, dt, from,
                          COLL_TAG_ALLGATHER);
        coll_isend(x, coll_at(a->rbuf, (size_t)(have + hr) * rc, dt), rc, dt, to,
                   COLL_TAG_ALLGATHER);
      }
      if (j != hr) {
        int peer = host * ppn + j;
        coll_irecv(x, coll_at(a->rbuf, (size_t)(have + j) * rc, dt), rc, dt, peer,
                   COLL_TAG_ALLGATHER);
        coll_isend(x, coll_at(a->rbuf, (size_t)(have + hr) * rc, dt), rc, dt, peer,
                   COLL_TAG_ALLGATHER);
      }
    }
    if (ring >= 0)
      coll_wait_req(x, ring);
  }
  coll_wait(x);
  return x->err;
}
