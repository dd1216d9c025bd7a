/* Alltoall on a 3-D mesh (STAR-MPI; SimGrid's 3dmesh): n = X * X * Z ranks (coll_mesh3),
 * planes of P = X * X ranks. tmp holds the whole send buffers (n blocks) of the P ranks of
 * the caller's plane, slot s for plane-rank s.
 *   1. Own send buffer into its slot (a message to itself); the row (X ranks) swap whole
 *      send buffers: receives posted, blocking sends, wait.
 *   2. The column (X ranks, stride X) swap the X slots of their rows the same way.
 *   3. From every slot, the block meant for the caller goes to rbuf (P messages to itself).
 *   4. Other planes: receives of P blocks posted from rank + i P (i = 1 .. Z-1); for each
 *      such destination the P blocks meant for it are packed (P messages to itself) and
 *      sent, blocking; then wait.
 *
 *   n = 8: X = 2, Z = 2; rank 5 (plane 4..7, row {4 5}, column {5 7}) gets the send
 *   buffers of 4, then of 6 and 7 from 7, then exchanges 4 blocks with rank 1. */
#include "collectives/coll_private.h"
#include "src/invariant.h"

int coll_alltoall_3dmesh(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, X, Z;
  bool ok = coll_mesh3(n, &X, &Z);
  ASSERT(ok);
  int P = X * X, row = me / X * X, col = me % X + me / P * P, zbase = me / P * P;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount, un = (size_t)n;
  const smpi_dt *dt = a->rdt;
  char *tmp = coll_tmp_dt(x, rc * un * (size_t)P, dt);
  char *pack = coll_tmp_dt(x, rc * (size_t)P, dt);
#define SLOT(s) coll_at(tmp, (size_t)(s)*un *rc, dt)
  coll_sendrecv(x, a->sbuf, sc * un, a->sdt, me, SLOT(me % P), rc * un, dt, me,
                COLL_TAG_ALLTOALL);
  for (int i = 0; i < X; i++)
    if (row + i != me)
      coll_irecv(x, SLOT((row + i) % P), rc * un, dt, row + i, COLL_TAG_ALLTOALL);
  for (int i = 0; i < X; i++)
    if (row + i != me)
      coll_send(x, a->sbuf, sc * un, a->sdt, row + i, COLL_TAG_ALLTOALL);
  coll_wait(x);
  for (int i = 0; i < X; i++) {
    int src = i * X + col;
    if (src != me)
      coll_irecv(x, SLOT(src / X * X % P), rc * un * (size_t)X, dt, src, COLL_TAG_ALLTOALL);
  }
  for (int i = 0; i < X; i++) {
    int dst = i * X + col;
    if (dst != me)
      coll_send(x, SLOT(row % P), rc * un * (size_t)X, dt, dst, COLL_TAG_ALLTOALL);
  }
  coll_wait(x);
  for (int s = 0; s < P; s++)
    coll_sendrecv(x, coll_at(SLOT(s), (size_t)me * rc, dt), rc, dt, me,
                  coll_at(a->rbuf, (size_t)(zbase + s) * rc, a->rdt), rc, a->rdt, me,
                  COLL_TAG_ALLTOALL);
  for (int i = 1; i < Z; i++) {
    int src = (me + i * P) % n;
    coll_irecv(x, coll_at(a->rbuf, (size_t)(src / P * P) * rc, a->rdt), rc * (size_t)P, a->rdt,
               src, COLL_TAG_ALLTOALL);
  }
  for (int i = 1; i < Z; i++) {
    int dst = (me + i * P) % n;
    for (int s = 0; s < P; s++)
      coll_sendrecv(x, coll_at(SLOT(s), (size_t)dst * rc, dt), rc, dt, me,
                    coll_at(pack, (size_t)s * rc, dt), rc, dt, me, COLL_TAG_ALLTOALL);
    coll_send(x, pack, rc * (size_t)P, dt, dst, COLL_TAG_ALLTOALL);
  }
  coll_wait(x);
#undef SLOT
  return x->err;
}
