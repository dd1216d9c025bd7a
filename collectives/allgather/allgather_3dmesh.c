/* Allgather on a 3-D mesh (STAR-MPI, A. Faraj; SimGrid's 3dmesh): n = X * X * Z ranks
 * (coll_mesh3), planes of X * X. Three "simple" phases (receives posted, then blocking
 * sends in order, then wait): along the row (own block), along the column (the X blocks of
 * the row), then across the planes (the X * X blocks of the plane; the peers are rank +
 * i X^2 mod n, i = 1 .. Z-1).
 *
 *   n = 16: X = 2, Z = 4; rank 5 (plane {4..7}, row {4 5}, column {5 7}) gets block 4 from
 *   4, blocks 6..7 from 7, then planes 8..11, 12..15, 0..3 from ranks 9, 13, 1. */
#include "collectives/coll_private.h"
#include "src/invariant.h"

int coll_allgather_3dmesh(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, X, Z;
  bool ok = coll_mesh3(n, &X, &Z);
  ASSERT(ok);
  int plane = X * X;
  size_t rc = (size_t)a->rcount;
  int row = me / X * X, col = me % X + me / plane * plane, base = me / plane * plane;
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * rc, a->rdt), rc,
            a->rdt);
  for (int i = 0; i < X; i++)
    if (row + i != me)
      coll_irecv(x, coll_at(a->rbuf, (size_t)(row + i) * rc, a->rdt), rc, a->rdt, row + i,
                 COLL_TAG_ALLGATHER);
  for (int i = 0; i < X; i++)
    if (row + i != me)
      coll_send(x, a->sbuf, (size_t)a->scount, a->sdt, row + i, COLL_TAG_ALLGATHER);
  coll_wait(x);
  for (int i = 0; i < X; i++) {
    int src = i * X + col;
    if (src != me)
      coll_irecv(x, coll_at(a->rbuf, (size_t)(src / X * X) * rc, a->rdt), rc * (size_t)X, a->rdt,
                 src, COLL_TAG_ALLGATHER);
  }
  for (int i = 0; i < X; i++) {
    int dst = i * X + col;
    if (dst != me)
      coll_send(x, coll_at(a->rbuf, (size_t)row * rc, a->rdt), rc * (size_t)X, a->rdt, dst,
                COLL_TAG_ALLGATHER);
  }
  coll_wait(x);
  for (int i = 1; i < Z; i++) {
    int src = (me + i * plane) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)(src / plane * plane) * rc, a->rdt),
               rc * (size_t)plane, a->rdt, src, COLL_TAG_ALLGATHER);
  }
  for (int i = 1; i < Z; i++)
    coll_send(x, coll_at(a->rbuf, (size_t)base * rc, a->rdt), rc * (size_t)plane, a->rdt,
              (me + i * plane) % n, COLL_TAG_ALLGATHER);
  coll_wait(x);
  return x->err;
}
