/* Rabenseifner's recursive halving, shared by Reduce (scatter_gather), Allreduce (rab_rdb)
 * and Reduce_scatter (ompi_basic_recursivehalving).
 *
 * Fold: with p the largest power of two <= n and rem = n - p, the 2 rem lowest ranks pair
 * up (0-1, 2-3, ...); one of each pair hands its whole vector to the other, which folds it
 * in and survives. The p survivors get new ranks 0 .. p-1 (pair i -> i, rank r >= 2 rem ->
 * r - rem).
 *
 * Halving: the vector is cut in p blocks; a survivor holds the block range
 * [send_idx, last_idx), at first all of it. At each step it meets a partner whose range is
 * the same, the lower new rank keeps the lower half: each sends the half it drops and folds
 * in the half it keeps. After log2 p steps every survivor holds one block of the result.
 * MPICH meets partners at distance 1, 2, 4, ..., Open MPI at p/2, p/4, ..., 1; p = 4:
 *
 *   new rank 1, MPICH:    meets 0, keeps [2,4); meets 3, keeps [2,3): block 2
 *   new rank 1, Open MPI: meets 3, keeps [0,2); meets 0, keeps [1,2): block 1
 *
 * Doubling back (MPICH's order reversed) retraces the steps: each step sends the range it
 * holds and receives the partner's, so the ranges grow back to the whole vector. */
#ifndef SMPI_COLLECTIVES_COLL_HALVING_H
#define SMPI_COLLECTIVES_COLL_HALVING_H

#include "collectives/coll_private.h"

typedef struct coll_halving {
  int p, rem;                       /* survivors; n - p */
  int survivor;                     /* 1: the odd rank of a pair survives, 0: the even one */
  const size_t *cnts, *disps;       /* block i: cnts[i] elements at disps[i] (i < p) */
  int send_idx, recv_idx, last_idx; /* block indexes of the current step */
  int base, stride, me; /* the ranks base + i * stride, caller = index me (coll_group) */
} coll_halving;

/* One exchange of a step: what to send and what to receive (offsets in elements). */
typedef struct coll_halving_step {
  size_t soff, scnt, roff, rcnt;
} coll_halving_step;

/* Sets up h for the n ranks of the communicator, no blocks yet (cnts and disps NULL). */
void coll_halving_init(coll_halving *h, int n, int survivor);
/* The same on a regular subset of it (an SMP-aware algorithm's host): the caller's index
 * me among the ranks base, base + stride, ... (collectives/coll_group.h). */
void coll_halving_init_sub(coll_halving *h, int n, int survivor, int base, int stride, int me);
/* Blocks of count / p elements, the last one taking the rest (MPICH's cut). */
void coll_halving_even_blocks(coll_ctx *x, coll_halving *h, size_t count);
/* The fold: buf holds the rank's vector of count elements (the survivor's receives the
 * sum), tmp is scratch of the same size. Returns the new rank, -1 for a rank that left. */
int coll_halving_fold(coll_ctx *x, const coll_args *a, const coll_halving *h, void *buf,
                      void *tmp, size_t count, const smpi_dt *dt, int tag);
/* The communicator rank of new rank nr. */
static inline int coll_halving_real(const coll_halving *h, int nr)
{
  return h->base + h->stride * (nr < h->rem ? nr * 2 + h->survivor : nr + h->rem);
}
/* A halving step of `half` blocks: keep_low if the caller has the lower new rank. */
coll_halving_step coll_halving_split(coll_halving *h, bool keep_low, int half);
/* A doubling step of `half` blocks (1, 2, ... p/2), keep_low as in the matching split. */
coll_halving_step coll_halving_unsplit(coll_halving *h, bool keep_low, int half);
/* MPICH's halving phase for new rank newrank: blocking exchanges with distance 1 first, the
 * received half (in tmp) folded into buf. */
void coll_halving_reduce_scatter(coll_ctx *x, const coll_args *a, coll_halving *h, int newrank,
                                 void *buf, void *tmp, const smpi_dt *dt, int tag);

/* Rabenseifner's own halving (SimGrid's rab; collectives/reduce/reduce_rab.c): each step
 * splits the range the caller holds, low half x/2 to the lower new rank. Level k of the
 * new rank's path: side 0 (low) / 1 (high) of its range, start and count in elements. */
typedef struct coll_rab {
  int n, r;    /* size = 2^n + r */
  int newrank; /* -1 for the fold's odd ranks */
  size_t start[2][31], cnt[2][31];
} coll_rab;
/* The fold and the n halving steps on buf (count elements, count > 0, size > 1): a
 * survivor ends with the result on [start[b][n-1], + cnt[b][n-1]), b its bit n-1. */
void coll_rab_halve(coll_ctx *x, const coll_args *a, coll_rab *s, void *buf, size_t count,
                    int tag);

#endif
