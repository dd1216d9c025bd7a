/* Reduce_scatter_block with reduce_scatter's ompi_butterfly algorithm (equal blocks). */
#include "collectives/coll_private.h"

int coll_reduce_scatter_block_ompi_butterfly(coll_ctx *x, const coll_args *a)
{
  int *counts = coll_tmp(x, (size_t)x->size * sizeof *counts);
  for (int i = 0; i < x->size; i++)
    counts[i] = a->rcount;
  coll_args b = *a;
  b.rcounts = counts;
  return coll_reduce_scatter_ompi_butterfly(x, &b);
}
