/* Allgatherv by recursive doubling (MPICH; SimGrid's mpich_rdb): the blocks are gathered
 * in rank order in a scratch buffer (block i at the sum of the counts before it); in step
 * i a rank swaps with rank ^ 2^i the blocks of its subtree, as in the allgather (with the
 * have-nots step for sizes that are not powers of two); then the blocks go to their
 * displacements. Blocks carry a "meaningless" mark (coll_private.h, "Blocks whose content
 * does not matter"), so that folded contributions never fill the scratch. */
#include "collectives/coll_allgatherv.h"

/* junk[lo .. hi - 1] (clipped to n) all marked; false without marks */
static bool all_junk(const bool *junk, int n, int lo, int hi)
{
  if (!junk)
    return false;
  for (int b = lo; b < hi && b < n; b++)
    if (!junk[b])
      return false;
  return true;
}

static void mark(bool *junk, int n, int lo, int hi, bool folded)
{
  for (int b = lo; junk && b < hi && b < n; b++)
    junk[b] = folded;
}

/* The exchange of both (allgather_rdb.c describes it): block i of buf is the pos[i + 1] -
 * pos[i] elements at pos[i]; the caller's own block is in place. */
void coll_allgather_rdb_blocks(coll_ctx *x, char *buf, const size_t *pos, const smpi_dt *dt,
                               int tag, bool *junk)
{
  int n = x->size, me = x->rank;
#define SPAN(lo, hi) (pos[(hi) < n ? (hi) : n] - pos[(lo) < n ? (lo) : n])
  size_t curr = pos[me + 1] - pos[me];
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = me ^ mask, dst_root = dst >> i << i, my_root = me >> i << i;
    size_t last = SPAN(dst_root, dst_root + mask);
    if (dst < n) {
      const void *out = coll_send_from(coll_at(buf, pos[my_root], dt), curr, dt,
                                       all_junk(junk, n, my_root, my_root + mask));
      bool folded = coll_sendrecv_fold(x, out, curr, dt, dst, coll_at(buf, pos[dst_root], dt),
                                       last, dt, dst, tag);
      mark(junk, n, dst_root, dst_root + mask, folded);
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
          coll_send(x,
                    coll_send_from(coll_at(buf, off, dt), last, dt,
                                   all_junk(junk, n, my_root + mask, my_root + 2 * mask)),
                    last, dt, d, tag);
        } else if (d < me && d < tree_root + done && me >= tree_root + done) {
          bool folded = coll_recv_fold(x, coll_at(buf, off, dt), last, dt, d, tag);
          mark(junk, n, my_root + mask, my_root + 2 * mask, folded);
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
  bool *junk = coll_tmp(x, sizeof(bool) * (size_t)n);
  for (int i = 0; i < n; i++)
    junk[i] = false;
  junk[me] = a->rcounts[me] > 0 && smpi_dt_all_folded(a->sbuf, (size_t)a->scount, a->sdt);
  if (!junk[me])
    coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(tmp, pos[me], dt),
              (size_t)a->rcounts[me], dt);
  coll_allgather_rdb_blocks(x, tmp, pos, dt, COLL_TAG_ALLGATHERV, junk);
  for (int i = 0; i < n; i++)
    if (!junk[i])
      coll_copy(x, coll_at(tmp, pos[i], dt), (size_t)a->rcounts[i], dt, agv_block(a, i),
                (size_t)a->rcounts[i], dt);
  return x->err;
}
