/* The `ompi` selector: what SimGrid 3.32's `ompi` selector runs (its
 * src/smpi/colls/smpi_openmpi_selector.cpp, "updated 02/2022"), i.e. Open MPI 4.1's
 * coll/tuned fixed decision tables with each Open MPI algorithm mapped to the SimGrid
 * algorithm SimGrid calls for it. So a `--cfg=smpi/coll-selector:ompi` script picks the same
 * algorithms, and gets the same times, in both simulators.
 *
 * A table is a list of rows, one per range of communicator sizes (n below `n_below`); a row
 * is a list of cuts, one per range of message bytes m (m below `below`, the last one open).
 * Worked example, bcast with 5 ranks and 100 bytes: row "n < 8" -> cut "m < 128" -> binomial.
 *
 *   bytes m:  bcast, reduce, allreduce: the buffer; alltoall, allgather, gather, scatter:
 *             one block; allgatherv: all blocks / n; reduce_scatter: all blocks
 *
 * SimGrid 3.32's library runs two algorithms its 02/2022 source does not name: reduce_scatter's
 * Open MPI "butterfly" is ompi_butterfly (not ring), scatter's "linear_nb" is ompi_linear_nb
 * (not basic linear); read from the function pointers of libsimgrid.so.3.32's
 * reduce_scatter__ompi and scatter__ompi.
 *
 * Where SimGrid's choice cannot run here the nearest one SimGrid itself would run is taken:
 * pair (alltoall, alltoallv) needs a power-of-two size (SimGrid's throws: its run ends),
 * basic linear instead; rab_rdb needs count >= 2^floor(log2 n) (SimGrid's reads past the
 * buffer), rdb instead. SimGrid gives the collectives it has no smpi/<collective> key for
 * (gatherv, scatterv, alltoallw, reduce_scatter_block, scan, exscan) one fixed algorithm
 * whatever the selector: the default selector's choice. Segment sizes are the algorithms'
 * own (SimGrid passes none). */
#include <stdint.h>

#include "collectives/coll_private.h"
#include "src/invariant.h"

typedef struct ompi_cut {
  size_t below;
  coll_alg_id alg;
} ompi_cut;

typedef struct ompi_row {
  int n_below;
  const ompi_cut *cuts;
} ompi_row;

#define OPEN SIZE_MAX
#define NMAX INT32_MAX
#define CUTS(...) ((const ompi_cut[]){__VA_ARGS__})

static coll_alg_id lookup(const ompi_row *rows, int n, size_t m)
{
  const ompi_row *r = rows;
  while (n >= r->n_below)
    r++;
  const ompi_cut *c = r->cuts;
  while (m >= c->below)
    c++;
  return c->alg;
}

/* ---- alltoall (also the default selector's: SimGrid's default runs this one) ---- */
#define L COLL_ALG_alltoall_basic_linear
#define P COLL_ALG_alltoall_pair
#define B COLL_ALG_alltoall_bruck
static const ompi_cut alltoall_upto7[] = {{512 << 10, L}, {1 << 20, P}, {OPEN, L}};
static const ompi_row alltoall_rows[] = {
    {2, alltoall_upto7}, /* one rank */
    {3, CUTS({2, P}, {4, L}, {16, P}, {64, L}, {256, P}, {4096, L}, {32768, P}, {1 << 20, L},
             {OPEN, P})},
    {8, alltoall_upto7},
    {16, CUTS({OPEN, L})},
    {32, CUTS({4, L}, {512, B}, {OPEN, L})},
    {64, CUTS({512, B}, {OPEN, L})},
    {256, CUTS({1024, B}, {256 << 10, L}, {OPEN, P})},
    {512, CUTS({1024, B}, {32768, L}, {OPEN, P})},
    {1024, CUTS({512, B}, {256 << 10, L}, {OPEN, P})},
    {2048, CUTS({512, B}, {OPEN, L})},
    {4096, CUTS({1024, B}, {OPEN, L})},
    {NMAX, CUTS({2048, B}, {OPEN, L})},
};
#undef L
#undef P
#undef B

coll_alg_id coll_ompi41_alltoall(int n, size_t m)
{
  coll_alg_id pick = lookup(alltoall_rows, n, m);
  return pick == COLL_ALG_alltoall_pair && !coll_is_pow2(n) ? COLL_ALG_alltoall_basic_linear
                                                            : pick;
}

/* ---- the other collectives SimGrid's ompi selector decides ---- */
#define LIN COLL_ALG_alltoallv_ompi_basic_linear
#define PAIR COLL_ALG_alltoallv_pair
static const ompi_row alltoallv_rows[] = {
    {4, CUTS({OPEN, PAIR})},  {64, CUTS({OPEN, LIN})},    {128, CUTS({OPEN, PAIR})},
    {256, CUTS({OPEN, LIN})}, {1024, CUTS({OPEN, PAIR})}, {NMAX, CUTS({OPEN, LIN})},
};
#undef LIN
#undef PAIR

#define LIN COLL_ALG_barrier_ompi_basic_linear
#define RDB COLL_ALG_barrier_ompi_recursivedoubling
#define BRK COLL_ALG_barrier_ompi_bruck
#define TREE COLL_ALG_barrier_ompi_tree
static const ompi_row barrier_rows[] = {
    {4, CUTS({OPEN, RDB})},     {8, CUTS({OPEN, LIN})},    {64, CUTS({OPEN, RDB})},
    {256, CUTS({OPEN, BRK})},   {512, CUTS({OPEN, TREE})}, {1024, CUTS({OPEN, BRK})},
    {4096, CUTS({OPEN, TREE})}, {NMAX, CUTS({OPEN, BRK})},
};
#undef LIN
#undef RDB
#undef BRK
#undef TREE

#define NTSL COLL_ALG_bcast_NTSL
#define PIPE COLL_ALG_bcast_ompi_pipeline
#define SBT COLL_ALG_bcast_ompi_split_bintree
#define NTSB COLL_ALG_bcast_NTSB
#define BINO COLL_ALG_bcast_binomial_tree
#define KNOM COLL_ALG_bcast_mvapich2_knomial_intra_node
#define SCAT COLL_ALG_bcast_scatter_rdb_allgather
static const ompi_row bcast_rows[] = {
    {4, CUTS({32, PIPE}, {256, NTSB}, {512, PIPE}, {1024, KNOM}, {32768, NTSL}, {131072, NTSB},
             {262144, PIPE}, {524288, NTSL}, {1 << 20, BINO}, {OPEN, NTSB})},
    {8, CUTS({64, NTSB}, {128, BINO}, {2048, NTSB}, {8192, BINO}, {1 << 20, NTSL}, {OPEN, PIPE})},
    {16, CUTS({8, KNOM}, {64, NTSB}, {4096, KNOM}, {16384, NTSB}, {32768, BINO}, {OPEN, NTSL})},
    {32, CUTS({4096, KNOM}, {1 << 20, BINO}, {OPEN, SCAT})},
    {64, CUTS({2048, BINO}, {OPEN, KNOM})},
    {128, CUTS({OPEN, KNOM})},
    {256, CUTS({2, BINO}, {16384, NTSB}, {32768, NTSL}, {65536, NTSB}, {OPEN, KNOM})},
    {1024, CUTS({16384, KNOM}, {32768, SBT}, {OPEN, KNOM})},
    {2048, CUTS({524288, KNOM}, {OPEN, SCAT})},
    {4096, CUTS({262144, KNOM}, {OPEN, SCAT})},
    {NMAX, CUTS({8192, KNOM}, {16384, NTSB}, {262144, KNOM}, {OPEN, SCAT})},
};
#undef NTSL
#undef PIPE
#undef SBT
#undef NTSB
#undef BINO
#undef KNOM
#undef SCAT

#define LIN COLL_ALG_reduce_ompi_basic_linear
#define CHAIN COLL_ALG_reduce_ompi_chain
#define PIPE COLL_ALG_reduce_ompi_pipeline
#define BIN COLL_ALG_reduce_ompi_binary
#define BINO COLL_ALG_reduce_ompi_binomial
#define IOB COLL_ALG_reduce_ompi_in_order_binary
static const ompi_row reduce_rows[] = {
    {4, CUTS({8, LIN}, {16, BIN}, {32, PIPE}, {262144, LIN}, {524288, PIPE}, {1 << 20, CHAIN},
             {OPEN, PIPE})},
    {8, CUTS({4096, BIN}, {65536, CHAIN}, {262144, BINO}, {524288, LIN}, {1 << 20, BINO},
             {OPEN, LIN})},
    {16, CUTS({8192, BIN}, {OPEN, BINO})},
    {32, CUTS({4096, BIN}, {OPEN, BINO})},
    {256, CUTS({OPEN, BINO})},
    {512, CUTS({8192, BINO}, {16384, IOB}, {OPEN, BINO})},
    {2048, CUTS({OPEN, BINO})},
    {4096, CUTS({512, BINO}, {1024, IOB}, {8192, BINO}, {16384, IOB}, {OPEN, BINO})},
    {NMAX, CUTS({16, BINO}, {32, IOB}, {1024, BINO}, {2048, IOB}, {8192, BINO}, {16384, IOB},
                {OPEN, BINO})},
};
static const ompi_row reduce_noncomm_rows[] = {
    {4, CUTS({8, IOB}, {OPEN, LIN})},
    {8, CUTS({OPEN, LIN})},
    {16, CUTS({1024, IOB}, {8192, LIN}, {16384, IOB}, {262144, LIN}, {OPEN, IOB})},
    {128, CUTS({OPEN, IOB})},
    {256, CUTS({512, IOB}, {1024, LIN}, {OPEN, IOB})},
    {NMAX, CUTS({OPEN, IOB})},
};
#undef LIN
#undef CHAIN
#undef PIPE
#undef BIN
#undef BINO
#undef IOB

#define RB COLL_ALG_allreduce_redbcast
#define RDB COLL_ALG_allreduce_rdb
#define LR COLL_ALG_allreduce_lr
#define SEG COLL_ALG_allreduce_ompi_ring_segmented
#define RAB COLL_ALG_allreduce_rab_rdb
static const ompi_row allreduce_rows[] = {
    {4, CUTS({8, LR}, {4096, RDB}, {8192, LR}, {16384, RDB}, {65536, LR}, {262144, SEG},
             {OPEN, RAB})},
    {8, CUTS({16, LR}, {8192, RDB}, {OPEN, RAB})},
    {16, CUTS({8192, RDB}, {OPEN, RAB})},
    {32, CUTS({64, SEG}, {4096, RDB}, {OPEN, RAB})},
    {64, CUTS({128, SEG}, {OPEN, RAB})},
    {128, CUTS({262144, RDB}, {OPEN, RAB})},
    {256, CUTS({131072, RB}, {262144, RDB}, {OPEN, RAB})},
    {512, CUTS({4096, RB}, {OPEN, RAB})},
    {2048, CUTS({2048, RB}, {16384, RDB}, {OPEN, RAB})},
    {4096, CUTS({2048, RB}, {4096, SEG}, {16384, RDB}, {OPEN, RAB})},
    {NMAX, CUTS({2048, RB}, {16384, SEG}, {32768, RDB}, {OPEN, RAB})},
};
static const ompi_row allreduce_noncomm_rows[] = {
    {4, CUTS({131072, RDB}, {OPEN, RB})},
    {8, CUTS({OPEN, RDB})},
    {16, CUTS({1 << 20, RDB}, {OPEN, RB})},
    {128, CUTS({OPEN, RDB})},
    {256, CUTS({131072, RB}, {524288, RDB}, {OPEN, RB})},
    {512, CUTS({4096, RB}, {524288, RDB}, {OPEN, RB})},
    {NMAX, CUTS({2048, RB}, {OPEN, RDB})},
};
#undef RB
#undef RDB
#undef LR
#undef SEG
#undef RAB

/* COLL_ALG_COUNT stands for SimGrid's reduce_scatter__default: the default selector's choice */
#define DEF COLL_ALG_COUNT
#define RH COLL_ALG_reduce_scatter_ompi_basic_recursivehalving
#define RING COLL_ALG_reduce_scatter_ompi_ring
#define BFLY COLL_ALG_reduce_scatter_ompi_butterfly
static const ompi_row reduce_scatter_rows[] = {
    {4, CUTS({65536, RING}, {131072, BFLY}, {OPEN, RING})},
    {8, CUTS({8, DEF}, {262144, RH}, {OPEN, RING})},
    {32, CUTS({262144, RH}, {OPEN, RING})},
    {64, CUTS({64, DEF}, {2048, RH}, {524288, BFLY}, {OPEN, RING})},
    {128, CUTS({256, DEF}, {512, RH}, {2048, BFLY}, {4096, RH}, {OPEN, BFLY})},
    {256, CUTS({256, DEF}, {512, RH}, {OPEN, BFLY})},
    {512, CUTS({256, DEF}, {1024, RH}, {OPEN, BFLY})},
    {1024, CUTS({512, DEF}, {2048, RH}, {8192, BFLY}, {16384, RH}, {OPEN, BFLY})},
    {2048, CUTS({512, DEF}, {4096, RH}, {16384, BFLY}, {32768, RH}, {OPEN, BFLY})},
    {4096, CUTS({512, DEF}, {4096, RH}, {OPEN, BFLY})},
    {NMAX, CUTS({1024, DEF}, {8192, RH}, {OPEN, BFLY})},
};
#undef RH
#undef RING
#undef BFLY

#define BRK COLL_ALG_allgather_bruck
#define RDB COLL_ALG_allgather_rdb
#define RING COLL_ALG_allgather_ring
#define NBX COLL_ALG_allgather_ompi_neighborexchange
static const ompi_row allgather_rows[] = {
    {2, CUTS({OPEN, RDB})}, /* one rank */
    {3, CUTS({OPEN, COLL_ALG_allgather_pair})},
    {32, CUTS({OPEN, RDB})},
    {64, CUTS({1024, RDB}, {65536, NBX}, {OPEN, RING})},
    {128, CUTS({512, RDB}, {65536, NBX}, {OPEN, RING})},
    {256, CUTS({512, RDB}, {131072, NBX}, {524288, RING}, {1 << 20, NBX}, {OPEN, RING})},
    {512, CUTS({32, RDB}, {128, BRK}, {1024, RDB}, {131072, NBX}, {524288, RING}, {1 << 20, NBX},
               {OPEN, RING})},
    {1024, CUTS({64, RDB}, {256, BRK}, {2048, RDB}, {OPEN, NBX})},
    {2048, CUTS({4, RDB}, {8, BRK}, {16, RDB}, {32, BRK}, {256, RDB}, {512, BRK}, {4096, RDB},
                {OPEN, NBX})},
    {4096, CUTS({32, BRK}, {128, RDB}, {512, BRK}, {4096, RDB}, {OPEN, NBX})},
    {NMAX, CUTS({2, RDB}, {8, BRK}, {16, RDB}, {512, BRK}, {4096, RDB}, {OPEN, NBX})},
};
#undef BRK
#undef RDB
#undef RING
#undef NBX

#define GB COLL_ALG_allgatherv_GB
#define BRK COLL_ALG_allgatherv_ompi_bruck
#define RING COLL_ALG_allgatherv_mpich_ring
#define NBX COLL_ALG_allgatherv_ompi_neighborexchange
#define PAIR COLL_ALG_allgatherv_pair
static const ompi_cut allgatherv_upto7[] = {{256, GB},    {4096, NBX},   {8192, RING},
                                            {16384, NBX}, {262144, BRK}, {OPEN, NBX}};
static const ompi_row allgatherv_rows[] = {
    {2, allgatherv_upto7}, /* one rank */
    {3, CUTS({2048, RING}, {4096, PAIR}, {8192, RING}, {OPEN, PAIR})},
    {8, allgatherv_upto7},
    {16, CUTS({1024, GB}, {OPEN, BRK})},
    {32, CUTS({128, GB}, {262144, BRK}, {OPEN, RING})},
    {64, CUTS({256, GB}, {8192, BRK}, {OPEN, RING})},
    {128, CUTS({256, GB}, {4096, BRK}, {OPEN, RING})},
    {256, CUTS({1024, BRK}, {65536, NBX}, {OPEN, RING})},
    {512, CUTS({1024, BRK}, {OPEN, RING})},
    {1024, CUTS({512, BRK}, {1024, GB}, {4096, BRK}, {1 << 20, NBX}, {OPEN, RING})},
    {NMAX, CUTS({4096, BRK}, {OPEN, NBX})},
};
#undef GB
#undef BRK
#undef RING
#undef NBX
#undef PAIR

#define LIN COLL_ALG_gather_ompi_basic_linear
#define BINO COLL_ALG_gather_ompi_binomial
#define SYNC COLL_ALG_gather_ompi_linear_sync
static const ompi_row gather_rows[] = {
    {4, CUTS({2, SYNC}, {4, LIN}, {32768, BINO}, {65536, LIN}, {131072, BINO}, {OPEN, SYNC})},
    {8, CUTS({1024, BINO}, {8192, LIN}, {32768, BINO}, {262144, LIN}, {OPEN, SYNC})},
    {256, CUTS({OPEN, BINO})},
    {512, CUTS({2048, BINO}, {8192, LIN}, {OPEN, BINO})},
    {NMAX, CUTS({OPEN, BINO})},
};
#undef LIN
#undef BINO
#undef SYNC

#define LIN COLL_ALG_scatter_ompi_basic_linear
#define BINO COLL_ALG_scatter_ompi_binomial
#define NB COLL_ALG_scatter_ompi_linear_nb
static const ompi_row scatter_rows[] = {
    {4, CUTS({2, NB}, {131072, LIN}, {262144, NB}, {OPEN, LIN})},
    {8, CUTS({2048, BINO}, {4096, LIN}, {8192, BINO}, {32768, LIN}, {1 << 20, NB}, {OPEN, LIN})},
    {16, CUTS({16384, BINO}, {1 << 20, NB}, {OPEN, LIN})},
    {32, CUTS({16384, BINO}, {32768, LIN}, {OPEN, NB})},
    {64, CUTS({512, BINO}, {8192, NB}, {16384, BINO}, {OPEN, NB})},
    {NMAX, CUTS({512, BINO}, {OPEN, NB})},
};
#undef LIN
#undef BINO
#undef NB

coll_alg_id coll_select_ompi(coll_features *f)
{
  int n = f->size;
  size_t m = f->bytes;
  coll_alg_id pick;
  f->segsize = 0;
  switch (f->coll) {
  case COLL_barrier:
    pick = lookup(barrier_rows, n, 0);
    /* (recursive doubling at n = 2 is SimGrid's choice; two_procs is the same exchange) */
    return pick;
  case COLL_bcast:
    return lookup(bcast_rows, n, m);
  case COLL_reduce:
    return lookup(f->commutative ? reduce_rows : reduce_noncomm_rows, n, m);
  case COLL_allreduce:
    pick = lookup(f->commutative ? allreduce_rows : allreduce_noncomm_rows, n, m);
    return coll_algo_fits(pick, f) ? pick : COLL_ALG_allreduce_rdb;
  case COLL_alltoall:
    return coll_ompi41_alltoall(n, m);
  case COLL_alltoallv:
    pick = lookup(alltoallv_rows, n, 0);
    return coll_algo_fits(pick, f) ? pick : COLL_ALG_alltoallv_ompi_basic_linear;
  case COLL_allgather:
    return lookup(allgather_rows, n, m);
  case COLL_allgatherv:
    pick = lookup(allgatherv_rows, n, n > 0 ? f->total / (size_t)n : 0);
    return coll_algo_fits(pick, f) ? pick : COLL_ALG_allgatherv_mpich_ring;
  case COLL_gather:
    return lookup(gather_rows, n, m);
  case COLL_scatter:
    return lookup(scatter_rows, n, m);
  case COLL_reduce_scatter:
    pick = f->commutative ? lookup(reduce_scatter_rows, n, f->total) : DEF;
    return pick == DEF ? coll_select_default(f) : pick;
  case COLL_reduce_scatter_block: {
    coll_features g = *f;
    g.coll = COLL_reduce_scatter;
    switch (coll_select_ompi(&g)) {
    case COLL_ALG_reduce_scatter_ompi_basic_recursivehalving:
      return COLL_ALG_reduce_scatter_block_ompi_basic_recursivehalving;
    case COLL_ALG_reduce_scatter_ompi_ring:
      return COLL_ALG_reduce_scatter_block_ompi_ring;
    case COLL_ALG_reduce_scatter_ompi_butterfly:
      return COLL_ALG_reduce_scatter_block_ompi_butterfly;
    default:
      return COLL_ALG_reduce_scatter_block_reduce_scatter; /* reduce, then scatter */
    }
  }
  case COLL_gatherv:
  case COLL_scatterv:
  case COLL_alltoallw:
  case COLL_scan:
  case COLL_exscan:
    return coll_select_default(f);
  case COLL_COUNT:
    break;
  }
  UNREACHABLE();
}
#undef DEF
