/* Building blocks shared by MPICH's algorithms (scatter-based broadcasts, ...). */
#ifndef SMPI_COLLECTIVES_COLL_MPICH_H
#define SMPI_COLLECTIVES_COLL_MPICH_H

#include "collectives/coll_private.h"

/* MPICH's binomial scatter of a broadcast buffer: nbytes cut in n blocks of ss =
 * ceil(nbytes / n) bytes, relative rank r ends up with block r (possibly short or empty)
 * at its place in buf. Messages are only sent when they carry data. */
void coll_mpich_scatter_for_bcast(coll_ctx *x, char *buf, size_t nbytes, int root, size_t ss);

/* bytes of block range [from, to) of relative ranks that exist in nbytes */
static inline size_t coll_mpich_range(size_t nbytes, size_t ss, size_t from, size_t to)
{
  size_t lo = from * ss, hi = to * ss;
  if (hi > nbytes)
    hi = nbytes;
  return hi > lo ? hi - lo : 0;
}

#endif
