/* Allocation wrappers: out of memory is fatal (tier 3), so callers never test for NULL. */
#ifndef SMPI_SRC_MEM_H
#define SMPI_SRC_MEM_H

#include <stddef.h>
#include <string.h>

void *xmalloc(size_t size) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *xrealloc(void *ptr, size_t size) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
/* at most max bytes of s, always terminated (object names cut to MPI_MAX_OBJECT_NAME - 1) */
char *xstrndup(const char *s, size_t max) __attribute__((malloc, returns_nonnull));
/* printf into a fresh buffer */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2), returns_nonnull));

/* Big zeroed tables, faulted in lazily: n * size zero bytes aligned on 64 (a cache line),
 * of which only the pages touched ever cost anything. For tables sized by the platform
 * (hosts, links) of which a run uses a few entries. calloc does not give that here:
 * smpi_main's heap policy (M_TOP_PAD, a raised M_MMAP_THRESHOLD: smpi/launch/launch.c)
 * serves blocks of megabytes from the heap's top, and calloc then clears them with memset,
 * faulting every page in (the route cache of a 4 096-host platform: 6.3 MiB, 1 540 page
 * faults, a sixth of a 16-rank run's CPU). From XCALLOC_LAZY_MIN bytes on, the table is a
 * private anonymous mapping of its own (zero pages until written, no transparent huge
 * pages, which would clear 2 MiB at the first touch); below, an aligned heap block. Free it
 * with xfree_lazy and the same n and size. */
#define XCALLOC_LAZY_MIN ((size_t)64 * 1024)
void *xcalloc_lazy(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void xfree_lazy(void *p, size_t n, size_t size);

/* Zeroes n bytes through the C library's memset. For a constant n of a few hundred bytes,
 * GCC inlines `rep stos`, whose start-up costs more here than the stores (the requests,
 * messages, actions and variables recycled and cleared at every message: 6 per message,
 * 23 % of act_action_new's samples); the library's memset does it in a few vector stores.
 * The empty asm hides n from the compiler so that the call stays a call. */
static inline void mem_zero(void *p, size_t n)
{
  __asm__("" : "+r"(n));
  memset(p, 0, n);
}

/* Grow *array (element size elt) so that it holds at least need elements; *cap is updated. */
void xgrow(void **array, size_t *cap, size_t need, size_t elt);
/* The capacity test is inline: hot paths (the solver's scratch arrays, the engine's lists)
 * call this hundreds of thousands of times per run and almost never grow. */
#define XGROW(arr, cap, need)                                \
  do {                                                       \
    if ((size_t)(need) > (cap))                              \
      xgrow((void **)&(arr), &(cap), (need), sizeof *(arr)); \
  } while (0)

/* For an array that a pass sizes at once for all it will hold (the solver's per-pass scratch,
 * 16 bytes per element of 10^7 flows): room for need and an eighth more, not the next power
 * of two, whose slack of up to 2x was a quarter of the kernel's bytes per flow (issue 27).
 * The contents are not kept: the pass rewrites them. */
void xgrow_tight(void **array, size_t *cap, size_t need, size_t elt);
#define XGROW_TIGHT(arr, cap, need)                                \
  do {                                                             \
    if ((size_t)(need) > (cap))                                    \
      xgrow_tight((void **)&(arr), &(cap), (need), sizeof *(arr)); \
  } while (0)

#endif
