/* What SMP_binary and SMP_linear share (SimGrid's SMP pipelines): a root other than rank 0
 * first sends the whole buffer to rank 0; above 8 KiB the buffer goes in 8 KiB segments, a
 * rank posts the receives of all segments from its parent, then forwards each one to its
 * children as it arrives; the count % segment tail is then broadcast by a second call of the
 * Bcast smpi/bcast names. Only the tree (parent, children) differs between the two. */
#ifndef COLLECTIVES_BCAST_SMP_H
#define COLLECTIVES_BCAST_SMP_H

#include "collectives/coll_private.h"

typedef struct bcast_smp_plan {
  size_t count, step, nseg, len, seg;
  bool pipeline;
} bcast_smp_plan;

static inline bcast_smp_plan bcast_smp_start(coll_ctx *x, const coll_args *a)
{
  int me = x->rank;
  bcast_smp_plan p = {.count = (size_t)a->rcount};
  if (a->root != 0) {
    if (me == a->root)
      coll_send(x, a->rbuf, p.count, a->rdt, 0, COLL_TAG_BCAST);
    else if (me == 0)
      coll_recv(x, a->rbuf, p.count, a->rdt, a->root, COLL_TAG_BCAST);
  }
  /* 8 KiB of data per segment: SimGrid divides by the extent, which is the same for the
   * contiguous types and, unlike the extent, the same on every rank for the others */
  size_t ext = (size_t)smpi_dt_extent(a->rdt), size = smpi_dt_size(a->rdt);
  p.seg = size ? 8192 / size : p.count;
  if (p.seg == 0)
    p.seg = 1;
  p.pipeline = p.count > p.seg;
  p.nseg = p.pipeline ? p.count / p.seg : 1;
  p.len = p.pipeline ? p.seg : p.count;
  p.step = p.seg * ext;
  return p;
}

static inline int bcast_smp_forward(coll_ctx *x, const coll_args *a, const bcast_smp_plan *p,
                                    int parent, const int *kids, int nkids)
{
  char *buf = a->rbuf;
  int first = (int)x->nreqs;
  if (parent >= 0)
    for (size_t i = 0; i < p->nseg; i++)
      coll_irecv(x, buf + i * p->step, p->len, a->rdt, parent, COLL_TAG_BCAST);
  for (size_t i = 0; i < p->nseg; i++) {
    if (parent >= 0)
      coll_wait_req(x, first + (int)i);
    for (int k = 0; k < nkids; k++)
      coll_send(x, buf + i * p->step, p->len, a->rdt, kids[k], COLL_TAG_BCAST);
  }
  coll_wait(x);
  if (p->pipeline && p->count % p->seg) {
    coll_args r = *a;
    r.rbuf = buf + p->nseg * p->step;
    r.rcount = (int)(p->count % p->seg);
    coll_run(x, COLL_bcast, &r);
  }
  return x->err;
}

#endif
