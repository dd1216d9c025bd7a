/* Barrier for exactly two ranks (Open MPI): one empty exchange. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_two_procs(coll_ctx *x, const coll_args *args)
{
  (void)args;
  int peer = 1 - x->rank;
  coll_sendrecv(x, NULL, 0, coll_byte(), peer, NULL, 0, coll_byte(), peer, COLL_TAG_BARRIER);
  return x->err;
}
