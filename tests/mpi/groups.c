/* groups: every group operation on groups derived from MPI_COMM_WORLD's — size and rank,
 * incl/excl, range_incl/range_excl, union/intersection/difference (with their ordering
 * rules), translate_ranks (MPI_UNDEFINED, MPI_PROC_NULL), compare, MPI_GROUP_EMPTY,
 * Comm_group of a split communicator, and the error classes of invalid arguments under
 * MPI_ERRORS_RETURN. Any number of ranks >= 1; no collective. */
#include <stdlib.h>

#define MPITEST_NAME "groups"
#include "mpitest.h"

/* The world ranks of g's members, in order, checked against expect[0..n). */
static void check_members(MPI_Group g, MPI_Group world, int n, const int *expect,
                          const char *what)
{
  int gs;
  MPI_Group_size(g, &gs);
  CHECK(gs == n, "%s: size %d, expected %d", what, gs, n);
  if (gs != n)
    return;
  int *in = malloc((size_t)(n + 1) * sizeof *in), *out = malloc((size_t)(n + 1) * sizeof *out);
  for (int i = 0; i < n; i++)
    in[i] = i;
  MPI_Group_translate_ranks(g, n, in, world, out);
  for (int i = 0; i < n; i++)
    CHECK(out[i] == expect[i], "%s: member %d is world rank %d, expected %d", what, i, out[i],
          expect[i]);
  free(in);
  free(out);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int *expect = malloc((size_t)(size + 1) * sizeof *expect);
  int *list = malloc((size_t)(size + 1) * sizeof *list);
  int n, r, result;

  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_size(world, &n);
  MPI_Group_rank(world, &r);
  CHECK(n == size && r == rank, "world group: size %d rank %d", n, r);

  /* incl: reversed world */
  for (int i = 0; i < size; i++)
    list[i] = size - 1 - i;
  MPI_Group reversed;
  MPI_Group_incl(world, size, list, &reversed);
  check_members(reversed, world, size, list, "incl reversed");
  MPI_Group_rank(reversed, &r);
  CHECK(r == size - 1 - rank, "my rank in the reversed group: %d", r);
  MPI_Group_compare(world, reversed, &result);
  CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "compare(world, reversed) = %d", result);

  /* excl: world without rank 0 */
  MPI_Group no0;
  int zero = 0;
  MPI_Group_excl(world, 1, &zero, &no0);
  for (int i = 1; i < size; i++)
    expect[i - 1] = i;
  check_members(no0, world, size - 1, expect, "excl 0");
  MPI_Group_rank(no0, &r);
  CHECK(r == (rank == 0 ? MPI_UNDEFINED : rank - 1), "rank in world minus 0: %d", r);

  /* ranges: evens increasing, odds decreasing */
  MPI_Group evens, odds_down;
  int re[1][3] = {{0, (size - 1) / 2 * 2, 2}};
  MPI_Group_range_incl(world, 1, re, &evens);
  int ne = 0;
  for (int i = 0; i < size; i += 2)
    expect[ne++] = i;
  check_members(evens, world, ne, expect, "range_incl evens");
  int no = 0;
  if (size > 1) {
    int last_odd = size % 2 ? size - 2 : size - 1;
    int ro[1][3] = {{last_odd, 1, -2}};
    MPI_Group_range_incl(world, 1, ro, &odds_down);
    for (int i = last_odd; i >= 1; i -= 2)
      expect[no++] = i;
    check_members(odds_down, world, no, expect, "range_incl odds decreasing");
  } else {
    odds_down = MPI_GROUP_EMPTY;
  }
  MPI_Group odds_excl;
  MPI_Group_range_excl(world, 1, re, &odds_excl);
  for (int i = 1, k = 0; i < size; i += 2)
    expect[k++] = i;
  check_members(odds_excl, world, size / 2, expect, "range_excl evens");

  /* union: first group's order, then the second's new members in its order */
  MPI_Group u;
  MPI_Group_union(odds_down, evens, &u);
  int k = 0;
  for (int i = 0; i < no; i++)
    expect[k++] = size % 2 ? size - 2 - 2 * i : size - 1 - 2 * i;
  for (int i = 0; i < size; i += 2)
    expect[k++] = i;
  check_members(u, world, size, expect, "union(odds down, evens)");
  MPI_Group_compare(u, world, &result);
  CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "compare(union, world) = %d", result);

  /* intersection keeps the first group's order */
  MPI_Group inter;
  MPI_Group_intersection(reversed, evens, &inter);
  k = 0;
  for (int i = size - 1; i >= 0; i--)
    if (i % 2 == 0)
      expect[k++] = i;
  check_members(inter, world, k, expect, "intersection(reversed, evens)");

  /* difference */
  MPI_Group diff, empty;
  MPI_Group_difference(world, evens, &diff);
  MPI_Group_compare(diff, odds_excl, &result);
  CHECK(result == MPI_IDENT, "world - evens vs range_excl: %d", result);
  MPI_Group_difference(world, world, &empty);
  MPI_Group_size(empty, &n);
  CHECK(n == 0, "world - world has %d members", n);
  MPI_Group_compare(empty, MPI_GROUP_EMPTY, &result);
  CHECK(result == MPI_IDENT, "an empty group is MPI_GROUP_EMPTY's equal: %d", result);
  MPI_Group_rank(MPI_GROUP_EMPTY, &r);
  CHECK(r == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY: %d", r);

  /* translate with MPI_PROC_NULL and absent members */
  if (size > 1) {
    int in[3] = {0, MPI_PROC_NULL, 1}, out[3];
    MPI_Group_translate_ranks(world, 3, in, evens, out);
    CHECK(out[0] == 0 && out[1] == MPI_PROC_NULL && out[2] == MPI_UNDEFINED,
          "translate: %d %d %d", out[0], out[1], out[2]);
  }

  /* Comm_group of a split matches the group built by hand */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Group hg;
  MPI_Comm_group(half, &hg);
  MPI_Group_compare(hg, rank % 2 ? odds_excl : evens, &result);
  CHECK(result == MPI_IDENT, "group of my half vs built by hand: %d", result);
  MPI_Group_free(&hg);
  CHECK(hg == MPI_GROUP_NULL, "Group_free sets MPI_GROUP_NULL");
  MPI_Comm_free(&half);

  /* errors, returned */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls, rc;
  MPI_Group bad;
  int too_big = size;
  rc = MPI_Group_incl(world, 1, &too_big, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_RANK, "incl of rank %d: class %d", size, cls);
  int stride0[1][3] = {{0, 0, 0}};
  rc = MPI_Group_range_incl(world, 1, stride0, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "range with stride 0: class %d", cls);
  rc = MPI_Group_size(MPI_GROUP_NULL, &n);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_GROUP, "size of MPI_GROUP_NULL: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  MPI_Group_free(&world);
  MPI_Group_free(&reversed);
  MPI_Group_free(&no0);
  MPI_Group_free(&evens);
  if (odds_down != MPI_GROUP_EMPTY)
    MPI_Group_free(&odds_down);
  MPI_Group_free(&odds_excl);
  MPI_Group_free(&u);
  MPI_Group_free(&inter);
  MPI_Group_free(&diff);
  MPI_Group_free(&empty);
  free(expect);
  free(list);

  return mpitest_finalize();
}
