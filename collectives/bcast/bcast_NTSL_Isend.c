/* NTSL with nonblocking sends in the unsegmented chain too (SimGrid's NTSL_Isend); see
 * bcast_NTSL.c. */
#include "collectives/coll_private.h"

int coll_bcast_ntsl_common(coll_ctx *x, const coll_args *a, bool isend);

int coll_bcast_NTSL_Isend(coll_ctx *x, const coll_args *a)
{
  return coll_bcast_ntsl_common(x, a, true);
}
