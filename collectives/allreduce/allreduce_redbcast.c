/* Allreduce = Reduce to rank 0, then Bcast from rank 0 (SimGrid's default; Open MPI's
 * "nonoverlapping"). Both parts run the algorithm configured or selected for them. */
#include "collectives/coll_private.h"

int coll_allreduce_redbcast(coll_ctx *x, const coll_args *a)
{
  coll_args r = *a;
  r.root = 0;
  if (x->rank != 0)
    r.rbuf = NULL; /* insignificant off the root (and in place, sbuf is the user's rbuf) */
  int rc = coll_run(x, COLL_reduce, &r);
  if (rc)
    return rc;
  coll_args b = {0};
  b.sbuf = b.rbuf = a->rbuf;
  b.scount = b.rcount = a->rcount;
  b.sdt = b.rdt = a->rdt;
  b.sdt_h = b.rdt_h = a->rdt_h;
  b.root = 0;
  return coll_run(x, COLL_bcast, &b);
}
