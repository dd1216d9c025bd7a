/* Broadcast along a binary tree in 8 KiB segments (STAR-MPI's "non-topology-specific
 * binary", SimGrid's NTSB). Relative rank v has children 2v+1 and 2v+2. The root posts
 * every segment to both children at once; inner ranks post every receive, then forward
 * each segment to both children as it arrives; leaves just receive. A remainder that does
 * not fill a segment follows through the same tree unsegmented. Up to one segment: receive
 * from the parent, then send to both children at once. Segments are cut in bytes
 * (coll_bytes_get), at multiples of the basic type's size. */
#include "collectives/coll_private.h"

#define SEGMENT_BYTES 8192

static void tree_once(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int parent,
                      const int *kids, int nkids)
{
  if (parent >= 0)
    coll_recv(x, buf, count, dt, parent, COLL_TAG_BCAST);
  for (int i = 0; i < nkids; i++)
    coll_isend(x, buf, count, dt, kids[i], COLL_TAG_BCAST);
  coll_wait(x);
}

int coll_bcast_NTSB(coll_ctx *x, const coll_args *a)
{
  int n = x->size, v = (x->rank - a->root + n) % n;
  int parent = v == 0 ? -1 : ((v - 1) / 2 + a->root) % n;
  int kids[2], nkids = 0;
  for (int c = 2 * v + 1; c <= 2 * v + 2 && c < n; c++)
    kids[nkids++] = (c + a->root) % n;
  size_t unit = coll_dt_unit(a->rdt), seg = SEGMENT_BYTES / unit * unit;
  if (seg == 0 || (size_t)a->rcount * smpi_dt_size(a->rdt) <= seg) {
    tree_once(x, a->rbuf, (size_t)a->rcount, a->rdt, parent, kids, nkids);
    return x->err;
  }
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  const smpi_dt *byte = coll_byte();
  size_t nseg = b.nbytes / seg, rest = b.nbytes % seg;
  if (parent < 0) {
    for (size_t s = 0; s < nseg; s++)
      for (int i = 0; i < nkids; i++)
        coll_isend(x, b.buf + s * seg, seg, byte, kids[i], COLL_TAG_BCAST);
  } else {
    int first = -1;
    for (size_t s = 0; s < nseg; s++) {
      int id = coll_irecv(x, b.buf + s * seg, seg, byte, parent, COLL_TAG_BCAST);
      if (first < 0)
        first = id;
    }
    if (nkids)
      for (size_t s = 0; s < nseg; s++) {
        coll_wait_req(x, first + (int)s);
        for (int i = 0; i < nkids; i++)
          coll_isend(x, b.buf + s * seg, seg, byte, kids[i], COLL_TAG_BCAST);
      }
  }
  coll_wait(x);
  if (rest)
    tree_once(x, b.buf + nseg * seg, rest, byte, parent, kids, nkids);
  coll_bytes_done(x, a, &b);
  return x->err;
}
