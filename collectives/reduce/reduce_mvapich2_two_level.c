/* MVAPICH2's two-level reduce as SimGrid runs it outside its mvapich2 selector (SimGrid's
 * mvapich2_two_level; that selector would pick the inner algorithms by size):
 *
 *   several hosts:  1. each host reduces to its leader (lowest rank), 2. the leaders reduce
 *                   to the leader of the root's host, 3. which sends the result to the
 *                   root if the root is not itself;
 *                   stages 1 and 2 are what SimGrid's mpich selector picks on a host or
 *                   leaders' communicator: Rabenseifner (scatter_gather) when the op
 *                   commutes, the vector has >= 2048 bytes and count >= the largest power
 *                   of two <= members, else binomial.
 *   a single host:  up to 2048 bytes with a commutative op, Open MPI's basic linear reduce
 *                   to rank 0, which sends to the root; else the 4-nomial mvapich2_knomial
 *                   (binomial for a non-commutative op, where SimGrid's result is wrong).
 *
 * With one rank per host: stage 2 alone, i.e. binomial or scatter_gather. */
#include "collectives/coll_group.h"

static void reduce_mpich(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                         size_t count, int root)
{
  size_t bytes = count * smpi_dt_size(a->rdt);
  if (count < (size_t)coll_pof2_floor(g->n) || bytes < 2048 || !smpi_op_is_commutative(a->op))
    coll_group_reduce_binomial_root(x, a, g, buf, count, root, COLL_TAG_REDUCE);
  else
    coll_group_reduce_scatter_gather(x, a, g, buf, count, root, COLL_TAG_REDUCE);
}

/* Several hosts, as the mvapich2 selector runs it: x->inner = the leaders' and the hosts'
 * reduce from its tables (SimGrid's MV2_Reduce_function, MV2_Reduce_intra_function). */
static int tuned(coll_ctx *x, const coll_args *a, const coll_group *intra,
                 const coll_group *inter)
{
  int me = x->rank, root = a->root, ppn = intra->n, root_leader = root - root % ppn;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  coll_alg_id lead = (coll_alg_id)(x->inner[0] - 1), in_host = (coll_alg_id)(x->inner[1] - 1);
  /* "shmem" (Open MPI's basic linear) only for a commutative op below 128 KiB per rank */
  if (in_host == COLL_ALG_reduce_ompi_basic_linear &&
      !(smpi_op_is_commutative(a->op) && count * smpi_dt_extent(dt) < (size_t)ppn * 131072))
    in_host = COLL_ALG_reduce_mvapich2_knomial;
  void *acc = coll_tmp_dt(x, count, dt); /* the host's result at its leader */
  if (ppn > 1) {
    coll_args h = *a;
    h.rbuf = acc;
    h.root = 0;
    h.in_place = false;
    coll_run_group(x, intra, ppn, COLL_reduce, in_host, &h);
  } else {
    coll_copy(x, a->sbuf, count, a->sdt, acc, count, dt);
  }
  void *out = me == root ? a->rbuf : coll_tmp_dt(x, count, dt);
  if (inter->me >= 0 && inter->n > 1) {
    coll_args l = *a;
    l.sbuf = acc;
    l.sdt = dt;
    l.sdt_h = a->rdt_h;
    l.scount = a->rcount;
    l.rbuf = out;
    l.root = root_leader / ppn;
    l.in_place = false;
    coll_run_group(x, inter, 1, COLL_reduce, lead, &l);
  } else if (me == root_leader) {
    coll_copy(x, acc, count, dt, out, count, dt);
  }
  if (root != root_leader) {
    if (me == root_leader)
      coll_send(x, out, count, dt, root, COLL_TAG_REDUCE);
    else if (me == root)
      coll_recv(x, a->rbuf, count, dt, root_leader, COLL_TAG_REDUCE);
  }
  return x->err;
}

int coll_reduce_mvapich2_two_level(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, root = a->root;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  if (count == 0)
    return x->err;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  if (intra.n == x->size) {
    if (count * smpi_dt_extent(dt) <= 2048 && smpi_op_is_commutative(a->op)) {
      coll_args b = *a;
      b.root = 0;
      if (root != 0) {
        b.in_place = false;
        if (me == 0)
          b.rbuf = coll_tmp_dt(x, count, dt);
      }
      coll_reduce_ompi_basic_linear(x, &b);
      if (root != 0 && me == 0)
        coll_send(x, b.rbuf, count, dt, root, COLL_TAG_REDUCE);
      else if (root != 0 && me == root)
        coll_recv(x, a->rbuf, count, dt, 0, COLL_TAG_REDUCE);
      return x->err;
    }
    /* SimGrid runs the 4-nomial tree for non-commutative ops too, which combines out of
     * rank order: the binomial tree keeps it */
    if (!smpi_op_is_commutative(a->op))
      return coll_reduce_binomial(x, a);
    return coll_reduce_mvapich2_knomial(x, a);
  }
  if (x->inner[0])
    return tuned(x, a, &intra, &inter);
  void *acc = me == root ? a->rbuf : coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, dt);
  reduce_mpich(x, a, &intra, acc, count, 0);
  int ppn = intra.n, root_leader = root - root % ppn;
  if (inter.me >= 0)
    reduce_mpich(x, a, &inter, acc, count, root / ppn);
  if (root != root_leader) {
    if (me == root_leader)
      coll_send(x, acc, count, dt, root, COLL_TAG_REDUCE);
    else if (me == root)
      coll_recv(x, a->rbuf, count, dt, root_leader, COLL_TAG_REDUCE);
  }
  return x->err;
}
