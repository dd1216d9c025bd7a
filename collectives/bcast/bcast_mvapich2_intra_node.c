/* MVAPICH2's broadcast (MPIR_Bcast_intra_MV2; SimGrid's mvapich2_intra_node, despite the
 * name the whole two-level algorithm), with the stages SimGrid runs when its mvapich2
 * selector has not set them. With n ranks and b bytes:
 *
 *   two levels when n > 64, or 16384 < b < 524288:
 *     1. mvapich2_inter_node (to the root's leader, then among the leaders, SimGrid's
 *        mpich choice on their communicator);
 *     2. in each host from its leader: SimGrid's mpich choice up to 131072 bytes, else
 *        the 4-nomial tree of mvapich2_knomial_intra_node;
 *   else binomial_tree up to 16384 bytes, scatter_LR_allgather above.
 *
 * Stage 2 starts at each host's leader; SimGrid passes the root's rank in the whole
 * communicator as the root inside the host, which is the same for root 0. */
#include "collectives/coll_mv2.h"

int coll_bcast_mvapich2_intra_node(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount, bytes = count * smpi_dt_size(a->rdt);
  if (count == 0)
    return x->err;
  if (x->size <= 64 && (bytes <= 16384 || bytes >= 524288))
    return bytes <= 16384 ? coll_bcast_binomial_tree(x, a)
                          : coll_bcast_scatter_LR_allgather(x, a);
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_mv2_bcast_inter_node(x, a, coll_mv2_mpich_bcast(bytes, inter.n));
  coll_args h = *a;
  h.root = 0;
  coll_alg_id in = bytes <= 131072 ? coll_mv2_mpich_bcast(bytes, intra.n)
                                   : COLL_ALG_bcast_mvapich2_knomial_intra_node;
  return coll_run_group(x, &intra, intra.n, COLL_bcast, in, &h);
}
