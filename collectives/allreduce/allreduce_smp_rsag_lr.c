/* SMP-aware allreduce, logical-ring variant (SimGrid's smp_rsag_lr; COLL_F_SMP, commutative
 * ops). The vector reaches rbuf as a message to itself; binomial reduce inside each host to
 * its leader; among the H leaders a ring reduce-scatter then a ring allgather on H segments
 * of count / H elements, the last one taking the remainder (step i of the reduce-scatter
 * sends segment h - 1 - i to the next leader and folds in segment h - 2 - i from the
 * previous one; step i of the allgather passes segment h - i on, gets h - 1 - i); binomial
 * broadcast inside each host. With count < H, SimGrid sends `count` elements at every step
 * (see SEG_LEN); so does this, combining only the one real segment. */
#include "collectives/coll_group.h"

int coll_allreduce_smp_rsag_lr(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  int me = x->rank;
  coll_sendrecv(x, a->sbuf, count, a->sdt, me, a->rbuf, count, dt, me, COLL_TAG_ALLREDUCE);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_group_reduce_binomial(x, a, &intra, a->rbuf, count, COLL_TAG_ALLREDUCE);
  if (inter.me >= 0) {
    int H = inter.n, h = inter.me;
    size_t seg = count / (size_t)H, last = seg + count % (size_t)H;
    int to = coll_group_rank(&inter, (h + 1) % H),
        from = coll_group_rank(&inter, (h - 1 + H) % H);
    char *tmp = coll_tmp_dt(x, last ? last : 1, dt);
#define SEG_AT(s) coll_at(a->rbuf, (size_t)(s)*seg, dt)
    /* SimGrid sizes a segment by its offset: with count < H every offset is the last one's,
     * so every message carries `last` elements; only segment H - 1 holds data then */
#define SEG_LEN(s) ((s) == H - 1 || seg == 0 ? last : seg)
#define SEG_REAL(s) ((s) == H - 1 || seg > 0)
    for (int i = 0; i < H - 1; i++) {
      int s = (h - 1 - i + H) % H, r = (h - 2 - i + 2 * H) % H;
      coll_sendrecv(x, SEG_AT(s), SEG_LEN(s), dt, to, tmp, SEG_LEN(r), dt, from,
                    COLL_TAG_ALLREDUCE);
      if (SEG_REAL(r))
        coll_reduce(x, a, tmp, SEG_AT(r), SEG_LEN(r));
    }
    for (int i = 0; i < H - 1; i++) {
      int s = (h - i + H) % H, r = (h - 1 - i + H) % H;
      coll_sendrecv(x, SEG_AT(s), SEG_LEN(s), dt, to, SEG_REAL(r) ? SEG_AT(r) : tmp, SEG_LEN(r),
                    dt, from, COLL_TAG_ALLREDUCE);
    }
#undef SEG_AT
#undef SEG_LEN
#undef SEG_REAL
  }
  coll_group_bcast_binomial(x, &intra, a->rbuf, count, dt, COLL_TAG_ALLREDUCE);
  return x->err;
}
