/* The table of resident ranges (smpi/runtime/copies.c) that spares a reused buffer its
 * residency checks (mincore) at every message, counted so that undoing it fails here:
 *
 * - 128 receive buffers (more than the 64 ranges remembered before), 4 rounds of the calls
 *   a receive makes with smpi/display-timing (first-touch count, prefault, copy): one check
 *   per buffer in all, in the first round (the prefault reuses the first-touch count), and
 *   every first touch counted once;
 * - an Alltoall's receive buffer: 64 blocks side by side, not page-aligned, merge into one
 *   range, so the second call checks nothing;
 * - more ranges than the table holds, in descending and random order: it forgets and keeps
 *   answering right (a page never written is always checked and counted);
 * - a fresh mapping is checked and counted; a range reaching past a known one is checked. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "smpi/runtime/copies.h"

#define KIB ((size_t)1024)
#define PAGE ((size_t)4096)

static char *fresh(size_t n)
{
  char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(p, MAP_FAILED);
  return p;
}

/* what a receive of n bytes into dst does with display-timing on (request.c, datatype.c) */
static void receive(char *dst, const char *src, size_t n)
{
  smpi_first_touch_note(dst, n);
  (void)smpi_copy_timed(dst, n);
  smpi_copy_prefault(dst, n);
  memcpy(dst, src, n);
}

START_TEST(reused_buffers)
{
  enum { BUFS = 128, ROUNDS = 4 };
  const size_t n = 64 * KIB;
  char *src = malloc(n), *bufs[BUFS];
  memset(src, 7, n);
  for (int b = 0; b < BUFS; b++)
    bufs[b] = fresh(n);
  smpi_copies = (smpi_copy_stats){.watch = true};
  for (int r = 0; r < ROUNDS; r++) {
    for (int b = 0; b < BUFS; b++)
      receive(bufs[b], src, n);
    ck_assert_uint_eq(smpi_copies.residency_checks, BUFS); /* first round only */
    ck_assert_uint_eq(smpi_copies.touched, BUFS * (n / PAGE));
  }
  for (int b = 0; b < BUFS; b++) {
    ck_assert_int_eq(bufs[b][n - 1], 7);
    munmap(bufs[b], n);
  }
  free(src);
}
END_TEST

START_TEST(alltoall_blocks)
{
  const size_t block = 16 * KIB, off = 100; /* blocks straddle pages */
  const int blocks = 64;
  char *map = fresh(blocks * block + 2 * PAGE), *rb = map + off, *src = malloc(block);
  memset(src, 3, block);
  smpi_copies = (smpi_copy_stats){.watch = true};
  for (int b = 0; b < blocks; b++)
    receive(rb + b * block, src, block);
  unsigned long long first = smpi_copies.residency_checks;
  ck_assert_uint_le(first, blocks);
  ck_assert_uint_eq(smpi_copies.touched, (off + blocks * block + PAGE - 1) / PAGE);
  for (int b = blocks - 1; b >= 0; b--) /* the next call, in another order */
    receive(rb + b * block, src, block);
  ck_assert_uint_eq(smpi_copies.residency_checks, first);
  /* a range reaching one page past the buffer's pages is checked, and counts that page */
  char *end = map + ((off + blocks * block + PAGE - 1) / PAGE) * PAGE;
  smpi_first_touch_note(end - PAGE, 2 * PAGE);
  ck_assert_uint_eq(smpi_copies.residency_checks, first + 1);
  ck_assert_uint_eq(smpi_copies.touched, (end - map) / PAGE + 1);
  munmap(map, blocks * block + 2 * PAGE);
  free(src);
}
END_TEST

/* ranges of one page with a gap between them, more than the table holds */
static void many_ranges(int order)
{
  enum { N = 5000 };
  char *map = fresh(2 * N * PAGE), src[64] = {1};
  int *idx = malloc(N * sizeof *idx);
  for (int i = 0; i < N; i++)
    idx[i] = order == 0 ? N - 1 - i : i;
  if (order == 1) {
    srand(27);
    for (int i = N - 1; i > 0; i--) {
      int j = rand() % (i + 1), t = idx[i];
      idx[i] = idx[j];
      idx[j] = t;
    }
  }
  smpi_copies = (smpi_copy_stats){.watch = true};
  for (int i = 0; i < N; i++) /* each page written after its count: one first touch each */
    receive(map + 2 * (size_t)idx[i] * PAGE, src, sizeof src);
  ck_assert_uint_eq(smpi_copies.touched, N);
  ck_assert_uint_eq(smpi_copies.residency_checks, N);
  /* the latest ones are kept: written again, no check */
  for (int i = N - 100; i < N; i++)
    receive(map + 2 * (size_t)idx[i] * PAGE, src, sizeof src);
  ck_assert_uint_eq(smpi_copies.residency_checks, N);
  /* all written again: nothing new to count, whatever the table forgot */
  for (int i = 0; i < N; i++)
    receive(map + 2 * (size_t)idx[i] * PAGE, src, sizeof src);
  ck_assert_uint_eq(smpi_copies.touched, N);
  /* the gap pages were never written: always checked, always counted */
  unsigned long long checks = smpi_copies.residency_checks;
  for (int i = 0; i < N; i += 97)
    smpi_first_touch_note(map + (2 * (size_t)i + 1) * PAGE, 64);
  ck_assert_uint_eq(smpi_copies.touched, N + (N + 96) / 97);
  ck_assert_uint_eq(smpi_copies.residency_checks, checks + (N + 96) / 97);
  munmap(map, 2 * N * PAGE);
  free(idx);
}

START_TEST(more_ranges_than_slots) { many_ranges(_i); }
END_TEST

START_TEST(fresh_mapping_counted)
{
  const size_t n = 32 * KIB;
  char *src = calloc(1, n);
  smpi_copies = (smpi_copy_stats){.watch = true};
  for (int k = 0; k < 3; k++) {
    char *p = fresh(n);
    receive(p, src, n);
    munmap(p, n);
  }
  /* the kernel may give the same address back: the table may then believe the new pages
   * resident (copies.c: the floor then counts fewer touches, never more); at least the
   * first mapping's pages are counted */
  ck_assert_uint_ge(smpi_copies.touched, n / PAGE);
  ck_assert_uint_le(smpi_copies.touched, 3 * n / PAGE);
  free(src);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("resident");
  TCase *tc = tcase_create("ranges");
  tcase_add_test(tc, reused_buffers);
  tcase_add_test(tc, alltoall_blocks);
  tcase_add_loop_test(tc, more_ranges_than_slots, 0, 2);
  tcase_add_test(tc, fresh_mapping_counted);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
