/* Pieces of SimGrid 3.32's MVAPICH2 two-level algorithms (the mvapich2_* names) that
 * several of them share, and what SimGrid's `mpich` selector runs on a host's or the
 * leaders' communicator (those algorithms call it for their stages when its mvapich2
 * selector has not set them: SimGrid keeps the stages in global function pointers). */
#ifndef SMPI_COLLECTIVES_COLL_MV2_H
#define SMPI_COLLECTIVES_COLL_MV2_H

#include "collectives/coll_group.h"

/* SimGrid's mpich choice on a host or leaders communicator of n ranks (its "SMP"
 * communicators, where it never goes SMP-aware again):
 *   bcast: binomial_tree below 12288 bytes or up to 8 ranks, scatter_rdb_allgather below
 *          524288 bytes on an even count of ranks, else scatter_LR_allgather;
 *   allgather (total = bytes gathered per rank): rdb on a power of two below 524288, else
 *          bruck up to 81920, else ring. */
coll_alg_id coll_mv2_mpich_bcast(size_t bytes, int n);
coll_alg_id coll_mv2_mpich_allgather(size_t total, int n);

/* MVAPICH2's inter-node bcast stage (SimGrid's mvapich2_inter_node): a root that is not its
 * host's leader sends the buffer to it, then algorithm `inner` among the hosts' leaders from
 * the root's leader. The other ranks of each host do not get the data here. */
int coll_mv2_bcast_inter_node(coll_ctx *x, const coll_args *a, coll_alg_id inner);

/* MVAPICH2's two-level scatter: the root's leader gets the root's blocks, `leaders` scatters
 * each host's blocks to its leader, then `intra` scatters in each host from its leader. */
int coll_mv2_scatter_two_level(coll_ctx *x, const coll_args *a, coll_alg_id leaders,
                               coll_alg_id intra);

#endif
