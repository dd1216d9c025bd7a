/* Broadcast = binomial scatter + ring allgather (van de Geijn; MPICH's long-message
 * algorithm, SimGrid's scatter_LR_allgather). The buffer, as bytes, is cut in n blocks;
 * after the scatter relative rank r holds block r; then n - 1 ring steps: everyone sends
 * the block it got last to its right neighbour and receives the next one from its left.
 * Every step sends, even empty blocks (MPICH does). ~2x the data of one buffer per rank,
 * whatever n, so it wins for long messages. */
#include "collectives/coll_mpich.h"

int coll_bcast_scatter_LR_allgather(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  if (n == 1)
    return x->err;
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  size_t ss = (b.nbytes + (size_t)n - 1) / (size_t)n;
  coll_mpich_scatter_for_bcast(x, b.buf, b.nbytes, root, ss);
  const smpi_dt *byte = coll_byte();
  int left = (me - 1 + n) % n, right = (me + 1) % n;
  int j = me, jnext = left;
  for (int i = 1; i < n; i++) {
    size_t rblk = (size_t)((jnext - root + n) % n), sblk = (size_t)((j - root + n) % n);
    coll_sendrecv(x, b.buf + sblk * ss, coll_mpich_range(b.nbytes, ss, sblk, sblk + 1), byte,
                  right, b.buf + rblk * ss, coll_mpich_range(b.nbytes, ss, rblk, rblk + 1), byte,
                  left, COLL_TAG_BCAST);
    j = jnext;
    jnext = (jnext - 1 + n) % n;
  }
  coll_bytes_done(x, a, &b);
  return x->err;
}
