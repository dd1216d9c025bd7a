/* comm_split: creation of intracommunicators — Comm_dup, Comm_idup, Comm_split (with keys
 * reversing the order and MPI_UNDEFINED), Comm_split_type(MPI_COMM_TYPE_SHARED),
 * Comm_create, Comm_create_group — checked through sizes, ranks, group translation,
 * Comm_compare, names, and messages that must stay inside their communicator.
 * Uses point-to-point only (no collective), any number of ranks >= 2. */
#include <stdlib.h>
#include <string.h>

#define MPITEST_NAME "comm_split"
#include "mpitest.h"

/* World rank of rank r of comm. */
static int world_of(MPI_Comm comm, int r)
{
  MPI_Group g, w;
  int out;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &w);
  MPI_Group_translate_ranks(g, 1, &r, w, &out);
  MPI_Group_free(&g);
  MPI_Group_free(&w);
  return out;
}

/* Every rank of comm sends its world rank to every other; checks what arrives matches the
 * communicator's own view of who is who. */
static void check_all_to_all(MPI_Comm comm, int tag)
{
  int rank = wrank();
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  int *got = malloc((size_t)n * sizeof *got);
  MPI_Request *reqs = malloc(2 * (size_t)n * sizeof *reqs);
  for (int i = 0; i < n; i++) {
    MPI_Irecv(&got[i], 1, MPI_INT, i, tag, comm, &reqs[i]);
    MPI_Isend(&rank, 1, MPI_INT, i, tag, comm, &reqs[n + i]);
  }
  MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE);
  for (int i = 0; i < n; i++)
    CHECK(got[i] == world_of(comm, i),
          "rank %d of the communicator says it is world rank %d, "
          "the group says %d",
          i, got[i], world_of(comm, i));
  free(got);
  free(reqs);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int r, n, result;

  /* --- dup: congruent, separate traffic --- */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
  CHECK(result == MPI_CONGRUENT, "compare(world, dup) = %d", result);
  MPI_Comm_compare(dup, dup, &result);
  CHECK(result == MPI_IDENT, "compare(dup, dup) = %d", result);
  {
    /* same tag and peers on both: each receive must get its own communicator's message */
    int to = (rank + 1) % size, from = (rank + size - 1) % size, a = 100 + rank, b = 200 + rank;
    int ga = -1, gb = -1;
    MPI_Request rq[2];
    MPI_Isend(&a, 1, MPI_INT, to, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&b, 1, MPI_INT, to, 5, dup, &rq[1]);
    MPI_Recv(&gb, 1, MPI_INT, from, 5, dup, MPI_STATUS_IGNORE);
    MPI_Recv(&ga, 1, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECK(ga == 100 + from && gb == 200 + from, "world got %d, dup got %d", ga, gb);
  }
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Comm_get_name(dup, name, &len);
  CHECK(len == 0 && name[0] == 0, "a duplicate has no name, got '%s'", name);
  MPI_Comm_set_name(dup, "my duplicate");
  MPI_Comm_get_name(dup, name, &len);
  CHECK(!strcmp(name, "my duplicate") && len == 12, "name '%s' (%d)", name, len);
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  CHECK(!strcmp(name, "MPI_COMM_WORLD"), "world is named '%s'", name);
  MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
  CHECK(!strcmp(name, "MPI_COMM_SELF"), "self is named '%s'", name);

  /* --- idup --- */
  MPI_Comm idup;
  MPI_Request req;
  MPI_Comm_idup(dup, &idup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Comm_compare(dup, idup, &result);
  CHECK(result == MPI_CONGRUENT, "compare(dup, idup) = %d", result);
  check_all_to_all(idup, 1);

  /* --- split by parity, reversed order --- */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Comm_size(half, &n);
  MPI_Comm_rank(half, &r);
  int expect_n = rank % 2 ? size / 2 : (size + 1) / 2;
  CHECK(n == expect_n, "parity split: size %d, expected %d", n, expect_n);
  /* highest world rank of my parity first */
  int highest = (size - 1) % 2 == rank % 2 ? size - 1 : size - 2;
  CHECK(world_of(half, 0) == highest, "rank 0 of my half is world %d, expected %d",
        world_of(half, 0), highest);
  CHECK(world_of(half, r) == rank, "my rank %d in my half maps to world %d", r,
        world_of(half, r));
  check_all_to_all(half, 2);

  /* --- split: all the same color, reversed: similar; with MPI_UNDEFINED --- */
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 7, size - rank, &rev);
  MPI_Comm_compare(MPI_COMM_WORLD, rev, &result);
  CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(world, reversed) = %d",
        result);
  MPI_Comm_rank(rev, &r);
  CHECK(r == size - 1 - rank, "reversed rank %d", r);
  MPI_Comm some;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, rank, &some);
  if (rank == 0) {
    CHECK(some == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
  } else {
    MPI_Comm_size(some, &n);
    MPI_Comm_rank(some, &r);
    CHECK(n == size - 1 && r == rank - 1, "size %d rank %d without rank 0", n, r);
    MPI_Comm_free(&some);
    CHECK(some == MPI_COMM_NULL, "Comm_free sets the handle to MPI_COMM_NULL");
  }

  /* --- split_type shared: the ranks of my node share my processor name --- */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  {
    char me[MPI_MAX_PROCESSOR_NAME] = {0}, other[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(me, &len);
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &r);
    CHECK(world_of(node, r) == rank, "my rank in my node maps to world %d", world_of(node, r));
    for (int i = 0; i < n; i++) {
      MPI_Sendrecv(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, i, 3, other, MPI_MAX_PROCESSOR_NAME,
                   MPI_CHAR, i, 3, node, MPI_STATUS_IGNORE);
      CHECK(!strcmp(me, other), "node-mate %d runs on '%s', I run on '%s'", i, other, me);
    }
  }
  MPI_Comm none;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &none);
  CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED gives MPI_COMM_NULL");

  /* --- create: the even ranks (MPI 2.2: the odd ones pass their own group) --- */
  MPI_Group world_group, evens, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int range_even[1][3] = {{0, (size - 1) / 2 * 2, 2}};
  MPI_Group_range_incl(world_group, 1, range_even, &evens);
  MPI_Group_difference(world_group, evens, &odds);
  MPI_Comm created;
  MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &created);
  CHECK(created != MPI_COMM_NULL, "Comm_create with each rank's own group");
  MPI_Comm_compare(created, half, &result);
  /* same members as the parity split, in increasing order instead of decreasing */
  CHECK(result == (expect_n > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(created, half) = %d",
        result);
  check_all_to_all(created, 4);
  MPI_Comm only_evens;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &only_evens);
  if (rank % 2) {
    CHECK(only_evens == MPI_COMM_NULL, "not in the group: MPI_COMM_NULL");
  } else {
    MPI_Comm_rank(only_evens, &r);
    CHECK(r == rank / 2, "rank %d among the evens", r);
    MPI_Comm_free(&only_evens);
  }

  /* --- create_group: only the members call it --- */
  if (rank % 2 == 0) {
    MPI_Comm cg;
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 42, &cg);
    MPI_Comm_rank(cg, &r);
    MPI_Comm_size(cg, &n);
    CHECK(r == rank / 2 && n == (size + 1) / 2, "create_group: rank %d size %d", r, n);
    check_all_to_all(cg, 6);
    MPI_Comm_free(&cg);
  }
  /* a communicator of one derived from MPI_COMM_SELF */
  MPI_Comm self_dup;
  MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
  MPI_Comm_size(self_dup, &n);
  MPI_Comm_rank(self_dup, &r);
  CHECK(n == 1 && r == 0, "dup of MPI_COMM_SELF: size %d rank %d", n, r);
  check_all_to_all(self_dup, 7);
  MPI_Comm_compare(MPI_COMM_SELF, self_dup, &result);
  CHECK(result == MPI_CONGRUENT, "compare(self, dup of self) = %d", result);

  MPI_Group_free(&world_group);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Comm_free(&self_dup);
  MPI_Comm_free(&created);
  MPI_Comm_free(&node);
  MPI_Comm_free(&rev);
  MPI_Comm_free(&half);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&dup);

  return mpitest_finalize();
}
