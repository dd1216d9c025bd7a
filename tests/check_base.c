/* Unit tests of the base layer: configuration registry, logging, event heap, intrusive lists.
 * Tests run forked (Check's default), so each one starts from the state left by the
 * constructors and the fixtures; the abort tests rely on that too. */
#include "src/cfg.h"
#include "src/heap.h"
#include "src/list.h"
#include "src/log.h"
#include "src/mem.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Silences the "internal error" banner of the tests that are expected to abort. */
static void quiet_stderr(void)
{
  if (!freopen("/dev/null", "w", stderr))
    abort();
}

/* ======================================================================================
 * cfg
 * ====================================================================================== */

/* a module's table, as modules write them */
static const cfg_key test_keys[] = {
    CFG_KEY_INT("test/int", 10, "an integer"),
    CFG_KEY_UINT("test/size", 8L << 20, "a size in bytes"),
    CFG_KEY_DOUBLE("test/double", 0.5, "a real"),
    CFG_KEY_BOOL("test/bool", false, "a flag"),
    CFG_KEY_STRING("test/str", "abc", NULL, "free text"),
    CFG_KEY_STRING("test/factory", "raw", "raw|ucontext", "a choice"),
    CFG_KEY_STRING("test/bw-factor", "1", NULL, "piecewise factors"),
};

static void cfg_setup(void)
{
  cfg_declare_keys(test_keys, CFG_NKEYS(test_keys));
  cfg_alias("test/old-int", "test/int");
  cfg_reset();
}

typedef struct bad_case {
  const char *setting;
  const char *expect; /* substring of the error message */
} bad_case;

static const bad_case bad_cases[] = {
    {"", "empty configuration setting"},
    {"   \t ", "empty configuration setting"},
    {"test/int", "expected key:value"},
    {"test/int=5", "expected key:value"},
    {":5", "empty key"},
    {"test/itn:5", "unknown configuration key 'test/itn' (did you mean 'test/int'?)"},
    {"zzzzzzzzzzzz:1", "unknown configuration key 'zzzzzzzzzzzz' (run with --help"},
    {"test/int:abc", "invalid value 'abc' for 'test/int' (an integer is expected"},
    {"test/int:", "invalid value '' for 'test/int' (an integer is expected"},
    {"test/int:12abc", "invalid value '12abc' for 'test/int'"},
    {"test/int:1.5", "an integer is expected"},
    {"test/int:0x10", "an integer is expected"},
    {"test/int:5kk", "an integer is expected"},
    {"test/int:5T", "an integer is expected"},
    {"test/int:-", "an integer is expected"},
    {"test/int:+", "an integer is expected"},
    {"test/int::5", "invalid value ':5' for 'test/int'"},
    {"test/int:99999999999999999999", "out of the range of an integer"},
    {"test/int:-99999999999999999999", "out of the range of an integer"},
    {"test/int:9000000000000000G", "out of the range of an integer"},
    /* a size or a count (CFG_KEY_UINT) */
    {"test/size:-5", "invalid value '-5' for 'test/size' (an integer >= 0 is expected"},
    {"test/size:-1k", "invalid value '-1k' for 'test/size' (an integer >= 0 is expected"},
    {"test/size:-99999999999999999999", "out of the range of an integer"},
    {"test/size:abc", "an integer is expected"},
    {"test/double:abc", "invalid value 'abc' for 'test/double' (a number is expected)"},
    {"test/double:", "a number is expected"},
    {"test/double:1.5x", "a number is expected"},
    {"test/double:1.5.2", "a number is expected"},
    {"test/double:nan", "a finite number is expected"},
    {"test/double:NaN", "a finite number is expected"},
    {"test/double:inf", "a finite number is expected"},
    {"test/double:-Infinity", "a finite number is expected"},
    {"test/double:1e999", "a finite number is expected"},
    {"test/bool:maybe", "invalid value 'maybe' for 'test/bool' (a boolean is expected"},
    {"test/bool:2", "a boolean is expected"},
    {"test/bool:", "a boolean is expected"},
    {"test/bool:yess", "a boolean is expected"},
    {"test/factory:fiber", "invalid value 'fiber' for 'test/factory' (one of: raw, ucontext)"},
    {"test/factory:RAW", "(one of: raw, ucontext)"},
    {"test/factory:", "(one of: raw, ucontext)"},
    /* atomicity: the good first setting must not be applied */
    {"test/int:5 test/itn:6", "unknown configuration key 'test/itn'"},
    {"test/int:5 test/double:x", "invalid value 'x' for 'test/double'"},
};
#define N_BAD (int)(sizeof bad_cases / sizeof bad_cases[0])

START_TEST(cfg_bad_settings)
{
  const bad_case *bc = &bad_cases[_i];
  char err[256] = "";
  ck_assert_int_eq(cfg_parse(bc->setting, CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_msg(strstr(err, bc->expect), "setting '%s': error '%s' lacks '%s'", bc->setting, err,
                bc->expect);
  /* nothing changed */
  ck_assert_int_eq(cfg_get_int("test/int"), 10);
  ck_assert(cfg_is_default("test/int"));
  ck_assert_double_eq(cfg_get_double("test/double"), 0.5);
  ck_assert(!cfg_get_bool("test/bool"));
  ck_assert_str_eq(cfg_get_string("test/factory"), "raw");
}
END_TEST

START_TEST(cfg_bad_direct_set)
{
  char err[256] = "";
  /* cfg_set takes the value verbatim: blanks are not trimmed */
  ck_assert_int_eq(cfg_set("test/int", " 5", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "an integer is expected"));
  ck_assert_int_eq(cfg_set("test/double", " 1", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_set("test/int", "5 ", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_set("", "5", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "empty configuration key"));
  ck_assert_int_eq(cfg_set(NULL, "5", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_set("test/int", NULL, CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_set("nope", "5", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "unknown configuration key 'nope'"));
  /* a NULL buffer is allowed */
  ck_assert_int_eq(cfg_parse("nope:1", CFG_ORIGIN_CMDLINE, NULL, 0), -1);
  /* a tiny buffer is truncated, not overflowed */
  char tiny[8];
  memset(tiny, 'x', sizeof tiny);
  ck_assert_int_eq(cfg_parse("nope:1", CFG_ORIGIN_CMDLINE, tiny, 4), -1);
  ck_assert_int_eq(tiny[3], '\0');
  ck_assert_int_eq(tiny[4], 'x');
  /* a malformed value is an error even from an origin that would be ignored */
  ck_assert_int_eq(cfg_set("test/int", "1", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("test/int", "zz", CFG_ORIGIN_CODE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_get_int("test/int"), 1);
}
END_TEST

START_TEST(cfg_suggestions)
{
  char err[256];
  /* suffix with the prefix missing */
  ck_assert_int_eq(cfg_parse("factory:raw", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_str_eq(err, "unknown configuration key 'factory' (did you mean 'test/factory'?)");
  /* several near misses, closest first, at most three */
  static const cfg_key near[] = {
      CFG_KEY_INT("test/a1", 0, ""),
      CFG_KEY_INT("test/a2", 0, ""),
      CFG_KEY_INT("test/a3", 0, ""),
      CFG_KEY_INT("test/a4", 0, ""),
  };
  cfg_declare_keys(near, CFG_NKEYS(near));
  ck_assert_int_eq(cfg_parse("test/a:1", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_str_eq(err,
                   "unknown configuration key 'test/a' (did you mean 'test/a1', 'test/a2' or "
                   "'test/a3'?)");
  ck_assert_int_eq(cfg_parse("test/sise:1", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "did you mean 'test/size'"));
  /* an alias is a valid spelling, not an unknown key */
  ck_assert_int_eq(cfg_parse("test/old-int:3", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
}
END_TEST

START_TEST(cfg_good_values)
{
  char err[256] = "";
  static const struct {
    const char *text;
    long v;
  } ints[] = {{"0", 0},         {"-3", -3},
              {"+7", 7},        {"64k", 65536},
              {"64K", 65536},   {"2M", 2L << 20},
              {"1G", 1L << 30}, {"-2k", -2048},
              {"007", 7},       {"9223372036854775807", 9223372036854775807L}};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    ck_assert_msg(cfg_set("test/int", ints[i].text, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0,
                  "%s: %s", ints[i].text, err);
    ck_assert_int_eq(cfg_get_int("test/int"), ints[i].v);
  }
  static const struct {
    const char *text;
    double v;
  } dbls[] = {{"1e-3", 1e-3}, {"-2.5", -2.5}, {".5", 0.5}, {"3", 3.0}, {"1E6", 1e6}};
  for (size_t i = 0; i < sizeof dbls / sizeof dbls[0]; i++) {
    ck_assert_int_eq(cfg_set("test/double", dbls[i].text, CFG_ORIGIN_CMDLINE, err, sizeof err),
                     0);
    ck_assert_double_eq(cfg_get_double("test/double"), dbls[i].v);
  }
  static const struct {
    const char *text;
    bool v;
  } bools[] = {{"YES", true}, {"no", false}, {"On", true},   {"off", false},
               {"1", true},   {"0", false},  {"True", true}, {"FALSE", false}};
  for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
    ck_assert_int_eq(cfg_set("test/bool", bools[i].text, CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
    ck_assert_int_eq(cfg_get_bool("test/bool"), bools[i].v);
  }
  /* a non-negative key takes 0 and up, from any origin; below 0 from none */
  ck_assert_int_eq(cfg_set("test/size", "0", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/size"), 0);
  ck_assert_int_eq(cfg_set("test/size", "+2k", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/size"), 2048);
  ck_assert_int_eq(cfg_set("test/size", "-1", CFG_ORIGIN_PLATFORM, err, sizeof err), -1);
  ck_assert_int_eq(cfg_set("test/size", "-1", CFG_ORIGIN_CODE, err, sizeof err), -1);
  ck_assert_int_eq(cfg_get_int("test/size"), 2048);
  ck_assert_int_eq(cfg_set("test/factory", "ucontext", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_str_eq(cfg_get_string("test/factory"), "ucontext");
  ck_assert_int_eq(cfg_set("test/str", "", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_str_eq(cfg_get_string("test/str"), "");
}
END_TEST

START_TEST(cfg_value_with_colons)
{
  char err[256] = "";
  ck_assert_int_eq(cfg_parse("test/bw-factor:65472:0.940694;15424:0.697866", CFG_ORIGIN_CMDLINE,
                             err, sizeof err),
                   0);
  ck_assert_str_eq(cfg_get_string("test/bw-factor"), "65472:0.940694;15424:0.697866");
  ck_assert_int_eq(cfg_parse("test/str::", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_str_eq(cfg_get_string("test/str"), ":");
  ck_assert_int_eq(cfg_parse("test/str:", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_str_eq(cfg_get_string("test/str"), "");
}
END_TEST

START_TEST(cfg_several_settings)
{
  char err[256] = "";
  ck_assert_int_eq(cfg_parse("  test/int:4   test/bool:yes\ttest/factory:ucontext test/size:1k ",
                             CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  ck_assert_int_eq(cfg_get_int("test/int"), 4);
  ck_assert(cfg_get_bool("test/bool"));
  ck_assert_str_eq(cfg_get_string("test/factory"), "ucontext");
  ck_assert_int_eq(cfg_get_int("test/size"), 1024);
  /* the same key twice: the last one wins */
  ck_assert_int_eq(cfg_parse("test/int:1 test/int:2", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 2);
}
END_TEST

START_TEST(cfg_origin_priority)
{
  char err[256] = "";
  ck_assert(cfg_is_default("test/int"));
  ck_assert_int_eq(cfg_get_origin("test/int"), CFG_ORIGIN_DEFAULT);
  ck_assert_int_eq(cfg_set("test/int", "1", CFG_ORIGIN_CODE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 1);
  ck_assert_int_eq(cfg_get_origin("test/int"), CFG_ORIGIN_CODE);
  ck_assert(!cfg_is_default("test/int"));
  ck_assert_int_eq(cfg_set("test/int", "2", CFG_ORIGIN_PLATFORM, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 2);
  ck_assert_int_eq(cfg_set("test/int", "3", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 3);
  /* lower priorities are ignored without an error */
  ck_assert_int_eq(cfg_set("test/int", "4", CFG_ORIGIN_PLATFORM, err, sizeof err), 0);
  ck_assert_int_eq(cfg_parse("test/int:5", CFG_ORIGIN_CODE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 3);
  ck_assert_int_eq(cfg_get_origin("test/int"), CFG_ORIGIN_CMDLINE);
  /* the same priority overrides */
  ck_assert_int_eq(cfg_parse("test/int:6", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 6);
  /* a platform file after the command line: per key */
  ck_assert_int_eq(cfg_parse("test/int:7 test/double:2", CFG_ORIGIN_PLATFORM, err, sizeof err),
                   0);
  ck_assert_int_eq(cfg_get_int("test/int"), 6);
  ck_assert_double_eq(cfg_get_double("test/double"), 2.0);
  ck_assert_int_eq(cfg_get_origin("test/double"), CFG_ORIGIN_PLATFORM);
}
END_TEST

START_TEST(cfg_alias_resolves)
{
  char err[256] = "";
  ck_assert(cfg_is_declared("test/old-int"));
  ck_assert_int_eq(cfg_parse("test/old-int:42", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 42);
  ck_assert_int_eq(cfg_get_int("test/old-int"), 42);
  ck_assert_int_eq(cfg_get_origin("test/int"), CFG_ORIGIN_CMDLINE);
  /* priority is per key, whatever the spelling */
  ck_assert_int_eq(cfg_set("test/int", "1", CFG_ORIGIN_PLATFORM, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/old-int"), 42);
  cfg_alias("test/old-int", "test/int"); /* twice is fine */
}
END_TEST

static int hook_calls;
static char hook_key[64];
static void count_hook(const char *key, void *data)
{
  hook_calls++;
  snprintf(hook_key, sizeof hook_key, "%s", key);
  *(long *)data = cfg_get_int(key);
}

START_TEST(cfg_hooks)
{
  char err[256] = "";
  long cached = cfg_get_int("test/int");
  cfg_on_change("test/int", count_hook, &cached);
  ck_assert_int_eq(hook_calls, 0); /* registering does not call */
  ck_assert_int_eq(cfg_set("test/int", "5", CFG_ORIGIN_CODE, err, sizeof err), 0);
  ck_assert_int_eq(hook_calls, 1);
  ck_assert_int_eq(cached, 5);
  ck_assert_str_eq(hook_key, "test/int");
  ck_assert_int_eq(cfg_set("test/int", "5", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(hook_calls, 1); /* same value: no change */
  ck_assert_int_eq(cfg_set("test/int", "6", CFG_ORIGIN_PLATFORM, err, sizeof err), 0);
  ck_assert_int_eq(hook_calls, 1); /* ignored: lower priority */
  ck_assert_int_eq(cfg_set("test/int", "zz", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(hook_calls, 1); /* error */
  ck_assert_int_eq(cfg_parse("test/int:8 test/itn:1", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_int_eq(hook_calls, 1); /* rejected string: nothing applied */
  ck_assert_int_eq(cfg_parse("test/old-int:7 test/bool:yes", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  ck_assert_int_eq(hook_calls, 2);
  ck_assert_str_eq(hook_key, "test/int"); /* canonical name, not the alias */
  ck_assert_int_eq(cached, 7);
  cfg_reset(); /* back to 10: caches must follow */
  ck_assert_int_eq(hook_calls, 3);
  ck_assert_int_eq(cached, 10);
  cfg_reset(); /* already default: no change */
  ck_assert_int_eq(hook_calls, 3);
}
END_TEST

START_TEST(cfg_reset_restores)
{
  char err[256] = "";
  ck_assert_int_eq(
      cfg_parse("test/int:1 test/double:7 test/bool:on test/str:zz test/factory:ucontext",
                CFG_ORIGIN_CMDLINE, err, sizeof err),
      0);
  cfg_reset();
  ck_assert_int_eq(cfg_get_int("test/int"), 10);
  ck_assert_double_eq(cfg_get_double("test/double"), 0.5);
  ck_assert(!cfg_get_bool("test/bool"));
  ck_assert_str_eq(cfg_get_string("test/str"), "abc");
  ck_assert_str_eq(cfg_get_string("test/factory"), "raw");
  ck_assert(cfg_is_default("test/int"));
  ck_assert(cfg_is_declared("test/int"));
  /* after a reset, low priorities may set again */
  ck_assert_int_eq(cfg_set("test/int", "2", CFG_ORIGIN_CODE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_get_int("test/int"), 2);
}
END_TEST

START_TEST(cfg_redeclare_same_key)
{
  char err[256] = "";
  ck_assert_int_eq(cfg_set("test/int", "3", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("test/str", "x", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  /* a whole table again (a module's declare function called twice) changes nothing */
  cfg_declare_keys(test_keys, CFG_NKEYS(test_keys));
  ck_assert_int_eq(cfg_get_int("test/int"), 3);
  ck_assert_str_eq(cfg_get_string("test/str"), "x");
  ck_assert_int_eq(cfg_get_origin("test/int"), CFG_ORIGIN_CMDLINE);
  /* so does the same key in another table, even with another description: the first stays */
  static const cfg_key other[] = {
      CFG_KEY_INT("test/int", 10, "another description"),
      CFG_KEY_STRING("test/factory", "raw", "raw|ucontext", ""),
      CFG_KEY_INT("test/new", 7, "a key of the second table"),
  };
  cfg_declare_keys(other, CFG_NKEYS(other));
  ck_assert_int_eq(cfg_get_int("test/int"), 3);
  ck_assert_int_eq(cfg_get_int("test/new"), 7);
  cfg_declare_keys(NULL, 0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cfg_help(f);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "      an integer\n"));
  ck_assert_ptr_null(strstr(buf, "another description"));
  free(buf);
  cfg_reset();
  ck_assert_int_eq(cfg_get_int("test/int"), 10);
}
END_TEST

/* A table built at run time (collectives/coll.c: choices from its algorithm list): the
 * registry keeps its own copies of the strings. */
START_TEST(cfg_table_built_at_run_time)
{
  char err[256] = "";
  cfg_key keys[2];
  for (int i = 0; i < 2; i++)
    keys[i] = (cfg_key)CFG_KEY_STRING(xasprintf("test/built%d", i), xasprintf("v%d", i),
                                      xasprintf("v%d|w", i), xasprintf("built key %d", i));
  cfg_declare_keys(keys, 2);
  for (int i = 0; i < 2; i++) {
    /* scribble before freeing: a kept pointer would show the damage */
    char *strs[4] = {(char *)keys[i].name, (char *)keys[i].def.s, (char *)keys[i].choices,
                     (char *)keys[i].desc};
    for (int j = 0; j < 4; j++) {
      memset(strs[j], 'x', strlen(strs[j]));
      free(strs[j]);
    }
  }
  ck_assert_str_eq(cfg_get_string("test/built1"), "v1");
  ck_assert_int_eq(cfg_set("test/built0", "w", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("test/built0", "v1", CFG_ORIGIN_CMDLINE, err, sizeof err), -1);
  ck_assert_str_eq(err, "invalid value 'v1' for 'test/built0' (one of: v0, w)");
  cfg_reset();
  ck_assert_str_eq(cfg_get_string("test/built0"), "v0");
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cfg_help(f);
  fclose(f);
  ck_assert_ptr_nonnull(
      strstr(buf, "  test/built1 (string: v1|w, default: 'v1')\n      built key 1\n"));
  free(buf);
}
END_TEST

START_TEST(cfg_help_lists_everything)
{
  char err[256] = "";
  ck_assert_int_eq(cfg_parse("test/size:1k test/double:0.25", CFG_ORIGIN_CMDLINE, err,
                             sizeof err),
                   0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cfg_help(f);
  fclose(f);
  static const char *const names[] = {"test/bool",    "test/bw-factor", "test/double",
                                      "test/factory", "test/int",       "test/size",
                                      "test/str"};
  const char *prev = buf;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char pat[64];
    snprintf(pat, sizeof pat, "  %s (", names[i]);
    const char *at = strstr(buf, pat);
    ck_assert_msg(at != NULL, "'%s' missing from help:\n%s", names[i], buf);
    ck_assert_msg(at >= prev, "'%s' out of order in help:\n%s", names[i], buf);
    prev = at;
  }
  ck_assert_ptr_nonnull(strstr(buf, "  test/int (int, default: 10)\n"));
  ck_assert_ptr_nonnull(strstr(buf, "      alias: test/old-int\n"));
  ck_assert_ptr_nonnull(strstr(buf, "      an integer\n"));
  ck_assert_ptr_nonnull(
      strstr(buf,
             "  test/size (int >= 0, default: 8388608, current: 1024 from the command line)\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  test/double (double, default: 0.5, current: 0.25"));
  ck_assert_ptr_nonnull(strstr(buf, "  test/bool (bool, default: no)\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  test/factory (string: raw|ucontext, default: 'raw')\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  test/str (string, default: 'abc')\n"));
  free(buf);
}
END_TEST

START_TEST(cfg_edit_distances)
{
  ck_assert_uint_eq(cfg_edit_distance("kitten", "sitting"), 3);
  ck_assert_uint_eq(cfg_edit_distance("", "abc"), 3);
  ck_assert_uint_eq(cfg_edit_distance("abc", ""), 3);
  ck_assert_uint_eq(cfg_edit_distance("same", "same"), 0);
  ck_assert_uint_eq(cfg_edit_distance("flaw", "lawn"), 2);
  /* longer than the on-stack rows */
  char a[201], b[201];
  memset(a, 'a', 200);
  memset(b, 'a', 200);
  a[200] = b[200] = '\0';
  b[10] = 'b';
  b[150] = 'c';
  ck_assert_uint_eq(cfg_edit_distance(a, b), 2);
  ck_assert_uint_eq(cfg_edit_distance(a, "aa"), 198);
}
END_TEST

/* programming errors abort */
START_TEST(cfg_die_undeclared_get)
{
  quiet_stderr();
  (void)cfg_get_int("test/nothing");
}
END_TEST
START_TEST(cfg_die_wrong_type_get)
{
  quiet_stderr();
  (void)cfg_get_double("test/int");
}
END_TEST
START_TEST(cfg_die_redeclare_other_type)
{
  quiet_stderr();
  static const cfg_key k[] = {CFG_KEY_DOUBLE("test/int", 10.0, "an integer")};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST
/* Two modules that disagree on a key's default (or choices): whichever declared first would
 * win, silently. The registry refuses, whatever the types. */
static const cfg_key other_defaults[] = {
    CFG_KEY_INT("test/int", 11, "an integer"),
    CFG_KEY_DOUBLE("test/double", 0.25, "a real"),
    CFG_KEY_BOOL("test/bool", true, "a flag"),
    CFG_KEY_STRING("test/str", "abd", NULL, "free text"),
    CFG_KEY_STRING("test/factory", "raw", "raw|fiber", "a choice"),
    CFG_KEY_STRING("test/bw-factor", "1", "1|2", "piecewise factors"),
    CFG_KEY_INT("test/old-int", 10, "an alias declared as a key"),
    CFG_KEY_INT("test/size", 8L << 20, "a size in bytes, declared signed"),
};
START_TEST(cfg_die_redeclare_other_default)
{
  quiet_stderr();
  cfg_declare_keys(&other_defaults[_i], 1);
}
END_TEST
START_TEST(cfg_die_choices_not_string)
{
  quiet_stderr();
  static const cfg_key k[] = {{.type = CFG_INT, .name = "test/c", .choices = "1|2"}};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST
START_TEST(cfg_die_negative_default_uint)
{
  quiet_stderr();
  static const cfg_key k[] = {CFG_KEY_UINT("test/neg", -1, "")};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST
START_TEST(cfg_die_non_negative_double)
{
  quiet_stderr();
  static const cfg_key k[] = {
      {.type = CFG_DOUBLE, .name = "test/nnd", .def = {.d = 1.0}, .non_negative = true}};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST
START_TEST(cfg_die_null_string_default)
{
  quiet_stderr();
  static const cfg_key k[] = {CFG_KEY_STRING("test/nul", NULL, NULL, "")};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST
START_TEST(cfg_die_alias_of_undeclared)
{
  quiet_stderr();
  cfg_alias("test/x", "test/undeclared");
}
END_TEST
START_TEST(cfg_die_bad_default_choice)
{
  quiet_stderr();
  static const cfg_key k[] = {CFG_KEY_STRING("test/choice2", "c", "a|b", "")};
  cfg_declare_keys(k, CFG_NKEYS(k));
}
END_TEST

static Suite *cfg_suite(void)
{
  Suite *s = suite_create("cfg");
  TCase *tc = tcase_create("parse");
  tcase_add_checked_fixture(tc, cfg_setup, NULL);
  tcase_add_loop_test(tc, cfg_bad_settings, 0, N_BAD);
  tcase_add_test(tc, cfg_bad_direct_set);
  tcase_add_test(tc, cfg_suggestions);
  tcase_add_test(tc, cfg_good_values);
  tcase_add_test(tc, cfg_value_with_colons);
  tcase_add_test(tc, cfg_several_settings);
  tcase_add_test(tc, cfg_origin_priority);
  tcase_add_test(tc, cfg_alias_resolves);
  tcase_add_test(tc, cfg_hooks);
  tcase_add_test(tc, cfg_reset_restores);
  tcase_add_test(tc, cfg_redeclare_same_key);
  tcase_add_test(tc, cfg_table_built_at_run_time);
  tcase_add_test(tc, cfg_help_lists_everything);
  tcase_add_test(tc, cfg_edit_distances);
  suite_add_tcase(s, tc);
  TCase *die = tcase_create("abort");
  tcase_add_checked_fixture(die, cfg_setup, NULL);
  tcase_add_test_raise_signal(die, cfg_die_undeclared_get, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_wrong_type_get, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_redeclare_other_type, SIGABRT);
  tcase_add_loop_test_raise_signal(die, cfg_die_redeclare_other_default, SIGABRT, 0,
                                   (int)CFG_NKEYS(other_defaults));
  tcase_add_test_raise_signal(die, cfg_die_choices_not_string, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_null_string_default, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_negative_default_uint, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_non_negative_double, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_alias_of_undeclared, SIGABRT);
  tcase_add_test_raise_signal(die, cfg_die_bad_default_choice, SIGABRT);
  suite_add_tcase(s, die);
  return s;
}

/* ======================================================================================
 * log
 * ====================================================================================== */

LOG_NEW_CATEGORY(tst, "test parent");
LOG_NEW_SUBCATEGORY(tst_a, tst, "test child");
LOG_NEW_SUBCATEGORY(tst_b, tst_a, "test grandchild");
LOG_NEW_SUBCATEGORY(tst_c, tst, "test second child");
LOG_DEFAULT_CATEGORY(tst_a);

static char *out_buf;
static size_t out_len;
static FILE *out_stream;

static void log_setup(void)
{
  out_stream = open_memstream(&out_buf, &out_len);
  log_set_stream(out_stream);
}
static void log_teardown(void)
{
  log_set_stream(NULL);
  fclose(out_stream);
  free(out_buf);
  out_buf = NULL;
}
static const char *captured(void)
{
  fflush(out_stream);
  return out_buf;
}

START_TEST(log_registry)
{
  ck_assert(log_cat_root.registered);
  ck_assert(log_cat_tst_b.registered);
  ck_assert_ptr_eq(log_category_find("root"), &log_cat_root);
  ck_assert_ptr_eq(log_category_find("tst_b"), &log_cat_tst_b);
  ck_assert_ptr_null(log_category_find("tst_zz"));
  ck_assert_ptr_eq(log_cat_tst_b.parent, &log_cat_tst_a);
  ck_assert_int_eq(log_cat_root.threshold, LOG_LVL_INFO);
  ck_assert_int_eq(log_cat_tst_b.threshold, LOG_LVL_INFO);
  log_category_register(&log_cat_tst_b); /* idempotent */
  ck_assert_ptr_eq(log_category_find("tst_b"), &log_cat_tst_b);
  ck_assert_str_eq(log_level_name(LOG_LVL_WARNING), "WARNING");
  ck_assert_str_eq(log_level_name(LOG_LVL_TRACE), "TRACE");
  ck_assert_str_eq(log_level_name(LOG_LVL_OFF), "OFF");
}
END_TEST

START_TEST(log_inheritance)
{
  char err[256] = "";
  ck_assert_int_eq(log_parse_setting("tst.thresh:debug", err, sizeof err), 0);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_DEBUG);
  ck_assert_int_eq(log_cat_tst_a.threshold, LOG_LVL_DEBUG);
  ck_assert_int_eq(log_cat_tst_b.threshold, LOG_LVL_DEBUG);
  ck_assert_int_eq(log_cat_tst_c.threshold, LOG_LVL_DEBUG);
  ck_assert_int_eq(log_cat_root.threshold, LOG_LVL_INFO);
  ck_assert_int_eq(log_parse_setting("tst_a.threshold:ERROR", err, sizeof err), 0);
  ck_assert_int_eq(log_cat_tst_a.threshold, LOG_LVL_ERROR);
  ck_assert_int_eq(log_cat_tst_b.threshold, LOG_LVL_ERROR);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_DEBUG);
  /* a parent change does not override a child's own threshold */
  ck_assert_int_eq(log_parse_setting("tst.thres:Warn", err, sizeof err), 0);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_WARNING);
  ck_assert_int_eq(log_cat_tst_c.threshold, LOG_LVL_WARNING);
  ck_assert_int_eq(log_cat_tst_a.threshold, LOG_LVL_ERROR);
  ck_assert_int_eq(log_cat_tst_b.threshold, LOG_LVL_ERROR);
  /* the root reaches everything that inherits */
  log_set_threshold(&log_cat_root, LOG_LVL_OFF);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_WARNING);
  ck_assert_int_eq(log_cat_root.threshold, LOG_LVL_OFF);
  ck_assert_int_eq(log_parse_setting("root.thresh:trace tst.thresh:critical tst_b.thresh:verbose",
                                     err, sizeof err),
                   0);
  ck_assert_int_eq(log_cat_root.threshold, LOG_LVL_TRACE);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_CRITICAL);
  ck_assert_int_eq(log_cat_tst_c.threshold, LOG_LVL_CRITICAL);
  ck_assert_int_eq(log_cat_tst_a.threshold, LOG_LVL_ERROR);
  ck_assert_int_eq(log_cat_tst_b.threshold, LOG_LVL_VERBOSE);
}
END_TEST

static const bad_case log_bad_cases[] = {
    {"tsst.thresh:debug", "unknown log category 'tsst' (closest known categories: 'tst'"},
    {"tst.thresh:loud",
     "invalid log level 'loud' in 'tst.thresh:loud' (valid levels: trace, debug, "
     "verbose, info, warning, error, critical, off)"},
    {"tst.thresh:", "invalid log level ''"},
    {"tst:debug", "invalid log setting 'tst:debug' (expected <category>.thresh:<level>"},
    {"tst.thresh", "invalid log setting 'tst.thresh'"},
    {".thresh:debug", "invalid log setting '.thresh:debug'"},
    {"tst.fmt:debug", "unsupported property 'fmt'"},
    {"tst.thresholds:debug", "unsupported property 'thresholds'"},
    {"", "empty log setting"},
    {"  ", "empty log setting"},
    {"tst.thresh:debug tst_a.thresh:bad", "invalid log level 'bad'"},
};

START_TEST(log_bad_settings)
{
  const bad_case *bc = &log_bad_cases[_i];
  char err[256] = "";
  ck_assert_int_eq(log_parse_setting(bc->setting, err, sizeof err), -1);
  ck_assert_msg(strstr(err, bc->expect), "setting '%s': error '%s' lacks '%s'", bc->setting, err,
                bc->expect);
  ck_assert_int_eq(log_cat_tst.threshold, LOG_LVL_INFO); /* nothing applied */
  ck_assert_int_eq(log_cat_tst.own_threshold, 0);
}
END_TEST

/* A category that registers after the setting that names it (as a late-loaded module's). */
static log_category late_cat = {"tst_late", "registered late", &log_cat_tst, NULL,
                                0,          LOG_LVL_INFO,      false};

START_TEST(log_pending_setting)
{
  char err[256] = "";
  ck_assert_int_eq(log_parse_setting("tst_late.thresh:trace tst_c.thresh:error", err, sizeof err),
                   -1);
  ck_assert_ptr_nonnull(strstr(err, "unknown log category 'tst_late'"));
  ck_assert_int_eq(log_cat_tst_c.threshold, LOG_LVL_ERROR); /* the known one is applied */
  log_category_register(&late_cat);
  ck_assert_int_eq(late_cat.threshold, LOG_LVL_TRACE);
  ck_assert_ptr_eq(log_category_find("tst_late"), &late_cat);
}
END_TEST

static double fake_now(void) { return 1.5; }

START_TEST(log_output_format)
{
  LOG_CINFO(tst, "x=%d", 42);
  LOG_CDEBUG(tst, "hidden");
  LOG_WARN("from the default category");
  ck_assert(!LOG_IS_ENABLED(DEBUG));
  ck_assert(LOG_IS_ENABLED(INFO));
  ck_assert_str_eq(captured(), "[tst/INFO] x=42\n[tst_a/WARNING] from the default category\n");
  log_set_clock(fake_now);
  log_set_threshold(&log_cat_tst_b, LOG_LVL_TRACE);
  LOG_CTRACE(tst_b, "t");
  LOG_CERROR(tst_b, "e");
  log_set_clock(NULL);
  LOG_CCRITICAL(tst_c, "c");
  ck_assert_str_eq(captured(), "[tst/INFO] x=42\n[tst_a/WARNING] from the default category\n"
                               "[1.500000] [tst_b/TRACE] t\n[1.500000] [tst_b/ERROR] e\n"
                               "[tst_c/CRITICAL] c\n");
}
END_TEST

START_TEST(log_long_message)
{
  char big[3000];
  memset(big, 'q', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  LOG_CERROR(tst, "<%s>", big);
  const char *out = captured();
  ck_assert_uint_eq(strlen(out), strlen("[tst/ERROR] <>\n") + sizeof big - 1);
  ck_assert(!strncmp(out, "[tst/ERROR] <qqq", 16));
  ck_assert_str_eq(out + strlen(out) - 3, "q>\n");
}
END_TEST

START_TEST(log_off_disables_all)
{
  log_set_threshold(&log_cat_tst, LOG_LVL_OFF);
  LOG_CCRITICAL(tst, "no");
  LOG_CCRITICAL(tst_b, "no");
  ck_assert_uint_eq(out_len, 0);
  ck_assert_str_eq(captured() ? captured() : "", "");
}
END_TEST

START_TEST(log_tree_listing)
{
  log_set_threshold(&log_cat_tst_a, LOG_LVL_DEBUG);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  log_list_categories(f);
  fclose(f);
  const char *root = strstr(buf, "\nroot ");
  const char *t = strstr(buf, "\n  tst ");
  const char *a = strstr(buf, "\n    tst_a ");
  const char *b = strstr(buf, "\n      tst_b ");
  const char *c = strstr(buf, "\n    tst_c ");
  ck_assert_msg(root && t && a && b && c, "tree listing:\n%s", buf);
  ck_assert(root < t && t < a && a < b && b < c);
  ck_assert_ptr_nonnull(strstr(a, "debug    test child\n"));
  ck_assert_ptr_nonnull(strstr(t, "info     test parent (inherited threshold)\n"));
  free(buf);
}
END_TEST

static Suite *log_suite(void)
{
  Suite *s = suite_create("log");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, log_setup, log_teardown);
  tcase_add_test(tc, log_registry);
  tcase_add_test(tc, log_inheritance);
  tcase_add_loop_test(tc, log_bad_settings, 0,
                      (int)(sizeof log_bad_cases / sizeof log_bad_cases[0]));
  tcase_add_test(tc, log_pending_setting);
  tcase_add_test(tc, log_output_format);
  tcase_add_test(tc, log_long_message);
  tcase_add_test(tc, log_off_disables_all);
  tcase_add_test(tc, log_tree_listing);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * heap
 * ====================================================================================== */

typedef struct item {
  heap_node hn;
  int id;
  bool in;        /* reference model: is it in the heap? */
  double key;     /* reference model */
  uint64_t order; /* reference model: push order */
} item;

#define NODE_ITEM(n) container_of(n, item, hn)

static void heap_check_shape(const heap *h)
{
  for (size_t i = 0; i < h->size; i++) {
    ck_assert_uint_eq(h->items[i]->index, i);
    if (i) {
      const heap_node *p = h->items[(i - 1) / 2], *c = h->items[i];
      ck_assert(p->key < c->key || (p->key == c->key && p->seq < c->seq));
    }
  }
}

START_TEST(heap_basic)
{
  heap h;
  heap_init(&h);
  ck_assert_ptr_null(heap_pop(&h));
  ck_assert_ptr_null(heap_top(&h));
  ck_assert_double_eq(heap_top_key(&h), -1.0);
  item it[5];
  double keys[5] = {3, 1, 4, 1.5, 9};
  for (int i = 0; i < 5; i++) {
    heap_node_init(&it[i].hn);
    it[i].id = i;
    ck_assert(!heap_contains(&it[i].hn));
    heap_push(&h, &it[i].hn, keys[i]);
    ck_assert(heap_contains(&it[i].hn));
  }
  ck_assert_uint_eq(heap_size(&h), 5);
  ck_assert_double_eq(heap_top_key(&h), 1.0);
  heap_update(&h, &it[4].hn, 0.5); /* decrease to the top */
  ck_assert_ptr_eq(heap_top(&h), &it[4].hn);
  heap_update(&h, &it[4].hn, 10); /* increase to the bottom */
  heap_remove(&h, &it[0].hn);
  ck_assert(!heap_contains(&it[0].hn));
  heap_remove(&h, &it[0].hn); /* no-op */
  ck_assert_uint_eq(heap_size(&h), 4);
  int expect[] = {1, 3, 2, 4};
  for (int i = 0; i < 4; i++) {
    heap_node *n = heap_pop(&h);
    ck_assert_int_eq(NODE_ITEM(n)->id, expect[i]);
    ck_assert(!heap_contains(n));
  }
  ck_assert_ptr_null(heap_pop(&h));
  heap_set(&h, &it[0].hn, 2); /* push */
  heap_set(&h, &it[0].hn, 1); /* update */
  ck_assert_uint_eq(heap_size(&h), 1);
  ck_assert_double_eq(heap_top_key(&h), 1.0);
  heap_destroy(&h);
  ck_assert_uint_eq(heap_size(&h), 0);
}
END_TEST

START_TEST(heap_ties)
{
  heap h;
  heap_init(&h);
  item it[6];
  for (int i = 0; i < 6; i++) {
    heap_node_init(&it[i].hn);
    it[i].id = i;
    heap_push(&h, &it[i].hn, 7.0);
  }
  /* re-keying away and back keeps the original sequence number */
  heap_update(&h, &it[0].hn, 100);
  heap_update(&h, &it[0].hn, 7.0);
  heap_update(&h, &it[3].hn, -1);
  heap_update(&h, &it[3].hn, 7.0);
  int expect[] = {0, 1, 2, 3, 4, 5};
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq(NODE_ITEM(heap_pop(&h))->id, expect[i]);
  /* a node pushed again goes after the nodes already present at the same key */
  heap_push(&h, &it[0].hn, 1);
  heap_push(&h, &it[1].hn, 1);
  ck_assert_int_eq(NODE_ITEM(heap_pop(&h))->id, 0);
  heap_push(&h, &it[0].hn, 1);
  ck_assert_int_eq(NODE_ITEM(heap_pop(&h))->id, 1);
  ck_assert_int_eq(NODE_ITEM(heap_pop(&h))->id, 0);
  heap_destroy(&h);
}
END_TEST

static uint64_t rng_state;
static uint64_t rng(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Reference: the item with the smallest (key, push order) among those in the heap. */
static item *ref_min(item *it, int n)
{
  item *best = NULL;
  for (int i = 0; i < n; i++)
    if (it[i].in &&
        (!best || it[i].key < best->key || (it[i].key == best->key && it[i].order < best->order)))
      best = &it[i];
  return best;
}

START_TEST(heap_random_vs_reference)
{
  enum { N = 300, OPS = 10000 };
  static item it[N];
  heap h;
  heap_init(&h);
  rng_state = 0x9E3779B97F4A7C15ULL + (uint64_t)_i;
  uint64_t order = 0;
  size_t in_count = 0;
  for (int i = 0; i < N; i++) {
    heap_node_init(&it[i].hn);
    it[i].id = i;
    it[i].in = false;
  }
  int counts[4] = {0};
  for (int op = 0; op < OPS; op++) {
    item *x = &it[rng() % N];
    /* few distinct keys, so that ties are frequent */
    double key = (double)(rng() % 50) * 0.25;
    int kind = (int)(rng() % 4);
    counts[kind]++;
    switch (kind) {
    case 0: /* push or update */
      if (!x->in) {
        heap_push(&h, &x->hn, key);
        x->in = true;
        x->order = order++;
        in_count++;
      } else {
        heap_update(&h, &x->hn, key);
      }
      x->key = key;
      break;
    case 1: { /* pop */
      item *want = ref_min(it, N);
      heap_node *got = heap_pop(&h);
      if (!want) {
        ck_assert_ptr_null(got);
      } else {
        ck_assert_ptr_nonnull(got);
        ck_assert_int_eq(NODE_ITEM(got)->id, want->id);
        ck_assert(!heap_contains(got));
        want->in = false;
        in_count--;
      }
      break;
    }
    case 2: /* remove (possibly a node not in the heap) */
      heap_remove(&h, &x->hn);
      ck_assert(!heap_contains(&x->hn));
      if (x->in)
        in_count--;
      x->in = false;
      break;
    case 3: /* heap_set */
      heap_set(&h, &x->hn, key);
      if (!x->in) {
        x->in = true;
        x->order = order++;
        in_count++;
      }
      x->key = key;
      break;
    }
    ck_assert_uint_eq(heap_size(&h), in_count);
    item *want = ref_min(it, N);
    ck_assert_ptr_eq(heap_top(&h), want ? &want->hn : NULL);
    if (op % 97 == 0)
      heap_check_shape(&h);
    for (int i = 0; i < N; i += 37)
      ck_assert_int_eq(heap_contains(&it[i].hn), it[i].in);
  }
  heap_check_shape(&h);
  /* drain: everything comes out in reference order */
  while (in_count) {
    item *want = ref_min(it, N);
    ck_assert_ptr_eq(heap_pop(&h), &want->hn);
    want->in = false;
    in_count--;
  }
  ck_assert_ptr_null(heap_pop(&h));
  for (int k = 0; k < 4; k++)
    ck_assert_int_gt(counts[k], OPS / 8);
  heap_destroy(&h);
}
END_TEST

/* Bulk re-keying (heap_bulk_begin/end) against the same heap_set calls made one by one: the
 * two heaps must pop the same nodes in the same order, ties included. */
START_TEST(heap_bulk_same_order)
{
  enum { N = 500 };
  static item a[N], b[N];
  heap ha, hb;
  heap_init(&ha);
  heap_init(&hb);
  rng_state = 0xD1B54A32D192ED03ULL + (uint64_t)_i;
  for (int i = 0; i < N; i++) {
    heap_node_init(&a[i].hn);
    heap_node_init(&b[i].hn);
    a[i].id = b[i].id = i;
  }
  for (int round = 0; round < 40; round++) {
    /* some nodes in, then a bulk batch of sets (re-keys and fresh pushes) */
    for (int k = 0; k < 50; k++) {
      int i = (int)(rng() % N);
      double key = (double)(rng() % 20);
      heap_set(&ha, &a[i].hn, key);
      heap_set(&hb, &b[i].hn, key);
    }
    heap_bulk_begin(&ha);
    for (int k = 0; k < 200; k++) {
      int i = (int)(rng() % N);
      double key = (double)(rng() % 20) + round;
      heap_set(&ha, &a[i].hn, key);
      heap_set(&hb, &b[i].hn, key);
    }
    heap_bulk_end(&ha);
    heap_check_shape(&ha);
    ck_assert_uint_eq(heap_size(&ha), heap_size(&hb));
    /* pop a few to mix the shapes */
    for (int k = 0; k < 30 && heap_size(&hb); k++)
      ck_assert_int_eq(NODE_ITEM(heap_pop(&ha))->id, NODE_ITEM(heap_pop(&hb))->id);
  }
  while (heap_size(&hb))
    ck_assert_int_eq(NODE_ITEM(heap_pop(&ha))->id, NODE_ITEM(heap_pop(&hb))->id);
  ck_assert_uint_eq(heap_size(&ha), 0);
  heap_destroy(&ha);
  heap_destroy(&hb);
}
END_TEST

/* the death tests' start: stderr quiet, h holding n (key 1) */
static void one_node_heap(heap *h, heap_node *n)
{
  quiet_stderr();
  heap_init(h);
  heap_node_init(n);
  heap_push(h, n, 1);
}

START_TEST(heap_die_pop_in_bulk)
{
  heap h;
  heap_node n;
  one_node_heap(&h, &n);
  heap_bulk_begin(&h);
  heap_pop(&h); /* the order is not there yet */
}
END_TEST

START_TEST(heap_die_double_push)
{
  heap h;
  heap_node n;
  one_node_heap(&h, &n);
  heap_push(&h, &n, 2);
}
END_TEST

static Suite *heap_suite(void)
{
  Suite *s = suite_create("heap");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, heap_basic);
  tcase_add_test(tc, heap_ties);
  tcase_add_loop_test(tc, heap_random_vs_reference, 0, 3);
  tcase_add_loop_test(tc, heap_bulk_same_order, 0, 3);
  tcase_add_test_raise_signal(tc, heap_die_double_push, SIGABRT);
  tcase_add_test_raise_signal(tc, heap_die_pop_in_bulk, SIGABRT);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * list
 * ====================================================================================== */

typedef struct elem {
  int v;
  list_node node;
} elem;

/* "1 2 3" */
static void list_str(list_node *head, char *buf, size_t len)
{
  buf[0] = '\0';
  list_foreach (n, head) {
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, "%s%d", l ? " " : "", list_entry(n, elem, node)->v);
  }
}

START_TEST(list_push_pop_remove)
{
  list_node head;
  list_init(&head);
  ck_assert(list_empty(&head));
  ck_assert_ptr_null(list_first(&head));
  ck_assert_ptr_null(list_last(&head));
  ck_assert_ptr_null(list_pop_front(&head));
  elem e[5];
  for (int i = 0; i < 5; i++) {
    e[i].v = i;
    list_init(&e[i].node);
    ck_assert(!list_linked(&e[i].node));
  }
  list_push_back(&head, &e[1].node);
  list_push_back(&head, &e[2].node);
  list_push_front(&head, &e[0].node);
  list_push_back(&head, &e[3].node);
  char buf[64];
  list_str(&head, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 2 3");
  ck_assert_ptr_eq(list_first(&head), &e[0].node);
  ck_assert_ptr_eq(list_last(&head), &e[3].node);
  list_remove(&e[2].node);
  ck_assert(!list_linked(&e[2].node));
  list_str(&head, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 3");
  list_insert_before(&e[3].node, &e[4].node);
  list_str(&head, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 4 3");
  ck_assert_ptr_eq(list_pop_front(&head), &e[0].node);
  ck_assert(!list_linked(&e[0].node));
  ck_assert_ptr_eq(list_entry(list_pop_front(&head), elem, node), &e[1]);
  list_remove(&e[4].node);
  list_remove(&e[3].node);
  ck_assert(list_empty(&head));
}
END_TEST

START_TEST(list_splice)
{
  list_node a, b;
  list_init(&a);
  list_init(&b);
  elem e[6];
  for (int i = 0; i < 6; i++) {
    e[i].v = i;
    list_push_back(i < 3 ? &a : &b, &e[i].node);
  }
  char buf[64];
  list_splice_back(&a, &b);
  ck_assert(list_empty(&b));
  list_str(&a, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 2 3 4 5");
  ck_assert_ptr_eq(list_last(&a), &e[5].node);
  ck_assert_ptr_eq(e[5].node.next, &a);
  ck_assert_ptr_eq(a.prev, &e[5].node);
  list_splice_back(&a, &b); /* empty source: no-op */
  list_str(&a, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 2 3 4 5");
  list_splice_back(&b, &a); /* into an empty destination */
  ck_assert(list_empty(&a));
  list_str(&b, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 1 2 3 4 5");
  ck_assert_ptr_eq(e[0].node.prev, &b);
}
END_TEST

START_TEST(list_foreach_removal)
{
  list_node head;
  list_init(&head);
  elem e[10];
  for (int i = 0; i < 10; i++) {
    e[i].v = i;
    list_push_back(&head, &e[i].node);
  }
  int seen = 0;
  list_foreach (n, &head) {
    seen++;
    if (list_entry(n, elem, node)->v % 2)
      list_remove(n);
  }
  ck_assert_int_eq(seen, 10);
  char buf[64];
  list_str(&head, buf, sizeof buf);
  ck_assert_str_eq(buf, "0 2 4 6 8");
  list_foreach (n, &head)
    list_remove(n);
  ck_assert(list_empty(&head));
}
END_TEST

static Suite *list_suite(void)
{
  Suite *s = suite_create("list");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, list_push_pop_remove);
  tcase_add_test(tc, list_splice);
  tcase_add_test(tc, list_foreach_removal);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(cfg_suite());
  srunner_add_suite(sr, log_suite());
  srunner_add_suite(sr, heap_suite());
  srunner_add_suite(sr, list_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
