/* Exscan, Open MPI's basic algorithm: a chain; rank i receives the prefix of ranks
 * 0 .. i-1 from rank i-1 (its result), folds in its own data and sends that on. Any op. */
#include "collectives/coll_private.h"

int coll_exscan_ompi_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t cnt = (size_t)a->rcount;
  void *next = coll_tmp_dt(x, cnt, a->rdt); /* what goes to rank + 1 */
  coll_copy(x, a->sbuf, cnt, a->sdt, next, cnt, a->rdt);
  if (me > 0) {
    coll_recv(x, a->rbuf, cnt, a->rdt, me - 1, COLL_TAG_EXSCAN);
    coll_reduce(x, a, a->rbuf, next, cnt); /* the prefix is the left operand */
  }
  if (me < n - 1)
    coll_send(x, next, cnt, a->rdt, me + 1, COLL_TAG_EXSCAN);
  return x->err;
}
