/* SMP-aware barrier (MPICH's; SimGrid's mpich_smp): a dissemination barrier inside each
 * host, one among the hosts' leaders, then each leader releases its host with a 1-byte
 * binomial broadcast. Hosts hold equal blocks of consecutive ranks (COLL_F_SMP); with one
 * rank per host only the leaders' dissemination sends anything. */
#include "collectives/coll_group.h"

/* round k: to member + 2^k, from member - 2^k (barrier_ompi_bruck.c on a group) */
static void dissemination(coll_ctx *x, const coll_group *g)
{
  if (g->me < 0)
    return;
  const smpi_dt *b = coll_byte();
  for (int d = 1; d < g->n; d <<= 1)
    coll_sendrecv(x, NULL, 0, b, coll_group_rank(g, (g->me + d) % g->n), NULL, 0, b,
                  coll_group_rank(g, (g->me - d + g->n) % g->n), COLL_TAG_BARRIER);
}

int coll_barrier_mpich_smp(coll_ctx *x, const coll_args *a)
{
  (void)a;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  dissemination(x, &intra);
  dissemination(x, &inter);
  char letter = 0;
  coll_group_bcast_binomial(x, &intra, &letter, 1, coll_byte(), COLL_TAG_BARRIER);
  return x->err;
}
