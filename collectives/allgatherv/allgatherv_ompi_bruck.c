/* Allgatherv, Bruck's algorithm (Open MPI): in the step of distance d (1, 2, 4, ...) a
 * rank sends blocks me .. me + b - 1 to rank - d and receives blocks me + d .. me + d + b - 1
 * from rank + d, b = d (or n - d in the last step). Blocks are packed per message. */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_ompi_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  agv_own(x, a);
  const smpi_dt *byte = coll_byte();
  for (int d = 1; d < n; d <<= 1) {
    int from = (me + d) % n, to = (me - d + n) % n;
    int nb = d <= n / 2 ? d : n - d;
    size_t sb = agv_span_bytes(a, n, me, nb), rb = agv_span_bytes(a, n, from, nb);
    char *sp = coll_tmp(x, sb), *rp = coll_tmp(x, rb);
    agv_pack(x, a, n, me, nb, sp);
    coll_sendrecv(x, sp, sb, byte, to, rp, rb, byte, from, COLL_TAG_ALLGATHERV);
    agv_unpack(x, a, n, from, nb, rp);
  }
  return x->err;
}
