/* Alltoallv, what SimGrid 3.32 calls bruck: MPICH's scattered algorithm
 * (alltoallv_mpich_scattered.c) in batches of 4 peers instead of 32. */
#include "collectives/coll_private.h"

int coll_alltoallv_bruck(coll_ctx *x, const coll_args *a)
{
  return coll_alltoallv_batches(x, a, 4);
}
