/* coll_inter: collectives on an intercommunicator whose groups have different sizes
 * (A = world ranks 0-2, B = world ranks 3-6): Barrier, Bcast, Gather, Scatter, Reduce,
 * Allreduce, Allgather, Allgatherv, Alltoall, Alltoallv, Reduce_scatter_block, with the
 * rooted ones from each side (root = MPI_ROOT at the root, MPI_PROC_NULL at the rest of its
 * group, the root's rank in the other group). Every result is checked against values
 * computed from the senders' ranks (MPI 3.1 section 5.2.2: data flows between the groups;
 * e.g. Allreduce gives each group the reduction of the OTHER group's data). Runs on 7
 * ranks; plain MPI (passes under MPICH too). */
#define MPITEST_NAME "coll_inter"
#include "mpitest.h"

#include <stdlib.h>

#define SENTINEL (-5)
#define MAX 64

/* element j of what rank r of group side contributes */
static int f(int side, int r, int j) { return side * 1000 + r * 10 + j; }
/* element j of the block rank r of group side sends to remote rank i */
static int g(int side, int r, int i, int j) { return side * 1000 + r * 100 + i * 10 + j; }

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (wsize() != 7) {
    if (wrank() == 0)
      fprintf(stderr, "coll_inter: run with 7 ranks\n");
    MPI_Finalize();
    return 1;
  }
  int w = wrank(), side = w < 3 ? 0 : 1, other = !side;
  MPI_Comm half, ic;
  MPI_Comm_split(MPI_COMM_WORLD, side, w, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side ? 0 : 3, 42, &ic);
  int me, lsize, rsize, flag;
  MPI_Comm_rank(ic, &me);
  MPI_Comm_size(ic, &lsize);
  MPI_Comm_remote_size(ic, &rsize);
  MPI_Comm_test_inter(ic, &flag);
  CHECK(flag && lsize == (side ? 4 : 3) && rsize == (side ? 3 : 4), "intercomm %d %d %d", flag,
        lsize, rsize);
  int sbuf[MAX], rbuf[MAX], counts[8], displs[8], rcounts[8], rdispls[8];
  int rc;

  rc = MPI_Barrier(ic);
  CHECK(rc == MPI_SUCCESS, "barrier rc %d", rc);

  /* Bcast from A's rank 1, then from B's rank 2 */
  for (int from = 0; from < 2; from++) {
    int root_rank = from == 0 ? 1 : 2;
    int root = side == from ? (me == root_rank ? MPI_ROOT : MPI_PROC_NULL) : root_rank;
    for (int j = 0; j < 5; j++)
      rbuf[j] = root == MPI_ROOT ? f(from, root_rank, j) : SENTINEL;
    rc = MPI_Bcast(rbuf, 5, MPI_INT, root, ic);
    CHECK(rc == MPI_SUCCESS, "bcast rc %d", rc);
    for (int j = 0; j < 5; j++) {
      int want = root == MPI_PROC_NULL ? SENTINEL : f(from, root_rank, j);
      CHECK(rbuf[j] == want, "bcast from side %d: [%d] = %d, want %d", from, j, rbuf[j], want);
    }
  }

  /* Gather to A's rank 0 (3 ints from each of B's 4 ranks), then to B's rank 3 */
  for (int to = 0; to < 2; to++) {
    int root_rank = to == 0 ? 0 : 3;
    int root = side == to ? (me == root_rank ? MPI_ROOT : MPI_PROC_NULL) : root_rank;
    for (int j = 0; j < 3; j++)
      sbuf[j] = f(side, me, j);
    for (int j = 0; j < MAX; j++)
      rbuf[j] = SENTINEL;
    rc = MPI_Gather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, root, ic);
    CHECK(rc == MPI_SUCCESS, "gather rc %d", rc);
    if (root == MPI_ROOT)
      for (int i = 0; i < rsize; i++)
        for (int j = 0; j < 3; j++)
          CHECK(rbuf[i * 3 + j] == f(other, i, j), "gather to side %d: block %d[%d] = %d", to, i,
                j, rbuf[i * 3 + j]);
  }

  /* Scatter from A's rank 2 (2 ints to each of B's ranks), then from B's rank 0 */
  for (int from = 0; from < 2; from++) {
    int root_rank = from == 0 ? 2 : 0;
    int root = side == from ? (me == root_rank ? MPI_ROOT : MPI_PROC_NULL) : root_rank;
    for (int i = 0; i < rsize; i++)
      for (int j = 0; j < 2; j++)
        sbuf[i * 2 + j] = g(side, me, i, j);
    rbuf[0] = rbuf[1] = SENTINEL;
    rc = MPI_Scatter(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, root, ic);
    CHECK(rc == MPI_SUCCESS, "scatter rc %d", rc);
    if (side != from)
      for (int j = 0; j < 2; j++)
        CHECK(rbuf[j] == g(from, root_rank, me, j), "scatter from side %d: [%d] = %d", from, j,
              rbuf[j]);
    else
      CHECK(rbuf[0] == SENTINEL, "scatter: the root's group received something");
  }

  /* Reduce (sum) to B's rank 1, then to A's rank 2 */
  for (int to = 1; to >= 0; to--) {
    int root_rank = to == 1 ? 1 : 2;
    int root = side == to ? (me == root_rank ? MPI_ROOT : MPI_PROC_NULL) : root_rank;
    for (int j = 0; j < 4; j++) {
      sbuf[j] = f(side, me, j);
      rbuf[j] = SENTINEL;
    }
    rc = MPI_Reduce(sbuf, rbuf, 4, MPI_INT, MPI_SUM, root, ic);
    CHECK(rc == MPI_SUCCESS, "reduce rc %d", rc);
    if (root == MPI_ROOT)
      for (int j = 0; j < 4; j++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
          want += f(other, r, j);
        CHECK(rbuf[j] == want, "reduce to side %d: [%d] = %d, want %d", to, j, rbuf[j], want);
      }
  }

  /* Allreduce: each group gets the sum, and the max, of the other group's data */
  for (int j = 0; j < 4; j++)
    sbuf[j] = f(side, me, j);
  rc = MPI_Allreduce(sbuf, rbuf, 4, MPI_INT, MPI_SUM, ic);
  CHECK(rc == MPI_SUCCESS, "allreduce rc %d", rc);
  for (int j = 0; j < 4; j++) {
    int want = 0;
    for (int r = 0; r < rsize; r++)
      want += f(other, r, j);
    CHECK(rbuf[j] == want, "allreduce sum [%d] = %d, want %d", j, rbuf[j], want);
  }
  rc = MPI_Allreduce(sbuf, rbuf, 4, MPI_INT, MPI_MAX, ic);
  for (int j = 0; j < 4; j++)
    CHECK(rc == MPI_SUCCESS && rbuf[j] == f(other, rsize - 1, j), "allreduce max [%d] = %d", j,
          rbuf[j]);

  /* Allgather: 2 ints from every remote rank */
  for (int j = 0; j < 2; j++)
    sbuf[j] = f(side, me, j);
  for (int j = 0; j < MAX; j++)
    rbuf[j] = SENTINEL;
  rc = MPI_Allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, ic);
  CHECK(rc == MPI_SUCCESS, "allgather rc %d", rc);
  for (int i = 0; i < rsize; i++)
    for (int j = 0; j < 2; j++)
      CHECK(rbuf[i * 2 + j] == f(other, i, j), "allgather block %d[%d] = %d", i, j,
            rbuf[i * 2 + j]);
  CHECK(rbuf[rsize * 2] == SENTINEL, "allgather wrote past the end");

  /* Allgatherv: remote rank i sends i + 1 ints; blocks stored backwards with gaps */
  for (int j = 0; j < me + 1; j++)
    sbuf[j] = f(side, me, j);
  int pos = 0;
  for (int i = rsize - 1; i >= 0; i--) {
    rcounts[i] = i + 1;
    rdispls[i] = pos + 1;
    pos += i + 2;
  }
  for (int j = 0; j < MAX; j++)
    rbuf[j] = SENTINEL;
  rc = MPI_Allgatherv(sbuf, me + 1, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, ic);
  CHECK(rc == MPI_SUCCESS, "allgatherv rc %d", rc);
  for (int i = 0; i < rsize; i++) {
    for (int j = 0; j < rcounts[i]; j++)
      CHECK(rbuf[rdispls[i] + j] == f(other, i, j), "allgatherv block %d[%d] = %d", i, j,
            rbuf[rdispls[i] + j]);
    CHECK(rbuf[rdispls[i] - 1] == SENTINEL, "allgatherv wrote into a gap");
  }

  /* Alltoall: 3 ints to and from each remote rank */
  for (int i = 0; i < rsize; i++)
    for (int j = 0; j < 3; j++)
      sbuf[i * 3 + j] = g(side, me, i, j);
  rc = MPI_Alltoall(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic);
  CHECK(rc == MPI_SUCCESS, "alltoall rc %d", rc);
  for (int i = 0; i < rsize; i++)
    for (int j = 0; j < 3; j++)
      CHECK(rbuf[i * 3 + j] == g(other, i, me, j), "alltoall block %d[%d] = %d", i, j,
            rbuf[i * 3 + j]);

  /* Alltoallv: (sender + receiver) % 3 + 1 ints per pair, blocks backwards with gaps */
  pos = 0;
  for (int i = rsize - 1; i >= 0; i--) {
    counts[i] = (me + i) % 3 + 1;
    displs[i] = pos;
    for (int j = 0; j < counts[i]; j++)
      sbuf[pos + j] = g(side, me, i, j);
    pos += counts[i] + 1;
  }
  pos = 0;
  for (int i = rsize - 1; i >= 0; i--) {
    rcounts[i] = (me + i) % 3 + 1;
    rdispls[i] = pos + 1;
    pos += rcounts[i] + 1;
  }
  for (int j = 0; j < MAX; j++)
    rbuf[j] = SENTINEL;
  rc = MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, ic);
  CHECK(rc == MPI_SUCCESS, "alltoallv rc %d", rc);
  for (int i = 0; i < rsize; i++)
    for (int j = 0; j < rcounts[i]; j++)
      CHECK(rbuf[rdispls[i] + j] == g(other, i, me, j), "alltoallv block %d[%d] = %d", i, j,
            rbuf[rdispls[i] + j]);

  /* Reduce_scatter_block: vectors of 12 ints (A: 3 ranks x 4, B: 4 ranks x 3); B's rank b
   * gets elements 3b..3b+2 of the sum of A's vectors, and vice versa */
  int rcount = side ? 3 : 4;
  for (int k = 0; k < 12; k++)
    sbuf[k] = f(side, me, k);
  rc = MPI_Reduce_scatter_block(sbuf, rbuf, rcount, MPI_INT, MPI_SUM, ic);
  CHECK(rc == MPI_SUCCESS, "reduce_scatter_block rc %d", rc);
  for (int j = 0; j < rcount; j++) {
    int want = 0;
    for (int r = 0; r < rsize; r++)
      want += f(other, r, me * rcount + j);
    CHECK(rbuf[j] == want, "reduce_scatter_block [%d] = %d, want %d", j, rbuf[j], want);
  }

  /* a duplicate (its creation already used the groups' local communicators) */
  MPI_Comm ic2;
  MPI_Comm_dup(ic, &ic2);
  for (int j = 0; j < 4; j++)
    sbuf[j] = f(side, me, j);
  rc = MPI_Allreduce(sbuf, rbuf, 4, MPI_INT, MPI_MIN, ic2);
  for (int j = 0; j < 4; j++)
    CHECK(rc == MPI_SUCCESS && rbuf[j] == f(other, 0, j), "allreduce min on a dup [%d] = %d", j,
          rbuf[j]);
  MPI_Comm_free(&ic2);

  /* a root that is neither MPI_ROOT, MPI_PROC_NULL nor a remote rank */
  MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
  rc = MPI_Bcast(rbuf, 1, MPI_INT, rsize, ic);
  CHECK(class_of(rc) == MPI_ERR_ROOT, "bcast with root %d: error class %d", rsize, class_of(rc));

  rc = MPI_Barrier(ic);
  CHECK(rc == MPI_SUCCESS, "barrier rc %d", rc);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);
  return mpitest_finalize();
}
