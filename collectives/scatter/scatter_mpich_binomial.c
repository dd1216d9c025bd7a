/* Scatter along a binomial tree, MPICH's order: a rank receives its subtree's blocks from
 * rank - lowbit, keeps its own and hands rank + mask the upper part of what it holds for
 * decreasing masks (largest subtree first, blocking sends). The root works in relative
 * order (a rotated copy when it is not rank 0). Same messages as Open MPI's binomial
 * scatter but children in the opposite order. */
#include "collectives/coll_private.h"

int coll_scatter_mpich_binomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root, v = (me - root + n) % n;
  const smpi_dt *dt;
  size_t bc;
  const char *buf;
  size_t have; /* blocks held, from block v on (relative order) */
  if (me == root) {
    dt = a->sdt;
    bc = (size_t)a->scount;
    buf = coll_blocks_from_root(x, a->sbuf, bc, dt, n, root);
    coll_copy(x, buf, bc, dt, a->rbuf, (size_t)a->rcount, a->rdt);
    have = (size_t)n;
  } else {
    dt = a->rdt;
    bc = (size_t)a->rcount;
    int low = v & -v;
    have = (size_t)(low < n - v ? low : n - v);
    if (have == 1) {
      coll_recv(x, a->rbuf, bc, dt, (me - low + n) % n, COLL_TAG_SCATTER);
      return x->err;
    }
    char *tmp = coll_tmp_dt(x, bc * have, dt);
    coll_recv(x, tmp, bc * have, dt, (me - low + n) % n, COLL_TAG_SCATTER);
    coll_copy(x, tmp, bc, dt, a->rbuf, bc, dt);
    buf = tmp;
  }
  int top = 1; /* largest mask below my lowest set bit (below n for the root) */
  while (top < n && !(v & top))
    top <<= 1;
  for (int mask = top >> 1; mask > 0; mask >>= 1) {
    if (v + mask >= n)
      continue;
    size_t nb = have - (size_t)mask; /* what lies above my first `mask` blocks */
    coll_send(x, coll_at(buf, (size_t)mask * bc, dt), nb * bc, dt, (me + mask) % n,
              COLL_TAG_SCATTER);
    have -= nb;
  }
  return x->err;
}
