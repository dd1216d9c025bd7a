/* Broadcast, flat tree in 8 KiB segments (SimGrid's flattree_pipeline): the root posts
 * every segment to every rank at once; receivers post every segment receive at once. Below
 * one segment it is the flat tree. Cut in bytes (see coll_bytes_get). A last partial segment carries the remainder (SimGrid
 * 3.32 drops it: its result is then wrong, so counts that are not a multiple of the segment
 * differ in timing too). */
#include "collectives/coll_private.h"

#define SEGMENT_BYTES 8192

int coll_bcast_flattree_pipeline(coll_ctx *x, const coll_args *a)
{
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  size_t seg = SEGMENT_BYTES / b.unit * b.unit; /* bytes */
  if (seg == 0 || b.nbytes < seg)
    return coll_bcast_flattree(x, a);
  const smpi_dt *byte = coll_byte();
  size_t nseg = (b.nbytes + seg - 1) / seg;
  for (size_t s = 0; s < nseg; s++) {
    size_t n = s == nseg - 1 ? b.nbytes - s * seg : seg;
    if (x->rank == a->root) {
      for (int i = 0; i < x->size; i++)
        if (i != a->root)
          coll_isend(x, b.buf + s * seg, n, byte, i, COLL_TAG_BCAST);
    } else {
      coll_irecv(x, b.buf + s * seg, n, byte, a->root, COLL_TAG_BCAST);
    }
  }
  coll_wait(x);
  coll_bytes_done(x, a, &b);
  return x->err;
}
