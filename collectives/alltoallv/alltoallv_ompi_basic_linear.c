/* Alltoallv, Open MPI's basic linear: the own block copied, then every receive and every
 * send posted at once (same messages as the default linear algorithm). */
#include "collectives/coll_private.h"

int coll_alltoallv_ompi_basic_linear(coll_ctx *x, const coll_args *a)
{
  return coll_alltoallv_linear(x, a);
}
