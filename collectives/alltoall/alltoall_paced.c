/* Alltoall(v) pair and ring, paced by barriers (STAR-MPI, A. Faraj; SimGrid's
 * {pair,ring}_{light,mpi,one}_barrier): the exchanges of alltoall_pair.c / alltoall_ring.c,
 * with the ranks kept in step in one of three ways.
 *
 *   one_barrier    the collective Barrier once, then steps 0 .. n-1
 *   mpi_barrier    the collective Barrier before every step 0 .. n-1
 *   light_barrier  step 0 (own block), then for i = 1 .. n-1: step i, and unless it is the
 *                  last one a 1-byte handshake with the partners of step i + 1
 *
 * Step i: pair exchanges with rank ^ i (power-of-two sizes only); ring sends to rank + i
 * and receives from rank - i. The ring's handshake goes the other way round: it sends to
 * its next source (rank - i - 1) and receives from its next destination (rank + i + 1), so
 * a rank only sends data to a peer that said it is ready for it. Example, ring on 4 ranks,
 * rank 1, light: self; data 1->2, 0->1; sync 1->0, 2->1; data 1->3, 3->1; sync 1->3, 3->1;
 * data 1->0, 2->1. The Barrier is the one configured or selected for MPI_Barrier. */
#include "collectives/coll_private.h"

typedef enum { PACE_ONE, PACE_MPI, PACE_LIGHT } pace_kind;

/* the block for peer p in sbuf and the one from p in rbuf: Alltoall (fixed counts) or
 * Alltoallv (counts and displacements per peer) */
static const void *sblock(const coll_args *a, bool v, int p, size_t *count)
{
  *count = v ? (size_t)a->scounts[p] : (size_t)a->scount;
  return coll_at(a->sbuf, v ? (size_t)a->sdispls[p] : (size_t)p * *count, a->sdt);
}
static void *rblock(const coll_args *a, bool v, int p, size_t *count)
{
  *count = v ? (size_t)a->rcounts[p] : (size_t)a->rcount;
  return coll_at(a->rbuf, v ? (size_t)a->rdispls[p] : (size_t)p * *count, a->rdt);
}

static int barrier(coll_ctx *x)
{
  coll_args b = {0};
  return coll_run(x, COLL_barrier, &b);
}

static int paced(coll_ctx *x, const coll_args *a, bool v, bool ring, pace_kind pace)
{
  int n = x->size, me = x->rank;
  int tag = v ? COLL_TAG_ALLTOALLV : COLL_TAG_ALLTOALL;
  char sync_out = 'a', sync_in = 0;
  if (pace == PACE_ONE) {
    int rc = barrier(x);
    if (rc)
      return rc;
  }
  for (int i = 0; i < n; i++) {
    int dst = ring ? (me + i) % n : me ^ i;
    int src = ring ? (me - i + n) % n : me ^ i;
    if (pace == PACE_MPI) {
      int rc = barrier(x);
      if (rc)
        return rc;
    }
    size_t sc, rc;
    const void *sb = sblock(a, v, dst, &sc);
    void *rb = rblock(a, v, src, &rc);
    coll_sendrecv(x, sb, sc, a->sdt, dst, rb, rc, a->rdt, src, tag);
    if (pace == PACE_LIGHT && i > 0 && i + 1 < n) {
      int to = ring ? (me - (i + 1) + n) % n : me ^ (i + 1);
      int from = ring ? (me + i + 1) % n : me ^ (i + 1);
      coll_sendrecv(x, &sync_out, 1, coll_byte(), to, &sync_in, 1, coll_byte(), from, tag);
    }
  }
  return x->err;
}

#define PACED(coll, v, kind, ring, pace) \
  int coll_##coll##_##kind(coll_ctx *x, const coll_args *a) { return paced(x, a, v, ring, pace); }
PACED(alltoall, false, pair_light_barrier, false, PACE_LIGHT)
PACED(alltoall, false, pair_mpi_barrier, false, PACE_MPI)
PACED(alltoall, false, pair_one_barrier, false, PACE_ONE)
PACED(alltoall, false, ring_light_barrier, true, PACE_LIGHT)
PACED(alltoall, false, ring_mpi_barrier, true, PACE_MPI)
PACED(alltoall, false, ring_one_barrier, true, PACE_ONE)
PACED(alltoallv, true, pair_light_barrier, false, PACE_LIGHT)
PACED(alltoallv, true, pair_mpi_barrier, false, PACE_MPI)
PACED(alltoallv, true, pair_one_barrier, false, PACE_ONE)
PACED(alltoallv, true, ring_light_barrier, true, PACE_LIGHT)
PACED(alltoallv, true, ring_mpi_barrier, true, PACE_MPI)
PACED(alltoallv, true, ring_one_barrier, true, PACE_ONE)
