/* Scan, Open MPI's basic algorithm: a chain; rank i waits for the prefix of ranks
 * 0 .. i-1 from rank i-1, folds in its own data (on the right) and passes the result on.
 * n - 1 latencies. Any op. */
#include "collectives/coll_private.h"

int coll_scan_ompi_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t cnt = (size_t)a->rcount;
  coll_copy(x, a->sbuf, cnt, a->sdt, a->rbuf, cnt, a->rdt);
  if (me > 0) {
    void *tmp = coll_tmp_dt(x, cnt, a->rdt);
    coll_recv(x, tmp, cnt, a->rdt, me - 1, COLL_TAG_SCAN);
    coll_reduce(x, a, tmp, a->rbuf, cnt);
  }
  if (me < n - 1)
    coll_send(x, a->rbuf, cnt, a->rdt, me + 1, COLL_TAG_SCAN);
  return x->err;
}
