/* The `ompi` selector: Open MPI 4.0's coll/tuned fixed decision functions
 * (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, v4.0.x; Open MPI 4.1 replaced most of
 * them by large measured tables). Thresholds as in that file; m = bytes (coll_list.h), n =
 * ranks. Segment sizes Open MPI passes to its algorithms are passed on in f->segsize.
 *
 *   barrier     n = 2: two_procs; n a power of two: recursive doubling; else Bruck
 *   bcast       m < 2048 or count <= 1: binomial, no segments
 *               m < 370728: split binary tree, 1 KiB segments
 *               n < 1.6134e-6 m + 2.1102: pipeline, 128 KiB segments
 *               n < 13: split binary tree, 8 KiB
 *               n < 2.3679e-6 m + 1.1787: pipeline, 64 KiB
 *               n < 3.2118e-6 m + 8.7936: pipeline, 16 KiB;  else pipeline, 8 KiB
 *   reduce      non-commutative: n < 12 and m < 2048: basic linear, else in-order binary
 *               n < 8 and m < 512: basic linear
 *               (n < 8 and m < 20480), m < 2048 or count <= 1: binomial, no segments
 *               n > 0.6016/1024 m + 1.3496: binomial, 1 KiB segments
 *               n > 0.0410/1024 m + 9.7128: pipeline, 1 KiB
 *               n > 0.0422/1024 m + 1.1614: binary, 32 KiB
 *               n > 0.0033/1024 m + 1.6761: pipeline, 32 KiB;  else pipeline, 64 KiB
 *   allreduce   m < 10000: recursive doubling; commutative and count > n: ring if
 *               n x 1 MiB >= m else segmented ring (1 MiB); else reduce + bcast
 *   alltoall    n = 2: two_procs (a pairwise exchange); m < 200 and n > 12: Bruck;
 *               m < 3000: basic linear; else pairwise
 *   alltoallv   pairwise          alltoallw    basic linear (coll/basic)
 *   allgather   n = 2: two_procs (pairwise); total < 50000: recursive doubling when n is a
 *               power of two, else Bruck; total >= 50000: ring (odd n) or neighbour
 *               exchange (even n)
 *   allgatherv  n = 2: two_procs; total < 50000: Bruck; else ring (odd) / neighbour exchange
 *   gather      block > 92160: linear_sync (32 KiB first segment); block > 6000:
 *               linear_sync (1 KiB); n > 60 or (n > 10 and block < 1024): binomial;
 *               else basic linear
 *   scatter     n > 10 and block < 300: binomial; else basic linear
 *   reduce_scatter  non-commutative: reduce + scatterv; total <= 12 KiB, (total <= 256 KiB
 *               and n a power of two) or n >= 0.0012 total + 8: recursive halving; else ring
 *   reduce_scatter_block  reduce + scatter (basic linear)
 *   gatherv, scatterv  linear (coll/basic);  scan, exscan  linear chains (coll/basic) */
#include "collectives/coll_private.h"
#include "src/invariant.h"

coll_alg_id coll_select_ompi(coll_features *f)
{
  int n = f->size;
  double m = (double)f->bytes;
  bool pow2 = coll_is_pow2(n);
  f->segsize = 0;
  switch (f->coll) {
  case COLL_barrier:
    if (n == 2)
      return COLL_ALG_barrier_ompi_two_procs;
    return pow2 ? COLL_ALG_barrier_ompi_recursivedoubling : COLL_ALG_barrier_ompi_bruck;
  case COLL_bcast:
    if (f->bytes < 2048 || f->count <= 1) {
      f->segsize = COLL_SEG_WHOLE;
      return COLL_ALG_bcast_ompi_binomial;
    }
    if (f->bytes < 370728) {
      f->segsize = 1024;
      return COLL_ALG_bcast_ompi_split_bintree;
    }
    if (n < 1.6134e-6 * m + 2.1102) {
      f->segsize = 128 * 1024;
      return COLL_ALG_bcast_ompi_pipeline;
    }
    if (n < 13) {
      f->segsize = 8 * 1024;
      return COLL_ALG_bcast_ompi_split_bintree;
    }
    if (n < 2.3679e-6 * m + 1.1787)
      f->segsize = 64 * 1024;
    else if (n < 3.2118e-6 * m + 8.7936)
      f->segsize = 16 * 1024;
    else
      f->segsize = 8 * 1024;
    return COLL_ALG_bcast_ompi_pipeline;
  case COLL_reduce:
    if (!f->commutative)
      return n < 12 && f->bytes < 2048 ? COLL_ALG_reduce_ompi_basic_linear
                                       : COLL_ALG_reduce_ompi_in_order_binary;
    if (n < 8 && f->bytes < 512)
      return COLL_ALG_reduce_ompi_basic_linear;
    if ((n < 8 && f->bytes < 20480) || f->bytes < 2048 || f->count <= 1) {
      f->segsize = COLL_SEG_WHOLE;
      return COLL_ALG_reduce_ompi_binomial;
    }
    if (n > 0.6016 / 1024.0 * m + 1.3496) {
      f->segsize = 1024;
      return COLL_ALG_reduce_ompi_binomial;
    }
    if (n > 0.0410 / 1024.0 * m + 9.7128) {
      f->segsize = 1024;
      return COLL_ALG_reduce_ompi_pipeline;
    }
    if (n > 0.0422 / 1024.0 * m + 1.1614) {
      f->segsize = 32 * 1024;
      return COLL_ALG_reduce_ompi_binary;
    }
    f->segsize = n > 0.0033 / 1024.0 * m + 1.6761 ? 32 * 1024 : 64 * 1024;
    return COLL_ALG_reduce_ompi_pipeline;
  case COLL_allreduce:
    if (f->bytes < 10000)
      return COLL_ALG_allreduce_rdb;
    if (f->commutative && f->count > (size_t)n)
      return (double)n * (1 << 20) >= m ? COLL_ALG_allreduce_ompi_ring
                                        : COLL_ALG_allreduce_ompi_ring_segmented;
    return COLL_ALG_allreduce_redbcast;
  case COLL_alltoall:
    if (n == 2)
      return COLL_ALG_alltoall_ompi_pairwise;
    if (f->bytes < 200 && n > 12)
      return COLL_ALG_alltoall_bruck;
    if (f->bytes < 3000)
      return COLL_ALG_alltoall_basic_linear;
    return COLL_ALG_alltoall_ompi_pairwise;
  case COLL_alltoallv:
    return COLL_ALG_alltoallv_ompi_pairwise;
  case COLL_alltoallw:
    return COLL_ALG_alltoallw_linear;
  case COLL_allgather:
    if (n == 2)
      return COLL_ALG_allgather_pair;
    if (f->total < 50000)
      return pow2 ? COLL_ALG_allgather_rdb : COLL_ALG_allgather_bruck;
    return n % 2 ? COLL_ALG_allgather_ompi_ring : COLL_ALG_allgather_ompi_neighborexchange;
  case COLL_allgatherv:
    if (n == 2)
      return COLL_ALG_allgatherv_pair;
    if (f->total < 50000)
      return COLL_ALG_allgatherv_ompi_bruck;
    return n % 2 ? COLL_ALG_allgatherv_mpich_ring : COLL_ALG_allgatherv_ompi_neighborexchange;
  case COLL_gather:
    if (f->bytes > 6000) /* linear_sync picks 32 KiB or 1 KiB at 92160 itself */
      return COLL_ALG_gather_ompi_linear_sync;
    if (n > 60 || (n > 10 && f->bytes < 1024))
      return COLL_ALG_gather_ompi_binomial;
    return COLL_ALG_gather_ompi_basic_linear;
  case COLL_gatherv:
    return COLL_ALG_gatherv_linear;
  case COLL_scatter:
    if (n > 10 && f->bytes < 300)
      return COLL_ALG_scatter_ompi_binomial;
    return COLL_ALG_scatter_ompi_basic_linear;
  case COLL_scatterv:
    return COLL_ALG_scatterv_linear;
  case COLL_reduce_scatter:
    if (!f->commutative)
      return COLL_ALG_reduce_scatter_reduce_scatterv;
    if (f->total <= 12 * 1024 || (f->total <= 256 * 1024 && pow2) ||
        n >= 0.0012 * (double)f->total + 8.0)
      return COLL_ALG_reduce_scatter_ompi_basic_recursivehalving;
    return COLL_ALG_reduce_scatter_ompi_ring;
  case COLL_reduce_scatter_block:
    return COLL_ALG_reduce_scatter_block_reduce_scatter;
  case COLL_scan:
    return COLL_ALG_scan_ompi_linear;
  case COLL_exscan:
    return COLL_ALG_exscan_ompi_linear;
  case COLL_COUNT:
    break;
  }
  UNREACHABLE();
}
