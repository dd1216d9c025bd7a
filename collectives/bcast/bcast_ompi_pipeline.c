/* Broadcast along a pipeline (a chain root -> root+1 -> ...), in segments, with Open
 * MPI's segmented tree broadcast (coll_ompi.c). The segment size follows the thresholds
 * of Open MPI's decision for pipelines, as SimGrid 3.32 applies them when the algorithm is
 * forced (m = bytes, n = ranks); segments are cut in bytes (coll_bytes_get):
 *   n < 1.6134e-6 m + 2.1102 -> 128 KiB;  n < 2.3679e-6 m + 1.1787 -> 64 KiB;
 *   n < 3.2118e-6 m + 8.7936 -> 16 KiB;   otherwise 128 KiB.
 * (Open MPI's own decision ends with 8 KiB instead; the ompi selector passes that on.) */
#include "collectives/coll_ompi.h"

size_t coll_ompi_pipeline_segsize(size_t bytes, int n);
size_t coll_ompi_pipeline_segsize(size_t bytes, int n)
{
  double m = (double)bytes;
  if (n < 1.6134e-6 * m + 2.1102)
    return 128 * 1024;
  if (n < 2.3679e-6 * m + 1.1787)
    return 64 * 1024;
  if (n < 3.2118e-6 * m + 8.7936)
    return 16 * 1024;
  return 128 * 1024;
}

int coll_bcast_ompi_pipeline(coll_ctx *x, const coll_args *a)
{
  if (x->size == 1)
    return x->err;
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  size_t units = b.nbytes / b.unit;
  size_t segsize = x->segsize && x->segsize != COLL_SEG_WHOLE
                       ? x->segsize
                       : coll_ompi_pipeline_segsize(b.nbytes, x->size);
  size_t seg = coll_ompi_segcount(segsize, b.unit, units);
  coll_tree t;
  coll_tree_chain(&t, 1, x->rank, x->size, a->root);
  coll_ompi_bcast_generic(x, b.buf, b.nbytes, coll_byte(), &t, seg * b.unit, COLL_TAG_BCAST);
  coll_bytes_done(x, a, &b);
  return x->err;
}
