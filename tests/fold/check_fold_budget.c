/* Folding at the seed study's sizes (smpi/emulation/shared_malloc.c, "the mapping budget"
 * and layout()): partially shared allocations under huge pages keep their private bytes at
 * the granularity of ordinary pages, and every folded byte is still folded.
 *
 * Huge pages are stood in for by smpi_shared_test_granularity(2 MiB): the same layout over a
 * memfd of ordinary pages, so that this runs on machines without a hugetlbfs. What is
 * measured is the kernel's view: the anonymous (private) mappings of /proc/self/maps that
 * cover an allocation, their size, and the pages resident in them (mincore). */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "smpi/emulation/shared_malloc.h"
#include "smpi/smpi.h"
#include "src/cfg.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)

static void set_cfg(const char *key, const char *value)
{
  char err[256];
  smpi_shared_declare_config();
  ck_assert_msg(cfg_set(key, value, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0, "%s", err);
  smpi_shared_reset();
}

static int peek(const void *p, size_t i) { return ((const volatile unsigned char *)p)[i]; }
static void poke(void *p, size_t i, int v)
{
  ((volatile unsigned char *)p)[i] = (unsigned char)v;
}

/* Over the mappings of [lo, hi), clipped to it (the kernel may merge a private piece with an
 * anonymous neighbour outside the allocation): bytes of private (anonymous, not file-backed)
 * memory, resident bytes in it (mincore, so that a merged neighbour's pages do not count), and
 * the number of mappings. */
typedef struct range_use {
  size_t private_bytes, private_rss, maps;
} range_use;

static range_use use_of_ex(const void *p, size_t len, bool rss)
{
  uintptr_t lo = (uintptr_t)p, hi = lo + len;
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  range_use u = {0};
  FILE *f = fopen("/proc/self/maps", "r");
  ck_assert_ptr_nonnull(f);
  char line[512];
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b, ino;
    char perms[8], dev[16];
    unsigned long long off;
    int n = 0;
    if (sscanf(line, "%lx-%lx %7s %llx %15s %lu %n", &a, &b, perms, &off, dev, &ino, &n) != 6 ||
        !(a < hi && b > lo))
      continue;
    u.maps++;
    /* anonymous: no inode (a memfd has one) and no name ([heap] and [stack] have one) */
    if (ino != 0 || (line[n] != '\0' && line[n] != '\n'))
      continue;
    uintptr_t s = a > lo ? a : lo, e = b < hi ? b : hi;
    u.private_bytes += e - s;
    if (!rss)
      continue;
    size_t np = (e - s) / pg;
    unsigned char *vec = malloc(np ? np : 1);
    ck_assert_int_eq(mincore((void *)s, e - s, vec), 0);
    for (size_t i = 0; i < np; i++)
      u.private_rss += (vec[i] & 1) ? pg : 0;
    free(vec);
  }
  fclose(f);
  return u;
}

static range_use use_of(const void *p, size_t len) { return use_of_ex(p, len, true); }

/* every mapping of the process: counted only (a sanitizer's shadow regions are terabytes of
 * anonymous memory, too large to ask mincore about) */
static size_t all_mappings(void) { return use_of_ex((void *)0, UINTPTR_MAX, false).maps; }

/* An HPL-like panel: 12 KiB of private indices, 20 MiB of folded panel data (not starting or
 * ending on a huge page), 8 KiB private at the end. */
START_TEST(huge_partial_keeps_private_bytes_small)
{
  smpi_shared_test_granularity(2 * MiB);
  set_cfg("smpi/shared-malloc-blocksize", "2M");
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = 12 * KiB + 20 * MiB + 8 * KiB;
  size_t offs[] = {12 * KiB, 12 * KiB + 20 * MiB};
  unsigned char *a = SMPI_PARTIAL_SHARED_MALLOC(size, offs, 1);
  unsigned char *b = SMPI_PARTIAL_SHARED_MALLOC(size, offs, 1);
  ck_assert(a && b);
  ck_assert_uint_eq((uintptr_t)a % (2 * MiB), 0);
  /* every private byte written, each allocation its own pattern */
  for (size_t i = 0; i < 12 * KiB; i++) {
    poke(a, i, (int)(i % 251));
    poke(b, i, (int)(i % 239));
  }
  for (size_t i = offs[1]; i < size; i++) {
    poke(a, i, (int)(i % 13));
    poke(b, i, (int)(i % 17));
  }
  range_use u = use_of(a, size);
  /* private: the 20 KiB asked for, at the granularity of ordinary pages (not 2 x 2 MiB) */
  size_t want = ((12 * KiB + pg - 1) / pg + (8 * KiB + pg - 1) / pg) * pg;
  ck_assert_uint_eq(u.private_bytes, want);
  ck_assert_uint_le(u.private_rss, want);
  /* two private pieces, an edge before the first huge page, 9 whole ones (block of 2 MiB:
   * 9 mappings), an edge after: 13 */
  ck_assert_uint_eq(u.maps, 13);
  /* folded bytes are one memory: whole huge pages, and the edges around them */
  size_t probes[] = {12 * KiB, 2 * MiB - 1, 2 * MiB, 7 * MiB + 5, 20 * MiB, offs[1] - 1};
  for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
    poke(a, probes[k], 0x5a + (int)k);
    ck_assert_int_eq(peek(b, probes[k]), 0x5a + (int)k);
  }
  /* private bytes kept their values */
  for (size_t i = 0; i < 12 * KiB; i++) {
    ck_assert_int_eq(peek(a, i), (int)(i % 251));
    ck_assert_int_eq(peek(b, i), (int)(i % 239));
  }
  for (size_t i = offs[1]; i < size; i++) {
    ck_assert_int_eq(peek(a, i), (int)(i % 13));
    ck_assert_int_eq(peek(b, i), (int)(i % 17));
  }
  /* the message layer's view agrees: exactly the requested private runs */
  smpi_byte_range r[4];
  ck_assert_uint_eq(smpi_shared_private_ranges(a, size, r, 4), 2);
  ck_assert_uint_eq(r[0].off, 0);
  ck_assert_uint_eq(r[0].len, 12 * KiB);
  ck_assert_uint_eq(r[1].off, offs[1]);
  ck_assert_uint_eq(r[1].len, 8 * KiB);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
  smpi_shared_test_granularity(0);
  set_cfg("smpi/shared-malloc-blocksize", "1M");
}
END_TEST

/* A span that holds no whole huge page is folded all the same (on the edge block), and a
 * whole allocation (SMPI_SHARED_MALLOC) still uses the huge granularity. */
START_TEST(huge_small_spans_and_whole_allocations)
{
  smpi_shared_test_granularity(2 * MiB);
  set_cfg("smpi/shared-malloc-blocksize", "2M");
  size_t size = 5 * MiB;
  /* [1 MiB + 4 KiB, 3 MiB): crosses the 2 MiB line but holds no whole granule */
  size_t offs[] = {MiB + 4 * KiB, 3 * MiB};
  unsigned char *a = SMPI_PARTIAL_SHARED_MALLOC(size, offs, 1);
  unsigned char *b = SMPI_PARTIAL_SHARED_MALLOC(size, offs, 1);
  ck_assert(a && b);
  poke(a, MiB + 4 * KiB, 1);
  poke(a, 3 * MiB - 1, 2);
  ck_assert_int_eq(peek(b, MiB + 4 * KiB), 1);
  ck_assert_int_eq(peek(b, 3 * MiB - 1), 2);
  poke(a, MiB, 3);
  poke(a, 3 * MiB, 4);
  ck_assert_int_eq(peek(b, MiB), 0);
  ck_assert_int_eq(peek(b, 3 * MiB), 0);
  range_use u = use_of(a, size);
  ck_assert_uint_eq(u.private_bytes, size - (3 * MiB - MiB - 4 * KiB));
  ck_assert_uint_eq(u.maps, 3);
  unsigned char *w = SMPI_SHARED_MALLOC(3 * MiB);
  ck_assert_uint_eq((uintptr_t)w % (2 * MiB), 0);
  poke(w, 2 * MiB + 9, 5);
  ck_assert_int_eq(peek(w, 9), 5);
  SMPI_SHARED_FREE(w);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
  smpi_shared_test_granularity(0);
  set_cfg("smpi/shared-malloc-blocksize", "1M");
}
END_TEST

/* smpi/shared-malloc-max-mappings: the budget the block sizes are chosen for. 40 allocations
 * of 256 MiB with a budget of 400 mappings (one rank here: 100 per allocation): 4 MiB blocks,
 * 64 mappings each, 2 560 in all; with 1 MiB blocks it would be 10 240. Counted in
 * /proc/self/maps, not only in the module's own accounting. */
START_TEST(budget_sets_block_sizes)
{
  set_cfg("smpi/shared-malloc-max-mappings", "400");
  size_t before = all_mappings();
  void *p[40];
  for (int i = 0; i < 40; i++) {
    p[i] = SMPI_SHARED_MALLOC(256 * MiB);
    ck_assert_ptr_nonnull(p[i]);
    ck_assert_uint_le(use_of(p[i], 256 * MiB).maps, 100);
  }
  size_t after = all_mappings();
  ck_assert_uint_le(after - before, 40 * 100);
  ck_assert_uint_ge(after - before, 40 * 64);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.mappings, 40 * 64);
  ck_assert_uint_eq(st.largest_block, 4 * MiB);
  poke(p[0], 5, 9);
  ck_assert_int_eq(peek(p[39], 252 * MiB + 5), 9);
  for (int i = 0; i < 40; i++)
    SMPI_SHARED_FREE(p[i]);
  set_cfg("smpi/shared-malloc-max-mappings", "-1");
}
END_TEST

/* With a real hugetlbfs (SMPI_TEST_HUGETLBFS=/mnt/huge, a few free huge pages): the same
 * layout, and large chunks that reserve no more huge pages than are written. */
START_TEST(real_huge_pages)
{
  const char *dir = getenv("SMPI_TEST_HUGETLBFS");
  if (!dir || !*dir)
    return; /* no hugetlbfs given: the stand-in tests above cover the layout */
  set_cfg("smpi/shared-malloc-hugepage", dir);
  size_t size = 12 * KiB + 20 * MiB + 8 * KiB;
  size_t offs[] = {12 * KiB, 12 * KiB + 20 * MiB};
  unsigned char *a = SMPI_PARTIAL_SHARED_MALLOC(size, offs, 1);
  ck_assert_ptr_nonnull(a);
  for (size_t i = 0; i < 12 * KiB; i++)
    poke(a, i, 1);
  poke(a, 4 * MiB, 3);
  range_use u = use_of(a, size);
  ck_assert_uint_le(u.private_bytes, 20 * KiB);
  ck_assert_uint_le(u.private_rss, 20 * KiB);
  SMPI_SHARED_FREE(a);
  /* chunks grown to 128 MiB (budget 8: 2 mappings per allocation) need no huge pages
   * reserved for their whole length: only the ones written */
  set_cfg("smpi/shared-malloc-max-mappings", "8");
  unsigned char *w = SMPI_SHARED_MALLOC(256 * MiB);
  ck_assert_ptr_nonnull(w);
  poke(w, 128 * MiB + 3, 4);
  ck_assert_int_eq(peek(w, 3), 4);
  SMPI_SHARED_FREE(w);
  set_cfg("smpi/shared-malloc-max-mappings", "-1");
  set_cfg("smpi/shared-malloc-hugepage", "");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("fold_budget");
  TCase *t = tcase_create("budget");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, huge_partial_keeps_private_bytes_small);
  tcase_add_test(t, huge_small_spans_and_whole_allocations);
  tcase_add_test(t, budget_sets_block_sizes);
  tcase_add_test(t, real_huge_pages);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
