/* Collective operations: what the algorithm files, the selectors and the dispatcher share.
 *
 * How a call flows:
 *
 *   MPI_Bcast(buf, 3, MPI_INT, 0, comm)          collectives/coll.c
 *     checks the arguments, resolves MPI_IN_PLACE into plain pointers (coll_args),
 *     computes the decision features (coll_features: communicator size, bytes, ...)
 *     algorithm = smpi/bcast if set, else the smpi/coll-selector's choice
 *     coll_bcast_binomial_tree(&ctx, &args)      collectives/bcast/bcast_binomial_tree.c
 *       coll_recv(...), coll_send(...)           collectives/coll_ops.c -> smpi/mpi/p2p.h
 *
 * Algorithms only talk to peers through the coll_* operations below, never through the
 * point-to-point API directly, and obey three rules so that the same code can later be
 * recorded as a schedule (nonblocking collectives) instead of run on the spot:
 *   1. no control flow on received data: only on the arguments, ranks and sizes;
 *   2. every data access after the start goes through coll_copy / coll_reduce /
 *      coll_pack / coll_unpack (no memcpy or arithmetic on buffers by hand);
 *   3. scratch memory comes from coll_tmp / coll_tmp_dt (freed when the call ends).
 * Each operation is posted in program order; coll_wait / coll_wait_req are the only
 * points where the caller blocks (in a schedule they become dependencies).
 *
 * All messages go to the communicator's collective context (SMPI_P2P_COLL), so they never
 * match user point-to-point traffic; the tag says which collective sent them.
 *
 * MPI_IN_PLACE is resolved before an algorithm runs: coll_args always holds real send
 * and receive pointers, with in_place set when they overlap on purpose (e.g. Allreduce:
 * sbuf == rbuf). An algorithm must therefore read sbuf before it first writes rbuf, or
 * work from a copy. Alltoall(v,w) in place gets a private copy of the data as sbuf. */
#ifndef SMPI_COLLECTIVES_COLL_PRIVATE_H
#define SMPI_COLLECTIVES_COLL_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "collectives/coll.h"
#include "collectives/coll_list.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/p2p.h"

/* ---- the collectives and their algorithms (generated from coll_list.h) ---- */

typedef enum {
#define COLL_X_ID(c, mpi, desc) COLL_##c,
  COLL_COLLECTIVES(COLL_X_ID)
#undef COLL_X_ID
      COLL_COUNT
} coll_id;

/* one global index per algorithm: COLL_ALG_bcast_binomial_tree, ... */
typedef enum {
#define COLL_X_ALG(c, a, flags, desc) COLL_ALG_##c##_##a,
  COLL_ALGORITHMS(COLL_X_ALG)
#undef COLL_X_ALG
      COLL_ALG_COUNT
} coll_alg_id;

/* What an algorithm needs of its arguments (the selectors never pick it otherwise; a
 * forced one that does not fit falls back to the selector's choice with a warning). */
enum {
  COLL_F_COMMUTATIVE = 1 << 0, /* the op must be commutative (combines out of rank order) */
  COLL_F_POW2 = 1 << 1,        /* the communicator size must be a power of two */
  COLL_F_COUNT_POW2 = 1 << 2,  /* count >= the largest power of two <= size (block split) */
  COLL_F_SMP = 1 << 3,         /* uses the host grouping: equal ranks per host, in blocks */
  COLL_F_EVEN = 1 << 4,        /* the communicator size must be even */
  COLL_F_SIZE2 = 1 << 5,       /* exactly two ranks */
  COLL_F_REGULAR = 1 << 6,     /* reduce_scatter: every block the same size */
  COLL_F_MESH2 = 1 << 7,       /* the size factors as a 2-D mesh (coll_mesh2) */
  COLL_F_MESH3 = 1 << 8,       /* the size factors as a 3-D mesh (coll_mesh3) */
  /* not a requirement: SimGrid 3.32 has an algorithm of this name with the same messages
   * (tools/simgrid-ref/record_coll.py compares their simulated times) */
  COLL_SG = 1 << 15,
};

/* The arguments of any collective, MPI_IN_PLACE resolved (see the top comment). Fields
 * that a collective does not use are zero. Counts are MPI ints (>= 0). */
typedef struct coll_args {
  const void *sbuf;
  void *rbuf;
  int scount, rcount;
  const smpi_dt *sdt, *rdt;
  MPI_Datatype sdt_h, rdt_h;    /* handles: reductions apply ops through them */
  const int *scounts, *sdispls; /* v variants (displacements in extents of sdt) */
  const int *rcounts, *rdispls;
  const int *wsdispls, *wrdispls; /* Alltoallw: byte displacements */
  const smpi_dt *const *sdts;     /* Alltoallw: one datatype per peer */
  const smpi_dt *const *rdts;
  const smpi_op *op;
  int root;
  bool in_place;
} coll_args;

/* What the selectors decide on: the same on every rank of the call, and computable without
 * a communicator (so tools/coll-doc.c can tabulate the decisions). */
typedef struct coll_features {
  coll_id coll;
  int size;         /* communicator size */
  size_t count;     /* elements: of the buffer (bcast, reductions), of one block (the rest) */
  size_t dtsize;    /* bytes of one element */
  size_t bytes;     /* count * dtsize */
  size_t total;     /* bytes moved to one rank overall: block * size, sum of the v counts */
  bool commutative; /* reductions */
  bool in_place;
  bool irregular; /* reduce_scatter: the blocks are not all the same size */
  int ppn;        /* ranks per host when they are grouped in equal blocks, else 0 */
  size_t segsize; /* out: a selector may set a segment size for the algorithm it picks
                         (Open MPI's decision does): 0 leaves the algorithm's own rule,
                         COLL_SEG_WHOLE asks for one segment */
  int inner[2];   /* out: the stages of a two-level algorithm (leaders, hosts) as
                   coll_alg_id + 1, which the mvapich2 selector sets from its tables as
                   SimGrid's does through global pointers; 0 = the algorithm's own */
} coll_features;
#define COLL_SEG_WHOLE ((size_t)-1)

/* State of one collective call on one rank. */
/* a scratch buffer of a call and its size (coll_is_tmp looks receives up in them) */
typedef struct coll_tmp_buf {
  void *p;
  size_t size; /* bytes */
} coll_tmp_buf;

typedef struct coll_ctx {
  smpi_comm *comm;
  int rank, size;
  coll_id coll;
  int err;         /* first error met (MPI_SUCCESS while none) */
  smpi_req **reqs; /* posted and not waited for yet */
  size_t nreqs, capreqs;
  coll_tmp_buf *tmps; /* scratch buffers, freed at the end of the call */
  size_t ntmps, captmps;
  int ppn;        /* ranks per host (see coll_features.ppn) */
  size_t segsize; /* segment size the selector asked for, 0 if none */
  bool fold_tmp;  /* coll_tmp_dt may hand out folded memory (coll_fold_decide) */
  bool exploring; /* the automatic selector runs its candidates: nested calls use default */
  /* A view (coll_run_group): the algorithm runs on the regular subset vbase, vbase +
   * vstride, ... of comm, rank and size being the caller's index in it and its length, and
   * the peers it names are translated; vstride 0 = the whole communicator. */
  int vbase, vstride;
  int inner[2]; /* coll_features.inner of the running algorithm */
} coll_ctx;

typedef int (*coll_fn)(coll_ctx *x, const coll_args *a);

typedef struct coll_algo {
  coll_id coll;
  const char *name;
  coll_fn fn;
  unsigned flags;
  const char *desc;
} coll_algo;

typedef struct coll_info {
  const char *name;     /* "bcast": the smpi/<name> configuration key */
  const char *mpi_name; /* "MPI_Bcast" */
  const char *desc;     /* how the selectors measure the size ("bytes" meaning) */
} coll_info;

extern const coll_algo coll_algos[COLL_ALG_COUNT];
extern const coll_info coll_infos[COLL_COUNT];

/* algorithm prototypes */
#define COLL_X_PROTO(c, a, flags, desc) int coll_##c##_##a(coll_ctx *x, const coll_args *args);
COLL_ALGORITHMS(COLL_X_PROTO)
#undef COLL_X_PROTO

/* Algorithms that several of the names above run with another parameter: */
/* Alltoallv posting `throttle` peers at a time (alltoallv_mpich_scattered.c) */
int coll_alltoallv_batches(coll_ctx *x, const coll_args *a, int throttle);
/* MPICH's recursive-doubling allgather on blocks at pos[0..n] of buf, own block in place
 * (allgatherv_mpich_rdb.c); junk: NULL, or the marks of the n blocks ("Blocks whose content
 * does not matter" below), updated as blocks arrive */
void coll_allgather_rdb_blocks(coll_ctx *x, char *buf, const size_t *pos, const smpi_dt *dt,
                               int tag, bool *junk);
/* Open MPI's linear scatter, blocking or nonblocking sends (scatter_ompi_basic_linear.c) */
int coll_scatter_ompi_linear(coll_ctx *x, const coll_args *a, bool nonblocking);
/* Scan (exclusive: Exscan) by recursive doubling (scan_rdb.c) */
int coll_scan_rdb_any(coll_ctx *x, const coll_args *a, bool exclusive);

/* ---- selectors (collectives/selector_*.c) ---- */

typedef coll_alg_id (*coll_selector_fn)(coll_features *f);
typedef struct coll_selector {
  const char *name; /* value of smpi/coll-selector */
  coll_selector_fn select;
  const char *desc;
  bool by_host; /* decides on the ranks per host: coll_features.ppn is set before it runs */
} coll_selector;

/* f->segsize is an output (see coll_features) */
coll_alg_id coll_select_default(coll_features *f);
coll_alg_id coll_select_mpich(coll_features *f);
coll_alg_id coll_select_ompi(coll_features *f);
/* SimGrid 3.32's alltoall__ompi (Open MPI 4.1's table), which its default selector runs too */
coll_alg_id coll_ompi41_alltoall(int n, size_t m);
coll_alg_id coll_select_mvapich2(coll_features *f);
/* SimGrid's Intel MPI tables (selector_impi.c); coll_impi_pick is the name a table gives
 * (an algorithm of f->coll or a selector; NULL for collectives without a table),
 * coll_impi_dump prints the tables as tests/data/simgrid-ref/impi_tables.txt has them */
coll_alg_id coll_select_impi(coll_features *f);
const char *coll_impi_pick(const coll_features *f);
void coll_impi_dump(FILE *out);
/* automatic: coll_run runs every fitting algorithm (coll.c); this is its choice where it
 * cannot explore (nested calls, tables): the default selector's */
coll_alg_id coll_select_automatic(coll_features *f);

extern const coll_selector coll_selectors[];
extern const size_t coll_nselectors;

/* Runs collective c with the algorithm smpi/<c> or the selector picks (composite
 * algorithms, e.g. allreduce = reduce + bcast, call their parts through it). */
int coll_run(coll_ctx *x, coll_id c, const coll_args *a);
/* Runs collective c with the default selector's choice, whatever is configured (SimGrid's
 * composite defaults call its default parts directly: reduce_scatter's Reduce). */
int coll_run_default(coll_ctx *x, coll_id c, const coll_args *a);
/* smpi/check-collectives: every member calls it once per collective, in program order,
 * with the resolved arguments and the MPI name ("MPI_Ibcast" for the nonblocking one);
 * a mismatch across members ends the job with a report (smpi/mpi/check.h). run_top does it
 * for the blocking collectives. */
void coll_check_args(smpi_comm *c, coll_id id, const coll_args *a, const char *call);

/* Does algorithm id accept calls with these features? (flags above) */
bool coll_algo_fits(coll_alg_id id, const coll_features *f);
/* Index of the algorithm named name for collective c, or -1. */
int coll_algo_find(coll_id c, const char *name);

/* ---- tags: one per collective, so a trace tells them apart ---- */
enum {
  COLL_TAG_BARRIER = 1,
  COLL_TAG_BCAST,
  COLL_TAG_GATHER,
  COLL_TAG_GATHERV,
  COLL_TAG_SCATTER,
  COLL_TAG_SCATTERV,
  COLL_TAG_ALLGATHER,
  COLL_TAG_ALLGATHERV,
  COLL_TAG_ALLTOALL,
  COLL_TAG_ALLTOALLV,
  COLL_TAG_ALLTOALLW,
  COLL_TAG_REDUCE,
  COLL_TAG_ALLREDUCE,
  COLL_TAG_REDUCE_SCATTER,
  COLL_TAG_SCAN,
  COLL_TAG_EXSCAN,
  /* the arrival-pattern-aware bcasts and reduce: they receive from any source, so their
   * messages must match nothing of another collective (SimGrid's match the other bcasts' or
   * reduces' and lose data when calls follow each other without a barrier) */
  COLL_TAG_BCAST_ARRIVAL,
  COLL_TAG_REDUCE_ARRIVAL,
  COLL_TAG_COUNT
};

/* ---- operations algorithms use (collectives/coll_ops.c) ---- */

/* A call's state on this rank for collective id on c; done waits for what is still posted
 * (after an error) and frees the scratch memory. */
void coll_ctx_init(coll_ctx *x, smpi_comm *c, coll_id id);
void coll_ctx_done(coll_ctx *x);

/* Nonblocking send/receive of count elements of dt; the value is a request id for
 * coll_wait_req, valid until the next coll_wait. peer may be MPI_PROC_NULL. */
int coll_isend(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, int dst, int tag);
int coll_irecv(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag);
/* Receives into a vector that is combined into acc as each message lands (arrival order:
 * acc = data op acc), so that every receive of a Reduce's root can share one scratch vector
 * (smpi_recv_sink). Only for a predefined op (commutative; it runs outside the rank's
 * code); sink lives until the call's requests are waited for. */
typedef struct coll_reduce_sink {
  smpi_recv_sink base;
  coll_ctx *x;
  const coll_args *a;
  void *acc; /* as the calling rank sees it */
  int owner; /* world rank of the caller, whose view acc is in */
  size_t count;
} coll_reduce_sink;
void coll_reduce_sink_init(coll_reduce_sink *s, coll_ctx *x, const coll_args *a, void *acc,
                           size_t count);
int coll_irecv_reduce(coll_ctx *x, void *buf, int src, int tag, const coll_reduce_sink *s);
/* Waits for one request / for every request posted since the last coll_wait. */
void coll_wait_req(coll_ctx *x, int id);
void coll_wait(coll_ctx *x);
/* Blocking send (MPI_Send's timing: pays smpi/os, detached below the threshold) and
 * receive; sendrecv = isend + irecv + waitall, as MPI_Sendrecv. */
void coll_send(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, int dst, int tag);
void coll_recv(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag);
void coll_sendrecv(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                   void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int tag);

/* ---- Blocks whose content does not matter ----
 * A block read from folded memory (SMPI_SHARED_MALLOC) holds nothing, and neither does any
 * copy of it, wherever it travels. An algorithm that forwards other ranks' blocks through
 * its scratch (Bruck's Alltoall: up to n blocks per rank, 8 MiB at 4 096 ranks of 1 KiB,
 * 32 GiB written in all) keeps a mark per block and never copies, packs or unpacks a marked
 * one. A message made only of marked blocks is sent from folded scratch (the same bytes on
 * the network, nothing moved) and arrives marked; a message with one unmarked block is
 * packed and sent as usual, and all its blocks arrive unmarked. So a mark is never set on a
 * block that could hold data, whatever mix of folded and private buffers the ranks have.
 * The messages are the same either way, so simulated times are too: the marks steer local
 * copies only (an exception to rule 1 above that a schedule could keep: no message depends
 * on it).
 * docs/emulation.md, "Collectives on folded data". */

/* Marks of n blocks of bc elements of dt at buf, in order: out[j] = block j is folded from
 * end to end; returns how many are (one lookup for the whole buffer when it is all folded
 * or all private). */
int coll_blocks_folded(const void *buf, size_t bc, const smpi_dt *dt, int n, bool *out);
/* Folded memory for count elements of dt, laid out as coll_tmp_dt lays out scratch (its
 * content meaningless, shared by every caller), to send marked blocks from (packed ones:
 * coll_byte()); NULL for no elements or when folding is unavailable (then nothing is
 * marked). */
const void *coll_folded_dt(size_t count, const smpi_dt *dt);
/* What a message of count elements of dt at src should be sent from: folded memory when
 * those elements are all marked (junk) and folding is available, else src itself. */
const void *coll_send_from(const void *src, size_t count, const smpi_dt *dt, bool junk);
/* coll_recv, and coll_sendrecv, that say whether what arrived is meaningless: true when the
 * message was sent from folded memory from end to end (rbuf was not written:
 * SMPI_STATUS_FOLDED). */
bool coll_recv_fold(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag);
bool coll_sendrecv_fold(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                        void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int tag);

/* MPI_Iprobe(src, tag) on the collective context, with its cost: has a collective message
 * from src with this tag arrived? (SimGrid probes MPI_ANY_TAG: the same in a call whose
 * messages have a tag of their own, COLL_TAG_*_ARRIVAL) Only the arrival-pattern-aware algorithms use it:
 * their control flow depends on arrival dates, against rule 1 above (they run blocking,
 * or in a nonblocking collective's helper, never as a recorded schedule). */
bool coll_iprobe(coll_ctx *x, int src, int tag);
/* This rank idles for a simulated duration (SimGrid's sleep_for in reduce
 * arrival_pattern_aware's probe loop). */
void coll_sleep(coll_ctx *x, double seconds);

/* Local data movement: typed copy (no-op when source and destination are the same
 * elements), pack to / unpack from contiguous bytes. */
void coll_copy(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, void *rbuf,
               size_t rcount, const smpi_dt *rdt);
void coll_pack(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, void *out);
void coll_unpack(coll_ctx *x, const void *in, size_t count, const smpi_dt *dt, void *buf);
/* inout[i] = in[i] op inout[i] for count elements of the reduction's datatype (rdt); in is
 * the left operand, i.e. the contribution of the lower ranks. */
void coll_reduce(coll_ctx *x, const coll_args *a, const void *in, void *inout, size_t count);

/* Scratch memory for the duration of the call: raw bytes, or room for count elements of dt
 * laid out like a user buffer (the pointer is shifted by -true_lb, as MPI buffers are).
 * coll_tmp_dt is for data only (never pointers or counts): when x->fold_tmp is set it
 * returns folded memory whose content is meaningless and shared with other calls.
 * coll_tmps_release frees the call's scratch (every ctx_done calls it). */
void *coll_tmp(coll_ctx *x, size_t bytes);
void *coll_tmp_dt(coll_ctx *x, size_t count, const smpi_dt *dt);
void coll_tmps_release(coll_ctx *x);
void coll_tmp_free(void *p); /* one scratch buffer taken over from a coll_ctx (coll_nb.c) */
/* Sets x->fold_tmp for a top-level call of collective id with arguments a, from this rank's
 * own buffers only: on a rank whose whole contribution to a Reduce, Allreduce,
 * Reduce_scatter(_block) with a predefined op is folded (SMPI_SHARED_MALLOC), every result
 * of the call, on every rank, combines that meaningless contribution, so the rank's
 * intermediate values are meaningless too; likewise at a Reduce's root whose receive
 * buffer is folded (the only result). docs/emulation.md, "Collectives on folded data". */
void coll_fold_decide(coll_ctx *x, coll_id id, const coll_args *a);

/* A root's n blocks of bc elements of dt in rank order (block i is rank i's) put in the
 * order relative to the root (block j is rank root + j's): a scratch copy, or sbuf itself
 * when the root is rank 0 (the binomial scatters). */
const char *coll_blocks_from_root(coll_ctx *x, const void *sbuf, size_t bc, const smpi_dt *dt,
                                  int n, int root);

/* The predefined MPI_BYTE, for packed data. */
const smpi_dt *coll_byte(void);

/* Byte view of a broadcast buffer (rbuf, rcount, rdt), for algorithms that cut the data
 * in pieces: ranks may describe the same data with different datatypes (same type
 * signature), so pieces are cut in bytes, at multiples of `unit` (the size of the basic
 * type, the same on every rank; 1 for mixed types). The buffer itself when contiguous,
 * else a packed copy: the root packs it, coll_bytes_done unpacks it on the others. */
typedef struct coll_bytes {
  char *buf;
  size_t nbytes, unit;
  bool packed;
} coll_bytes;
void coll_bytes_get(coll_ctx *x, const coll_args *a, coll_bytes *b);
void coll_bytes_done(coll_ctx *x, const coll_args *a, const coll_bytes *b);
/* size of dt's basic type when all its elements have one (MPI_DOUBLE for a vector of
 * doubles), else 1 */
size_t coll_dt_unit(const smpi_dt *dt);

/* ---- small helpers ---- */

/* The communicator of an MPI entry point (coll_mpi_*, whose name parameter is
 * smpi_fname_), or MPI_ERR_COMM through the handler of MPI_COMM_WORLD: what the bindings'
 * SMPI_CHECK_COMM does, for code that runs inside a binding's SMPI_ENTER..SMPI_RETURN. */
#define COLL_CHECK_COMM(comm)                                  \
  ({                                                           \
    smpi_comm *coll_c_ = smpi_comm_get(comm);                  \
    if (!coll_c_)                                              \
      return smpi_comm_error(comm, MPI_ERR_COMM, smpi_fname_); \
    coll_c_;                                                   \
  })

static inline char *coll_at(const void *buf, size_t index, const smpi_dt *dt)
{
  return (char *)buf + (ptrdiff_t)index * smpi_dt_extent(dt);
}
static inline bool coll_is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
/* largest power of two <= n (n >= 1) */
static inline int coll_pof2_floor(int n)
{
  int p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}
/* smallest power of two >= n */
static inline int coll_pof2_ceil(int n)
{
  int p = 1;
  while (p < n)
    p *= 2;
  return p;
}

/* STAR-MPI's mesh shapes (SimGrid's allgather 2dmesh/3dmesh): n = X * Y with X <= Y and X
 * the first divisor of n from floor(sqrt(n)) up to n / 2; n = X * X * Z with X the first
 * integer from floor(cbrt(n)) up to n / 3 whose square divides n. False when there is none
 * (2-D: primes above 3; 3-D: e.g. 2, 5, 7). */
bool coll_mesh2(int n, int *X, int *Y);
bool coll_mesh3(int n, int *X, int *Z);

/* Open MPI's neighbour exchange (allgather(v) ompi_neighborexchange, even sizes): step 0
 * swaps own blocks with neighbor[0]; step i >= 1 talks to neighbor[i % 2] and receives the
 * two blocks starting at from[i % 2], which moves by step[i % 2] each time. Even ranks
 * start to the right, odd ranks to the left. */
typedef struct coll_nbx {
  int neighbor[2], from[2], step[2];
} coll_nbx;
static inline void coll_nbx_init(coll_nbx *e, int me, int n)
{
  bool even = me % 2 == 0;
  e->neighbor[0] = even ? (me + 1) % n : (me - 1 + n) % n;
  e->neighbor[1] = even ? (me - 1 + n) % n : (me + 1) % n;
  e->from[0] = e->from[1] = even ? me : e->neighbor[0];
  e->step[0] = even ? 2 : -2;
  e->step[1] = even ? -2 : 2;
}

/* ---- host grouping for SMP-aware algorithms (coll.c) ----
 * node_of: index of the host group of comm rank r (hosts numbered by first appearance);
 * the leader of a group is its lowest comm rank. Valid when x->ppn > 0. */
int coll_node_of(const coll_ctx *x, int r);

/* ---- help and documentation: collectives/coll.h (coll_doc.c) ---- */

/* ---- test hook ----
 * Forces algorithm (or selector) name for collective coll on the calling rank (NULL or ""
 * goes back to the configuration), bypassing smpi/<coll>. Returns 0, or -1 for unknown
 * names.
 * Exported so that MPI test programs can loop over algorithms in one run. */
int smpi_coll_force(const char *coll, const char *name);

#endif
