/* Folding the program's plain allocations (smpi/auto-shared-malloc-thresh) and finding the
 * large ones (smpi/display-allocs), with no change to the program's source.
 *
 * libsmpi.so defines malloc, calloc, realloc and free, and is loaded before libc, so every
 * call of the process lands here first; all but the program's own go straight to libc's
 * (__libc_malloc & co.: no dlsym, which itself allocates).
 *
 *   malloc(n) --- off, or not the program's call ---------------------> __libc_malloc(n)
 *       |  the program's call: a rank's own actor, on the simulator's thread, outside any
 *       |  MPI call, called from neither libc (qsort's scratch must stay real) nor libsmpi
 *       +-- n >= thresh ---> smpi_shared_malloc(n): folded, page-aligned, in the treap
 *       +-- smaller -------> __libc_malloc(n)        (both accounted by call site if asked)
 *
 *   free(p): p page-aligned, on the simulator's thread, a live folded block (treap lookup,
 *   O(1) when nothing is folded) -> smpi_shared_free(p); anything else -> __libc_free(p).
 *   glibc's malloc never returns a page-aligned block from malloc/calloc/realloc small enough
 *   to matter, and memalign'd ones are simply not found in the treap.
 *
 * With both keys off (the default) the only cost is a load and a branch per call, and no
 * simulated time changes. Not compiled under a sanitizer, whose runtime owns malloc. */
#include "smpi/emulation/auto_malloc.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/engine.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/runtime/world.h"
#include "smpi/smpi.h"
#include "src/cfg.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define AUTO_MALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AUTO_MALLOC_SANITIZED 1
#endif

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

/* One call site of the program (the return address of its malloc call). */
typedef struct alloc_site {
  uintptr_t ret; /* 0: empty slot */
  size_t calls, largest, total;
} alloc_site;

#define SITES_MAX 4096 /* open addressing, a power of two; sites beyond it are not listed */

static struct auto_malloc_state {
  bool active;   /* either key is on: the program's calls take the slow path */
  size_t thresh; /* 0: nothing folded */
  bool display;
  size_t page;
  const void *libc_base, *smpi_base; /* callers never folded nor accounted */
  alloc_site *sites;                 /* mmap'ed: accounting must not allocate */
  size_t nsites, calls, bytes, folded, folded_bytes;
} automalloc;

void smpi_auto_malloc_init(void)
{
  automalloc.thresh = (size_t)cfg_get_int("smpi/auto-shared-malloc-thresh");
  automalloc.display = cfg_get_bool("smpi/display-allocs");
  automalloc.page = (size_t)sysconf(_SC_PAGESIZE);
  /* only the slow path asks whose call it is; dladdr scans libc's symbol table (~20 us of
   * every run's start-up when asked twice, for nothing with both keys off) */
  Dl_info info;
  if ((automalloc.thresh > 0 || automalloc.display) && !automalloc.libc_base) {
    if (dladdr((void *)&__libc_malloc, &info))
      automalloc.libc_base = info.dli_fbase;
    if (dladdr((void *)&smpi_auto_malloc_init, &info))
      automalloc.smpi_base = info.dli_fbase;
  }
  if (automalloc.display && !automalloc.sites) {
    void *m = mmap(NULL, SITES_MAX * sizeof(alloc_site), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    automalloc.sites = m == MAP_FAILED ? NULL : m;
  }
#ifndef AUTO_MALLOC_SANITIZED
  automalloc.active = automalloc.thresh > 0 || automalloc.display;
#endif
}

/* Whether this call is the program's own, made by a running rank (see the diagram). */
static bool program_call(const void *ret)
{
  if (smpi_w.thread != smpi_thread_self())
    return false;
  smpi_rank *me = smpi_self();
  if (!me || me->call_depth > 0 || eng_self() != me->actor)
    return false;
  Dl_info info;
  if (!dladdr(ret, &info))
    return true;
  return info.dli_fbase != automalloc.libc_base && info.dli_fbase != automalloc.smpi_base;
}

static void account(const void *ret, size_t size)
{
  automalloc.calls++;
  automalloc.bytes += size;
  if (!automalloc.sites)
    return;
  uintptr_t key = (uintptr_t)ret;
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (SITES_MAX - 1);
  for (size_t k = 0; k < SITES_MAX; k++, h = (h + 1) & (SITES_MAX - 1)) {
    alloc_site *s = &automalloc.sites[h];
    if (s->ret == 0) {
      if (automalloc.nsites >= SITES_MAX / 2)
        return; /* keep probes short; the report says sites were left out */
      s->ret = key;
      automalloc.nsites++;
    }
    if (s->ret == key) {
      s->calls++;
      s->total += size;
      if (size > s->largest)
        s->largest = size;
      return;
    }
  }
}

/* The program's allocation of size bytes from ret: folded or libc's. */
static void *program_alloc(size_t size, const void *ret, bool zero)
{
  if (automalloc.display)
    account(ret, size);
  if (automalloc.thresh && size >= automalloc.thresh) {
    /* SMPI_SHARED_MALLOC's path (its mmap kept out of the rank's burst); its content is
     * meaningless, so calloc's zeroes are not promised either */
    void *p = smpi_shared_malloc(size, NULL, 0);
    if (p) {
      automalloc.folded++;
      automalloc.folded_bytes += size;
      return p;
    }
  }
  return zero ? __libc_calloc(1, size) : __libc_malloc(size);
}

/* A live folded block at p, and its size. */
static bool folded_block(const void *p, size_t *size)
{
  return p && ((uintptr_t)p & (automalloc.page - 1)) == 0 &&
         smpi_w.thread == smpi_thread_self() && smpi_shared_block(p, size);
}

#ifndef AUTO_MALLOC_SANITIZED
SMPI_PUBLIC void *malloc(size_t size)
{
  const void *ret = __builtin_return_address(0);
  if (__builtin_expect(automalloc.active, 0) && program_call(ret))
    return program_alloc(size, ret, false);
  return __libc_malloc(size);
}

SMPI_PUBLIC void *calloc(size_t n, size_t size)
{
  const void *ret = __builtin_return_address(0);
  size_t total;
  if (__builtin_expect(automalloc.active, 0) && !__builtin_mul_overflow(n, size, &total) &&
      program_call(ret))
    return program_alloc(total, ret, true);
  return __libc_calloc(n, size);
}

SMPI_PUBLIC void free(void *p)
{
  size_t size;
  if (__builtin_expect(folded_block(p, &size), 0)) {
    smpi_shared_free(p);
    return;
  }
  __libc_free(p);
}

SMPI_PUBLIC void *realloc(void *p, size_t size)
{
  const void *ret = __builtin_return_address(0);
  size_t old;
  bool was_folded = folded_block(p, &old);
  bool mine = automalloc.active && program_call(ret);
  bool fold = mine && automalloc.thresh && size >= automalloc.thresh;
  if (!was_folded && !fold) {
    if (mine && automalloc.display)
      account(ret, size);
    return __libc_realloc(p, size);
  }
  if (size == 0 && p) {
    free(p);
    return NULL;
  }
  void *q = mine ? program_alloc(size, ret, false) : __libc_malloc(size);
  if (!q)
    return NULL;
  if (p) {
    if (!was_folded)
      old = malloc_usable_size(p);
    /* folded bytes on either side are not copied: they hold nothing */
    smpi_shared_aware_copy(q, p, old < size ? old : size);
    free(p);
  }
  return q;
}
#endif

/* "exe+0x1234 (main) at file.c:42": addr2line gives the line when the module has debug
 * information (smpicc -g). */
static void describe(uintptr_t ret, char *buf, size_t n)
{
  Dl_info info;
  if (!dladdr((void *)ret, &info) || !info.dli_fname) {
    snprintf(buf, n, "%#" PRIxPTR, ret);
    return;
  }
  uintptr_t off = ret - (uintptr_t)info.dli_fbase - 1; /* the call, not the next instruction */
  const char *mod = strrchr(info.dli_fname, '/');
  mod = mod ? mod + 1 : info.dli_fname;
  int k = snprintf(buf, n, "%s+%#" PRIxPTR, mod, off);
  if (info.dli_sname && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " (%s)", info.dli_sname);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "addr2line -e '%s' %#" PRIxPTR " 2>/dev/null",
           info.dli_fname[0] ? info.dli_fname : "/proc/self/exe", off);
  FILE *f = strchr(info.dli_fname, '\'') ? NULL : popen(cmd, "r");
  if (!f)
    return;
  char line[1024];
  if (fgets(line, sizeof line, f) && line[0] != '?' && k > 0 && (size_t)k < n) {
    line[strcspn(line, " \n")] = 0;
    snprintf(buf + k, n - (size_t)k, " at %s", line);
  }
  pclose(f);
}

static int by_largest(const void *a, const void *b)
{
  const alloc_site *x = a, *y = b;
  if (x->largest != y->largest)
    return x->largest < y->largest ? 1 : -1;
  return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

void smpi_auto_malloc_report(void)
{
  if (!automalloc.display || !automalloc.active)
    return;
  fflush(stdout);
  fprintf(stderr,
          "smpi: allocations: the program allocated %zu bytes in %zu malloc/calloc/realloc "
          "calls",
          automalloc.bytes, automalloc.calls);
  if (automalloc.thresh)
    fprintf(stderr, "; %zu of them (%zu bytes) folded (smpi/auto-shared-malloc-thresh:%zu)",
            automalloc.folded, automalloc.folded_bytes, automalloc.thresh);
  fprintf(stderr, "\n");
  if (!automalloc.sites || !automalloc.nsites)
    return;
  alloc_site *v = malloc(automalloc.nsites * sizeof *v);
  if (!v)
    return;
  size_t n = 0;
  for (size_t i = 0; i < SITES_MAX; i++)
    if (automalloc.sites[i].ret)
      v[n++] = automalloc.sites[i];
  qsort(v, n, sizeof *v, by_largest);
  size_t shown = n < 10 ? n : 10;
  fprintf(stderr, "smpi: largest allocations by call site (fold them with "
                  "--cfg=smpi/auto-shared-malloc-thresh:SIZE if their content does not "
                  "matter):\n");
  for (size_t i = 0; i < shown; i++) {
    char where[1600];
    describe(v[i].ret, where, sizeof where);
    fprintf(stderr, "smpi:   %zu bytes at once, %zu call%s, %zu bytes in all: %s\n", v[i].largest,
            v[i].calls, v[i].calls == 1 ? "" : "s", v[i].total, where);
  }
  if (automalloc.nsites >= SITES_MAX / 2)
    fprintf(stderr, "smpi:   (more than %d call sites: later ones not counted)\n", SITES_MAX / 2);
  free(v);
}
