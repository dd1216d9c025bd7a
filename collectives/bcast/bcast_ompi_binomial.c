/* Broadcast along Open MPI's binomial tree (children by increasing subtree size), with
 * Open MPI's segmented tree broadcast: each segment goes to all children at once. One
 * segment unless the selector asks for a segment size (Open MPI's decision never does for
 * this algorithm). Differs from binomial_tree (MPICH) in the child order and in sending to
 * the children concurrently. */
#include "collectives/coll_ompi.h"

int coll_bcast_ompi_binomial(coll_ctx *x, const coll_args *a)
{
  if (x->size == 1)
    return x->err;
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  size_t units = b.nbytes / b.unit;
  size_t seg = x->segsize && x->segsize != COLL_SEG_WHOLE
                   ? coll_ompi_segcount(x->segsize, b.unit, units)
                   : units;
  coll_tree t;
  coll_tree_bmtree(&t, x->rank, x->size, a->root);
  coll_ompi_bcast_generic(x, b.buf, b.nbytes, coll_byte(), &t, (seg ? seg : 1) * b.unit,
                          COLL_TAG_BCAST);
  coll_bytes_done(x, a, &b);
  return x->err;
}
