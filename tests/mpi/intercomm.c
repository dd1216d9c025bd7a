/* intercomm: intercommunicators between the even and the odd ranks — Intercomm_create
 * (leaders found through MPI_COMM_WORLD), Comm_test_inter, Comm_remote_size/group, messages
 * across (addressed by remote rank, source reported as the sender's local rank), Comm_dup
 * of an intercommunicator, Comm_compare, and Intercomm_merge in both orders. Needs at least
 * 2 ranks; no collective. */
#include <stdlib.h>

#define MPITEST_NAME "intercomm"
#include "mpitest.h"

/* Sends my world rank to every remote rank and checks what comes back from each. */
static void exchange(MPI_Comm inter, int local_n, int remote_n, int tag)
{
  int rank = wrank();
  int me;
  MPI_Comm_rank(inter, &me);
  int *got = malloc((size_t)remote_n * sizeof *got);
  MPI_Request *rq = malloc(2 * (size_t)remote_n * sizeof *rq);
  for (int i = 0; i < remote_n; i++) {
    MPI_Irecv(&got[i], 1, MPI_INT, i, tag, inter, &rq[i]);
    MPI_Isend(&rank, 1, MPI_INT, i, tag, inter, &rq[remote_n + i]);
  }
  MPI_Status *st = malloc(2 * (size_t)remote_n * sizeof *st);
  MPI_Waitall(2 * remote_n, rq, st);
  /* the remote group is the other parity, in increasing order */
  for (int i = 0; i < remote_n; i++) {
    int expect = 2 * i + (rank % 2 ? 0 : 1);
    CHECK(got[i] == expect, "remote rank %d is world %d, expected %d", i, got[i], expect);
    CHECK(st[i].MPI_SOURCE == i, "source %d reported as %d", i, st[i].MPI_SOURCE);
  }
  (void)local_n;
  free(got);
  free(rq);
  free(st);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  mpitest_need(size >= 2, "at least 2 ranks");
  int flag, n, r, result;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int local_n = rank % 2 ? size / 2 : (size + 1) / 2, remote_n = size - local_n;

  /* leaders: local rank 0 of each half, i.e. world ranks 0 and 1 */
  MPI_Comm inter;
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 17, &inter);
  MPI_Comm_test_inter(inter, &flag);
  CHECK(flag, "Comm_test_inter");
  MPI_Comm_test_inter(half, &flag);
  CHECK(!flag, "an intracommunicator is not inter");
  MPI_Comm_size(inter, &n);
  MPI_Comm_rank(inter, &r);
  CHECK(n == local_n && r == rank / 2, "local size %d rank %d", n, r);
  MPI_Comm_remote_size(inter, &n);
  CHECK(n == remote_n, "remote size %d, expected %d", n, remote_n);
  MPI_Group rg, wg;
  MPI_Comm_remote_group(inter, &rg);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int zero = 0, w0;
  MPI_Group_translate_ranks(rg, 1, &zero, wg, &w0);
  CHECK(w0 == (rank % 2 ? 0 : 1), "remote rank 0 is world %d", w0);
  MPI_Group_free(&rg);
  MPI_Group_free(&wg);
  exchange(inter, local_n, remote_n, 1);

  /* dup: congruent, its own traffic */
  MPI_Comm inter2;
  MPI_Comm_dup(inter, &inter2);
  MPI_Comm_compare(inter, inter2, &result);
  CHECK(result == MPI_CONGRUENT, "compare(inter, dup) = %d", result);
  MPI_Comm_test_inter(inter2, &flag);
  CHECK(flag, "the dup is inter too");
  exchange(inter2, local_n, remote_n, 2);
  MPI_Comm_compare(inter, half, &result);
  CHECK(result == MPI_UNEQUAL, "compare(inter, intra) = %d", result);

  /* merge, odds first (the evens say high) */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, rank % 2 == 0, &merged);
  MPI_Comm_size(merged, &n);
  MPI_Comm_rank(merged, &r);
  int expect = rank % 2 ? rank / 2 : size / 2 + rank / 2;
  CHECK(n == size && r == expect, "merged (odds first): size %d rank %d, expected %d", n, r,
        expect);
  MPI_Comm_test_inter(merged, &flag);
  CHECK(!flag, "a merge is an intracommunicator");
  {
    int to = (r + 1) % size, from = (r + size - 1) % size, got = -1;
    MPI_Sendrecv(&r, 1, MPI_INT, to, 3, &got, 1, MPI_INT, from, 3, merged, MPI_STATUS_IGNORE);
    CHECK(got == from, "ring in the merged communicator: got %d from %d", got, from);
  }
  MPI_Comm_free(&merged);
  /* merge, evens first */
  MPI_Intercomm_merge(inter2, rank % 2, &merged);
  MPI_Comm_rank(merged, &r);
  expect = rank % 2 ? (size + 1) / 2 + rank / 2 : rank / 2;
  CHECK(r == expect, "merged (evens first): rank %d, expected %d", r, expect);
  MPI_Comm_free(&merged);

  MPI_Comm_free(&inter2);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  return mpitest_finalize();
}
