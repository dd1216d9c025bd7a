/* Building blocks shared by the Open MPI algorithms (ompi_*): segment sizes and the
 * segmented tree broadcast and reduction that its pipeline, chain, binary and binomial
 * variants are made of (coll/base "generic" functions). */
#ifndef SMPI_COLLECTIVES_COLL_OMPI_H
#define SMPI_COLLECTIVES_COLL_OMPI_H

#include "collectives/coll_private.h"
#include "collectives/coll_tree.h"

/* Elements per segment for a segment of segsize bytes (Open MPI's rounding: to the
 * nearest whole element, never more than count; 0 segsize means one segment). */
size_t coll_ompi_segcount(size_t segsize, size_t dtsize, size_t count);

/* Segmented broadcast along tree t: the root sends each segment to every child and waits
 * for those sends before the next; inner ranks keep one receive ahead, forward each
 * segment to their children and wait for those sends; leaves keep one receive ahead. */
void coll_ompi_bcast_generic(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt,
                             const coll_tree *t, size_t segcount, int tag);

/* Segmented reduction along tree t into rbuf at the root (Open MPI's generic reduce):
 * for every segment, a rank combines its children's contributions in child order with its
 * own, then sends the result to its parent; at most max_outstanding sends pending (0: no
 * limit). Needs a commutative op unless the tree keeps rank order (in-order binary). */
void coll_ompi_reduce_generic(coll_ctx *x, const coll_args *a, const coll_tree *t,
                              size_t segcount, int max_outstanding);

#endif
