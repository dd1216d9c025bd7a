/* SMP-aware pipelined linear broadcast (SimGrid's SMP_linear). Hosts hold equal blocks of
 * ppn consecutive ranks; host h's leader is rank h * ppn.
 *
 *   - on a single host: the binomial tree (SimGrid's default bcast);
 *   - a root other than rank 0 first sends the whole buffer to rank 0;
 *   - the leaders form a chain (rank r feeds r + ppn) and each host a chain from its leader
 *     (rank r feeds r + 1); a leader sends to the next leader first, then into its host;
 *   - above 8 KiB the buffer goes in 8 KiB segments: a rank posts the receives of all
 *     segments, then forwards each one as it arrives; the count % segment tail is then
 *     broadcast by a second call of the Bcast smpi/bcast names (itself, when forced).
 *
 *   8 ranks, 4 per host: 0 -> 4, 1;  4 -> 5;  1 -> 2 -> 3;  5 -> 6 -> 7
 *
 * With one rank per host SimGrid's leader sends every segment twice to the same rank (as
 * the next leader and as its host's next rank), and the second copies stay unreceived;
 * smpi sends once (one chain). */
#include "collectives/coll_private.h"

int coll_bcast_SMP_linear(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, n = x->size, ppn = x->ppn;
  size_t count = (size_t)a->rcount;
  if (n <= ppn)
    return coll_bcast_binomial_tree(x, a);
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
  int kids[2], nkids = 0, parent;
  if (me % ppn == 0) {
    parent = me == 0 ? -1 : me - ppn;
    if (me + ppn < n)
      kids[nkids++] = me + ppn;
  } else {
    parent = me - 1;
  }
  if (ppn > 1 && (me + 1) % ppn != 0 && me + 1 < n)
    kids[nkids++] = me + 1;
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
