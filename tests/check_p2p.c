/* Matching queues (smpi/mpi/match.c): MPI's matching order, checked on hand-made cases and
 * against a naive reference on random operation sequences. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/p2p_private.h"
#include "tests/p2p_objects.h"

/* the hand-written cases leave their requests and messages to the teardown (the queues only
 * link them); the random test frees its own and turns tracking off */
static void *pool[64];
static int npool, tracking;
static void *track(void *p)
{
  if (tracking && npool < (int)(sizeof pool / sizeof *pool))
    pool[npool++] = p;
  return p;
}

static smpi_req *mk_recv(uint32_t ctx, int dst, int src, int tag)
{
  return track(p2p_test_recv(ctx, dst, src, tag));
}

static p2p_msg *mk_msg(uint32_t ctx, int dst, int src, int tag)
{
  return track(p2p_test_msg(ctx, dst, src, tag));
}

static void setup(void)
{
  mq_reset();
  p2p_test_seq = 0;
  tracking = 1;
}

static void teardown(void)
{
  while (npool > 0)
    free(pool[--npool]);
}

START_TEST(exact_fifo)
{
  p2p_msg *a = mk_msg(0, 1, 0, 5), *b = mk_msg(0, 1, 0, 5), *c = mk_msg(0, 1, 0, 7);
  ck_assert_ptr_null(mq_arrive(a));
  ck_assert_ptr_null(mq_arrive(b));
  ck_assert_ptr_null(mq_arrive(c));
  /* tag 7 skips the two tag-5 messages; then the tag-5 ones come in order */
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, 7)), c);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, 5)), a);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, MPI_ANY_TAG)), b);
  ck_assert_uint_eq(mq_node_count(), 0);
}
END_TEST

START_TEST(contexts_and_receivers_separate)
{
  p2p_msg *a = mk_msg(0, 1, 0, 5), *b = mk_msg(2, 1, 0, 5), *c = mk_msg(0, 3, 0, 5);
  mq_arrive(a);
  mq_arrive(b);
  mq_arrive(c);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(2, 1, 0, 5)), b);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 3, MPI_ANY_SOURCE, 5)), c);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, MPI_ANY_TAG)), a);
  smpi_req *r = mk_recv(1, 1, 0, 5); /* ctx 1 (a collective context) has nothing */
  ck_assert_ptr_null(mq_post_recv(r));
  mq_remove_recv(r);
  ck_assert_uint_eq(mq_node_count(), 0);
}
END_TEST

START_TEST(any_source_posted_order)
{
  /* posted: exact(src 2) seq1, any seq2, exact(src 2) seq3 */
  smpi_req *e1 = mk_recv(0, 0, 2, 1), *any = mk_recv(0, 0, MPI_ANY_SOURCE, 1),
           *e2 = mk_recv(0, 0, 2, 1);
  ck_assert_ptr_null(mq_post_recv(e1));
  ck_assert_ptr_null(mq_post_recv(any));
  ck_assert_ptr_null(mq_post_recv(e2));
  ck_assert_ptr_eq(mq_arrive(mk_msg(0, 0, 2, 1)), e1);
  ck_assert_ptr_eq(mq_arrive(mk_msg(0, 0, 2, 1)), any);
  ck_assert_ptr_eq(mq_arrive(mk_msg(0, 0, 2, 1)), e2);
  p2p_msg *m = mk_msg(0, 0, 2, 1);
  ck_assert_ptr_null(mq_arrive(m));
  mq_remove_msg(m);
  ck_assert_uint_eq(mq_node_count(), 0);
}
END_TEST

START_TEST(any_source_unexpected_arrival_order)
{
  p2p_msg *a = mk_msg(0, 0, 3, 9), *b = mk_msg(0, 0, 1, 4), *c = mk_msg(0, 0, 2, 4);
  mq_arrive(a);
  mq_arrive(b);
  mq_arrive(c);
  ck_assert_ptr_eq(mq_peek(0, 0, MPI_ANY_SOURCE, 4), b);
  ck_assert_ptr_eq(mq_peek(0, 0, MPI_ANY_SOURCE, MPI_ANY_TAG), a);
  ck_assert_ptr_eq(mq_peek(0, 0, 2, MPI_ANY_TAG), c);
  ck_assert_ptr_null(mq_peek(0, 0, 1, 9));
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 0, MPI_ANY_SOURCE, 4)), b);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 0, MPI_ANY_SOURCE, 4)), c);
  ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 0, MPI_ANY_SOURCE, MPI_ANY_TAG)), a);
  ck_assert_uint_eq(mq_node_count(), 0);
}
END_TEST

/* A receiver keeps its last emptied node (and its emptied ANY_SOURCE node) for the next
 * message of the same pair: the node must come back to life, be dropped when another pair
 * takes its place, and never hold anything after it was emptied (a first version of this
 * freed a node still kept, and only a 4 096-rank benchmark hung). */
START_TEST(emptied_nodes_reused)
{
  for (int round = 0; round < 3; round++) {
    /* unexpected then received, twice in a row on the same pair */
    p2p_msg *a = mk_msg(0, 1, 0, 5);
    ck_assert_ptr_null(mq_arrive(a));
    ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, 5)), a);
    p2p_msg *b = mk_msg(0, 1, 0, 5);
    ck_assert_ptr_null(mq_arrive(b));
    ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, 0, 5)), b);
    ck_assert_uint_eq(mq_node_count(), 0);
    /* posted then matched on the same pair, then another source for the same receiver */
    smpi_req *r = mk_recv(0, 1, 0, 6);
    ck_assert_ptr_null(mq_post_recv(r));
    ck_assert_ptr_eq(mq_arrive(mk_msg(0, 1, 0, 6)), r);
    p2p_msg *c = mk_msg(0, 1, 2, 6);
    ck_assert_ptr_null(mq_arrive(c));
    ck_assert_ptr_eq(mq_post_recv(mk_recv(0, 1, MPI_ANY_SOURCE, 6)), c);
    /* an ANY_SOURCE receive posted and matched, twice */
    for (int k = 0; k < 2; k++) {
      smpi_req *any = mk_recv(0, 1, MPI_ANY_SOURCE, 7);
      ck_assert_ptr_null(mq_post_recv(any));
      ck_assert_ptr_eq(mq_arrive(mk_msg(0, 1, 3 + k, 7)), any);
    }
    /* the first pair again: nothing is left over from before */
    ck_assert_ptr_null(mq_peek(0, 1, 0, MPI_ANY_TAG));
    ck_assert_ptr_null(mq_peek(0, 1, MPI_ANY_SOURCE, MPI_ANY_TAG));
    ck_assert_uint_eq(mq_node_count(), 0);
    /* the pool of tracked objects is 64: free this round's */
    teardown();
  }
}
END_TEST

/* Random sequences against a naive model: every posted receive and unexpected message in
 * one list each, in global order. */
enum { NOPS = 20000, MAXITEMS = NOPS };

START_TEST(random_against_reference)
{
  tracking = 0;
  static smpi_req *posted[MAXITEMS];
  static p2p_msg *unexp[MAXITEMS];
  size_t np = 0, nu = 0;
  srand(12345);
  for (int op = 0; op < NOPS; op++) {
    uint32_t ctx = (uint32_t)(rand() % 2);
    int dst = rand() % 3;
    int src = rand() % 40; /* many sources: the table grows and shrinks */
    int tag = rand() % 3;
    int kind = rand() % 10;
    if (kind < 4) { /* message arrives */
      p2p_msg *m = mk_msg(ctx, dst, src, tag);
      size_t best = np;
      for (size_t i = 0; i < np; i++) {
        smpi_req *r = posted[i];
        if (r->ctx == ctx && r->owner == dst && (r->peer == src || r->peer == MPI_ANY_SOURCE) &&
            (r->tag == tag || r->tag == MPI_ANY_TAG)) {
          best = i;
          break; /* posted[] is in seq order */
        }
      }
      smpi_req *got = mq_arrive(m);
      if (best == np) {
        ck_assert_ptr_null(got);
        unexp[nu++] = m;
      } else {
        ck_assert_ptr_eq(got, posted[best]);
        memmove(&posted[best], &posted[best + 1], (np - best - 1) * sizeof *posted);
        np--;
        free(got);
        free(m);
      }
    } else if (kind < 8) { /* receive posted */
      int rsrc = rand() % 4 == 0 ? MPI_ANY_SOURCE : src;
      int rtag = rand() % 4 == 0 ? MPI_ANY_TAG : tag;
      smpi_req *r = mk_recv(ctx, dst, rsrc, rtag);
      size_t best = nu;
      for (size_t i = 0; i < nu; i++) {
        p2p_msg *m = unexp[i];
        if (m->ctx == ctx && m->dst_world == dst && (rsrc == MPI_ANY_SOURCE || m->src == rsrc) &&
            (rtag == MPI_ANY_TAG || m->tag == rtag)) {
          best = i;
          break;
        }
      }
      p2p_msg *got = mq_post_recv(r);
      if (best == nu) {
        ck_assert_ptr_null(got);
        posted[np++] = r;
      } else {
        ck_assert_ptr_eq(got, unexp[best]);
        memmove(&unexp[best], &unexp[best + 1], (nu - best - 1) * sizeof *unexp);
        nu--;
        free(got);
        free(r);
      }
    } else if (kind == 8 && np) { /* cancel a receive */
      size_t i = (size_t)rand() % np;
      mq_remove_recv(posted[i]);
      free(posted[i]);
      memmove(&posted[i], &posted[i + 1], (np - i - 1) * sizeof *posted);
      np--;
    } else if (kind == 9 && nu) { /* a message withdrawn (cancel, mprobe) */
      size_t i = (size_t)rand() % nu;
      mq_remove_msg(unexp[i]);
      free(unexp[i]);
      memmove(&unexp[i], &unexp[i + 1], (nu - i - 1) * sizeof *unexp);
      nu--;
    }
  }
  while (np)
    mq_remove_recv(posted[--np]), free(posted[np]);
  while (nu)
    mq_remove_msg(unexp[--nu]), free(unexp[nu]);
  ck_assert_uint_eq(mq_node_count(), 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("p2p");
  TCase *tc = tcase_create("match");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, exact_fifo);
  tcase_add_test(tc, contexts_and_receivers_separate);
  tcase_add_test(tc, any_source_posted_order);
  tcase_add_test(tc, any_source_unexpected_arrival_order);
  tcase_add_test(tc, emptied_nodes_reused);
  tcase_add_test(tc, random_against_reference);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
