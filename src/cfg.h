/* Configuration registry: typed keys with defaults and descriptions, set from
 * "--cfg=key:value" strings, from a platform file's <config><prop id= value=/></config>, or
 * from code. Key names follow SimGrid's spelling where the meaning is the same
 * ("contexts/stack-size", "network/TCP-gamma", "smpi/bw-factor").
 *
 * Adding a key, the one way for every module:
 *  1. an entry in the table of the module that READS the key, next to that code:
 *       static const cfg_key p2p_keys[] = {
 *           CFG_KEY_INT("smpi/send-is-detached-thresh", 65536, "Messages below this ..."),
 *           CFG_KEY_STRING("smpi/os", "0:0:0", NULL, "Send overhead of MPI_Send ..."),
 *       };
 *  2. the module's declare function passes it to cfg_declare_keys:
 *       void smpi_p2p_declare_config(void) { cfg_declare_keys(p2p_keys, CFG_NKEYS(p2p_keys)); }
 *     A new module adds that function to the registry in smpi/launch/launch.c
 *     (smpi_config_modules), which smpi_main runs before --cfg and <config> are read.
 *  3. the default is written in the table and nowhere else: code that needs it reads the key
 *     (cfg_get_*); a module that may run without smpi_main (unit tests) calls its declare
 *     function before reading. tests/data/cfg_help.txt lists every key (tests/cfg_help.sh
 *     says how to regenerate it).
 *
 * Declaring is idempotent for an identical key; the same name with another type, default or
 * choices is a broken invariant (abort), so two modules cannot disagree on a key. Lookups are
 * by name through a hash table, so hot paths cache the value (cfg_on_change tells them when
 * it changes).
 *
 * Errors (tier 2: user input) are returned as -1 with a one-line message in err, e.g.
 *   unknown configuration key 'contexts/stak-size' (did you mean 'contexts/stack-size'?)
 *   invalid value 'abc' for 'contexts/stack-size' (an integer is expected)
 *   invalid value '-5' for 'smpi/async-small-thresh' (an integer >= 0 is expected)
 *   invalid value 'fiber' for 'contexts/factory' (one of: raw, ucontext)
 */
#ifndef SMPI_SRC_CFG_H
#define SMPI_SRC_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

/* The words a boolean value may be: 0 and *out set, or -1. Inline, as smpirun (a static
 * launcher that links none of the simulator) reads smpi/huge-heap with the same words. */
static inline int cfg_parse_bool(const char *text, bool *out)
{
  static const char *const yes[] = {"yes", "true", "on", "1"};
  static const char *const no[] = {"no", "false", "off", "0"};
  for (size_t i = 0; i < 4; i++) {
    if (!strcasecmp(text, yes[i])) {
      *out = true;
      return 0;
    }
    if (!strcasecmp(text, no[i])) {
      *out = false;
      return 0;
    }
  }
  return -1;
}

typedef enum { CFG_BOOL, CFG_INT, CFG_DOUBLE, CFG_STRING } cfg_type;

typedef enum {
  CFG_ORIGIN_DEFAULT,  /* never set */
  CFG_ORIGIN_CODE,     /* set by the program (e.g. smpirun's own defaults) */
  CFG_ORIGIN_PLATFORM, /* <config> section of a platform file */
  CFG_ORIGIN_CMDLINE,  /* --cfg=... : wins over the platform file */
} cfg_origin;

typedef void (*cfg_hook)(const char *key, void *data);

/* One key of a module's table; write it with the CFG_KEY_* macros below. `choices`, for
 * strings, is NULL (free text) or a '|'-separated list of the accepted values
 * ("raw|ucontext"). Integers accept an optional binary suffix (k, M, G); CFG_KEY_UINT
 * declares one that cannot be negative (a size in bytes, a count): a value below 0 is
 * refused like any other invalid value, naming the key. The strings need only live during
 * cfg_declare_keys (a table may be built at run time). */
typedef struct cfg_key {
  cfg_type type;
  const char *name;
  union {
    bool b;
    long i;
    double d;
    const char *s;
  } def;
  const char *choices;
  const char *desc;
  bool non_negative; /* CFG_INT: values below 0 are refused (CFG_KEY_UINT) */
} cfg_key;

#define CFG_KEY_BOOL(name_, def_, desc_)                                     \
  {                                                                          \
    .type = CFG_BOOL, .name = (name_), .def = {.b = (def_)}, .desc = (desc_) \
  }
#define CFG_KEY_INT(name_, def_, desc_)                                     \
  {                                                                         \
    .type = CFG_INT, .name = (name_), .def = {.i = (def_)}, .desc = (desc_) \
  }
#define CFG_KEY_UINT(name_, def_, desc_)                                     \
  {                                                                          \
    .type = CFG_INT, .name = (name_), .def = {.i = (def_)}, .desc = (desc_), \
    .non_negative = true                                                     \
  }
#define CFG_KEY_DOUBLE(name_, def_, desc_)                                     \
  {                                                                            \
    .type = CFG_DOUBLE, .name = (name_), .def = {.d = (def_)}, .desc = (desc_) \
  }
#define CFG_KEY_STRING(name_, def_, choices_, desc_)                                  \
  {                                                                                   \
    .type = CFG_STRING, .name = (name_), .def = {.s = (def_)}, .choices = (choices_), \
    .desc = (desc_)                                                                   \
  }
#define CFG_NKEYS(table) (sizeof(table) / sizeof((table)[0]))

/* Declares keys[0..n-1], in order (see the header comment for redeclarations). */
void cfg_declare_keys(const cfg_key *keys, size_t n);
/* an alternative spelling that resolves to key (SimGrid has a few: "maxmin/precision") */
void cfg_alias(const char *alias, const char *key);

bool cfg_get_bool(const char *key);
long cfg_get_int(const char *key);
double cfg_get_double(const char *key);
const char *cfg_get_string(const char *key); /* valid until the key is set again */
bool cfg_is_declared(const char *key);
bool cfg_is_default(const char *key);
cfg_origin cfg_get_origin(const char *key);

/* Set one key from text. A value from a lower-priority origin never overwrites one from a
 * higher-priority origin (command line > platform file > code > default); that case is not
 * an error, the call returns 0 and changes nothing. */
int cfg_set(const char *key, const char *value, cfg_origin origin, char *err, size_t errlen);
/* "key:value" (the text after --cfg=). Several settings may be separated by spaces. */
int cfg_parse(const char *setting, cfg_origin origin, char *err, size_t errlen);
/* Called after each successful change of key (not when the value is only declared). */
void cfg_on_change(const char *key, cfg_hook hook, void *data);

/* True for a key that SimGrid 3.32 knows and smpi does not declare (src/cfg_simgrid.c):
 * cfg_set and cfg_parse then warn once per setting and ignore it instead of failing. */
bool cfg_simgrid_only(const char *key);

/* Print every key, sorted, with type, default, current value when different, description. */
void cfg_help(FILE *out);
/* Back to defaults (for tests); declarations stay. */
void cfg_reset(void);

/* Levenshtein distance, used for "did you mean" hints elsewhere too (log categories). */
size_t cfg_edit_distance(const char *a, const char *b);

#endif
