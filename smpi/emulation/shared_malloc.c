/* Memory folding: SMPI_SHARED_MALLOC, SMPI_PARTIAL_SHARED_MALLOC, SMPI_SHARED_FREE and
 * SMPI_SHARED_CALL.
 *
 * A folded allocation is address space whose bytes carry no meaning (a matrix whose values
 * the simulation does not need), so every rank can be given the same few physical pages.
 *
 * smpi/shared-malloc:global (default), blocksize B (smpi/shared-malloc-blocksize):
 * one block of B bytes (a memfd, or a file in hugetlbfs) backs every folded allocation of
 * every rank; each allocation maps it again and again, B bytes at a time.
 *
 *     p = SMPI_SHARED_MALLOC(2.5 B)          q = SMPI_SHARED_MALLOC(B)    (another rank)
 *
 *     p        p+B      p+2B  p+2.5B         q        q+B
 *     |chunk 0 |chunk 1 |ch.2|               |chunk 0 |
 *        \        |      /                       |
 *         \       |     /   (mmap MAP_SHARED|MAP_FIXED, file offset 0, one mapping each)
 *          v      v    v                         v
 *         [ the block: B bytes of physical memory, once for the whole process ]
 *
 *   p[0], p[B], p[2B] and q[0] are the same byte. Memory: B bytes, whatever the number and
 *   size of allocations. Cost: one mapping per chunk (ceil(size / B)), counted against
 *   vm.max_map_count (65530 by default): 80 GiB in 1 MiB blocks would need 81920 mappings,
 *   more than allowed, so an allocation too large for its share of a budget of mappings maps
 *   larger chunks of a larger block instead (see "the mapping budget"). Page tables still
 *   grow with the touched address space (8 bytes per 4 KiB page);
 *   smpi/shared-malloc-hugepage:/mnt/huge backs the block with huge pages, which divides that
 *   by 512.
 *
 * smpi/shared-malloc:local: one backing file per call site ("file:line"), as large as the
 * largest request made there, mapped once per allocation: the ranks allocating at that line
 * share one real buffer (the data stays consistent within the buffer, unlike :global).
 *
 * SMPI_PARTIAL_SHARED_MALLOC(size, {s0,e0, s1,e1, ...}, n): the byte ranges [si, ei) are
 * folded, the rest is ordinary private memory. Folding works on whole (ordinary) pages, so a
 * page only partly inside a range stays private (private is always safe: those bytes just
 * cost memory); with huge pages, the ends of a range that fill no whole huge page fold onto
 * a small block of ordinary pages (see layout()).
 *
 *     p                                                              p+size
 *     | private (anon) | folded pages -> block, cyclically | private | folded | private |
 *            s0 ^ rounded up to a page     e0 ^ rounded down
 *
 * smpi/shared-malloc:no: plain malloc (to check that folding does not change results).
 *
 * Allocations are kept in a treap keyed by address, so "which allocation holds this byte"
 * (asked for every message payload, see smpi_shared_aware_copy) costs O(log n). */
#include "smpi/emulation/shared_malloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/strmap.h"

LOG_NEW_SUBCATEGORY(smpi_shared, smpi, "memory folding (SMPI_SHARED_MALLOC) and shared calls");
LOG_DEFAULT_CATEGORY(smpi_shared);

#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif

enum { SHM_GLOBAL, SHM_LOCAL, SHM_NONE };

/* A call site of :local mode: its backing file and how many live allocations map it. */
typedef struct shm_site {
  int fd;
  size_t size;
  int refs;
  char *key;
} shm_site;

typedef struct shm_alloc {
  /* what a lookup's walk reads, in the first cache line of the node */
  uintptr_t base;
  size_t len;                     /* address space, a multiple of the mapping granularity */
  size_t maplen;                  /* its mapping's length: len, or a block (see keep_put) */
  struct shm_alloc *left, *right; /* treap by base */
  uint32_t prio;
  bool partial;
  size_t size;    /* what the program asked for */
  size_t nmaps;   /* mappings this allocation costs */
  shm_site *site; /* :local */
  size_t *spans;  /* partial: folded [start, end) offsets, sorted, page-aligned, 2*nspans */
  size_t nspans;
  const char *file; /* SMPI_SHARED_MALLOC's call site (the program's __FILE__), or NULL */
  int line;
} shm_alloc;

/* A block SMPI_SHARED_FREE released: a second SMPI_SHARED_FREE of its address (no longer in
 * the tree) is a double free, reported with these. */
typedef struct shm_freed {
  uintptr_t base;
  size_t size;
  const char *file;
  int line;
  int rank; /* who freed it, -1 outside of any rank */
} shm_freed;
#define SHM_FREED_MAX 64 /* the last blocks freed, a ring: enough for a free repeated soon */

static struct folding_state {
  bool ready;
  int mode;
  size_t page;     /* system page size */
  size_t gran;     /* mapping granularity: the page size, or the huge page size */
  size_t block;    /* smpi/shared-malloc-blocksize: the smallest chunk an allocation maps */
  char *huge_path; /* NULL: ordinary pages */
  long max_map_count;
  long max_maps_cfg;  /* smpi/shared-malloc-max-mappings as given (-1: from max_map_count) */
  int block_fd;       /* the :global block, -1 until first needed */
  size_t block_len;   /* bytes of that block's file: the largest chunk mapped so far */
  bool noted;         /* the note on chunks larger than the block size was printed */
  int edge_fd;        /* huge pages: ordinary-page block for the edges of partial spans */
  size_t forced_gran; /* tests: act as if pages were this large (0: no) */
  shm_alloc *root;
  size_t nallocs, nmaps, vbytes;
  uint32_t seed;
  strmap *sites;
  strmap *calls;
  void **scratch; /* smpi_shared_scratch's regions, the last one the largest */
  size_t nscratch, capscratch, scratch_size;
  shm_freed freed[SHM_FREED_MAX]; /* ring of the last blocks freed, for double frees */
  size_t nfreed;                  /* blocks freed so far (the next slot: nfreed % MAX) */
} folding = {.block_fd = -1, .edge_fd = -1, .seed = 0x9e3779b9u};

static const cfg_key shared_keys[] = {
    CFG_KEY_STRING("smpi/shared-malloc", "global", "global|local|no",
                   "SMPI_SHARED_MALLOC: global (one block folds every allocation of every "
                   "rank), local (one buffer per call site, shared by the ranks), no (plain "
                   "malloc)"),
    CFG_KEY_UINT("smpi/shared-malloc-blocksize", 1L << 20,
                 "Size of the block that folded allocations map again and again (bytes, "
                 "k/M/G suffix); larger blocks use fewer memory mappings. An allocation "
                 "too large for smpi/shared-malloc-max-mappings maps larger blocks"),
    CFG_KEY_INT("smpi/shared-malloc-max-mappings", -1,
                "Memory mappings that folded memory should use in all: each allocation maps "
                "blocks large enough for a share of them (one quarter per rank's share); "
                "-1: a quarter of vm.max_map_count (the rest is for stacks and libraries)"),
    CFG_KEY_STRING("smpi/shared-malloc-hugepage", "", NULL,
                   "Directory where a hugetlbfs is mounted: back folded memory with huge pages "
                   "(smaller page tables); empty: ordinary pages"),
    CFG_KEY_UINT("smpi/auto-shared-malloc-thresh", 0,
                 "Fold every malloc, calloc and realloc of at least this many bytes that the "
                 "program makes, as SMPI_SHARED_MALLOC would (its content becomes "
                 "meaningless); 0: off"),
    CFG_KEY_BOOL("smpi/display-allocs", false,
                 "At the end of the run, print how much the program allocated with malloc, "
                 "calloc and realloc, and the call sites of its largest allocations"),
};

void smpi_shared_declare_config(void) { cfg_declare_keys(shared_keys, CFG_NKEYS(shared_keys)); }

/* ---- small helpers ---- */

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }
static size_t round_down(size_t x, size_t a) { return x / a * a; }

/* "512 MiB", "1.5 GiB": sizes in messages */
static const char *fmt_size(size_t b, char *buf, size_t n)
{
  static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)b;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    u++;
  }
  if (v == (double)(unsigned long long)v)
    snprintf(buf, n, "%llu %s", (unsigned long long)v, units[u]);
  else
    snprintf(buf, n, "%.1f %s", v, units[u]);
  return buf;
}

/* a size as --cfg accepts it for an integer key: "64M" */
static const char *fmt_cfg_size(size_t b, char *buf, size_t n)
{
  if (b % (1UL << 30) == 0)
    snprintf(buf, n, "%zuG", b >> 30);
  else if (b % (1UL << 20) == 0)
    snprintf(buf, n, "%zuM", b >> 20);
  else if (b % 1024 == 0)
    snprintf(buf, n, "%zuk", b >> 10);
  else
    snprintf(buf, n, "%zu", b);
  return buf;
}

static long read_max_map_count(void)
{
  long v = 65530; /* the kernel's default, if /proc cannot tell */
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f) {
    if (fscanf(f, "%ld", &v) != 1)
      v = 65530;
    fclose(f);
  }
  return v;
}

static size_t count_process_mappings(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return 0;
  size_t n = 0;
  int c;
  while ((c = getc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}

/* ---- treap of allocations, keyed by base address ---- */

static uint32_t next_prio(void)
{
  folding.seed ^= folding.seed << 13;
  folding.seed ^= folding.seed >> 17;
  folding.seed ^= folding.seed << 5;
  return folding.seed;
}

static shm_alloc *rot_right(shm_alloc *t)
{
  shm_alloc *l = t->left;
  t->left = l->right;
  l->right = t;
  return l;
}

static shm_alloc *rot_left(shm_alloc *t)
{
  shm_alloc *r = t->right;
  t->right = r->left;
  r->left = t;
  return r;
}

static shm_alloc *tree_insert(shm_alloc *t, shm_alloc *n)
{
  if (!t)
    return n;
  if (n->base < t->base) {
    t->left = tree_insert(t->left, n);
    if (t->left->prio > t->prio)
      t = rot_right(t);
  } else {
    t->right = tree_insert(t->right, n);
    if (t->right->prio > t->prio)
      t = rot_left(t);
  }
  return t;
}

static shm_alloc *tree_remove(shm_alloc *t, uintptr_t base)
{
  ASSERT(t);
  if (base < t->base) {
    t->left = tree_remove(t->left, base);
  } else if (base > t->base) {
    t->right = tree_remove(t->right, base);
  } else if (!t->left) {
    return t->right;
  } else if (!t->right) {
    return t->left;
  } else if (t->left->prio > t->right->prio) {
    t = rot_right(t);
    t->right = tree_remove(t->right, base);
  } else {
    t = rot_left(t);
    t->left = tree_remove(t->left, base);
  }
  return t;
}

/* the allocation with the largest base <= a */
static shm_alloc *tree_floor(uintptr_t a)
{
  shm_alloc *best = NULL;
  for (shm_alloc *t = folding.root; t;) {
    if (t->base <= a) {
      best = t;
      t = t->right;
    } else {
      t = t->left;
    }
  }
  return best;
}

/* the allocation with the smallest base > a */
static shm_alloc *tree_above(uintptr_t a)
{
  shm_alloc *best = NULL;
  for (shm_alloc *t = folding.root; t;) {
    if (t->base > a) {
      best = t;
      t = t->left;
    } else {
      t = t->right;
    }
  }
  return best;
}

/* The last two lookups, each an allocation or a gap between allocations: a message's copy
 * asks about the same two buffers (source, destination) several times in a row, and the
 * treap walk is a chain of cache misses. Forgotten at every insertion and removal. */
typedef struct shm_span {
  uintptr_t lo, hi; /* [lo, hi): the allocation a, or no allocation at all (a NULL) */
  shm_alloc *a;
} shm_span;
static shm_span recent[2];
static unsigned recent_next;

static void recent_forget(void) { memset(recent, 0, sizeof recent); }

/* The allocation holding addr, or NULL; *next is where the answer stops holding: the end
 * of the allocation, or the base of the next one (UINTPTR_MAX when none) */
static shm_alloc *locate(uintptr_t addr, uintptr_t *next)
{
  for (int i = 0; i < 2; i++)
    if (addr >= recent[i].lo && addr < recent[i].hi) {
      *next = recent[i].hi;
      return recent[i].a;
    }
  shm_alloc *f = tree_floor(addr);
  shm_span sp;
  if (f && addr - f->base < f->len) {
    sp = (shm_span){f->base, f->base + f->len, f};
  } else {
    shm_alloc *n = tree_above(addr);
    sp = (shm_span){f ? f->base + f->len : 0, n ? n->base : UINTPTR_MAX, NULL};
  }
  recent[recent_next] = sp;
  recent_next ^= 1;
  *next = sp.hi;
  return sp.a;
}

static shm_alloc *alloc_containing(uintptr_t a)
{
  uintptr_t next;
  return locate(a, &next);
}

bool smpi_shared_block(const void *p, size_t *size)
{
  if (!folding.root)
    return false;
  shm_alloc *a = alloc_containing((uintptr_t)p);
  if (!a || a->base != (uintptr_t)p)
    return false;
  *size = a->size;
  return true;
}

/* ---- configuration ---- */

int smpi_shared_init(char *err, size_t errlen)
{
  if (folding.ready)
    return 0;
  smpi_shared_declare_config();
  folding.page = (size_t)sysconf(_SC_PAGESIZE);
  const char *m = cfg_get_string("smpi/shared-malloc");
  folding.mode = !strcmp(m, "local") ? SHM_LOCAL : !strcmp(m, "no") ? SHM_NONE : SHM_GLOBAL;

  long bs = cfg_get_int("smpi/shared-malloc-blocksize");
  if (bs <= 0 || (size_t)bs % folding.page) {
    snprintf(err, errlen,
             "smpi/shared-malloc-blocksize:%ld: the block size must be a positive multiple of "
             "the page size (%zu bytes), e.g. 1M or 64M",
             bs, folding.page);
    return -1;
  }
  folding.block = (size_t)bs;
  folding.gran = folding.page;

  const char *hp = cfg_get_string("smpi/shared-malloc-hugepage");
  free(folding.huge_path);
  folding.huge_path = NULL;
  if (*hp) {
    struct statfs st;
    if (statfs(hp, &st) != 0) {
      snprintf(err, errlen,
               "smpi/shared-malloc-hugepage:%s: %s; give the directory where a hugetlbfs is "
               "mounted (mkdir -p /mnt/huge && mount -t hugetlbfs none /mnt/huge)",
               hp, strerror(errno));
      return -1;
    }
    if ((unsigned long)st.f_type != (unsigned long)HUGETLBFS_MAGIC) {
      snprintf(err, errlen,
               "smpi/shared-malloc-hugepage:%s is not a mounted hugetlbfs (its file system type "
               "is 0x%lx): mount one (mkdir -p /mnt/huge && mount -t hugetlbfs -o mode=1777 none "
               "/mnt/huge), reserve huge pages (sysctl -w vm.nr_hugepages=N) and pass its path",
               hp, (unsigned long)st.f_type);
      return -1;
    }
    folding.huge_path = xstrdup(hp);
    folding.gran = (size_t)st.f_bsize;
    if (folding.block % folding.gran) {
      size_t nb = round_up(folding.block, folding.gran);
      char a[32], b[32];
      LOG_VERB("smpi/shared-malloc-blocksize rounded up from %s to %s, a multiple of the huge "
               "page size",
               fmt_size(folding.block, a, sizeof a), fmt_size(nb, b, sizeof b));
      folding.block = nb;
    }
  }
  if (!folding.huge_path && folding.forced_gran > folding.page) {
    folding.gran = folding.forced_gran;
    folding.block = round_up(folding.block, folding.gran);
  }
  folding.max_maps_cfg = cfg_get_int("smpi/shared-malloc-max-mappings");
  folding.max_map_count = read_max_map_count();
  folding.ready = true;
  return 0;
}

static void keep_flush(void);

static void scratch_release(void)
{
  for (size_t i = 0; i < folding.nscratch; i++)
    smpi_shared_free(folding.scratch[i]);
  free(folding.scratch);
  folding.scratch = NULL;
  folding.nscratch = folding.capscratch = folding.scratch_size = 0;
}

void smpi_shared_reset(void)
{
  scratch_release();
  keep_flush();
  ASSERTF(folding.nallocs == 0, "smpi_shared_reset with %zu live folded allocations",
          folding.nallocs);
  if (folding.block_fd >= 0)
    close(folding.block_fd);
  folding.block_fd = -1;
  folding.block_len = 0;
  if (folding.edge_fd >= 0)
    close(folding.edge_fd);
  folding.edge_fd = -1;
  folding.noted = false;
  free(folding.huge_path);
  folding.huge_path = NULL;
  folding.ready = false;
}

/* ---- backing files ---- */

/* A file of `size` bytes whose pages the mappings share: a memfd, or an unlinked file in the
 * hugetlbfs. */
static int backing_open(const char *tag, size_t size, int *out, char *err, size_t errlen)
{
  int fd;
  const char *where;
  if (folding.huge_path) {
    char *tmpl = xasprintf("%s/smpi-shared-XXXXXX", folding.huge_path);
    fd = mkstemp(tmpl);
    int e = errno;
    if (fd >= 0)
      unlink(tmpl);
    free(tmpl);
    where = folding.huge_path;
    if (fd < 0) {
      snprintf(err, errlen,
               "cannot create a file in the hugetlbfs %s: %s (mount it writable for this user: "
               "-o mode=1777)",
               folding.huge_path, strerror(e));
      return -1;
    }
  } else {
    fd = memfd_create(tag, MFD_CLOEXEC);
    where = "memory (memfd)";
    if (fd < 0 && errno == ENOSYS) {
      /* kernels before 3.17: an unlinked file in the temporary directory */
      const char *tmp = getenv("TMPDIR");
      char *tmpl = xasprintf("%s/smpi-shared-XXXXXX", tmp && *tmp ? tmp : "/tmp");
      fd = mkstemp(tmpl);
      if (fd >= 0)
        unlink(tmpl);
      free(tmpl);
      where = tmp && *tmp ? tmp : "/tmp";
    }
    if (fd < 0) {
      int e = errno;
      snprintf(err, errlen, "cannot create the block backing folded memory: %s%s", strerror(e),
               e == EMFILE || e == ENFILE
                   ? " (too many open files: raise the limit, e.g. ulimit -n 65536)"
                   : "");
      return -1;
    }
  }
  if (ftruncate(fd, (off_t)size) != 0) {
    int e = errno;
    char b[32];
    close(fd);
    snprintf(err, errlen, "cannot size the block backing folded memory to %s in %s: %s",
             fmt_size(size, b, sizeof b), where, strerror(e));
    return -1;
  }
  *out = fd;
  return 0;
}

/* The :global block, at least `len` bytes long: it grows (a larger file, the same first
 * bytes) when an allocation maps larger chunks; mappings of the shorter ones stay valid. */
static int global_block(size_t len, char *err, size_t errlen)
{
  if (len < folding.block)
    len = folding.block;
  if (folding.block_fd < 0) {
    if (backing_open("smpi-shared-block", len, &folding.block_fd, err, errlen) != 0)
      return -1;
    folding.block_len = len;
  } else if (len > folding.block_len) {
    if (ftruncate(folding.block_fd, (off_t)len) != 0) {
      char b[32];
      snprintf(err, errlen, "cannot grow the block backing folded memory to %s: %s",
               fmt_size(len, b, sizeof b), strerror(errno));
      return -1;
    }
    folding.block_len = len;
  }
  return folding.block_fd;
}

/* Huge pages: folded pieces of a partial allocation that do not fill whole huge pages (a
 * span's ends) map this block of ordinary pages, two huge pages long, so that the private
 * bytes around them keep a granularity of ordinary pages. */
static int edge_block(char *err, size_t errlen)
{
  if (folding.edge_fd < 0) {
    char *keep = folding.huge_path;
    folding.huge_path = NULL; /* backing_open: a memfd */
    int r = backing_open("smpi-shared-edges", 2 * folding.gran, &folding.edge_fd, err, errlen);
    folding.huge_path = keep;
    if (r != 0)
      return -1;
  }
  return folding.edge_fd;
}

/* ---- the mapping budget ----
 * Folded memory should use at most `budget` mappings (smpi/shared-malloc-max-mappings, by
 * default a quarter of vm.max_map_count: up to half goes to actor stacks, see
 * kernel/context.c, the rest to libraries, arenas and the program). Each rank may hold a few
 * large allocations at once, so one allocation gets budget / (SHM_LARGE_PER_RANK x ranks)
 * mappings, and maps chunks of the block large enough for that: the configured block size
 * doubled until the allocation fits. HPL at 64 ranks, N = 160 000 (3.2 GB per rank): 63
 * mappings each, chunks of 64 MiB, 49 mappings per rank (1 MiB blocks: 3 052, 195 000 in
 * all, three times vm.max_map_count). The price: the block grows to the largest chunk, so a
 * program that writes all of such an allocation makes the block hold that many bytes. */
enum { SHM_LARGE_PER_RANK = 4 };

static size_t map_budget(void)
{
  if (folding.max_maps_cfg > 0)
    return (size_t)folding.max_maps_cfg;
  return folding.max_map_count >= 8 ? (size_t)folding.max_map_count / 4 : 2;
}

static size_t alloc_cap(void)
{
  size_t np = smpi_w.np > 0 ? (size_t)smpi_w.np : 1;
  size_t c = map_budget() / (SHM_LARGE_PER_RANK * np);
  return c ? c : 1;
}

/* ---- allocation ---- */

/* Address space of len bytes aligned on the granularity. */
static void *reserve(size_t len, int prot, int flags)
{
  size_t extra = folding.gran > folding.page ? folding.gran : 0;
  char *p = mmap(NULL, len + extra, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  if (!extra)
    return p;
  char *a = (char *)round_up((uintptr_t)p, folding.gran);
  if (a > p)
    munmap(p, (size_t)(a - p));
  if (p + len + extra > a + len)
    munmap(a + len, (size_t)(p + len + extra - (a + len)));
  return a;
}

/* What to do besides raising vm.max_map_count. With every allocation mapping chunks of at
 * least B bytes, folded memory costs at most vbytes / B + allocations mappings: the advice is
 * the smallest B (the block size doubled) that keeps this allocation and the live ones within
 * half the limit, when one exists; when the live allocations alone are too many (a small one
 * per rank and call, at tens of thousands of ranks) no block size helps. */
static const char *blocks_advice(size_t len, char *buf, size_t n)
{
  char c[32];
  size_t limit = folding.max_map_count > 2 ? (size_t)folding.max_map_count / 2 : 1;
  size_t fixed = folding.nallocs + 1, bytes = folding.vbytes + len;
  size_t b = folding.block;
  while (fixed < limit && (bytes + b - 1) / b > limit - fixed)
    b *= 2;
  if (fixed < limit && b > folding.block)
    snprintf(buf, n,
             " or use larger blocks for every allocation (--cfg=smpi/shared-malloc-blocksize:%s)",
             fmt_cfg_size(b, c, sizeof c));
  else
    snprintf(buf, n,
             "; larger blocks would not help: every live SMPI_SHARED_MALLOC takes a "
             "mapping of its own (%zu live)",
             folding.nallocs);
  return buf;
}

/* The failure of a mapping, explained: the map count, huge pages, or memory. */
static void mapping_error(int e, size_t size, size_t needed, size_t chunk, char *err,
                          size_t errlen)
{
  char a[32], b[32], c[160];
  if (e == ENOMEM && folding.huge_path) {
    snprintf(err, errlen,
             "cannot map huge pages for a folded allocation of %s: no free huge page left? "
             "(see HugePages_Free in /proc/meminfo; reserve more: sysctl -w vm.nr_hugepages=N), "
             "or vm.max_map_count (%ld) reached",
             fmt_size(size, a, sizeof a), folding.max_map_count);
  } else if (e == ENOMEM) {
    size_t in_use = count_process_mappings();
    size_t want = in_use + needed + 1024;
    snprintf(err, errlen,
             "SMPI_SHARED_MALLOC of %s needs %zu mapping%s of %s; %zu are in use and "
             "vm.max_map_count is %ld: raise it (sysctl -w vm.max_map_count=%zu)%s (or the "
             "machine is out of memory)",
             fmt_size(size, a, sizeof a), needed, needed == 1 ? "" : "s",
             fmt_size(chunk, b, sizeof b), in_use, folding.max_map_count,
             want < 262144 ? 262144 : want, blocks_advice(size, c, sizeof c));
  } else {
    snprintf(err, errlen, "cannot map a folded allocation of %s: %s", fmt_size(size, a, sizeof a),
             strerror(e));
  }
}

/* Maps [at, at + len) onto a block, one chunk of (at most) `chunk` bytes at a time; with at
 * NULL, only counts the mappings. MAP_NORESERVE: a hugetlbfs would otherwise reserve huge
 * pages for the whole chunk at mmap time, though only the pages written are ever used (no
 * effect on a memfd). */
static int map_cyclic(char *at, size_t len, int fd, size_t chunk, size_t *nmaps)
{
  for (size_t off = 0; off < len; off += chunk) {
    size_t l = len - off < chunk ? len - off : chunk;
    if (at && mmap(at + off, l, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE,
                   fd, 0) == MAP_FAILED)
      return errno;
    (*nmaps)++;
  }
  return 0;
}

static int cmp_range(const void *a, const void *b)
{
  const size_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
}

/* Validated, sorted, merged, page-aligned folded spans of a partial allocation. */
static int partial_spans(size_t size, const size_t *offsets, int nblocks, size_t **out,
                         size_t *nout, char *err, size_t errlen)
{
  *out = NULL;
  *nout = 0;
  if (nblocks == 0)
    return 0;
  if (!offsets) {
    snprintf(err, errlen, "SMPI_PARTIAL_SHARED_MALLOC(%zu, NULL, %d): the offsets array is NULL",
             size, nblocks);
    return -1;
  }
  size_t *r = xmalloc(2 * (size_t)nblocks * sizeof *r);
  for (int i = 0; i < nblocks; i++) {
    size_t s = offsets[2 * i], e = offsets[2 * i + 1];
    if (s > e || e > size) {
      snprintf(err, errlen,
               "SMPI_PARTIAL_SHARED_MALLOC(%zu, offsets, %d): shared block %d is [%zu, %zu), "
               "which is not a range of the %zu bytes allocated (offsets holds start,end pairs, "
               "end excluded)",
               size, nblocks, i, s, e, size);
      free(r);
      return -1;
    }
    r[2 * i] = s;
    r[2 * i + 1] = e;
  }
  qsort(r, (size_t)nblocks, 2 * sizeof *r, cmp_range);
  size_t n = 0;
  /* merge overlapping or touching ranges first, so that two ranges sharing a page fold it */
  for (int i = 0; i < nblocks; i++) {
    size_t s = r[2 * i], e = r[2 * i + 1];
    if (s == e)
      continue;
    if (n > 0 && s <= r[2 * n - 1]) {
      if (e > r[2 * n - 1])
        r[2 * n - 1] = e;
    } else {
      r[2 * n] = s;
      r[2 * n + 1] = e;
      n++;
    }
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    size_t s = round_up(r[2 * i], folding.page), e = round_down(r[2 * i + 1], folding.page);
    if (s < e) {
      r[2 * m] = s;
      r[2 * m + 1] = e;
      m++;
    }
  }
  if (m == 0) {
    free(r);
    return 0;
  }
  *out = r;
  *nout = m;
  return 0;
}

/* ---- freed mappings kept for reuse ----
 * SMPI_SHARED_FREE of a :global allocation of one mapping (at most a block, not partial)
 * keeps the mapping, and the next allocation of the same length takes it back without a
 * system call: programs allocate and free the same sizes in loops, and mmap + munmap cost
 * more than the rest of a small collective. The content is the block's either way (a fresh
 * mapping shows the same shared block). At most a quarter of vm.max_map_count mappings (16 382
 * by default: 4 096 ranks with 3 buffers each) are kept; they count
 * against vm.max_map_count, so an allocation that would be refused for the map count first
 * gives them back (keep_flush). Such a mapping spans at least SHM_KEEP_SPAN of the block (or
 * all of a smaller block), whatever the allocation's length (the address space past it shows
 * the block's next bytes and costs no memory), so that one kept mapping serves any later
 * allocation up to that length: a program whose buffers grow (1 KiB, 32 KiB, 1 MiB, each
 * freed before the next) maps once per rank instead of once per size. */
#define SHM_KEEP_SPAN ((size_t)1 << 20)
enum { SHM_KEEP_LENS = 32 };
typedef struct shm_kept {
  size_t len;
  uintptr_t *bases;
  size_t n, cap;
} shm_kept;
static shm_kept keep[SHM_KEEP_LENS];
static size_t nkept;

static bool keep_put(uintptr_t base, size_t len)
{
  if (nkept >= (size_t)(folding.max_map_count > 4 ? folding.max_map_count / 4 : 1))
    return false;
  int slot = -1;
  for (int i = 0; i < SHM_KEEP_LENS && (slot < 0 || keep[slot].len != len); i++)
    if (keep[i].len == len || (slot < 0 && keep[i].n == 0))
      slot = i;
  if (slot < 0)
    return false; /* as many lengths kept as there is room for */
  keep[slot].len = len;
  XGROW(keep[slot].bases, keep[slot].cap, keep[slot].n + 1);
  keep[slot].bases[keep[slot].n++] = base;
  nkept++;
  return true;
}

static uintptr_t keep_get(size_t len)
{
  for (int i = 0; i < SHM_KEEP_LENS; i++)
    if (keep[i].len == len && keep[i].n) {
      nkept--;
      return keep[i].bases[--keep[i].n];
    }
  return 0;
}

static void keep_flush(void)
{
  for (int i = 0; i < SHM_KEEP_LENS; i++) {
    for (size_t k = 0; k < keep[i].n; k++)
      munmap((void *)keep[i].bases[k], keep[i].len);
    free(keep[i].bases);
    keep[i] = (shm_kept){0};
  }
  nkept = 0;
}

static void record(shm_alloc *a)
{
  recent_forget();
  a->prio = next_prio();
  folding.root = tree_insert(folding.root, a);
  folding.nallocs++;
  folding.nmaps += a->nmaps;
  folding.vbytes += a->len;
}

static int alloc_local(shm_alloc *a, const char *site, char *err, size_t errlen)
{
  if (!folding.sites)
    folding.sites = strmap_new();
  shm_site *st = strmap_get(folding.sites, site);
  if (!st) {
    int fd;
    if (backing_open("smpi-shared-site", a->len, &fd, err, errlen) != 0)
      return -1;
    st = xcalloc(1, sizeof *st);
    st->fd = fd;
    st->size = a->len;
    st->key = xstrdup(site);
    strmap_insert(folding.sites, site, st);
  } else if (a->len > st->size) {
    if (ftruncate(st->fd, (off_t)a->len) != 0) {
      char b[32];
      snprintf(err, errlen, "cannot grow the buffer shared by call site %s to %s: %s", site,
               fmt_size(a->len, b, sizeof b), strerror(errno));
      return -1;
    }
    st->size = a->len;
  }
  void *p = mmap(NULL, a->len, PROT_READ | PROT_WRITE, MAP_SHARED, st->fd, 0);
  if (p == MAP_FAILED) {
    mapping_error(errno, a->size, 1, a->len, err, errlen);
    if (st->refs == 0) {
      strmap_remove(folding.sites, site, NULL);
      close(st->fd);
      free(st->key);
      free(st);
    }
    return -1;
  }
  st->refs++;
  a->site = st;
  a->base = (uintptr_t)p;
  a->nmaps = 1;
  return 0;
}

/* The mappings of an allocation, in address order; with base NULL only counted (*nmaps).
 * Not partial: [0, len) onto the block, chunk by chunk. Partial: anonymous private memory
 * between the folded spans; a span's whole granules onto the block; with huge pages, the ends
 * of a span that fill no whole huge page onto the edge block (ordinary pages), so that
 * private bytes stay private at the granularity of ordinary pages:
 *
 *     base (huge-page aligned)     2 MiB                        4 MiB
 *     | private | edge (folded) ->|  huge page(s), folded ->  |edge | private |
 *           span start ^ (4 KiB multiple)                span end ^
 */
static int layout(const shm_alloc *a, char *base, size_t chunk, int fd, int efd, size_t *nmaps)
{
  *nmaps = 0;
  if (!a->partial)
    return map_cyclic(base, a->len, fd, chunk, nmaps);
  size_t prev = 0;
  for (size_t i = 0; i <= a->nspans; i++) {
    size_t s = i < a->nspans ? a->spans[2 * i] : a->len;
    if (s > prev) {
      if (base && mmap(base + prev, s - prev, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        return errno;
      (*nmaps)++;
    }
    if (i == a->nspans)
      break;
    size_t e = a->spans[2 * i + 1];
    size_t hs = round_up(s, folding.gran), he = round_down(e, folding.gran);
    if (hs >= he)
      hs = he = e; /* no whole granule: all of it on the edge block (< 2 granules) */
    int r = 0;
    if (hs > s)
      r = map_cyclic(base ? base + s : NULL, hs - s, efd, 2 * folding.gran, nmaps);
    if (!r && he > hs)
      r = map_cyclic(base ? base + hs : NULL, he - hs, fd, chunk, nmaps);
    if (!r && e > he)
      r = map_cyclic(base ? base + he : NULL, e - he, efd, 2 * folding.gran, nmaps);
    if (r)
      return r;
    prev = e;
  }
  return 0;
}

int smpi_shared_alloc(size_t size, const char *site, const size_t *offsets, int nblocks,
                      void **out, char *err, size_t errlen)
{
  *out = NULL;
  if (smpi_shared_init(err, errlen) != 0)
    return -1;
  bool partial = nblocks >= 0;
  size_t *spans = NULL, nspans = 0;
  if (partial && partial_spans(size, offsets, nblocks, &spans, &nspans, err, errlen) != 0)
    return -1;
  if (folding.mode == SHM_NONE) {
    free(spans);
    *out = malloc(size ? size : 1);
    if (!*out) {
      snprintf(err, errlen, "out of memory allocating %zu bytes (smpi/shared-malloc:no)", size);
      return -1;
    }
    return 0;
  }

  shm_alloc *a = xcalloc(1, sizeof *a);
  a->size = size;
  /* partial: private bytes at the granularity of ordinary pages (see layout) */
  a->len = round_up(size ? size : 1, partial ? folding.page : folding.gran);
  a->maplen = a->len;
  a->partial = partial;
  a->spans = spans;
  a->nspans = nspans;

  if (!partial && folding.mode == SHM_LOCAL) {
    if (alloc_local(a, site ? site : "?", err, errlen) != 0) {
      free(a);
      return -1;
    }
    record(a);
    *out = (void *)a->base;
    return 0;
  }

  /* the chunk: the block size, doubled until the allocation fits its share of the budget */
  size_t cap = alloc_cap(), chunk = folding.block, needed;
  layout(a, NULL, chunk, -1, -1, &needed);
  while (needed > cap && chunk < a->len) {
    chunk *= 2;
    layout(a, NULL, chunk, -1, -1, &needed);
  }
  if (chunk > folding.block && !folding.noted) {
    char x[32], y[32], z[32], w[32];
    folding.noted = true;
    LOG_INFO("folded allocations larger than %s map blocks larger than "
             "smpi/shared-malloc-blocksize (%s), so that each takes at most %zu of the %zu "
             "memory mappings folded memory should use over %d rank%s "
             "(smpi/shared-malloc-max-mappings; vm.max_map_count is %ld): this one of %s maps "
             "blocks of %s, which hold up to that much memory if the program writes them",
             fmt_size(cap * folding.block, x, sizeof x), fmt_size(folding.block, z, sizeof z),
             cap, map_budget(), smpi_w.np > 0 ? smpi_w.np : 1, smpi_w.np > 1 ? "s" : "",
             folding.max_map_count, fmt_size(size, w, sizeof w), fmt_size(chunk, y, sizeof y));
  }
  /* one mapping of (the start of) the block, which SMPI_SHARED_FREE will keep: with small
   * pages, at least SHM_KEEP_SPAN of it (huge pages map len, their granularity) */
  bool single = !partial && needed == 1;
  if (single && folding.gran == folding.page && a->len < SHM_KEEP_SPAN)
    a->maplen = folding.block < SHM_KEEP_SPAN ? folding.block : SHM_KEEP_SPAN;
  if (single) {
    uintptr_t kept = keep_get(a->maplen);
    if (kept) {
      a->base = kept;
      a->nmaps = 1;
      record(a);
      *out = (void *)kept;
      return 0;
    }
  }
  if (nkept && needed + folding.nmaps + nkept >
                   (size_t)(folding.max_map_count > 0 ? folding.max_map_count : 0))
    keep_flush();
  size_t room = folding.max_map_count > 0 && (size_t)folding.max_map_count > folding.nmaps
                    ? (size_t)folding.max_map_count - folding.nmaps
                    : 0;
  if (needed > room) {
    char x[32], y[32], z[200];
    /* enough for the same allocation on every rank, and the rest of the process */
    size_t np = smpi_w.np > 0 ? (size_t)smpi_w.np : 1;
    size_t want = folding.nmaps + needed > needed * np ? folding.nmaps + needed : needed * np;
    want = round_up(want * 2 + 4096, 4096);
    snprintf(err, errlen,
             "SMPI_SHARED_MALLOC of %s needs %zu mapping%s of %s (and %zu are used by folded "
             "memory already); vm.max_map_count is %ld: raise it (sysctl -w "
             "vm.max_map_count=%zu)%s",
             fmt_size(size, x, sizeof x), needed, needed == 1 ? "" : "s",
             fmt_size(chunk, y, sizeof y), folding.nmaps, folding.max_map_count, want,
             blocks_advice(size, z, sizeof z));
    free(spans);
    free(a);
    return -1;
  }

  int fd = -1, efd = -1;
  if (!partial || nspans > 0) {
    fd = global_block(chunk, err, errlen);
    if (fd < 0 ||
        (partial && folding.gran > folding.page && (efd = edge_block(err, errlen)) < 0)) {
      free(spans);
      free(a);
      return -1;
    }
  }
  /* address space first (not charged as memory), then the chunks and the private pieces
   * over it: a huge, mostly folded partial allocation must not be refused for its size */
  char *base;
  bool first_mapped = !partial && folding.gran == folding.page;
  if (first_mapped) {
    /* one call maps the first chunk and takes the address space of the others (past the
     * chunk's end until they are mapped over it below) */
    base = mmap(NULL, a->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
      base = NULL;
  } else {
    base = reserve(a->len, PROT_NONE, MAP_NORESERVE);
  }
  if (!base) {
    mapping_error(errno, size, needed, chunk, err, errlen);
    free(spans);
    free(a);
    return -1;
  }
  int e = 0;
  size_t done = 0;
  if (first_mapped) {
    done = 1;
    if (a->len > chunk)
      e = map_cyclic(base + chunk, a->len - chunk, fd, chunk, &done);
  } else {
    e = layout(a, base, chunk, fd, efd, &done);
  }
  if (e) {
    munmap(base, a->maplen);
    mapping_error(e, size, needed, chunk, err, errlen);
    free(spans);
    free(a);
    return -1;
  }
  ASSERTF(done == needed, "folded allocation mapped %zu times, %zu counted", done, needed);
  a->base = (uintptr_t)base;
  a->nmaps = needed;
  record(a);
  *out = base;
  return 0;
}

/* ---- public entry points ---- */

static void *shared_malloc(size_t size, const char *file, int line)
{
  char err[1024], site[512];
  void *p;
  /* the call site names the buffer of :local; formatting it for every allocation of the
   * other modes was 1.5 % of a 4 096-rank Bcast */
  bool local = smpi_shared_init(err, sizeof err) == 0 && folding.mode == SHM_LOCAL;
  if (local)
    snprintf(site, sizeof site, "%s:%d", file ? file : "?", line);
  if (smpi_shared_alloc(size, local ? site : NULL, NULL, -1, &p, err, sizeof err) != 0) {
    snprintf(site, sizeof site, "%s:%d", file ? file : "?", line);
    LOG_ERROR("SMPI_SHARED_MALLOC(%zu) at %s: %s", size, site, err);
  } else if (folding.mode != SHM_NONE) {
    /* the call site, for a report of a double free (the lookup is the one a free costs) */
    shm_alloc *a = alloc_containing((uintptr_t)p);
    if (a) {
      a->file = file;
      a->line = line;
    }
  }
  return p;
}

static void *shared_malloc_partial(size_t size, const size_t *shared_block_offsets,
                                   int nb_shared_blocks)
{
  char err[1024];
  void *p;
  if (nb_shared_blocks < 0) {
    LOG_ERROR("SMPI_PARTIAL_SHARED_MALLOC(%zu, offsets, %d): the number of shared blocks is "
              "negative",
              size, nb_shared_blocks);
    return NULL;
  }
  if (smpi_shared_alloc(size, NULL, shared_block_offsets, nb_shared_blocks, &p, err,
                        sizeof err) != 0)
    LOG_ERROR("%s", err);
  return p;
}

/* ptr is not a live folded block: if it is one freed lately, this is its second
 * SMPI_SHARED_FREE (free() would abort or crash on it without a word): say so and end the
 * job. (Plain malloc never returns a page-aligned address that a folded block had, so a
 * match cannot be a malloc'ed block passed to SMPI_SHARED_FREE.) */
static void double_free_check(const void *ptr)
{
  size_t n = folding.nfreed < SHM_FREED_MAX ? folding.nfreed : SHM_FREED_MAX;
  for (size_t k = 1; k <= n; k++) {
    const shm_freed *f = &folding.freed[(folding.nfreed - k) % SHM_FREED_MAX];
    if (f->base != (uintptr_t)ptr)
      continue;
    smpi_rank *me = smpi_self();
    char who[32] = "", by[32] = "", at[512] = "";
    if (me)
      snprintf(who, sizeof who, "rank %d: ", me->rank);
    if (f->rank >= 0)
      snprintf(by, sizeof by, " by rank %d", f->rank);
    if (f->file)
      snprintf(at, sizeof at, ", allocated at %s:%d", f->file, f->line);
    fprintf(stderr,
            "smpi: %sdouble free: SMPI_SHARED_FREE(%p) of a block already freed%s (%zu "
            "bytes%s)\n",
            who, ptr, by, f->size, at);
    smpi_abort_job(1);
  }
}

static void shared_free(void *ptr)
{
  if (!ptr)
    return;
  shm_alloc *a = folding.root ? alloc_containing((uintptr_t)ptr) : NULL;
  if (!a) {
    double_free_check(ptr);
    /* smpi/shared-malloc:no, or memory that never was folded: as SimGrid does, free() it */
    free(ptr);
    return;
  }
  if (a->base != (uintptr_t)ptr) {
    LOG_ERROR("SMPI_SHARED_FREE(%p): not the start of a shared allocation (it lies %zu bytes "
              "into the one at %p); nothing freed",
              ptr, (size_t)((uintptr_t)ptr - a->base), (void *)a->base);
    return;
  }
  if (a->site || a->partial || a->nmaps != 1 || !keep_put(a->base, a->maplen))
    munmap(ptr, a->maplen);
  smpi_rank *me = smpi_self();
  folding.freed[folding.nfreed++ % SHM_FREED_MAX] = (shm_freed){.base = a->base,
                                                                .size = a->size,
                                                                .file = a->file,
                                                                .line = a->line,
                                                                .rank = me ? me->rank : -1};
  recent_forget();
  folding.root = tree_remove(folding.root, a->base);
  folding.nallocs--;
  folding.nmaps -= a->nmaps;
  folding.vbytes -= a->len;
  if (a->site && --a->site->refs == 0) {
    strmap_remove(folding.sites, a->site->key, NULL);
    close(a->site->fd);
    free(a->site->key);
    free(a->site);
  }
  free(a->spans);
  free(a);
}

/* The public entry points are simulator work, like an MPI call: bracketing them keeps their
 * mmap/munmap (~5 us each, where a real malloc costs ~0.1 us) out of the rank's measured CPU
 * burst, and keeps the bursts around them short, so they need no CPU clock read. */
SMPI_PUBLIC void *smpi_shared_malloc(size_t size, const char *file, int line)
{
  smpi_enter_call();
  void *p = shared_malloc(size, file, line);
  smpi_leave_call();
  return p;
}

SMPI_PUBLIC void *smpi_shared_malloc_partial(size_t size, const size_t *shared_block_offsets,
                                             int nb_shared_blocks)
{
  smpi_enter_call();
  void *p = shared_malloc_partial(size, shared_block_offsets, nb_shared_blocks);
  smpi_leave_call();
  return p;
}

SMPI_PUBLIC void smpi_shared_free(void *ptr)
{
  smpi_enter_call();
  shared_free(ptr);
  smpi_leave_call();
}

/* ---- what the message layer asks ---- */

bool smpi_shared_touches(const void *buf, size_t len)
{
  if (!folding.root || len == 0)
    return false;
  uintptr_t b = (uintptr_t)buf, next;
  if (locate(b, &next))
    return true;
  return next - b < len;
}

void *smpi_shared_scratch(size_t bytes)
{
  if (bytes <= folding.scratch_size && folding.nscratch)
    return folding.scratch[folding.nscratch - 1];
  char err[1024];
  if (smpi_shared_init(err, sizeof err) != 0 || folding.mode == SHM_NONE)
    return NULL;
  /* grow geometrically; the smaller regions stay mapped, since a rank suspended in the middle
   * of a collective may still hold a pointer into one (at most twice the largest in all) */
  size_t size = bytes > 2 * folding.scratch_size ? bytes : 2 * folding.scratch_size;
  if (size < folding.block)
    size = folding.block;
  void *p;
  if (smpi_shared_alloc(size, "smpi:collective-scratch", NULL, -1, &p, err, sizeof err) != 0) {
    LOG_VERB("no folded scratch of %zu bytes (%s): collectives use private memory", size, err);
    return NULL;
  }
  XGROW(folding.scratch, folding.capscratch, folding.nscratch + 1);
  folding.scratch[folding.nscratch++] = p;
  folding.scratch_size = size;
  return p;
}

/* Length of the run starting at addr (at most max bytes) whose bytes are all folded or all
 * private; *folded says which. */
static size_t run_at(uintptr_t addr, size_t max, bool *folded)
{
  uintptr_t next;
  shm_alloc *a = locate(addr, &next);
  size_t run;
  if (!a) {
    *folded = false;
    run = next - addr;
  } else {
    size_t o = addr - a->base;
    if (!a->partial) {
      *folded = true;
      run = a->len - o;
    } else {
      /* first span ending after o */
      size_t lo = 0, hi = a->nspans;
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->spans[2 * mid + 1] <= o)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < a->nspans && a->spans[2 * lo] <= o) {
        *folded = true;
        run = a->spans[2 * lo + 1] - o;
      } else {
        *folded = false;
        run = (lo < a->nspans ? a->spans[2 * lo] : a->len) - o;
      }
    }
  }
  return run < max ? run : max;
}

size_t smpi_shared_aware_copy(void *dst, const void *src, size_t len)
{
  if (!folding.root) {
    memcpy(dst, src, len);
    return len;
  }
  uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
  size_t moved = 0;
  for (size_t p = 0; p < len;) {
    bool fs, fd = false;
    size_t r = run_at(s + p, len - p, &fs);
    if (!fs) /* a folded source run is skipped whatever the destination is */
      r = run_at(d + p, r, &fd);
    if (!fs && !fd) {
      memcpy((char *)dst + p, (const char *)src + p, r);
      moved += r;
    }
    p += r;
  }
  return moved;
}

bool smpi_shared_all_folded(const void *buf, size_t len)
{
  if (!folding.root || len == 0)
    return false;
  uintptr_t b = (uintptr_t)buf;
  for (size_t p = 0; p < len;) {
    bool folded;
    p += run_at(b + p, len - p, &folded);
    if (!folded)
      return false;
  }
  return true;
}

size_t smpi_shared_private_ranges(const void *buf, size_t len, smpi_byte_range *out, size_t max)
{
  uintptr_t b = (uintptr_t)buf;
  size_t n = 0, last_end = SIZE_MAX;
  for (size_t p = 0; p < len;) {
    bool folded = false;
    size_t r = folding.root ? run_at(b + p, len - p, &folded) : len - p;
    if (!folded) {
      if (last_end == p) {
        if (n <= max)
          out[n - 1].len += r;
      } else {
        if (n < max)
          out[n] = (smpi_byte_range){p, r};
        n++;
      }
      last_end = p + r;
    }
    p += r;
  }
  return n;
}

void smpi_shared_set_max_map_count(long n)
{
  char err[256];
  if (smpi_shared_init(err, sizeof err) == 0)
    folding.max_map_count = n > 0 ? n : read_max_map_count();
}

void smpi_shared_test_granularity(size_t g)
{
  smpi_shared_reset();
  folding.forced_gran = g;
}

void smpi_shared_get_stats(smpi_shared_stats *out)
{
  memset(out, 0, sizeof *out);
  out->allocations = folding.nallocs;
  out->mappings = folding.nmaps;
  out->virtual_bytes = folding.vbytes;
  out->block_size = folding.block;
  struct stat st;
  if (folding.block_fd >= 0 && fstat(folding.block_fd, &st) == 0)
    out->physical_bytes += (size_t)st.st_blocks * 512;
  if (folding.edge_fd >= 0 && fstat(folding.edge_fd, &st) == 0)
    out->physical_bytes += (size_t)st.st_blocks * 512;
  out->largest_block = folding.block_len;
  const char *key;
  void *val;
  for (size_t it = 0; folding.sites && strmap_next(folding.sites, &it, &key, &val);) {
    shm_site *site = val;
    if (fstat(site->fd, &st) == 0)
      out->physical_bytes += (size_t)st.st_blocks * 512;
  }
}

/* ---- SMPI_SHARED_CALL: results of pure functions, computed once for all ranks ---- */

static char *call_key(const char *func, const char *input)
{
  return xasprintf("%s\x1f%s", func ? func : "", input ? input : "");
}

SMPI_PUBLIC int smpi_shared_known_call(const char *func, const char *input)
{
  if (!folding.calls)
    return 0;
  char *k = call_key(func, input);
  bool known = strmap_find(folding.calls, k, NULL);
  free(k);
  return known;
}

SMPI_PUBLIC void *smpi_shared_get_call(const char *func, const char *input)
{
  void *v = NULL;
  char *k = call_key(func, input);
  if (!folding.calls || !strmap_find(folding.calls, k, &v))
    LOG_ERROR("smpi_shared_get_call(\"%s\", \"%s\"): no result was recorded for this call "
              "(use SMPI_SHARED_CALL, which records it)",
              func ? func : "", input ? input : "");
  free(k);
  return v;
}

SMPI_PUBLIC void *smpi_shared_set_call(const char *func, const char *input, void *data)
{
  if (!folding.calls)
    folding.calls = strmap_new();
  char *k = call_key(func, input);
  strmap_set(folding.calls, k, data);
  free(k);
  return data;
}
