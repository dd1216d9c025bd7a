/* Shared stages of the mvapich2_* algorithms (coll_mv2.h). */
#include "collectives/coll_mv2.h"

coll_alg_id coll_mv2_mpich_bcast(size_t bytes, int n)
{
  if (bytes < 12288 || n <= 8)
    return COLL_ALG_bcast_binomial_tree;
  if (bytes < 524288 && n % 2 == 0)
    return COLL_ALG_bcast_scatter_rdb_allgather;
  return COLL_ALG_bcast_scatter_LR_allgather;
}

coll_alg_id coll_mv2_mpich_allgather(size_t total, int n)
{
  if (coll_is_pow2(n) && total < 524288)
    return COLL_ALG_allgather_rdb;
  if (total <= 81920)
    return COLL_ALG_allgather_bruck;
  return COLL_ALG_allgather_ring;
}

int coll_mv2_bcast_inter_node(coll_ctx *x, const coll_args *a, coll_alg_id inner)
{
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  int ppn = intra.n, root = a->root, root_leader = root - root % ppn;
  size_t count = (size_t)a->rcount;
  if (root != root_leader) {
    if (x->rank == root_leader)
      coll_recv(x, a->rbuf, count, a->rdt, root, COLL_TAG_BCAST);
    else if (x->rank == root)
      coll_send(x, a->rbuf, count, a->rdt, root_leader, COLL_TAG_BCAST);
  }
  coll_args b = *a;
  b.root = root_leader / ppn;
  return coll_run_group(x, &inter, 1, COLL_bcast, inner, &b);
}

int coll_mv2_scatter_two_level(coll_ctx *x, const coll_args *a, coll_alg_id leaders,
                               coll_alg_id intra_alg)
{
  int me = x->rank, n = x->size, root = a->root;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  int ppn = intra.n, root_leader = root - root % ppn;
  if (ppn == n) /* one host: Open MPI's basic linear on the whole communicator */
    return coll_scatter_ompi_basic_linear(x, a);
  const smpi_dt *byte = coll_byte();
  size_t nbytes = me == root ? (size_t)a->scount * smpi_dt_size(a->sdt)
                             : (size_t)a->rcount * smpi_dt_size(a->rdt);
  if (nbytes == 0)
    return x->err;
  size_t hbytes = nbytes * (size_t)ppn;
  char *host = intra.me == 0 ? coll_tmp(x, hbytes) : NULL;
  /* the root's blocks, as bytes, at the root's leader */
  char *all = NULL;
  if (me == root) {
    all = coll_tmp(x, nbytes * (size_t)n);
    coll_pack(x, a->sbuf, (size_t)a->scount * (size_t)n, a->sdt, all);
    if (me != root_leader)
      coll_send(x, all, nbytes * (size_t)n, byte, root_leader, COLL_TAG_SCATTER);
  } else if (me == root_leader) {
    all = coll_tmp(x, nbytes * (size_t)n);
    coll_recv(x, all, nbytes * (size_t)n, byte, root, COLL_TAG_SCATTER);
  }
  if (inter.n > 1) {
    coll_args l = {.sbuf = all,
                   .rbuf = host,
                   .scount = (int)hbytes,
                   .rcount = (int)hbytes,
                   .sdt = byte,
                   .rdt = byte,
                   .sdt_h = MPI_BYTE,
                   .rdt_h = MPI_BYTE,
                   .root = root_leader / ppn};
    coll_run_group(x, &inter, 1, COLL_scatter, leaders, &l);
  } else if (intra.me == 0) {
    coll_copy(x, all, hbytes, byte, host, hbytes, byte);
  }
  coll_args h = {.sbuf = host,
                 .rbuf = a->rbuf,
                 .scount = (int)nbytes,
                 .rcount = a->rcount,
                 .sdt = byte,
                 .rdt = a->rdt,
                 .sdt_h = MPI_BYTE,
                 .rdt_h = a->rdt_h,
                 .root = 0};
  return coll_run_group(x, &intra, ppn, COLL_scatter, intra_alg, &h);
}
