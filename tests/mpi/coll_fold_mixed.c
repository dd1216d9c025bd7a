/* coll_fold_mixed: collectives that forward other ranks' blocks through their scratch (Bruck's
 * Alltoall and Allgather, Open MPI's Allgatherv) skip blocks whose content does not matter (collectives/coll_private.h, "Blocks
 * whose content does not matter"); here the ranks mix every kind of buffer, and each private
 * block still arrives where it is due, with every algorithm.
 *
 * Rank r of a communicator of n ranks, blocks of B ints:
 *   send buffer   r % 4 == 0  folded (SMPI_SHARED_MALLOC)
 *                 r % 4 == 2  partly folded: the blocks for even ranks
 *                 otherwise   private
 *   receive       r % 3 == 2  folded, otherwise private
 * Allgather(v): one block, folded when r % 4 == 0; receive buffers private (Allgatherv:
 * blocks in reverse rank order).
 * A block from origin o to destination d holds o, d and its index when o's block is private;
 * d checks every such block it receives into private memory (the others are meaningless:
 * a simulator may leave anything there). Blocks are a page (4 KiB), so that partial folding
 * folds exactly the blocks listed. Communicators: the world (13 ranks in the test: uneven
 * Bruck steps) and its first 8 ranks. Under a real MPI the macros allocate private memory
 * and every block is checked. */
#define MPITEST_NAME "coll_fold_mixed"
#include "mpitest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SMPI_VERSION_MAJOR
#define SMPI_SHARED_MALLOC(n) calloc(1, n)
#define SMPI_PARTIAL_SHARED_MALLOC(n, offsets, count) calloc(1, n)
#define SMPI_SHARED_FREE(p) free(p)
#define FOLDING 0
#else
#define FOLDING 1
#endif

extern const char *smpi_coll_algorithm_name(const char *coll, int i) __attribute__((weak));
extern int smpi_coll_force(const char *coll, const char *name) __attribute__((weak));

#define B 1024 /* ints per block: 4 KiB */

/* gather: 0 Alltoall, 1 Allgather, 2 Allgatherv (one block for every destination, d = -1);
 * a parameter, not a global, since without privatization the ranks share globals */
static const char *const colls[] = {"alltoall", "allgather", "allgatherv"};

static bool send_folded(int gather, int o, int d)
{
  return FOLDING && (o % 4 == 0 || (!gather && o % 4 == 2 && d % 2 == 0));
}
/* not in Allgather: most algorithms forward blocks out of the receive buffer, and what
 * passes through folded memory is lost, in any simulator */
static bool recv_folded(int gather, int d) { return FOLDING && !gather && d % 3 == 2; }
static int value(int o, int d, int i) { return o * 1000003 + d * 1009 + i; }

static int *send_buffer(int gather, int me, int n)
{
  int blocks = gather ? 1 : n;
  size_t bytes = (size_t)blocks * B * sizeof(int);
  int *s;
  if (me % 4 == 0) {
    s = SMPI_SHARED_MALLOC(bytes);
  } else if (me % 4 == 2 && !gather) {
    size_t off[2 * 64], k = 0;
    for (int d = 0; d < n; d += 2) {
      off[k++] = (size_t)d * B * sizeof(int);
      off[k++] = (size_t)(d + 1) * B * sizeof(int);
    }
    s = SMPI_PARTIAL_SHARED_MALLOC(bytes, off, (int)(k / 2));
  } else {
    s = malloc(bytes);
  }
  for (int j = 0; j < blocks; j++)
    if (!send_folded(gather, me, gather ? -1 : j))
      for (int i = 0; i < B; i++)
        s[(size_t)j * B + i] = value(me, gather ? -1 : j, i);
  return s;
}

static long check(int gather, MPI_Comm comm, const char *algo)
{
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int *s = send_buffer(gather, me, n);
  size_t bytes = (size_t)n * B * sizeof(int);
  int *r = recv_folded(gather, me) ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes);
  if (!recv_folded(gather, me))
    memset(r, 0xff, bytes);
  long bad = 0;
  int counts[64], displs[64];
  for (int o = 0; o < n; o++) {
    counts[o] = B;
    displs[o] = (n - 1 - o) * B;
  }
  int rc = gather == 2   ? MPI_Allgatherv(s, B, MPI_INT, r, counts, displs, MPI_INT, comm)
           : gather == 1 ? MPI_Allgather(s, B, MPI_INT, r, B, MPI_INT, comm)
                         : MPI_Alltoall(s, B, MPI_INT, r, B, MPI_INT, comm);
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "coll_fold_mixed: %s on %d ranks returned %d\n", algo, n, rc);
    bad++;
  }
  for (int o = 0; o < n && !recv_folded(gather, me); o++) {
    int d = gather ? -1 : me;
    if (send_folded(gather, o, d))
      continue;
    const int *got = r + (gather == 2 ? (size_t)displs[o] : (size_t)o * B);
    for (int i = 0; i < B; i++)
      if (got[i] != value(o, d, i)) {
        if (bad < 3)
          fprintf(stderr,
                  "coll_fold_mixed: %s %s on %d ranks: rank %d, block from %d, int %d: %d, "
                  "want %d\n",
                  colls[gather], algo, n, me, o, i, got[i], value(o, d, i));
        bad++;
        break;
      }
  }
  if (me % 4 == 0 || (me % 4 == 2 && !gather))
    SMPI_SHARED_FREE(s);
  else
    free(s);
  if (recv_folded(gather, me))
    SMPI_SHARED_FREE(r);
  else
    free(r);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  if (wsize > 64) { /* the fixed arrays of the checks */
    if (wrank == 0)
      fprintf(stderr, "coll_fold_mixed: at most 64 ranks, not %d\n", wsize);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, wrank < 8 ? 0 : MPI_UNDEFINED, wrank, &half);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, half};
  long bad = 0;
  for (int gather = 0; gather < 3; gather++) {
    for (int ci = 0; ci < 2; ci++) {
      if (comms[ci] == MPI_COMM_NULL)
        continue;
      for (int ai = 0;; ai++) {
        const char *algo = smpi_coll_algorithm_name ? smpi_coll_algorithm_name(colls[gather], ai)
                                                    : (ai == 0 ? "native" : NULL);
        if (!algo)
          break;
        if (smpi_coll_force)
          smpi_coll_force(colls[gather], algo);
        bad += check(gather, comms[ci], algo);
      }
      if (smpi_coll_force)
        smpi_coll_force(colls[gather], NULL);
    }
  }
  if (half != MPI_COMM_NULL)
    MPI_Comm_free(&half);
  long all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (wrank == 0) {
    if (all)
      fprintf(stderr, "coll_fold_mixed: %ld wrong blocks\n", all);
    else
      printf("coll_fold_mixed: OK\n");
  }
  MPI_Finalize();
  return all ? 1 : 0;
}
