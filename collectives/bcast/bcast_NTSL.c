/* Broadcast along a linear chain root -> root+1 -> ... in 8 KiB segments (STAR-MPI's
 * "non-topology-specific linear", SimGrid's NTSL). The root posts every segment at once;
 * a relay posts every receive, then forwards each segment as it arrives; the last rank
 * just receives. A remainder that does not fill a segment follows in a second,
 * unsegmented chain. Up to one segment: a plain chain of blocking messages. Segments are
 * cut in bytes (coll_bytes_get), at multiples of the basic type's size. */
#include "collectives/coll_private.h"

#define SEGMENT_BYTES 8192

/* the unsegmented chain (nonblocking sends if isend) */
static void chain(coll_ctx *x, int root, void *buf, size_t count, const smpi_dt *dt, bool isend)
{
  int n = x->size, v = (x->rank - root + n) % n;
  int from = (x->rank - 1 + n) % n, to = (x->rank + 1) % n;
  if (v != 0)
    coll_recv(x, buf, count, dt, from, COLL_TAG_BCAST);
  if (v != n - 1) {
    if (isend) {
      coll_isend(x, buf, count, dt, to, COLL_TAG_BCAST);
      coll_wait(x);
    } else {
      coll_send(x, buf, count, dt, to, COLL_TAG_BCAST);
    }
  }
}

int coll_bcast_ntsl_common(coll_ctx *x, const coll_args *a, bool isend);
int coll_bcast_ntsl_common(coll_ctx *x, const coll_args *a, bool isend)
{
  int n = x->size, v = (x->rank - a->root + n) % n;
  if (n == 1)
    return x->err;
  size_t unit = coll_dt_unit(a->rdt), seg = SEGMENT_BYTES / unit * unit;
  if (seg == 0 || (size_t)a->rcount * smpi_dt_size(a->rdt) <= seg) {
    chain(x, a->root, a->rbuf, (size_t)a->rcount, a->rdt, isend);
    return x->err;
  }
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  const smpi_dt *byte = coll_byte();
  size_t nseg = b.nbytes / seg, rest = b.nbytes % seg;
  int from = (x->rank - 1 + n) % n, to = (x->rank + 1) % n;
  if (v == 0) {
    for (size_t s = 0; s < nseg; s++)
      coll_isend(x, b.buf + s * seg, seg, byte, to, COLL_TAG_BCAST);
  } else {
    int first = -1;
    for (size_t s = 0; s < nseg; s++) {
      int id = coll_irecv(x, b.buf + s * seg, seg, byte, from, COLL_TAG_BCAST);
      if (first < 0)
        first = id;
    }
    if (v != n - 1)
      for (size_t s = 0; s < nseg; s++) {
        coll_wait_req(x, first + (int)s);
        coll_isend(x, b.buf + s * seg, seg, byte, to, COLL_TAG_BCAST);
      }
  }
  coll_wait(x);
  if (rest)
    chain(x, a->root, b.buf + nseg * seg, rest, byte, isend);
  coll_bytes_done(x, a, &b);
  return x->err;
}

int coll_bcast_NTSL(coll_ctx *x, const coll_args *a)
{
  return coll_bcast_ntsl_common(x, a, false);
}
