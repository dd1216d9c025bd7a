/* Allgatherv by recursive doubling (MPICH; SimGrid's mpich_rdb): the blocks are gathered
 * in rank order in a scratch buffer (block i at the sum of the counts before it); in step
 * i a rank swaps with rank ^ 2^i the blocks of its subtree, as in the allgather (with the
 * have-nots step for sizes that are not powers of two); then the blocks go to their
 * displacements. */
#include "collectives/coll_allgatherv.h"

/* The exchange of both (allgather_rdb.c describes it): block i of buf is the pos[i + 1] -
 * pos[i] elements at pos[i]; the caller's own block is in place. */
void coll_allgather_rdb_blocks(coll_ctx *x, char *buf, const size_t *pos, const smpi_dt *dt,
                               int tag)
{
  int n = x->size, me = x->rank;
#define SPAN(lo, hi) (pos[(hi) < n ? (hi) : n] - pos[(lo) < n ? (lo) : n])
  size_t curr = pos[me + 1] - pos[me];
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = me ^ mask, dst_root = dst >> i << i, my_root = me >> i << i;
    size_t last = SPAN(dst_root, dst_root + mask);
    if (dst < n) {
      coll_sendrecv(x, coll_at(buf, pos[my_root], dt), curr, dt, dst,
                    coll_at(buf, pos[dst_root], dt), last, dt, dst, tag);
      curr += last;
    }
    if (dst_root + mask > n) {
      int done = n - my_root - mask, k = 0;
      for (int j = mask; j; j >>= 1)
        k++;
      k--;
      size_t off = pos[my_root + mask < n ? my_root + mask : n];
      for (int tmask = mask >> 1; tmask; tmask >>= 1, k--) {
        int d = me ^ tmask, tree_root = me >> k << k;
        if (d > me && me < tree_root + done && d >= tree_root + done) {
          coll_send(x, coll_at(buf, off, dt), last, dt, d, tag);
        } else if (d < me && d < tree_root + done && me >= tree_root + done) {
          coll_recv(x, coll_at(buf, off, dt), last, dt, d, tag);
          curr += last;
        }
      }
    }
  }
#undef SPAN
}

int coll_allgatherv_mpich_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt;
  size_t *pos = coll_tmp(x, ((size_t)n + 1) * sizeof *pos);
  pos[0] = 0;
  for (int i = 0; i < n; i++)
    pos[i + 1] = pos[i] + (size_t)a->rcounts[i];
  char *tmp = coll_tmp_dt(x, pos[n], dt);
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(tmp, pos[me], dt),
            (size_t)a->rcounts[me], dt);
  coll_allgather_rdb_blocks(x, tmp, pos, dt, COLL_TAG_ALLGATHERV);
  for (int i = 0; i < n; i++)
    coll_copy(x, coll_at(tmp, pos[i], dt), (size_t)a->rcounts[i], dt, agv_block(a, i),
              (size_t)a->rcounts[i], dt);
  return x->err;
}
