/* Payload copy and reduction accounting, this machine's memcpy and reduction rates, and
 * the payload floor of a run (see copies.h).
 *
 * The rates depend on where the bytes are. Measured here (2 cores of a virtual machine that
 * reports a 480 MiB L3), copies of 1 MiB chunks over a working set (source + destination):
 *
 *   working set   4    8   16   32   64  128  256  512 MiB
 *   GB/s         13.4 13.5 11.1  3.2  3.5  3.7  3.2  2.4
 *
 * so a run whose buffers add up to more than a few tens of MiB copies at the DRAM rate,
 * 3-5x below the 8 MiB figure of smpi_memcpy_bandwidth. The curve (copies and a sum of
 * doubles, 4 MiB .. 512 MiB) is measured once per host and cached; a run takes the point of
 * its working set (copies.h). */
#include "smpi/runtime/copies.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "smpi/runtime/world.h"
#include "src/invariant.h"

smpi_copy_stats smpi_copies;

/* 8 MiB: larger than the private caches (L2: 1-4 MiB on today's cores), smaller than the
 * shared L3, as a payload just written by its sender is. Here, copies of 1 MiB from L2 run at
 * ~35 GB/s, of 8-16 MiB at ~15 GB/s, of 64 MiB or more (DRAM) at 4-5 GB/s: a floor computed
 * at the DRAM rate would not be one (a 1 024-rank Bcast of 1 MiB, whose source buffers are
 * still in L3, copies its 4 GiB faster than that). A warm-up pass faults the pages in first
 * so that the kernel's page clearing is not charged to memcpy. */
#define BW_BYTES ((size_t)8 << 20)
#define BW_PASSES 5

static double seconds_now(void)
{
  struct timespec ts;
  smpi_host_clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double measure(void)
{
  char *src = malloc(BW_BYTES), *dst = malloc(BW_BYTES);
  if (!src || !dst) {
    free(src);
    free(dst);
    return 0;
  }
  memset(src, 1, BW_BYTES);
  memset(dst, 2, BW_BYTES);
  double best = 0;
  for (int i = 0; i < BW_PASSES; i++) {
    double t0 = seconds_now();
    memcpy(dst, src, BW_BYTES);
    /* keep the copy from being elided: the compiler cannot see who reads dst */
    __asm__ volatile("" : : "r"(dst) : "memory");
    double dt = seconds_now() - t0;
    if (dt > 0 && (best == 0 || dt < best))
      best = dt;
  }
  free(src);
  free(dst);
  return best > 0 ? (double)BW_BYTES / best : 0;
}

/* The cache: one line "HOSTNAME BYTES_PER_S" in $XDG_CACHE_HOME/smpi/memcpy-bandwidth (or
 * ~/.cache/...), so that only the first run on a machine pays the ~10 ms of measuring (and
 * its CPU time does not land in every benchmarked run). No cache directory: measured each
 * time. */
static bool cache_path(char *path, size_t len, char *dir, size_t dlen, const char *file)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg && *xdg)
    n = snprintf(dir, dlen, "%s/smpi", xdg);
  else if (home && *home)
    n = snprintf(dir, dlen, "%s/.cache/smpi", home);
  else
    return false;
  if (n < 0 || (size_t)n >= dlen)
    return false;
  n = snprintf(path, len, "%s/%s", dir, file);
  return n >= 0 && (size_t)n < len;
}

static void make_dirs(const char *dir)
{
  char parent[4096];
  snprintf(parent, sizeof parent, "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash) { /* ~/.cache may not exist yet */
    *slash = 0;
    mkdir(parent, 0755);
  }
  mkdir(dir, 0755);
}

/* The cache file's line for this host, opened past "HOSTNAME[ VER]" for the caller to read
 * the figures; NULL when there is no cache, no file, or the line is another host's or
 * another version's (then the caller measures again). */
static FILE *cache_read(const char *file, const char *ver)
{
  char host[256] = "", path[4096], dir[4000], name[256], v[8];
  gethostname(host, sizeof host - 1);
  if (!cache_path(path, sizeof path, dir, sizeof dir, file))
    return NULL;
  FILE *f = fopen(path, "r");
  if (f && (fscanf(f, "%255s", name) != 1 || strcmp(name, host) != 0 ||
            (ver && (fscanf(f, "%7s", v) != 1 || strcmp(v, ver) != 0)))) {
    fclose(f);
    f = NULL;
  }
  return f;
}

/* The cache file, rewritten: "HOSTNAME[ VER]" written, the caller writes the figures and the
 * newline; NULL when there is no cache directory or it cannot be written. */
static FILE *cache_write(const char *file, const char *ver)
{
  char host[256] = "", path[4096], dir[4000];
  gethostname(host, sizeof host - 1);
  if (!cache_path(path, sizeof path, dir, sizeof dir, file))
    return NULL;
  make_dirs(dir);
  FILE *f = fopen(path, "w");
  if (f)
    fprintf(f, "%s%s%s", host[0] ? host : "-", ver ? " " : "", ver ? ver : "");
  return f;
}

double smpi_memcpy_bandwidth(double configured)
{
  static double known; /* bytes/s, 0 until measured or read */
  if (configured > 0)
    return configured;
  if (known > 0)
    return known;
  FILE *f = cache_read("memcpy-bandwidth", NULL);
  if (f) {
    double v;
    if (fscanf(f, "%lf", &v) == 1 && v > 0)
      known = v;
    fclose(f);
    if (known > 0)
      return known;
  }
  known = measure();
  if (known > 0 && (f = cache_write("memcpy-bandwidth", NULL))) {
    fprintf(f, " %.0f\n", known);
    fclose(f);
  }
  return known;
}

/* ---- the curve: rates against the working set ---- */

#define CURVE_POINTS 8 /* working sets 4, 8, ..., 512 MiB */
#define CURVE_FIRST ((size_t)4 << 20)
#define CURVE_CHUNK ((size_t)1 << 20) /* bytes per copy, as a 1 MiB message */
#define CURVE_PASS_BYTES ((size_t)32 << 20)

typedef struct rate_curve {
  int n;                       /* points measured (fewer on a machine with little memory) */
  double set[CURVE_POINTS];    /* working set: source + destination bytes */
  double copy[CURVE_POINTS];   /* memcpy, bytes/s */
  double reduce[CURVE_POINTS]; /* inout += in on doubles, bytes of inout per s */
} rate_curve;

/* The reference reduction: what a good MPI_SUM on doubles does. Blocks of 8 let GCC's cheap
 * vectorizer (-O2) use packed adds; the operands are distinct buffers. */
static void sum_ref(double *restrict io, const double *restrict in, size_t n)
{
  size_t k = 0;
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++)
      io[k + j] += in[k + j];
  for (; k < n; k++)
    io[k] += in[k];
}

/* Best pass over [0, half) of src/dst, copying (or reducing) chunk by chunk: bytes/s */
static double curve_point(char *src, char *dst, size_t half, bool reduce)
{
  size_t chunk = half < CURVE_CHUNK ? half : CURVE_CHUNK;
  int passes = (int)(CURVE_PASS_BYTES / half);
  if (passes < 4) /* the best of 4 at least: other processes share the memory bus */
    passes = 4;
  double best = 0;
  for (int p = 0; p < passes; p++) {
    double t0 = seconds_now();
    for (size_t o = 0; o + chunk <= half; o += chunk) {
      if (reduce)
        sum_ref((double *)(void *)(dst + o), (const double *)(void *)(src + o),
                chunk / sizeof(double));
      else
        memcpy(dst + o, src + o, chunk);
    }
    __asm__ volatile("" : : "r"(dst) : "memory");
    double dt = seconds_now() - t0;
    if (dt > 0 && (best == 0 || dt < best))
      best = dt;
  }
  return best > 0 ? (double)half / best : 0;
}

/* One to three seconds, once per host: 512 MiB touched (at most an eighth of the memory). The
 * pages are faulted in and filled first, so that page clearing is not charged to memcpy;
 * huge pages where the kernel gives them (fewer TLB misses: the rate of the data alone). */
static rate_curve curve_measure(void)
{
  rate_curve c = {0};
  size_t max = CURVE_FIRST << (CURVE_POINTS - 1);
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  while (pages > 0 && psz > 0 && max > CURVE_FIRST && (double)max > (double)pages * psz / 8)
    max >>= 1;
  char *mem = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    return c;
#ifdef MADV_HUGEPAGE
  madvise(mem, max, MADV_HUGEPAGE);
#endif
  char *src = mem, *dst = mem + max / 2;
  for (size_t k = 0; k < max / 2 / sizeof(double); k++) {
    ((double *)(void *)src)[k] = 1.0;
    ((double *)(void *)dst)[k] = 0.5;
  }
  for (size_t set = CURVE_FIRST; set <= max && c.n < CURVE_POINTS; set *= 2, c.n++) {
    c.set[c.n] = (double)set;
    c.copy[c.n] = curve_point(src, dst, set / 2, false);
    c.reduce[c.n] = curve_point(src, dst, set / 2, true);
  }
  munmap(mem, max);
  /* a larger working set is not faster: a point above its neighbour below is noise (another
   * process's burst during the smaller one), and the floor takes the better rate */
  for (int i = c.n - 2; i >= 0; i--) {
    if (c.copy[i] < c.copy[i + 1])
      c.copy[i] = c.copy[i + 1];
    if (c.reduce[i] < c.reduce[i + 1])
      c.reduce[i] = c.reduce[i + 1];
  }
  return c;
}

/* One line "HOSTNAME v1 N SET COPY REDUCE ..." in ~/.cache/smpi/memcpy-rates (next to the
 * hot figure's file, which keeps its format for older builds). */
static const rate_curve *curve_get(void)
{
  static rate_curve known;
  if (known.n > 0)
    return &known;
  FILE *f = cache_read("memcpy-rates", "v1");
  if (f) {
    rate_curve c = {0};
    int n = 0;
    bool ok = fscanf(f, "%d", &n) == 1 && n > 0 && n <= CURVE_POINTS;
    for (int i = 0; ok && i < n; i++, c.n++)
      ok = fscanf(f, "%lf %lf %lf", &c.set[i], &c.copy[i], &c.reduce[i]) == 3 && c.copy[i] > 0 &&
           c.reduce[i] > 0;
    fclose(f);
    if (ok) {
      known = c;
      return &known;
    }
  }
  known = curve_measure();
  if (known.n > 0 && (f = cache_write("memcpy-rates", "v1"))) {
    fprintf(f, " %d", known.n);
    for (int i = 0; i < known.n; i++)
      fprintf(f, " %.0f %.0f %.0f", known.set[i], known.copy[i], known.reduce[i]);
    fprintf(f, "\n");
    fclose(f);
  }
  return &known;
}

/* ---- first touches ---- */

/* A program that receives into memory it never wrote has each page of it faulted in by the
 * copy that delivers the payload: trap, page clearing, accounting, the copy restarted. A
 * real MPI pays that too, so it is part of the floor, counted exactly (mincore on the
 * destination just before the copy) and charged at a cost per page measured once per host:
 *
 *   1 MiB chunks memcpy'd into a fresh 8 MiB anonymous mapping    fresh  (2 048 faults)
 *   the same copies again, into the now resident pages            warm
 *   cost per page = (best fresh - best warm) / 2 048, best of 4 mappings
 *
 * Measured three ways, as pages can arrive three ways: by trap into an ordinary mapping; after
 * one MADV_POPULATE_WRITE over the range (smpi_copy_prefault does that for large copies);
 * by trap into a mapping advised MADV_HUGEPAGE (the heap, when smpirun gave the program a
 * huge-page heap: smpi/huge-heap). The floor takes the cheapest way open to the run: a
 * simulator could always populate, and could use huge pages where this one does. Here: trap
 * 1-2.5 us per 4 KiB page, populated ~0.6-1.3, huge pages ~0.5-0.75, against ~0.3 us to copy
 * the page once it is there. */
#define TOUCH_BYTES ((size_t)8 << 20)
#define TOUCH_PASSES 4

static size_t page_size(void)
{
  static size_t psz;
  if (!psz) {
    long v = sysconf(_SC_PAGESIZE);
    psz = v > 0 ? (size_t)v : 4096;
  }
  return psz;
}

/* pages of [dst, dst + n) not resident, at most limit (a limit of 1: is any?) */
static unsigned long long not_resident(const void *dst, size_t n, unsigned long long limit)
{
  size_t psz = page_size();
  uintptr_t lo = (uintptr_t)dst & ~(uintptr_t)(psz - 1);
  uintptr_t hi = ((uintptr_t)dst + n + psz - 1) & ~(uintptr_t)(psz - 1);
  unsigned char vec[1024];
  unsigned long long count = 0;
  smpi_copies.residency_checks++;
  for (uintptr_t a = lo; a < hi && count < limit;) {
    size_t pages = (hi - a) / psz;
    if (pages > sizeof vec)
      pages = sizeof vec;
    if (mincore((void *)a, pages * psz, vec) != 0)
      return 0; /* not mapped: the copy will fail on its own, nothing to count */
    for (size_t i = 0; i < pages; i++)
      count += !(vec[i] & 1);
    a += pages * psz;
  }
  return count;
}

/* Pages known to be resident, so that a buffer the program reuses costs no system call per
 * message (mincore: ~0.5 us each; strace counted 32 768 of them in a 64-rank Alltoall of
 * 1 MiB, 4 calls: one for the first-touch count and one for the prefault, per block, as the
 * 64 ranges remembered until then were fewer than the 64 ranks' receive buffers and blocks).
 *
 * A range of whole pages enters after a copy wrote every page of it (memcpy touched each
 * page, the partial pages at both ends included). Ranges are kept sorted and disjoint, those
 * that overlap or touch merged (the blocks of an Alltoall's receive buffer become one range
 * per buffer), and found by binary search:
 *
 *   lo[0] < hi[0] < lo[1] < hi[1] < ...     [a, b) resident if lo[i] <= a and b <= hi[i]
 *                                           for the last i with lo[i] <= a
 *
 * RESIDENT_MAX ranges at most; when full, all are forgotten at once (each range then costs
 * one mincore again: the old behaviour, never a wrong copy, as the table only spares checks).
 * A range stops being resident only if the program unmaps it and a new mapping takes its
 * place (free of a large block, then malloc at the same address): its pages are then fresh
 * while the table says resident. The copy then traps as without a prefault, and the floor
 * counts none of those first touches: the floor stays below the cost, never above it.
 *
 * smpi/display-timing counts first touches just before the copy (smpi_first_touch_note),
 * and the prefault and the timing of large copies need the same count over the same range:
 * the last count is kept (pending) for them, so each new range costs one mincore, not up to
 * three. */
#define RESIDENT_MAX 4096
static struct {
  uintptr_t lo[RESIDENT_MAX], hi[RESIDENT_MAX]; /* whole pages, resident, sorted, disjoint */
  unsigned n;
  struct {
    uintptr_t lo, hi;             /* the range of the last first-touch count, 0: none */
    unsigned long long not_there; /* its pages not resident just before the copy */
  } pending;
} resident;

/* the last range starting at or below a, or -1 */
static long resident_find(uintptr_t a)
{
  long l = 0, h = (long)resident.n; /* the answer is below h, at or above l - 1 */
  while (l < h) {
    long m = (l + h) / 2;
    if (resident.lo[m] <= a)
      l = m + 1;
    else
      h = m;
  }
  return l - 1;
}

static bool resident_known(uintptr_t lo, uintptr_t hi)
{
  long i = resident_find(lo);
  return i >= 0 && hi <= resident.hi[i];
}

static void resident_remember(uintptr_t lo, uintptr_t hi)
{
  long i = resident_find(lo), j;
  if (i >= 0 && resident.hi[i] >= lo) { /* overlaps or touches range i: extend it */
    if (hi > resident.hi[i])
      resident.hi[i] = hi;
    j = i;
  } else {
    if (resident.n == RESIDENT_MAX) { /* full: forget everything */
      resident.n = 0;
      i = -1;
    }
    j = i + 1;
    size_t after = resident.n - (size_t)j;
    memmove(resident.lo + j + 1, resident.lo + j, after * sizeof *resident.lo);
    memmove(resident.hi + j + 1, resident.hi + j, after * sizeof *resident.hi);
    resident.lo[j] = lo;
    resident.hi[j] = hi;
    resident.n++;
  }
  long k = j + 1; /* ranges after j that j now reaches merge into it */
  while (k < (long)resident.n && resident.lo[k] <= resident.hi[j]) {
    if (resident.hi[k] > resident.hi[j])
      resident.hi[j] = resident.hi[k];
    k++;
  }
  if (k > j + 1) {
    size_t after = resident.n - (size_t)k;
    memmove(resident.lo + j + 1, resident.lo + k, after * sizeof *resident.lo);
    memmove(resident.hi + j + 1, resident.hi + k, after * sizeof *resident.hi);
    resident.n -= (unsigned)(k - j - 1);
  }
}

/* [dst, dst + n) rounded out to whole pages: the pages a copy there writes */
static void outer_pages(const void *dst, size_t n, uintptr_t *lo, uintptr_t *hi)
{
  size_t psz = page_size();
  *lo = (uintptr_t)dst & ~(uintptr_t)(psz - 1);
  *hi = ((uintptr_t)dst + n + psz - 1) & ~(uintptr_t)(psz - 1);
}

/* pages of the outer range not resident; limit as not_resident's; from the table or the
 * pending count where they know */
static unsigned long long missing_pages(const void *dst, size_t n, unsigned long long limit)
{
  uintptr_t lo, hi;
  outer_pages(dst, n, &lo, &hi);
  if (resident_known(lo, hi))
    return 0;
  if (resident.pending.lo == lo && resident.pending.hi == hi)
    return resident.pending.not_there;
  return not_resident(dst, n, limit);
}

bool smpi_copy_timed(const void *dst, size_t n)
{
  return smpi_copies.watch && n >= SMPI_COPY_TIMED_MIN && missing_pages(dst, n, 1) == 0;
}

/* CPU time, not wall: on a shared machine a copy may be preempted, and the floor is CPU */
double smpi_copy_clock(void)
{
  struct timespec ts;
  smpi_host_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels refuse it (EINVAL), harmless */
#endif
static bool prefault_off; /* the kernel refused MADV_POPULATE_WRITE once */

void smpi_first_touch_note(const void *dst, size_t n)
{
  uintptr_t lo, hi;
  outer_pages(dst, n, &lo, &hi);
  if (resident_known(lo, hi))
    return;
  unsigned long long missing = not_resident(dst, n, ~0ULL);
  smpi_copies.touched += missing;
  if (n < SMPI_PREFAULT_MIN || prefault_off) { /* no prefault follows: the copy does */
    resident_remember(lo, hi);
    return;
  }
  resident.pending.lo = lo;
  resident.pending.hi = hi;
  resident.pending.not_there = missing;
}

/* Populating pays the page clearing and accounting but not the trap, the fault's entry and
 * exit, nor memcpy's restart: measured here (64 MiB, 1 MiB copies, a loaded VM) 2.1-3.0 us
 * per page by trap against 1.3-2.0 populated, while populating pages already resident costs
 * ~0.11 us each. Hence the rule: populate when at least 1 page in 16 is missing. Only the
 * whole pages inside [dst, dst + n): the bytes around belong to someone else's object. A
 * range the table above knows is skipped without a system call. */
void smpi_copy_prefault(void *dst, size_t n)
{
  if (n < SMPI_PREFAULT_MIN || prefault_off)
    return;
  uintptr_t olo, ohi;
  outer_pages(dst, n, &olo, &ohi);
  if (resident_known(olo, ohi))
    return;
  size_t psz = page_size();
  uintptr_t lo = ((uintptr_t)dst + psz - 1) & ~(uintptr_t)(psz - 1);
  uintptr_t hi = ((uintptr_t)dst + n) & ~(uintptr_t)(psz - 1);
  if (hi <= lo)
    return;
  size_t pages = (hi - lo) / psz;
  unsigned long long missing;
  /* counted by smpi_first_touch_note: the program's pages, not a collective's scratch */
  bool noted = resident.pending.lo == olo && resident.pending.hi == ohi;
  if (noted) {
    missing = resident.pending.not_there; /* counted over the outer range: at most 2 more */
    resident.pending.lo = resident.pending.hi = 0;
  } else {
    missing = not_resident((void *)lo, hi - lo, ~0ULL);
  }
  if (missing * 16 >= pages) {
    double t0 = smpi_copies.watch && noted ? smpi_copy_clock() : 0;
    if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0) {
      if (errno == EINVAL)
        prefault_off = true;
    } else if (smpi_copies.watch && noted) {
      smpi_copies.populate_s += smpi_copy_clock() - t0;
      smpi_copies.populated += missing;
    }
  }
  /* resident once the copy that follows has run, partial pages at both ends included */
  resident_remember(olo, ohi);
}

enum touch_way { TOUCH_TRAP, TOUCH_POPULATE, TOUCH_HUGE, TOUCH_WAYS };

static double touch_measure(enum touch_way way)
{
  char *src = malloc(CURVE_CHUNK);
  if (!src)
    return 0;
  memset(src, 1, CURVE_CHUNK);
  const size_t huge = (size_t)2 << 20, extra = way == TOUCH_HUGE ? huge : 0;
  double fresh = 0, warm = 0;
  for (int p = 0; p < TOUCH_PASSES; p++) {
    char *map = mmap(NULL, TOUCH_BYTES + extra, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
      break;
    char *dst = map;
    if (extra) /* on a huge page boundary, so that the range is whole huge pages */
      dst = (char *)(((uintptr_t)map + extra - 1) & ~(uintptr_t)(extra - 1));
    if (way == TOUCH_HUGE && madvise(dst, TOUCH_BYTES, MADV_HUGEPAGE) != 0) {
      munmap(map, TOUCH_BYTES + extra);
      break;
    }
    for (int k = 0; k < 2; k++) {
      double t0 = seconds_now();
      if (k == 0 && way == TOUCH_POPULATE &&
          madvise(dst, TOUCH_BYTES, MADV_POPULATE_WRITE) != 0) {
        fresh = warm = 0; /* an older kernel: no such way */
        p = TOUCH_PASSES;
        break;
      }
      for (size_t o = 0; o < TOUCH_BYTES; o += CURVE_CHUNK)
        memcpy(dst + o, src, CURVE_CHUNK);
      __asm__ volatile("" : : "r"(dst) : "memory");
      double dt = seconds_now() - t0, *best = k == 0 ? &fresh : &warm;
      if (dt > 0 && (*best == 0 || dt < *best))
        *best = dt;
    }
    munmap(map, TOUCH_BYTES + extra);
  }
  free(src);
  double pages = (double)(TOUCH_BYTES / page_size());
  return warm > 0 && fresh > warm ? (fresh - warm) / pages : 0;
}

/* One line "HOSTNAME v2 TRAP POPULATE HUGE" (seconds per page; 0: that way could not be
 * measured) in ~/.cache/smpi/first-touch, beside the curve. */
double smpi_first_touch_cost(double configured)
{
  static double known[TOUCH_WAYS]; /* s per page */
  static bool have;                /* known is measured or read */
  if (configured > 0)
    return configured;
  if (!have) {
    FILE *f = cache_read("first-touch", "v2");
    if (f) {
      have = fscanf(f, "%lf %lf %lf", &known[0], &known[1], &known[2]) == 3 && known[0] >= 0 &&
             known[1] >= 0 && known[2] >= 0;
      fclose(f);
    }
  }
  if (!have) {
    /* a burst of another process during a warm pass can hide the difference: try again,
     * and cache even a 0 (no first-touch part) rather than measure in every run */
    for (int w = 0; w < TOUCH_WAYS; w++)
      for (int i = 0; i < 3 && known[w] <= 0; i++)
        known[w] = touch_measure((enum touch_way)w);
    have = true;
    FILE *f = cache_write("first-touch", "v2");
    if (f) {
      fprintf(f, " %.9g %.9g %.9g\n", known[0], known[1], known[2]);
      fclose(f);
    }
  }
  double best = 0;
  for (int w = 0; w < TOUCH_WAYS; w++)
    if (known[w] > 0 && (w != TOUCH_HUGE || smpi_copies.huge_heap) &&
        (best == 0 || known[w] < best))
      best = known[w];
  return best;
}

smpi_floor_rates smpi_floor_rates_for(double working_set, double copy_configured,
                                      double reduce_configured)
{
  smpi_floor_rates r = {copy_configured, reduce_configured};
  if (r.copy > 0 && r.reduce > 0)
    return r;
  const rate_curve *c = curve_get();
  if (c->n == 0)
    return r;
  int i = 0; /* the smallest working set measured that holds the run's (else the largest) */
  while (i < c->n - 1 && c->set[i] < working_set)
    i++;
  if (r.copy <= 0)
    r.copy = c->copy[i];
  if (r.reduce <= 0)
    r.reduce = c->reduce[i];
  return r;
}

#define TIMED_USE_MIN ((unsigned long long)16 << 20)
#define TIMED_TOUCH_MIN 256ULL /* pages populated (1 MiB): fewer say little */

void smpi_copies_report(FILE *f, double copy_configured, double reduce_configured,
                        double touch_configured, double program)
{
  double bw = smpi_memcpy_bandwidth(copy_configured);
  double floor = bw > 0 ? (double)smpi_copies.bytes / bw : 0;
  fprintf(f, "smpi: bytes copied: %llu in %llu copies (floor %.6f s at %.1f GB/s memcpy)\n",
          smpi_copies.bytes, smpi_copies.copies, floor, bw / 1e9);
  fprintf(f, "smpi: bytes reduced: %llu in %llu reductions\n", smpi_copies.reduced,
          smpi_copies.reductions);
  /* the memory the copies and reductions can have touched: each reads and writes its bytes */
  struct rusage ru;
  double rss = getrusage(RUSAGE_SELF, &ru) == 0 ? 1024.0 * (double)ru.ru_maxrss : 0;
  double touched = 2.0 * ((double)smpi_copies.bytes + (double)smpi_copies.reduced);
  double set = rss > 0 && rss < touched ? rss : touched;
  smpi_floor_rates r = smpi_floor_rates_for(set, copy_configured, reduce_configured);
  /* The curve's rate at the working set is an estimate: where the run's own large copies
   * (into resident pages) or reductions went faster, the floor takes their rate (their
   * sources were still in the cache: a Bcast forwards what it has just received). Never a
   * slower one: the floor stays below what the copies cost. 16 MiB at least, timed. */
  double mc = smpi_copies.copy_s > 0 ? (double)smpi_copies.timed_copied / smpi_copies.copy_s : 0;
  double mr = smpi_copies.reduce_s > 0 ? (double)smpi_copies.timed_reduced / smpi_copies.reduce_s
                                       : 0;
  fprintf(f,
          "smpi: timed in the run: copies %llu bytes in %.6f s (%.1f GB/s), reductions %llu "
          "bytes in %.6f s (%.1f GB/s)\n",
          smpi_copies.timed_copied, smpi_copies.copy_s, mc / 1e9, smpi_copies.timed_reduced,
          smpi_copies.reduce_s, mr / 1e9);
  if (copy_configured <= 0 && smpi_copies.timed_copied >= TIMED_USE_MIN && mc > r.copy)
    r.copy = mc;
  if (reduce_configured <= 0 && smpi_copies.timed_reduced >= TIMED_USE_MIN && mr > r.reduce)
    r.reduce = mr;
  double tc = r.copy > 0 ? (double)smpi_copies.bytes / r.copy : 0;
  double tr = r.reduce > 0 ? (double)smpi_copies.reduced / r.reduce : 0;
  double tp = program > 0 ? program : 0;
  double page = smpi_first_touch_cost(touch_configured); /* with the curve, on a first run */
  /* The cost per page measured once per host is the best of passes over pages the kernel had
   * just freed. A program's buffers get pages nobody touched lately, which may cost several
   * times that (a VM whose host backs guest memory lazily: 1.1 us populated here against 0.46
   * calibrated, in the same minute). The pages the run populated are charged the thread CPU
   * time of those populate calls, which does nothing but provide them: any simulator that
   * delivers the payload into those buffers pays it. The others (trapped by the copy itself,
   * or too few to populate) stay at the calibrated cost. A configured cost replaces both. */
  unsigned long long populated = smpi_copies.populated;
  ASSERT(populated <= smpi_copies.touched); /* populated only after counted (pending) */
  if (touch_configured > 0 || populated < TIMED_TOUCH_MIN)
    populated = 0;
  double tt = (double)(smpi_copies.touched - populated) * page;
  if (populated > 0)
    tt += smpi_copies.populate_s;
  fprintf(f,
          "smpi: timed in the run: first touches %llu pages populated in %.6f s (%.2f us a "
          "page, against %.2f us %s)%s\n",
          smpi_copies.populated, smpi_copies.populate_s,
          smpi_copies.populated ? 1e6 * smpi_copies.populate_s / (double)smpi_copies.populated
                                : 0.0,
          page * 1e6, touch_configured > 0 ? "configured" : "calibrated",
          populated > 0 ? "" : ", not used");
  fprintf(f,
          "smpi: payload floor: %.6f s = program %.6f s%s + copies %.6f s at %.1f GB/s + "
          "reductions %.6f s at %.1f GB/s (working set %.0f MiB) + first touches %.6f s "
          "(%llu pages at %.2f us)\n",
          tp + tc + tr + tt, tp, program < 0 ? " (not measured)" : "", tc, r.copy / 1e9, tr,
          r.reduce / 1e9, set / (1 << 20), tt, smpi_copies.touched,
          smpi_copies.touched ? 1e6 * tt / (double)smpi_copies.touched : page * 1e6);
}
