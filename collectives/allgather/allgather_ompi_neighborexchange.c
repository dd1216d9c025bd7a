/* Allgather by neighbour exchange (Open MPI; Chen et al.): with an even number of ranks,
 * n/2 steps; even ranks talk alternately to their right and left neighbours, odd ranks the
 * other way round. The first step swaps own blocks; every later step forwards the two
 * blocks received last. Odd sizes: Open MPI's ring. */
#include "collectives/coll_private.h"

int coll_allgather_ompi_neighborexchange(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  if (n % 2)
    return coll_allgather_ompi_ring(x, a);
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, dt), rc, dt);
  coll_nbx e;
  coll_nbx_init(&e, me, n);
  int *neighbor = e.neighbor, *from = e.from, *step = e.step;
  coll_sendrecv(x, coll_at(a->rbuf, (size_t)me * rc, dt), rc, dt, neighbor[0],
                coll_at(a->rbuf, (size_t)neighbor[0] * rc, dt), rc, dt, neighbor[0],
                COLL_TAG_ALLGATHER);
  int send_from = from[0];
  for (int i = 1; i < n / 2; i++) {
    int p = i % 2;
    from[p] = (from[p] + step[p] + n) % n;
    coll_sendrecv(x, coll_at(a->rbuf, (size_t)send_from * rc, dt), 2 * rc, dt, neighbor[p],
                  coll_at(a->rbuf, (size_t)from[p] * rc, dt), 2 * rc, dt, neighbor[p],
                  COLL_TAG_ALLGATHER);
    send_from = from[p];
  }
  return x->err;
}
