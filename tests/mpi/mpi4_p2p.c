/* mpi4_p2p: the MPI 4.0 functions smpi provides beyond MPI 3.1: MPI_Isendrecv and
 * MPI_Isendrecv_replace (a ring exchange; the status is the receive's; a blocking send that
 * follows to the same destination with the same tag arrives after it: non-overtaking),
 * MPI_Info_get_string (value and length + 1, truncation, a missing key), MPI_Info_create_env
 * and MPI_Comm_idup_with_info (the duplicate works). Any number of ranks (the suite uses 3).
 * Plain MPI 4.0: the test runs it under MPICH 4.0.2 too. */
#define MPITEST_NAME "mpi4_p2p"
#include "mpitest.h"

#include <string.h>

static void isendrecv(void)
{
  int me = wrank(), n = wsize(), right = (me + 1) % n, left = (me + n - 1) % n;
  int out[2] = {me, 10 * me}, in[2] = {-1, -1}, second = -1, third = 100 + me;
  MPI_Request q;
  MPI_Status st;
  MPI_Isendrecv(out, 2, MPI_INT, right, 4, in, 2, MPI_INT, left, 4, MPI_COMM_WORLD, &q);
  /* the same destination and tag again, blocking, after the nonblocking one */
  MPI_Request q2;
  MPI_Irecv(&second, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &q2);
  MPI_Send(&third, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
  MPI_Wait(&q, &st);
  MPI_Wait(&q2, MPI_STATUS_IGNORE);
  int cnt = -1;
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(in[0] == left && in[1] == 10 * left, "Isendrecv: %d %d", in[0], in[1]);
#ifndef MPICH_VERSION /* MPICH 4.0.2 leaves the status of an MPI_Isendrecv zeroed */
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 4 && cnt == 2, "Isendrecv status: %d %d %d",
        st.MPI_SOURCE, st.MPI_TAG, cnt);
#endif
  CHECK(second == 100 + left, "the later send arrived first or not at all: %d", second);

  int buf[3] = {me, me + 1, me + 2};
  MPI_Isendrecv_replace(buf, 3, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, &st);
  CHECK(buf[0] == left && buf[1] == left + 1 && buf[2] == left + 2, "Isendrecv_replace: %d %d %d",
        buf[0], buf[1], buf[2]);
#ifndef MPICH_VERSION
  CHECK(st.MPI_SOURCE == left, "Isendrecv_replace status: source %d", st.MPI_SOURCE);
#endif
}

static void info(void)
{
  MPI_Info i;
  char v[16];
  int len, flag;
  MPI_Info_create(&i);
  MPI_Info_set(i, "color", "vermilion");
  len = sizeof v;
  MPI_Info_get_string(i, "color", &len, v, &flag);
  CHECK(flag && len == 10 && strcmp(v, "vermilion") == 0, "get_string: %d %d %s", flag, len, v);
  len = 4;
  MPI_Info_get_string(i, "color", &len, v, &flag);
  CHECK(flag && len == 10 && strcmp(v, "ver") == 0, "get_string truncated: %d %d %s", flag, len,
        v);
  len = 0;
  MPI_Info_get_string(i, "color", &len, v, &flag);
  CHECK(flag && len == 10, "get_string length only: %d %d", flag, len);
  len = 7;
  MPI_Info_get_string(i, "shape", &len, v, &flag);
  CHECK(!flag && len == 7, "get_string of a missing key: %d %d", flag, len);
  MPI_Info_free(&i);

  MPI_Info env;
  int nkeys = -1;
  MPI_Info_create_env(0, NULL, &env);
  CHECK(env != MPI_INFO_NULL, "Info_create_env gave MPI_INFO_NULL");
  MPI_Info_get_nkeys(env, &nkeys);
  CHECK(nkeys >= 0, "Info_create_env: %d keys", nkeys);
  MPI_Info_free(&env);
}

static void idup_with_info(void)
{
  MPI_Info i;
  MPI_Comm c;
  MPI_Request q;
  int one = 1, sum = 0;
  MPI_Info_create(&i);
  MPI_Info_set(i, "mpi_assert_no_any_source", "false");
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, i, &c, &q);
  MPI_Info_free(&i);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == wsize(), "allreduce on the duplicate: %d", sum);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  isendrecv();
  info();
  idup_with_info();
  return mpitest_finalize();
}
