/* Barrier by pairwise exchanges (MVAPICH2's pairwise barrier; SimGrid's mvapich2_pair).
 * p = the largest power of two <= n; rank p + i folds into rank i, the first p ranks
 * exchange empty messages with rank ^ 1, rank ^ 2, ..., rank ^ p/2, then release their
 * partner: message for message Open MPI's recursive doubling (barrier_ompi_
 * recursivedoubling.c), which this runs. */
#include "collectives/coll_private.h"

int coll_barrier_mvapich2_pair(coll_ctx *x, const coll_args *a)
{
  return coll_barrier_ompi_recursivedoubling(x, a);
}
