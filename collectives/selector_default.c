/* The `default` selector: what SimGrid 3.32 runs when no smpi/<collective> is set, so that
 * a default run of ours and of SimGrid simulate the same messages. From SimGrid's default
 * selector (src/smpi/colls/smpi_default_selector.cpp) and, for the decision tables, the
 * compiled libsimgrid 3.32 of Debian (the thresholds of alltoall__ompi and
 * reduce_scatter__mpich as its code compares them):
 *
 *   barrier    Open MPI basic linear (everyone -> 0, then 0 -> everyone)
 *   bcast      binomial tree
 *   reduce     linear: non-roots send at once to the root; a non-commutative op: Open MPI
 *              basic linear (the root receives from n-1, n-2, ..., 0 in turn)
 *   allreduce  reduce (as selected) + bcast (as selected)
 *   alltoall   SimGrid's `ompi` choice, Open MPI 4.1's fixed decision table
 *              (coll_ompi41_alltoall, selector_ompi.c): by ranks n and block bytes m
 *              (L = basic linear, P = pair, B = Bruck)
 *                n = 2        m <= 1 P, <= 3 L, <= 15 P, <= 63 L, <= 255 P, <= 4095 L,
 *                             <= 32767 P, < 1 MiB L, else P
 *                n <= 7       512 KiB <= m < 1 MiB: P (a power of two only: SimGrid's pair
 *                             refuses other sizes, so L), else L
 *                8 .. 15      L
 *                16 .. 31     m <= 3 L, <= 511 B, else L
 *                32 .. 63     m <= 511 B, else L
 *                64 .. 255    m <= 1023 B, < 256 KiB L, else P
 *                256 .. 511   m <= 1023 B, <= 32767 L, else P
 *                512 .. 1023  m <= 511 B, < 256 KiB L, else P
 *                1024 .. 2047 m <= 511 B, else L
 *                2048 .. 4095 m <= 1023 B, else L;   4096 and more: m <= 2047 B, else L
 *   gather(v), scatter(v), allgather(v), alltoallv, alltoallw, scan, exscan: linear,
 *              everything posted at once
 *   reduce_scatter  equal blocks: reduce to rank 0, then scatterv; unequal blocks:
 *              SimGrid's `mpich` choice, i.e. pairwise when the op commutes and the blocks
 *              add up to more than 524288 elements, else recursive doubling
 *   reduce_scatter_block  reduce to rank 0, then scatter */
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
    return coll_ompi41_alltoall(f->size, f->bytes);
  case COLL_alltoallv:
    return COLL_ALG_alltoallv_linear;
  case COLL_alltoallw:
    return COLL_ALG_alltoallw_linear;
  case COLL_reduce:
    return f->commutative ? COLL_ALG_reduce_linear : COLL_ALG_reduce_ompi_basic_linear;
  case COLL_allreduce:
    return COLL_ALG_allreduce_redbcast;
  case COLL_reduce_scatter:
    if (!f->irregular)
      return COLL_ALG_reduce_scatter_reduce_scatterv;
    return f->commutative && f->count > 524288 ? COLL_ALG_reduce_scatter_mpich_pair
                                               : COLL_ALG_reduce_scatter_mpich_rdb;
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

/* The automatic selector explores in coll_run (coll.c: run_automatic); where a single
 * choice is needed (calls made by its candidates, the tables of docs/collectives.md) it
 * answers as the default selector. */
coll_alg_id coll_select_automatic(coll_features *f) { return coll_select_default(f); }
