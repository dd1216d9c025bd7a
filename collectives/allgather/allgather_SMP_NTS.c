/* SMP-aware allgather (SimGrid's SMP_NTS). Hosts hold equal blocks of ppn consecutive ranks
 * (COLL_F_SMP), H = n / ppn hosts; a host's ppn blocks travel together as a chunk.
 *   1. The own block to itself (a message), then ppn - 1 exchanges inside the host (send
 *      the own block to host-rank + i, receive from host-rank - i).
 *   2. The leaders form a logical ring of hosts: all H - 1 receives from the previous leader
 *      posted first, the own chunk sent on; each chunk that arrives is sent on to the next
 *      leader (but the last one) and, blocking, down the host's chain to rank + 1; the
 *      other ranks of the host receive each chunk from rank - 1 and pass it to rank + 1
 *      (the last one only receives).
 * With a single host this is the default allgather (SimGrid's choice there). */
#include "collectives/coll_private.h"

int coll_allgather_SMP_NTS(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, ppn = x->ppn, hosts = n / ppn;
  if (hosts <= 1)
    return coll_allgather_linear(x, a);
  int base = me - me % ppn, hr = me % ppn, host = me / ppn;
  size_t rc = (size_t)a->rcount, chunk = rc * (size_t)ppn;
  const smpi_dt *dt = a->rdt;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me, coll_at(a->rbuf, (size_t)me * rc, dt),
                rc, dt, me, COLL_TAG_ALLGATHER);
  for (int i = 1; i < ppn; i++) {
    int dst = base + (hr + i) % ppn, src = base + (hr - i + ppn) % ppn;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, dst,
                  coll_at(a->rbuf, (size_t)src * rc, dt), rc, dt, src, COLL_TAG_ALLGATHER);
  }
#define CHUNK(i) coll_at(a->rbuf, (size_t)((host - (i)-1 + hosts) % hosts) * chunk, dt)
  if (hr == 0) {
    int prev = (host - 1 + hosts) % hosts * ppn, next = (host + 1) % hosts * ppn;
    int *recv = coll_tmp(x, sizeof(int) * (size_t)(hosts - 1));
    for (int i = 0; i < hosts - 1; i++)
      recv[i] = coll_irecv(x, CHUNK(i), chunk, dt, prev, COLL_TAG_ALLGATHER);
    coll_isend(x, coll_at(a->rbuf, (size_t)host * chunk, dt), chunk, dt, next,
               COLL_TAG_ALLGATHER);
    for (int i = 0; i < hosts - 1; i++) {
      coll_wait_req(x, recv[i]);
      if (i < hosts - 2)
        coll_isend(x, CHUNK(i), chunk, dt, next, COLL_TAG_ALLGATHER);
      if (ppn > 1)
        coll_send(x, CHUNK(i), chunk, dt, me + 1, COLL_TAG_ALLGATHER);
    }
    coll_wait(x);
  } else
    for (int i = 0; i < hosts - 1; i++) {
      coll_recv(x, CHUNK(i), chunk, dt, me - 1, COLL_TAG_ALLGATHER);
      if (hr < ppn - 1)
        coll_send(x, CHUNK(i), chunk, dt, me + 1, COLL_TAG_ALLGATHER);
    }
#undef CHUNK
  return x->err;
}
