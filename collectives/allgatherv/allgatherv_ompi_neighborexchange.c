/* Allgatherv by neighbour exchange (Open MPI): as for allgather, n/2 steps alternating
 * between the two neighbours, forwarding the two blocks received last (packed). Odd
 * sizes: MPICH's ring. */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_ompi_neighborexchange(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  if (n % 2)
    return coll_allgatherv_mpich_ring(x, a);
  agv_own(x, a);
  const smpi_dt *byte = coll_byte();
  coll_nbx e;
  coll_nbx_init(&e, me, n);
  int *neighbor = e.neighbor, *from = e.from, *step = e.step;
  coll_sendrecv(x, agv_block(a, me), (size_t)a->rcounts[me], a->rdt, neighbor[0],
                agv_block(a, neighbor[0]), (size_t)a->rcounts[neighbor[0]], a->rdt, neighbor[0],
                COLL_TAG_ALLGATHERV);
  /* one pair of pack buffers for every step: two blocks, the largest pair of any step */
  size_t most = 1;
  for (int b = 0; b < n; b++) {
    size_t two = agv_span_bytes(a, n, b, 2);
    most = two > most ? two : most;
  }
  char *sp = coll_tmp(x, most), *rp = coll_tmp(x, most);
  int send_from = from[0];
  for (int i = 1; i < n / 2; i++) {
    int p = i % 2;
    from[p] = (from[p] + step[p] + n) % n;
    size_t sb = agv_span_bytes(a, n, send_from, 2), rb = agv_span_bytes(a, n, from[p], 2);
    const void *out = agv_pack_send(x, a, n, send_from, 2, sp);
    if (!coll_sendrecv_fold(x, out, sb, byte, neighbor[p], rp, rb, byte, neighbor[p],
                            COLL_TAG_ALLGATHERV))
      agv_unpack(x, a, n, from[p], 2, rp);
    send_from = from[p];
  }
  return x->err;
}
