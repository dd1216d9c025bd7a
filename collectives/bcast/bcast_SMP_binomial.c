/* SMP-aware binomial broadcast (SimGrid's SMP_binomial): a root other than rank 0 first
 * sends the buffer to rank 0; then a binomial tree among the hosts' leaders (rank 0 of
 * each block of ppn ranks), then a binomial tree inside each host from its leader. Both
 * trees are MPICH's: receive from the parent, then send to the children farthest first,
 * blocking sends. Hosts hold equal blocks of consecutive ranks (COLL_F_SMP). */
#include "collectives/coll_group.h"

int coll_bcast_SMP_binomial(coll_ctx *x, const coll_args *a)
{
  size_t count = (size_t)a->rcount;
  if (a->root != 0) {
    if (x->rank == a->root)
      coll_send(x, a->rbuf, count, a->rdt, 0, COLL_TAG_BCAST);
    else if (x->rank == 0)
      coll_recv(x, a->rbuf, count, a->rdt, a->root, COLL_TAG_BCAST);
  }
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_group_bcast_binomial(x, &inter, a->rbuf, count, a->rdt, COLL_TAG_BCAST);
  coll_group_bcast_binomial(x, &intra, a->rbuf, count, a->rdt, COLL_TAG_BCAST);
  return x->err;
}
