/* rma_pscw: generalized active-target synchronisation (MPI_Win_post / start / complete /
 * wait and MPI_Win_test): each rank exposes its window to its two neighbours and accesses
 * both of them, with Put, Get and Accumulate, several epochs in a row; then a star where
 * rank 0 is the only target and polls with MPI_Win_test. Any number of ranks >= 2 (run
 * with 4). */
#define MPITEST_NAME "rma_pscw"
#include "mpitest.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int mem[8];
  for (int i = 0; i < 8; i++)
    mem[i] = -1;
  MPI_Win win;
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, nbrs;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int nb[2] = {left, right};
  MPI_Group_incl(world, left == right ? 1 : 2, nb, &nbrs);

  for (int round = 0; round < 3; round++) {
    MPI_Win_post(nbrs, 0, win);
    MPI_Win_start(nbrs, 0, win);
    int v = 100 * round + rank;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win); /* my value into right's mem[0] */
    MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win);  /* and into left's mem[1] */
    int one = 1;
    MPI_Accumulate(&one, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    CHECK(mem[0] == 100 * round + left, "round %d: mem[0] = %d", round, mem[0]);
    CHECK(mem[1] == 100 * round + right, "round %d: mem[1] = %d", round, mem[1]);
    /* mem[2] started at -1 and gets +1 per round from the left neighbour */
    CHECK(mem[2] == round, "round %d: mem[2] = %d", round, mem[2]);
  }

  /* derived types on both sides: a resized vector at the origin into a struct-like indexed
   * layout at the right neighbour (ints 4 and 6) */
  {
    MPI_Datatype o2, t2;
    int bl[2] = {1, 1}, dp[2] = {4, 6};
    MPI_Type_vector(2, 1, 3, MPI_INT, &o2); /* src[0], src[3] */
    MPI_Type_indexed(2, bl, dp, MPI_INT, &t2);
    MPI_Type_commit(&o2);
    MPI_Type_commit(&t2);
    int src[4] = {rank, -1, -1, rank + 50};
    MPI_Win_post(nbrs, 0, win);
    MPI_Win_start(nbrs, 0, win);
    MPI_Put(src, 1, o2, right, 0, 1, t2, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    CHECK(mem[4] == left && mem[6] == left + 50 && mem[5] == -1, "derived put: %d %d (%d)",
          mem[4], mem[6], mem[5]);
    MPI_Type_free(&o2);
    MPI_Type_free(&t2);
  }

  /* a Get epoch: read the neighbours' mem[0] (which holds their left neighbour's value) */
  MPI_Win_post(nbrs, MPI_MODE_NOPUT, win);
  MPI_Win_start(nbrs, 0, win);
  int g[2] = {-9, -9};
  MPI_Get(&g[0], 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Get(&g[1], 1, MPI_INT, left, 0, 1, MPI_INT, win);
  MPI_Win_complete(win);
  CHECK(g[0] == 200 + rank, "get from right: %d", g[0]);
  CHECK(g[1] == 200 + (left + size - 1) % size, "get from left: %d", g[1]);
  MPI_Win_wait(win);

  /* star: every other rank puts into rank 0, which polls with MPI_Win_test */
  MPI_Group zero;
  int z = 0;
  MPI_Group_incl(world, 1, &z, &zero);
  if (rank == 0) {
    MPI_Group others;
    MPI_Group_excl(world, 1, &z, &others);
    for (int i = 0; i < 8; i++)
      mem[i] = 0;
    MPI_Win_post(others, 0, win);
    int flag = 0, polls = 0;
    while (!flag) {
      MPI_Win_test(win, &flag);
      polls++;
    }
    CHECK(polls >= 1, "polls %d", polls);
    for (int r = 1; r < size && r < 8; r++)
      CHECK(mem[r] == 10 * r, "star: mem[%d] = %d", r, mem[r]);
    MPI_Group_free(&others);
  } else {
    MPI_Win_start(zero, 0, win);
    int v = 10 * rank;
    if (rank < 8)
      MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
    MPI_Win_complete(win);
  }

  /* empty groups: an epoch with nobody */
  MPI_Win_post(MPI_GROUP_EMPTY, 0, win);
  MPI_Win_start(MPI_GROUP_EMPTY, 0, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);

  MPI_Group_free(&zero);
  MPI_Group_free(&nbrs);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  return mpitest_finalize();
}
