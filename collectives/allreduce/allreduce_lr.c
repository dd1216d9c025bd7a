/* Allreduce on a logical ring (STAR-MPI; SimGrid's lr): the vector is cut in n equal
 * blocks; n - 1 ring steps of reduce-scatter (send a block to the right, receive the next
 * from the left and fold in the own data) leave each rank with one complete block, then n - 1
 * ring steps of allgather pass the blocks around. 2 (n-1)/n m bytes per rank.
 *
 * As in SimGrid: a rank copies its first block by sending it to itself; counts below n go
 * to the default allreduce; a remainder of count mod n elements is reduced afterwards by the
 * allreduce configured or selected for it. Commutative ops only (the ring wraps around). */
#include "collectives/coll_private.h"

int coll_allreduce_lr(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  if (count < (size_t)n)
    return coll_allreduce_redbcast(x, a);
  size_t blk = count / (size_t)n, rest = count % (size_t)n;
  const void *own = a->sbuf;
  if (a->sbuf == a->rbuf) { /* in place: the own data must survive the receives */
    void *copy = coll_tmp_dt(x, count, dt);
    coll_copy(x, a->rbuf, count, dt, copy, count, dt);
    own = copy;
  }
  int right = (me + 1) % n, left = (me - 1 + n) % n;
  size_t first = (size_t)((me - 1 + n) % n) * blk;
  coll_sendrecv(x, coll_at(own, first, dt), blk, dt, me, coll_at(a->rbuf, first, dt), blk, dt, me,
                COLL_TAG_ALLREDUCE);
  for (int i = 0; i < n - 1; i++) {
    size_t so = (size_t)((me - 1 - i + 2 * n) % n) * blk,
           ro = (size_t)((me - 2 - i + 2 * n) % n) * blk;
    coll_sendrecv(x, coll_at(a->rbuf, so, dt), blk, dt, right, coll_at(a->rbuf, ro, dt), blk, dt,
                  left, COLL_TAG_ALLREDUCE);
    coll_reduce(x, a, coll_at(own, ro, dt), coll_at(a->rbuf, ro, dt), blk);
  }
  for (int i = 0; i < n - 1; i++) {
    size_t so = (size_t)((me - i + 2 * n) % n) * blk,
           ro = (size_t)((me - 1 - i + 2 * n) % n) * blk;
    coll_sendrecv(x, coll_at(a->rbuf, so, dt), blk, dt, right, coll_at(a->rbuf, ro, dt), blk, dt,
                  left, COLL_TAG_ALLREDUCE);
  }
  if (rest) {
    coll_args r = *a;
    r.sbuf = coll_at(own, blk * (size_t)n, dt);
    r.rbuf = coll_at(a->rbuf, blk * (size_t)n, dt);
    r.scount = r.rcount = (int)rest;
    r.in_place = false;
    return coll_run(x, COLL_allreduce, &r);
  }
  return x->err;
}
