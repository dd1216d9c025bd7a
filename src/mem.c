#include "src/mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void oom(size_t size) __attribute__((noreturn, cold));
static void oom(size_t size)
{
  fprintf(stderr, "smpi: out of memory (allocating %zu bytes); the simulation cannot go on\n",
          size);
  abort();
}

void *xmalloc(size_t size)
{
  void *p = malloc(size ? size : 1);
  if (!p)
    oom(size);
  return p;
}

void *xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    oom(n * size);
  return p;
}

/* the bytes of a lazy table (0: n * size overflows) */
static size_t lazy_bytes(size_t n, size_t size)
{
  if (n == 0 || size == 0)
    return 64;
  if (n > SIZE_MAX / size)
    return 0;
  return n * size;
}

void *xcalloc_lazy(size_t n, size_t size)
{
  size_t bytes = lazy_bytes(n, size);
  if (bytes == 0 || bytes > SIZE_MAX - 64)
    oom(SIZE_MAX);
  if (bytes < XCALLOC_LAZY_MIN) {
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p)
      oom(bytes);
    return memset(p, 0, bytes);
  }
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    oom(bytes);
#ifdef MADV_NOHUGEPAGE
  (void)madvise(p, bytes, MADV_NOHUGEPAGE); /* advice only: a failure costs memory, not bits */
#endif
  return p;
}

void xfree_lazy(void *p, size_t n, size_t size)
{
  if (!p)
    return;
  size_t bytes = lazy_bytes(n, size);
  if (bytes < XCALLOC_LAZY_MIN)
    free(p);
  else
    munmap(p, bytes);
}

void *xrealloc(void *ptr, size_t size)
{
  void *p = realloc(ptr, size ? size : 1);
  if (!p)
    oom(size);
  return p;
}

char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

char *xstrndup(const char *s, size_t max)
{
  size_t n = strnlen(s, max);
  char *d = memcpy(xmalloc(n + 1), s, n);
  d[n] = 0;
  return d;
}

char *xasprintf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0)
    oom(0);
  return s;
}

void xgrow(void **array, size_t *cap, size_t need, size_t elt)
{
  if (need <= *cap)
    return;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need)
    ncap *= 2;
  *array = xrealloc(*array, ncap * elt);
  *cap = ncap;
}

void xgrow_tight(void **array, size_t *cap, size_t need, size_t elt)
{
  if (need <= *cap)
    return;
  size_t ncap = need + need / 8;
  if (ncap < 8)
    ncap = 8;
  /* free then allocate: no copy of what the pass overwrites, and the old and the new array
   * are never both held (at 10^7 flows, 200 MB each) */
  free(*array);
  *array = xmalloc(ncap * elt);
  *cap = ncap;
}
