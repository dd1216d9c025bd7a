/* Broadcast, flat tree: the root posts a send to every other rank at once and waits for
 * them all; n - 1 messages leave the root's link together. */
#include "collectives/coll_private.h"

int coll_bcast_flattree(coll_ctx *x, const coll_args *a)
{
  if (x->rank != a->root) {
    coll_recv(x, a->rbuf, (size_t)a->rcount, a->rdt, a->root, COLL_TAG_BCAST);
    return x->err;
  }
  for (int i = 0; i < x->size; i++)
    if (i != a->root)
      coll_isend(x, a->rbuf, (size_t)a->rcount, a->rdt, i, COLL_TAG_BCAST);
  coll_wait(x);
  return x->err;
}
