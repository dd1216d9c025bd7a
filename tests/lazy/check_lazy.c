/* Tables sized by the platform cost only the pages a run touches (issue 27): xcalloc_lazy
 * (src/mem.h) and its users, the route cache, the network's links and the CPU's hosts, on
 * the bench fat tree of 4 096 hosts and 12 289 links, with 16 ranks' worth of routes looked
 * up. Checked without timing: the pages of each table that are resident (mincore), under
 * the heap policy smpi_main sets (smpi/launch/launch.c, tune_heap), where calloc cleared
 * these tables from the heap's top and faulted every page in (6.3 MiB of route cache ways,
 * 1 537 pages, for 16 ranks). */
#include <check.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/cpu.h"
#include "kernel/engine.h"
#include "kernel/network.h"
#include "kernel/routing.h"
#include "kernel/world.h"
#include "src/cfg.h"
#include "src/mem.h"
#include "src/platform.h"

/* smpi_main's heap policy (launch.c, tune_heap): big blocks from the heap, kept there */
static void smpi_heap_policy(void)
{
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
}

/* resident pages of [p, p + bytes), and the pages the range spans */
static size_t resident_pages(const void *p, size_t bytes, size_t *spanned)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
  uintptr_t hi = ((uintptr_t)p + bytes + page - 1) & ~(uintptr_t)(page - 1);
  size_t n = (hi - lo) / page;
  unsigned char *vec = malloc(n);
  ck_assert(vec != NULL);
  ck_assert_int_eq(mincore((void *)lo, hi - lo, vec), 0);
  size_t res = 0;
  for (size_t i = 0; i < n; i++)
    res += vec[i] & 1;
  free(vec);
  *spanned = n;
  return res;
}

START_TEST(test_lazy_big)
{
  smpi_heap_policy();
  size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 8 << 20, spanned;
  unsigned char *t = xcalloc_lazy(n, 1);
  ck_assert_uint_eq((uintptr_t)t % 64, 0);
  ck_assert_uint_eq(resident_pages(t, n, &spanned), 0);
  t[0] = 1;
  t[100 * page + 7] = 2;
  t[n - 1] = 3;
  ck_assert_uint_eq(resident_pages(t, n, &spanned), 3);
  ck_assert_uint_eq(spanned, n / page);
  ck_assert(t[1] == 0 && t[100 * page + 8] == 0 && t[n / 2] == 0 && t[n - 2] == 0);
  xfree_lazy(t, n, 1);
}
END_TEST

START_TEST(test_lazy_small)
{
  smpi_heap_policy();
  for (size_t n = 0; n < 3000; n += 97) {
    double *t = xcalloc_lazy(n, sizeof *t);
    ck_assert_uint_eq((uintptr_t)t % 64, 0);
    for (size_t i = 0; i < n; i++)
      ck_assert(t[i] == 0.0);
    if (n)
      t[n - 1] = 1.0; /* the whole block is ours */
    xfree_lazy(t, n, sizeof *t);
  }
}
END_TEST

/* the pages of a table resident at most max, and fewer than a tenth of it (the table is big
 * enough for that bound to mean something) */
static void expect_sparse(const char *what, const void *p, size_t bytes, size_t max)
{
  size_t spanned, res = resident_pages(p, bytes, &spanned);
  ck_assert_msg(spanned >= 40, "%s: %zu pages only, the check says nothing", what, spanned);
  ck_assert_msg(res <= max && res * 10 < spanned,
                "%s: %zu of its %zu pages resident, %zu expected", what, res, spanned, max);
}

START_TEST(test_platform_tables)
{
  smpi_heap_policy();
  char err[512];
  eng_declare_config();
  route_declare_config();
  net_declare_config();
  cpu_declare_config();
  cfg_reset();
  plat_platform *plat;
  route_table *rt;
  ck_assert_msg(plat_load_file(SMPI_SOURCE_ROOT "/tools/bench/platforms/fattree.xml", &plat, err,
                               sizeof err) == 0,
                "%s", err);
  ck_assert_msg(route_table_build(plat, &rt, err, sizeof err) == 0, "%s", err);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "%s", err);
  ck_assert_msg(cpu_model_init(rt, err, sizeof err) == 0, "%s", err);
  ck_assert_msg(net_model_init(rt, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq(kworld.cpu.nhosts, 4096);
  ck_assert_uint_ge(kworld.net.nlinks, 12288);

  /* a 2-D stencil of 16 ranks on hosts 0-15: 4 x 4, each with 4 peers */
  for (size_t r = 0; r < 16; r++) {
    size_t row = r / 4, col = r % 4;
    size_t peers[4] = {((row + 3) % 4) * 4 + col, ((row + 1) % 4) * 4 + col,
                       row * 4 + (col + 3) % 4, row * 4 + (col + 1) % 4};
    for (int i = 0; i < 4; i++)
      ck_assert_msg(route_cache_get(&kworld.net.rc, r, peers[i], err, sizeof err) != NULL, "%s",
                    err);
  }
  for (size_t h = 0; h < 16; h++)
    (void)cpu_host_speed(h);

  route_cache *rc = &kworld.net.rc;
  ck_assert_uint_eq(rc->sets, 4096);
  /* 16 sets of at most 4 ways: each way's 16 entries (3 KiB) in at most 2 pages */
  expect_sparse("route cache ways", rc->ways, (size_t)RC_WAYS * rc->sets * sizeof *rc->ways, 8);
  expect_sparse("route cache keys", rc->keys, rc->sets * sizeof *rc->keys, 1);
  /* hosts 0-15's links and their leaf switch's: a few pages wherever their ids fall */
  expect_sparse("network links", kworld.net.links, kworld.net.nlinks * sizeof *kworld.net.links,
                8);
  expect_sparse("cpu hosts", kworld.cpu.hosts, kworld.cpu.nhosts * sizeof *kworld.cpu.hosts, 1);

  net_model_shutdown();
  cpu_model_shutdown();
  eng_shutdown();
  route_table_free(rt);
  plat_free(plat);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("lazy");
  TCase *tc = tcase_create("tables");
  tcase_add_test(tc, test_lazy_big);
  tcase_add_test(tc, test_lazy_small);
  tcase_add_test(tc, test_platform_tables);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
