/* Open MPI's segmented tree reductions (coll_ompi_reduce_generic) with the tree shapes
 * and segment sizes SimGrid 3.32 uses when each is forced (m = bytes, n = ranks; the
 * thresholds are those of Open MPI's reduce decision):
 *
 *   ompi_binomial        in-order binomial tree; 1 KiB segments if n > 5.875e-4 m +
 *                        1.3496, else one segment
 *   ompi_binary          binary tree, 32 KiB segments
 *   ompi_chain           n/2 chains from the root (at most 32), 64 KiB segments
 *   ompi_pipeline        one chain; 1 KiB segments if n > 4.0039e-5 m + 9.7128,
 *                        32 KiB if n > 3.2227e-6 m + 1.6761, else 64 KiB
 *   ompi_in_order_binary in-order binary tree rooted at rank n-1 (then sent to the root),
 *                        one segment: the operand order holds for any op
 *
 * All but the in-order binary need a commutative op. A segment size set by the selector
 * (the ompi selector passes Open MPI's) wins over these. */
#include "collectives/coll_ompi.h"

static int run_tree(coll_ctx *x, const coll_args *a, const coll_tree *t, size_t segsize)
{
  if (x->segsize) /* the selector's choice (Open MPI's decision) */
    segsize = x->segsize == COLL_SEG_WHOLE ? 0 : x->segsize;
  size_t count = (size_t)a->rcount, dts = smpi_dt_size(a->rdt);
  size_t seg = segsize ? coll_ompi_segcount(segsize, dts, count) : count;
  coll_ompi_reduce_generic(x, a, t, seg ? seg : 1, 0);
  return x->err;
}

int coll_reduce_ompi_binomial(coll_ctx *x, const coll_args *a)
{
  coll_tree t;
  coll_tree_in_order_bmtree(&t, x->rank, x->size, a->root);
  double m = (double)((size_t)a->rcount * smpi_dt_size(a->rdt));
  return run_tree(x, a, &t, x->size > 0.6016 / 1024.0 * m + 1.3496 ? 1024 : 0);
}

int coll_reduce_ompi_binary(coll_ctx *x, const coll_args *a)
{
  coll_tree t;
  coll_tree_kary(&t, 2, x->rank, x->size, a->root);
  return run_tree(x, a, &t, 32 * 1024);
}

int coll_reduce_ompi_chain(coll_ctx *x, const coll_args *a)
{
  coll_tree t;
  coll_tree_chain(&t, x->size / 2 > 0 ? x->size / 2 : 1, x->rank, x->size, a->root);
  return run_tree(x, a, &t, 64 * 1024);
}

int coll_reduce_ompi_pipeline(coll_ctx *x, const coll_args *a)
{
  double m = (double)((size_t)a->rcount * smpi_dt_size(a->rdt));
  int n = x->size;
  size_t segsize = n > 0.0410 / 1024.0 * m + 9.7128   ? 1024
                   : n > 0.0033 / 1024.0 * m + 1.6761 ? 32 * 1024
                                                      : 64 * 1024;
  coll_tree t;
  coll_tree_chain(&t, 1, x->rank, n, a->root);
  return run_tree(x, a, &t, segsize);
}

int coll_reduce_ompi_in_order_binary(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, io_root = n - 1;
  size_t count = (size_t)a->rcount;
  coll_args b = *a;
  if (io_root != a->root) {
    if (me == a->root && a->sbuf == a->rbuf) { /* the own data must survive the receive */
      void *copy = coll_tmp_dt(x, count, a->rdt);
      coll_copy(x, a->rbuf, count, a->rdt, copy, count, a->rdt);
      b.sbuf = copy;
    } else if (me == io_root) {
      b.rbuf = coll_tmp_dt(x, count, a->rdt);
    }
  }
  coll_tree t;
  coll_tree_in_order_bintree(&t, me, n);
  coll_ompi_reduce_generic(x, &b, &t, count ? count : 1, 0);
  if (io_root != a->root) {
    if (me == a->root)
      coll_recv(x, a->rbuf, count, a->rdt, io_root, COLL_TAG_REDUCE);
    else if (me == io_root)
      coll_send(x, b.rbuf, count, a->rdt, a->root, COLL_TAG_REDUCE);
  }
  return x->err;
}
