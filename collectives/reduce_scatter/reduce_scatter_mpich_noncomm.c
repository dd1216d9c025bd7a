/* Reduce_scatter for non-commutative ops with equal blocks and a power-of-two size (MPICH's
 * noncommutative algorithm, SimGrid's mpich_noncomm): the blocks are first laid out in
 * bit-reversed order; then log2 n recursive-halving steps with rank ^ 2^k, the higher
 * rank's data always the right operand, double-buffered so no copy is needed. */
#include "collectives/coll_private.h"

static int mirror(int v, int bits)
{
  int r = 0;
  for (int b = 0; b < bits; b++)
    if (v & (1 << b))
      r |= 1 << (bits - 1 - b);
  return r;
}

int coll_reduce_scatter_mpich_noncomm(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, bits = 0;
  while ((1 << bits) < n)
    bits++;
  const smpi_dt *dt = a->rdt;
  size_t blk = (size_t)a->rcounts[0], total = blk * (size_t)n;
  char *buf[2] = {coll_tmp_dt(x, total, dt), coll_tmp_dt(x, total, dt)};
  for (int i = 0; i < n; i++)
    coll_copy(x, coll_at(a->sbuf, (size_t)i * blk, a->sdt), blk, a->sdt,
              coll_at(buf[0], (size_t)mirror(i, bits) * blk, dt), blk, dt);
  int inout = 0; /* which buffer holds the accumulated data */
  size_t soff = 0, roff = 0, size = total;
  for (int k = 0; k < bits; k++) {
    char *incoming = buf[inout ^ 1], *outgoing = buf[inout];
    int peer = me ^ (1 << k);
    size /= 2;
    if (me > peer)
      roff += size;
    else
      soff += size;
    coll_sendrecv(x, coll_at(outgoing, soff, dt), size, dt, peer, coll_at(incoming, roff, dt),
                  size, dt, peer, COLL_TAG_REDUCE_SCATTER);
    if (me > peer) { /* received data (lower ranks) is the left operand */
      coll_reduce(x, a, coll_at(incoming, roff, dt), coll_at(outgoing, roff, dt), size);
    } else {
      coll_reduce(x, a, coll_at(outgoing, roff, dt), coll_at(incoming, roff, dt), size);
      inout ^= 1;
    }
    soff = roff;
  }
  coll_copy(x, coll_at(buf[inout], roff, dt), size, dt, a->rbuf, size, dt);
  return x->err;
}
