/* Allreduce, Rabenseifner's second variant (SimGrid's rab2; commutative ops): the
 * Alltoall configured or selected for MPI_Alltoall hands rank r the r-th block of every
 * contribution, r combines them, and the selected Allgather spreads the n results. A
 * count that n does not divide is padded: blocks of s = (count + n) / n elements (n when
 * count < n); only the elements below count are combined. */
#include "collectives/coll_private.h"

int coll_allreduce_rab2(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount, un = (size_t)n;
  const smpi_dt *dt = a->rdt;
  bool even = count % un == 0;
  size_t s = even ? count / un : count < un ? un : (count + un) / un;
  const void *send = a->sbuf;
  if (!even) {
    char *padded = coll_tmp_dt(x, s * un, dt);
    coll_copy(x, a->sbuf, count, a->sdt, padded, count, dt);
    send = padded;
  }
  char *recv = coll_tmp_dt(x, s * un > 0 ? s * un : 1, dt);
  coll_args t = {0};
  t.sbuf = send;
  t.rbuf = recv;
  t.scount = t.rcount = (int)s;
  t.sdt = even ? a->sdt : dt;
  t.rdt = dt;
  t.sdt_h = even ? a->sdt_h : a->rdt_h;
  t.rdt_h = a->rdt_h;
  int rc = coll_run(x, COLL_alltoall, &t);
  if (rc)
    return rc;
  /* my block: elements me*s .. me*s+s of the vector, of which those below count count */
  size_t from = (size_t)me * s, len = from >= count ? 0 : from + s <= count ? s : count - from;
  char *mine = coll_tmp_dt(x, s ? s : 1, dt);
  coll_copy(x, recv, s, dt, mine, s, dt);
  for (int i = 1; i < n; i++)
    if (len)
      coll_reduce(x, a, coll_at(recv, (size_t)i * s, dt), mine, len);
  char *all = even ? a->rbuf : coll_tmp_dt(x, s * un, dt);
  coll_args g = {0};
  g.sbuf = mine;
  g.rbuf = all;
  g.scount = g.rcount = (int)s;
  g.sdt = g.rdt = dt;
  g.sdt_h = g.rdt_h = a->rdt_h;
  rc = coll_run(x, COLL_allgather, &g);
  if (rc)
    return rc;
  if (!even)
    coll_copy(x, all, count, dt, a->rbuf, count, dt);
  return x->err;
}
