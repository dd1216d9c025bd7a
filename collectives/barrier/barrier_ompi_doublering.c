/* Barrier, double ring (Open MPI): a token goes twice around the ring 0 -> 1 -> ... -> 0;
 * the first lap tells rank 0 everyone arrived, the second lets everyone leave. 2n
 * latencies, so only for tiny communicators. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_doublering(coll_ctx *x, const coll_args *args)
{
  (void)args;
  const smpi_dt *b = coll_byte();
  int left = (x->rank - 1 + x->size) % x->size, right = (x->rank + 1) % x->size;
  for (int lap = 0; lap < 2; lap++) {
    if (x->rank > 0)
      coll_recv(x, NULL, 0, b, left, COLL_TAG_BARRIER);
    coll_send(x, NULL, 0, b, right, COLL_TAG_BARRIER);
    if (x->rank == 0)
      coll_recv(x, NULL, 0, b, left, COLL_TAG_BARRIER);
  }
  return x->err;
}
