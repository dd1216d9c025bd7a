/* Piecewise factors and overheads; see factors.h for the syntax and the lookup rule. */
#include "kernel/factors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mem.h"

typedef enum { KIND_FACTOR, KIND_OVERHEAD } func_kind;

static const char *const usage[] = {
    [KIND_FACTOR] = "threshold:value (e.g. 65472:0.940694)",
    [KIND_OVERHEAD] = "threshold:start:per_byte (e.g. 1024:2e-6:5e-10)",
};

static char *trim(char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    s[--n] = '\0';
  return s;
}

/* One field as a finite double; returns 0 or -1 with the reason in why. */
static int parse_number(const char *text, double *out, const char **why)
{
  if (!*text) {
    *why = "is empty";
    return -1;
  }
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end) {
    *why = "is not a number";
    return -1;
  }
  if (!isfinite(v) || errno == ERANGE) {
    *why = "is not a finite number";
    return -1;
  }
  *out = v;
  return 0;
}

typedef struct parsed {
  fac_section s;
  size_t index; /* 1-based section number in the text, for duplicate messages */
} parsed;

static int cmp_parsed(const void *pa, const void *pb)
{
  const parsed *a = pa, *b = pb;
  if (a->s.threshold != b->s.threshold)
    return a->s.threshold < b->s.threshold ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static int parse_func(const char *key, const char *spec, func_kind kind, fac_domain domain,
                      fac_func *out, char *err, size_t errlen)
{
  out->sec = NULL;
  out->count = 0;
  if (!spec || !*spec || strspn(spec, " \t") == strlen(spec)) {
    snprintf(err, errlen, "%s: empty value, expected %s, sections separated by ';'", key,
             usage[kind]);
    return -1;
  }
  char *copy = xstrdup(spec);
  parsed *items = NULL;
  size_t n = 0, cap = 0;
  int rc = -1;
  char *cursor = copy;
  for (size_t index = 1;; index++) {
    char *semi = strchr(cursor, ';');
    if (semi)
      *semi = '\0';
    char *text = trim(cursor);
    if (!*text) {
      snprintf(err, errlen, "%s: section %zu is empty (stray ';' in \"%s\"?)", key, index, spec);
      goto out;
    }
    /* keep the section's text for the messages before ':' are cut */
    char shown[96];
    snprintf(shown, sizeof shown, "%s", text);

    double f[3] = {0, 0, 0};
    size_t nf = 0;
    const size_t want = kind == KIND_FACTOR ? 2 : 3;
    char *field = text;
    for (;;) {
      char *colon = strchr(field, ':');
      if (colon)
        *colon = '\0';
      double v;
      const char *why;
      if (parse_number(trim(field), &v, &why) != 0) {
        static const char *const names[2][3] = {{"threshold", "value", "field"},
                                                {"threshold", "start", "per_byte"}};
        const char *name = nf < 3 ? names[kind][nf] : "field";
        if (nf >= want)
          name = "extra field";
        snprintf(err, errlen, "%s: section %zu \"%s\": %s \"%s\" %s; expected %s", key, index,
                 shown, name, trim(field), why, usage[kind]);
        goto out;
      }
      if (nf < 3)
        f[nf] = v;
      nf++;
      if (!colon)
        break;
      field = colon + 1;
    }
    /* SimGrid spells its default smpi/os "0:0:0:0:0": extra numeric fields of an overhead
     * are tolerated and ignored; a factor takes exactly two. */
    if (nf < want || (kind == KIND_FACTOR && nf > want)) {
      snprintf(err, errlen, "%s: section %zu \"%s\" has %zu field%s, expected %s", key, index,
               shown, nf, nf == 1 ? "" : "s", usage[kind]);
      goto out;
    }
    if (f[0] < 0) {
      snprintf(err, errlen, "%s: section %zu \"%s\": threshold %g is negative (a message size)",
               key, index, shown, f[0]);
      goto out;
    }
    if (kind == KIND_FACTOR) {
      if (domain == FAC_POSITIVE && f[1] <= 0) {
        snprintf(err, errlen, "%s: section %zu \"%s\": value %g must be > 0", key, index, shown,
                 f[1]);
        goto out;
      }
      if (domain == FAC_NONNEGATIVE && f[1] < 0) {
        snprintf(err, errlen, "%s: section %zu \"%s\": value %g must be >= 0", key, index, shown,
                 f[1]);
        goto out;
      }
    } else {
      if (f[1] < 0 || f[2] < 0) {
        snprintf(err, errlen, "%s: section %zu \"%s\": %s %g must be >= 0 (seconds)", key, index,
                 shown, f[1] < 0 ? "start" : "per_byte", f[1] < 0 ? f[1] : f[2]);
        goto out;
      }
    }
    XGROW(items, cap, n + 1);
    items[n].s.threshold = f[0];
    items[n].s.a = f[1];
    items[n].s.b = kind == KIND_OVERHEAD ? f[2] : 0.0;
    items[n].index = index;
    n++;
    if (!semi)
      break;
    cursor = semi + 1;
  }

  qsort(items, n, sizeof *items, cmp_parsed);
  for (size_t i = 1; i < n; i++) {
    if (items[i].s.threshold == items[i - 1].s.threshold) {
      snprintf(err, errlen, "%s: threshold %g appears in sections %zu and %zu", key,
               items[i].s.threshold, items[i - 1].index, items[i].index);
      goto out;
    }
  }
  out->sec = xmalloc(n * sizeof *out->sec);
  for (size_t i = 0; i < n; i++)
    out->sec[i] = items[i].s;
  out->count = n;
  rc = 0;
out:
  free(items);
  free(copy);
  return rc;
}

int fac_parse_factor(const char *key, const char *spec, fac_domain domain, fac_func *out,
                     char *err, size_t errlen)
{
  return parse_func(key, spec, KIND_FACTOR, domain, out, err, errlen);
}

int fac_parse_overhead(const char *key, const char *spec, fac_func *out, char *err, size_t errlen)
{
  return parse_func(key, spec, KIND_OVERHEAD, FAC_NONNEGATIVE, out, err, errlen);
}

void fac_free(fac_func *f)
{
  free(f->sec);
  f->sec = NULL;
  f->count = 0;
}

/* Index of the section with the largest threshold strictly below size, or -1. */
static long lookup(const fac_func *f, double size)
{
  size_t lo = 0, hi = f->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->sec[mid].threshold < size)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (long)lo - 1;
}

double fac_factor(const fac_func *f, double size)
{
  long i = lookup(f, size);
  return i < 0 ? 1.0 : f->sec[i].a;
}

double fac_overhead(const fac_func *f, double size)
{
  if (f->count == 0)
    return 0.0;
  long i = lookup(f, size);
  const fac_section *s = &f->sec[i < 0 ? 0 : i];
  return s->a + s->b * size;
}
