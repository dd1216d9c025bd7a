/* Barrier along a binomial tree (Open MPI's "tree"): fan-in to rank 0 (a rank hears from
 * the children rank ^ 2^k above it, then reports to its parent), then the same tree in
 * reverse releases everyone. 2 ceil(log2 n) rounds. */
#include "collectives/coll_private.h"

int coll_barrier_ompi_tree(coll_ctx *x, const coll_args *args)
{
  (void)args;
  const smpi_dt *b = coll_byte();
  int n = x->size, me = x->rank, depth = coll_pof2_ceil(n);
  for (int jump = 1; jump < depth; jump <<= 1) {
    int partner = me ^ jump;
    if (!(partner & (jump - 1)) && partner < n) {
      if (partner > me)
        coll_recv(x, NULL, 0, b, partner, COLL_TAG_BARRIER);
      else
        coll_send(x, NULL, 0, b, partner, COLL_TAG_BARRIER);
    }
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    int partner = me ^ jump;
    if (!(partner & (jump - 1)) && partner < n) {
      if (partner > me)
        coll_send(x, NULL, 0, b, partner, COLL_TAG_BARRIER);
      else
        coll_recv(x, NULL, 0, b, partner, COLL_TAG_BARRIER);
    }
  }
  return x->err;
}
