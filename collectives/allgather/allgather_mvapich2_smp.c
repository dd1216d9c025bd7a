/* MVAPICH2's SMP allgather (SimGrid's mvapich2_smp):
 *
 *   1. each host gathers its ranks' blocks to its leader, in the leader's host section of
 *      the receive buffer (the Gather smpi/gather or the selector picks, on the host);
 *   2. the leaders exchange their host sections with what SimGrid's mpich selector picks on
 *      their communicator (rdb, bruck or ring: coll_mv2.h);
 *   3. each leader broadcasts the whole buffer in its host (the Bcast smpi/bcast or the
 *      selector picks, on the host).
 *
 *   8 ranks on 2 hosts:  gather 1,2,3 -> 0 and 5,6,7 -> 4;  0 <-> 4 (4 blocks each);
 *                        bcast 0 -> 1,2,3 and 4 -> 5,6,7 (8 blocks) */
#include "collectives/coll_mv2.h"

int coll_allgather_mvapich2_smp(coll_ctx *x, const coll_args *a)
{
  if (a->rcount == 0)
    return x->err;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  int ppn = intra.n;
  size_t ext = (size_t)smpi_dt_extent(a->rdt), blk = (size_t)a->rcount * ext;
  char *rbuf = a->rbuf;
  coll_args g = {.sbuf = a->sbuf,
                 .rbuf = rbuf + (size_t)x->rank * blk,
                 .scount = a->scount,
                 .rcount = a->rcount,
                 .sdt = a->sdt,
                 .rdt = a->rdt,
                 .sdt_h = a->sdt_h,
                 .rdt_h = a->rdt_h,
                 .root = 0,
                 .in_place = a->in_place};
  coll_run_group(x, &intra, ppn, COLL_gather, COLL_ALG_COUNT, &g);
  if (inter.me >= 0 && inter.n > 1) {
    size_t hblk = blk * (size_t)ppn;
    int hcount = a->rcount * ppn;
    coll_args l = {.sbuf = rbuf + (size_t)inter.me * hblk,
                   .rbuf = rbuf,
                   .scount = hcount,
                   .rcount = hcount,
                   .sdt = a->rdt,
                   .rdt = a->rdt,
                   .sdt_h = a->rdt_h,
                   .rdt_h = a->rdt_h,
                   .in_place = true};
    size_t total = (size_t)hcount * smpi_dt_size(a->rdt) * (size_t)inter.n;
    coll_run_group(x, &inter, 1, COLL_allgather, coll_mv2_mpich_allgather(total, inter.n), &l);
  }
  coll_args b = {
      .rbuf = rbuf, .rcount = a->rcount * x->size, .rdt = a->rdt, .rdt_h = a->rdt_h, .root = 0};
  return coll_run_group(x, &intra, ppn, COLL_bcast, COLL_ALG_COUNT, &b);
}
