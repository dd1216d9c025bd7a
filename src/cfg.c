/* Configuration registry.
 *
 * Keys live in `keys` (declaration order, owns the cfg_entry structs, made from the modules'
 * cfg_key tables by cfg_declare_keys). A hash table with open
 * addressing and linear probing maps every name, canonical or alias, to its cfg_entry:
 *
 *   slots: [ - | "contexts/stack-size" -> K0 | "maxmin/precision" -> K3 | - | ... ]
 *                                                     (alias of "lmm/precision")
 *
 * Nothing is ever removed, so no tombstones are needed. The table doubles when half full.
 *
 * Setting a key has two steps: parse_value() turns the text into a typed value without side
 * effects, apply_value() stores it. cfg_parse() parses every setting of its string before
 * applying any, so a malformed third setting leaves the first two untouched. */
#include "src/cfg.h"

#include "src/errbuf.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#include <errno.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

LOG_NEW_CATEGORY(config, "configuration registry");
LOG_DEFAULT_CATEGORY(config);

typedef union cfg_value {
  bool b;
  long i;
  double d;
  char *s; /* owned */
} cfg_value;

typedef struct cfg_hook_entry {
  cfg_hook fn;
  void *data;
} cfg_hook_entry;

typedef struct cfg_entry {
  char *name;
  char *desc;
  char *choices; /* NULL or "a|b|c" */
  cfg_type type;
  bool non_negative; /* CFG_INT: refuse values below 0 */
  cfg_origin origin;
  cfg_value def;
  cfg_value cur;
  cfg_hook_entry *hooks;
  size_t nhooks, hooks_cap;
} cfg_entry;

typedef struct cfg_slot {
  char *name; /* owned; NULL = empty slot */
  cfg_entry *key;
} cfg_slot;

static cfg_entry **keys;
static size_t nkeys, keys_cap;
static cfg_slot *slots;
static size_t slots_cap; /* power of two */
static size_t slots_used;

static const char *const type_names[] = {"bool", "int", "double", "string"};

static uint64_t hash_str(const char *s)
{
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  return h;
}

static cfg_slot *slot_for(const char *name)
{
  if (!slots_cap)
    return NULL;
  size_t mask = slots_cap - 1;
  for (size_t i = hash_str(name) & mask;; i = (i + 1) & mask)
    if (!slots[i].name || !strcmp(slots[i].name, name))
      return &slots[i];
}

static void table_insert(const char *name, cfg_entry *key)
{
  if (2 * (slots_used + 1) > slots_cap) {
    cfg_slot *old = slots;
    size_t old_cap = slots_cap;
    slots_cap = slots_cap ? 2 * slots_cap : 64;
    slots = xcalloc(slots_cap, sizeof *slots);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].name)
        *slot_for(old[i].name) = old[i];
    free(old);
  }
  cfg_slot *s = slot_for(name);
  ASSERT(!s->name);
  s->name = xstrdup(name);
  s->key = key;
  slots_used++;
}

static cfg_entry *lookup(const char *name)
{
  cfg_slot *s = name ? slot_for(name) : NULL;
  return s && s->name ? s->key : NULL;
}

/* ---- declarations ---- */

static bool same_value(const cfg_entry *k, const cfg_value *a, const cfg_value *b)
{
  switch (k->type) {
  case CFG_BOOL:
    return a->b == b->b;
  case CFG_INT:
    return a->i == b->i;
  case CFG_DOUBLE:
    return a->d == b->d;
  case CFG_STRING:
    return !strcmp(a->s, b->s);
  }
  UNREACHABLE();
}

static void format_value(const cfg_entry *k, const cfg_value *v, char *buf, size_t len);

static bool choice_ok(const char *choices, const char *value)
{
  size_t vlen = strlen(value);
  for (const char *p = choices;;) {
    size_t len = strcspn(p, "|");
    if (len == vlen && !strncmp(p, value, len))
      return true;
    if (!p[len])
      return false;
    p += len + 1;
  }
}

/* The default of d as a value; a string is not copied. */
static cfg_value checked_default(const cfg_key *d)
{
  cfg_value v;
  switch (d->type) {
  case CFG_BOOL:
    v.b = d->def.b;
    break;
  case CFG_INT:
    ASSERTF(!d->non_negative || d->def.i >= 0,
            "default %ld of non-negative configuration key '%s' is negative", d->def.i, d->name);
    v.i = d->def.i;
    break;
  case CFG_DOUBLE:
    ASSERTF(isfinite(d->def.d), "default of configuration key '%s' is not finite", d->name);
    v.d = d->def.d;
    break;
  case CFG_STRING:
    ASSERTF(d->def.s, "default of configuration key '%s' is NULL", d->name);
    ASSERTF(!d->choices || choice_ok(d->choices, d->def.s),
            "default '%s' of configuration key '%s' is not among its choices '%s'", d->def.s,
            d->name, d->choices);
    v.s = (char *)d->def.s;
    break;
  default:
    DIE("configuration key '%s' has no valid type (%d)", d->name, (int)d->type);
  }
  ASSERTF(d->type == CFG_STRING || !d->choices, "configuration key '%s' is a %s with choices",
          d->name, type_names[d->type]);
  ASSERTF(d->type == CFG_INT || !d->non_negative,
          "configuration key '%s' is a non-negative %s (only integers can be)", d->name,
          type_names[d->type]);
  return v;
}

/* A second declaration of k must be the same key: two modules that disagree on a default
 * would make the result depend on which one runs first. */
static void check_redeclaration(const cfg_entry *k, const cfg_key *d, const cfg_value *def)
{
  ASSERTF(k->type == d->type, "configuration key '%s' declared as %s and again as %s", d->name,
          type_names[k->type], type_names[d->type]);
  ASSERTF(!strcmp(k->name, d->name), "configuration key '%s' is already an alias of '%s'",
          d->name, k->name);
  if (!same_value(k, &k->def, def)) {
    char a[256], b[256];
    format_value(k, &k->def, a, sizeof a);
    format_value(k, def, b, sizeof b);
    DIE("configuration key '%s' declared with default %s and again with %s", d->name, a, b);
  }
  bool same_choices = k->choices && d->choices ? !strcmp(k->choices, d->choices)
                                               : !k->choices && !d->choices;
  ASSERTF(same_choices, "configuration key '%s' declared with choices '%s' and again with '%s'",
          d->name, k->choices ? k->choices : "(any)", d->choices ? d->choices : "(any)");
  ASSERTF(k->non_negative == d->non_negative, "configuration key '%s' declared %s and again %s",
          d->name, k->non_negative ? "non-negative" : "signed",
          d->non_negative ? "non-negative" : "signed");
}

static void declare(const cfg_key *d)
{
  ASSERTF(d->name && *d->name, "configuration keys need a name");
  ASSERTF(!strpbrk(d->name, ": \t\n"), "configuration key '%s' contains ':' or a space", d->name);
  cfg_value def = checked_default(d);
  cfg_entry *k = lookup(d->name);
  if (k) {
    check_redeclaration(k, d, &def);
    return;
  }
  k = xcalloc(1, sizeof *k);
  k->name = xstrdup(d->name);
  k->desc = xstrdup(d->desc ? d->desc : "");
  k->choices = d->choices ? xstrdup(d->choices) : NULL;
  k->type = d->type;
  k->non_negative = d->non_negative;
  k->origin = CFG_ORIGIN_DEFAULT;
  if (d->type == CFG_STRING) {
    k->def.s = xstrdup(def.s);
    k->cur.s = xstrdup(def.s);
  } else {
    k->def = k->cur = def;
  }
  XGROW(keys, keys_cap, nkeys + 1);
  keys[nkeys++] = k;
  table_insert(d->name, k);
}

void cfg_declare_keys(const cfg_key *table, size_t n)
{
  ASSERT(table || !n);
  for (size_t i = 0; i < n; i++)
    declare(&table[i]);
}

void cfg_alias(const char *alias, const char *key)
{
  cfg_entry *k = lookup(key);
  ASSERTF(k, "alias '%s' of undeclared configuration key '%s'", alias, key);
  ASSERTF(alias && *alias && !strpbrk(alias, ": \t\n"), "invalid alias name for '%s'", key);
  cfg_entry *existing = lookup(alias);
  if (existing) {
    ASSERTF(existing == k && strcmp(alias, k->name),
            "alias '%s' of '%s' clashes with configuration key '%s'", alias, key, existing->name);
    return; /* same alias declared twice */
  }
  table_insert(alias, k);
}

/* ---- reading ---- */

static cfg_entry *get_key(const char *key, cfg_type type)
{
  cfg_entry *k = lookup(key);
  if (!k)
    DIE("configuration key '%s' is read but was never declared", key ? key : "(null)");
  if (k->type != type)
    DIE("configuration key '%s' is a %s, read as a %s", key, type_names[k->type],
        type_names[type]);
  return k;
}

bool cfg_get_bool(const char *key) { return get_key(key, CFG_BOOL)->cur.b; }
long cfg_get_int(const char *key) { return get_key(key, CFG_INT)->cur.i; }
double cfg_get_double(const char *key) { return get_key(key, CFG_DOUBLE)->cur.d; }
const char *cfg_get_string(const char *key) { return get_key(key, CFG_STRING)->cur.s; }
bool cfg_is_declared(const char *key) { return lookup(key) != NULL; }

static cfg_entry *must_exist(const char *key)
{
  cfg_entry *k = lookup(key);
  if (!k)
    DIE("configuration key '%s' was never declared", key ? key : "(null)");
  return k;
}

bool cfg_is_default(const char *key) { return must_exist(key)->origin == CFG_ORIGIN_DEFAULT; }
cfg_origin cfg_get_origin(const char *key) { return must_exist(key)->origin; }

/* ---- parsing values ---- */

static int parse_long(const char *text, long *out)
{
  /* strtol would skip leading blanks and accept a lone sign: both are typos here */
  if (!*text || !(*text == '-' || *text == '+' || (*text >= '0' && *text <= '9')))
    return -1;
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || (end[-1] < '0' || end[-1] > '9'))
    return -1;
  if (errno == ERANGE)
    return -2;
  long mult = 1;
  switch (*end) {
  case '\0':
    break;
  case 'k':
  case 'K':
    mult = 1L << 10;
    end++;
    break;
  case 'M':
    mult = 1L << 20;
    end++;
    break;
  case 'G':
    mult = 1L << 30;
    end++;
    break;
  default:
    return -1;
  }
  if (*end)
    return -1;
  if (v > LONG_MAX / mult || v < LONG_MIN / mult)
    return -2;
  *out = v * mult;
  return 0;
}

static int parse_double(const char *text, double *out)
{
  if (!*text || isspace((unsigned char)*text))
    return -1; /* strtod would skip leading blanks: a stray one is a typo here */
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end)
    return -1;
  if (!isfinite(v))
    return -2; /* "inf", "nan", or an overflow to HUGE_VAL */
  /* an underflow (ERANGE with a tiny result) is accepted: 1e-400 is as good as 0 */
  *out = v;
  return 0;
}

/* Text -> value for key k, without side effects. A string value is freshly allocated. */
static int parse_value(cfg_entry *k, const char *text, cfg_value *out, char *err, size_t errlen)
{
  int rc;
  switch (k->type) {
  case CFG_BOOL:
    if (cfg_parse_bool(text, &out->b) == 0)
      return 0;
    errbuf_set(err, errlen,
               "invalid value '%s' for '%s' (a boolean is expected: yes/no, true/false, on/off, "
               "1/0)",
               text, k->name);
    return -1;
  case CFG_INT:
    rc = parse_long(text, &out->i);
    if (rc == 0 && k->non_negative && out->i < 0)
      rc = -3;
    if (rc == 0)
      return 0;
    errbuf_set(err, errlen,
               rc == -3   ? "invalid value '%s' for '%s' (an integer >= 0 is expected: a size or "
                            "a count cannot be negative)"
               : rc == -2 ? "invalid value '%s' for '%s' (out of the range of an integer)"
                          : "invalid value '%s' for '%s' (an integer is expected, with an "
                            "optional k, M or G suffix)",
               text, k->name);
    return -1;
  case CFG_DOUBLE:
    rc = parse_double(text, &out->d);
    if (rc == 0)
      return 0;
    errbuf_set(err, errlen,
               rc == -2 ? "invalid value '%s' for '%s' (a finite number is expected)"
                        : "invalid value '%s' for '%s' (a number is expected)",
               text, k->name);
    return -1;
  case CFG_STRING:
    if (k->choices && !choice_ok(k->choices, text)) {
      char *list = xstrdup(k->choices);
      /* "a|b|c" -> "a, b, c" */
      char *pretty = xmalloc(2 * strlen(list) + 1), *q = pretty;
      for (char *p = list; *p; p++) {
        if (*p == '|') {
          *q++ = ',';
          *q++ = ' ';
        } else {
          *q++ = *p;
        }
      }
      *q = '\0';
      errbuf_set(err, errlen, "invalid value '%s' for '%s' (one of: %s)", text, k->name, pretty);
      free(pretty);
      free(list);
      return -1;
    }
    out->s = xstrdup(text);
    return 0;
  }
  UNREACHABLE();
}

/* Stores v (taking ownership of a string) and runs the hooks if the value changed. The hook
 * receives the canonical name, whatever spelling the user typed. */
static void apply_value(cfg_entry *k, cfg_value v, cfg_origin origin)
{
  bool changed = !same_value(k, &k->cur, &v);
  if (k->type == CFG_STRING)
    free(k->cur.s);
  k->cur = v;
  k->origin = origin;
  if (changed)
    for (size_t i = 0; i < k->nhooks; i++)
      k->hooks[i].fn(k->name, k->hooks[i].data);
}

static void free_value(const cfg_entry *k, cfg_value *v)
{
  if (k->type == CFG_STRING)
    free(v->s);
}

/* ---- suggestions ---- */

size_t cfg_edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  size_t small[2][64];
  size_t *prev = small[0], *cur = small[1];
  size_t *heap_rows = NULL;
  if (lb + 1 > 64) {
    heap_rows = xmalloc(2 * (lb + 1) * sizeof *heap_rows);
    prev = heap_rows;
    cur = heap_rows + lb + 1;
  }
  for (size_t j = 0; j <= lb; j++)
    prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
      size_t m = sub < del ? sub : del;
      cur[j] = m < ins ? m : ins;
    }
    size_t *t = prev;
    prev = cur;
    cur = t;
  }
  size_t d = prev[lb];
  free(heap_rows);
  return d;
}

/* Levenshtein plus adjacent transpositions counted as one edit (optimal string alignment):
 * "itn" is one typo away from "int", not two. Only used to rank suggestions. */
static size_t typo_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  size_t w = lb + 1;
  size_t *d = xmalloc((la + 1) * w * sizeof *d);
  for (size_t i = 0; i <= la; i++)
    d[i * w] = i;
  for (size_t j = 0; j <= lb; j++)
    d[j] = j;
  for (size_t i = 1; i <= la; i++) {
    for (size_t j = 1; j <= lb; j++) {
      size_t best = d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);
      if (d[(i - 1) * w + j] + 1 < best)
        best = d[(i - 1) * w + j] + 1;
      if (d[i * w + j - 1] + 1 < best)
        best = d[i * w + j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[(i - 2) * w + j - 2] + 1 < best)
        best = d[(i - 2) * w + j - 2] + 1;
      d[i * w + j] = best;
    }
  }
  size_t r = d[la * w + lb];
  free(d);
  return r;
}

/* How far `typed` is from key name `name`; SIZE_MAX when too far to be worth suggesting.
 * "Close" means a few typos relative to the length, or the right last component with a
 * wrong or missing prefix ("stack-size" for "contexts/stack-size"). */
static size_t suggestion_distance(const char *typed, const char *name)
{
  size_t d = typo_distance(typed, name);
  size_t len = strlen(typed);
  size_t limit = len / 3 > 2 ? len / 3 : 2;
  if (d <= limit)
    return d;
  const char *tlast = strrchr(typed, '/');
  const char *nlast = strrchr(name, '/');
  tlast = tlast ? tlast + 1 : typed;
  nlast = nlast ? nlast + 1 : name;
  if (*tlast && !strcmp(tlast, nlast))
    return limit + 1; /* after genuine near-misses */
  return SIZE_MAX;
}

/* Suggests the closest keys: only those tied at the smallest distance (at most three, by
 * name), so that one clear near-miss is not drowned among merely similar keys. */
static void unknown_key_error(const char *key, char *err, size_t errlen)
{
  enum { N = 3 };
  const cfg_entry *best[N] = {NULL};
  size_t bestd = SIZE_MAX;
  for (size_t i = 0; i < nkeys; i++) {
    size_t d = suggestion_distance(key, keys[i]->name);
    if (d == SIZE_MAX || d > bestd)
      continue;
    if (d < bestd) {
      bestd = d;
      memset(best, 0, sizeof best);
    }
    for (int j = 0; j < N; j++) {
      if (!best[j] || strcmp(keys[i]->name, best[j]->name) < 0) {
        for (int m = N - 1; m > j; m--)
          best[m] = best[m - 1];
        best[j] = keys[i];
        break;
      }
    }
  }
  if (!best[0]) {
    errbuf_set(err, errlen, "unknown configuration key '%s' (run with --help to list the keys)",
               key);
  } else if (!best[1]) {
    errbuf_set(err, errlen, "unknown configuration key '%s' (did you mean '%s'?)", key,
               best[0]->name);
  } else if (!best[2]) {
    errbuf_set(err, errlen, "unknown configuration key '%s' (did you mean '%s' or '%s'?)", key,
               best[0]->name, best[1]->name);
  } else {
    errbuf_set(err, errlen, "unknown configuration key '%s' (did you mean '%s', '%s' or '%s'?)",
               key, best[0]->name, best[1]->name, best[2]->name);
  }
}

/* ---- setting ---- */

static cfg_entry *find_for_set(const char *key, char *err, size_t errlen)
{
  if (!key || !*key) {
    errbuf_set(err, errlen,
               "empty configuration key (expected key:value, e.g. "
               "'contexts/stack-size:64k')");
    return NULL;
  }
  cfg_entry *k = lookup(key);
  if (!k)
    unknown_key_error(key, err, errlen);
  return k;
}

static const char *origin_place(cfg_origin origin)
{
  return origin == CFG_ORIGIN_PLATFORM  ? " (platform file)"
         : origin == CFG_ORIGIN_CMDLINE ? " (command line)"
                                        : "";
}

/* A key of SimGrid's that smpi lacks (cfg_simgrid.c): one warning, then ignored. */
static bool ignore_simgrid_only(const char *key, const char *value, cfg_origin origin)
{
  if (!cfg_simgrid_only(key))
    return false;
  LOG_WARN("configuration key '%s'%s is a SimGrid option that smpi does not implement: "
           "'%s:%s' ignored",
           key, origin_place(origin), key, value ? value : "");
  return true;
}

int cfg_set(const char *key, const char *value, cfg_origin origin, char *err, size_t errlen)
{
  ASSERTF(origin >= CFG_ORIGIN_DEFAULT && origin <= CFG_ORIGIN_CMDLINE, "bad origin %d",
          (int)origin);
  if (ignore_simgrid_only(key, value, origin))
    return 0;
  cfg_entry *k = find_for_set(key, err, errlen);
  if (!k)
    return -1;
  if (!value) {
    errbuf_set(err, errlen, "no value given for configuration key '%s'", k->name);
    return -1;
  }
  cfg_value v;
  if (parse_value(k, value, &v, err, errlen) != 0)
    return -1;
  if (origin < k->origin) {
    free_value(k, &v); /* lower priority: silently ignored, the value stays valid though */
    return 0;
  }
  apply_value(k, v, origin);
  return 0;
}

typedef struct parsed_setting {
  cfg_entry *key;
  cfg_value value;
} parsed_setting;

int cfg_parse(const char *setting, cfg_origin origin, char *err, size_t errlen)
{
  ASSERTF(origin >= CFG_ORIGIN_DEFAULT && origin <= CFG_ORIGIN_CMDLINE, "bad origin %d",
          (int)origin);
  parsed_setting *ps = NULL;
  size_t n = 0, cap = 0, ignored = 0;
  int rc = 0;
  const char *p = setting ? setting : "";
  while (rc == 0) {
    p += strspn(p, " \t\n");
    if (!*p)
      break;
    size_t len = strcspn(p, " \t\n");
    char *tok = xasprintf("%.*s", (int)len, p);
    p += len;
    /* split at the FIRST ':' only: values may contain ':' ("smpi/bw-factor:65472:0.94") */
    char *colon = strchr(tok, ':');
    if (!colon) {
      errbuf_set(err, errlen,
                 "invalid configuration setting '%s' (expected key:value, e.g. "
                 "'contexts/stack-size:64k')",
                 tok);
      rc = -1;
    } else if (colon == tok) {
      errbuf_set(err, errlen, "empty key in configuration setting '%s' (expected key:value)",
                 tok);
      rc = -1;
    } else {
      *colon = '\0';
      if (ignore_simgrid_only(tok, colon + 1, origin)) {
        ignored++;
        free(tok);
        continue;
      }
      cfg_entry *k = find_for_set(tok, err, errlen);
      XGROW(ps, cap, n + 1);
      if (!k || parse_value(k, colon + 1, &ps[n].value, err, errlen) != 0) {
        rc = -1;
      } else {
        ps[n].key = k;
        n++;
      }
    }
    free(tok);
  }
  if (rc == 0 && n == 0 && ignored == 0) {
    errbuf_set(
        err, errlen,
        "empty configuration setting (expected key:value, e.g. 'contexts/stack-size:64k')");
    rc = -1;
  }
  for (size_t i = 0; i < n; i++) {
    if (rc == 0 && origin >= ps[i].key->origin)
      apply_value(ps[i].key, ps[i].value, origin);
    else
      free_value(ps[i].key, &ps[i].value);
  }
  free(ps);
  return rc;
}

void cfg_on_change(const char *key, cfg_hook hook, void *data)
{
  ASSERT(hook);
  cfg_entry *k = must_exist(key);
  XGROW(k->hooks, k->hooks_cap, k->nhooks + 1);
  k->hooks[k->nhooks].fn = hook;
  k->hooks[k->nhooks].data = data;
  k->nhooks++;
}

/* ---- help and reset ---- */

/* The shortest "%.Ng" that reads back as the same double. */
static void format_double(char *buf, size_t len, double d)
{
  for (int prec = 6; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, d);
    if (strtod(buf, NULL) == d)
      return;
  }
}

static void format_value(const cfg_entry *k, const cfg_value *v, char *buf, size_t len)
{
  switch (k->type) {
  case CFG_BOOL:
    snprintf(buf, len, "%s", v->b ? "yes" : "no");
    return;
  case CFG_INT:
    snprintf(buf, len, "%ld", v->i);
    return;
  case CFG_DOUBLE:
    format_double(buf, len, v->d);
    return;
  case CFG_STRING:
    snprintf(buf, len, "'%s'", v->s);
    return;
  }
  UNREACHABLE();
}

static int cmp_key_name(const void *a, const void *b)
{
  return strcmp((*(cfg_entry *const *)a)->name, (*(cfg_entry *const *)b)->name);
}

static const char *origin_name(cfg_origin o)
{
  switch (o) {
  case CFG_ORIGIN_DEFAULT:
    return "default";
  case CFG_ORIGIN_CODE:
    return "program";
  case CFG_ORIGIN_PLATFORM:
    return "platform file";
  case CFG_ORIGIN_CMDLINE:
    return "command line";
  }
  return "?";
}

void cfg_help(FILE *out)
{
  cfg_entry **sorted = xmalloc((nkeys ? nkeys : 1) * sizeof *sorted);
  memcpy(sorted, keys, nkeys * sizeof *sorted);
  qsort(sorted, nkeys, sizeof *sorted, cmp_key_name);
  for (size_t i = 0; i < nkeys; i++) {
    const cfg_entry *k = sorted[i];
    char def[256], cur[256];
    format_value(k, &k->def, def, sizeof def);
    format_value(k, &k->cur, cur, sizeof cur);
    fprintf(out, "  %s (%s%s", k->name, type_names[k->type], k->non_negative ? " >= 0" : "");
    if (k->choices)
      fprintf(out, ": %s", k->choices);
    fprintf(out, ", default: %s", def);
    if (!same_value(k, &k->def, &k->cur))
      fprintf(out, ", current: %s from the %s", cur, origin_name(k->origin));
    fprintf(out, ")\n");
    /* aliases are found by a scan of the table: help is not a hot path */
    for (size_t s = 0; s < slots_cap; s++)
      if (slots[s].name && slots[s].key == k && strcmp(slots[s].name, k->name))
        fprintf(out, "      alias: %s\n", slots[s].name);
    if (*k->desc)
      fprintf(out, "      %s\n", k->desc);
  }
  free(sorted);
}

void cfg_reset(void)
{
  for (size_t i = 0; i < nkeys; i++) {
    cfg_entry *k = keys[i];
    cfg_value v = k->def;
    if (k->type == CFG_STRING)
      v.s = xstrdup(k->def.s);
    /* hooks run so that cached copies follow the reset */
    apply_value(k, v, CFG_ORIGIN_DEFAULT);
  }
}
