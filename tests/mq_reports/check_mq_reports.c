/* What a rank has pending, found for reports without per-rank lists (issue 27, bytes per
 * message): messages and requests no longer link themselves into their rank's lists, so
 * MPI_Finalize's warnings and the deadlock hints walk the matching table (match.c,
 * mq_posted_by, mq_unexpected_to, mq_rendezvous_from) and sort by posting order. These
 * tests post on several contexts interleaved, so that the table's hash order differs from
 * the posting order, and check that each walk returns exactly the rank's objects in the
 * order the lists kept; and that the per-message objects keep the sizes they reached. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "smpi/mpi/p2p_private.h"
#include "src/list.h"
#include "tests/p2p_objects.h"

/* every object a test made, freed by the teardown (LeakSanitizer in CI's sanitized build
 * reports those a test took off the queues and dropped) */
static void *made[512];
static size_t n_made;

static void *made_add(void *p)
{
  ck_assert_uint_lt(n_made, sizeof made / sizeof *made);
  made[n_made++] = p;
  return p;
}

static smpi_req *mk_req(uint32_t ctx, int dst, int src, int tag)
{
  return made_add(p2p_test_recv(ctx, dst, src, tag));
}

static p2p_msg *mk_msg(uint32_t ctx, int dst, int src, int tag)
{
  return made_add(p2p_test_msg(ctx, dst, src, tag));
}

static void setup(void)
{
  mq_reset();
  p2p_test_seq = 0;
  n_made = 0;
}

static void teardown(void)
{
  mq_reset(); /* drops the queues, not what they held */
  while (n_made > 0)
    free(made[--n_made]);
}

START_TEST(posted_in_posting_order)
{
  /* rank 3 posts 60 receives over 6 contexts and 5 sources (ANY_SOURCE among them); rank 4
   * posts some too, which must not show */
  enum { N = 60 };
  smpi_req *mine[N];
  for (int i = 0; i < N; i++) {
    mine[i] = mk_req((uint32_t)(i * 7 % 6), 3, i % 5 == 4 ? MPI_ANY_SOURCE : i % 5, i);
    ck_assert_ptr_null(mq_post_recv(mine[i]));
    ck_assert_ptr_null(mq_post_recv(mk_req((uint32_t)(i % 3), 4, i % 2, i)));
  }
  /* one taken by a message, one cancelled: both gone from the walk */
  p2p_msg *m = mk_msg(mine[10]->ctx, 3, mine[10]->peer, 10);
  ck_assert_ptr_eq(mq_arrive(m), mine[10]);
  mq_remove_recv(mine[20]);
  smpi_req **v;
  size_t n = mq_posted_by(3, &v);
  ck_assert_uint_eq(n, N - 2);
  for (size_t i = 0, k = 0; i < N; i++) {
    if (i == 10 || i == 20)
      continue;
    ck_assert_ptr_eq(v[k], mine[i]);
    k++;
  }
  free(v);
  ck_assert_uint_eq(mq_posted_by(5, &v), 0); /* nothing posted: no walk, no array */
  ck_assert_ptr_null(v);
}
END_TEST

START_TEST(unexpected_in_arrival_order)
{
  enum { N = 50 };
  p2p_msg *mine[N];
  for (int i = 0; i < N; i++) {
    mine[i] = mk_msg((uint32_t)(i * 5 % 7), 2, i % 4, i);
    ck_assert_ptr_null(mq_arrive(mine[i]));
    ck_assert_ptr_null(mq_arrive(mk_msg((uint32_t)(i % 7), 1, i % 4, i))); /* another rank's */
  }
  /* one received, one taken by MPI_Mprobe (off the queues): both gone */
  ck_assert_ptr_eq(mq_post_recv(mk_req(mine[7]->ctx, 2, mine[7]->src, 7)), mine[7]);
  mq_remove_msg(mine[30]);
  p2p_msg **v;
  size_t n = mq_unexpected_to(2, &v);
  ck_assert_uint_eq(n, N - 2);
  for (size_t i = 0, k = 0; i < N; i++) {
    if (i == 7 || i == 30)
      continue;
    ck_assert_ptr_eq(v[k], mine[i]);
    k++;
  }
  free(v);
}
END_TEST

START_TEST(rendezvous_of_a_sender)
{
  /* rank 1's unmatched rendezvous messages among others to several receivers */
  enum { N = 40 };
  p2p_msg *mine[N];
  size_t expect = 0;
  for (int i = 0; i < N; i++) {
    mine[i] = mk_msg((uint32_t)(i % 3), i % 6 + 2, 1, i);
    mine[i]->rdv_listed = i % 4 != 0; /* the others are detached */
    expect += mine[i]->rdv_listed;
    ck_assert_ptr_null(mq_arrive(mine[i]));
    p2p_msg *o = mk_msg((uint32_t)(i % 3), i % 6 + 2, 0, i); /* rank 0's */
    o->rdv_listed = true;
    ck_assert_ptr_null(mq_arrive(o));
  }
  p2p_msg **v;
  size_t n = mq_rendezvous_from(1, expect, &v);
  ck_assert_uint_eq(n, expect);
  for (size_t i = 0, k = 0; i < N; i++) {
    if (!mine[i]->rdv_listed)
      continue;
    ck_assert_ptr_eq(v[k], mine[i]);
    k++;
  }
  free(v);
}
END_TEST

START_TEST(sizes)
{
  /* the sizes p2p_private.h promises (P2P_*_BYTES), and no more: a 4 096-rank linear
   * Alltoall holds 16.8 M of each */
  ck_assert_uint_le(sizeof(smpi_req), 144);
  ck_assert_uint_le(sizeof(p2p_msg), 136);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("mq_reports");
  TCase *tc = tcase_create("walks");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, posted_in_posting_order);
  tcase_add_test(tc, unexpected_in_arrival_order);
  tcase_add_test(tc, rendezvous_of_a_sender);
  tcase_add_test(tc, sizes);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
