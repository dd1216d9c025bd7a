/* Category registry and message output.
 *
 * The registry is a singly linked chain in registration order. Registering a category first
 * registers its parent, so the chain is always topologically sorted (every parent comes
 * before its children): recomputing effective thresholds is one pass over the chain.
 *
 *   root (own: info)          chain: root -> kernel -> lmm -> smpi
 *    +- kernel (own: 0)       effective: root=info, kernel=info, lmm=debug, smpi=info
 *    |   +- lmm (own: debug)  after "kernel.thresh:error":
 *    +- smpi (own: 0)         root=info, kernel=error, lmm=debug (own wins), smpi=info
 *
 * Settings naming a category that is not registered yet are kept as pending and applied if
 * it registers later (e.g. a module loaded after the command line was parsed). Since every
 * category of the library registers in a constructor, before main, log_parse_setting still
 * reports such a name as an error right away: it is almost certainly a typo.
 *
 * Not thread-safe: categories register in constructors and thresholds are set from the
 * main thread before the simulation starts. log_emit writes each line with one fprintf call
 * so that concurrent writers (if any) do not interleave inside a line. */
#include "src/log.h"

#include "src/cfg.h"
#include "src/errbuf.h"
#include "src/invariant.h"
#include "src/mem.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

log_category log_cat_root = {"root",       "the root of all categories",
                             NULL,         NULL,
                             LOG_LVL_INFO, LOG_LVL_INFO,
                             false};

static log_category *chain_head;
static log_category *chain_tail;

static double (*log_clock)(void);
static FILE *log_stream; /* NULL means stderr (not a constant, cannot be an initializer) */

typedef struct pending_setting {
  char *name;
  log_level level;
} pending_setting;
static pending_setting *pending;
static size_t pending_count, pending_cap;

static const struct {
  const char *name;
  log_level level;
} level_names[] = {
    {"trace", LOG_LVL_TRACE}, {"debug", LOG_LVL_DEBUG},       {"verbose", LOG_LVL_VERBOSE},
    {"info", LOG_LVL_INFO},   {"warning", LOG_LVL_WARNING},   {"warn", LOG_LVL_WARNING},
    {"error", LOG_LVL_ERROR}, {"critical", LOG_LVL_CRITICAL}, {"off", LOG_LVL_OFF},
};
#define VALID_LEVELS "trace, debug, verbose, info, warning, error, critical, off"

const char *log_level_name(log_level lvl)
{
  switch (lvl) {
  case LOG_LVL_TRACE:
    return "TRACE";
  case LOG_LVL_DEBUG:
    return "DEBUG";
  case LOG_LVL_VERBOSE:
    return "VERBOSE";
  case LOG_LVL_INFO:
    return "INFO";
  case LOG_LVL_WARNING:
    return "WARNING";
  case LOG_LVL_ERROR:
    return "ERROR";
  case LOG_LVL_CRITICAL:
    return "CRITICAL";
  case LOG_LVL_OFF:
    return "OFF";
  }
  return "?";
}

/* Recompute the effective threshold of every category; parents precede children in the
 * chain, so one pass suffices. */
static void recompute_thresholds(void)
{
  for (log_category *c = chain_head; c; c = c->next)
    c->threshold = c->own_threshold ? c->own_threshold
                                    : (c->parent ? c->parent->threshold : LOG_LVL_INFO);
}

static void append(log_category *cat)
{
  cat->registered = true;
  cat->next = NULL;
  if (chain_tail)
    chain_tail->next = cat;
  else
    chain_head = cat;
  chain_tail = cat;
}

static void ensure_root(void)
{
  if (!log_cat_root.registered) {
    if (!log_cat_root.own_threshold)
      log_cat_root.own_threshold = LOG_LVL_INFO;
    append(&log_cat_root);
  }
}

void log_category_register(log_category *cat)
{
  ASSERT(cat && cat->name);
  ensure_root();
  if (cat->registered)
    return;
  /* guards against a category declared as its own ancestor (a cycle would recurse forever) */
  size_t depth = 0;
  for (log_category *p = cat->parent; p; p = p->parent)
    ASSERTF(++depth < 1000 && p != cat, "log category '%s' is its own ancestor", cat->name);
  if (cat->parent)
    log_category_register(cat->parent);
  else
    cat->parent = &log_cat_root; /* a category without a parent hangs under the root */
  ASSERTF(!log_category_find(cat->name), "two log categories are named '%s'", cat->name);
  append(cat);
  for (size_t i = 0; i < pending_count; i++)
    if (!strcmp(pending[i].name, cat->name))
      cat->own_threshold = pending[i].level; /* later settings override earlier ones */
  recompute_thresholds();
}

log_category *log_category_find(const char *name)
{
  ensure_root();
  for (log_category *c = chain_head; c; c = c->next)
    if (!strcmp(c->name, name))
      return c;
  return NULL;
}

void log_set_threshold(log_category *cat, log_level lvl)
{
  ASSERTF(lvl >= LOG_LVL_TRACE && lvl <= LOG_LVL_OFF, "invalid log level %d", (int)lvl);
  log_category_register(cat);
  cat->own_threshold = lvl;
  recompute_thresholds();
}

void log_set_clock(double (*now)(void)) { log_clock = now; }
void log_set_stream(FILE *stream) { log_stream = stream; }

/* "name1, name2, name3": up to three registered names closest to `name`. */
static char *closest_categories(const char *name)
{
  enum { N = 3 };
  log_category *best[N] = {NULL};
  size_t bestd[N];
  for (log_category *c = chain_head; c; c = c->next) {
    size_t d = cfg_edit_distance(name, c->name);
    /* insertion into a tiny sorted array; ties keep registration order (stable output) */
    for (int i = 0; i < N; i++) {
      if (!best[i] || d < bestd[i]) {
        for (int j = N - 1; j > i; j--) {
          best[j] = best[j - 1];
          bestd[j] = bestd[j - 1];
        }
        best[i] = c;
        bestd[i] = d;
        break;
      }
    }
  }
  char *out = xstrdup("");
  for (int i = 0; i < N && best[i]; i++) {
    char *next = xasprintf("%s%s'%s'", out, i ? ", " : "", best[i]->name);
    free(out);
    out = next;
  }
  return out;
}

typedef struct parsed_setting {
  char *name;
  log_level level;
  log_category *cat; /* NULL when not registered */
} parsed_setting;

/* Parses one "cat.thresh:level" token of length len. */
static int parse_one(const char *tok, size_t len, parsed_setting *out, char *err, size_t errlen)
{
  const char *colon = memchr(tok, ':', len);
  const char *dot = NULL;
  for (const char *p = tok; p < (colon ? colon : tok + len); p++)
    if (*p == '.')
      dot = p;
  if (!colon || !dot || dot == tok) {
    errbuf_set(err, errlen,
               "invalid log setting '%.*s' (expected <category>.thresh:<level>, e.g. "
               "'kernel.thresh:debug')",
               (int)len, tok);
    return -1;
  }
  size_t klen = (size_t)(colon - dot - 1);
  const char *key = dot + 1;
  if (!((klen == 6 && !strncmp(key, "thresh", 6)) ||
        (klen == 9 && !strncmp(key, "threshold", 9)) ||
        (klen == 5 && !strncmp(key, "thres", 5)))) {
    errbuf_set(err, errlen,
               "invalid log setting '%.*s': unsupported property '%.*s' (only 'thresh', "
               "'threshold' or 'thres' are known)",
               (int)len, tok, (int)klen, key);
    return -1;
  }
  const char *lvl = colon + 1;
  size_t lvlen = (size_t)(tok + len - lvl);
  int level = 0;
  for (size_t i = 0; i < sizeof level_names / sizeof level_names[0]; i++)
    if (strlen(level_names[i].name) == lvlen && !strncasecmp(lvl, level_names[i].name, lvlen))
      level = level_names[i].level;
  if (!level) {
    errbuf_set(err, errlen, "invalid log level '%.*s' in '%.*s' (valid levels: " VALID_LEVELS ")",
               (int)lvlen, lvl, (int)len, tok);
    return -1;
  }
  out->name = xasprintf("%.*s", (int)(dot - tok), tok);
  out->level = (log_level)level;
  out->cat = log_category_find(out->name);
  return 0;
}

static void add_pending(const char *name, log_level level)
{
  XGROW(pending, pending_cap, pending_count + 1);
  pending[pending_count].name = xstrdup(name);
  pending[pending_count].level = level;
  pending_count++;
}

/* All settings of the string are checked before any is applied, so a typo in the third one
 * does not leave the first two half-applied. An unknown category is the exception: the
 * well-formed settings are applied and the unknown one is kept as pending, in case the
 * category registers later, but the call still fails so that the typo is reported. */
int log_parse_setting(const char *setting, char *err, size_t errlen)
{
  ensure_root();
  if (!setting) {
    errbuf_set(err, errlen, "empty log setting (expected <category>.thresh:<level>)");
    return -1;
  }
  parsed_setting *ps = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  const char *p = setting;
  while (rc == 0) {
    p += strspn(p, " \t\n");
    if (!*p)
      break;
    size_t len = strcspn(p, " \t\n");
    XGROW(ps, cap, n + 1);
    rc = parse_one(p, len, &ps[n], err, errlen);
    if (rc == 0)
      n++;
    p += len;
  }
  if (rc == 0 && n == 0) {
    errbuf_set(err, errlen, "empty log setting (expected <category>.thresh:<level>)");
    rc = -1;
  }
  if (rc == 0) {
    bool reported = false;
    for (size_t i = 0; i < n; i++) {
      if (ps[i].cat) {
        log_set_threshold(ps[i].cat, ps[i].level);
        continue;
      }
      add_pending(ps[i].name, ps[i].level);
      if (!reported) {
        char *near = closest_categories(ps[i].name);
        errbuf_set(err, errlen, "unknown log category '%s' (closest known categories: %s)",
                   ps[i].name, near);
        free(near);
        reported = true;
      }
      rc = -1;
    }
  }
  for (size_t i = 0; i < n; i++)
    free(ps[i].name);
  free(ps);
  return rc;
}

static int cmp_cat_name(const void *a, const void *b)
{
  return strcmp((*(log_category *const *)a)->name, (*(log_category *const *)b)->name);
}

static void list_subtree(FILE *out, log_category *cat, int depth, log_category **all, size_t n)
{
  char lvl[16];
  snprintf(lvl, sizeof lvl, "%s", log_level_name((log_level)cat->threshold));
  for (char *q = lvl; *q; q++)
    *q = (char)(*q - 'A' + 'a');
  fprintf(out, "%*s%-*s %-8s %s%s\n", 2 * depth, "", 28 - 2 * depth > 1 ? 28 - 2 * depth : 1,
          cat->name, lvl, cat->description ? cat->description : "",
          cat->own_threshold ? "" : " (inherited threshold)");
  for (size_t i = 0; i < n; i++) /* `all` is sorted: children come out by name */
    if (all[i]->parent == cat && all[i] != cat)
      list_subtree(out, all[i], depth + 1, all, n);
}

void log_list_categories(FILE *out)
{
  ensure_root();
  size_t n = 0;
  for (log_category *c = chain_head; c; c = c->next)
    n++;
  log_category **all = xmalloc(n * sizeof *all);
  n = 0;
  for (log_category *c = chain_head; c; c = c->next)
    all[n++] = c;
  qsort(all, n, sizeof *all, cmp_cat_name);
  fprintf(out, "%-28s %-8s %s\n", "category", "level", "description");
  list_subtree(out, &log_cat_root, 0, all, n);
  free(all);
}

void log_emit(log_category *cat, log_level lvl, const char *file, int line, const char *fmt, ...)
{
  (void)file;
  (void)line;
  char buf[512];
  char *msg = buf;
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (len < 0)
    return;
  if ((size_t)len >= sizeof buf) {
    msg = xmalloc((size_t)len + 1);
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)len + 1, fmt, ap);
    va_end(ap);
  }
  FILE *out = log_stream ? log_stream : stderr;
  if (log_clock)
    fprintf(out, "[%.6f] [%s/%s] %s\n", log_clock(), cat->name, log_level_name(lvl), msg);
  else
    fprintf(out, "[%s/%s] %s\n", cat->name, log_level_name(lvl), msg);
  if (msg != buf)
    free(msg);
}
