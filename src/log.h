/* Logging with named, hierarchical categories and levels.
 *
 *   LOG_NEW_CATEGORY(kernel, "the simulation kernel");          // a root-level category
 *   LOG_NEW_SUBCATEGORY(lmm, kernel, "max-min solver");         // child of 'kernel'
 *   LOG_DEFAULT_CATEGORY(lmm);   // in a .c file: LOG_DEBUG & co. use this category
 *   LOG_DEBUG("solving %zu constraints", n);
 *   LOG_CDEBUG(kernel, "...");   // explicit category
 *
 * Thresholds are set at run time with SimGrid-style strings, e.g. "lmm.thresh:debug",
 * "root.threshold:critical", "kernel.thres:info" (log_parse_setting), repeatable. A category
 * without its own threshold inherits its parent's; the root's default is "info".
 * A category defined in another file is referenced with LOG_EXTERNAL_CATEGORY(name).
 *
 * Output goes to stderr: "[<simulated time>] [<category>/<LEVEL>] message\n". The simulated
 * time comes from a hook set by the engine (log_set_clock); without one it is omitted.
 * A disabled LOG_* call costs one load and one compare. */
#ifndef SMPI_SRC_LOG_H
#define SMPI_SRC_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum {
  LOG_LVL_TRACE = 1,
  LOG_LVL_DEBUG,
  LOG_LVL_VERBOSE,
  LOG_LVL_INFO,
  LOG_LVL_WARNING,
  LOG_LVL_ERROR,
  LOG_LVL_CRITICAL,
  LOG_LVL_OFF,
} log_level;

typedef struct log_category {
  const char *name;
  const char *description;
  struct log_category *parent; /* NULL for root */
  struct log_category *next;   /* registry chain */
  int own_threshold;           /* 0 = inherit */
  int threshold;               /* effective, kept up to date by the registry */
  bool registered;
} log_category;

extern log_category log_cat_root;

/* registers cat (idempotent); called by the constructors the macros generate */
void log_category_register(log_category *cat);
log_category *log_category_find(const char *name);
/* "cat.thresh:level" (also .threshold/.thres). Returns 0, or -1 with a message in err
 * naming the bad part (unknown category: closest known names suggested). */
int log_parse_setting(const char *setting, char *err, size_t errlen);
void log_set_threshold(log_category *cat, log_level lvl);
void log_set_clock(double (*now)(void));
void log_set_stream(FILE *stream);   /* default stderr; tests redirect it */
void log_list_categories(FILE *out); /* name, description, effective threshold; tree order */
const char *log_level_name(log_level lvl);
void log_emit(log_category *cat, log_level lvl, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define LOG_CAT_(name) log_cat_##name
#define LOG_EXTERNAL_CATEGORY(name) extern log_category LOG_CAT_(name)

#define LOG_NEW_SUBCATEGORY(name, parent_name, desc)                                  \
  LOG_EXTERNAL_CATEGORY(parent_name);                                                 \
  log_category LOG_CAT_(name) = {#name,        desc, &LOG_CAT_(parent_name), NULL, 0, \
                                 LOG_LVL_INFO, false};                                \
  __attribute__((constructor)) static void log_register_##name(void)                  \
  {                                                                                   \
    log_category_register(&LOG_CAT_(name));                                           \
  }
#define LOG_NEW_CATEGORY(name, desc) LOG_NEW_SUBCATEGORY(name, root, desc)

#define LOG_DEFAULT_CATEGORY(name) \
  LOG_EXTERNAL_CATEGORY(name);     \
  static log_category *const log_default_cat_ = &LOG_CAT_(name)

#define LOG_ENABLED_(cat, lvl) ((int)(lvl) >= (cat)->threshold)
#define LOG_CLOG_(cat, lvl, ...)                           \
  do {                                                     \
    if (__builtin_expect(LOG_ENABLED_(cat, lvl), 0))       \
      log_emit(cat, lvl, __FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

#define LOG_CTRACE(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_TRACE, __VA_ARGS__)
#define LOG_CDEBUG(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_DEBUG, __VA_ARGS__)
#define LOG_CVERB(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_VERBOSE, __VA_ARGS__)
#define LOG_CINFO(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_INFO, __VA_ARGS__)
#define LOG_CWARN(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_WARNING, __VA_ARGS__)
#define LOG_CERROR(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_ERROR, __VA_ARGS__)
#define LOG_CCRITICAL(c, ...) LOG_CLOG_(&LOG_CAT_(c), LOG_LVL_CRITICAL, __VA_ARGS__)

#define LOG_TRACE(...) LOG_CLOG_(log_default_cat_, LOG_LVL_TRACE, __VA_ARGS__)
#define LOG_DEBUG(...) LOG_CLOG_(log_default_cat_, LOG_LVL_DEBUG, __VA_ARGS__)
#define LOG_VERB(...) LOG_CLOG_(log_default_cat_, LOG_LVL_VERBOSE, __VA_ARGS__)
#define LOG_INFO(...) LOG_CLOG_(log_default_cat_, LOG_LVL_INFO, __VA_ARGS__)
#define LOG_WARN(...) LOG_CLOG_(log_default_cat_, LOG_LVL_WARNING, __VA_ARGS__)
#define LOG_ERROR(...) LOG_CLOG_(log_default_cat_, LOG_LVL_ERROR, __VA_ARGS__)
#define LOG_CRITICAL(...) LOG_CLOG_(log_default_cat_, LOG_LVL_CRITICAL, __VA_ARGS__)
#define LOG_IS_ENABLED(lvl) LOG_ENABLED_(log_default_cat_, LOG_LVL_##lvl)

#endif
