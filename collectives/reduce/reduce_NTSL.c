/* Reduce along a linear chain towards the root, root-1 -> root-2 -> ... -> root, in
 * 8 KiB segments (STAR-MPI; SimGrid's NTSL). The chain's first rank posts every segment at
 * once; a relay posts every receive, then for each segment as it arrives folds in its own
 * data and forwards it; the root folds in the last hop. A remainder that does not fill a
 * segment is reduced by the linear algorithm; up to one segment the chain goes
 * unsegmented with blocking messages. Commutative ops only (the chain wraps around). */
#include "collectives/coll_private.h"

#define SEGMENT_BYTES 8192

int coll_reduce_NTSL(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  size_t count = (size_t)a->rcount, dts = smpi_dt_size(a->rdt);
  size_t seg = dts ? SEGMENT_BYTES / dts : 0;
  int v = (me - root + n) % n; /* position: the chain runs v = n-1 -> ... -> 1 -> 0 */
  int to = (me - 1 + n) % n, from = (me + 1) % n;
  void *acc = me == root ? a->rbuf : coll_tmp_dt(x, count, a->rdt);
  if (n == 1) {
    coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
    return x->err;
  }
  if (seg == 0 || count <= seg) {
    coll_copy(x, a->sbuf, count, a->sdt, acc, count, a->rdt);
    void *tmp = coll_tmp_dt(x, count, a->rdt);
    if (v != n - 1) {
      coll_recv(x, tmp, count, a->rdt, from, COLL_TAG_REDUCE);
      coll_reduce(x, a, tmp, acc, count);
    }
    if (v != 0)
      coll_send(x, acc, count, a->rdt, to, COLL_TAG_REDUCE);
    return x->err;
  }
  size_t nseg = count / seg, rest = count % seg;
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, a->rdt);
  if (v == n - 1) {
    for (size_t s = 0; s < nseg; s++)
      coll_isend(x, coll_at(acc, s * seg, a->rdt), seg, a->rdt, to, COLL_TAG_REDUCE);
  } else {
    void *tmp = coll_tmp_dt(x, nseg * seg, a->rdt);
    int first = -1;
    for (size_t s = 0; s < nseg; s++) {
      int id = coll_irecv(x, coll_at(tmp, s * seg, a->rdt), seg, a->rdt, from, COLL_TAG_REDUCE);
      if (first < 0)
        first = id;
    }
    for (size_t s = 0; s < nseg; s++) {
      coll_wait_req(x, first + (int)s);
      coll_reduce(x, a, coll_at(tmp, s * seg, a->rdt), coll_at(acc, s * seg, a->rdt), seg);
      if (v != 0)
        coll_isend(x, coll_at(acc, s * seg, a->rdt), seg, a->rdt, to, COLL_TAG_REDUCE);
    }
  }
  coll_wait(x);
  if (rest) {
    coll_args r = *a;
    r.sbuf = coll_at(a->sbuf, nseg * seg, a->sdt);
    r.rbuf = me == root ? coll_at(a->rbuf, nseg * seg, a->rdt) : NULL;
    r.rcount = r.scount = (int)rest;
    if (me == root && a->sbuf == a->rbuf)
      r.sbuf = coll_at(a->rbuf, nseg * seg, a->rdt); /* in place: untouched by the chain */
    return coll_reduce_linear(x, &r);
  }
  return x->err;
}
