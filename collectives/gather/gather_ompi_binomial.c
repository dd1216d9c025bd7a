/* Gather along Open MPI's in-order binomial tree: a rank collects the blocks of its
 * subtree (children by increasing subtree size, blocking receives) after its own, then
 * sends them all to its parent in one message. A root other than rank 0 gathers into
 * scratch memory in relative order and rotates at the end. log2 n rounds; the block of a
 * rank crosses up to log2 n links. Non-roots describe their blocks with their send type. */
#include "collectives/coll_tree.h"
#include "collectives/coll_private.h"

int coll_gather_ompi_binomial(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root, v = (me - root + n) % n;
  coll_tree t;
  coll_tree_in_order_bmtree(&t, me, n, root);
  /* buffer and type for this rank's subtree data */
  const smpi_dt *dt;
  size_t bc; /* elements per block */
  char *buf;
  if (me == root) {
    dt = a->rdt;
    bc = (size_t)a->rcount;
    buf = root == 0 ? a->rbuf : coll_tmp_dt(x, bc * (size_t)n, dt);
    coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, buf, bc, dt);
  } else {
    dt = a->sdt;
    bc = (size_t)a->scount;
    buf = t.nchildren ? coll_tmp_dt(x, bc * (size_t)n, dt) : (char *)a->sbuf;
    if (t.nchildren)
      coll_copy(x, a->sbuf, bc, dt, buf, bc, dt);
  }
  size_t have = 1; /* blocks, in relative rank order from v */
  for (int i = 0; i < t.nchildren; i++) {
    int vk = (t.children[i] - root + n) % n;
    size_t nb = (size_t)(vk - v);
    if (nb > (size_t)(n - vk))
      nb = (size_t)(n - vk);
    coll_recv(x, coll_at(buf, have * bc, dt), nb * bc, dt, t.children[i], COLL_TAG_GATHER);
    have += nb;
  }
  if (me != root) {
    coll_send(x, buf, have * bc, dt, t.parent, COLL_TAG_GATHER);
  } else if (root != 0) { /* relative order -> rank order */
    size_t tail = (size_t)(n - root);
    coll_copy(x, buf, tail * bc, dt, coll_at(a->rbuf, (size_t)root * bc, dt), tail * bc, dt);
    coll_copy(x, coll_at(buf, tail * bc, dt), (size_t)root * bc, dt, a->rbuf, (size_t)root * bc,
              dt);
  }
  return x->err;
}
