/* Allreduce = reduce-scatter by recursive halving + allgather by recursive doubling
 * (Rabenseifner; MPICH's long-message allreduce, SimGrid's rab_rdb). Even ranks below
 * 2 rem fold into their odd neighbour first (rem = n minus the largest power of two p);
 * the p others halve the vector log2 p times (exchange the half they drop with
 * rank ^ mask, fold in the half they keep), then double it back, and the odd helpers
 * return the result. ~2 m bytes per rank. Commutative ops, count >= p (else: rdb). */
#include "collectives/coll_group.h"

int coll_allreduce_rab_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  int pof2 = coll_pof2_floor(n), rem = n - pof2, newrank;
  if (count < (size_t)pof2)
    return coll_allreduce_rdb(x, a);
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, dt);
  void *buf = a->rbuf, *tmp = coll_tmp_dt(x, count, dt);
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      coll_send(x, buf, count, dt, me + 1, COLL_TAG_ALLREDUCE);
      newrank = -1;
    } else {
      coll_recv(x, tmp, count, dt, me - 1, COLL_TAG_ALLREDUCE);
      coll_reduce(x, a, tmp, buf, count);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank >= 0) {
    size_t *cnts = coll_tmp(x, (size_t)pof2 * sizeof *cnts);
    size_t *disps = coll_tmp(x, (size_t)pof2 * sizeof *disps);
    for (int i = 0; i < pof2; i++) {
      cnts[i] = i < pof2 - 1 ? count / (size_t)pof2 : count - count / (size_t)pof2 * (size_t)(pof2 - 1);
      disps[i] = (size_t)i * (count / (size_t)pof2);
    }
#define SUM(lo, hi, out)                                                                  \
  do {                                                                                   \
    out = 0;                                                                             \
    for (int i_ = (lo); i_ < (hi); i_++)                                                 \
      out += cnts[i_];                                                                   \
  } while (0)
#define REAL(nr) ((nr) < rem ? (nr) * 2 + 1 : (nr) + rem)
    int send_idx = 0, recv_idx = 0, last_idx = pof2, mask = 1;
    while (mask < pof2) {
      int nd = newrank ^ mask, dst = REAL(nd);
      size_t scnt, rcnt;
      if (newrank < nd) {
        send_idx = recv_idx + pof2 / (mask * 2);
        SUM(send_idx, last_idx, scnt);
        SUM(recv_idx, send_idx, rcnt);
      } else {
        recv_idx = send_idx + pof2 / (mask * 2);
        SUM(send_idx, recv_idx, scnt);
        SUM(recv_idx, last_idx, rcnt);
      }
      coll_sendrecv(x, coll_at(buf, disps[send_idx], dt), scnt, dt, dst,
                    coll_at(tmp, disps[recv_idx], dt), rcnt, dt, dst, COLL_TAG_ALLREDUCE);
      coll_reduce(x, a, coll_at(tmp, disps[recv_idx], dt), coll_at(buf, disps[recv_idx], dt), rcnt);
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < pof2)
        last_idx = recv_idx + pof2 / mask;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
      int nd = newrank ^ mask, dst = REAL(nd);
      size_t scnt, rcnt;
      if (newrank < nd) {
        if (mask != pof2 / 2)
          last_idx = last_idx + pof2 / (mask * 2);
        recv_idx = send_idx + pof2 / (mask * 2);
        SUM(send_idx, recv_idx, scnt);
        SUM(recv_idx, last_idx, rcnt);
      } else {
        recv_idx = send_idx - pof2 / (mask * 2);
        SUM(send_idx, last_idx, scnt);
        SUM(recv_idx, send_idx, rcnt);
      }
      coll_sendrecv(x, coll_at(buf, disps[send_idx], dt), scnt, dt, dst,
                    coll_at(buf, disps[recv_idx], dt), rcnt, dt, dst, COLL_TAG_ALLREDUCE);
      if (newrank > nd)
        send_idx = recv_idx;
    }
#undef SUM
#undef REAL
  }
  if (me < 2 * rem) {
    if (me % 2)
      coll_send(x, buf, count, dt, me - 1, COLL_TAG_ALLREDUCE);
    else
      coll_recv(x, buf, count, dt, me + 1, COLL_TAG_ALLREDUCE);
  }
  return x->err;
}
