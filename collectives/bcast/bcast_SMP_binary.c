/* SMP-aware pipelined binary-tree broadcast (SimGrid's SMP_binary). Hosts hold equal blocks
 * of ppn consecutive ranks; host h's leader is rank h * ppn.
 *
 *   - a root other than rank 0 first sends the whole buffer to rank 0;
 *   - the leaders form a binary heap over hosts (host h feeds hosts 2h+1 and 2h+2), each
 *     host a binary heap over its ranks (local rank l feeds 2l+1 and 2l+2);
 *   - a rank receives from its parent, then sends to its leader children (leaders only)
 *     and its host children, in that order, with blocking sends;
 *   - above 8 KiB the buffer goes in 8 KiB segments: a rank posts the receives of all
 *     segments, then forwards each one as it arrives. The count % segment tail is then
 *     broadcast by a second call of the Bcast smpi/bcast names (itself, when forced).
 *
 *   8 ranks, 2 per host: 0 -> 2, 4, 1;  2 -> 6, 3;  4 -> 5;  6 -> 7 */
#include "collectives/coll_private.h"

int coll_bcast_SMP_binary(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, n = x->size, ppn = x->ppn;
  size_t count = (size_t)a->rcount;
  if (a->root != 0) {
    if (me == a->root)
      coll_send(x, a->rbuf, count, a->rdt, 0, COLL_TAG_BCAST);
    else if (me == 0)
      coll_recv(x, a->rbuf, count, a->rdt, a->root, COLL_TAG_BCAST);
  }
  /* 8 KiB of data per segment: SimGrid divides by the extent, which is the same for the
   * contiguous types and, unlike the extent, the same on every rank for the others */
  size_t ext = (size_t)smpi_dt_extent(a->rdt), size = smpi_dt_size(a->rdt);
  size_t seg = size ? 8192 / size : count;
  if (seg == 0)
    seg = 1;
  bool pipeline = count > seg;
  size_t nseg = pipeline ? count / seg : 1, len = pipeline ? seg : count;
  int host = me / ppn, local = me % ppn, base = host * ppn;
  int kids[4], nkids = 0, parent = -1;
  if (local == 0) {
    if (me != 0)
      parent = (host - 1) / 2 * ppn;
    for (int c = 1; c <= 2; c++)
      if ((2 * host + c) * ppn < n)
        kids[nkids++] = (2 * host + c) * ppn;
  } else {
    parent = base + (local - 1) / 2;
  }
  for (int c = 1; c <= 2; c++)
    if (2 * local + c < ppn)
      kids[nkids++] = base + 2 * local + c;
  char *buf = a->rbuf;
  size_t step = seg * ext;
  int first = (int)x->nreqs;
  if (parent >= 0)
    for (size_t i = 0; i < nseg; i++)
      coll_irecv(x, buf + i * step, len, a->rdt, parent, COLL_TAG_BCAST);
  for (size_t i = 0; i < nseg; i++) {
    if (parent >= 0)
      coll_wait_req(x, first + (int)i);
    for (int k = 0; k < nkids; k++)
      coll_send(x, buf + i * step, len, a->rdt, kids[k], COLL_TAG_BCAST);
  }
  coll_wait(x);
  if (pipeline && count % seg) {
    coll_args r = *a;
    r.rbuf = buf + nseg * step;
    r.rcount = (int)(count % seg);
    coll_run(x, COLL_bcast, &r);
  }
  return x->err;
}
