/* Binomial, recursive-doubling and ring patterns on a subset of ranks (coll_group.h). */
#include "collectives/coll_group.h"

void coll_group_reduce_binomial(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                                size_t count, int tag)
{
  if (g->n <= 1 || g->me < 0)
    return;
  bool commutative = smpi_op_is_commutative(a->op);
  void *tmp = coll_tmp_dt(x, count, a->rdt);
  for (int mask = 1; mask < g->n; mask <<= 1) {
    if ((g->me & mask) == 0) {
      int src = g->me | mask;
      if (src >= g->n)
        continue;
      coll_recv(x, tmp, count, a->rdt, coll_group_rank(g, src), tag);
      if (commutative) {
        coll_reduce(x, a, tmp, buf, count);
      } else { /* the sender's data is the right operand */
        coll_reduce(x, a, buf, tmp, count);
        coll_copy(x, tmp, count, a->rdt, buf, count, a->rdt);
      }
    } else {
      coll_send(x, buf, count, a->rdt, coll_group_rank(g, g->me & ~mask), tag);
      break;
    }
  }
}

void coll_group_bcast_binomial(coll_ctx *x, const coll_group *g, void *buf, size_t count,
                               const smpi_dt *dt, int tag)
{
  if (g->n <= 1 || g->me < 0)
    return;
  int mask = 1;
  while (mask < g->n) {
    if (g->me & mask) {
      coll_recv(x, buf, count, dt, coll_group_rank(g, g->me - mask), tag);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (g->me + mask < g->n)
      coll_send(x, buf, count, dt, coll_group_rank(g, g->me + mask), tag);
}

void coll_group_allreduce_rdb(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                              size_t count, int tag)
{
  if (g->n <= 1 || g->me < 0)
    return;
  int n = g->n, me = g->me, pof2 = coll_pof2_floor(n), rem = n - pof2, newrank;
  bool commutative = smpi_op_is_commutative(a->op);
  void *tmp = coll_tmp_dt(x, count, a->rdt);
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      coll_send(x, buf, count, a->rdt, coll_group_rank(g, me + 1), tag);
      newrank = -1;
    } else {
      coll_recv(x, tmp, count, a->rdt, coll_group_rank(g, me - 1), tag);
      coll_reduce(x, a, tmp, buf, count); /* the lower neighbour is the left operand */
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank >= 0)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int nd = newrank ^ mask;
      int dst = nd < rem ? nd * 2 + 1 : nd + rem;
      coll_sendrecv(x, buf, count, a->rdt, coll_group_rank(g, dst), tmp, count, a->rdt,
                    coll_group_rank(g, dst), tag);
      if (commutative || dst < me) {
        coll_reduce(x, a, tmp, buf, count);
      } else {
        coll_reduce(x, a, buf, tmp, count);
        coll_copy(x, tmp, count, a->rdt, buf, count, a->rdt);
      }
    }
  if (me < 2 * rem) {
    if (me % 2)
      coll_send(x, buf, count, a->rdt, coll_group_rank(g, me - 1), tag);
    else
      coll_recv(x, buf, count, a->rdt, coll_group_rank(g, me + 1), tag);
  }
}

void coll_group_allreduce_ring(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                               size_t count, int tag)
{
  if (g->n <= 1 || g->me < 0)
    return;
  int n = g->n, me = g->me;
  size_t blk = count / (size_t)n;
  void *tmp = coll_tmp_dt(x, count - blk * (size_t)(n - 1), a->rdt);
  int right = coll_group_rank(g, (me + 1) % n), left = coll_group_rank(g, (me - 1 + n) % n);
#define BLK_OFF(b) ((size_t)(b)*blk)
#define BLK_CNT(b) ((b) == n - 1 ? count - blk * (size_t)(n - 1) : blk)
  /* step i: send block me - i, receive block me - i - 1 and fold it in */
  for (int i = 0; i < n - 1; i++) {
    int sb = (me - i + n) % n, rb = (me - i - 1 + n) % n;
    coll_sendrecv(x, coll_at(buf, BLK_OFF(sb), a->rdt), BLK_CNT(sb), a->rdt, right, tmp,
                  BLK_CNT(rb), a->rdt, left, tag);
    coll_reduce(x, a, tmp, coll_at(buf, BLK_OFF(rb), a->rdt), BLK_CNT(rb));
  }
  /* member me now holds block me + 1 complete: pass the blocks around */
  for (int i = 0; i < n - 1; i++) {
    int sb = (me + 1 - i + n) % n, rb = (me - i + n) % n;
    coll_sendrecv(x, coll_at(buf, BLK_OFF(sb), a->rdt), BLK_CNT(sb), a->rdt, right,
                  coll_at(buf, BLK_OFF(rb), a->rdt), BLK_CNT(rb), a->rdt, left, tag);
  }
#undef BLK_OFF
#undef BLK_CNT
}
