/* Exscan by recursive doubling (MPICH): as the scan, but the answer only accumulates
 * what comes from lower ranks (the first such piece is copied, later ones folded in on the
 * left). Rank 0's receive buffer is left alone. Any op. */
#include "collectives/coll_private.h"

int coll_exscan_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t cnt = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  bool commutative = smpi_op_is_commutative(a->op), have = false;
  char *partial = coll_tmp_dt(x, cnt, dt), *tmp = coll_tmp_dt(x, cnt, dt);
  coll_copy(x, a->sbuf, cnt, a->sdt, partial, cnt, dt);
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = me ^ mask;
    if (dst >= n)
      continue;
    coll_sendrecv(x, partial, cnt, dt, dst, tmp, cnt, dt, dst, COLL_TAG_EXSCAN);
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
