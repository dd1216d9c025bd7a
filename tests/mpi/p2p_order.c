/* p2p_order: MPI's non-overtaking rule. Ranks 1 and 2 each send rank 0 a stream of
 * messages on two tags, alternating small (detached) and large (rendezvous) sizes, all
 * nonblocking; rank 0 receives them with exact source and tag, with MPI_ANY_TAG, and with
 * MPI_ANY_SOURCE, and checks that per (source, tag) the sequence numbers only increase.
 * Needs 3 ranks. */
#define MPITEST_NAME "p2p_order"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 60      /* messages per sender and tag */
#define BIG 20000 /* ints: 80000 bytes, above the 65536-byte rendezvous threshold */

static int len_of(int seq) { return seq % 3 == 2 ? BIG : 1 + seq % 5; }

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size == 3, "3 ranks");
  if (rank > 0) {
    /* each message: [seq, tag, rank, ...padding] */
    MPI_Request *rq = malloc(2 * N * sizeof *rq);
    int **bufs = malloc(2 * N * sizeof *bufs);
    for (int i = 0; i < N; i++)
      for (int t = 0; t < 2; t++) {
        int k = 2 * i + t;
        int n = len_of(i);
        bufs[k] = calloc((size_t)n, sizeof(int));
        bufs[k][0] = i;
        if (n > 1)
          bufs[k][1] = t;
        if (n > 2)
          bufs[k][2] = rank;
        MPI_Isend(bufs[k], n, MPI_INT, 0, t, MPI_COMM_WORLD, &rq[k]);
      }
    MPI_Waitall(2 * N, rq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 2 * N; k++)
      free(bufs[k]);
    free(bufs);
    free(rq);
  } else {
    int *buf = malloc(BIG * sizeof(int));
    int next[3][2] = {{0}}; /* next expected seq per (source, tag) */
    MPI_Status st;
    /* 1. from rank 1, tag 1 only: the tag-0 messages stay queued */
    for (int i = 0; i < N / 2; i++) {
      MPI_Recv(buf, BIG, MPI_INT, 1, 1, MPI_COMM_WORLD, &st);
      CHECK(buf[0] == next[1][1], "exact: got seq %d, expected %d", buf[0], next[1][1]);
      next[1][1] = buf[0] + 1;
    }
    /* 2. from rank 2, any tag */
    for (int i = 0; i < N / 2; i++) {
      MPI_Recv(buf, BIG, MPI_INT, 2, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int t = st.MPI_TAG;
      CHECK(t == 0 || t == 1, "tag %d", t);
      CHECK(buf[0] == next[2][t], "any tag: src 2 tag %d got seq %d, expected %d", t, buf[0],
            next[2][t]);
      next[2][t] = buf[0] + 1;
    }
    /* 3. tag 0 from anyone, with nonblocking receives posted in a batch */
    {
      MPI_Request rq[10];
      static int b[10][BIG];
      MPI_Status sts[10];
      for (int i = 0; i < 10; i++)
        MPI_Irecv(b[i], BIG, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &rq[i]);
      MPI_Waitall(10, rq, sts);
      for (int i = 0; i < 10; i++) {
        int s = sts[i].MPI_SOURCE;
        CHECK(s == 1 || s == 2, "source %d", s);
        CHECK(b[i][0] == next[s][0], "any source: src %d got seq %d, expected %d", s, b[i][0],
              next[s][0]);
        next[s][0] = b[i][0] + 1;
      }
    }
    /* 4. everything left, fully wild */
    int left = 4 * N - N / 2 - N / 2 - 10;
    for (int i = 0; i < left; i++) {
      MPI_Recv(buf, BIG, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int s = st.MPI_SOURCE, t = st.MPI_TAG, n;
      MPI_Get_count(&st, MPI_INT, &n);
      CHECK(n == len_of(buf[0]), "length %d for seq %d", n, buf[0]);
      if (n > 2)
        CHECK(buf[1] == t && buf[2] == s, "payload says tag %d rank %d", buf[1], buf[2]);
      CHECK(buf[0] == next[s][t], "wild: src %d tag %d got seq %d, expected %d", s, t, buf[0],
            next[s][t]);
      next[s][t] = buf[0] + 1;
    }
    for (int s = 1; s <= 2; s++)
      for (int t = 0; t < 2; t++)
        CHECK(next[s][t] == N, "src %d tag %d: %d messages", s, t, next[s][t]);
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message is left over");
    free(buf);
  }
  return mpitest_finalize();
}
