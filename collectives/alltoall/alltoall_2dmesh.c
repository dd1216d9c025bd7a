/* Alltoall on a 2-D mesh (STAR-MPI; SimGrid's 2dmesh). The n ranks form X rows of Y
 * (X <= Y, X the smallest divisor of n from sqrt(n) up; X = 1 for a prime n). Phase 1:
 * every rank sends its whole send buffer to each rank of its row (nonblocking receives,
 * blocking sends). Phase 2: for each rank of its column, a rank packs the Y blocks its
 * row holds for that rank and sends them (blocking sends); the receiver stores them as
 * the blocks coming from that row. 2 phases of sqrt(n) messages instead of n - 1.
 *
 *   n = 6: rows {0 1 2} {3 4 5}; columns {0 3} {1 4} {2 5}. */
#include <math.h>

#include "collectives/coll_private.h"

int coll_alltoall_2dmesh(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, X = 1, Y = n;
  for (int d = (int)sqrt((double)n); d <= n / 2; d++)
    if (d > 0 && n % d == 0) {
      X = d < n / d ? d : n / d;
      Y = n / X;
      break;
    }
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  int row = me / Y * Y, col = me % Y;
  /* phase 1: tmp1 holds the send buffers of my row, n blocks each, in the receive type */
  char *tmp1 = coll_tmp_dt(x, rc * (size_t)n * (size_t)Y, dt);
  for (int i = 0; i < Y; i++) {
    int src = row + i;
    if (src != me)
      coll_irecv(x, coll_at(tmp1, (size_t)(src % Y) * (size_t)n * rc, dt), rc * (size_t)n, dt,
                 src, COLL_TAG_ALLTOALL);
  }
  for (int i = 0; i < Y; i++) {
    int dst = row + i;
    if (dst != me)
      coll_send(x, a->sbuf, sc * (size_t)n, a->sdt, dst, COLL_TAG_ALLTOALL);
  }
  coll_wait(x);
  /* the blocks my row sends me */
  for (int i = 0; i < Y; i++) {
    char *to = coll_at(a->rbuf, (size_t)(row + i) * rc, dt);
    if (row + i == me)
      coll_copy(x, coll_at(a->sbuf, (size_t)me * sc, a->sdt), sc, a->sdt, to, rc, dt);
    else
      coll_copy(x, coll_at(tmp1, ((size_t)i * (size_t)n + (size_t)me) * rc, dt), rc, dt, to, rc,
                dt);
  }
  /* phase 2 */
  char *tmp2 = coll_tmp_dt(x, rc * (size_t)Y, dt);
  for (int i = 0; i < X; i++) {
    int src = i * Y + col;
    if (src != me)
      coll_irecv(x, coll_at(a->rbuf, (size_t)(src / Y * Y) * rc, dt), rc * (size_t)Y, dt, src,
                 COLL_TAG_ALLTOALL);
  }
  for (int i = 0; i < X; i++) {
    int dst = i * Y + col;
    if (dst == me)
      continue;
    for (int j = 0; j < Y; j++) {
      char *to = coll_at(tmp2, (size_t)j * rc, dt);
      if (row + j == me)
        coll_copy(x, coll_at(a->sbuf, (size_t)dst * sc, a->sdt), sc, a->sdt, to, rc, dt);
      else
        coll_copy(x, coll_at(tmp1, ((size_t)j * (size_t)n + (size_t)dst) * rc, dt), rc, dt, to,
                  rc, dt);
    }
    coll_send(x, tmp2, rc * (size_t)Y, dt, dst, COLL_TAG_ALLTOALL);
  }
  coll_wait(x);
  return x->err;
}
