/* Per-message work that a cut took out, counted so that undoing the cut fails here:
 *
 * - matching queues: a receiver keeps the nodes of its last MQ_KEEP emptied sources, so a
 *   2-D stencil (4 neighbours) creates its (context, receiver, source) nodes in the first
 *   step and never again; with one kept node it created and dropped 3 per receiver and step;
 * - the event heap compares (key, seq) as one 128-bit integer (heap_ord): the order must be
 *   that of the doubles, ties in push order, -0.0 equal to +0.0, negatives below zero; and
 *   every node must stay in the slot the textbook heap puts it in (act_class.c reads its
 *   members heap in array order: another arrangement would move dates' last bits);
 * - the handle table's ring of freed indices is indexed with a mask: FIFO reuse after the
 *   reuse delay, also when the ring grows while its head is not at slot 0. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p_private.h"
#include "src/heap.h"
#include "src/list.h"
#include "tests/p2p_objects.h"

/* ---- matching queues ---- */

/* One step of a P x Q periodic stencil (bench_mpi.c's): each rank posts its 4 receives
 * (tags name the direction), then every rank sends to its 4 neighbours; every message
 * matches a posted receive. With unexpected = true the messages come first. */
static void stencil_step(int P, int Q, bool unexpected)
{
  int n = P * Q;
  smpi_req **rq = calloc((size_t)n * 4, sizeof *rq);
  p2p_msg **ms = calloc((size_t)n * 4, sizeof *ms);
  for (int me = 0; me < n; me++) {
    int r = me / Q, c = me % Q;
    int nb[4] = {((r + 1) % P) * Q + c, ((r + P - 1) % P) * Q + c, r * Q + (c + Q - 1) % Q,
                 r * Q + (c + 1) % Q}; /* down, up, left, right */
    for (int d = 0; d < 4; d++) {
      rq[me * 4 + d] = p2p_test_recv(0, me, nb[d], d);
      ms[me * 4 + d] = p2p_test_msg(0, me, nb[d], d); /* what nb[d] sends to me with tag d */
    }
  }
  if (unexpected) {
    for (int i = 0; i < n * 4; i++)
      ck_assert_ptr_null(mq_arrive(ms[i]));
    for (int i = 0; i < n * 4; i++) {
      p2p_msg *m = mq_post_recv(rq[i]);
      ck_assert_ptr_nonnull(m);
      ck_assert_int_eq(m->dst_world, rq[i]->owner);
      ck_assert_int_eq(m->src, rq[i]->peer);
      ck_assert_int_eq(m->tag, rq[i]->tag);
    }
  } else {
    for (int i = 0; i < n * 4; i++)
      ck_assert_ptr_null(mq_post_recv(rq[i]));
    for (int i = 0; i < n * 4; i++) {
      smpi_req *r = mq_arrive(ms[i]);
      ck_assert_ptr_nonnull(r);
      ck_assert_int_eq(r->owner, ms[i]->dst_world);
      ck_assert_int_eq(r->peer, ms[i]->src);
      ck_assert_int_eq(r->tag, ms[i]->tag);
    }
  }
  ck_assert_uint_eq(mq_node_count(), 0);
  for (int i = 0; i < n * 4; i++) {
    free(rq[i]);
    free(ms[i]);
  }
  free(rq);
  free(ms);
}

START_TEST(stencil_creates_nodes_once)
{
  mq_reset();
  const int P = 4, Q = 8, n = P * Q; /* 32 ranks, 4 distinct neighbours each */
  stencil_step(P, Q, false);
  size_t first = mq_nodes_created();
  ck_assert_uint_eq(first, (size_t)n * 4); /* one node per (receiver, source) */
  for (int s = 0; s < 20; s++)
    stencil_step(P, Q, s % 3 == 2);
  /* posted or unexpected, later steps find every node kept: 0 creates per message (one
   * kept node per receiver: 3 creates per receiver and step, 1 920 here; the unexpected
   * steps also need the receiver's ANY node for the arrival order: kept once made) */
  ck_assert_uint_le(mq_nodes_created() - first, (size_t)n);
  mq_reset();
}
END_TEST

/* More sources than kept nodes: still right, and the empty nodes a receiver keeps stay
 * bounded (mq_node_count counts only the non-empty ones, so the live table is checked
 * through creates: each round recreates what fell out). */
START_TEST(many_sources_stay_correct)
{
  mq_reset();
  for (int round = 0; round < 10; round++) {
    for (int src = 0; src < 9; src++) {
      smpi_req *r = p2p_test_recv(0, 0, src, 1);
      ck_assert_ptr_null(mq_post_recv(r));
      p2p_msg *m = p2p_test_msg(0, 0, src, 1);
      ck_assert_ptr_eq(mq_arrive(m), r);
      free(r);
      free(m);
    }
    /* another context, same sources: its own nodes, not the kept ones */
    smpi_req *r = p2p_test_recv(7, 0, 3, 1);
    ck_assert_ptr_null(mq_post_recv(r));
    p2p_msg *m = p2p_test_msg(7, 0, 3, 1);
    ck_assert_ptr_eq(mq_arrive(m), r);
    free(r);
    free(m);
    ck_assert_uint_eq(mq_node_count(), 0);
  }
  mq_reset();
}
END_TEST

/* ---- event heap ---- */

typedef struct item {
  heap_node hn;
  double key;
  uint64_t order;
} item;

static int ref_cmp(const void *a, const void *b)
{
  const item *x = *(item *const *)a, *y = *(item *const *)b;
  if (x->key < y->key)
    return -1;
  if (x->key > y->key)
    return 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

START_TEST(heap_ord_is_double_order)
{
  const double v[] = {-INFINITY, -1e300, -2.5, -1.0, -5e-324,       -0.0, 0.0,   5e-324,
                      2.2e-308,  1e-9,   0.5,  1.0,  1.0 + 2.2e-16, 3.0,  1e300, INFINITY};
  size_t n = sizeof v / sizeof *v;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      ck_assert_int_eq(heap_ord(v[i]) < heap_ord(v[j]), v[i] < v[j]);
      ck_assert_int_eq(heap_ord(v[i]) == heap_ord(v[j]), v[i] == v[j]);
    }
  for (size_t i = 0; i < n; i++)
    ck_assert(heap_unord(heap_ord(v[i])) == v[i]);
}
END_TEST

/* Pops (with updates and removes between) against a sort of (key, push order): many ties,
 * negative keys, -0.0 beside +0.0. */
START_TEST(heap_ties_and_signs)
{
  enum { N = 4000 };
  item *it = calloc(N, sizeof *it);
  item **ref = calloc(N, sizeof *ref);
  heap h;
  heap_init(&h);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < N; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int k = (int)(x % 7);
    it[i].key = k == 0 ? -0.0 : k == 1 ? 0.0 : k == 2 ? -3.0 : (double)(x % 5) * 0.125;
    it[i].order = (uint64_t)i;
    heap_node_init(&it[i].hn);
    heap_push(&h, &it[i].hn, it[i].key);
  }
  /* move a third to new keys: heap_update keeps the push order for ties */
  for (int i = 0; i < N; i += 3) {
    it[i].key = it[i].key == -3.0 ? 0.125 : -3.0;
    heap_update(&h, &it[i].hn, it[i].key);
  }
  int n = 0;
  for (int i = 0; i < N; i++)
    if (i % 11 == 5)
      heap_remove(&h, &it[i].hn);
    else
      ref[n++] = &it[i];
  qsort(ref, (size_t)n, sizeof *ref, ref_cmp);
  for (int i = 0; i < n; i++) {
    ck_assert(heap_top_key(&h) == ref[i]->key);
    heap_node *p = heap_pop(&h);
    ck_assert_ptr_eq(p, &ref[i]->hn);
  }
  ck_assert_ptr_null(heap_pop(&h));
  heap_destroy(&h);
  free(it);
  free(ref);
}
END_TEST

/* The textbook binary heap on the same (key, seq) order, with double comparisons: src/heap.c
 * must leave every node in the slot this one does. */
typedef struct ref_heap {
  int slot[2048]; /* item ids */
  size_t n;
} ref_heap;

static item *ref_items;

static bool ref_before(int a, int b)
{
  const item *x = &ref_items[a], *y = &ref_items[b];
  return x->key < y->key || (x->key == y->key && x->order < y->order);
}

static void ref_up(ref_heap *r, size_t i)
{
  int v = r->slot[i];
  while (i > 0 && ref_before(v, r->slot[(i - 1) / 2])) {
    r->slot[i] = r->slot[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  r->slot[i] = v;
}

static void ref_down(ref_heap *r, size_t i)
{
  int v = r->slot[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= r->n)
      break;
    if (c + 1 < r->n && ref_before(r->slot[c + 1], r->slot[c]))
      c++;
    if (!ref_before(r->slot[c], v))
      break;
    r->slot[i] = r->slot[c];
    i = c;
  }
  r->slot[i] = v;
}

static size_t ref_find(const ref_heap *r, int id)
{
  for (size_t i = 0; i < r->n; i++)
    if (r->slot[i] == id)
      return i;
  ck_abort_msg("item %d not in the reference heap", id);
  return 0;
}

static void ref_remove_at(ref_heap *r, size_t i)
{
  r->slot[i] = r->slot[--r->n];
  if (i == r->n)
    return;
  if (i > 0 && ref_before(r->slot[i], r->slot[(i - 1) / 2]))
    ref_up(r, i);
  else
    ref_down(r, i);
}

START_TEST(heap_layout_is_textbook)
{
  enum { N = 1500 };
  item *it = calloc(N, sizeof *it);
  ref_items = it;
  ref_heap *r = calloc(1, sizeof *r);
  heap h;
  heap_init(&h);
  uint64_t x = 0x2545F4914F6CDD1Dull, pushes = 0;
  for (int i = 0; i < N; i++)
    heap_node_init(&it[i].hn);
  for (int op = 0; op < 60000; op++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int id = (int)(x % N), kind = (int)((x >> 20) % 8);
    double key = (double)((x >> 32) % 6) * 0.5; /* few distinct keys: ties everywhere */
    if (!heap_contains(&it[id].hn)) {
      it[id].key = key;
      it[id].order = pushes++;
      heap_push(&h, &it[id].hn, key);
      r->slot[r->n++] = id;
      ref_up(r, r->n - 1);
    } else if (kind < 3) { /* pop */
      heap_node *p = heap_pop(&h);
      ck_assert_ptr_eq(p, &it[r->slot[0]].hn);
      ref_remove_at(r, 0);
    } else if (kind < 5) { /* remove anywhere */
      heap_remove(&h, &it[id].hn);
      ref_remove_at(r, ref_find(r, id));
    } else { /* new key, same push order */
      size_t i = ref_find(r, id);
      double old = it[id].key;
      it[id].key = key;
      heap_update(&h, &it[id].hn, key);
      if (key < old)
        ref_up(r, i);
      else if (key > old)
        ref_down(r, i);
    }
    ck_assert_uint_eq(heap_size(&h), r->n);
    if (op % 97 == 0 || op > 59000)
      for (size_t i = 0; i < r->n; i++) {
        ck_assert_ptr_eq(h.items[i], &it[r->slot[i]].hn);
        ck_assert_uint_eq(h.items[i]->index, i);
      }
  }
  heap_destroy(&h);
  free(r);
  free(it);
}
END_TEST

/* ---- handle ring ---- */

START_TEST(handle_ring_fifo_across_growth)
{
  smpi_handle_reset_all();
  enum { LIVE = 6000 };
  static int objs[LIVE];
  int *hs = calloc(LIVE, sizeof *hs);
  for (int i = 0; i < LIVE; i++)
    hs[i] = smpi_handle_new(SMPI_KIND_REQUEST, &objs[i]);
  /* free 1 500, take 400 back (the ring's head moves off slot 0), then free 4 000 more: the
   * ring grows from 2 048 with a wrapped content */
  int freed[LIVE], nfreed = 0, next = 0;
  for (int i = 0; i < 1500; i++)
    smpi_handle_free(freed[nfreed++] = hs[i]);
  for (int i = 0; i < 400; i++) {
    int h = smpi_handle_new(SMPI_KIND_REQUEST, &objs[i]);
    ck_assert_int_eq(SMPI_HANDLE_INDEX(h), SMPI_HANDLE_INDEX(freed[next++]));
  }
  for (int i = 1500; i < 5500; i++)
    smpi_handle_free(freed[nfreed++] = hs[i]);
  /* every index comes back in the order it was freed, until the delay holds the rest */
  while (nfreed - next > SMPI_HANDLE_REUSE_DELAY) {
    int h = smpi_handle_new(SMPI_KIND_REQUEST, &objs[0]);
    ck_assert_int_eq(SMPI_HANDLE_INDEX(h), SMPI_HANDLE_INDEX(freed[next++]));
  }
  free(hs);
  smpi_handle_reset_all();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("per_message");
  TCase *tc = tcase_create("cuts");
  tcase_add_test(tc, stencil_creates_nodes_once);
  tcase_add_test(tc, many_sources_stay_correct);
  tcase_add_test(tc, heap_ord_is_double_order);
  tcase_add_test(tc, heap_ties_and_signs);
  tcase_add_test(tc, heap_layout_is_textbook);
  tcase_add_test(tc, handle_ring_fifo_across_growth);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
