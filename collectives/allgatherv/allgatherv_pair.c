/* Allgatherv, pairwise exchange: step i swaps own blocks with rank ^ i (power of two). */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_pair(coll_ctx *x, const coll_args *a)
{
  agv_own(x, a);
  for (int i = 1; i < x->size; i++) {
    int p = x->rank ^ i;
    coll_sendrecv(x, a->sbuf, (size_t)a->scount, a->sdt, p, agv_block(a, p),
                  (size_t)a->rcounts[p], a->rdt, p, COLL_TAG_ALLGATHERV);
  }
  return x->err;
}
