/* MVAPICH2's two-level allreduce as SimGrid runs it outside its mvapich2 selector
 * (SimGrid's mvapich2_two_level; the selector would swap the two inner algorithms by size):
 *
 *   1. inside each host, an allreduce as SimGrid's mpich selector picks it on a host's
 *      communicator: Rabenseifner (rab_rdb) above 2048 bytes when count >= the largest
 *      power of two <= ranks per host and the op commutes, else recursive doubling;
 *   2. the host leaders (lowest rank of each host) combine their results by recursive
 *      doubling;
 *   3. each leader broadcasts along a binomial tree in its host (the default bcast) -- to
 *      ranks that already hold a host-wide result, so this stage only costs time.
 *
 * With one rank per host, stages 1 and 3 are empty: the messages of rdb. */
#include "collectives/coll_group.h"

/* As the mvapich2 selector runs it (x->inner[0]: the leaders' allreduce, rdb or
 * mvapich2_rs): the Reduce the selector picks to each host's leader, that allreduce among
 * the leaders, then the Bcast the selector picks in each host. */
static int tuned(coll_ctx *x, const coll_args *a, coll_alg_id leaders)
{
  size_t count = (size_t)a->rcount;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_args r = *a;
  r.root = 0;
  r.in_place = a->in_place && intra.me == 0;
  coll_run_group(x, &intra, intra.n, COLL_reduce, COLL_ALG_COUNT, &r);
  if (inter.me >= 0 && inter.n > 1) {
    void *mine = coll_tmp_dt(x, count, a->rdt);
    coll_copy(x, a->rbuf, count, a->rdt, mine, count, a->rdt);
    coll_args l = *a;
    l.sbuf = mine;
    l.sdt = a->rdt;
    l.sdt_h = a->rdt_h;
    l.scount = a->rcount;
    l.in_place = false;
    coll_run_group(x, &inter, 1, COLL_allreduce, leaders, &l);
  }
  coll_args b = {.rbuf = a->rbuf, .rcount = a->rcount, .rdt = a->rdt, .rdt_h = a->rdt_h};
  return coll_run_group(x, &intra, intra.n, COLL_bcast, COLL_ALG_COUNT, &b);
}

int coll_allreduce_mvapich2_two_level(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  if (count == 0)
    return x->err;
  if (x->inner[0])
    return tuned(x, a, (coll_alg_id)(x->inner[0] - 1));
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, a->rdt);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  size_t bytes = count * smpi_dt_size(a->rdt);
  if (bytes > 2048 && count >= (size_t)coll_pof2_floor(intra.n) && smpi_op_is_commutative(a->op))
    coll_group_allreduce_rab_rdb(x, a, &intra, a->rbuf, count, COLL_TAG_ALLREDUCE);
  else
    coll_group_allreduce_rdb(x, a, &intra, a->rbuf, count, COLL_TAG_ALLREDUCE);
  if (inter.me >= 0 && inter.n > 1)
    coll_group_allreduce_rdb(x, a, &inter, a->rbuf, count, COLL_TAG_ALLREDUCE);
  coll_group_bcast_binomial(x, &intra, a->rbuf, count, a->rdt, COLL_TAG_ALLREDUCE);
  return x->err;
}
