/* rma_atomic: concurrent accumulates from every rank on the same locations are atomic per
 * element: M MPI_SUM accumulates of 1 (and of a 64-element vector) from each rank under a
 * shared lock_all lose nothing; M MPI_Fetch_and_op tickets per rank are all distinct; a spin
 * lock made of MPI_Compare_and_swap protects a non-atomic Get/Put increment; MPI_MAX
 * through Get_accumulate; accumulates of one origin keep their order (MPI_REPLACE then
 * MPI_SUM on the same element). Run with 8 ranks. */
#define MPITEST_NAME "rma_atomic"
#include "mpitest.h"

#include <stdlib.h>

#define M 20
#define V 64

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  long *mem;
  MPI_Win win;
  MPI_Win_allocate((V + 16) * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                   &win);
  for (int i = 0; i < V + 16; i++)
    mem[i] = 0;
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Win_lock_all(0, win);
  long one = 1, vec[V];
  for (int i = 0; i < V; i++)
    vec[i] = i + 1;
  long *tickets = malloc(M * sizeof *tickets);
  for (int k = 0; k < M; k++) {
    MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Accumulate(vec, V, MPI_LONG, 0, 16, V, MPI_LONG, MPI_SUM, win);
    MPI_Fetch_and_op(&one, &tickets[k], MPI_LONG, size - 1, 1, MPI_SUM, win);
    MPI_Win_flush(size - 1, win);
  }
  /* Get_accumulate with MPI_MAX: the maximum of everybody's value survives */
  long mine = 1000 + (rank * 5) % size, prev;
  MPI_Get_accumulate(&mine, 1, MPI_LONG, &prev, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_MAX, win);
  MPI_Win_flush_all(win);

  /* spin lock at rank 0's mem[3] (0 = free), protecting a plain counter at mem[4] */
  for (int k = 0; k < 3; k++) {
    long want = rank + 1, zero = 0, got = -1;
    do {
      MPI_Compare_and_swap(&want, &zero, &got, MPI_LONG, 0, 3, win);
      MPI_Win_flush(0, win);
    } while (got != 0);
    long c = -1;
    MPI_Get(&c, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    c++;
    MPI_Put(&c, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    long freed = 0, was = -1;
    MPI_Fetch_and_op(&freed, &was, MPI_LONG, 0, 3, MPI_REPLACE, win);
    MPI_Win_flush(0, win);
    CHECK(was == rank + 1, "spin lock held by %ld, not by me", was);
  }

  /* ordering of one origin's accumulates: REPLACE then SUM lands in that order */
  if (rank == 1 % size) {
    long seven = 7, three = 3;
    MPI_Accumulate(&seven, 1, MPI_LONG, 0, 5, 1, MPI_LONG, MPI_REPLACE, win);
    MPI_Accumulate(&three, 1, MPI_LONG, 0, 5, 1, MPI_LONG, MPI_SUM, win);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 0) {
    CHECK(mem[0] == (long)size * M, "sum of ones %ld, expected %ld", mem[0], (long)size * M);
    for (int i = 0; i < V; i++)
      CHECK(mem[16 + i] == (long)size * M * (i + 1), "vector sum [%d] = %ld", i, mem[16 + i]);
    long best = 0;
    for (int r = 0; r < size; r++)
      if (1000 + (r * 5) % size > best)
        best = 1000 + (r * 5) % size;
    CHECK(mem[2] == best, "max %ld, expected %ld", mem[2], best);
    CHECK(mem[3] == 0, "spin lock left held by %ld", mem[3]);
    CHECK(mem[4] == 3L * size, "lock-protected counter %ld, expected %ld", mem[4], 3L * size);
    CHECK(mem[5] == 10, "ordered accumulates gave %ld, expected 10", mem[5]);
  }
  if (rank == size - 1)
    CHECK(mem[1] == (long)size * M, "fetch_and_op total %ld", mem[1]);

  /* all tickets distinct: gather them at rank 0 */
  long *all = rank == 0 ? malloc((size_t)size * M * sizeof *all) : NULL;
  MPI_Gather(tickets, M, MPI_LONG, all, M, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char *seen = calloc((size_t)size * M, 1);
    for (int i = 0; i < size * M; i++) {
      long t = all[i];
      CHECK(t >= 0 && t < (long)size * M && !seen[t], "ticket %ld repeated or out of range", t);
      if (t >= 0 && t < (long)size * M)
        seen[t] = 1;
    }
    free(seen);
    free(all);
  }
  for (int k = 1; k < M; k++)
    CHECK(tickets[k] > tickets[k - 1], "my tickets not increasing");
  free(tickets);
  MPI_Win_free(&win);
  return mpitest_finalize();
}
