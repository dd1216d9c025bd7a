/* info_hints: MPI_Comm_dup_with_info takes a valid info object and MPI_INFO_NULL (MPI 3.1
 * section 6.4.2; the duplicate then works like any), and the window info keys the standard
 * defines (section 11.2.7: no_locks, accumulate_ordering, accumulate_ops, same_size,
 * same_disp_unit) read back from MPI_Win_get_info with their defaults, then with the values
 * given at creation or by MPI_Win_set_info. Any number of ranks (the suite uses 2). Plain
 * MPI: the test runs it under MPICH too. */
#define MPITEST_NAME "info_hints"
#include "mpitest.h"

#include <string.h>

static void expect(MPI_Info info, const char *key, const char *want, const char *when)
{
  char v[MPI_MAX_INFO_VAL + 1] = "";
  int flag = 0;
  MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, want) == 0, "%s: %s = %s (flag %d), expected %s", when, key, v, flag,
        want);
}

static void dup_with_info(void)
{
  MPI_Info info;
  MPI_Comm c;
  int n = wsize(), sum = 0, one = 1;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  CHECK_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c), MPI_SUCCESS, "valid info");
  MPI_Info_free(&info);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == n, "allreduce on the duplicate: %d", sum);
  MPI_Comm_free(&c);
  CHECK_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c), MPI_SUCCESS,
              "MPI_INFO_NULL");
  sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == n, "allreduce on the MPI_INFO_NULL duplicate: %d", sum);
  MPI_Comm_free(&c);
}

static void window_keys(void)
{
  int buf[4];
  MPI_Win w;
  MPI_Info info;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_get_info(w, &info);
  expect(info, "no_locks", "false", "default");
  expect(info, "accumulate_ordering", "rar,raw,war,waw", "default");
  expect(info, "accumulate_ops", "same_op_no_op", "default");
  expect(info, "same_size", "false", "default");
  expect(info, "same_disp_unit", "false", "default");
  MPI_Info_free(&info);
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Win_set_info(w, info);
  MPI_Info_free(&info);
  MPI_Win_get_info(w, &info);
  expect(info, "accumulate_ordering", "none", "after MPI_Win_set_info");
  expect(info, "accumulate_ops", "same_op_no_op", "after MPI_Win_set_info");
  MPI_Info_free(&info);
  MPI_Win_free(&w);

  /* given at creation */
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "true");
  MPI_Info_set(info, "same_size", "true");
  MPI_Info_set(info, "same_disp_unit", "true");
  MPI_Info_set(info, "accumulate_ops", "same_op");
  MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &w);
  MPI_Info_free(&info);
  MPI_Win_get_info(w, &info);
  expect(info, "no_locks", "true", "at creation");
  expect(info, "same_size", "true", "at creation");
  expect(info, "same_disp_unit", "true", "at creation");
  expect(info, "accumulate_ops", "same_op", "at creation");
  MPI_Info_free(&info);
  MPI_Win_free(&w);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  dup_with_info();
  window_keys();
  return mpitest_finalize();
}
