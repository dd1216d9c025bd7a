/* The sandbox of the platform fuzz targets.
 *
 * <include file="..."/> makes the loader read files. Inputs are loaded as if they were the
 * file fuzz.xml of a fresh temporary directory (not by chdir: libFuzzer opens its corpus
 * paths after LLVMFuzzerInitialize). That directory holds three small files to include (a
 * valid zone, a file that includes itself, a malformed one), so that the include code runs
 * with relative paths as in real platforms.
 *
 * The targets are linked with -Wl,--wrap=fopen,--wrap=fopen64, and while the loader runs,
 * opening for reading anything outside the directory fails with EACCES: a fuzzer that
 * spells "/dev/zero" or "/dev/stdin" must not turn the run into an endless read (the loader
 * now refuses files that are not regular before opening them, but the sandbox also keeps
 * the fuzzer off the machine's other files). A directory inside the sandbox is
 * allowed: reading it fails with EISDIR, a path worth exercising.
 *
 * libxml2 opens nothing itself: the loader parses with XML_PARSE_NONET and no DTD loading,
 * and external entities are not substituted (checked with strace on the seed entities.xml). */
#ifndef SMPI_TESTS_FUZZ_PLATFORM_ENV_H
#define SMPI_TESTS_FUZZ_PLATFORM_ENV_H

#include "fuzz_common.h"

#include "kernel/engine.h"
#include "kernel/routing.h"
#include "src/cfg.h"
#include "src/platform.h"
#include "kernel/cpu.h"
#include "kernel/network.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>

static char fuzz_sandbox[PATH_MAX];
/* Only reads, and only while the loader runs: libFuzzer's own fopen calls are wrapped too
 * (it is linked statically), and it must still write the corpus and, from its crash handler
 * (possibly in the middle of a load), the crash artifact. */
static bool fuzz_confined;
static char fuzz_doc_name[PATH_MAX + 16]; /* <sandbox>/fuzz.xml */

/* meson builds with _FILE_OFFSET_BITS=64, which makes glibc's fopen an alias of fopen64:
 * both are wrapped (-Wl,--wrap=fopen -Wl,--wrap=fopen64). */
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fopen64(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fopen64(const char *path, const char *mode);

static bool fuzz_in_sandbox(const char *path, const char *mode)
{
  if (!fuzz_confined || mode[0] != 'r')
    return true;
  char *real = realpath(path, NULL);
  size_t n = strlen(fuzz_sandbox);
  bool inside = real && fuzz_sandbox[0] && strncmp(real, fuzz_sandbox, n) == 0 &&
                (real[n] == '\0' || real[n] == '/');
  free(real);
  return inside;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
  if (!fuzz_in_sandbox(path, mode)) {
    errno = EACCES;
    return NULL;
  }
  return __real_fopen(path, mode);
}

FILE *__wrap_fopen64(const char *path, const char *mode)
{
  if (!fuzz_in_sandbox(path, mode)) {
    errno = EACCES;
    return NULL;
  }
  return __real_fopen64(path, mode);
}

static void fuzz_write(const char *name, const char *text)
{
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/%s", fuzz_sandbox, name);
  FILE *f = __real_fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

static void fuzz_sandbox_remove(void)
{
  static const char *const files[] = {"zone.xml", "self.xml", "bad.xml"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", fuzz_sandbox, files[i]);
    unlink(path);
  }
  rmdir(fuzz_sandbox);
}

static void fuzz_platform_setup(void)
{
  fuzz_quiet();
  log_set_threshold(&log_cat_root, LOG_LVL_OFF);
  eng_declare_config();
  route_declare_config();
  cpu_declare_config();
  net_declare_config();
  const char *tmp = getenv("TMPDIR");
  char tmpl[PATH_MAX];
  snprintf(tmpl, sizeof tmpl, "%s/smpi-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(tmpl) || !realpath(tmpl, fuzz_sandbox)) {
    perror("fuzz sandbox");
    abort();
  }
  atexit(fuzz_sandbox_remove);
  snprintf(fuzz_doc_name, sizeof fuzz_doc_name, "%s/fuzz.xml", fuzz_sandbox);
  fuzz_write("zone.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                         "<zone id=\"inc\" routing=\"Full\">\n"
                         "<host id=\"inc1\" speed=\"1Gf\"/><host id=\"inc2\" speed=\"1Gf\"/>\n"
                         "<link id=\"incl\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                         "<route src=\"inc1\" dst=\"inc2\"><link_ctn id=\"incl\"/></route>\n"
                         "</zone>\n</platform>\n");
  fuzz_write("self.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                         "<include file=\"self.xml\"/>\n</platform>\n");
  fuzz_write("bad.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"x\"\n");
}

/* Loads the input; returns the platform or NULL, after checking the error contract. */
static plat_platform *fuzz_platform_load(const uint8_t *data, size_t size)
{
  char *xml = fuzz_cstr(data, size);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  plat_platform *p = (plat_platform *)1;
  fuzz_confined = true;
  int rc = plat_load_string(xml, fuzz_doc_name, &p, err, sizeof err);
  fuzz_confined = false;
  fuzz_check_result("plat_load_string", rc, err, sizeof err);
  FUZZ_REQUIRE((rc == 0) == (p != NULL), "returned %d with platform %p", rc, (void *)p);
  free(xml);
  return p;
}

#endif
