/* rma_lock: passive-target communication. An exclusive lock really serialises: every rank
 * increments a counter at rank 0 with a Get, a flush and a Put (no atomic operation) under
 * MPI_LOCK_EXCLUSIVE, and no increment is lost. Shared locks let everybody read at once;
 * MPI_Win_lock_all with the request-based operations (Rput, Rget, Raccumulate,
 * Rget_accumulate) completed by MPI_Wait/Waitall, MPI_Win_flush(_all), flush_local(_all)
 * and MPI_Win_sync; a lock on one's own window; MPI_MODE_NOCHECK. Run with 4 ranks. */
#define MPITEST_NAME "rma_lock"
#include "mpitest.h"

#include <stdlib.h>

#define K 5

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int *mem;
  MPI_Win win;
  MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  for (int i = 0; i < 64; i++)
    mem[i] = 0;
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* read-modify-write under the exclusive lock: a lost update would show */
  for (int k = 0; k < K; k++) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    int v = -1;
    MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_flush(0, win);
    v++;
    MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(mem[0] == size * K, "exclusive counter %d, expected %d", mem[0], size * K);
    MPI_Win_unlock(0, win);
  }

  /* shared locks: everybody reads rank 0's counter at once */
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  int c = -1;
  MPI_Get(&c, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
  MPI_Win_unlock(0, win);
  CHECK(c == size * K, "shared read %d", c);
  MPI_Barrier(MPI_COMM_WORLD);

  /* lock_all and the request-based operations: each rank writes its slot everywhere */
  MPI_Win_lock_all(0, win);
  MPI_Request *rq = malloc((size_t)size * sizeof *rq);
  int val = 10 + rank;
  for (int t = 0; t < size; t++)
    MPI_Rput(&val, 1, MPI_INT, t, 1 + rank, 1, MPI_INT, win, &rq[t]);
  MPI_Waitall(size, rq, MPI_STATUSES_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Win_sync(win);
  for (int r = 0; r < size && r < 32; r++)
    CHECK(mem[1 + r] == 10 + r, "rput slot %d: %d", r, mem[1 + r]);
  int *got = malloc((size_t)size * sizeof *got);
  for (int t = 0; t < size; t++) {
    got[t] = -1;
    MPI_Rget(&got[t], 1, MPI_INT, t, 1 + rank, 1, MPI_INT, win, &rq[t]);
  }
  for (int t = 0; t < size; t++)
    MPI_Wait(&rq[t], MPI_STATUS_IGNORE);
  for (int t = 0; t < size; t++)
    CHECK(got[t] == 10 + rank, "rget from %d: %d", t, got[t]);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* Raccumulate and Rget_accumulate into rank 0's mem[40] */
  MPI_Win_lock_all(0, win);
  int one = 1, old = -1, two = 2;
  MPI_Request r2[2];
  MPI_Raccumulate(&one, 1, MPI_INT, 0, 40, 1, MPI_INT, MPI_SUM, win, &r2[0]);
  MPI_Rget_accumulate(&two, 1, MPI_INT, &old, 1, MPI_INT, 0, 41, 1, MPI_INT, MPI_SUM, win,
                      &r2[1]);
  MPI_Waitall(2, r2, MPI_STATUSES_IGNORE);
  CHECK(old >= 0 && old <= 2 * (size - 1) && old % 2 == 0, "rget_accumulate old %d", old);
  MPI_Win_flush_local_all(win);
  MPI_Win_flush_local(0, win);
  MPI_Win_flush(0, win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(mem[40] == size, "raccumulate total %d", mem[40]);
    CHECK(mem[41] == 2 * size, "rget_accumulate total %d", mem[41]);
    MPI_Win_unlock(0, win);
  }

  /* several targets locked at once, then flushed one by one */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  if (left != right)
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
  int v50 = 500 + rank;
  MPI_Accumulate(&v50, 1, MPI_INT, right, 50, 1, MPI_INT, MPI_REPLACE, win);
  MPI_Win_flush(right, win);
  int back = -1;
  MPI_Get(&back, 1, MPI_INT, right, 50, 1, MPI_INT, win);
  MPI_Win_flush_local(right, win);
  CHECK(back == 500 + rank, "flush then get: %d", back);
  if (left != right)
    MPI_Win_unlock(left, win);
  MPI_Win_unlock(right, win);

  /* non-contiguous on both sides: Rget_accumulate of a strided origin into a vector at
   * the target, the old values coming back into a strided result buffer */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Datatype tvec, ovec;
  MPI_Type_vector(3, 1, 4, MPI_INT, &tvec); /* target ints 20, 24, 28 */
  MPI_Type_vector(3, 1, 2, MPI_INT, &ovec); /* origin / result ints 0, 2, 4 */
  MPI_Type_commit(&tvec);
  MPI_Type_commit(&ovec);
  int oadd[6] = {1, -1, 10, -1, 100, -1}, oldv[6] = {-5, -5, -5, -5, -5, -5};
  if (rank == size - 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Request q;
    MPI_Rget_accumulate(oadd, 1, ovec, oldv, 1, ovec, 0, 20, 1, tvec, MPI_SUM, win, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Win_unlock(0, win);
    CHECK(oldv[0] == 0 && oldv[2] == 0 && oldv[4] == 0 && oldv[1] == -5 && oldv[3] == -5,
          "strided result %d %d %d (gaps %d %d)", oldv[0], oldv[2], oldv[4], oldv[1], oldv[3]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(mem[20] == 1 && mem[24] == 10 && mem[28] == 100 && mem[21] == 0 && mem[25] == 0,
          "vector accumulate at the target: %d %d %d", mem[20], mem[24], mem[28]);
    MPI_Win_unlock(0, win);
  }
  MPI_Type_free(&tvec);
  MPI_Type_free(&ovec);

  /* a Put above the eager size: flush_local returns once the data left, and the origin
   * buffer may then be reused without changing what lands */
  MPI_Barrier(MPI_COMM_WORLD);
  {
    int n = 1 << 16; /* 256 KiB */
    int *big = malloc((size_t)n * sizeof *big), *land;
    MPI_Win bw;
    MPI_Win_allocate((MPI_Aint)n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &land,
                     &bw);
    for (int i = 0; i < n; i++)
      big[i] = i ^ rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, bw);
    MPI_Put(big, n, MPI_INT, right, 0, n, MPI_INT, bw);
    MPI_Win_flush_local(right, bw);
    for (int i = 0; i < n; i++)
      big[i] = -1;
    MPI_Win_unlock(right, bw);
    MPI_Barrier(MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < n; i++)
      bad += land[i] != (i ^ left);
    CHECK(bad == 0, "large put: %d ints wrong", bad);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&bw);
    free(big);
  }

  /* exclusive locks against lock_all epochs: even ranks increment a plain counter at rank
   * 1 under MPI_LOCK_EXCLUSIVE while odd ranks read it and fetch-and-add another one under
   * MPI_Win_lock_all (a shared lock on every rank) */
  {
    long *cm;
    MPI_Win cw;
    MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &cm, &cw);
    cm[0] = cm[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int t = 1 % size;
    for (int k = 0; k < K; k++) {
      if (rank % 2 == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, cw);
        long c2 = -1;
        MPI_Get(&c2, 1, MPI_LONG, t, 0, 1, MPI_LONG, cw);
        MPI_Win_flush(t, cw);
        c2++;
        MPI_Put(&c2, 1, MPI_LONG, t, 0, 1, MPI_LONG, cw);
        MPI_Win_unlock(t, cw);
      } else {
        MPI_Win_lock_all(0, cw);
        long one1 = 1, o1 = -1, seen = -1;
        MPI_Fetch_and_op(&one1, &o1, MPI_LONG, t, 1, MPI_SUM, cw);
        MPI_Get(&seen, 1, MPI_LONG, t, 0, 1, MPI_LONG, cw);
        MPI_Win_unlock_all(cw);
        CHECK(seen >= 0 && seen <= (long)K * ((size + 1) / 2), "counter seen %ld", seen);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == t) {
      CHECK(cm[0] == (long)K * ((size + 1) / 2), "exclusive counter %ld", cm[0]);
      CHECK(cm[1] == (long)K * (size / 2), "fetch-and-op counter %ld", cm[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&cw);
  }

  free(rq);
  free(got);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  return mpitest_finalize();
}
