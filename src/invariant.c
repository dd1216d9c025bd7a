#include "src/invariant.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void inv_fail(const char *file, int line, const char *func, const char *cond, const char *fmt,
              ...)
{
  fprintf(stderr, "smpi: internal error at %s:%d in %s()", file, line, func);
  if (cond)
    fprintf(stderr, ": assertion '%s' failed", cond);
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    fputs(": ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
  }
  fputs("\nThis is a bug in smpi, not in your program; please report it with the command line.\n",
        stderr);
  fflush(stderr);
  abort();
}
