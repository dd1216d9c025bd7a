/* SMP-aware allgather (SimGrid's smp_simple). Hosts hold equal blocks of ppn consecutive
 * ranks (COLL_F_SMP).
 *   1. Inside each host: the own block to itself (a message), then for i = 1 .. ppn-1 one
 *      exchange sending the own block to host-rank + i and receiving from host-rank - i.
 *   2. The leaders (host-rank 0) post receives of the ppn blocks of every other host and
 *      send their host's ppn blocks to every other leader, all at once.
 *   3. Each leader sends the whole result to the others of its host, in order (blocking).
 */
#include "collectives/coll_private.h"

int coll_allgather_smp_simple(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, ppn = x->ppn, hosts = n / ppn;
  int base = me - me % ppn, hr = me % ppn, host = me / ppn;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, me, coll_at(a->rbuf, (size_t)me * rc, dt),
                rc, dt, me, COLL_TAG_ALLGATHER);
  for (int i = 1; i < ppn; i++) {
    int dst = base + (hr + i) % ppn, src = base + (hr - i + ppn) % ppn;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, dst,
                  coll_at(a->rbuf, (size_t)src * rc, dt), rc, dt, src, COLL_TAG_ALLGATHER);
  }
  if (hr == 0) {
    for (int i = 1; i < hosts; i++) {
      int src = (host - i + hosts) % hosts * ppn;
      coll_irecv(x, coll_at(a->rbuf, (size_t)src * rc, dt), rc * (size_t)ppn, dt, src,
                 COLL_TAG_ALLGATHER);
    }
    for (int i = 1; i < hosts; i++)
      coll_isend(x, coll_at(a->rbuf, (size_t)me * rc, dt), rc * (size_t)ppn, dt,
                 (host + i) % hosts * ppn, COLL_TAG_ALLGATHER);
    coll_wait(x);
    for (int i = 1; i < ppn; i++)
      coll_send(x, a->rbuf, rc * (size_t)n, dt, me + i, COLL_TAG_ALLGATHER);
  } else
    coll_recv(x, a->rbuf, rc * (size_t)n, dt, base, COLL_TAG_ALLGATHER);
  return x->err;
}
