/* Reduce_scatter by recursive halving (Open MPI's basic_recursivehalving). Even ranks
 * below 2 rem (rem = n minus the largest power of two p) give their whole vector to their
 * odd neighbour and wait; the p others halve the block range log2 p times, largest
 * distance first (send the half they drop to rank ^ mask, fold in the half they keep);
 * finally each odd helper sends its neighbour's block. Commutative ops only. */
#include "collectives/coll_private.h"

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
  int p = coll_pof2_floor(n), rem = n - p, trank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      coll_send(x, res, count, dt, me + 1, COLL_TAG_REDUCE_SCATTER);
      trank = -1;
    } else {
      coll_recv(x, recvb, count, dt, me - 1, COLL_TAG_REDUCE_SCATTER);
      coll_reduce(x, a, recvb, res, count);
      trank = me / 2;
    }
  } else {
    trank = me - rem;
  }
  if (trank >= 0) {
    /* blocks of the p participants (a helper's block merged with its neighbour's) */
    size_t *tc = coll_tmp(x, (size_t)p * sizeof *tc), *td = coll_tmp(x, (size_t)p * sizeof *td);
    for (int i = 0; i < p; i++)
      tc[i] = i < rem ? (size_t)a->rcounts[2 * i] + (size_t)a->rcounts[2 * i + 1]
                      : (size_t)a->rcounts[i + rem];
    td[0] = 0;
    for (int i = 0; i < p - 1; i++)
      td[i + 1] = td[i] + tc[i];
    int send_idx = 0, recv_idx = 0, last_idx = p;
    for (int mask = p >> 1; mask > 0; mask >>= 1) {
      int tpeer = trank ^ mask, peer = tpeer < rem ? tpeer * 2 + 1 : tpeer + rem;
      size_t scnt = 0, rcnt = 0;
      if (trank < tpeer) {
        send_idx = recv_idx + mask;
        for (int i = send_idx; i < last_idx; i++)
          scnt += tc[i];
        for (int i = recv_idx; i < send_idx; i++)
          rcnt += tc[i];
      } else {
        recv_idx = send_idx + mask;
        for (int i = send_idx; i < recv_idx; i++)
          scnt += tc[i];
        for (int i = recv_idx; i < last_idx; i++)
          rcnt += tc[i];
      }
      int r = -1;
      if (rcnt)
        r = coll_irecv(x, coll_at(recvb, td[recv_idx], dt), rcnt, dt, peer, COLL_TAG_REDUCE_SCATTER);
      if (scnt)
        coll_send(x, coll_at(res, td[send_idx], dt), scnt, dt, peer, COLL_TAG_REDUCE_SCATTER);
      if (rcnt) {
        coll_wait_req(x, r);
        coll_reduce(x, a, coll_at(recvb, td[recv_idx], dt), coll_at(res, td[recv_idx], dt), rcnt);
      }
      coll_wait(x);
      send_idx = recv_idx;
      last_idx = recv_idx + mask;
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
