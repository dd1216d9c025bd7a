#include "src/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
