/* Reduce_scatter = Reduce of the whole vector to rank 0, then Scatterv of the blocks
 * (SimGrid's default: its Reduce is always the default one, its Scatterv the configured
 * one). */
#include "collectives/coll_private.h"

int coll_reduce_scatter_reduce_scatterv(coll_ctx *x, const coll_args *a)
{
  int n = x->size;
  size_t total = (size_t)a->scount;
  coll_args r = *a;
  r.root = 0;
  r.in_place = false; /* the result goes to scratch memory, not over the input */
  r.rcount = a->scount;
  r.rcounts = NULL;
  r.rbuf = x->rank == 0 ? coll_tmp_dt(x, total, a->rdt) : NULL;
  int rc = coll_run_default(x, COLL_reduce, &r);
  if (rc)
    return rc;
  int *displs = coll_tmp(x, (size_t)n * sizeof *displs);
  for (int i = 0, d = 0; i < n; d += a->rcounts[i], i++)
    displs[i] = d;
  coll_args s = {0};
  s.sbuf = r.rbuf;
  s.scounts = a->rcounts;
  s.sdispls = displs;
  s.sdt = a->rdt;
  s.sdt_h = a->rdt_h;
  s.rbuf = a->rbuf;
  s.rcount = a->rcount;
  s.rdt = a->rdt;
  s.rdt_h = a->rdt_h;
  s.root = 0;
  return coll_run(x, COLL_scatterv, &s);
}
