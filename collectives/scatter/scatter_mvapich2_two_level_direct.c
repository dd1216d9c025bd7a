/* MVAPICH2's two-level scatter with a direct leader stage (SimGrid's
 * mvapich2_two_level_direct), as SimGrid runs it outside its mvapich2 selector:
 *
 *   1. a root that is not its host's leader sends all its blocks to that leader;
 *   2. that leader sends each other leader its host's blocks, one message each, one at a
 *      time in host order (Open MPI's basic linear scatter among the leaders);
 *   3. each leader scatters along Open MPI's binomial tree in its host (SimGrid's mpich
 *      choice for scatter).
 *
 * On a single host: Open MPI's basic linear scatter. (coll_mv2.c) */
#include "collectives/coll_mv2.h"

int coll_scatter_mvapich2_two_level_direct(coll_ctx *x, const coll_args *a)
{
  /* in hosts: the mvapich2 selector's table, or SimGrid's mpich choice */
  coll_alg_id in_hosts = x->inner[1] ? (coll_alg_id)(x->inner[1] - 1)
                                     : COLL_ALG_scatter_ompi_binomial;
  return coll_mv2_scatter_two_level(x, a, COLL_ALG_scatter_ompi_basic_linear, in_hosts);
}
