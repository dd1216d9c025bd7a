/* Exscan, linear (SimGrid's algorithm): rank i sends its vector to every higher rank and
 * receives from every lower one, all at once; then combines v0 op ... op v(i-1). Rank 0's
 * receive buffer is left alone (MPI leaves it undefined). */
#include "collectives/coll_private.h"

int coll_exscan_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t cnt = (size_t)a->rcount;
  void **v = coll_tmp(x, (size_t)(me ? me : 1) * sizeof *v);
  for (int j = 0; j < me; j++) {
    v[j] = coll_tmp_dt(x, cnt, a->rdt);
    coll_irecv(x, v[j], cnt, a->rdt, j, COLL_TAG_EXSCAN);
  }
  for (int j = me + 1; j < n; j++)
    coll_isend(x, a->sbuf, cnt, a->sdt, j, COLL_TAG_EXSCAN);
  coll_wait(x); /* the sends are done: in place, rbuf may now be overwritten */
  if (me == 0)
    return x->err;
  coll_copy(x, v[me - 1], cnt, a->rdt, a->rbuf, cnt, a->rdt);
  for (int j = me - 2; j >= 0; j--)
    coll_reduce(x, a, v[j], a->rbuf, cnt);
  return x->err;
}
