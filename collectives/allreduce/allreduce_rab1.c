/* Allreduce, Rabenseifner's first variant (SimGrid's rab1; power-of-two sizes, commutative
 * ops): recursive halving reduce-scatter, farthest rank first (step mask = n/2, n/4, ..., 1:
 * exchange half of what is left with rank ^ mask, the lower rank keeping the lower half),
 * then the Allgather configured or selected for MPI_Allgather on one block per rank.
 * A count that n does not divide is padded to s n elements, s = (count + n) / n; only the
 * elements below count are combined (the padding's content is never used).
 *
 *   n = 4, count 8: rank 1 sends 4..7 to 3 and keeps 0..3, then sends 0..1 to 0 and keeps
 *   2..3 (its block), then gathers the others' blocks. */
#include "collectives/coll_private.h"

/* inout[from..from+len) op= in, clipped to the first count elements */
static void reduce_clipped(coll_ctx *x, const coll_args *a, const void *in, char *buf,
                           size_t from, size_t len, size_t count)
{
  if (from < count)
    coll_reduce(x, a, in, coll_at(buf, from, a->rdt), from + len <= count ? len : count - from);
}

int coll_allreduce_rab1(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t count = (size_t)a->rcount, un = (size_t)n;
  const smpi_dt *dt = a->rdt;
  bool even = count % un == 0;
  size_t total = even ? count : (count + un) / un * un, share = total / un;
  char *buf = even ? a->rbuf : coll_tmp_dt(x, total, dt);
  coll_copy(x, a->sbuf, count, a->sdt, buf, count, dt);
  char *tmp = coll_tmp_dt(x, total / 2 ? total / 2 : 1, dt);
  size_t keep = 0, len = total;
  for (int mask = n / 2; mask > 0; mask /= 2) {
    int peer = me ^ mask;
    len /= 2;
    size_t give = me < peer ? keep + len : keep;
    if (me > peer)
      keep += len;
    coll_sendrecv(x, coll_at(buf, give, dt), len, dt, peer, tmp, len, dt, peer,
                  COLL_TAG_ALLREDUCE);
    reduce_clipped(x, a, tmp, buf, keep, len, count);
  }
  /* keep == me * share: every rank holds its own block */
  char *mine = coll_tmp_dt(x, share ? share : 1, dt);
  coll_copy(x, coll_at(buf, keep, dt), share, dt, mine, share, dt);
  coll_args g = {0};
  g.sbuf = mine;
  g.rbuf = buf;
  g.scount = g.rcount = (int)share;
  g.sdt = g.rdt = dt;
  g.sdt_h = g.rdt_h = a->rdt_h;
  int rc = coll_run(x, COLL_allgather, &g);
  if (rc)
    return rc;
  if (!even)
    coll_copy(x, buf, count, dt, a->rbuf, count, dt);
  return x->err;
}
