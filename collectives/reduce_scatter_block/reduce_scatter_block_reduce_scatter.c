/* Reduce_scatter_block = Reduce of the whole vector to rank 0, then Scatter of the blocks
 * (what SimGrid 3.32 does for it). */
#include "collectives/coll_private.h"

int coll_reduce_scatter_block_reduce_scatter(coll_ctx *x, const coll_args *a)
{
  size_t total = (size_t)a->scount;
  coll_args r = *a;
  r.root = 0;
  r.in_place = false; /* the result goes to scratch memory, not over the input */
  r.rcount = a->scount;
  r.rbuf = x->rank == 0 ? coll_tmp_dt(x, total, a->rdt) : NULL;
  int rc = coll_run(x, COLL_reduce, &r);
  if (rc)
    return rc;
  coll_args s = {0};
  s.sbuf = r.rbuf;
  s.scount = a->rcount;
  s.sdt = a->rdt;
  s.sdt_h = a->rdt_h;
  s.rbuf = a->rbuf;
  s.rcount = a->rcount;
  s.rdt = a->rdt;
  s.rdt_h = a->rdt_h;
  s.root = 0;
  return coll_run(x, COLL_scatter, &s);
}
