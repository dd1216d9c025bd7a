/* Reduce and Allreduce after Rabenseifner's 1997 code (SimGrid's rab): a reduce-scatter by
 * recursive halving, then a gather (Reduce) or allgather (Allreduce) retracing it.
 * p = 2^n the largest power of two <= size, r = size - p. Unlike MPICH's halving
 * (scatter_gather, rab_rdb):
 *   - the fold also halves: the pairs 0-1, 2-3, ... below 2 r swap halves (even rank keeps
 *     the low count/2, odd the rest), fold them in, and the odd one returns its folded
 *     half; the even rank 2i survives as new rank i;
 *   - each step halves the range it holds itself (low half x/2, high half x - x/2): no
 *     precomputed blocks; step k pairs new ranks differing in bit k (distance 1 first);
 *   - the Reduce's gather has every survivor work at every level: at level k the one whose
 *     bit k differs from the root's sends what it holds, the other receives, without
 *     leaving after its send. A root among the odd helpers first gets new rank 0's block
 *     and stands in for it.
 * Example, 13 ranks (n = 3, r = 5), Allreduce: 0<->1 ... 8<->9 fold; survivors 0 2 4 6 8
 * 10 11 12 = new 0..7 halve at distances 1, 2, 4 (old ranks 0<->2, 0<->4, 0<->8...), double
 * back at 4, 2, 1, and 0 2 4 6 8 send the whole result to 1 3 5 7 9.
 * Where SimGrid 3.32's copy fails, smpi does the right thing instead: with one rank or
 * count 0 it calls the configured reduce again, i.e. itself, until the stack overflows
 * (smpi: a copy, no message); it throws for types outside its list of ten basic ones and
 * computes MAX for a user op (smpi: any type, the real op, same messages). Non-commutative
 * ops take the selector's choice (COLL_F_COMMUTATIVE). */
#include "collectives/coll_halving.h"

static int rab_old(const coll_rab *s, int nr) { return nr < s->r ? nr * 2 : nr + s->r; }

/* the split at every level of the range the caller's new rank nr keeps */
static void rab_levels(coll_rab *s, size_t count, int nr)
{
  size_t start = 0, cnt = count;
  for (int k = 0; k < s->n; k++) {
    s->start[0][k] = start;
    s->cnt[0][k] = cnt / 2;
    s->start[1][k] = start + cnt / 2;
    s->cnt[1][k] = cnt - cnt / 2;
    int b = (nr >> k) & 1;
    start = s->start[b][k];
    cnt = s->cnt[b][k];
  }
}

void coll_rab_halve(coll_ctx *x, const coll_args *a, coll_rab *s, void *buf, size_t count,
                    int tag)
{
  const smpi_dt *dt = a->rdt;
  int me = x->rank;
  s->n = 0;
  while (2 << s->n <= x->size)
    s->n++;
  s->r = x->size - (1 << s->n);
  void *tmp = coll_tmp_dt(x, count, dt);
  size_t lo = count / 2, hi = count - lo;
  s->newrank = me >= 2 * s->r ? me - s->r : me % 2 ? -1 : me / 2;
  if (me < 2 * s->r) {
    if (me % 2 == 0) {
      coll_sendrecv(x, coll_at(buf, lo, dt), hi, dt, me + 1, tmp, lo, dt, me + 1, tag);
      coll_reduce(x, a, tmp, buf, lo);
      coll_recv(x, coll_at(buf, lo, dt), hi, dt, me + 1, tag);
    } else {
      coll_sendrecv(x, buf, lo, dt, me - 1, coll_at(tmp, lo, dt), hi, dt, me - 1, tag);
      coll_reduce(x, a, coll_at(tmp, lo, dt), coll_at(buf, lo, dt), hi);
      coll_send(x, coll_at(buf, lo, dt), hi, dt, me - 1, tag);
    }
  }
  if (s->newrank < 0)
    return;
  rab_levels(s, count, s->newrank);
  for (int k = 0; k < s->n; k++) {
    int b = (s->newrank >> k) & 1, peer = rab_old(s, s->newrank ^ (1 << k));
    size_t keep = s->start[b][k], kcnt = s->cnt[b][k];
    coll_sendrecv(x, coll_at(buf, s->start[!b][k], dt), s->cnt[!b][k], dt, peer,
                  coll_at(tmp, keep, dt), kcnt, dt, peer, tag);
    coll_reduce(x, a, coll_at(tmp, keep, dt), coll_at(buf, keep, dt), kcnt);
  }
}

int coll_reduce_rab(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, root = a->root;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  void *buf = me == root ? a->rbuf : coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, buf, count, dt);
  if (count == 0 || x->size == 1) /* SimGrid recurses into itself there */
    return x->err;
  coll_rab s;
  coll_rab_halve(x, a, &s, buf, count, COLL_TAG_REDUCE);
  int r = s.r, newroot = root < 2 * r ? root / 2 : root - r;
  if (root < 2 * r && root % 2) { /* new rank 0 hands its block to the root, which takes over */
    newroot = 0;
    if (me == 0) {
      coll_send(x, buf, s.cnt[0][s.n - 1], dt, root, COLL_TAG_REDUCE);
      s.newrank = -1;
    } else if (me == root) {
      s.newrank = 0;
      rab_levels(&s, count, 0);
      coll_recv(x, buf, s.cnt[0][s.n - 1], dt, 0, COLL_TAG_REDUCE);
    }
  }
  if (s.newrank < 0)
    return x->err;
  for (int k = s.n - 1; k >= 0; k--) {
    int b = (s.newrank >> k) & 1, nr = s.newrank ^ (1 << k);
    int peer = nr == newroot ? root : rab_old(&s, nr);
    if (b != ((newroot >> k) & 1))
      coll_send(x, coll_at(buf, s.start[b][k], dt), s.cnt[b][k], dt, peer, COLL_TAG_REDUCE);
    else
      coll_recv(x, coll_at(buf, s.start[!b][k], dt), s.cnt[!b][k], dt, peer, COLL_TAG_REDUCE);
  }
  return x->err;
}
