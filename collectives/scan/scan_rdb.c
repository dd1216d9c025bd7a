/* Scan by recursive doubling (MPICH): in step k a rank swaps its partial result (the
 * combination of a block of 2^k ranks ending at itself) with rank ^ 2^k; data from a lower
 * rank is folded into both the partial result and the answer, data from a higher rank only
 * into the partial result (on the right). ceil(log2 n) rounds. Any op.
 * Exscan (exscan_rdb.c) is the same but for the answer, which only accumulates what comes
 * from lower ranks: the first such piece is copied, later ones folded in on the left, and
 * rank 0's receive buffer is left alone. */
#include "collectives/coll_private.h"

int coll_scan_rdb_any(coll_ctx *x, const coll_args *a, bool exclusive)
{
  int n = x->size, me = x->rank, tag = exclusive ? COLL_TAG_EXSCAN : COLL_TAG_SCAN;
  size_t cnt = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  bool commutative = smpi_op_is_commutative(a->op), have = !exclusive;
  char *partial = coll_tmp_dt(x, cnt, dt), *tmp = coll_tmp_dt(x, cnt, dt);
  coll_copy(x, a->sbuf, cnt, a->sdt, partial, cnt, dt);
  if (!exclusive)
    coll_copy(x, a->sbuf, cnt, a->sdt, a->rbuf, cnt, dt);
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = me ^ mask;
    if (dst >= n)
      continue;
    coll_sendrecv(x, partial, cnt, dt, dst, tmp, cnt, dt, dst, tag);
    if (me > dst) {
      coll_reduce(x, a, tmp, partial, cnt);
      if (!have) {
        coll_copy(x, tmp, cnt, dt, a->rbuf, cnt, dt);
        have = true;
      } else {
        coll_reduce(x, a, tmp, a->rbuf, cnt);
      }
    } else if (commutative) {
      coll_reduce(x, a, tmp, partial, cnt);
    } else {
      coll_reduce(x, a, partial, tmp, cnt);
      coll_copy(x, tmp, cnt, dt, partial, cnt, dt);
    }
  }
  return x->err;
}

int coll_scan_rdb(coll_ctx *x, const coll_args *a) { return coll_scan_rdb_any(x, a, false); }
