/* Allocation wrappers: out of memory is fatal (tier 3), so callers never test for NULL. */
#ifndef SMPI_SRC_MEM_H
#define SMPI_SRC_MEM_H

#include <stddef.h>

void *xmalloc(size_t size) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *xrealloc(void *ptr, size_t size) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
/* at most max bytes of s, always terminated (object names cut to MPI_MAX_OBJECT_NAME - 1) */
char *xstrndup(const char *s, size_t max) __attribute__((malloc, returns_nonnull));
/* printf into a fresh buffer */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2), returns_nonnull));

/* Grow *array (element size elt) so that it holds at least need elements; *cap is updated. */
void xgrow(void **array, size_t *cap, size_t need, size_t elt);
/* The capacity test is inline: hot paths (the solver's scratch arrays, the engine's lists)
 * call this hundreds of thousands of times per run and almost never grow. */
#define XGROW(arr, cap, need)                                \
  do {                                                       \
    if ((size_t)(need) > (cap))                              \
      xgrow((void **)&(arr), &(cap), (need), sizeof *(arr)); \
  } while (0)

#endif
