/* Allgatherv, Bruck's algorithm (Open MPI): in the step of distance d (1, 2, 4, ...) a
 * rank sends blocks me .. me + b - 1 to rank - d and receives blocks me + d .. me + d + b - 1
 * from rank + d, b = d (or n - d in the last step). Blocks are packed per message; blocks in
 * folded memory are sent without packing (agv_pack_send). */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_ompi_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  agv_own(x, a);
  const smpi_dt *byte = coll_byte();
  /* one pair of pack buffers for every step, as large as the largest step's */
  size_t most_s = 1, most_r = 1;
  for (int d = 1; d < n; d <<= 1) {
    int nb = d <= n / 2 ? d : n - d;
    size_t sb = agv_span_bytes(a, n, me, nb), rb = agv_span_bytes(a, n, (me + d) % n, nb);
    most_s = sb > most_s ? sb : most_s;
    most_r = rb > most_r ? rb : most_r;
  }
  char *sp = coll_tmp(x, most_s), *rp = coll_tmp(x, most_r);
  for (int d = 1; d < n; d <<= 1) {
    int from = (me + d) % n, to = (me - d + n) % n;
    int nb = d <= n / 2 ? d : n - d;
    size_t sb = agv_span_bytes(a, n, me, nb), rb = agv_span_bytes(a, n, from, nb);
    const void *out = agv_pack_send(x, a, n, me, nb, sp);
    if (!coll_sendrecv_fold(x, out, sb, byte, to, rp, rb, byte, from, COLL_TAG_ALLGATHERV))
      agv_unpack(x, a, n, from, nb, rp);
  }
  return x->err;
}
