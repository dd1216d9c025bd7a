/* Availability profiles: the text format of plat_profile.h, read into (date, value) lists. */
#include "src/plat_profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mem.h"

/* Large enough for any profile a person writes or a tool generates (64 MiB). */
#define PROFILE_MAX_BYTES (64L << 20)

static int bad(char *err, size_t errlen, const char *name, int line, const char *what,
               const char *s, size_t n)
{
  snprintf(err, errlen, "%s:%d: %s: '%.*s' (expected 'DATE VALUE' or 'LOOPAFTER SECONDS')", name,
           line, what, (int)(n > 60 ? 60 : n), s);
  return -1;
}

/* One number from s[0..n), the whole of it. */
static int number(const char *s, size_t n, double *out)
{
  char buf[64];
  if (n == 0 || n >= sizeof buf)
    return -1;
  memcpy(buf, s, n);
  buf[n] = 0;
  char *end;
  errno = 0;
  *out = strtod(buf, &end);
  return *end || errno || !isfinite(*out) ? -1 : 0;
}

int plat_profile_parse(const char *text, size_t len, const char *name, plat_profile *out,
                       char *err, size_t errlen)
{
  *out = (plat_profile){0};
  size_t cap = 0;
  double loop = -1;
  int lineno = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    lineno++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    const char *s = p, *e = eol;
    p = eol < end ? eol + 1 : end;
    for (const char *c = s; c < e; c++)
      if (*c == '#' || *c == '%') {
        e = c;
        break;
      }
    /* two whitespace-separated words */
    const char *w[3];
    size_t wl[3], nw = 0;
    for (const char *c = s; c < e && nw < 3;) {
      while (c < e && strchr(" \t\r\v\f", *c))
        c++;
      if (c == e)
        break;
      const char *b = c;
      while (c < e && !strchr(" \t\r\v\f", *c))
        c++;
      w[nw] = b;
      wl[nw++] = (size_t)(c - b);
    }
    if (nw == 0)
      continue;
    if (nw != 2) {
      plat_profile_free(out);
      return bad(err, errlen, name, lineno, "not two words", s, (size_t)(e - s));
    }
    if ((wl[0] == 9 && !strncmp(w[0], "LOOPAFTER", 9)) ||
        (wl[0] == 11 && !strncmp(w[0], "PERIODICITY", 11))) {
      if (number(w[1], wl[1], &loop) != 0 || loop < 0) {
        plat_profile_free(out);
        return bad(err, errlen, name, lineno, "bad delay", s, (size_t)(e - s));
      }
      continue;
    }
    double d, v;
    if (number(w[0], wl[0], &d) != 0 || d < 0) {
      plat_profile_free(out);
      return bad(err, errlen, name, lineno, "bad date", s, (size_t)(e - s));
    }
    if (number(w[1], wl[1], &v) != 0) {
      plat_profile_free(out);
      return bad(err, errlen, name, lineno, "bad value", s, (size_t)(e - s));
    }
    if (out->n > 0 && d < out->date[out->n - 1]) {
      plat_profile_free(out);
      return bad(err, errlen, name, lineno, "date before the previous one", s, (size_t)(e - s));
    }
    if (out->n == cap) {
      cap = cap ? 2 * cap : 16;
      out->date = xrealloc(out->date, cap * sizeof *out->date);
      out->value = xrealloc(out->value, cap * sizeof *out->value);
    }
    out->date[out->n] = d;
    out->value[out->n++] = v;
  }
  if (loop >= 0 && out->n > 0) {
    out->period = out->date[out->n - 1] + loop;
    if (!(out->period > 0)) {
      plat_profile_free(out);
      snprintf(err, errlen,
               "%s: a looping profile needs a period above 0 (last date + LOOPAFTER)", name);
      return -1;
    }
  }
  out->name = xstrdup(name);
  return 0;
}

int plat_profile_read(const char *path, plat_profile *out, char *err, size_t errlen)
{
  *out = (plat_profile){0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open profile '%s': %s", path, strerror(errno));
    return -1;
  }
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? 2 * cap : 4096;
      buf = xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
    if (n > PROFILE_MAX_BYTES) {
      snprintf(err, errlen, "profile '%s' is larger than %ld MiB", path, PROFILE_MAX_BYTES >> 20);
      free(buf);
      fclose(f);
      return -1;
    }
  }
  int rerr = ferror(f);
  fclose(f);
  if (rerr) {
    snprintf(err, errlen, "cannot read profile '%s' (is it a directory?)", path);
    free(buf);
    return -1;
  }
  int rc = plat_profile_parse(buf, n, path, out, err, errlen);
  free(buf);
  return rc;
}

void plat_profile_free(plat_profile *p)
{
  if (!p)
    return;
  free(p->name);
  free(p->date);
  free(p->value);
  *p = (plat_profile){0};
}
