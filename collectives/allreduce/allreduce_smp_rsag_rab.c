/* SMP-aware allreduce, Rabenseifner variant (SimGrid's smp_rsag_rab; COLL_F_SMP, a
 * power-of-two size, commutative ops). The vector reaches rbuf as a message to itself;
 * binomial reduce inside each host to its leader; among the P leaders (P = size / ranks per
 * host) recursive halving with the nearest leader first, then recursive doubling with the
 * farthest first; binomial broadcast inside each host.
 *
 *   halving, leader j, step k (mask 2^k): keep the half of the window given by bit k of j,
 *     send the other half (count / 2^(k+1) elements) to leader j ^ mask, fold in theirs
 *   doubling: block b of count / P elements, b = bit-reversed position of j; step with mask
 *     P/2, P/4, ... 1 sends the blocks gathered so far to leader j ^ mask, gets as many
 *
 * SimGrid floors count / 2^(k+1) at each step, down to count / 2P before the doubling
 * doubles it again: unless 2P divides count, elements are never exchanged and its result
 * is wrong. There smpi runs smp_rdb below 2P elements (SimGrid's messages are then
 * empty: whole vectors are the closest in time), else smp_rsag (ring blocks, the last one
 * taking the remainder). */
#include "collectives/coll_group.h"

int coll_allreduce_smp_rsag_rab(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  int me = x->rank, P = x->size / x->ppn;
  if (P > 1 && count < 2 * (size_t)P)
    return coll_allreduce_smp_rdb(x, a);
  if (P > 1 && count % (2 * (size_t)P))
    return coll_allreduce_smp_rsag(x, a);
  coll_sendrecv(x, a->sbuf, count, a->sdt, me, a->rbuf, count, dt, me, COLL_TAG_ALLREDUCE);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_group_reduce_binomial(x, a, &intra, a->rbuf, count, COLL_TAG_ALLREDUCE);
  if (inter.me >= 0) {
    int j = inter.me;
    char *buf = a->rbuf, *tmp = coll_tmp_dt(x, count / 2 ? count / 2 : 1, dt);
    size_t curr = count / 2, base = 0; /* elements */
    int mask;
    for (mask = 1; mask < P; mask *= 2, curr /= 2) {
      int peer = coll_group_rank(&inter, j ^ mask);
      size_t keep = j & mask ? base + curr : base, give = j & mask ? base : base + curr;
      base = keep;
      coll_sendrecv(x, coll_at(buf, give, dt), curr, dt, peer, tmp, curr, dt, peer,
                    COLL_TAG_ALLREDUCE);
      coll_reduce(x, a, tmp, coll_at(buf, keep, dt), curr);
    }
    size_t block = count / (size_t)P, pos = 0; /* pos: in blocks */
    for (int m = 1, half = P / 2; m < P; m <<= 1, half /= 2)
      if (j & m)
        pos += (size_t)half;
    curr *= 2;
    size_t gathered = 1; /* blocks */
    for (mask = P / 2; mask >= 1; mask >>= 1, curr *= 2, gathered *= 2) {
      int peer = coll_group_rank(&inter, j ^ mask);
      size_t from = pos, to = j & mask ? pos - gathered : pos + gathered;
      if (j & mask)
        pos -= gathered;
      coll_sendrecv(x, coll_at(buf, from * block, dt), curr, dt, peer,
                    coll_at(buf, to * block, dt), curr, dt, peer, COLL_TAG_ALLREDUCE);
    }
  }
  coll_group_bcast_binomial(x, &intra, a->rbuf, count, dt, COLL_TAG_ALLREDUCE);
  return x->err;
}
