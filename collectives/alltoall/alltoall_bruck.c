/* Alltoall, Bruck's algorithm (SimGrid's bruck; its default for small blocks on 16 ranks
 * or more). Blocks are first rotated so that position i holds the block for rank + i; in
 * step k (k = 1, 2, 4, ...) every rank sends all positions with bit k set to rank + k and
 * receives the same positions from rank - k; a final rotation puts block i at rank
 * me - i. ceil(log2 n) rounds of about n/2 blocks: few, fat messages for small blocks.
 *
 *   n = 6, step 1: positions 1 3 5;  step 2: positions 2 3;  step 4: positions 4 5
 *
 * The blocks travel in the receive type, packed per step. */
#include "collectives/coll_private.h"

int coll_alltoall_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt, *byte = coll_byte();
  size_t bbytes = rc * smpi_dt_size(dt);
  char *tmp = coll_tmp_dt(x, rc * (size_t)n, dt);
  for (int i = 0; i < n; i++)
    coll_copy(x, coll_at(a->sbuf, (size_t)((me + i) % n) * sc, a->sdt), sc, a->sdt,
              coll_at(tmp, (size_t)i * rc, dt), rc, dt);
  char *spack = coll_tmp(x, bbytes * (size_t)n), *rpack = coll_tmp(x, bbytes * (size_t)n);
  for (int k = 1; k < n; k <<= 1) {
    size_t nb = 0;
    for (int i = 1; i < n; i++)
      if (i & k)
        coll_pack(x, coll_at(tmp, (size_t)i * rc, dt), rc, dt, spack + bbytes * nb++);
    coll_sendrecv(x, spack, nb * bbytes, byte, (me + k) % n, rpack, nb * bbytes, byte,
                  (me - k + n) % n, COLL_TAG_ALLTOALL);
    nb = 0;
    for (int i = 1; i < n; i++)
      if (i & k)
        coll_unpack(x, rpack + bbytes * nb++, rc, dt, coll_at(tmp, (size_t)i * rc, dt));
  }
  for (int i = 0; i < n; i++)
    coll_copy(x, coll_at(tmp, (size_t)i * rc, dt), rc, dt,
              coll_at(a->rbuf, (size_t)((me - i + n) % n) * rc, dt), rc, dt);
  return x->err;
}
