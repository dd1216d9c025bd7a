/* Reduce = reduce-scatter by recursive halving + binomial gather (Rabenseifner; MPICH's
 * long-message reduce, SimGrid's scatter_gather). With p the largest power of two <= n and
 * rem = n - p, odd ranks below 2 rem first hand their vector to their even neighbour and
 * sit out. The p others halve the vector log2(p) times, exchanging the half they do not
 * keep with rank ^ mask and folding in the half they keep; each ends with 1/p of the
 * result, which a binomial gather brings to the root. ~2 m bytes per rank instead of
 * m log2 p: the long-message choice. Commutative ops only. */
#include "collectives/coll_private.h"

int coll_reduce_scatter_gather(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  if (n == 1) {
    coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, dt);
    return x->err;
  }
  int pof2 = coll_pof2_floor(n), rem = n - pof2, newrank;
  void *buf = me == root ? a->rbuf : coll_tmp_dt(x, count, dt);
  void *tmp = coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, buf, count, dt);
  if (me < 2 * rem) {
    if (me % 2) {
      coll_send(x, buf, count, dt, me - 1, COLL_TAG_REDUCE);
      newrank = -1;
    } else {
      coll_recv(x, tmp, count, dt, me + 1, COLL_TAG_REDUCE);
      coll_reduce(x, a, tmp, buf, count);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  /* block i of the vector: cnts[i] elements at disps[i] (the last takes the rest) */
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
#define REAL(nr) ((nr) < rem ? (nr) * 2 : (nr) + rem)
  int send_idx = 0, recv_idx = 0, last_idx = pof2;
  if (newrank >= 0) {
    for (int mask = 1; mask < pof2;) {
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
                    coll_at(tmp, disps[recv_idx], dt), rcnt, dt, dst, COLL_TAG_REDUCE);
      coll_reduce(x, a, coll_at(tmp, disps[recv_idx], dt), coll_at(buf, disps[recv_idx], dt), rcnt);
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < pof2)
        last_idx = recv_idx + pof2 / mask;
    }
  }
  /* gather to the root; a root that sat out gets newrank 0's part and plays its role */
  int newroot;
  if (root < 2 * rem) {
    if (root % 2) {
      if (me == root) {
        coll_recv(x, buf, cnts[0], dt, 0, COLL_TAG_REDUCE);
        newrank = 0;
        send_idx = 0;
        last_idx = 2;
      } else if (newrank == 0) {
        coll_send(x, buf, cnts[0], dt, root, COLL_TAG_REDUCE);
        newrank = -1;
      }
      newroot = 0;
    } else {
      newroot = root / 2;
    }
  } else {
    newroot = root - rem;
  }
  if (newrank >= 0) {
    int j = 0, mask = 1;
    while (mask < pof2) {
      mask <<= 1;
      j++;
    }
    mask >>= 1;
    j--;
    for (; mask > 0; mask >>= 1, j--) {
      int nd = newrank ^ mask, dst = REAL(nd);
      if (nd == 0 && root < 2 * rem && root % 2)
        dst = root;
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
      if ((nd >> j << j) == (newroot >> j << j)) {
        coll_send(x, coll_at(buf, disps[send_idx], dt), scnt, dt, dst, COLL_TAG_REDUCE);
        break;
      }
      coll_recv(x, coll_at(buf, disps[recv_idx], dt), rcnt, dt, dst, COLL_TAG_REDUCE);
      if (newrank > nd)
        send_idx = recv_idx;
    }
  }
#undef SUM
#undef REAL
  return x->err;
}
