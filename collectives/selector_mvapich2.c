/* The `mvapich2` selector: SimGrid 3.32's MVAPICH2 decision tables (its
 * smpi_mvapich2_selector.cpp with the Stampede tuning of smpi_mvapich2_selector_stampede.hpp:
 * Intel Xeon E5-2680, 16 cores per node, Mellanox FDR), with the stages its two-level
 * algorithms then run (SimGrid sets them in global pointers; here the choice hands them to
 * the algorithm through coll_features.inner).
 *
 * Reading a table: a row per communicator size, the first whose `np` >= n (the last row
 * for more ranks); in it, the first step whose `max` >= the message bytes b (max -1: no
 * bound). Steps next to each other that pick the same thing are merged, so a table here
 * can have fewer steps than SimGrid's. Bytes are, as SimGrid counts them: one block for
 * alltoall, allgather, gather and scatter; the whole vector for bcast, reduce and
 * allreduce; all blocks for reduce_scatter; all blocks / n for allgatherv.
 *
 * What is not a table:
 *   barrier    mvapich2_pair
 *   alltoallv  ring (ompi_basic_linear in place)
 *   gatherv, scatterv, alltoallw, reduce_scatter_block, scan, exscan: SimGrid has no
 *              mvapich2 choice for them; the default selector's
 *
 * Where SimGrid 3.32 cannot run what its table says, smpi runs something close instead:
 *   - alltoall `pair` on a size that is not a power of two (SimGrid's pair refuses it and
 *     the run ends): ring (MVAPICH2's in-place algorithm);
 *   - allgather with 16 ranks per host, 32 or more ranks, at most 1024 bytes: SimGrid's
 *     table names a function that does nothing and returns MPI_ERR_OTHER: rdb;
 *   - allreduce mvapich2_rs with a non-commutative op: rdb;
 *   - reduce_scatter with a non-commutative op on a power of two of equal blocks:
 *     SimGrid runs MPICH's noncommutative algorithm and then recursive doubling (both);
 *     smpi runs recursive doubling once;
 *   - the two-level algorithms need equal blocks of consecutive ranks per host; on other
 *     layouts smpi uses their one-level stage on the whole communicator (SimGrid builds
 *     its host communicators anyway). */
#include "collectives/coll_mv2.h"

/* pseudo-algorithms of the tables, resolved when the row is known */
enum {
  MV2_MPICH = COLL_ALG_COUNT + 1, /* bcast__mpich on the leaders (Pipelined, Zcpy) */
  MV2_2LD,                        /* scatter/gather two-level direct */
  MV2_2LB,                        /* scatter two-level binomial */
  MV2_SHM,                        /* reduce in a host: Open MPI's basic linear ("shmem") */
  MV2_KN,                         /* reduce: 4-nomial */
  MV2_BIN,                        /* reduce: binomial */
  MV2_RSG,                        /* reduce: Rabenseifner (scatter_gather) */
  MV2_RD,                         /* allreduce recursive doubling / allgatherv rec. doubling */
  MV2_RS,                         /* allreduce mvapich2_rs */
  MV2_P2P,                        /* allreduce: a reduce to rank 0 only */
  MV2_RDCOMM,                     /* allgather: SimGrid's do-nothing function */
};

typedef struct mv2_step {
  long max; /* bytes, -1: no bound */
  int alg;  /* coll_alg_id or MV2_* */
  bool two; /* two-level (bcast, reduce, allreduce, allgather) */
} mv2_step;

#define MV2_STEPS 8
typedef struct mv2_row {
  int np;
  mv2_step s[MV2_STEPS];  /* ends at max -1 */
  mv2_step in[MV2_STEPS]; /* the stage in each host, where the table has one */
} mv2_row;

#define S(m, a)            \
  {                        \
    .max = (m), .alg = (a) \
  }
#define T(m, a)                         \
  {                                     \
    .max = (m), .alg = (a), .two = true \
  }

static const mv2_row *row_of(const mv2_row *t, size_t nrows, int n)
{
  size_t r = 0;
  while (r + 1 < nrows && n > t[r].np)
    r++;
  return &t[r];
}

static const mv2_step *step_of(const mv2_step *s, long bytes)
{
  int i = 0;
  while (s[i].max != -1 && bytes > s[i].max)
    i++;
  return &s[i];
}

static int inner(coll_alg_id id) { return (int)id + 1; }

#define NROWS(t) (sizeof t / sizeof t[0])
#define A(c, a) COLL_ALG_##c##_##a

/* ---- alltoall (SimGrid uses its 1-ppn table whatever the layout) ---- */
static const mv2_row alltoall_rows[] = {
    {.np = 2, .s = {S(-1, A(alltoall, pair))}},
    {.np = 4, .s = {S(262144, A(alltoall, mvapich2_scatter_dest)), S(-1, A(alltoall, pair))}},
    {.np = 8, .s = {S(8, A(alltoall, rdb)), S(-1, A(alltoall, mvapich2_scatter_dest))}},
    {.np = 16,
     .s = {S(64, A(alltoall, rdb)), S(512, A(alltoall, bruck)),
           S(-1, A(alltoall, mvapich2_scatter_dest))}},
    {.np = 32,
     .s = {S(32, A(alltoall, rdb)), S(2048, A(alltoall, bruck)),
           S(-1, A(alltoall, mvapich2_scatter_dest))}},
    {.np = 64,
     .s = {S(8, A(alltoall, rdb)), S(1024, A(alltoall, bruck)),
           S(-1, A(alltoall, mvapich2_scatter_dest))}},
};

/* ---- allgather: one table per ranks-per-host configuration (1, 2, 16) ---- */
#define AG_RD A(allgather, rdb)
#define AG_RING A(allgather, ring)
static const mv2_row allgather_1ppn[] = {
    {.np = 2, .s = {S(-1, AG_RING)}},
    {.np = 4, .s = {S(262144, AG_RD), S(-1, AG_RING)}},
    {.np = 8, .s = {S(131072, AG_RD), S(-1, AG_RING)}},
    {.np = 16, .s = {S(131072, AG_RD), S(-1, AG_RING)}},
    {.np = 32, .s = {S(65536, AG_RD), S(-1, AG_RING)}},
    {.np = 64, .s = {S(32768, AG_RD), S(-1, AG_RING)}},
};
/* (SimGrid's rows for 8 ranks and more list three steps but declare two: the third is
 * never reached) */
static const mv2_row allgather_2ppn[] = {
    {.np = 4, .s = {S(524288, AG_RD), S(-1, AG_RING)}},
    {.np = 8, .s = {S(32768, AG_RD), T(-1, AG_RING)}},
    {.np = 16, .s = {S(16384, AG_RD), T(-1, AG_RING)}},
    {.np = 32, .s = {T(65536, AG_RD), T(-1, AG_RING)}},
    {.np = 64, .s = {T(32768, AG_RD), T(-1, AG_RING)}},
    {.np = 128, .s = {T(65536, AG_RD), T(-1, AG_RING)}},
};
static const mv2_row allgather_16ppn[] = {
    {.np = 16, .s = {S(1024, AG_RD), S(-1, AG_RING)}},
    {.np = 32, .s = {S(1024, MV2_RDCOMM), S(-1, AG_RING)}},
    {.np = 512, .s = {S(1024, MV2_RDCOMM), S(-1, AG_RING)}},
};

/* ---- gather ---- */
#define G_D A(gather, ompi_basic_linear)
#define G_I A(gather, ompi_binomial)
static const mv2_row gather_rows[] = {
    {.np = 16, .s = {S(524288, G_D), S(-1, G_I)}},
    {.np = 32, .s = {S(16384, G_D), S(131072, G_I), S(-1, MV2_2LD)}},
    {.np = 64, .s = {S(256, MV2_2LD), S(16384, G_D), S(-1, MV2_2LD)}},
    {.np = 128, .s = {S(512, MV2_2LD), S(16384, G_D), S(-1, MV2_2LD)}},
    {.np = 1024, .s = {S(512, MV2_2LD), S(16384, G_D), S(-1, MV2_2LD)}},
};

/* ---- allgatherv (max: bytes per rank) ---- */
static const mv2_row allgatherv_rows[] = {
    {.np = 32, .s = {S(512, MV2_RD), S(-1, A(allgatherv, mpich_ring))}},
    {.np = 512, .s = {S(256, MV2_RD), S(-1, A(allgatherv, mpich_ring))}},
};

/* ---- bcast: leaders' stage (every step two-level but one; the stage in hosts is always
 * bcast__mpich on the host) ---- */
#define B_LR A(bcast, scatter_LR_allgather)
static const mv2_row bcast_rows[] = {
    {.np = 16,
     .s = {T(8192, MV2_MPICH), T(16384, A(bcast, binomial_tree)), T(65536, MV2_MPICH),
           T(262144, B_LR), T(524288, A(bcast, scatter_rdb_allgather)), T(-1, B_LR)}},
    {.np = 64, .s = {T(-1, MV2_MPICH)}},
    {.np = 128, .s = {T(524288, MV2_MPICH), S(-1, B_LR)}},
    {.np = 256, .s = {T(131072, MV2_MPICH), T(262144, B_LR), T(524288, MV2_MPICH), T(-1, B_LR)}},
    {.np = 512, .s = {T(262144, MV2_MPICH), T(-1, B_LR)}},
    {.np = 2048, .s = {T(524288, MV2_MPICH), T(-1, B_LR)}},
};

/* ---- reduce ---- */
static const mv2_row reduce_rows[] = {
    {.np = 16,
     .s = {T(262144, MV2_KN), S(1048576, MV2_BIN), S(-1, MV2_RSG)},
     .in = {S(65536, MV2_SHM), S(-1, MV2_BIN)}},
    {.np = 32,
     .s = {T(32768, MV2_KN), T(65536, MV2_BIN), S(262144, MV2_KN), S(1048576, MV2_BIN),
           S(-1, MV2_RSG)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(262144, MV2_SHM), S(-1, MV2_BIN)}},
    {.np = 64,
     .s = {T(16384, MV2_KN), T(65536, MV2_BIN), T(262144, MV2_KN), S(-1, MV2_RSG)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(65536, MV2_SHM), S(262144, MV2_KN),
            S(-1, MV2_BIN)}},
    {.np = 128,
     .s = {T(8192, MV2_KN), S(16384, MV2_KN), T(65536, MV2_BIN), S(262144, MV2_KN),
           T(1048576, MV2_BIN), S(-1, MV2_RSG)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(65536, MV2_SHM), S(262144, MV2_KN),
            S(-1, MV2_BIN)}},
    {.np = 256,
     .s = {T(16384, MV2_KN), T(32768, MV2_BIN), S(65536, MV2_BIN), T(1048576, MV2_BIN),
           S(-1, MV2_RSG)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(65536, MV2_SHM), S(262144, MV2_KN),
            S(-1, MV2_BIN)}},
    {.np = 512,
     .s = {T(8192, MV2_KN), S(16384, MV2_KN), T(1048576, MV2_BIN), S(-1, MV2_RSG)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(65536, MV2_SHM), S(262144, MV2_KN),
            S(-1, MV2_BIN)}},
    {.np = 1024,
     .s = {T(8192, MV2_KN), S(16384, MV2_KN), T(-1, MV2_BIN)},
     .in = {S(8192, MV2_SHM), S(16384, MV2_KN), S(65536, MV2_SHM), S(262144, MV2_KN),
            S(-1, MV2_BIN)}},
    {.np = 2048,
     .s = {T(2048, MV2_KN), S(4096, MV2_KN), T(-1, MV2_BIN)},
     .in = {S(16384, MV2_SHM), S(65536, MV2_KN), S(131072, MV2_BIN), S(-1, MV2_SHM)}},
};

/* ---- allreduce: leaders' stage (in hosts: the Reduce the selector picks, always) ---- */
static const mv2_row allreduce_rows[] = {
    {.np = 16, .s = {T(1024, MV2_RD), S(-1, MV2_RS)}},
    {.np = 512, .s = {T(16384, MV2_RD), S(-1, MV2_RS)}},
    {.np = 1024, .s = {T(8192, MV2_RD), T(65536, MV2_RS), S(-1, MV2_RS)}},
    /* 512 .. 4096 bytes: a multicast entry SimGrid replaces by recursive doubling */
    {.np = 2048, .s = {T(64, MV2_RD), T(512, MV2_P2P), T(4096, MV2_RD), S(-1, MV2_RS)}},
};

/* ---- reduce_scatter, commutative ops (bytes: the whole vector) ---- */
#define RS_BASIC (-2) /* SimGrid's default reduce_scatter */
#define RS_RH A(reduce_scatter, ompi_basic_recursivehalving)
#define RS_PAIR A(reduce_scatter, mpich_pair)
static const mv2_row reduce_scatter_rows[] = {
    {.np = 16, .s = {S(64, RS_BASIC), S(65536, RS_RH), S(-1, RS_PAIR)}},
    {.np = 32, .s = {S(64, RS_BASIC), S(131072, RS_RH), S(-1, RS_PAIR)}},
    {.np = 64, .s = {S(1024, RS_BASIC), S(262144, RS_RH), S(-1, RS_PAIR)}},
    {.np = 256, .s = {S(128, RS_BASIC), S(-1, RS_RH)}},
    {.np = 512, .s = {S(256, RS_BASIC), S(-1, RS_RH)}},
};

/* ---- scatter: one table per ranks-per-host configuration (1, 2, 16), with the stage in
 * hosts of the two-level ones ---- */
#define S_BIN A(scatter, ompi_binomial)
#define S_D A(scatter, ompi_basic_linear)
static const mv2_row scatter_1ppn[] = {
    {.np = 2, .s = {S(-1, S_BIN)}},
    {.np = 32, .s = {S(-1, S_D)}},
    {.np = 64, .s = {S(32, S_BIN), S(-1, S_D)}},
};
static const mv2_row scatter_2ppn[] = {
    {.np = 4, .s = {S(4096, S_BIN), S(-1, S_D)}},
    {.np = 8, .s = {S(512, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_BIN)}},
    {.np = 32, .s = {S(2048, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_BIN)}},
    {.np = 64, .s = {S(8192, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_BIN)}},
    {.np = 128,
     .s = {S(16, S_BIN), S(128, MV2_2LB), S(16384, MV2_2LD), S(-1, S_D)},
     .in = {S(-1, S_D)}},
};
/* (a first multicast step, where SimGrid takes the next step's choice, is merged into it) */
static const mv2_row scatter_16ppn[] = {
    {.np = 16, .s = {S(256, S_BIN), S(-1, S_D)}, .in = {S(-1, S_D)}},
    {.np = 32, .s = {S(512, S_BIN), S(-1, S_D)}, .in = {S(-1, S_D)}},
    {.np = 64, .s = {S(1024, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_D)}},
    {.np = 256, .s = {S(2048, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_D)}},
    {.np = 512, .s = {S(4096, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_BIN)}},
    {.np = 1024, .s = {S(32, S_BIN), S(4096, MV2_2LD), S(-1, S_D)}, .in = {S(-1, S_BIN)}},
    {.np = 2048,
     .s = {S(128, MV2_2LB), S(16384, MV2_2LD), S(65536, S_D), S(-1, MV2_2LD)},
     .in = {S(1024, S_BIN), S(-1, S_D)}},
};

static coll_alg_id bcast_choice(coll_features *f)
{
  const mv2_row *r = row_of(bcast_rows, NROWS(bcast_rows), f->size);
  const mv2_step *s = step_of(r->s, (long)f->bytes);
  if (!s->two || f->ppn <= 0) {
    /* one level: the function on the whole communicator (bcast__mpich there is
     * SMP_binomial on equal hosts) */
    if (s->alg != MV2_MPICH)
      return (coll_alg_id)s->alg;
    return f->ppn > 0 ? COLL_ALG_bcast_SMP_binomial : coll_mv2_mpich_bcast(f->bytes, f->size);
  }
  int leaders = f->size / f->ppn;
  coll_alg_id lead = s->alg == MV2_MPICH ? coll_mv2_mpich_bcast(f->bytes, leaders)
                                         : (coll_alg_id)s->alg;
  f->inner[0] = inner(lead);
  f->inner[1] = inner(coll_mv2_mpich_bcast(f->bytes, f->ppn));
  return COLL_ALG_bcast_mvapich2_inter_node;
}

static coll_alg_id reduce_fn(int alg, const coll_features *f)
{
  switch (alg) {
  case MV2_SHM:
    return COLL_ALG_reduce_ompi_basic_linear;
  case MV2_KN:
    return f->commutative ? COLL_ALG_reduce_mvapich2_knomial : COLL_ALG_reduce_binomial;
  case MV2_RSG:
    return f->commutative && f->count >= (size_t)coll_pof2_floor(f->size)
               ? COLL_ALG_reduce_scatter_gather
               : COLL_ALG_reduce_binomial;
  default:
    return COLL_ALG_reduce_binomial;
  }
}

static coll_alg_id reduce_choice(coll_features *f)
{
  const mv2_row *r = row_of(reduce_rows, NROWS(reduce_rows), f->size);
  const mv2_step *s = step_of(r->s, (long)f->bytes);
  if (s->two) {
    if (!f->commutative)
      return COLL_ALG_reduce_binomial;
    if (f->ppn > 0) {
      /* the stages: leaders' (4-nomial or binomial), hosts' (basic linear -- which the
       * algorithm replaces by the 4-nomial tree above 128 KiB per rank --, 4-nomial or
       * binomial) */
      f->inner[0] = inner(reduce_fn(s->alg, f));
      f->inner[1] = inner(reduce_fn(step_of(r->in, (long)f->bytes)->alg, f));
      return COLL_ALG_reduce_mvapich2_two_level;
    }
  }
  return reduce_fn(s->alg, f);
}

static coll_alg_id allreduce_choice(coll_features *f)
{
  const mv2_row *r = row_of(allreduce_rows, NROWS(allreduce_rows), f->size);
  const mv2_step *s = step_of(r->s, (long)f->bytes);
  if (s->two) {
    if (!f->commutative)
      return COLL_ALG_allreduce_rdb;
    if (f->ppn > 0) {
      /* leaders: recursive doubling, or mvapich2_rs for anything else */
      f->inner[0] = inner(s->alg == MV2_RD ? COLL_ALG_allreduce_rdb
                                           : COLL_ALG_allreduce_mvapich2_rs);
      return COLL_ALG_allreduce_mvapich2_two_level;
    }
  }
  if (s->alg == MV2_RS && f->commutative)
    return COLL_ALG_allreduce_mvapich2_rs;
  return COLL_ALG_allreduce_rdb;
}

static coll_alg_id allgather_choice(coll_features *f)
{
  const mv2_row *t = allgather_1ppn;
  size_t nt = NROWS(allgather_1ppn);
  bool matched = f->ppn == 1 || f->ppn == 2 || f->ppn == 16;
  if (f->ppn == 2)
    t = allgather_2ppn, nt = NROWS(allgather_2ppn);
  else if (f->ppn == 16)
    t = allgather_16ppn, nt = NROWS(allgather_16ppn);
  const mv2_step *s = step_of(row_of(t, nt, f->size)->s, (long)f->bytes);
  if (s->two)
    return matched ? COLL_ALG_allgather_mvapich2_smp : AG_RD;
  return s->alg == MV2_RDCOMM ? AG_RD : (coll_alg_id)s->alg;
}

static coll_alg_id scatter_choice(coll_features *f)
{
  const mv2_row *t = scatter_1ppn;
  size_t nt = NROWS(scatter_1ppn);
  if (f->ppn == 2)
    t = scatter_2ppn, nt = NROWS(scatter_2ppn);
  else if (f->ppn == 16)
    t = scatter_16ppn, nt = NROWS(scatter_16ppn);
  const mv2_row *r = row_of(t, nt, f->size);
  const mv2_step *s = step_of(r->s, (long)f->bytes);
  if (s->alg != MV2_2LD && s->alg != MV2_2LB)
    return (coll_alg_id)s->alg;
  if (f->ppn <= 0)
    return S_BIN;
  f->inner[1] = inner((coll_alg_id)step_of(r->in, (long)f->bytes)->alg);
  return s->alg == MV2_2LD ? COLL_ALG_scatter_mvapich2_two_level_direct
                           : COLL_ALG_scatter_mvapich2_two_level_binomial;
}

coll_alg_id coll_select_mvapich2(coll_features *f)
{
  int n = f->size;
  switch (f->coll) {
  case COLL_barrier:
    return COLL_ALG_barrier_mvapich2_pair;
  case COLL_bcast:
    return bcast_choice(f);
  case COLL_gather: {
    int alg = step_of(row_of(gather_rows, NROWS(gather_rows), n)->s, (long)f->bytes)->alg;
    if (f->ppn <= 0) /* not in host blocks: gather__mpich */
      return G_I;
    return alg == MV2_2LD ? COLL_ALG_gather_mvapich2_two_level : (coll_alg_id)alg;
  }
  case COLL_scatter:
    return scatter_choice(f);
  case COLL_allgather:
    return allgather_choice(f);
  case COLL_allgatherv: {
    const mv2_step *s = row_of(allgatherv_rows, NROWS(allgatherv_rows), n)->s;
    while (s->max != -1 && f->total > (size_t)n * (size_t)s->max)
      s++;
    if (s->alg != MV2_RD)
      return (coll_alg_id)s->alg;
    return coll_is_pow2(n) ? A(allgatherv, mpich_rdb) : A(allgatherv, ompi_bruck);
  }
  case COLL_alltoall: {
    coll_alg_id a = (coll_alg_id)step_of(row_of(alltoall_rows, NROWS(alltoall_rows), n)->s,
                                         (long)f->bytes)
                        ->alg;
    return a == A(alltoall, pair) && !coll_is_pow2(n) ? A(alltoall, ring) : a;
  }
  case COLL_alltoallv:
    return f->in_place ? A(alltoallv, ompi_basic_linear) : A(alltoallv, ring);
  case COLL_reduce:
    return reduce_choice(f);
  case COLL_allreduce:
    return allreduce_choice(f);
  case COLL_reduce_scatter: {
    if (!f->commutative)
      return A(reduce_scatter, mpich_rdb);
    int alg = step_of(row_of(reduce_scatter_rows, NROWS(reduce_scatter_rows), n)->s,
                      (long)f->total)
                  ->alg;
    return alg == RS_BASIC ? coll_select_default(f) : (coll_alg_id)alg;
  }
  default:
    return coll_select_default(f);
  }
}
