/* What every fuzz target shares.
 *
 * The parsers under test take C strings, so an input is used up to its first NUL byte (the
 * rest is dead weight; libFuzzer soon learns not to grow it). The log goes to /dev/null:
 * formatting still runs, so printf-style bugs in messages are still exercised, but libFuzzer's
 * own output stays readable and the runs fast.
 *
 * Oracles beyond "no crash, no leak, no sanitizer report": a parser that fails returns -1
 * and says why (a non-empty, NUL-terminated message that fits in the buffer it was given),
 * and one that succeeds produces values that respect its header's contract. A broken oracle
 * aborts, which libFuzzer records as a crash with the input that caused it. */
#ifndef SMPI_TESTS_FUZZ_COMMON_H
#define SMPI_TESTS_FUZZ_COMMON_H

#include "src/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_ERRLEN 512

#define FUZZ_REQUIRE(cond, ...)                                                        \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "fuzz oracle failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fputc('\n', stderr);                                                             \
      abort();                                                                         \
    }                                                                                  \
  } while (0)

/* FUZZ_IGNORE=tag,tag,...: skip the oracles tagged so (FUZZ_REQUIRE_UNLESS), to keep fuzzing
 * past a finding already reported and not yet fixed; tools/fuzz.sh prints what it ignored. */
static inline int fuzz_ignored(const char *tag)
{
  const char *list = getenv("FUZZ_IGNORE");
  size_t n = strlen(tag);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, tag, n) == 0)
      return 1;
    p = end ? end + 1 : p + len;
  }
  return 0;
}

#define FUZZ_REQUIRE_UNLESS(tag, cond, ...) \
  do {                                      \
    if (!fuzz_ignored(tag))                 \
      FUZZ_REQUIRE(cond, __VA_ARGS__);      \
  } while (0)

static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (!s)
    abort();
  if (size)
    memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* FUZZ_VERBOSE=1 prints each parser's verdict: to see what a seed or a reproducer does,
 * e.g. FUZZ_VERBOSE=1 build-fuzz/tests/fuzz/fuzz_skampi tests/fuzz/corpus/skampi/\* */
static inline int fuzz_verbose(void)
{
  static int v = -1;
  if (v < 0) {
    const char *e = getenv("FUZZ_VERBOSE");
    v = e && *e && *e != '0';
  }
  return v;
}

static inline void fuzz_quiet(void)
{
  FILE *null = fopen("/dev/null", "w");
  if (null)
    log_set_stream(null); /* kept open for the whole run, on purpose */
}

/* err was pre-filled with a sentinel byte pattern by fuzz_err_init */
static inline void fuzz_err_init(char *err, size_t errlen) { memset(err, 0x5a, errlen); }

static inline void fuzz_check_result(const char *what, int rc, const char *err, size_t errlen)
{
  FUZZ_REQUIRE(rc == 0 || rc == -1, "%s returned %d (0 or -1 expected)", what, rc);
  if (rc == 0) {
    if (fuzz_verbose())
      fprintf(stderr, "%s: ok\n", what);
    return;
  }
  size_t n = strnlen(err, errlen);
  FUZZ_REQUIRE(n < errlen, "%s failed without NUL-terminating its message", what);
  FUZZ_REQUIRE(n > 0, "%s failed with an empty message", what);
  if (fuzz_verbose())
    fprintf(stderr, "%s: %s\n", what, err);
}

#endif
