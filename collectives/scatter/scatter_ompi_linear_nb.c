/* Scatter, Open MPI's linear_nb: the root posts nonblocking sends to every rank in rank
 * order and waits for them all (same messages as the default linear scatter; the code is
 * basic_linear's, scatter_ompi_basic_linear.c). */
#include "collectives/coll_private.h"

int coll_scatter_ompi_linear_nb(coll_ctx *x, const coll_args *a)
{
  return coll_scatter_ompi_linear(x, a, true);
}
