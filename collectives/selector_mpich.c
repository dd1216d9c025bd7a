/* The `mpich` selector: MPICH's default choices for intracommunicators (its "auto"
 * algorithms, MPICH 3.3 - 4.x; MPICH 4's JSON tuning file for ch4 encodes the same
 * thresholds). Values are the defaults of MPICH's control variables, as declared in its
 * source (the MPI_T CVAR blocks of src/mpi/coll/<collective>/<collective>.c) and described
 * in Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in
 * MPICH" (IJHPCA 19(1), 2005). m = bytes (what coll_list.h says per collective), n = ranks,
 * p = largest power of two <= n.
 *
 *   bcast       m < 12288 (BCAST_SHORT_MSG_SIZE) or n < 8 (BCAST_MIN_PROCS): binomial
 *               m < 524288 (BCAST_LONG_MSG_SIZE) and n = p: scatter + recursive doubling
 *               otherwise: scatter + ring allgather
 *   reduce      m <= 2048 (REDUCE_SHORT_MSG_SIZE), a non-commutative op or count < p:
 *               binomial; else reduce-scatter + gather (Rabenseifner)
 *   allreduce   m <= 2048 (ALLREDUCE_SHORT_MSG_SIZE), non-commutative or count < p:
 *               recursive doubling; else reduce-scatter + allgather (Rabenseifner)
 *   alltoall    block <= 256 (ALLTOALL_SHORT_MSG_SIZE) and n >= 8: Bruck;
 *               block <= 32768 (ALLTOALL_MEDIUM_MSG_SIZE): scattered, 32 at a time
 *               (ALLTOALL_THROTTLE); else pairwise exchange
 *   alltoallv/w scattered, 32 at a time (alltoallw: all at once)
 *   allgather   total < 524288 (ALLGATHER_LONG_MSG_SIZE) and n = p: recursive doubling;
 *               total < 81920 (ALLGATHER_SHORT_MSG_SIZE): Bruck; else ring
 *   allgatherv  the same thresholds on the total of the counts
 *   gather      binomial          scatter      binomial
 *   gatherv     linear            scatterv     linear
 *   barrier     dissemination
 *   reduce_scatter(_block)  commutative: total < 524288 (REDSCAT_COMMUTATIVE_LONG_MSG_SIZE)
 *               recursive halving, else pairwise; non-commutative: equal blocks and n = p:
 *               the non-commutative halving, else recursive doubling
 *   scan, exscan  recursive doubling
 *
 * Where MPICH's algorithm has the messages of one of ours the mapping is: gather binomial
 * = ompi_binomial (same tree and order), reduce_scatter recursive halving =
 * ompi_basic_recursivehalving, allgatherv Bruck = ompi_bruck, allgather ring = ompi_ring
 * (pass-along), barrier dissemination = ompi_bruck. */
#include "collectives/coll_private.h"
#include "src/invariant.h"

#define BCAST_SHORT_MSG_SIZE 12288
#define BCAST_LONG_MSG_SIZE 524288
#define BCAST_MIN_PROCS 8
#define REDUCE_SHORT_MSG_SIZE 2048
#define ALLREDUCE_SHORT_MSG_SIZE 2048
#define ALLTOALL_SHORT_MSG_SIZE 256
#define ALLTOALL_MEDIUM_MSG_SIZE 32768
#define ALLGATHER_SHORT_MSG_SIZE 81920
#define ALLGATHER_LONG_MSG_SIZE 524288
#define REDSCAT_COMMUTATIVE_LONG_MSG_SIZE 524288

coll_alg_id coll_select_mpich(coll_features *f)
{
  int n = f->size, p = coll_pof2_floor(n > 0 ? n : 1);
  bool pow2 = n == p;
  switch (f->coll) {
  case COLL_barrier:
    return COLL_ALG_barrier_ompi_bruck;
  case COLL_bcast:
    if (f->bytes < BCAST_SHORT_MSG_SIZE || n < BCAST_MIN_PROCS)
      return COLL_ALG_bcast_binomial_tree;
    if (f->bytes < BCAST_LONG_MSG_SIZE && pow2)
      return COLL_ALG_bcast_scatter_rdb_allgather;
    return COLL_ALG_bcast_scatter_LR_allgather;
  case COLL_gather:
    return COLL_ALG_gather_ompi_binomial;
  case COLL_gatherv:
    return COLL_ALG_gatherv_linear;
  case COLL_scatter:
    return COLL_ALG_scatter_mpich_binomial;
  case COLL_scatterv:
    return COLL_ALG_scatterv_linear;
  case COLL_allgather:
    if (f->total < ALLGATHER_LONG_MSG_SIZE && pow2)
      return COLL_ALG_allgather_rdb;
    if (f->total < ALLGATHER_SHORT_MSG_SIZE)
      return COLL_ALG_allgather_bruck;
    return COLL_ALG_allgather_ompi_ring;
  case COLL_allgatherv:
    if (f->total < ALLGATHER_LONG_MSG_SIZE && pow2)
      return COLL_ALG_allgatherv_mpich_rdb;
    if (f->total < ALLGATHER_SHORT_MSG_SIZE)
      return COLL_ALG_allgatherv_ompi_bruck;
    return COLL_ALG_allgatherv_mpich_ring;
  case COLL_alltoall:
    if (f->bytes <= ALLTOALL_SHORT_MSG_SIZE && n >= 8)
      return COLL_ALG_alltoall_bruck;
    if (f->bytes <= ALLTOALL_MEDIUM_MSG_SIZE)
      return COLL_ALG_alltoall_mpich_scattered;
    return COLL_ALG_alltoall_mpich_pairwise;
  case COLL_alltoallv:
    return COLL_ALG_alltoallv_mpich_scattered;
  case COLL_alltoallw:
    return COLL_ALG_alltoallw_linear;
  case COLL_reduce:
    if (f->bytes <= REDUCE_SHORT_MSG_SIZE || !f->commutative || f->count < (size_t)p)
      return COLL_ALG_reduce_binomial;
    return COLL_ALG_reduce_scatter_gather;
  case COLL_allreduce:
    if (f->bytes <= ALLREDUCE_SHORT_MSG_SIZE || !f->commutative || f->count < (size_t)p)
      return COLL_ALG_allreduce_rdb;
    return COLL_ALG_allreduce_rab_rdb;
  case COLL_reduce_scatter:
    if (f->commutative)
      return f->total < REDSCAT_COMMUTATIVE_LONG_MSG_SIZE
                 ? COLL_ALG_reduce_scatter_ompi_basic_recursivehalving
                 : COLL_ALG_reduce_scatter_mpich_pair;
    return pow2 && !f->irregular ? COLL_ALG_reduce_scatter_mpich_noncomm
                                 : COLL_ALG_reduce_scatter_mpich_rdb;
  case COLL_reduce_scatter_block:
    if (f->commutative)
      return f->total < REDSCAT_COMMUTATIVE_LONG_MSG_SIZE
                 ? COLL_ALG_reduce_scatter_block_ompi_basic_recursivehalving
                 : COLL_ALG_reduce_scatter_block_mpich_pair;
    return pow2 ? COLL_ALG_reduce_scatter_block_mpich_noncomm
                : COLL_ALG_reduce_scatter_block_mpich_rdb;
  case COLL_scan:
    return COLL_ALG_scan_rdb;
  case COLL_exscan:
    return COLL_ALG_exscan_rdb;
  case COLL_COUNT:
    break;
  }
  UNREACHABLE();
}
