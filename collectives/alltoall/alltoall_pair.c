/* Alltoall, pairwise exchange (STAR-MPI; SimGrid's pair): in step i every rank exchanges
 * one block with rank ^ i, for i = 0 .. n-1 (step 0 is a message to itself). The pairs
 * form a perfect matching at every step: a power-of-two size only. */
#include "collectives/coll_private.h"

int coll_alltoall_pair(coll_ctx *x, const coll_args *a)
{
  size_t sc = (size_t)a->scount, rc = (size_t)a->rcount;
  for (int i = 0; i < x->size; i++) {
    int peer = x->rank ^ i;
    coll_sendrecv(x, coll_at(a->sbuf, (size_t)peer * sc, a->sdt), sc, a->sdt, peer,
                  coll_at(a->rbuf, (size_t)peer * rc, a->rdt), rc, a->rdt, peer,
                  COLL_TAG_ALLTOALL);
  }
  return x->err;
}
