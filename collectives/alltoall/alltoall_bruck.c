/* Alltoall, Bruck's algorithm (SimGrid's bruck; its default for small blocks on 16 ranks
 * or more). Blocks are first rotated so that position i holds the block for rank + i; in
 * step k (k = 1, 2, 4, ...) every rank sends all positions with bit k set to rank + k and
 * receives the same positions from rank - k; a final rotation puts block i at rank
 * me - i. ceil(log2 n) rounds of about n/2 blocks: few, fat messages for small blocks.
 *
 *   n = 6, step 1: positions 1 3 5;  step 2: positions 2 3;  step 4: positions 4 5
 *
 * The blocks travel in the receive type, packed per step. Every position carries a mark,
 * "meaningless" (coll_private.h, "Blocks whose content does not matter"): a block from a
 * folded send buffer is never copied into the scratch, a step whose blocks are all marked
 * sends from folded memory, and what arrives that way stays marked. With folded buffers
 * everywhere (the usual way to run thousands of ranks) the scratch is then never written:
 * the same messages, without the n blocks per rank that every rank holds at once. */
#include <string.h>

#include "collectives/coll_private.h"

/* positions i in [1, n) with bit k set: k in every 2k, plus the tail of the last period */
static size_t step_blocks(int n, int k)
{
  int tail = n % (2 * k) - k;
  return (size_t)(n / (2 * k)) * (size_t)k + (size_t)(tail > 0 ? tail : 0);
}

/* for each position i in [k, n) with bit k set, in increasing order (runs of k every 2k) */
#define FOR_STEP_POSITIONS(i, n, k)                 \
  for (int run_ = (k); run_ < (n); run_ += 2 * (k)) \
    for (int i = run_; i < run_ + (k) && i < (n); i++)

int coll_alltoall_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt, *byte = coll_byte();
  size_t bbytes = rc * smpi_dt_size(dt), most = 0;
  for (int k = 1; k < n; k <<= 1)
    most = step_blocks(n, k) > most ? step_blocks(n, k) : most;
  bool *folded = coll_tmp(x, sizeof(bool) * (size_t)n); /* the send buffer's, in rank order */
  bool *junk = coll_tmp(x, sizeof(bool) * (size_t)n);   /* position i holds nothing */
  bool all_folded = coll_blocks_folded(a->sbuf, sc, a->sdt, n, folded) == n;
  char *tmp = NULL, *spack = NULL; /* taken when a first block needs them */
  char *rpack = coll_tmp(x, bbytes * most);
  int live = 0; /* positions not marked: none at all when every buffer is folded */
  if (all_folded)
    memset(junk, 1, sizeof(bool) * (size_t)n);
  for (int i = 0; i < n && !all_folded; i++) {
    junk[i] = folded[(me + i) % n];
    if (junk[i])
      continue;
    live++;
    if (!tmp)
      tmp = coll_tmp_dt(x, rc * (size_t)n, dt);
    coll_copy(x, coll_at(a->sbuf, (size_t)((me + i) % n) * sc, a->sdt), sc, a->sdt,
              coll_at(tmp, (size_t)i * rc, dt), rc, dt);
  }
  for (int k = 1; k < n; k <<= 1) {
    size_t nb = step_blocks(n, k);
    bool all_junk = true;
    if (live) {
      FOR_STEP_POSITIONS(i, n, k) { all_junk &= junk[i]; }
    }
    const void *out = all_junk ? coll_folded_dt(bbytes * nb, byte) : NULL;
    if (!out) {
      if (!spack)
        spack = coll_tmp(x, bbytes * most);
      size_t j = 0;
      FOR_STEP_POSITIONS(i, n, k)
      {
        if (!junk[i]) /* a marked block's slot is left unwritten: it holds nothing */
          coll_pack(x, coll_at(tmp, (size_t)i * rc, dt), rc, dt, spack + bbytes * j);
        j++;
      }
      out = spack;
    }
    bool arrived_junk = coll_sendrecv_fold(x, out, nb * bbytes, byte, (me + k) % n, rpack,
                                           nb * bbytes, byte, (me - k + n) % n,
                                           COLL_TAG_ALLTOALL);
    if (arrived_junk && !live)
      continue; /* marked it was, marked it stays */
    size_t j = 0;
    FOR_STEP_POSITIONS(i, n, k)
    {
      live += (int)junk[i] - (int)arrived_junk;
      junk[i] = arrived_junk;
      if (!arrived_junk) {
        if (!tmp)
          tmp = coll_tmp_dt(x, rc * (size_t)n, dt);
        coll_unpack(x, rpack + bbytes * j, rc, dt, coll_at(tmp, (size_t)i * rc, dt));
      }
      j++;
    }
  }
  for (int i = 0; i < n && live; i++)
    if (!junk[i])
      coll_copy(x, coll_at(tmp, (size_t)i * rc, dt), rc, dt,
                coll_at(a->rbuf, (size_t)((me - i + n) % n) * rc, dt), rc, dt);
  return x->err;
}
