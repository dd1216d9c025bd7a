/* Classic patterns run on a regular subset of the communicator: the ranks base,
 * base + stride, base + 2 stride, ... (n of them), addressed by their index v in it. The
 * SMP-aware algorithms run them inside a host (stride 1) and among the hosts' leaders
 * (stride = ranks per host); with base 0 and stride 1 they are the plain algorithms. */
#ifndef SMPI_COLLECTIVES_COLL_GROUP_H
#define SMPI_COLLECTIVES_COLL_GROUP_H

#include "collectives/coll_private.h"

typedef struct coll_group {
  int base, stride, n; /* members: base + v * stride, v = 0 .. n-1 */
  int me;              /* the caller's index, -1 if not a member */
} coll_group;

static inline int coll_group_rank(const coll_group *g, int v) { return g->base + v * g->stride; }

/* The two groups of the SMP-aware algorithms (x->ppn ranks per host, in blocks): the
 * caller's host, and the hosts' leaders (their lowest ranks; me -1 elsewhere). */
static inline void coll_group_smp(const coll_ctx *x, coll_group *intra, coll_group *inter)
{
  int me = x->rank, ppn = x->ppn;
  *intra = (coll_group){me - me % ppn, 1, ppn, me % ppn};
  *inter = (coll_group){0, ppn, x->size / ppn, me % ppn == 0 ? me / ppn : -1};
}

/* Runs collective c on the members of g as on a communicator of their own (ranks = member
 * indices, ppn ranks per host: g->n for a host, 1 for the leaders), with algorithm id, or
 * with COLL_ALG_COUNT what smpi/<c> or the selector picks for it. Non-members return at
 * once. The arguments are the group's (root, counts: member indices). */
int coll_run_group(coll_ctx *x, const coll_group *g, int ppn, coll_id c, coll_alg_id id,
                   const coll_args *a);

/* MPICH's binomial reduction to member 0: buf holds the member's contribution and, at
 * member 0, receives the result (elsewhere it is overwritten with partial results).
 * Contributions of higher members are the right operands, so the rank order holds when
 * the group is in rank order. */
void coll_group_reduce_binomial(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                                size_t count, int tag);
/* MPICH's binomial broadcast from member 0 (largest subtree first, blocking sends). */
void coll_group_bcast_binomial(coll_ctx *x, const coll_group *g, void *buf, size_t count,
                               const smpi_dt *dt, int tag);
/* MPICH's recursive-doubling allreduce over the group (buf: contribution in, result out);
 * extra members beyond the largest power of two fold into their odd neighbours first. */
void coll_group_allreduce_rdb(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                              size_t count, int tag);
/* Reductions to member root (buf: contribution in, result out at root; scratch elsewhere):
 * SimGrid's reduce binomial (reduce_binomial.c) and MPICH's Rabenseifner reduce
 * (scatter_gather, reduce_scatter_gather.c; commutative ops only). */
void coll_group_reduce_binomial_root(coll_ctx *x, const coll_args *a, const coll_group *g,
                                     void *buf, size_t count, int root, int tag);
void coll_group_reduce_scatter_gather(coll_ctx *x, const coll_args *a, const coll_group *g,
                                      void *buf, size_t count, int root, int tag);
/* Rabenseifner's allreduce over the group, as MPICH's long-message allreduce (recursive
 * halving, then doubling; rdb when count < the largest power of two <= n; commutative ops
 * only). In collectives/allreduce/allreduce_rab_rdb.c. */
void coll_group_allreduce_rab_rdb(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                                  size_t count, int tag);
/* Ring reduce-scatter + ring allgather over the group on blocks of count / n elements
 * (the last block takes the rest); commutative ops only. */
void coll_group_allreduce_ring(coll_ctx *x, const coll_args *a, const coll_group *g, void *buf,
                               size_t count, int tag);

#endif
