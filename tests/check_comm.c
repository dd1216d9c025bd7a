/* Unit tests of the communicator module's pure logic: group set operations and lookups,
 * MPI_Dims_create (against MPICH 4.0's answers), Cartesian arithmetic, context-id
 * derivation. No simulation runs here. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "src/mem.h"

/* ---- helpers ---- */

static smpi_group *grp(int n, const int *w) { return smpi_group_new_copy(w, n); }

static void assert_members(const smpi_group *g, int n, const int *w)
{
  ck_assert_int_eq(g->size, n);
  for (int i = 0; i < n; i++) {
    ck_assert_int_eq(smpi_group_world_of(g, i), w[i]);
    ck_assert_int_eq(smpi_group_rank_of(g, w[i]), i);
  }
}

/* ---- groups ---- */

START_TEST(group_identity_and_lookups)
{
  smpi_group *id = smpi_group_identity(8);
  ck_assert_ptr_null(id->world);
  ck_assert_int_eq(smpi_group_rank_of(id, 7), 7);
  ck_assert_int_eq(smpi_group_rank_of(id, 8), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_group_rank_of(id, -1), MPI_UNDEFINED);
  /* a member list that happens to be the identity drops its array */
  int w[] = {0, 1, 2};
  smpi_group *g = grp(3, w);
  ck_assert_ptr_null(g->world);
  smpi_group *id3 = smpi_group_identity(3);
  ck_assert(smpi_group_equal(g, id3));
  smpi_group_unref(id3);
  /* dense reverse map */
  int d[] = {8, 9, 11, 10};
  smpi_group *dg = grp(4, d);
  ck_assert_ptr_nonnull(dg->dense);
  assert_members(dg, 4, d);
  ck_assert_int_eq(smpi_group_rank_of(dg, 12), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_group_rank_of(dg, 7), MPI_UNDEFINED);
  /* sparse: hashed */
  int s[] = {5, 70000, 3, 1 << 20};
  smpi_group *sg = grp(4, s);
  ck_assert_ptr_null(sg->dense);
  ck_assert_ptr_nonnull(sg->hkeys);
  assert_members(sg, 4, s);
  ck_assert_int_eq(smpi_group_rank_of(sg, 4), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_group_rank_of(sg, 70001), MPI_UNDEFINED);
  smpi_group_unref(id);
  smpi_group_unref(g);
  smpi_group_unref(dg);
  smpi_group_unref(sg);
}
END_TEST

START_TEST(group_large_sparse)
{
  /* every 37th rank of a 100 000-rank world, in reverse order: all found, others not */
  int n = 100000 / 37 + 1;
  int *w = xmalloc((size_t)n * sizeof *w);
  for (int i = 0; i < n; i++)
    w[i] = (n - 1 - i) * 37;
  smpi_group *g = smpi_group_new(w, n);
  for (int i = 0; i < n; i++)
    ck_assert_int_eq(smpi_group_rank_of(g, (n - 1 - i) * 37), i);
  for (int x = 1; x < 100000; x += 37)
    ck_assert_int_eq(smpi_group_rank_of(g, x), MPI_UNDEFINED);
  smpi_group_unref(g);
}
END_TEST

START_TEST(group_set_operations)
{
  int a_w[] = {1, 3, 5, 7}, b_w[] = {7, 2, 3, 9};
  smpi_group *a = grp(4, a_w), *b = grp(4, b_w), *r;
  ck_assert_int_eq(smpi_group_union(a, b, &r), MPI_SUCCESS);
  assert_members(r, 6, (int[]){1, 3, 5, 7, 2, 9});
  smpi_group_unref(r);
  ck_assert_int_eq(smpi_group_intersection(a, b, &r), MPI_SUCCESS);
  assert_members(r, 2, (int[]){3, 7});
  smpi_group_unref(r);
  ck_assert_int_eq(smpi_group_intersection(b, a, &r), MPI_SUCCESS);
  assert_members(r, 2, (int[]){7, 3});
  smpi_group_unref(r);
  ck_assert_int_eq(smpi_group_difference(a, b, &r), MPI_SUCCESS);
  assert_members(r, 2, (int[]){1, 5});
  smpi_group_unref(r);
  /* difference with itself: the empty group */
  ck_assert_int_eq(smpi_group_difference(a, a, &r), MPI_SUCCESS);
  ck_assert_ptr_eq(r, smpi_group_empty());
  ck_assert_int_eq(r->size, 0);
  smpi_group_unref(r);
  smpi_group_unref(a);
  smpi_group_unref(b);
}
END_TEST

START_TEST(group_incl_excl)
{
  int w[] = {10, 11, 12, 13, 14, 15};
  smpi_group *g = grp(6, w), *r;
  ck_assert_int_eq(smpi_group_incl(g, 3, (int[]){5, 0, 2}, &r), MPI_SUCCESS);
  assert_members(r, 3, (int[]){15, 10, 12});
  smpi_group_unref(r);
  ck_assert_int_eq(smpi_group_excl(g, 2, (int[]){5, 0}, &r), MPI_SUCCESS);
  assert_members(r, 4, (int[]){11, 12, 13, 14});
  smpi_group_unref(r);
  /* invalid and repeated ranks */
  ck_assert_int_eq(smpi_group_incl(g, 2, (int[]){1, 6}, &r), MPI_ERR_RANK);
  ck_assert_int_eq(smpi_group_incl(g, 2, (int[]){1, 1}, &r), MPI_ERR_RANK);
  ck_assert_int_eq(smpi_group_excl(g, 1, (int[]){-1}, &r), MPI_ERR_RANK);
  ck_assert_int_eq(smpi_group_incl(g, -1, NULL, &r), MPI_ERR_ARG);
  ck_assert_int_eq(smpi_group_incl(g, 0, NULL, &r), MPI_SUCCESS);
  ck_assert_int_eq(r->size, 0);
  smpi_group_unref(r);
  smpi_group_unref(g);
}
END_TEST

START_TEST(group_ranges)
{
  int w[10];
  for (int i = 0; i < 10; i++)
    w[i] = 100 + i;
  smpi_group *g = grp(10, w), *r;
  /* (0, 8, 3) = 0 3 6; (9, 7, -1) = 9 8 7 */
  int ranges[2][3] = {{0, 8, 3}, {9, 7, -1}};
  ck_assert_int_eq(smpi_group_range_incl(g, 2, ranges, &r), MPI_SUCCESS);
  assert_members(r, 6, (int[]){100, 103, 106, 109, 108, 107});
  smpi_group_unref(r);
  ck_assert_int_eq(smpi_group_range_excl(g, 2, ranges, &r), MPI_SUCCESS);
  assert_members(r, 4, (int[]){101, 102, 104, 105});
  smpi_group_unref(r);
  int zero[1][3] = {{0, 5, 0}}, overlap[2][3] = {{0, 4, 2}, {4, 5, 1}}, out[1][3] = {{0, 10, 1}};
  int against[1][3] = {{5, 2, 1}};
  ck_assert_int_eq(smpi_group_range_incl(g, 1, zero, &r), MPI_ERR_ARG);
  ck_assert_int_eq(smpi_group_range_incl(g, 2, overlap, &r), MPI_ERR_RANK);
  ck_assert_int_eq(smpi_group_range_excl(g, 1, out, &r), MPI_ERR_RANK);
  ck_assert_int_eq(smpi_group_range_incl(g, 1, against, &r), MPI_ERR_ARG);
  smpi_group_unref(g);
}
END_TEST

START_TEST(group_translate_compare)
{
  int a_w[] = {4, 5, 6, 7}, b_w[] = {7, 6, 1};
  smpi_group *a = grp(4, a_w), *b = grp(3, b_w);
  int in[] = {0, 3, MPI_PROC_NULL, 2}, out[4];
  ck_assert_int_eq(smpi_group_translate(a, 4, in, b, out), MPI_SUCCESS);
  ck_assert_int_eq(out[0], MPI_UNDEFINED);
  ck_assert_int_eq(out[1], 0);
  ck_assert_int_eq(out[2], MPI_PROC_NULL);
  ck_assert_int_eq(out[3], 1);
  ck_assert_int_eq(smpi_group_translate(a, 1, (int[]){4}, b, out), MPI_ERR_RANK);
  int p_w[] = {7, 6, 5, 4};
  smpi_group *p = grp(4, p_w), *a2 = grp(4, a_w);
  ck_assert_int_eq(smpi_group_compare(a, a2), MPI_IDENT);
  ck_assert_int_eq(smpi_group_compare(a, p), MPI_SIMILAR);
  ck_assert_int_eq(smpi_group_compare(a, b), MPI_UNEQUAL);
  ck_assert(!smpi_group_equal(a, p));
  smpi_group_unref(a);
  smpi_group_unref(a2);
  smpi_group_unref(b);
  smpi_group_unref(p);
}
END_TEST

/* ---- Dims_create ---- */

/* MPI_Dims_create(n, k, {0...}) under MPICH 4.0.2 (Debian bookworm); half of them are cases
 * where several decompositions have the smallest spread. */
static const struct {
  int n, k, dims[5];
} mpich_dims[] = {
    {12, 3, {3, 2, 2, 0, 0}},    {360, 3, {10, 6, 6, 0, 0}},  {72, 2, {9, 8, 0, 0, 0}},
    {1000, 5, {5, 5, 5, 4, 2}},  {1, 3, {1, 1, 1, 0, 0}},     {16, 3, {4, 2, 2, 0, 0}},
    {235, 1, {235, 0, 0, 0, 0}}, {20, 2, {5, 4, 0, 0, 0}},    {114, 2, {19, 6, 0, 0, 0}},
    {337, 2, {337, 1, 0, 0, 0}}, {730, 2, {73, 10, 0, 0, 0}}, {904, 2, {113, 8, 0, 0, 0}},
    {114, 3, {19, 3, 2, 0, 0}},  {188, 3, {47, 2, 2, 0, 0}},  {335, 3, {67, 5, 1, 0, 0}},
    {468, 3, {13, 6, 6, 0, 0}},  {675, 3, {15, 9, 5, 0, 0}},  {760, 3, {19, 8, 5, 0, 0}},
    {876, 3, {73, 4, 3, 0, 0}},  {110, 4, {11, 5, 2, 1, 0}},  {116, 4, {29, 2, 2, 1, 0}},
    {193, 4, {193, 1, 1, 1, 0}}, {207, 4, {23, 3, 3, 1, 0}},  {266, 4, {19, 7, 2, 1, 0}},
    {402, 4, {67, 3, 2, 1, 0}},  {411, 4, {137, 3, 1, 1, 0}}, {712, 4, {89, 2, 2, 2, 0}},
    {790, 4, {79, 5, 2, 1, 0}},  {826, 4, {59, 7, 2, 1, 0}},  {20, 4, {5, 2, 2, 1, 0}},
    {153, 5, {17, 3, 3, 1, 1}},  {174, 5, {29, 3, 2, 1, 1}},  {215, 5, {43, 5, 1, 1, 1}},
    {255, 5, {17, 5, 3, 1, 1}},  {497, 5, {71, 7, 1, 1, 1}},  {672, 5, {7, 4, 4, 3, 2}},
    {776, 5, {97, 2, 2, 2, 1}},  {820, 5, {41, 5, 2, 2, 1}},  {841, 5, {29, 29, 1, 1, 1}},
    {880, 5, {11, 5, 4, 2, 2}},  {884, 5, {17, 13, 2, 2, 1}}, {903, 5, {43, 7, 3, 1, 1}},
    {943, 5, {41, 23, 1, 1, 1}},
};

START_TEST(dims_mpich_table)
{
  for (size_t t = 0; t < sizeof mpich_dims / sizeof *mpich_dims; t++) {
    int d[5] = {0, 0, 0, 0, 0};
    ck_assert_int_eq(smpi_dims_create(mpich_dims[t].n, mpich_dims[t].k, d), MPI_SUCCESS);
    for (int i = 0; i < mpich_dims[t].k; i++)
      ck_assert_msg(d[i] == mpich_dims[t].dims[i], "Dims_create(%d, %d): dims[%d] = %d, MPICH %d",
                    mpich_dims[t].n, mpich_dims[t].k, i, d[i], mpich_dims[t].dims[i]);
  }
}
END_TEST

START_TEST(dims_fixed_and_errors)
{
  int a[4] = {0, 3, 0, 0};
  ck_assert_int_eq(smpi_dims_create(60, 4, a), MPI_SUCCESS);
  ck_assert_mem_eq(a, ((int[]){5, 3, 2, 2}), sizeof a);
  int b[4] = {4, 0, 0, 1};
  ck_assert_int_eq(smpi_dims_create(96, 4, b), MPI_SUCCESS);
  ck_assert_mem_eq(b, ((int[]){4, 6, 4, 1}), sizeof b);
  int c[4] = {0, 0, 5, 0};
  ck_assert_int_eq(smpi_dims_create(100, 4, c), MPI_SUCCESS);
  ck_assert_mem_eq(c, ((int[]){5, 2, 5, 2}), sizeof c);
  int e[2] = {0, 3};
  ck_assert_int_eq(smpi_dims_create(7, 2, e), MPI_ERR_DIMS);
  int f[2] = {2, 3};
  ck_assert_int_eq(smpi_dims_create(6, 2, f), MPI_SUCCESS);
  ck_assert_int_eq(smpi_dims_create(7, 2, f), MPI_ERR_DIMS);
  int g[2] = {-1, 0};
  ck_assert_int_eq(smpi_dims_create(4, 2, g), MPI_ERR_DIMS);
  ck_assert_int_eq(smpi_dims_create(4, -1, g), MPI_ERR_DIMS);
  ck_assert_int_eq(smpi_dims_create(1, 0, NULL), MPI_SUCCESS);
}
END_TEST

START_TEST(dims_large)
{
  /* highly composite and prime sizes finish quickly and multiply back */
  int sizes[] = {735134400, 1 << 30, 2147483647, 65536, 100000};
  for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++)
    for (int k = 1; k <= 8; k++) {
      int d[8] = {0};
      ck_assert_int_eq(smpi_dims_create(sizes[t], k, d), MPI_SUCCESS);
      long long p = 1;
      for (int i = 0; i < k; i++) {
        p *= d[i];
        if (i)
          ck_assert_int_le(d[i], d[i - 1]);
      }
      ck_assert(p == sizes[t]);
    }
  int d[3] = {0};
  ck_assert_int_eq(smpi_dims_create(1 << 30, 3, d), MPI_SUCCESS);
  ck_assert_mem_eq(d, ((int[]){1024, 1024, 1024}), sizeof d);
}
END_TEST

/* ---- Cartesian arithmetic ---- */

START_TEST(cart_math)
{
  smpi_topo *t = smpi_topo_cart_new(2, (int[]){2, 3}, (int[]){0, 1});
  int c[2], r;
  smpi_cart_coords(t, 4, c);
  ck_assert_int_eq(c[0], 1);
  ck_assert_int_eq(c[1], 1);
  for (int rank = 0; rank < 6; rank++) {
    smpi_cart_coords(t, rank, c);
    ck_assert_int_eq(smpi_cart_rank(t, c, &r), MPI_SUCCESS);
    ck_assert_int_eq(r, rank);
  }
  /* dim 1 is periodic: (1, -1) is (1, 2) = 5; dim 0 is not: (2, 0) is refused */
  ck_assert_int_eq(smpi_cart_rank(t, (int[]){1, -1}, &r), MPI_SUCCESS);
  ck_assert_int_eq(r, 5);
  ck_assert_int_eq(smpi_cart_rank(t, (int[]){1, 7}, &r), MPI_SUCCESS);
  ck_assert_int_eq(r, 4);
  ck_assert_int_eq(smpi_cart_rank(t, (int[]){2, 0}, &r), MPI_ERR_ARG);
  int src, dst;
  /* periodic direction: wraps */
  smpi_cart_shift(t, 0, 1, 1, &src, &dst);
  ck_assert_int_eq(src, 2);
  ck_assert_int_eq(dst, 1);
  smpi_cart_shift(t, 5, 1, -4, &src, &dst);
  ck_assert_int_eq(src, 3); /* (1, 2 + 4 = 6 = 0) */
  ck_assert_int_eq(dst, 4); /* (1, 2 - 4 = -2 = 1) */
  /* non-periodic direction: MPI_PROC_NULL off the ends */
  smpi_cart_shift(t, 1, 0, 1, &src, &dst);
  ck_assert_int_eq(src, MPI_PROC_NULL);
  ck_assert_int_eq(dst, 4);
  smpi_cart_shift(t, 4, 0, 1, &src, &dst);
  ck_assert_int_eq(src, 1);
  ck_assert_int_eq(dst, MPI_PROC_NULL);
  smpi_cart_shift(t, 4, 0, 2, &src, &dst);
  ck_assert_int_eq(src, MPI_PROC_NULL);
  ck_assert_int_eq(dst, MPI_PROC_NULL);
  smpi_cart_shift(t, 4, 0, 0, &src, &dst);
  ck_assert_int_eq(src, 4);
  ck_assert_int_eq(dst, 4);
  smpi_topo_unref(t);
  /* a zero-dimensional grid has one rank */
  smpi_topo *z = smpi_topo_cart_new(0, NULL, NULL);
  ck_assert_int_eq(smpi_cart_rank(z, NULL, &r), MPI_SUCCESS);
  ck_assert_int_eq(r, 0);
  smpi_topo_unref(z);
}
END_TEST

START_TEST(cart_3d_roundtrip)
{
  smpi_topo *t = smpi_topo_cart_new(3, (int[]){4, 3, 5}, (int[]){1, 1, 1});
  int c[3], r;
  for (int rank = 0; rank < 60; rank++) {
    smpi_cart_coords(t, rank, c);
    ck_assert_int_eq(rank, (c[0] * 3 + c[1]) * 5 + c[2]);
    ck_assert_int_eq(smpi_cart_rank(t, c, &r), MPI_SUCCESS);
    ck_assert_int_eq(r, rank);
    for (int dir = 0; dir < 3; dir++) {
      int s, d;
      smpi_cart_shift(t, rank, dir, 1, &s, &d);
      int back, fwd;
      smpi_cart_shift(t, d, dir, 1, &back, &fwd);
      ck_assert_int_eq(back, rank); /* periodic shifts are inverse of each other */
    }
  }
  smpi_topo_unref(t);
}
END_TEST

/* ---- context ids ---- */

START_TEST(ctx_derivation)
{
  smpi_ctx_setup(4); /* world 0, self 2..8: fresh ids from 10 */
  size_t before = smpi_ctx_pending();
  uint32_t a0 = smpi_ctx_derive("c:0:3", 0, 2);
  uint32_t b0 = smpi_ctx_derive("c:0:3", 1, 2);
  uint32_t a1 = smpi_ctx_derive("c:0:3", 0, 2); /* second member of color 0 */
  ck_assert_uint_eq(a0, a1);
  ck_assert_uint_ne(a0, b0);
  ck_assert_uint_eq(a0 % 2, 0); /* even: p2p = id, collective = id + 1 */
  ck_assert_uint_eq(b0 % 2, 0);
  ck_assert_uint_ge(a0, 10);
  ck_assert_uint_ge(b0, 10);
  ck_assert_uint_eq(smpi_ctx_pending(), before + 1); /* color 0 is complete and dropped */
  uint32_t b1 = smpi_ctx_derive("c:0:3", 1, 2);
  ck_assert_uint_eq(b1, b0);
  ck_assert_uint_eq(smpi_ctx_pending(), before);
  /* the next creation on the same parent is another id */
  uint32_t n = smpi_ctx_derive("c:0:4", 0, 1);
  ck_assert_uint_ne(n, a0);
  ck_assert_uint_ne(n, b0);
  ck_assert_uint_eq(smpi_ctx_pending(), before);
  /* ids are never reused, even once dropped */
  uint32_t again = smpi_ctx_derive("c:0:3", 0, 1);
  ck_assert_uint_ne(again, a0);
}
END_TEST

static Suite *comm_suite(void)
{
  Suite *s = suite_create("comm");
  TCase *g = tcase_create("groups");
  tcase_add_test(g, group_identity_and_lookups);
  tcase_add_test(g, group_large_sparse);
  tcase_add_test(g, group_set_operations);
  tcase_add_test(g, group_incl_excl);
  tcase_add_test(g, group_ranges);
  tcase_add_test(g, group_translate_compare);
  suite_add_tcase(s, g);
  TCase *t = tcase_create("topologies");
  tcase_add_test(t, dims_mpich_table);
  tcase_add_test(t, dims_fixed_and_errors);
  tcase_add_test(t, dims_large);
  tcase_add_test(t, cart_math);
  tcase_add_test(t, cart_3d_roundtrip);
  suite_add_tcase(s, t);
  TCase *c = tcase_create("contexts");
  tcase_add_test(c, ctx_derivation);
  suite_add_tcase(s, c);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(comm_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
