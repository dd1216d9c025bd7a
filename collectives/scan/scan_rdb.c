/* Scan by recursive doubling (MPICH): in step k a rank swaps its partial result (the
 * combination of a block of 2^k ranks ending at itself) with rank ^ 2^k; data from a lower
 * rank is folded into both the partial result and the answer, data from a higher rank only
 * into the partial result (on the right). ceil(log2 n) rounds. Any op. */
#include "collectives/coll_private.h"

int coll_scan_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t cnt = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  bool commutative = smpi_op_is_commutative(a->op);
  char *partial = coll_tmp_dt(x, cnt, dt), *tmp = coll_tmp_dt(x, cnt, dt);
  coll_copy(x, a->sbuf, cnt, a->sdt, partial, cnt, dt);
  coll_copy(x, a->sbuf, cnt, a->sdt, a->rbuf, cnt, dt);
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = me ^ mask;
    if (dst >= n)
      continue;
    coll_sendrecv(x, partial, cnt, dt, dst, tmp, cnt, dt, dst, COLL_TAG_SCAN);
    if (me > dst) {
      coll_reduce(x, a, tmp, partial, cnt);
      coll_reduce(x, a, tmp, a->rbuf, cnt);
    } else if (commutative) {
      coll_reduce(x, a, tmp, partial, cnt);
    } else {
      coll_reduce(x, a, partial, tmp, cnt);
      coll_copy(x, tmp, cnt, dt, partial, cnt, dt);
    }
  }
  return x->err;
}
