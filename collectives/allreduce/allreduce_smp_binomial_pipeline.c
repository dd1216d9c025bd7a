/* SMP-aware allreduce, pipelined (SimGrid's smp_binomial_pipeline; COLL_F_SMP). The vector
 * reaches rbuf as a message to itself, then is cut in segments of 4096 elements (SimGrid's
 * default) that flow through four binomial stages, one step apart: phase p reduces segment
 * p inside each host, segment p - 1 among the hosts' leaders, broadcasts segment p - 2
 * among the leaders and segment p - 3 inside each host.
 *
 *   3 segments: phase 0: intra-reduce s0; 1: intra-reduce s1, inter-reduce s0; 2: s2, s1,
 *   inter-bcast s0; 3: inter-reduce s2, inter-bcast s1, intra-bcast s0; 4, 5: the rest.
 *
 * SimGrid leaves out the count % 4096 elements past the last whole segment (they are never
 * combined); here they form a last, shorter segment. */
#include "collectives/coll_group.h"

#define SEGMENT 4096

int coll_allreduce_smp_binomial_pipeline(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_sendrecv(x, a->sbuf, count, a->sdt, x->rank, a->rbuf, count, dt, x->rank,
                COLL_TAG_ALLREDUCE);
  if (count == 0)
    return x->err;
  size_t pcount = count < SEGMENT ? count : SEGMENT;
  int segs = (int)((count + pcount - 1) / pcount);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
#define SEG(s) coll_at(a->rbuf, (size_t)(s)*pcount, dt)
#define LEN(s) ((size_t)(s) == (size_t)segs - 1 ? count - (size_t)(s)*pcount : pcount)
  for (int p = 0; p < segs + 3; p++) {
    if (p < segs)
      coll_group_reduce_binomial(x, a, &intra, SEG(p), LEN(p), COLL_TAG_ALLREDUCE);
    if (p >= 1 && p - 1 < segs)
      coll_group_reduce_binomial(x, a, &inter, SEG(p - 1), LEN(p - 1), COLL_TAG_ALLREDUCE);
    if (p >= 2 && p - 2 < segs)
      coll_group_bcast_binomial(x, &inter, SEG(p - 2), LEN(p - 2), dt, COLL_TAG_ALLREDUCE);
    if (p >= 3)
      coll_group_bcast_binomial(x, &intra, SEG(p - 3), LEN(p - 3), dt, COLL_TAG_ALLREDUCE);
  }
#undef SEG
#undef LEN
  return x->err;
}
