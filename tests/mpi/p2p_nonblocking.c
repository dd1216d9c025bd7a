/* p2p_nonblocking: the multiple-completion calls. Rank 0 posts receives from every other
 * rank on several tags and completes them with MPI_Waitany, MPI_Waitsome, MPI_Testany,
 * MPI_Testsome and MPI_Testall; every index is reported exactly once, with the right
 * status and data, and completed requests become MPI_REQUEST_NULL. Arrays with null
 * requests, and all-null arrays (MPI_UNDEFINED). Needs 2 ranks or more. */
#define MPITEST_NAME "p2p_nonblocking"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAGS 4

static int value(int src, int tag, int round) { return 10000 * round + 100 * src + tag; }

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size >= 2, "2 ranks or more");
  int n = (size - 1) * TAGS;
  for (int round = 0; round < 5; round++) {
    if (rank == 0) {
      MPI_Request *rq = malloc((size_t)n * sizeof *rq);
      int *data = malloc((size_t)n * sizeof *data), *seen = calloc((size_t)n, sizeof *seen);
      int *idx = malloc((size_t)n * sizeof *idx);
      MPI_Status *sts = malloc((size_t)n * sizeof *sts);
      for (int i = 0; i < n; i++) {
        data[i] = -1;
        MPI_Irecv(&data[i], 1, MPI_INT, 1 + i / TAGS, i % TAGS, MPI_COMM_WORLD, &rq[i]);
      }
      int go = round;
      for (int r = 1; r < size; r++) /* senders wait for this: receives are all posted */
        MPI_Send(&go, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
      int done = 0;
      while (done < n) {
        int k = 0, flag = 0, out = 0;
        MPI_Status st;
        switch (round) {
        case 0:
          MPI_Waitany(n, rq, &k, &st);
          idx[0] = k;
          sts[0] = st;
          out = 1;
          break;
        case 1:
          MPI_Waitsome(n, rq, &out, idx, sts);
          break;
        case 2:
          MPI_Testany(n, rq, &k, &flag, &st);
          out = flag && k != MPI_UNDEFINED;
          idx[0] = k;
          sts[0] = st;
          break;
        case 3:
          MPI_Testsome(n, rq, &out, idx, sts);
          break;
        case 4:
          MPI_Testall(n, rq, &flag, sts);
          if (flag)
            for (int i = 0; i < n; i++)
              idx[out++] = i;
          break;
        }
        CHECK(out != MPI_UNDEFINED, "round %d: MPI_UNDEFINED with %d requests left", round,
              n - done);
        for (int j = 0; j < out; j++) {
          int i = idx[j];
          const MPI_Status *s = round == 4 ? &sts[i] : &sts[j];
          CHECK(i >= 0 && i < n && !seen[i], "round %d: index %d reported twice", round, i);
          if (i < 0 || i >= n)
            continue;
          seen[i] = 1;
          CHECK(rq[i] == MPI_REQUEST_NULL, "round %d: request %d not freed", round, i);
          CHECK(data[i] == value(1 + i / TAGS, i % TAGS, round), "round %d: data[%d] = %d", round,
                i, data[i]);
          CHECK(s->MPI_SOURCE == 1 + i / TAGS && s->MPI_TAG == i % TAGS,
                "round %d: status of %d: %d %d", round, i, s->MPI_SOURCE, s->MPI_TAG);
        }
        done += out;
      }
      /* everything null now */
      int k, flag, out;
      MPI_Waitany(n, rq, &k, MPI_STATUS_IGNORE);
      CHECK(k == MPI_UNDEFINED, "Waitany on nulls: %d", k);
      MPI_Testany(n, rq, &k, &flag, MPI_STATUS_IGNORE);
      CHECK(k == MPI_UNDEFINED && flag, "Testany on nulls: %d %d", k, flag);
      MPI_Waitsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
      CHECK(out == MPI_UNDEFINED, "Waitsome on nulls: %d", out);
      MPI_Testsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
      CHECK(out == MPI_UNDEFINED, "Testsome on nulls: %d", out);
      MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE);
      CHECK(flag, "Testall on nulls");
      MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
      free(rq);
      free(data);
      free(seen);
      free(idx);
      free(sts);
    } else {
      int go;
      MPI_Recv(&go, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      /* tags in reverse order, some as nonblocking sends completed together */
      MPI_Request srq[TAGS];
      int v[TAGS];
      for (int t = TAGS - 1; t >= 0; t--) {
        v[t] = value(rank, t, round);
        if (t % 2)
          MPI_Isend(&v[t], 1, MPI_INT, 0, t, MPI_COMM_WORLD, &srq[t]);
        else {
          MPI_Send(&v[t], 1, MPI_INT, 0, t, MPI_COMM_WORLD);
          srq[t] = MPI_REQUEST_NULL;
        }
      }
      MPI_Waitall(TAGS, srq, MPI_STATUSES_IGNORE);
    }
  }
  return mpitest_finalize();
}
