/* SKaMPI .sko reader (format in skampi.h). One pass, line by line, with a tiny state machine:
 *
 *   outside --'# begin result "N"'--> inside(N) --'# end result "N"'--> outside
 *      |  '#...' / blank: ignored          |  data line: parsed, appended
 *      |  anything else: error             |  '#...' / blank: ignored; EOF: error
 *
 * Being strict matters more than being lenient here: a calibration fitted on a file from
 * which a malformed line was silently dropped is wrong without any sign of it. */
#include "calibration/skampi.h"

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

LOG_NEW_CATEGORY(skampi, "SKaMPI output reader (calibration)");
LOG_DEFAULT_CATEGORY(skampi);

#define MAX_TOKENS 64

typedef struct reader {
  skampi_set *set;
  const char *name;
  int line;
  char *err;
  size_t errlen;
} reader;

__attribute__((format(printf, 2, 3))) static int fail(reader *r, const char *fmt, ...)
{
  int n = snprintf(r->err, r->errlen, "%s:%d: ", r->name, r->line);
  if (n < 0 || (size_t)n >= r->errlen)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* A finite decimal number filling the whole token. */
static bool parse_double(const char *tok, double *out)
{
  char *end;
  errno = 0;
  double v = strtod(tok, &end);
  if (end == tok || *end != '\0' || errno == ERANGE || !isfinite(v))
    return false;
  /* strtod accepts hexadecimal and "inf"/"nan" spellings SKaMPI never writes */
  for (const char *p = tok; *p; p++)
    if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
          *p == 'E'))
      return false;
  *out = v;
  return true;
}

static bool parse_long(const char *tok, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (end == tok || *end != '\0' || errno == ERANGE)
    return false;
  *out = v;
  return true;
}

/* The step between two printable values of a number written like tok: "0.3" -> 0.1,
 * "12" -> 1, "1.25e+03" -> 10. The bootstrap uses it as rounding noise. */
static double print_resolution(const char *tok)
{
  const char *dot = strchr(tok, '.');
  const char *e = strpbrk(tok, "eE");
  int decimals = 0;
  if (dot) {
    const char *stop = e ? e : tok + strlen(tok);
    decimals = (int)(stop - dot - 1);
  }
  int exponent = e ? atoi(e + 1) : 0;
  return pow(10.0, exponent - decimals);
}

/* '# begin result "name"' / '# end result "name"' (kind is "begin" or "end"). Returns 1 and
 * a fresh copy of the name when the line is one, 0 when it is an ordinary comment, -1 (with
 * a message) when it starts like one but is malformed. */
static int parse_marker(reader *r, const char *line, const char *kind, char **name)
{
  const char *p = line + 1;
  while (*p == ' ' || *p == '\t')
    p++;
  size_t klen = strlen(kind);
  if (strncmp(p, kind, klen) != 0 || strncmp(p + klen, " result", 7) != 0)
    return 0;
  p += klen + 7;
  if (*p != ' ' && *p != '\t' && *p != '\0')
    return 0; /* "# begin results..." is some other comment */
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '"')
    return fail(r,
                "'# %s result' must be followed by a quoted measurement name, e.g. "
                "# %s result \"Pingpong_Send_Recv\"",
                kind, kind);
  const char *q = strchr(p + 1, '"');
  if (!q)
    return fail(r, "unterminated measurement name after '# %s result'", kind);
  if (q == p + 1)
    return fail(r, "empty measurement name after '# %s result'", kind);
  for (const char *t = q + 1; *t; t++)
    if (!isspace((unsigned char)*t))
      return fail(r, "unexpected text '%s' after '# %s result \"%.*s\"'", t, kind,
                  (int)(q - p - 1), p + 1);
  *name = xmalloc((size_t)(q - p));
  memcpy(*name, p + 1, (size_t)(q - p - 1));
  (*name)[q - p - 1] = '\0';
  return 1;
}

static const char *const field_what[4] = {
    "the message size in bytes (an integer)",
    "the time in microseconds",
    "the standard error in microseconds",
    "the number of repetitions (an integer)",
};

static int parse_data(reader *r, skampi_block *b, char *line)
{
  char *tok[MAX_TOKENS];
  size_t nt = 0;
  for (char *save = NULL, *t = strtok_r(line, " \t", &save); t;
       t = strtok_r(NULL, " \t", &save)) {
    if (nt == MAX_TOKENS)
      return fail(r, "more than %d fields on a data line", MAX_TOKENS);
    tok[nt++] = t;
  }
  /* loop-variable prefixes: "count= 16" (SKaMPI's spelling) or "count=16" */
  size_t i = 0;
  while (i < nt && strchr(tok[i], '=')) {
    char *eq = strchr(tok[i], '=');
    if (eq == tok[i])
      return fail(r, "'%s': a loop variable name is expected before '='", tok[i]);
    const char *val = eq[1] ? eq + 1 : (i + 1 < nt ? tok[i + 1] : NULL);
    double v;
    if (!val)
      return fail(r, "loop variable '%.*s=' has no value", (int)(eq - tok[i]), tok[i]);
    if (!parse_double(val, &v))
      return fail(r, "value '%s' of loop variable '%.*s' is not a number", val,
                  (int)(eq - tok[i]), tok[i]);
    i += eq[1] ? 1 : 2;
  }
  if (nt - i < 4) {
    if (nt - i == 0)
      return fail(r,
                  "a data line is expected inside result block \"%s\": size, time, "
                  "standard error, repetitions, per-process times",
                  b->name);
    return fail(r,
                "truncated data line: %zu of the 4 fields (size, time, standard error, "
                "repetitions) present",
                nt - i);
  }
  double size, time, se;
  long reps, isize;
  char **f = tok + i;
  if (!parse_long(f[0], &isize))
    return fail(r, "field '%s' is not %s", f[0], field_what[0]);
  if (!parse_double(f[1], &time))
    return fail(r, "field '%s' is not %s", f[1], field_what[1]);
  if (!parse_double(f[2], &se))
    return fail(r, "field '%s' is not %s", f[2], field_what[2]);
  if (!parse_long(f[3], &reps))
    return fail(r, "field '%s' is not %s", f[3], field_what[3]);
  if (isize < 0)
    return fail(r, "negative message size %ld", isize);
  if (time < 0)
    return fail(r, "negative time %s us", f[1]);
  if (se < 0)
    return fail(r, "negative standard error %s us", f[2]);
  if (reps < 1)
    return fail(r, "%ld repetitions: a measured value needs at least 1", reps);
  size = (double)isize;

  size_t nranks = nt - i - 4;
  if (b->npts == 0)
    b->nranks = nranks;
  else if (nranks != b->nranks)
    return fail(r,
                "%zu per-process times, but the earlier lines of block \"%s\" have %zu "
                "(truncated or garbled line?)",
                nranks, b->name, b->nranks);
  XGROW(b->rank_times, b->rank_cap, b->nrank_times + nranks);
  size_t first = b->nrank_times;
  for (size_t k = 0; k < nranks; k++) {
    const char *t = f[4 + k];
    double v;
    if (strcmp(t, "---") == 0)
      v = NAN;
    else if (!parse_double(t, &v) || v < 0)
      return fail(r, "per-process time %zu '%s' is neither a non-negative number nor '---'",
                  k + 1, t);
    b->rank_times[b->nrank_times++] = v;
  }
  XGROW(b->pts, b->cap, b->npts + 1);
  b->pts[b->npts++] = (skampi_point){.size = size,
                                     .time = time,
                                     .stderr_us = se,
                                     .reps = reps,
                                     .resolution = print_resolution(f[1]),
                                     .rank_first = first,
                                     .line = r->line};
  return 0;
}

static void block_free(skampi_block *b)
{
  free(b->name);
  free(b->file);
  free(b->pts);
  free(b->rank_times);
}

int skampi_read_stream(skampi_set *set, FILE *in, const char *name, char *err, size_t errlen)
{
  reader r = {.set = set, .name = name, .line = 0, .err = err, .errlen = errlen};
  size_t first_block = set->nblocks;
  skampi_block *open = NULL; /* the block being filled: always set->blocks[nblocks - 1] */
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = 0;
  while ((len = getline(&line, &cap, in)) >= 0) {
    r.line++;
    if ((size_t)len != strlen(line)) {
      rc = fail(&r, "NUL byte in the line: this is not a SKaMPI text output file");
      break;
    }
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      line[--len] = '\0';
    const char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0')
      continue;
    if (*p == '#') {
      if (p[1] == '>')
        continue; /* echoed source (skampi -s) */
      char *bname = NULL;
      int m = parse_marker(&r, p, "begin", &bname);
      if (m < 0) {
        rc = -1;
        break;
      }
      if (m > 0) {
        if (open) {
          rc = fail(&r, "'# begin result \"%s\"' while block \"%s\" (line %d) is still open",
                    bname, open->name, open->begin_line);
          free(bname);
          break;
        }
        XGROW(set->blocks, set->cap, set->nblocks + 1);
        open = &set->blocks[set->nblocks++];
        *open = (skampi_block){.name = bname, .file = xstrdup(name), .begin_line = r.line};
        continue;
      }
      m = parse_marker(&r, p, "end", &bname);
      if (m < 0) {
        rc = -1;
        break;
      }
      if (m > 0) {
        if (!open)
          rc = fail(&r, "'# end result \"%s\"' without a matching '# begin result'", bname);
        else if (strcmp(bname, open->name) != 0)
          rc = fail(&r, "'# end result \"%s\"' closes block \"%s\" opened at line %d", bname,
                    open->name, open->begin_line);
        else if (open->npts == 0)
          LOG_WARN("%s:%d: result block \"%s\" has no data line", name, r.line, bname);
        free(bname);
        if (rc)
          break;
        open = NULL;
      }
      continue; /* any other comment */
    }
    if (!open) {
      rc = fail(&r,
                "'%.40s%s' outside a '# begin result' block: neither a comment ('#') nor "
                "a data line of a block",
                p, strlen(p) > 40 ? "..." : "");
      break;
    }
    if ((rc = parse_data(&r, open, line)) != 0)
      break;
  }
  if (rc == 0 && ferror(in))
    rc = fail(&r, "cannot read: %s", strerror(errno)); /* EISDIR: a directory was given */
  if (rc == 0 && open)
    rc = fail(&r,
              "end of file inside result block \"%s\" opened at line %d (truncated "
              "file?)",
              open->name, open->begin_line);
  free(line);
  if (rc) {
    while (set->nblocks > first_block)
      block_free(&set->blocks[--set->nblocks]);
  }
  return rc;
}

int skampi_read_file(skampi_set *set, const char *path, char *err, size_t errlen)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  int rc = skampi_read_stream(set, in, path, err, errlen);
  fclose(in);
  return rc;
}

void skampi_set_free(skampi_set *set)
{
  for (size_t i = 0; i < set->nblocks; i++)
    block_free(&set->blocks[i]);
  free(set->blocks);
  *set = (skampi_set){0};
}
