/* check_replay: the TI trace line parser (smpi/replay/replay_parse.c) on every action shape of
 * SimGrid 3.32's format, the datatype ids, and the messages of malformed lines. The replay
 * itself (timing against SimGrid, file layouts, file:line errors) is tested by
 * tests/mpi/replay_test.py. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/replay/replay.h"

static ti_action a;
static char err[256];

static int parse(const char *line, int n) { return ti_parse_line(line, n, &a, err, sizeof err); }

START_TEST(p2p_lines)
{
  ck_assert_int_eq(parse("3 send 1 7 1000 6", 4), 1);
  ck_assert_int_eq(a.kind, TI_SEND);
  ck_assert_int_eq(a.rank, 3);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.tag, 7);
  ck_assert_int_eq(a.count, 1000);
  ck_assert_int_eq(a.dt1, 6);
  ck_assert_int_eq(parse("1 irecv -333 9 10 0\n", 4), 1);
  ck_assert_int_eq(a.kind, TI_IRECV);
  ck_assert_int_eq(a.peer, -333);
  ck_assert_int_eq(parse("0 Isend 2 0 5", 4), 1); /* datatype left out */
  ck_assert_int_eq(a.kind, TI_ISEND);
  ck_assert_int_eq(a.dt1, TI_DT_DEFAULT);
  ck_assert_int_eq(parse("0 Ssend 1 1 0 0", 4), 1);
  ck_assert_int_eq(a.kind, TI_SSEND);
  ck_assert_int_eq(parse("0 wait -333 1 9", 4), 1);
  ck_assert_int_eq(a.kind, TI_WAIT);
  ck_assert_int_eq(a.peer, -333);
  ck_assert_int_eq(a.peer2, 1);
  ck_assert_int_eq(a.tag, 9);
  ck_assert_int_eq(parse("0 waitall 2", 4), 1);
  ck_assert_int_eq(a.count, 2);
  ck_assert_int_eq(parse("0 sendRecv 10 1 20 3 0 1", 4), 1);
  ck_assert_int_eq(a.count, 10);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.count2, 20);
  ck_assert_int_eq(a.peer2, 3);
  ck_assert_int_eq(a.dt2, 1);
}
END_TEST

START_TEST(collective_lines)
{
  ck_assert_int_eq(parse("0 bcast 50 1 0 ", 4), 1); /* SimGrid writes a trailing space */
  ck_assert_int_eq(a.kind, TI_BCAST);
  ck_assert_int_eq(a.count, 50);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(parse("0 reduce 50 1e6 2 0", 4), 1);
  ck_assert(a.amount == 1e6);
  ck_assert_int_eq(a.peer, 2);
  ck_assert_int_eq(parse("0 allreduce 50 0 0", 4), 1);
  ck_assert_int_eq(parse("0 gather 3 4 1 0 2", 4), 1);
  ck_assert_int_eq(a.count2, 4);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.dt2, 2);
  ck_assert_int_eq(parse("0 alltoallv 10 1 2 3 4 8 2 2 2 2 0 0", 4), 1);
  ck_assert_int_eq(a.ncounts, 4);
  ck_assert_int_eq(a.counts1[3], 4);
  ck_assert_int_eq(a.counts2[0], 2);
  ck_assert_int_eq(a.count2, 8);
  ck_assert_int_eq(parse("0 gatherv 1 1 2 3 4 0 0 0", 4), 1);
  ck_assert_int_eq(a.counts1[2], 3);
  ck_assert_int_eq(a.peer, 0);
  ck_assert_int_eq(parse("0 scatterv 1 2 3 4 1 2", 4), 1); /* types left out */
  ck_assert_int_eq(a.count, 1);
  ck_assert_int_eq(a.peer, 2);
  ck_assert_int_eq(parse("0 reducescatter 1 2 3 4 0 0", 4), 1);
  ck_assert_int_eq(a.counts1[1], 2);
  ck_assert_int_eq(parse("0 allgatherv 2 1 2 3 4", 4), 1);
  ck_assert_int_eq(parse("0 compute 1.48418", 0), 1);
  ck_assert(a.amount == 1.48418);
  ck_assert_int_eq(parse("0 init", 0), 1);
  ck_assert_int_eq(a.count, 0);
  ck_assert_int_eq(parse("0 init 1", 0), 1); /* MPE/TAU traces: default type MPI_DOUBLE */
  ck_assert_int_eq(a.count, 1);
}
END_TEST

START_TEST(nothing_to_do)
{
  ck_assert_int_eq(parse("", 4), 0);
  ck_assert_int_eq(parse("   \t \n", 4), 0);
  ck_assert_int_eq(parse("# a comment", 4), 0);
}
END_TEST

static void bad(const char *line, int n, const char *msg)
{
  ck_assert_msg(parse(line, n) == -1, "'%s' was accepted", line);
  ck_assert_msg(strstr(err, msg), "'%s': message '%s' lacks '%s'", line, err, msg);
  ck_assert_ptr_null(a.counts1);
}

START_TEST(malformed_lines)
{
  bad("0", 4, "no action");
  bad("x send 1 0 1", 4, "rank");
  bad("0 sned 1 0 1", 4, "unknown action 'sned'");
  bad("0 send 1 0", 4, "missing count");
  bad("0 send 1 0 12x", 4, "expected an integer");
  bad("0 send 1 0 10 6 7", 4, "too many");
  bad("0 send 1 0 10 49", 4, "not a SimGrid datatype id");
  bad("0 send 1 0 99999999999", 4, "out of range");
  bad("0 compute -1", 4, "non-negative");
  bad("0 compute nan", 4, "non-negative");
  bad("0 barrier 3", 4, "takes no argument");
  bad("0 wait 1 2", 4, "three arguments");
  bad("0 gatherv 1 1 2", 4, "expected 4 counts");
  bad("0 alltoallv 10 1 2 3 4 4 1 1", 4, "expected 4 counts");
  bad("0 alltoallv 1 1 1 1", 0, "communicator size");
}
END_TEST

START_TEST(datatype_ids)
{
  /* as SimGrid 3.32's recorder writes them */
  ck_assert_str_eq(ti_dt_name(0), "MPI_DOUBLE");
  ck_assert_str_eq(ti_dt_name(1), "MPI_INT");
  ck_assert_str_eq(ti_dt_name(6), "MPI_BYTE");
  ck_assert_int_eq(ti_dt_size(50), 32); /* MPI_LONG_DOUBLE_INT, padded */
  ck_assert_int_eq(ti_dt_id("MPI_CHAR"), 2);
  ck_assert_ptr_null(ti_dt_name(49));
  ck_assert_ptr_null(ti_dt_name(-1));
  ck_assert_int_eq(ti_dt_id("MPI_NOPE"), -1);
}
END_TEST

START_TEST(reuse_frees)
{
  /* the replay reuses one ti_action: each parse frees what the last one allocated (ASan) */
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(parse("0 alltoallv 2 1 1 2 1 1", 2), 1);
    ck_assert_int_eq(parse("0 send 1 0 1", 2), 1);
    ck_assert_ptr_null(a.counts1);
  }
  ti_action_clear(&a);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("replay");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, p2p_lines);
  tcase_add_test(tc, collective_lines);
  tcase_add_test(tc, nothing_to_do);
  tcase_add_test(tc, malformed_lines);
  tcase_add_test(tc, datatype_ids);
  tcase_add_test(tc, reuse_frees);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
