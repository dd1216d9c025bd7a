/* The operations collective algorithms are written with (see coll_private.h): point-to-point
 * messages on the communicator's collective context, local copies and reductions, scratch
 * memory. Executed on the spot; every request stays in x->reqs until waited for. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "collectives/coll_private.h"
#include "smpi/emulation/burst.h"
#include "smpi/emulation/privatize.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/runtime/copies.h"
#include "src/invariant.h"
#include "src/mem.h"

static void note_error(coll_ctx *x, int rc)
{
  if (rc == MPI_SUCCESS || x->err != MPI_SUCCESS)
    return;
  /* several requests: the only error a collective's receive can meet is a truncation */
  x->err = rc == MPI_ERR_IN_STATUS ? MPI_ERR_TRUNCATE : rc;
}

static int push_req(coll_ctx *x, smpi_req *r)
{
  XGROW(x->reqs, x->capreqs, x->nreqs + 1);
  x->reqs[x->nreqs] = r;
  return (int)x->nreqs++;
}

/* a peer named in the view's numbering (coll_ctx.vstride) as a rank of the communicator */
static int peer(const coll_ctx *x, int r)
{
  return x->vstride && r >= 0 ? x->vbase + r * x->vstride : r;
}

int coll_isend(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, int dst, int tag)
{
  return push_req(x, smpi_p2p_isend(buf, count, dt, peer(x, dst), tag, x->comm, SMPI_P2P_COLL));
}

/* buf is in this call's scratch: with smpi/display-timing, the first touches a receive makes
 * there are ours, not the program's (smpi/runtime/copies.h). Newest first: an algorithm
 * receives into the buffer it has just taken. */
static bool coll_is_tmp(const coll_ctx *x, const void *buf)
{
  uintptr_t p = (uintptr_t)buf;
  for (size_t i = x->ntmps; i-- > 0;)
    if (p >= (uintptr_t)x->tmps[i].p && p - (uintptr_t)x->tmps[i].p < x->tmps[i].size)
      return true;
  return false;
}

static unsigned recv_flags(const coll_ctx *x, const void *buf)
{
  return SMPI_P2P_COLL | (smpi_copies.watch && coll_is_tmp(x, buf) ? SMPI_P2P_SCRATCH : 0);
}

/* a local copy or unpack into buf: the program's first touches, as a received payload's */
static void local_first_touch(const coll_ctx *x, void *buf, size_t count, const smpi_dt *dt)
{
  if (smpi_copies.watch && !coll_is_tmp(x, buf))
    smpi_dt_first_touch(buf, dt, count * smpi_dt_size(dt));
}

int coll_irecv(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag)
{
  return push_req(x,
                  smpi_p2p_irecv(buf, count, dt, peer(x, src), tag, x->comm, recv_flags(x, buf)));
}

static void reduce_sink_fn(const smpi_recv_sink *base, void *buf, size_t bytes)
{
  const coll_reduce_sink *s = container_of(base, coll_reduce_sink, base);
  (void)bytes; /* a shorter message combines what the vector holds, as a scratch one would */
  void *acc = smpi_privatize_translate(s->owner, s->acc);
  ASSERT(s->count <= (size_t)INT_MAX);
  note_error(s->x, smpi_op_apply(s->a->op, buf, acc, (int)s->count, s->a->rdt_h));
}

void coll_reduce_sink_init(coll_reduce_sink *s, coll_ctx *x, const coll_args *a, void *acc,
                           size_t count)
{
  ASSERT(a->op && smpi_op_is_predefined(a->op));
  s->base.fn = reduce_sink_fn;
  s->x = x;
  s->a = a;
  s->acc = acc;
  s->owner = smpi_comm_world_rank(x->comm, x->rank);
  s->count = count;
}

int coll_irecv_reduce(coll_ctx *x, void *buf, int src, int tag, const coll_reduce_sink *s)
{
  return push_req(x, smpi_p2p_irecv_sink(buf, s->count, s->a->rdt, peer(x, src), tag, x->comm,
                                         recv_flags(x, buf), &s->base));
}

void coll_wait_req(coll_ctx *x, int id)
{
  ASSERTF(id >= 0 && (size_t)id < x->nreqs, "request id %d of %zu", id, x->nreqs);
  if (x->reqs[id])
    note_error(x, smpi_p2p_wait(&x->reqs[id], MPI_STATUS_IGNORE));
}

void coll_wait(coll_ctx *x)
{
  if (x->nreqs)
    note_error(x, smpi_p2p_waitall(x->nreqs, x->reqs, MPI_STATUSES_IGNORE));
  x->nreqs = 0;
}

void coll_send(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, int dst, int tag)
{
  note_error(x, smpi_p2p_send(buf, count, dt, peer(x, dst), tag, x->comm,
                              SMPI_P2P_COLL | SMPI_P2P_BLOCKING));
}

void coll_sleep(coll_ctx *x, double seconds)
{
  (void)x;
  smpi_sleep_now(seconds);
}

bool coll_iprobe(coll_ctx *x, int src, int tag)
{
  return smpi_p2p_iprobe(x->comm, src, tag, SMPI_P2P_COLL);
}

/* what arrived was sent from folded memory from end to end (request.c's payload_folded) */
static bool arrived_folded(const MPI_Status *st)
{
  return (st->smpi_cancelled & SMPI_STATUS_FOLDED) != 0;
}

bool coll_recv_fold(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag)
{
  MPI_Status st = {.MPI_ERROR = MPI_SUCCESS};
  note_error(x,
             smpi_p2p_recv(buf, count, dt, peer(x, src), tag, x->comm, recv_flags(x, buf), &st));
  return arrived_folded(&st);
}

void coll_recv(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt, int src, int tag)
{
  (void)coll_recv_fold(x, buf, count, dt, src, tag);
}

bool coll_sendrecv_fold(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                        void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int tag)
{
  MPI_Status st = {.MPI_ERROR = MPI_SUCCESS};
  note_error(x, smpi_p2p_sendrecv(sbuf, scount, sdt, peer(x, dst), tag, rbuf, rcount, rdt,
                                  peer(x, src), tag, x->comm, recv_flags(x, rbuf), &st));
  return arrived_folded(&st);
}

void coll_sendrecv(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                   void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int tag)
{
  (void)coll_sendrecv_fold(x, sbuf, scount, sdt, dst, rbuf, rcount, rdt, src, tag);
}

int coll_blocks_folded(const void *buf, size_t bc, const smpi_dt *dt, int n, bool *out)
{
  size_t count = bc * (size_t)(n > 0 ? n : 0);
  bool some = smpi_dt_touches_folded(buf, count, dt);
  if (some && smpi_dt_all_folded(buf, count, dt)) {
    memset(out, 1, sizeof(bool) * (size_t)n);
    return n;
  }
  int folded = 0;
  for (int j = 0; j < n; j++) {
    out[j] = some && smpi_dt_all_folded(coll_at(buf, (size_t)j * bc, dt), bc, dt);
    folded += out[j];
  }
  return folded;
}

/* the bytes count elements touch: true_extent + (count - 1) * extent */
static size_t dt_span(size_t count, const smpi_dt *dt)
{
  MPI_Aint ext = smpi_dt_extent(dt), text = smpi_dt_true_extent(dt);
  MPI_Aint span = text + (MPI_Aint)(count - 1) * (ext > 0 ? ext : -ext);
  return (size_t)(span > 0 ? span : 1);
}

/* p (room for count elements of dt) as a buffer pointer: shifted by -true_lb, and a negative
 * extent walks downwards from the first element */
static char *dt_base(char *p, size_t count, const smpi_dt *dt)
{
  MPI_Aint ext = smpi_dt_extent(dt);
  if (ext < 0)
    p += (MPI_Aint)(count - 1) * -ext;
  return p - smpi_dt_true_lb(dt);
}

const void *coll_folded_dt(size_t count, const smpi_dt *dt)
{
  if (count == 0)
    return NULL;
  char *p = smpi_shared_scratch(dt_span(count, dt));
  return p ? dt_base(p, count, dt) : NULL;
}

const void *coll_send_from(const void *src, size_t count, const smpi_dt *dt, bool junk)
{
  const void *f = junk ? coll_folded_dt(count, dt) : NULL;
  return f ? f : src;
}

void coll_copy(coll_ctx *x, const void *sbuf, size_t scount, const smpi_dt *sdt, void *rbuf,
               size_t rcount, const smpi_dt *rdt)
{
  (void)x;
  if (sbuf == rbuf && sdt == rdt && scount == rcount)
    return; /* MPI_IN_PLACE: the data already is where it belongs */
  size_t sbytes = scount * smpi_dt_size(sdt), rbytes = rcount * smpi_dt_size(rdt);
  if (sbytes > rbytes)
    note_error(x, MPI_ERR_TRUNCATE);
  if (sbytes && rbytes) {
    local_first_touch(x, rbuf, sbytes < rbytes ? sbytes / smpi_dt_size(rdt) : rcount, rdt);
    smpi_dt_copy(sbuf, scount, sdt, rbuf, rcount, rdt);
  }
}

void coll_pack(coll_ctx *x, const void *buf, size_t count, const smpi_dt *dt, void *out)
{
  (void)x;
  if (count && smpi_dt_size(dt))
    smpi_dt_pack(buf, count, dt, out);
}

void coll_unpack(coll_ctx *x, const void *in, size_t count, const smpi_dt *dt, void *buf)
{
  size_t bytes = count * smpi_dt_size(dt);
  if (bytes) {
    local_first_touch(x, buf, count, dt);
    smpi_dt_unpack(in, bytes, buf, count, dt);
  }
}

void coll_reduce(coll_ctx *x, const coll_args *a, const void *in, void *inout, size_t count)
{
  if (count == 0)
    return;
  ASSERT(count <= (size_t)INT_MAX);
  note_error(x, smpi_op_apply(a->op, in, inout, (int)count, a->rdt_h));
}

void coll_ctx_init(coll_ctx *x, smpi_comm *c, coll_id id)
{
  memset(x, 0, sizeof *x);
  x->comm = c;
  x->rank = smpi_comm_rank(c);
  x->size = smpi_comm_size(c);
  x->coll = id;
  x->err = MPI_SUCCESS;
}

void coll_ctx_done(coll_ctx *x)
{
  if (x->nreqs)
    coll_wait(x);
  coll_tmps_release(x);
  free(x->reqs);
}

const char *coll_blocks_from_root(coll_ctx *x, const void *sbuf, size_t bc, const smpi_dt *dt,
                                  int n, int root)
{
  if (root == 0)
    return sbuf;
  char *tmp = coll_tmp_dt(x, bc * (size_t)n, dt);
  size_t tail = (size_t)(n - root);
  coll_copy(x, coll_at(sbuf, (size_t)root * bc, dt), tail * bc, dt, tmp, tail * bc, dt);
  coll_copy(x, sbuf, (size_t)root * bc, dt, coll_at(tmp, tail * bc, dt), (size_t)root * bc, dt);
  return tmp;
}

/* Large scratch (>= 32 MiB: the root's vectors of a Reduce of large messages) comes from a
 * pool of mappings kept across calls, so that the next call finds its pages faulted in: the
 * heap does that below glibc's mmap threshold (32 MiB here, launch.c's tune_heap), not above,
 * where every call mapped, faulted in and unmapped its scratch again. A released block stays
 * mapped while the pool holds at most POOL_BUDGET bytes, and is unmapped beyond. Ordinary
 * pages: transparent huge pages cut the faults 16-fold but cleared memory the VM had never
 * backed (clear_page 48 % of a 256-rank Allreduce, sys time 0.38-0.54 -> 0.62-0.93 s). */
#define POOL_MIN ((size_t)32 << 20)
#define POOL_ALIGN ((size_t)64 << 10) /* sizes rounded up to it, so that close ones share */
#define POOL_BUDGET ((size_t)1 << 30)
#define POOL_SLOTS 32

static struct coll_pool {
  struct {
    char *p;     /* a mapping */
    size_t size; /* bytes, a multiple of POOL_ALIGN */
    bool busy;   /* handed out to a call's scratch */
  } block[POOL_SLOTS];
  size_t n;      /* blocks mapped */
  size_t mapped; /* bytes mapped, busy or not */
} pool;

static void *pool_take(size_t bytes)
{
  size_t size = (bytes + POOL_ALIGN - 1) & ~(POOL_ALIGN - 1), best = pool.n;
  for (size_t i = 0; i < pool.n; i++)
    if (!pool.block[i].busy && pool.block[i].size >= size &&
        (best == pool.n || pool.block[i].size < pool.block[best].size))
      best = i;
  if (best == pool.n) {
    if (pool.n == POOL_SLOTS)
      return NULL;
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return NULL;
    pool.block[best].p = p;
    pool.block[best].size = size;
    pool.n++;
    pool.mapped += size;
  }
  pool.block[best].busy = true;
  return pool.block[best].p;
}

/* p back to the pool; false: p is not a pool block */
static bool pool_give(void *p)
{
  for (size_t i = 0; i < pool.n; i++) {
    if (pool.block[i].p != p)
      continue;
    ASSERT(pool.block[i].busy);
    pool.block[i].busy = false;
    if (pool.mapped > POOL_BUDGET) {
      munmap(p, pool.block[i].size);
      pool.mapped -= pool.block[i].size;
      pool.block[i] = pool.block[--pool.n];
    }
    return true;
  }
  return false;
}

void coll_tmp_free(void *p)
{
  if (p && !pool_give(p))
    free(p);
}

void *coll_tmp(coll_ctx *x, size_t bytes)
{
  XGROW(x->tmps, x->captmps, x->ntmps + 1);
  void *p = bytes >= POOL_MIN ? pool_take(bytes) : NULL;
  if (!p)
    p = xmalloc(bytes ? bytes : 1);
  x->tmps[x->ntmps++] = (coll_tmp_buf){p, bytes};
  return p;
}

void coll_tmps_release(coll_ctx *x)
{
  for (size_t i = 0; i < x->ntmps; i++)
    coll_tmp_free(x->tmps[i].p);
  free(x->tmps);
  x->tmps = NULL;
  x->ntmps = x->captmps = 0;
}

void coll_fold_decide(coll_ctx *x, coll_id id, const coll_args *a)
{
  x->fold_tmp = false;
  if (id != COLL_reduce && id != COLL_allreduce && id != COLL_reduce_scatter &&
      id != COLL_reduce_scatter_block)
    return;
  /* user ops are the user's code: they see the data as it would be without folding */
  if (!a->op || !smpi_op_is_predefined(a->op))
    return;
  x->fold_tmp = smpi_dt_all_folded(a->sbuf, (size_t)a->scount, a->sdt) ||
                (id == COLL_reduce && x->rank == a->root &&
                 smpi_dt_all_folded(a->rbuf, (size_t)a->rcount, a->rdt));
}

void *coll_tmp_dt(coll_ctx *x, size_t count, const smpi_dt *dt)
{
  if (count == 0)
    return coll_tmp(x, 0);
  size_t span = dt_span(count, dt);
  char *p = x->fold_tmp ? smpi_shared_scratch(span) : NULL;
  if (!p)
    p = coll_tmp(x, span);
  return dt_base(p, count, dt);
}

const smpi_dt *coll_byte(void)
{
  static const smpi_dt *byte;
  if (!byte)
    byte = smpi_dt_get(MPI_BYTE);
  ASSERT(byte);
  return byte;
}

size_t coll_dt_unit(const smpi_dt *dt)
{
  MPI_Datatype basic = smpi_dt_basic_type(dt);
  const smpi_dt *b = basic == MPI_DATATYPE_NULL ? NULL : smpi_dt_get(basic);
  size_t u = b ? smpi_dt_size(b) : 1;
  return u ? u : 1;
}

void coll_bytes_get(coll_ctx *x, const coll_args *a, coll_bytes *b)
{
  size_t count = (size_t)a->rcount;
  b->nbytes = count * smpi_dt_size(a->rdt);
  b->unit = coll_dt_unit(a->rdt);
  b->packed = !smpi_dt_is_contiguous(a->rdt);
  if (!b->packed) {
    b->buf = (char *)a->rbuf + smpi_dt_true_lb(a->rdt);
    return;
  }
  b->buf = coll_tmp(x, b->nbytes);
  if (x->rank == a->root)
    coll_pack(x, a->rbuf, count, a->rdt, b->buf);
}

void coll_bytes_done(coll_ctx *x, const coll_args *a, const coll_bytes *b)
{
  if (b->packed && x->rank != a->root)
    coll_unpack(x, b->buf, (size_t)a->rcount, a->rdt, a->rbuf);
}
