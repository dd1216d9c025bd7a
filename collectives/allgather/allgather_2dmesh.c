/* Allgather on a 2-D mesh (STAR-MPI, A. Faraj; SimGrid's 2dmesh). The n ranks form X rows
 * of Y (coll_mesh2). Phase 1: each rank posts receives from the others of its row, sends
 * its block to each of them (blocking sends), and waits. Phase 2: the same along its
 * column, with the Y blocks of its row as one message. Every phase is "simple": all
 * receives posted, then the sends in rank order.
 *
 *   n = 6: rows {0 1 2} {3 4 5}; rank 4 gets blocks 3, 5 in phase 1, then 0..2 from 1. */
#include "collectives/coll_private.h"
#include "src/invariant.h"

int coll_allgather_2dmesh(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, X, Y;
  bool ok = coll_mesh2(n, &X, &Y);
  ASSERT(ok);
  size_t rc = (size_t)a->rcount;
  int row = me / Y * Y, col = me % Y;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc,
            a->rdt);
  for (int i = 0; i < Y; i++)
    if (row + i != me)
      coll_irecv(x, coll_at(a->rbuf, (size_t)(row + i) * rc, a->rdt), rc, a->rdt, row + i,
                 COLL_TAG_ALLGATHER);
  for (int i = 0; i < Y; i++)
    if (row + i != me)
      coll_send(x, a->sbuf, (size_t)a->scount, a->sdt, row + i, COLL_TAG_ALLGATHER);
  coll_wait(x);
  for (int i = 0; i < X; i++) {
    int src = i * Y + col;
    if (src != me)
      coll_irecv(x, coll_at(a->rbuf, (size_t)(src / Y * Y) * rc, a->rdt), rc * (size_t)Y, a->rdt,
                 src, COLL_TAG_ALLGATHER);
  }
  for (int i = 0; i < X; i++) {
    int dst = i * Y + col;
    if (dst != me)
      coll_send(x, coll_at(a->rbuf, (size_t)row * rc, a->rdt), rc * (size_t)Y, a->rdt, dst,
                COLL_TAG_ALLGATHER);
  }
  coll_wait(x);
  return x->err;
}
