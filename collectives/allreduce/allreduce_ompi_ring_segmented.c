/* Allreduce on a ring, Open MPI's ring and ring_segmented.
 *
 * ring: the vector is cut in n blocks (the first count mod n one element longer); in n - 1
 * steps a rank sends a block to the right with a blocking send while a receive from the
 * left is already posted, folds the incoming block into its copy and sends that one on;
 * after the reduce-scatter each rank holds one complete block, and n - 1 sendrecv steps
 * pass the blocks around. Below n elements: recursive doubling.
 *
 * ring_segmented: the same reduce-scatter repeated in phases on segments of the blocks
 * (1 MiB segments, Open MPI's choice), so that the blocks in flight stay small; below
 * n segments' worth it falls back to the logical ring (lr), as SimGrid 3.32 does (Open
 * MPI falls back to its ring). Commutative ops only. */
#include "collectives/coll_ompi.h"

/* early blocks 0 .. split-1 hold one element more than the late ones */
typedef struct blocks {
  size_t early, late;
  int split;
} blocks;
static blocks split_blocks(size_t count, int n)
{
  blocks b = {count / (size_t)n, count / (size_t)n, (int)(count % (size_t)n)};
  if (b.split)
    b.early++;
  return b;
}
static size_t blk_off(const blocks *b, int i)
{
  return i < b->split ? (size_t)i * b->early : (size_t)i * b->late + (size_t)b->split;
}
static size_t blk_cnt(const blocks *b, int i) { return i < b->split ? b->early : b->late; }

/* phase `phase` of num_phases of block i: offset and count inside the vector */
static void phase_part(const blocks *b, int i, int phase, int nphases, size_t *off, size_t *cnt)
{
  blocks p = split_blocks(blk_cnt(b, i), nphases);
  *off = blk_off(b, i) + blk_off(&p, phase);
  *cnt = blk_cnt(&p, phase);
}

static int ring(coll_ctx *x, const coll_args *a, size_t segcount)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  if (n == 1) {
    coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, dt);
    return x->err;
  }
  if (count < (size_t)n)
    return coll_allreduce_rdb(x, a);
  int nphases = 1;
  if (segcount) {
    nphases = (int)(count / ((size_t)n * segcount));
    size_t r = count % ((size_t)n * segcount);
    if (r >= (size_t)n && r > (size_t)n * segcount / 2)
      nphases++;
  }
  blocks b = split_blocks(count, n);
  blocks mp = split_blocks(b.early, nphases);
  size_t maxseg = mp.early;
  void *in[2] = {coll_tmp_dt(x, maxseg, dt), coll_tmp_dt(x, maxseg, dt)};
  coll_copy(x, a->sbuf, count, a->sdt, a->rbuf, count, dt);
  int to = (me + 1) % n, from = (me - 1 + n) % n;
  for (int phase = 0; phase < nphases; phase++) {
    int inbi = 0;
    size_t off, cnt;
    int req[2];
    req[inbi] = coll_irecv(x, in[inbi], maxseg, dt, from, COLL_TAG_ALLREDUCE);
    phase_part(&b, me, phase, nphases, &off, &cnt);
    coll_send(x, coll_at(a->rbuf, off, dt), cnt, dt, to, COLL_TAG_ALLREDUCE);
    for (int k = 2; k < n; k++) {
      int prev = (me + n - k + 1) % n;
      inbi ^= 1;
      req[inbi] = coll_irecv(x, in[inbi], maxseg, dt, from, COLL_TAG_ALLREDUCE);
      coll_wait_req(x, req[inbi ^ 1]);
      phase_part(&b, prev, phase, nphases, &off, &cnt);
      coll_reduce(x, a, in[inbi ^ 1], coll_at(a->rbuf, off, dt), cnt);
      coll_send(x, coll_at(a->rbuf, off, dt), cnt, dt, to, COLL_TAG_ALLREDUCE);
    }
    coll_wait_req(x, req[inbi]);
    phase_part(&b, (me + 1) % n, phase, nphases, &off, &cnt);
    coll_reduce(x, a, in[inbi], coll_at(a->rbuf, off, dt), cnt);
    coll_wait(x);
  }
  for (int k = 0; k < n - 1; k++) {
    int rfrom = (me + n - k) % n, sfrom = (me + 1 + n - k) % n;
    coll_sendrecv(x, coll_at(a->rbuf, blk_off(&b, sfrom), dt), blk_cnt(&b, sfrom), dt, to,
                  coll_at(a->rbuf, blk_off(&b, rfrom), dt), blk_cnt(&b, rfrom), dt, from,
                  COLL_TAG_ALLREDUCE);
  }
  return x->err;
}

int coll_allreduce_ompi_ring(coll_ctx *x, const coll_args *a) { return ring(x, a, 0); }

int coll_allreduce_ompi_ring_segmented(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount, dts = smpi_dt_size(a->rdt);
  size_t seg = coll_ompi_segcount(1 << 20, dts, count);
  if (count < (size_t)x->size * seg)
    return coll_allreduce_lr(x, a); /* SimGrid 3.32's fallback (Open MPI's: its ring) */
  return ring(x, a, seg);
}
