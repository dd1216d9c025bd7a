/* check_rma: the target-address rule of one-sided operations (smpi_win_target_addr), which
 * decides between a landing address and MPI_ERR_RMA_RANGE, for windows with a base and a
 * displacement unit and for dynamic windows with attached regions. The MPI-level behaviour
 * is in tests/mpi/rma_*.c. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "smpi/rma/win.h"

static smpi_win make_win(char *base, MPI_Aint size, int unit, int flavor)
{
  smpi_win w = {0};
  w.base = base;
  w.size = size;
  w.disp_unit = unit;
  w.flavor = flavor;
  return w;
}

START_TEST(test_created)
{
  char mem[64];
  smpi_win w = make_win(mem, 64, 4, MPI_WIN_FLAVOR_CREATE);
  int err = -1;
  /* 4 ints at displacement 12 (bytes 48 .. 64): the last bytes of the window */
  ck_assert_ptr_eq(smpi_win_target_addr(&w, 12, 0, 16, &err), mem + 48);
  ck_assert_int_eq(err, MPI_SUCCESS);
  /* one byte further is out */
  ck_assert_ptr_null(smpi_win_target_addr(&w, 12, 0, 17, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
  ck_assert_ptr_null(smpi_win_target_addr(&w, 16, 0, 1, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
  /* a type whose true lower bound is negative reaches before the displacement */
  ck_assert_ptr_eq(smpi_win_target_addr(&w, 1, -4, 4, &err), mem + 4);
  ck_assert_ptr_null(smpi_win_target_addr(&w, 0, -4, 4, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
  /* nothing touched (count 0): any displacement is fine, even past the end */
  /* compared as integers: mem + 400 would be a pointer past the array, undefined in C */
  ck_assert_uint_eq((uintptr_t)smpi_win_target_addr(&w, 100, 0, 0, &err), (uintptr_t)mem + 400);
  ck_assert_int_eq(err, MPI_SUCCESS);
}
END_TEST

START_TEST(test_empty_window)
{
  smpi_win w = make_win(NULL, 0, 1, MPI_WIN_FLAVOR_ALLOCATE);
  int err = -1;
  ck_assert_ptr_null(smpi_win_target_addr(&w, 0, 0, 1, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
}
END_TEST

START_TEST(test_dynamic)
{
  char a[32], b[16];
  rma_region regions[2] = {{a, sizeof a}, {b, sizeof b}};
  smpi_win w = make_win(MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  w.regions = regions;
  w.nregions = 2;
  int err = -1;
  /* the displacement is the address itself */
  ck_assert_ptr_eq(smpi_win_target_addr(&w, (MPI_Aint)(a + 8), 0, 24, &err), a + 8);
  ck_assert_int_eq(err, MPI_SUCCESS);
  ck_assert_ptr_eq(smpi_win_target_addr(&w, (MPI_Aint)b, 0, 16, &err), b);
  /* past the end of a region, even if another region happens to follow in memory, is out:
   * one access must lie inside one attachment */
  ck_assert_ptr_null(smpi_win_target_addr(&w, (MPI_Aint)(a + 8), 0, 25, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
  w.nregions = 0;
  ck_assert_ptr_null(smpi_win_target_addr(&w, (MPI_Aint)b, 0, 1, &err));
  ck_assert_int_eq(err, MPI_ERR_RMA_RANGE);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("rma");
  TCase *tc = tcase_create("target address");
  tcase_add_test(tc, test_created);
  tcase_add_test(tc, test_empty_window);
  tcase_add_test(tc, test_dynamic);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
