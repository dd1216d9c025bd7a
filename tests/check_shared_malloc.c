/* Memory folding (smpi/emulation/shared_malloc.c) and privatization of globals (smpi/emulation/privatize.c),
 * tested without the runtime: folding is measured as physical memory of the backing blocks
 * (fstat of the memfd), not RSS, which counts a page once per mapping; privatization is
 * driven by hand on a layout made of this test's own arrays (the simulator is linked into
 * this binary, so its real data segment cannot be privatized here; the MPI tests in
 * tests/mpi/privatize_*.c do that through smpirun). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "smpi/mpi/datatype_impl.h"
#include "smpi/mpi/op_impl.h"
#include "smpi/emulation/privatize.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/smpi.h"
#include "src/cfg.h"

#define MiB ((size_t)1 << 20)

static size_t pg;

static void set_cfg(const char *key, const char *value)
{
  char err[256];
  smpi_shared_declare_config();
  ck_assert_msg(cfg_set(key, value, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0, "%s", err);
  smpi_shared_reset();
}

static void setup(void)
{
  pg = (size_t)sysconf(_SC_PAGESIZE);
  smpi_shared_declare_config();
}

/* Built with AddressSanitizer? (GCC: __SANITIZE_ADDRESS__; clang 14: __has_feature only.) */
#if defined(__SANITIZE_ADDRESS__)
#define CSM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CSM_ASAN 1
#endif
#endif

/* The process's memory mappings, less those of ASan's allocator under -Dsanitize=true: its
 * heap lives in a fixed 4 TiB range, [0x600000000000, 0x640000000000) on x86-64 Linux (GCC's
 * libasan and clang's alike), where it maps a new piece of a size class's region whenever
 * the region fills up, and the quarantine of freed blocks makes that happen at any malloc.
 * Measured (clang 14): the 1000 switches of remap_mode_keeps_mapping_count, through Check's
 * per-assertion messages, add exactly one such mapping (0x603000010000-0x603000020000); no
 * mapping of smpi's is ever there, so the counts below stay exact for smpi's own. */
static size_t count_maps(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  ck_assert_ptr_nonnull(f);
  size_t n = 0;
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    if (!strchr(line, '\n') && !feof(f))
      continue; /* the rest of a long line follows: count it once, at its end */
#if defined(CSM_ASAN)
    uintptr_t lo = (uintptr_t)strtoull(line, NULL, 16);
    if (lo >= 0x600000000000u && lo < 0x640000000000u)
      continue;
#endif
    n++;
  }
  fclose(f);
  return n;
}

/* Folded memory is one physical byte behind several addresses, which the compiler cannot
 * know: where that matters, tests access memory through volatile. */
static int peek(const void *p, size_t i) { return ((const volatile unsigned char *)p)[i]; }
static void poke(void *p, size_t i, int v)
{
  ((volatile unsigned char *)p)[i] = (unsigned char)v;
}
static void vset(void *p, int v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    poke(p, i, v);
}

/* ---- folding: global ---- */

START_TEST(global_aliases_one_block)
{
  set_cfg("smpi/shared-malloc-blocksize", "64k");
  size_t b = 64 * 1024;
  /* volatile: the compiler cannot know that two addresses are one byte, and may reorder */
  volatile char *p = SMPI_SHARED_MALLOC(5 * b / 2);
  volatile char *q = SMPI_SHARED_MALLOC(b);
  ck_assert(p != NULL && q != NULL);
  p[7] = 42;
  /* the same physical byte at every block-sized step, and in the other allocation */
  ck_assert_int_eq(p[b + 7], 42);
  ck_assert_int_eq(p[2 * b + 7], 42);
  ck_assert_int_eq(q[7], 42);
  q[b - 1] = 9;
  ck_assert_int_eq(p[2 * b - 1], 9);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.allocations, 2);
  ck_assert_uint_eq(st.mappings, 3 + 1);
  ck_assert_uint_le(st.physical_bytes, b);
  ck_assert(smpi_shared_touches((char *)p + 100, 1));
  ck_assert(smpi_shared_touches((char *)q + b - 1, 1));
  SMPI_SHARED_FREE((char *)p);
  SMPI_SHARED_FREE((char *)q);
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.allocations, 0);
  ck_assert_uint_eq(st.mappings, 0);
}
END_TEST

/* A freed single-mapping allocation is kept mapped over a whole (1 MiB) block, so buffers that
 * grow, each freed before the next, take the same mapping back without a system call, and
 * still alias every other allocation's bytes at the same offset. */
START_TEST(growing_buffers_reuse_one_mapping)
{
  set_cfg("smpi/shared-malloc-blocksize", "1M");
  volatile char *other = SMPI_SHARED_MALLOC(4096);
  char *p = SMPI_SHARED_MALLOC(1024);
  ck_assert(other != NULL && p != NULL);
  poke(p, 7, 5);
  SMPI_SHARED_FREE(p);
  size_t maps = count_maps();
  char *q = SMPI_SHARED_MALLOC(32 * 1024);
  ck_assert_ptr_eq(q, p);
  ck_assert_int_eq(peek(q, 7), 5);
  poke(q, 32 * 1024 - 1, 6);
  ck_assert_int_eq(other[7], 5);
  SMPI_SHARED_FREE(q);
  char *r = SMPI_SHARED_MALLOC(1024 * 1024);
  ck_assert_ptr_eq(r, p);
  ck_assert_int_eq(peek(r, 32 * 1024 - 1), 6);
  ck_assert_uint_eq(count_maps(), maps);
  ck_assert(smpi_shared_touches(r + 1024 * 1024 - 1, 1));
  SMPI_SHARED_FREE(r);
  SMPI_SHARED_FREE((char *)other);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.allocations, 0);
}
END_TEST

/* The measurement: 16 ranks' worth of 512 MiB folded buffers, written all over,
 * cost one block of physical memory; a plain write through one mapping shows through another. */
START_TEST(sixteen_times_512mib_cost_one_block)
{
  size_t before = count_maps();
  volatile char *buf[16];
  for (int r = 0; r < 16; r++) {
    buf[r] = SMPI_SHARED_MALLOC(512 * MiB);
    ck_assert(buf[r] != NULL);
  }
  /* touch every rank's buffer every 64 KiB (131 072 writes over 8 GiB of address space) */
  for (int r = 0; r < 16; r++)
    for (size_t o = 0; o < 512 * MiB; o += 64 * 1024)
      buf[r][o + (size_t)r] = (char)r;
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.virtual_bytes, 16 * 512 * MiB);
  ck_assert_uint_eq(st.mappings, 16 * 512); /* 1 MiB blocks */
  /* physical: the 1 MiB block, nothing else */
  ck_assert_uint_le(st.physical_bytes, 1 * MiB);
  ck_assert_uint_ge(st.physical_bytes, 16 * pg); /* the pages written are really there */
  /* every rank's writes landed in the same block */
  ck_assert_int_eq(buf[0][3], 3);
  ck_assert_int_eq(buf[15][511 * MiB + 3], 3);
  ck_assert_uint_ge(count_maps(), before + 16 * 512);
  for (int r = 0; r < 16; r++)
    SMPI_SHARED_FREE((char *)buf[r]);
  ck_assert_uint_le(count_maps(), before + 2);
}
END_TEST

/* An allocation too large for its share of the mapping budget maps larger blocks: 100 GiB
 * (more 1 MiB blocks than vm.max_map_count allows) is one allocation like any other. */
START_TEST(map_count_limit_is_explained)
{
  char err[1024];
  void *p;
  long limit = 0;
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  ck_assert(f && fscanf(f, "%ld", &limit) == 1);
  fclose(f);
  size_t size = (size_t)(limit + 10) * MiB, before = count_maps();
  ck_assert_msg(smpi_shared_alloc(size, "x.c:1", NULL, -1, &p, err, sizeof err) == 0, "%s", err);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  /* a quarter of the limit for folded memory, a quarter of that for one allocation */
  ck_assert_uint_le(st.mappings, (size_t)limit / 16);
  ck_assert_uint_le(count_maps(), before + (size_t)limit / 16 + 2);
  ck_assert_uint_gt(st.largest_block, MiB);
  poke(p, size - 1, 7);
  ck_assert_int_eq(peek(p, (size - 1) % st.largest_block), 7); /* folded onto the larger block */
  SMPI_SHARED_FREE(p);
}
END_TEST

/* Many allocations use up the map count: the message names the sysctl, and a block size that
 * does fit them all (not the one in use), or says that none would. (A limit of 200 stands for
 * the kernel's: exhausting the real one kills sanitized builds, whose runtime needs mappings
 * of its own.) */
START_TEST(map_count_of_small_allocations_is_explained)
{
  char err[1024] = "";
  void *ps[256];
  size_t got = 0;
  smpi_shared_set_max_map_count(200);
  while (got < 256 && smpi_shared_alloc(768, "x.c:2", NULL, -1, &ps[got], err, sizeof err) == 0)
    got++;
  smpi_shared_set_max_map_count(0);
  ck_assert_uint_ge(got, 150);
  ck_assert_uint_le(got, 200);
  ck_assert_msg(strstr(err, "768 bytes needs 1 mapping of") &&
                    strstr(err, "sysctl -w vm.max_map_count=") &&
                    strstr(err, "larger blocks would not help") && !strstr(err, "blocksize"),
                "%s", err);
  for (size_t i = 0; i < got; i++)
    SMPI_SHARED_FREE(ps[i]);
  /* 64 MiB allocations map 8 MiB chunks (a quarter of 200 for folding, 12 per allocation):
   * the 25th overflows the 200 mappings, and the advice is a block size larger than 8M */
  smpi_shared_set_max_map_count(200);
  got = 0;
  while (got < 256 &&
         smpi_shared_alloc(64 * MiB, "x.c:3", NULL, -1, &ps[got], err, sizeof err) == 0)
    got++;
  smpi_shared_set_max_map_count(0);
  ck_assert_uint_eq(got, 25);
  ck_assert_msg(strstr(err, "needs 8 mappings of 8 MiB") &&
                    strstr(err, "sysctl -w vm.max_map_count=") && strstr(err, "blocksize:"),
                "%s", err);
  const char *sug = strstr(err, "blocksize:") + strlen("blocksize:");
  char *blocksize = strndup(sug, strcspn(sug, ")"));
  ck_assert_str_ne(blocksize, "8M");
  for (size_t i = 0; i < got; i++)
    SMPI_SHARED_FREE(ps[i]);
  /* and the suggested block size does fit them all, with the same limit */
  set_cfg("smpi/shared-malloc-blocksize", blocksize);
  free(blocksize);
  smpi_shared_set_max_map_count(200);
  for (got = 0; got < 26; got++)
    ck_assert_msg(smpi_shared_alloc(64 * MiB, "x.c:3", NULL, -1, &ps[got], err, sizeof err) == 0,
                  "%s", err);
  smpi_shared_set_max_map_count(0);
  for (size_t i = 0; i < got; i++)
    SMPI_SHARED_FREE(ps[i]);
  set_cfg("smpi/shared-malloc-blocksize", "1M");
}
END_TEST

START_TEST(bad_options_are_explained)
{
  char err[1024];
  set_cfg("smpi/shared-malloc-blocksize", "1000");
  ck_assert_int_eq(smpi_shared_init(err, sizeof err), -1);
  ck_assert_msg(strstr(err, "multiple of the page size"), "%s", err);
  set_cfg("smpi/shared-malloc-blocksize", "1M");
  set_cfg("smpi/shared-malloc-hugepage", "/tmp");
  ck_assert_int_eq(smpi_shared_init(err, sizeof err), -1);
  ck_assert_msg(strstr(err, "not a mounted hugetlbfs") && strstr(err, "mount -t hugetlbfs"), "%s",
                err);
  set_cfg("smpi/shared-malloc-hugepage", "/nonexistent/huge");
  ck_assert_int_eq(smpi_shared_init(err, sizeof err), -1);
  ck_assert_msg(strstr(err, "/nonexistent/huge") && strstr(err, "No such file"), "%s", err);
  /* the allocation reports it too, and returns NULL */
  ck_assert_ptr_null(SMPI_SHARED_MALLOC(10));
  set_cfg("smpi/shared-malloc-hugepage", "");
  ck_assert_int_eq(smpi_shared_init(err, sizeof err), 0);
}
END_TEST

/* ---- folding: local and no ---- */

static char *alloc_at_one_site(size_t n) { return SMPI_SHARED_MALLOC(n); }

START_TEST(local_one_buffer_per_call_site)
{
  set_cfg("smpi/shared-malloc", "local");
  char *a = alloc_at_one_site(3 * MiB);
  char *b = alloc_at_one_site(3 * MiB);
  char *c = SMPI_SHARED_MALLOC(3 * MiB);
  ck_assert(a && b && c && a != b);
  poke(a, 0, 1);
  poke(a, 2 * MiB, 2); /* a real buffer: not folded onto itself */
  ck_assert_int_eq(peek(a, 0), 1);
  ck_assert_int_eq(peek(b, 0), 1);
  ck_assert_int_eq(peek(b, 2 * MiB), 2);
  ck_assert_int_eq(peek(c, 0), 0); /* another call site, another buffer */
  /* a larger request at the same site grows the shared buffer */
  char *d = alloc_at_one_site(5 * MiB);
  ck_assert_int_eq(peek(d, 2 * MiB), 2);
  poke(d, 4 * MiB, 4);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.mappings, 4);
  ck_assert_uint_le(st.physical_bytes, 4 * pg);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
  SMPI_SHARED_FREE(d);
  /* the last free of a site forgets it: a new allocation starts from zeros */
  char *e = alloc_at_one_site(pg);
  ck_assert_int_eq(peek(e, 0), 0);
  SMPI_SHARED_FREE(e);
  SMPI_SHARED_FREE(c);
}
END_TEST

START_TEST(no_means_plain_malloc)
{
  set_cfg("smpi/shared-malloc", "no");
  char *a = SMPI_SHARED_MALLOC(2 * MiB), *b = SMPI_SHARED_MALLOC(2 * MiB);
  size_t offs[] = {0, 2 * MiB};
  char *c = SMPI_PARTIAL_SHARED_MALLOC(2 * MiB, offs, 1);
  a[0] = 1;
  b[0] = 2;
  c[0] = 3;
  ck_assert_int_eq(a[0], 1);
  ck_assert_int_eq(b[0], 2);
  ck_assert(!smpi_shared_touches(a, 2 * MiB));
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.allocations, 0);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
  SMPI_SHARED_FREE(c);
}
END_TEST

/* ---- partial folding and the shared-aware copy ---- */

START_TEST(partial_private_parts_stay_private)
{
  /* 16 pages; [2p+5, 6p+3) is requested shared: only pages 3, 4, 5 are wholly inside */
  size_t n = 16 * pg;
  size_t offs[] = {2 * pg + 5, 6 * pg + 3, 10 * pg, 12 * pg};
  unsigned char *a = SMPI_PARTIAL_SHARED_MALLOC(n, offs, 2);
  unsigned char *b = SMPI_PARTIAL_SHARED_MALLOC(n, offs, 2);
  ck_assert(a && b);
  vset(a, 0xaa, n);
  vset(b, 0xbb, n);
  /* private bytes keep each allocation's own value, folded ones are the last writer's */
  ck_assert_int_eq(peek(a, 0), 0xaa);
  ck_assert_int_eq(peek(a, 2 * pg + 5), 0xaa); /* page 2: only partly requested, so private */
  ck_assert_int_eq(peek(a, 6 * pg), 0xaa);
  ck_assert_int_eq(peek(a, 3 * pg), 0xbb); /* folded */
  ck_assert_int_eq(peek(a, 11 * pg), 0xbb);
  ck_assert_int_eq(peek(a, 15 * pg), 0xaa);

  smpi_byte_range r[8];
  ck_assert_uint_eq(smpi_shared_private_ranges(a, n, r, 8), 3);
  ck_assert_uint_eq(r[0].off, 0);
  ck_assert_uint_eq(r[0].len, 3 * pg);
  ck_assert_uint_eq(r[1].off, 6 * pg);
  ck_assert_uint_eq(r[1].len, 4 * pg);
  ck_assert_uint_eq(r[2].off, 12 * pg);
  ck_assert_uint_eq(r[2].len, 4 * pg);
  /* counting without storing, and a window starting inside a folded span */
  ck_assert_uint_eq(smpi_shared_private_ranges(a + 4 * pg, 4 * pg, NULL, 0), 1);

  /* SimGrid's documented example: {27,42, 100,200} in 500 bytes folds no whole page */
  size_t small[] = {27, 42, 100, 200};
  char *s = SMPI_PARTIAL_SHARED_MALLOC(500, small, 2);
  ck_assert_ptr_nonnull(s);
  ck_assert_uint_eq(smpi_shared_private_ranges(s, 500, r, 8), 1);
  SMPI_SHARED_FREE(s);

  /* bad offsets are a user error with a message, and no allocation */
  size_t bad[] = {10, 5};
  char err[512];
  void *p;
  ck_assert_int_eq(smpi_shared_alloc(100, NULL, bad, 1, &p, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "[10, 5)"), "%s", err);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
}
END_TEST

/* a huge, mostly folded buffer is not refused for its size (more than this machine has) */
START_TEST(partial_huge_mostly_folded)
{
  set_cfg("smpi/shared-malloc-blocksize", "64M");
  size_t huge = (size_t)64 << 30, most[] = {pg, huge};
  char *h = SMPI_PARTIAL_SHARED_MALLOC(huge, most, 1);
  ck_assert_ptr_nonnull(h);
  poke(h, 0, 1);
  poke(h, huge - 1, 2);
  smpi_byte_range r[2];
  ck_assert_uint_eq(smpi_shared_private_ranges(h, huge, r, 2), 1);
  ck_assert_uint_eq(r[0].len, pg);
  SMPI_SHARED_FREE(h);
}
END_TEST

START_TEST(aware_copy_skips_folded_bytes)
{
  size_t n = 8 * pg;
  size_t offs[] = {2 * pg, 4 * pg};
  unsigned char *src = SMPI_PARTIAL_SHARED_MALLOC(n, offs, 1);
  unsigned char *dst = malloc(n);
  for (size_t i = 0; i < n; i++)
    src[i] = (unsigned char)(i * 7);
  memset(dst, 0x55, n);
  smpi_shared_aware_copy(dst, src, n);
  for (size_t i = 0; i < n; i++) {
    bool folded = i >= 2 * pg && i < 4 * pg;
    ck_assert_int_eq(dst[i], folded ? 0x55 : (unsigned char)(i * 7));
  }
  /* into folded memory: the shared block is not written */
  unsigned char *fold = SMPI_SHARED_MALLOC(n);
  vset(fold, 0x11, n);
  smpi_shared_aware_copy(fold, dst, n);
  for (size_t i = 0; i < n; i += 97)
    ck_assert_int_eq(peek(fold, i), 0x11);
  /* between two private buffers it is memcpy, also at odd offsets */
  unsigned char *x = malloc(n), *y = malloc(n);
  memset(x, 3, n);
  smpi_shared_aware_copy(y + 1, x + 3, n - 5);
  ck_assert_int_eq(y[1], 3);
  ck_assert_int_eq(y[n - 5], 3);
  /* unaligned window of a partial source: bytes [pg+1, 5pg-1) */
  memset(dst, 0, n);
  smpi_shared_aware_copy(dst, src + pg + 1, 4 * pg - 2);
  ck_assert_int_eq(dst[0], (unsigned char)((pg + 1) * 7));
  ck_assert_int_eq(dst[pg], 0); /* src + 2pg + 1: folded */
  ck_assert_int_eq(dst[3 * pg - 1], (unsigned char)((4 * pg) * 7));
  free(x);
  free(y);
  free(dst);
  SMPI_SHARED_FREE(src);
  SMPI_SHARED_FREE(fold);
}
END_TEST

/* many allocations freed in random order: the lookup stays exact */
START_TEST(lookup_many_allocations)
{
  set_cfg("smpi/shared-malloc-blocksize", "4k");
  enum { N = 3000 };
  char **p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++) {
    p[i] = SMPI_SHARED_MALLOC(pg * (size_t)(1 + i % 3));
    ck_assert_ptr_nonnull(p[i]);
  }
  unsigned s = 12345;
  for (int i = N - 1; i > 0; i--) {
    s = s * 1103515245u + 12345u;
    int j = (int)(s % (unsigned)(i + 1));
    char *t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  char *stack_byte = (char *)&s;
  for (int i = 0; i < N; i++) {
    ck_assert(smpi_shared_touches(p[i], 1));
    ck_assert(smpi_shared_touches(p[i] + pg - 1, 1));
    if (i % 2 == 0)
      SMPI_SHARED_FREE(p[i]);
  }
  for (int i = 0; i < N; i++)
    ck_assert(smpi_shared_touches(p[i], 1) == (i % 2 == 1));
  ck_assert(!smpi_shared_touches(stack_byte, sizeof s));
  for (int i = 1; i < N; i += 2)
    SMPI_SHARED_FREE(p[i]);
  smpi_shared_stats st;
  smpi_shared_get_stats(&st);
  ck_assert_uint_eq(st.allocations, 0);
  free(p);
}
END_TEST

/* ---- SMPI_SHARED_CALL ---- */

static int calls;
static double *expensive(int n, double x)
{
  calls++;
  double *v = malloc((size_t)n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = x * i;
  return v;
}

START_TEST(shared_call_memoises)
{
  double *a = SMPI_SHARED_CALL(expensive, "n=4,x=2", 4, 2.0);
  double *b = SMPI_SHARED_CALL(expensive, "n=4,x=2", 4, 2.0);
  double *c = SMPI_SHARED_CALL(expensive, "n=4,x=3", 4, 3.0);
  ck_assert_int_eq(calls, 2);
  ck_assert_ptr_eq(a, b);
  ck_assert(a != c);
  ck_assert(a[3] == 6.0 && c[3] == 9.0);
  ck_assert(smpi_shared_known_call("expensive", "n=4,x=2"));
  ck_assert(!smpi_shared_known_call("expensive", "n=5,x=2"));
  ck_assert(!smpi_shared_known_call("other", "n=4,x=2"));
  ck_assert_ptr_eq(smpi_shared_get_call("expensive", "n=4,x=3"), c);
  free(a);
  free(c);
}
END_TEST

/* ---- work on folded data: scratch and reductions (docs/emulation.md) ---- */

START_TEST(all_folded_and_scratch)
{
  size_t offs[] = {pg, 3 * pg};
  char *part = SMPI_PARTIAL_SHARED_MALLOC(4 * pg, offs, 1);
  char *whole = SMPI_SHARED_MALLOC(2 * pg);
  char priv[64];
  ck_assert(smpi_shared_all_folded(whole, 2 * pg));
  ck_assert(smpi_shared_all_folded(part + pg, 2 * pg));
  ck_assert(!smpi_shared_all_folded(part, 2 * pg)); /* page 0 is private */
  ck_assert(!smpi_shared_all_folded(part + pg, 3 * pg));
  ck_assert(!smpi_shared_all_folded(priv, sizeof priv));
  ck_assert(!smpi_shared_all_folded(whole, 0));

  /* one region for every request up to its size, folded; a larger request gets a new one
   * and the old one stays mapped (a suspended rank may still use it) */
  char *a = smpi_shared_scratch(100);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_eq(smpi_shared_scratch(MiB), a);
  ck_assert(smpi_shared_all_folded(a, MiB));
  char *b = smpi_shared_scratch(3 * MiB + 1);
  ck_assert(b != a);
  ck_assert(smpi_shared_all_folded(b, 3 * MiB + 1));
  ck_assert(smpi_shared_all_folded(a, MiB));
  ck_assert_ptr_eq(smpi_shared_scratch(10), b);
  SMPI_SHARED_FREE(part);
  SMPI_SHARED_FREE(whole);
  smpi_shared_reset(); /* releases the scratch regions (it asserts nothing else is live) */

  /* nothing is folded under smpi/shared-malloc:no: no folded scratch either */
  set_cfg("smpi/shared-malloc", "no");
  ck_assert_ptr_null(smpi_shared_scratch(100));
  set_cfg("smpi/shared-malloc", "global");
}
END_TEST

static int user_calls;
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  user_calls++;
  for (int i = 0; i < *len; i++)
    ((double *)inout)[i] += ((double *)in)[i];
}

START_TEST(reduction_into_folded_memory_is_skipped)
{
  smpi_dt_init();
  smpi_op_init();
  /* 4 pages of doubles, pages 1 and 2 folded */
  size_t offs[] = {pg, 3 * pg};
  double *io = SMPI_PARTIAL_SHARED_MALLOC(4 * pg, offs, 1);
  size_t n = 4 * pg / sizeof(double), per = pg / sizeof(double);
  double *in = malloc(4 * pg);
  for (size_t i = 0; i < n; i++) {
    in[i] = 1;
    io[i] = 7;
  }
  smpi_op *sum = smpi_op_get(MPI_SUM);
  ck_assert_int_eq(smpi_op_apply(sum, in, io, (int)n, MPI_DOUBLE), MPI_SUCCESS);
  /* private elements reduced, folded ones untouched (the result would be meaningless) */
  ck_assert(io[0] == 8 && io[per - 1] == 8 && io[3 * per] == 8 && io[n - 1] == 8);
  ck_assert(io[per] == 7 && io[3 * per - 1] == 7);

  /* wholly folded: nothing computed, even through a derived contiguous type */
  double *f = SMPI_SHARED_MALLOC(pg);
  for (size_t i = 0; i < per; i++)
    f[i] = 7;
  ck_assert_int_eq(smpi_op_apply(sum, in, f, (int)per, MPI_DOUBLE), MPI_SUCCESS);
  ck_assert(f[0] == 7 && f[per - 1] == 7);
  MPI_Datatype pair;
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_DOUBLE, &pair), MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_commit(&pair), MPI_SUCCESS);
  ck_assert_int_eq(smpi_op_apply(sum, in, f, (int)per / 2, pair), MPI_SUCCESS);
  ck_assert(f[0] == 7 && f[per - 1] == 7);
  /* a private buffer is computed as before */
  ck_assert_int_eq(smpi_op_apply(sum, in, in + per, (int)per / 2, pair), MPI_SUCCESS);
  ck_assert(in[per] == 2 && in[2 * per - 1] == 2 && in[2 * per] == 1);
  smpi_type_free(&pair);

  /* a user op is the user's code: always called */
  MPI_Op uop;
  ck_assert_int_eq(smpi_op_create(user_sum, 1, &uop), MPI_SUCCESS);
  ck_assert_int_eq(smpi_op_apply(smpi_op_get(uop), in, f, (int)per, MPI_DOUBLE), MPI_SUCCESS);
  ck_assert_int_eq(user_calls, 1);
  ck_assert(f[0] == 8);
  smpi_op_free(&uop);
  free(in);
  SMPI_SHARED_FREE(io);
  SMPI_SHARED_FREE(f);
}
END_TEST

/* ---- privatization, on this test's own arrays ---- */

/* four pages owned by this test only; data = [seg + 100, seg + 3 pages), a hole inside */
static unsigned char seg[4 * 65536] __attribute__((aligned(65536)));
static _Thread_local int tvar[4];

static smpi_priv_layout test_layout(bool with_tls)
{
  smpi_priv_layout l = {0};
  l.data = malloc(sizeof *l.data);
  l.data[0] = (smpi_priv_span){(uintptr_t)seg + 100, 3 * pg - 100};
  l.ndata = 1;
  l.holes = malloc(sizeof *l.holes);
  l.holes[0] = (smpi_priv_span){(uintptr_t)seg + 500, 16};
  l.nholes = 1;
  if (with_tls)
    l.tls = (smpi_priv_span){(uintptr_t)tvar, sizeof tvar};
  return l;
}

static void check_private(smpi_priv_mode mode)
{
  char err[512];
  memset(seg, 0, sizeof seg);
  seg[200] = 77; /* initial data every rank starts from */
  seg[2 * pg] = 78;
  smpi_priv_layout l = test_layout(true);
  ck_assert_msg(smpi_privatize_setup(&l, 3, mode, 0, err, sizeof err) == 0, "%s", err);
  smpi_privatize_layout_free(&l);
  smpi_priv_stats st;
  smpi_privatize_get_stats(&st);
  ck_assert_int_eq(st.mode, mode);
  ck_assert_uint_eq(st.private_bytes, 3 * pg - 100 - 16 + sizeof tvar);
  ck_assert_uint_eq(st.hole_bytes, 16);

  for (int r = 0; r < 3; r++) {
    smpi_privatize_switch_to(r);
    ck_assert_int_eq(seg[200], 77);
    ck_assert_int_eq(seg[2 * pg], 78);
    ck_assert_int_eq(tvar[1], 0);
    seg[200] = (unsigned char)(10 + r);
    seg[3 * pg - 1] = (unsigned char)(20 + r);
    tvar[1] = 30 + r;
    seg[500] = (unsigned char)(40 + r); /* the hole: shared, the last writer wins */
    smpi_privatize_switch_to(-1);       /* the maestro in between */
  }
  size_t maps = count_maps();
  for (int k = 0; k < 10; k++)
    for (int r = 2; r >= 0; r--) {
      smpi_privatize_switch_to(r);
      ck_assert_int_eq(seg[200], 10 + r);
      ck_assert_int_eq(seg[3 * pg - 1], 20 + r);
      ck_assert_int_eq(tvar[1], 30 + r);
      ck_assert_int_eq(seg[500], 42);
      ck_assert_int_eq(seg[2 * pg], 78);
    }
  /* no mapping per switch nor per rank */
  ck_assert_uint_eq(count_maps(), maps);
  /* the bytes outside the data's pages were never privatized */
  seg[3 * pg + 10] = 5;
  smpi_privatize_switch_to(1);
  ck_assert_int_eq(seg[3 * pg + 10], 5);

  /* other ranks' copies, from rank 1's turn */
  unsigned char *r0 = smpi_privatize_translate(0, &seg[200]);
  unsigned char *r2 = smpi_privatize_translate(2, &seg[3 * pg - 1]);
  ck_assert_ptr_eq(smpi_privatize_translate(1, &seg[200]), &seg[200]);
  ck_assert_ptr_eq(smpi_privatize_translate(0, &seg[3 * pg + 10]), &seg[3 * pg + 10]);
  ck_assert(r0 != &seg[200]);
  ck_assert_int_eq(*r0, 10);
  ck_assert_int_eq(*r2, 22);
  *r0 = 99; /* e.g. a message delivered into rank 0's global buffer while rank 1 runs */
  smpi_privatize_switch_to(0);
  ck_assert_int_eq(seg[200], 99);
  smpi_privatize_get_stats(&st);
  ck_assert_uint_ge(st.swaps, 30);
  smpi_privatize_teardown();
  /* the data of the last rank stays, as ordinary memory */
  ck_assert_int_eq(seg[200], 99);
  seg[200] = 1;
  ck_assert_int_eq(seg[200], 1);
}

START_TEST(copy_mode) { check_private(SMPI_PRIV_COPY); }
END_TEST

START_TEST(remap_mode)
{
  check_private(SMPI_PRIV_REMAP);
  smpi_priv_stats st;
  smpi_privatize_get_stats(&st);
  ck_assert_int_eq(st.mode, SMPI_PRIV_OFF);
}
END_TEST

START_TEST(remap_mode_keeps_mapping_count)
{
  char err[512];
  smpi_priv_layout l = test_layout(false);
  ck_assert_msg(smpi_privatize_setup(&l, 1000, SMPI_PRIV_REMAP, 0, err, sizeof err) == 0, "%s",
                err);
  /* the first remap splits the mapping that held the window: that much is paid once */
  smpi_privatize_switch_to(0);
  size_t before = count_maps();
  for (int r = 0; r < 1000; r++) {
    smpi_privatize_switch_to(r);
    memcpy(&seg[1000], &r, sizeof r);
  }
  for (int r = 999; r >= 0; r--) {
    smpi_privatize_switch_to(r);
    int v;
    memcpy(&v, &seg[1000], sizeof v);
    ck_assert_int_eq(v, r);
  }
  smpi_priv_stats st;
  smpi_privatize_get_stats(&st);
  ck_assert_uint_le(st.mappings, 3);
  ck_assert_uint_eq(count_maps(), before);
  smpi_privatize_teardown();
  smpi_privatize_layout_free(&l);
}
END_TEST

START_TEST(auto_picks_by_size)
{
  char err[512];
  smpi_priv_layout l = test_layout(false);
  smpi_priv_stats st;
  ck_assert_int_eq(smpi_privatize_setup(&l, 2, SMPI_PRIV_AUTO, 1 << 20, err, sizeof err), 0);
  smpi_privatize_get_stats(&st);
  ck_assert_int_eq(st.mode, SMPI_PRIV_COPY);
  ck_assert_int_eq(smpi_privatize_setup(&l, 2, SMPI_PRIV_AUTO, 1024, err, sizeof err), 0);
  smpi_privatize_get_stats(&st);
  ck_assert_int_eq(st.mode, SMPI_PRIV_REMAP);
  /* nothing but holes: nothing to privatize */
  l.holes[0] = l.data[0];
  ck_assert_int_eq(smpi_privatize_setup(&l, 2, SMPI_PRIV_AUTO, 1024, err, sizeof err), 0);
  smpi_privatize_get_stats(&st);
  ck_assert_int_eq(st.mode, SMPI_PRIV_OFF);
  smpi_privatize_teardown();
  smpi_privatize_layout_free(&l);
}
END_TEST

START_TEST(errno_per_rank)
{
  char err[512];
  ck_assert_int_eq(smpi_privatize_setup(NULL, 2, SMPI_PRIV_OFF, 0, err, sizeof err), 0);
  errno = 3; /* the maestro's */
  smpi_privatize_switch_to(0);
  ck_assert_int_eq(errno, 0);
  errno = EINTR;
  smpi_privatize_switch_to(1);
  ck_assert_int_eq(errno, 0);
  errno = ENOENT;
  smpi_privatize_on_switch(NULL);
  ck_assert_int_eq(errno, 3);
  smpi_privatize_switch_to(0);
  ck_assert_int_eq(errno, EINTR);
  smpi_privatize_switch_to(1);
  ck_assert_int_eq(errno, ENOENT);
  smpi_privatize_teardown();
}
END_TEST

/* This binary's own layout: its globals are found, and the simulator (linked in statically
 * here) is recognised as living among them, which makes the runtime refuse to privatize. */
int check_global_in_data = 7;

START_TEST(discover_this_executable)
{
  char err[512];
  smpi_priv_layout l;
  ck_assert_int_eq(smpi_privatize_discover(&l, err, sizeof err), 0);
  bool found_data = false, found_bss = false, stdout_in_data = false, stdout_in_hole = false;
  for (size_t i = 0; i < l.ndata; i++) {
    uintptr_t s = l.data[i].addr, e = s + l.data[i].len;
    found_data |= (uintptr_t)&check_global_in_data >= s && (uintptr_t)&check_global_in_data < e;
    found_bss |= (uintptr_t)seg >= s && (uintptr_t)seg < e;
    stdout_in_data |= (uintptr_t)&stdout >= s && (uintptr_t)&stdout < e;
  }
  for (size_t i = 0; i < l.nholes; i++)
    stdout_in_hole |= (uintptr_t)&stdout >= l.holes[i].addr &&
                      (uintptr_t)&stdout < l.holes[i].addr + l.holes[i].len;
  ck_assert(found_data);
  ck_assert(found_bss);
  ck_assert(l.simulator_inside);
  /* stdout is libc's: if the linker copied it into this executable, it must stay shared */
  ck_assert(!stdout_in_data || stdout_in_hole);
  ck_assert_uint_eq(l.tls.len >= sizeof tvar, true);
  ck_assert((uintptr_t)tvar >= l.tls.addr && (uintptr_t)tvar < l.tls.addr + l.tls.len);
  smpi_privatize_layout_free(&l);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("shared_malloc");
  TCase *fold = tcase_create("folding");
  tcase_add_checked_fixture(fold, setup, NULL);
  tcase_set_timeout(fold, 60);
  tcase_add_test(fold, global_aliases_one_block);
  tcase_add_test(fold, growing_buffers_reuse_one_mapping);
  tcase_add_test(fold, sixteen_times_512mib_cost_one_block);
  tcase_add_test(fold, map_count_limit_is_explained);
  tcase_add_test(fold, map_count_of_small_allocations_is_explained);
  tcase_add_test(fold, bad_options_are_explained);
  tcase_add_test(fold, local_one_buffer_per_call_site);
  tcase_add_test(fold, no_means_plain_malloc);
  tcase_add_test(fold, partial_private_parts_stay_private);
  tcase_add_test(fold, partial_huge_mostly_folded);
  tcase_add_test(fold, aware_copy_skips_folded_bytes);
  tcase_add_test(fold, lookup_many_allocations);
  tcase_add_test(fold, shared_call_memoises);
  tcase_add_test(fold, all_folded_and_scratch);
  tcase_add_test(fold, reduction_into_folded_memory_is_skipped);
  suite_add_tcase(s, fold);
  TCase *priv = tcase_create("privatization");
  tcase_add_checked_fixture(priv, setup, NULL);
  tcase_add_test(priv, copy_mode);
  tcase_add_test(priv, remap_mode);
  tcase_add_test(priv, remap_mode_keeps_mapping_count);
  tcase_add_test(priv, auto_picks_by_size);
  tcase_add_test(priv, errno_per_rank);
  tcase_add_test(priv, discover_this_executable);
  suite_add_tcase(s, priv);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
