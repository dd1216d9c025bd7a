/* Scatter along Open MPI's in-order binomial tree: a rank receives the blocks of its whole
 * subtree from its parent in one message, keeps its own and sends each child its
 * subtree's blocks (smallest subtree first, blocking sends). A root other than rank 0
 * first rotates the blocks into relative order. Non-roots describe the blocks with their
 * receive type. */
#include "collectives/coll_tree.h"
#include "collectives/coll_private.h"

int coll_scatter_ompi_binomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root, v = (me - root + n) % n;
  coll_tree t;
  coll_tree_in_order_bmtree(&t, me, n, root);
  const smpi_dt *dt;
  size_t bc;
  const char *buf;
  if (me == root) {
    dt = a->sdt;
    bc = (size_t)a->scount;
    buf = coll_blocks_from_root(x, a->sbuf, bc, dt, n, root);
    coll_copy(x, buf, bc, dt, a->rbuf, (size_t)a->rcount, a->rdt);
  } else {
    dt = a->rdt;
    bc = (size_t)a->rcount;
    size_t sub = 1; /* my subtree: lowest set bit of v, clipped */
    while (!(v & (int)sub))
      sub <<= 1;
    if (sub > (size_t)(n - v))
      sub = (size_t)(n - v);
    if (t.nchildren) {
      char *tmp = coll_tmp_dt(x, bc * sub, dt);
      coll_recv(x, tmp, bc * sub, dt, t.parent, COLL_TAG_SCATTER);
      coll_copy(x, tmp, bc, dt, a->rbuf, bc, dt);
      buf = tmp;
    } else {
      coll_recv(x, a->rbuf, bc, dt, t.parent, COLL_TAG_SCATTER);
      return x->err;
    }
  }
  size_t sent = 1;
  for (int i = 0; i < t.nchildren; i++) {
    int vk = (t.children[i] - root + n) % n;
    size_t nb = (size_t)(vk - v);
    if (nb > (size_t)(n - vk))
      nb = (size_t)(n - vk);
    coll_send(x, coll_at(buf, sent * bc, dt), nb * bc, dt, t.children[i], COLL_TAG_SCATTER);
    sent += nb;
  }
  return x->err;
}
