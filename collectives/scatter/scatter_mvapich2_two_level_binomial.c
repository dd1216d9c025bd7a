/* MVAPICH2's two-level scatter with a binomial leader stage (SimGrid's
 * mvapich2_two_level_binomial), as SimGrid runs it outside its mvapich2 selector: as
 * mvapich2_two_level_direct, but the leaders get their hosts' blocks along Open MPI's
 * binomial tree (a leader forwards the blocks of the hosts below it). (coll_mv2.c) */
#include "collectives/coll_mv2.h"

int coll_scatter_mvapich2_two_level_binomial(coll_ctx *x, const coll_args *a)
{
  /* in hosts: the mvapich2 selector's table, or SimGrid's mpich choice */
  coll_alg_id in_hosts = x->inner[1] ? (coll_alg_id)(x->inner[1] - 1)
                                     : COLL_ALG_scatter_ompi_binomial;
  return coll_mv2_scatter_two_level(x, a, COLL_ALG_scatter_ompi_binomial, in_hosts);
}
