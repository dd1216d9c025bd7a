/* check_coll: the collectives' tables, selectors and tree shapes, without the runtime.
 * (What the algorithms compute is checked by the MPI programs tests/mpi/coll_data_*.c, how
 * long they take against SimGrid by tests/mpi/coll_timing_ref.py.) */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll_ompi.h"
#include "collectives/coll_private.h"
#include "collectives/coll_tree.h"

static coll_features feat(coll_id c, int n, size_t bytes, bool commutative)
{
  coll_features f;
  memset(&f, 0, sizeof f);
  f.coll = c;
  f.size = n;
  f.dtsize = 8;
  f.count = bytes / 8;
  f.bytes = bytes;
  f.total = bytes * (size_t)n;
  f.commutative = commutative;
  return f;
}

static const char *pick(const char *sel, coll_id c, int n, size_t bytes, bool commutative)
{
  for (size_t k = 0; k < coll_nselectors; k++)
    if (!strcmp(coll_selectors[k].name, sel)) {
      coll_features f = feat(c, n, bytes, commutative);
      return coll_algos[coll_selectors[k].select(&f)].name;
    }
  ck_abort_msg("no selector %s", sel);
  return NULL;
}

START_TEST(list_is_consistent)
{
  for (int c = 0; c < COLL_COUNT; c++) {
    int count = 0;
    for (int i = 0; i < COLL_ALG_COUNT; i++) {
      if (coll_algos[i].coll != (coll_id)c)
        continue;
      count++;
      ck_assert_ptr_nonnull(coll_algos[i].fn);
      ck_assert_int_eq(coll_algo_find((coll_id)c, coll_algos[i].name), i);
      for (size_t k = 0; k < coll_nselectors; k++) /* a name must not hide a selector */
        ck_assert_str_ne(coll_algos[i].name, coll_selectors[k].name);
    }
    ck_assert_msg(count > 0, "%s has no algorithm", coll_infos[c].name);
    ck_assert_int_eq(coll_algo_find((coll_id)c, "no_such_algorithm"), -1);
  }
}
END_TEST

/* every selector, on every collective and a wide grid, picks an algorithm of that
 * collective that can serve the call (and never one that needs what the call lacks) */
START_TEST(selectors_pick_fitting_algorithms)
{
  static const size_t bytes[] = {0,     8,     200,   256,   511,    512,    2048,    3000,
                                 10000, 12288, 50000, 81920, 370728, 524288, 1 << 20, 1 << 24};
  for (size_t k = 0; k < coll_nselectors; k++)
    for (int c = 0; c < COLL_COUNT; c++)
      for (int n = 1; n <= 1100; n += n < 40 ? 1 : 37)
        for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++)
          for (int comm = 0; comm < 2; comm++)
            for (int irr = 0; irr < 2; irr++) {
              coll_features f = feat((coll_id)c, n, bytes[b], comm);
              f.irregular = irr && c == COLL_reduce_scatter;
              coll_alg_id id = coll_selectors[k].select(&f);
              ck_assert_msg(id < COLL_ALG_COUNT && coll_algos[id].coll == (coll_id)c,
                            "%s picked another collective's algorithm for %s",
                            coll_selectors[k].name, coll_infos[c].name);
              ck_assert_msg(coll_algo_fits(id, &f), "%s picked %s for %s n=%d m=%zu%s%s",
                            coll_selectors[k].name, coll_algos[id].name, coll_infos[c].name, n,
                            bytes[b], comm ? "" : " non-commutative", irr ? " irregular" : "");
            }
}
END_TEST

START_TEST(fits_checks_requirements)
{
  coll_features f = feat(COLL_alltoall, 6, 8, true);
  ck_assert(!coll_algo_fits(COLL_ALG_alltoall_pair, &f));
  f.size = 8;
  ck_assert(coll_algo_fits(COLL_ALG_alltoall_pair, &f));
  f = feat(COLL_allreduce, 8, 8000, false);
  ck_assert(!coll_algo_fits(COLL_ALG_allreduce_lr, &f));
  ck_assert(coll_algo_fits(COLL_ALG_allreduce_rdb, &f));
  f = feat(COLL_allreduce, 16, 8 * 15, true); /* 15 elements < 16 */
  ck_assert(!coll_algo_fits(COLL_ALG_allreduce_rab_rdb, &f));
  f = feat(COLL_barrier, 3, 0, true);
  ck_assert(!coll_algo_fits(COLL_ALG_barrier_ompi_two_procs, &f));
  f = feat(COLL_allreduce, 8, 64, true);
  ck_assert(!coll_algo_fits(COLL_ALG_allreduce_smp_binomial, &f)); /* layout unknown */
  f.ppn = 2;
  ck_assert(coll_algo_fits(COLL_ALG_allreduce_smp_binomial, &f));
}
END_TEST

START_TEST(default_selector_is_simgrids)
{
  ck_assert_str_eq(pick("default", COLL_bcast, 64, 1 << 20, true), "binomial_tree");
  ck_assert_str_eq(pick("default", COLL_barrier, 7, 0, true), "ompi_basic_linear");
  ck_assert_str_eq(pick("default", COLL_reduce, 64, 8, true), "linear");
  ck_assert_str_eq(pick("default", COLL_allreduce, 64, 8, true), "redbcast");
  /* alltoall: Bruck from 16 ranks below 512 bytes per block (observed in SimGrid's traces) */
  ck_assert_str_eq(pick("default", COLL_alltoall, 16, 504, true), "bruck");
  ck_assert_str_eq(pick("default", COLL_alltoall, 16, 512, true), "basic_linear");
  ck_assert_str_eq(pick("default", COLL_alltoall, 15, 8, true), "basic_linear");
  ck_assert_str_eq(pick("default", COLL_gather, 64, 8, true), "linear");
  ck_assert_str_eq(pick("default", COLL_reduce_scatter, 64, 8, true), "reduce_scatterv");
}
END_TEST

START_TEST(mpich_thresholds)
{
  ck_assert_str_eq(pick("mpich", COLL_bcast, 16, 12280, true), "binomial_tree");
  ck_assert_str_eq(pick("mpich", COLL_bcast, 16, 12288, true), "scatter_rdb_allgather");
  ck_assert_str_eq(pick("mpich", COLL_bcast, 17, 12288, true), "scatter_LR_allgather");
  ck_assert_str_eq(pick("mpich", COLL_bcast, 16, 524288, true), "scatter_LR_allgather");
  ck_assert_str_eq(pick("mpich", COLL_bcast, 7, 1 << 20, true), "binomial_tree");
  ck_assert_str_eq(pick("mpich", COLL_allreduce, 16, 2048, true), "rdb");
  ck_assert_str_eq(pick("mpich", COLL_allreduce, 16, 2056, true), "rab_rdb");
  ck_assert_str_eq(pick("mpich", COLL_allreduce, 16, 1 << 20, false), "rdb");
  ck_assert_str_eq(pick("mpich", COLL_reduce, 16, 2056, true), "scatter_gather");
  ck_assert_str_eq(pick("mpich", COLL_alltoall, 8, 256, true), "bruck");
  ck_assert_str_eq(pick("mpich", COLL_alltoall, 7, 256, true), "mpich_scattered");
  ck_assert_str_eq(pick("mpich", COLL_alltoall, 8, 264, true), "mpich_scattered");
  ck_assert_str_eq(pick("mpich", COLL_alltoall, 8, 32776, true), "mpich_pairwise");
  /* allgather: total = block x n; < 512 KiB with a power of two: recursive doubling */
  ck_assert_str_eq(pick("mpich", COLL_allgather, 16, 32760, true), "rdb");
  ck_assert_str_eq(pick("mpich", COLL_allgather, 17, 4000, true), "bruck");
  ck_assert_str_eq(pick("mpich", COLL_allgather, 17, 8000, true), "ompi_ring");
  ck_assert_str_eq(pick("mpich", COLL_reduce_scatter, 16, 8, false), "mpich_noncomm");
  ck_assert_str_eq(pick("mpich", COLL_reduce_scatter, 12, 8, false), "mpich_rdb");
  ck_assert_str_eq(pick("mpich", COLL_reduce_scatter, 12, 1 << 16, true), "mpich_pair");
  ck_assert_str_eq(pick("mpich", COLL_barrier, 12, 0, true), "ompi_bruck");
}
END_TEST

START_TEST(ompi_thresholds)
{
  /* SimGrid 3.32's ompi selector (Open MPI 4.1's tables), cells of every collective,
   * including communicator sizes too large for the SimGrid-recorded grid */
  ck_assert_str_eq(pick("ompi", COLL_barrier, 2, 0, true), "ompi_recursivedoubling");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 5, 0, true), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 100, 0, true), "ompi_bruck");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 300, 0, true), "ompi_tree");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 600, 0, true), "ompi_bruck");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 2000, 0, true), "ompi_tree");
  ck_assert_str_eq(pick("ompi", COLL_barrier, 5000, 0, true), "ompi_bruck");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 3, 8, true), "ompi_pipeline");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 3, 600, true), "mvapich2_knomial_intra_node");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 200, 20000, true), "NTSL");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 500, 20000, true), "ompi_split_bintree");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 5000, 10000, true), "NTSB");
  ck_assert_str_eq(pick("ompi", COLL_bcast, 1500, 1 << 20, true), "scatter_rdb_allgather");
  ck_assert_str_eq(pick("ompi", COLL_reduce, 300, 10000, true), "ompi_in_order_binary");
  ck_assert_str_eq(pick("ompi", COLL_reduce, 200, 600, false), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_reduce, 5, 70000, true), "ompi_binomial");
  ck_assert_str_eq(pick("ompi", COLL_allreduce, 200, 1000, true), "redbcast");
  ck_assert_str_eq(pick("ompi", COLL_allreduce, 3000, 3000, true), "ompi_ring_segmented");
  ck_assert_str_eq(pick("ompi", COLL_allreduce, 300, 600000, false), "redbcast");
  ck_assert_str_eq(pick("ompi", COLL_allreduce, 2, 300000, true), "rab_rdb");
  ck_assert_str_eq(pick("ompi", COLL_alltoall, 2, 3, true), "basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_alltoall, 4, 600000, true), "pair");
  ck_assert_str_eq(pick("ompi", COLL_alltoall, 6, 600000, true), "basic_linear"); /* not 2^k */
  ck_assert_str_eq(pick("ompi", COLL_alltoall, 20, 8, true), "bruck");
  ck_assert_str_eq(pick("ompi", COLL_alltoallv, 3, 8, true), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_alltoallv, 2, 8, true), "pair");
  ck_assert_str_eq(pick("ompi", COLL_alltoallv, 100, 8, true), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_alltoallv, 512, 8, true), "pair");
  ck_assert_str_eq(pick("ompi", COLL_allgather, 2, 8, true), "pair");
  ck_assert_str_eq(pick("ompi", COLL_allgather, 300, 64, true), "bruck");
  ck_assert_str_eq(pick("ompi", COLL_allgather, 700, 8192, true), "ompi_neighborexchange");
  ck_assert_str_eq(pick("ompi", COLL_allgatherv, 2, 3000, true), "pair");
  ck_assert_str_eq(pick("ompi", COLL_allgatherv, 800, 700, true), "GB");
  ck_assert_str_eq(pick("ompi", COLL_gather, 300, 4096, true), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_gather, 3, 1, true), "ompi_linear_sync");
  ck_assert_str_eq(pick("ompi", COLL_scatter, 40, 1000, true), "ompi_linear_nb");
  ck_assert_str_eq(pick("ompi", COLL_scatter, 40, 10000, true), "ompi_binomial");
  ck_assert_str_eq(pick("ompi", COLL_reduce_scatter, 100, 10, true), "ompi_butterfly");
  ck_assert_str_eq(pick("ompi", COLL_reduce_scatter, 2, 8, true), "ompi_ring");
  ck_assert_str_eq(pick("ompi", COLL_reduce_scatter_block, 100, 10, true), "ompi_butterfly");
  ck_assert_str_eq(pick("ompi", COLL_reduce_scatter, 6, 1, true), "reduce_scatterv");
  ck_assert_str_eq(pick("ompi", COLL_reduce_scatter, 8, 8, false), "reduce_scatterv");
  ck_assert_str_eq(pick("ompi", COLL_scan, 8, 8, true), "linear");

  /* the algorithms choose their own segment sizes, as in SimGrid */
  coll_features f = feat(COLL_bcast, 8, 1 << 20, true);
  ck_assert_int_eq(coll_select_ompi(&f), COLL_ALG_bcast_NTSL);
  ck_assert_uint_eq(f.segsize, 0);
}
END_TEST

/* a tree given as per-rank structures: every non-root's parent lists it as a child, and
 * walking from the root reaches every rank once */
static void check_tree(coll_tree *t, int n, int root)
{
  int *seen = calloc((size_t)n, sizeof *seen), *stack = malloc((size_t)n * sizeof *stack), sp = 0;
  stack[sp++] = root;
  seen[root] = 1;
  while (sp) {
    int r = stack[--sp];
    for (int i = 0; i < t[r].nchildren; i++) {
      int c = t[r].children[i];
      ck_assert_int_ge(c, 0);
      ck_assert_int_lt(c, n);
      ck_assert_int_eq(t[c].parent, r);
      ck_assert_int_eq(seen[c], 0);
      seen[c] = 1;
      stack[sp++] = c;
    }
  }
  for (int r = 0; r < n; r++)
    ck_assert_msg(seen[r], "rank %d unreachable (n=%d root=%d)", r, n, root);
  ck_assert_int_eq(t[root].parent, -1);
  free(seen);
  free(stack);
}

START_TEST(tree_shapes)
{
  coll_tree t[64];
  /* binary k-ary tree of 7: 0 -> 1 2; 1 -> 3 5; 2 -> 4 6 */
  for (int r = 0; r < 7; r++)
    coll_tree_kary(&t[r], 2, r, 7, 0);
  ck_assert_int_eq(t[1].children[0], 3);
  ck_assert_int_eq(t[1].children[1], 5);
  ck_assert_int_eq(t[2].children[0], 4);
  ck_assert_int_eq(t[6].parent, 2);
  /* two chains of 7: 0 -> 1 4; 1 -> 2 -> 3; 4 -> 5 -> 6 */
  for (int r = 0; r < 7; r++)
    coll_tree_chain(&t[r], 2, r, 7, 0);
  ck_assert_int_eq(t[0].nchildren, 2);
  ck_assert_int_eq(t[0].children[1], 4);
  ck_assert_int_eq(t[3].nchildren, 0);
  ck_assert_int_eq(t[4].parent, 0);
  /* binomial of 8: 0 -> 1 2 4; 1 -> 3 5; 3 -> 7 */
  for (int r = 0; r < 8; r++)
    coll_tree_bmtree(&t[r], r, 8, 0);
  ck_assert_int_eq(t[0].children[2], 4);
  ck_assert_int_eq(t[1].children[1], 5);
  ck_assert_int_eq(t[7].parent, 3);
  /* in-order binomial of 8: 4 -> 5 6; 6 -> 7 */
  for (int r = 0; r < 8; r++)
    coll_tree_in_order_bmtree(&t[r], r, 8, 0);
  ck_assert_int_eq(t[4].children[1], 6);
  ck_assert_int_eq(t[7].parent, 6);
  /* every shape spans every size and root */
  for (int n = 1; n <= 64; n++)
    for (int root = 0; root<n; root += n> 8 ? n / 3 : 1) {
      for (int r = 0; r < n; r++)
        coll_tree_kary(&t[r], 2, r, n, root);
      check_tree(t, n, root);
      for (int r = 0; r < n; r++)
        coll_tree_kary(&t[r], 3, r, n, root);
      check_tree(t, n, root);
      for (int f = 1; f <= 5; f++) {
        for (int r = 0; r < n; r++)
          coll_tree_chain(&t[r], f, r, n, root);
        check_tree(t, n, root);
      }
      for (int r = 0; r < n; r++)
        coll_tree_bmtree(&t[r], r, n, root);
      check_tree(t, n, root);
      for (int r = 0; r < n; r++)
        coll_tree_in_order_bmtree(&t[r], r, n, root);
      check_tree(t, n, root);
    }
  /* in-order binary tree: rooted at n-1, and an in-order walk gives 0 .. n-1 */
  for (int n = 1; n <= 64; n++) {
    for (int r = 0; r < n; r++)
      coll_tree_in_order_bintree(&t[r], r, n);
    check_tree(t, n, n - 1);
    for (int r = 0; r < n; r++) /* children: higher ranks (left) first, then lower */
      if (t[r].nchildren == 2)
        ck_assert_int_gt(t[r].children[0], t[r].children[1]);
  }
}
END_TEST

START_TEST(segment_counts)
{
  ck_assert_uint_eq(coll_ompi_segcount(1024, 8, 1000), 128);
  ck_assert_uint_eq(coll_ompi_segcount(1024, 8, 100), 100);  /* one segment holds it all */
  ck_assert_uint_eq(coll_ompi_segcount(1000, 12, 1000), 83); /* 83.3: rounded down */
  ck_assert_uint_eq(coll_ompi_segcount(1000, 16, 1000), 62); /* 62.5: rounded down too */
  ck_assert_uint_eq(coll_ompi_segcount(1020, 16, 1000), 64); /* 63.75: residual 12 > 8 */
  ck_assert_uint_eq(coll_ompi_segcount(4, 8, 1000), 1000);   /* below one element: one segment */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("coll");
  TCase *tc = tcase_create("coll");
  tcase_add_test(tc, list_is_consistent);
  tcase_add_test(tc, selectors_pick_fitting_algorithms);
  tcase_add_test(tc, fits_checks_requirements);
  tcase_add_test(tc, default_selector_is_simgrids);
  tcase_add_test(tc, mpich_thresholds);
  tcase_add_test(tc, ompi_thresholds);
  tcase_add_test(tc, tree_shapes);
  tcase_add_test(tc, segment_counts);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
