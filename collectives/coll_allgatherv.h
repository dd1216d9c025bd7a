/* Helpers of the allgatherv algorithms: blocks of recvbuf, packed several at a time. */
#ifndef SMPI_COLLECTIVES_COLL_ALLGATHERV_H
#define SMPI_COLLECTIVES_COLL_ALLGATHERV_H

#include "collectives/coll_private.h"

static inline char *agv_block(const coll_args *a, int i)
{
  return coll_at(a->rbuf, (size_t)a->rdispls[i], a->rdt);
}
static inline size_t agv_bytes(const coll_args *a, int i)
{
  return (size_t)a->rcounts[i] * smpi_dt_size(a->rdt);
}
/* bytes of blocks first, first+1, ..., first+nb-1 (mod n) */
static inline size_t agv_span_bytes(const coll_args *a, int n, int first, int nb)
{
  size_t s = 0;
  for (int i = 0; i < nb; i++)
    s += agv_bytes(a, (first + i) % n);
  return s;
}
static inline void agv_pack(coll_ctx *x, const coll_args *a, int n, int first, int nb, char *out)
{
  for (int i = 0; i < nb; i++) {
    int b = (first + i) % n;
    coll_pack(x, agv_block(a, b), (size_t)a->rcounts[b], a->rdt, out);
    out += agv_bytes(a, b);
  }
}
static inline void agv_unpack(coll_ctx *x, const coll_args *a, int n, int first, int nb,
                              const char *in)
{
  for (int i = 0; i < nb; i++) {
    int b = (first + i) % n;
    coll_unpack(x, in, (size_t)a->rcounts[b], a->rdt, agv_block(a, b));
    in += agv_bytes(a, b);
  }
}
/* What a step sends: blocks first, ..., first + nb - 1 packed into out (returned), or, when
 * every byte of them lies in folded memory (nothing meaningful: coll_private.h, "Blocks whose
 * content does not matter"), folded scratch of the same size with nothing packed; the
 * receiver learns it from coll_sendrecv_fold and skips its unpack. */
static inline const void *agv_pack_send(coll_ctx *x, const coll_args *a, int n, int first, int nb,
                                        char *out)
{
  size_t bytes = 0;
  bool folded = true;
  for (int i = 0; i < nb && folded; i++) {
    int b = (first + i) % n;
    bytes += agv_bytes(a, b);
    folded = a->rcounts[b] == 0 ||
             smpi_dt_all_folded(agv_block(a, b), (size_t)a->rcounts[b], a->rdt);
  }
  const void *f = folded && bytes ? coll_folded_dt(bytes, coll_byte()) : NULL;
  if (f)
    return f;
  agv_pack(x, a, n, first, nb, out);
  return out;
}
/* the own block into place */
static inline void agv_own(coll_ctx *x, const coll_args *a)
{
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, agv_block(a, x->rank),
            (size_t)a->rcounts[x->rank], a->rdt);
}

#endif
