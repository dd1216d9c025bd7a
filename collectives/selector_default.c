/* The `default` selector: what SimGrid 3.32 runs when no smpi/<collective> is set, so that
 * a default run of ours and of SimGrid simulate the same messages. Observed with SimGrid's
 * Paje traces (--cfg=tracing/smpi/internals:yes) on 2..64 ranks:
 *
 *   barrier    Open MPI basic linear (everyone -> 0, then 0 -> everyone)
 *   bcast      binomial tree
 *   reduce     linear: non-roots send at once to the root
 *   allreduce  reduce (as selected) + bcast (as selected)
 *   alltoall   Bruck when the communicator has 16 ranks or more and a block is under
 *              512 bytes, else basic linear (all messages at once)
 *   gather(v), scatter(v), allgather(v), alltoallv, alltoallw, scan, exscan: linear,
 *              everything posted at once
 *   reduce_scatter(_block): reduce to rank 0, then scatter(v) */
#include "collectives/coll_private.h"
#include "src/invariant.h"

coll_alg_id coll_select_default(coll_features *f)
{
  switch (f->coll) {
  case COLL_barrier:
    return COLL_ALG_barrier_ompi_basic_linear;
  case COLL_bcast:
    return COLL_ALG_bcast_binomial_tree;
  case COLL_gather:
    return COLL_ALG_gather_linear;
  case COLL_gatherv:
    return COLL_ALG_gatherv_linear;
  case COLL_scatter:
    return COLL_ALG_scatter_linear;
  case COLL_scatterv:
    return COLL_ALG_scatterv_linear;
  case COLL_allgather:
    return COLL_ALG_allgather_linear;
  case COLL_allgatherv:
    return COLL_ALG_allgatherv_linear;
  case COLL_alltoall:
    return f->size >= 16 && f->bytes < 512 ? COLL_ALG_alltoall_bruck
                                           : COLL_ALG_alltoall_basic_linear;
  case COLL_alltoallv:
    return COLL_ALG_alltoallv_linear;
  case COLL_alltoallw:
    return COLL_ALG_alltoallw_linear;
  case COLL_reduce:
    return COLL_ALG_reduce_linear;
  case COLL_allreduce:
    return COLL_ALG_allreduce_redbcast;
  case COLL_reduce_scatter:
    return COLL_ALG_reduce_scatter_reduce_scatterv;
  case COLL_reduce_scatter_block:
    return COLL_ALG_reduce_scatter_block_reduce_scatter;
  case COLL_scan:
    return COLL_ALG_scan_linear;
  case COLL_exscan:
    return COLL_ALG_exscan_linear;
  case COLL_COUNT:
    break;
  }
  UNREACHABLE();
}
