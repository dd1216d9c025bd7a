/* SimGrid's alltoall pair_rma: every rank puts its block for rank ^ i into a window over
 * the receive buffers, i = 0 .. n-1, between two fences. The window lives in smpi/rma/,
 * above this layer: smpi/rma/coll_pair_rma.c registers the implementation at start-up
 * through coll_register_alltoall_pair_rma (coll.h); this entry forwards the call to it. */
#include "collectives/coll_private.h"
#include "src/invariant.h"

static struct pair_rma_hook {
  coll_alltoall_rma_fn fn; /* smpi/rma's implementation, once registered */
} pair_rma;

void coll_register_alltoall_pair_rma(coll_alltoall_rma_fn fn) { pair_rma.fn = fn; }

int coll_alltoall_pair_rma(coll_ctx *x, const coll_args *a)
{
  ASSERTF(pair_rma.fn, "alltoall pair_rma runs without smpi/rma's implementation registered "
                       "(smpi_rma_declare_config not called)");
  int rc = pair_rma.fn(x->comm, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt);
  return rc ? rc : x->err;
}
