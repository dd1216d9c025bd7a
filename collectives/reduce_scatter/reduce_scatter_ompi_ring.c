/* Reduce_scatter on a ring (Open MPI's ring): a rank sends block r-1 to the right while a
 * receive from the left is posted ahead; at each of the n - 1 steps it folds the incoming
 * block into its copy of the vector and passes it on; the last block to arrive is its
 * own, complete. Commutative ops only. */
#include "collectives/coll_private.h"

int coll_reduce_scatter_ompi_ring(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt;
  size_t count = (size_t)a->scount, maxb = 0;
  if (count == 0)
    return x->err;
  size_t *disps = coll_tmp(x, (size_t)n * sizeof *disps);
  disps[0] = 0;
  for (int i = 0; i < n; i++) {
    if (i)
      disps[i] = disps[i - 1] + (size_t)a->rcounts[i - 1];
    if ((size_t)a->rcounts[i] > maxb)
      maxb = (size_t)a->rcounts[i];
  }
  char *acc = coll_tmp_dt(x, count, dt);
  coll_copy(x, a->sbuf, count, a->sdt, acc, count, dt);
  if (n == 1) {
    coll_copy(x, acc, count, dt, a->rbuf, count, dt);
    return x->err;
  }
  void *in[2] = {coll_tmp_dt(x, maxb, dt), coll_tmp_dt(x, maxb, dt)};
  int to = (me + 1) % n, from = (me - 1 + n) % n, inbi = 0, req[2];
  req[inbi] = coll_irecv(x, in[inbi], maxb, dt, from, COLL_TAG_REDUCE_SCATTER);
  coll_send(x, coll_at(acc, disps[from], dt), (size_t)a->rcounts[from], dt, to,
            COLL_TAG_REDUCE_SCATTER);
  for (int k = 2; k < n; k++) {
    int prev = (me + n - k) % n;
    inbi ^= 1;
    req[inbi] = coll_irecv(x, in[inbi], maxb, dt, from, COLL_TAG_REDUCE_SCATTER);
    coll_wait_req(x, req[inbi ^ 1]);
    coll_reduce(x, a, in[inbi ^ 1], coll_at(acc, disps[prev], dt), (size_t)a->rcounts[prev]);
    coll_send(x, coll_at(acc, disps[prev], dt), (size_t)a->rcounts[prev], dt, to,
              COLL_TAG_REDUCE_SCATTER);
  }
  coll_wait_req(x, req[inbi]);
  coll_reduce(x, a, in[inbi], coll_at(acc, disps[me], dt), (size_t)a->rcounts[me]);
  coll_wait(x);
  coll_copy(x, coll_at(acc, disps[me], dt), (size_t)a->rcounts[me], dt, a->rbuf,
            (size_t)a->rcounts[me], dt);
  return x->err;
}
