/* Barrier, Open MPI's basic linear algorithm (SimGrid's default): every rank sends an empty
 * message to rank 0 and waits for its answer; rank 0 collects them all, then answers all.
 * 2 (n - 1) messages, 2 latencies, all through rank 0. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_basic_linear(coll_ctx *x, const coll_args *args)
{
  (void)args;
  const smpi_dt *b = coll_byte();
  if (x->rank > 0) {
    coll_send(x, NULL, 0, b, 0, COLL_TAG_BARRIER);
    coll_recv(x, NULL, 0, b, 0, COLL_TAG_BARRIER);
    return x->err;
  }
  for (int i = 1; i < x->size; i++)
    coll_irecv(x, NULL, 0, b, i, COLL_TAG_BARRIER);
  coll_wait(x);
  for (int i = 1; i < x->size; i++)
    coll_isend(x, NULL, 0, b, i, COLL_TAG_BARRIER);
  coll_wait(x);
  return x->err;
}
