/* Reduce_scatter by recursive halving (Open MPI's basic_recursivehalving). Even ranks
 * below 2 rem (rem = n minus the largest power of two p) give their whole vector to their
 * odd neighbour and wait; the p others halve the block range log2 p times, largest
 * distance first (send the half they drop to rank ^ mask, fold in the half they keep);
 * finally each odd helper sends its neighbour's block. Commutative ops only. */
#include "collectives/coll_halving.h"

int coll_reduce_scatter_ompi_basic_recursivehalving(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt;
  size_t count = (size_t)a->scount;
  if (count == 0)
    return x->err;
  size_t *disps = coll_tmp(x, (size_t)n * sizeof *disps);
  disps[0] = 0;
  for (int i = 1; i < n; i++)
    disps[i] = disps[i - 1] + (size_t)a->rcounts[i - 1];
  char *recvb = coll_tmp_dt(x, count, dt), *res = coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, res, count, dt);
  coll_halving h;
  coll_halving_init(&h, n, 1);
  int p = h.p, rem = h.rem;
  int trank = coll_halving_fold(x, a, &h, res, recvb, count, dt, COLL_TAG_REDUCE_SCATTER);
  if (trank >= 0) {
    /* blocks of the p participants (a helper's block merged with its neighbour's) */
    size_t *tc = coll_tmp(x, (size_t)p * sizeof *tc), *td = coll_tmp(x, (size_t)p * sizeof *td);
    for (int i = 0; i < p; i++)
      tc[i] = i < rem ? (size_t)a->rcounts[2 * i] + (size_t)a->rcounts[2 * i + 1]
                      : (size_t)a->rcounts[i + rem];
    td[0] = 0;
    for (int i = 0; i < p - 1; i++)
      td[i + 1] = td[i] + tc[i];
    h.cnts = tc;
    h.disps = td;
    for (int mask = p >> 1; mask > 0; mask >>= 1) {
      int tpeer = trank ^ mask, peer = coll_halving_real(&h, tpeer);
      coll_halving_step s = coll_halving_split(&h, trank < tpeer, mask);
      int r = -1;
      if (s.rcnt)
        r = coll_irecv(x, coll_at(recvb, s.roff, dt), s.rcnt, dt, peer, COLL_TAG_REDUCE_SCATTER);
      if (s.scnt)
        coll_send(x, coll_at(res, s.soff, dt), s.scnt, dt, peer, COLL_TAG_REDUCE_SCATTER);
      if (s.rcnt) {
        coll_wait_req(x, r);
        coll_reduce(x, a, coll_at(recvb, s.roff, dt), coll_at(res, s.roff, dt), s.rcnt);
      }
      coll_wait(x);
    }
    coll_copy(x, coll_at(res, disps[me], dt), (size_t)a->rcounts[me], dt, a->rbuf,
              (size_t)a->rcounts[me], dt);
  }
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      if (a->rcounts[me])
        coll_recv(x, a->rbuf, (size_t)a->rcounts[me], dt, me + 1, COLL_TAG_REDUCE_SCATTER);
    } else if (a->rcounts[me - 1]) {
      coll_send(x, coll_at(res, disps[me - 1], dt), (size_t)a->rcounts[me - 1], dt, me - 1,
                COLL_TAG_REDUCE_SCATTER);
    }
  }
  return x->err;
}
