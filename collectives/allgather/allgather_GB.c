/* Allgather = Gather to rank 0 + Bcast from rank 0 (SimGrid's GB), each part with the
 * algorithm configured or selected for it. */
#include "collectives/coll_private.h"

int coll_allgather_GB(coll_ctx *x, const coll_args *a)
{
  coll_args g = *a;
  g.root = 0;
  g.in_place = false;
  int rc = coll_run(x, COLL_gather, &g);
  if (rc)
    return rc;
  coll_args b = {0};
  b.sbuf = b.rbuf = a->rbuf;
  b.scount = b.rcount = a->rcount * x->size;
  b.sdt = b.rdt = a->rdt;
  b.sdt_h = b.rdt_h = a->rdt_h;
  b.root = 0;
  return coll_run(x, COLL_bcast, &b);
}
