/* Allgather by recursive doubling over bit-reversed positions (SimGrid's rhv; power-of-two
 * sizes). Rank r's block belongs at position b(r), the bit reversal of r, so the first
 * message is a swap with rank b(r): each rank then holds the block of position b(r). Then
 * for mask = n/2, n/4, ..., 1 it swaps with r ^ mask everything it holds (1, 2, 4, ...
 * blocks): r ^ n/2 sits at position b(r) ^ 1, r ^ n/4 at b(r) ^ 2, ..., so the ranges
 * stay contiguous and double, farthest rank first.
 *
 *   n = 4: b = 0 2 1 3; rank 1 swaps with 2, then with 3 (positions 2, 3), then with 0
 *   (positions 0..1 against 2..3). */
#include "collectives/coll_private.h"

int coll_allgather_rhv(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  int pos = 0, half = n / 2;
  for (int m = 1; m < n; m <<= 1, half /= 2)
    if (me & m)
      pos += half;
  coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, pos,
                coll_at(a->rbuf, (size_t)pos * rc, a->rdt), rc, a->rdt, pos, COLL_TAG_ALLGATHER);
  for (int mask = n / 2, have = 1; mask >= 1; mask /= 2, have *= 2) {
    int from = me & mask ? pos - have : pos + have;
    coll_sendrecv(x, coll_at(a->rbuf, (size_t)pos * rc, a->rdt), rc * (size_t)have, a->rdt,
                  me ^ mask, coll_at(a->rbuf, (size_t)from * rc, a->rdt), rc * (size_t)have,
                  a->rdt, me ^ mask, COLL_TAG_ALLGATHER);
    if (me & mask)
      pos = from;
  }
  return x->err;
}
