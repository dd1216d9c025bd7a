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
  MPI_Rget_accumulate(&two, 1, MPI_INT, &old, 1, MPI_INT, 0, 41, 1, MPI_INT, MPI_SUM, win, &r2[1]);
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

  free(rq);
  free(got);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  int ok = all_ok(failures == 0);
  if (rank == 0 && ok)
    printf("rma_lock: OK\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}
