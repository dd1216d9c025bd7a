/* Allgather, Bruck's algorithm (MPICH; SimGrid's bruck): blocks gather at the top of a
 * byte buffer in rank - me order; in step k a rank sends the 2^k blocks it has to
 * rank - 2^k and receives 2^k more from rank + 2^k; a last step moves the remaining
 * n - 2^floor(log2 n) blocks; a rotation puts them in place. ceil(log2 n) rounds, any n.
 * Every block carries a mark, "meaningless" (coll_private.h, "Blocks whose content does not
 * matter"), so that folded contributions never fill the n blocks of scratch per rank. */
#include "collectives/coll_private.h"

/* Sends tmp's first `have` blocks to dst, receives `get` blocks after them from src; their
 * marks follow (junk[i]: block i holds nothing). */
static void step(coll_ctx *x, char *tmp, bool *junk, size_t bb, size_t have, size_t get, int dst,
                 int src)
{
  bool all_junk = true;
  for (size_t i = 0; i < get; i++)
    all_junk &= junk[i];
  bool arrived_junk = coll_sendrecv_fold(x, coll_send_from(tmp, get * bb, coll_byte(), all_junk),
                                         get * bb, coll_byte(), dst, tmp + have * bb, get * bb,
                                         coll_byte(), src, COLL_TAG_ALLGATHER);
  for (size_t i = 0; i < get; i++)
    junk[have + i] = arrived_junk;
}

int coll_allgather_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  size_t bb = rc * smpi_dt_size(dt);
  char *tmp = coll_tmp(x, bb * (size_t)n);
  bool *junk = coll_tmp(x, sizeof(bool) * (size_t)n);
  junk[0] = smpi_dt_all_folded(a->sbuf, (size_t)a->scount, a->sdt);
  if (!junk[0]) {
    /* own block, packed (the send data, converted through the receive type's layout) */
    char *own = coll_tmp_dt(x, rc, dt);
    coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, own, rc, dt);
    coll_pack(x, own, rc, dt, tmp);
  }
  size_t curr = 1;
  int pof2 = 1;
  for (; pof2 <= n / 2; pof2 *= 2, curr *= 2)
    step(x, tmp, junk, bb, curr, curr, (me - pof2 + n) % n, (me + pof2) % n);
  int rem = n - pof2;
  if (rem)
    step(x, tmp, junk, bb, curr, (size_t)rem, (me - pof2 + n) % n, (me + pof2) % n);
  /* tmp block i is rank me + i */
  for (int i = 0; i < n; i++)
    if (!junk[i])
      coll_unpack(x, tmp + (size_t)i * bb, rc, dt,
                  coll_at(a->rbuf, (size_t)((me + i) % n) * rc, dt));
  return x->err;
}
