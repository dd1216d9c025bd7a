/* Fuzz target: piecewise factors and overheads (kernel/factors.h), the strings of
 * smpi/bw-factor, smpi/lat-factor, smpi/os, smpi/or and smpi/ois.
 *
 * The first byte picks the parser: 0 factor > 0, 1 factor >= 0, 2 overhead (mod 3). On
 * success the result is checked against the header's contract (sorted distinct finite
 * thresholds >= 0, values in their domain) and the lookups are compared, at every threshold
 * and next to it, with a linear scan written from the rule in factors.h: the section with
 * the largest threshold strictly below the size. */
#include "fuzz_common.h"

#include "kernel/factors.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  return 0;
}

/* the reference: index of the largest threshold < size, or -1 */
static long ref_lookup(const fac_func *f, double size)
{
  long best = -1;
  for (size_t i = 0; i < f->count; i++)
    if (f->sec[i].threshold < size && (best < 0 || f->sec[i].threshold > f->sec[best].threshold))
      best = (long)i;
  return best;
}

static void check_at(const fac_func *f, int kind, double size)
{
  long i = ref_lookup(f, size);
  if (kind < 2) {
    double want = i < 0 ? 1.0 : f->sec[i].a;
    double got = fac_factor(f, size);
    FUZZ_REQUIRE(got == want, "fac_factor(%.17g) = %.17g, the rule gives %.17g", size, got, want);
  } else {
    const fac_section *s = i < 0 ? &f->sec[0] : &f->sec[i];
    double want = s->a + s->b * size;
    double got = fac_overhead(f, size);
    FUZZ_REQUIRE(got == want || (isnan(got) && isnan(want)),
                 "fac_overhead(%.17g) = %.17g, the rule gives %.17g", size, got, want);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  int kind = data[0] % 3;
  char *s = fuzz_cstr(data + 1, size - 1);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  fac_func f;
  int rc = kind == 2
               ? fac_parse_overhead("smpi/os", s, &f, err, sizeof err)
               : fac_parse_factor("smpi/bw-factor", s, kind == 0 ? FAC_POSITIVE : FAC_NONNEGATIVE,
                                  &f, err, sizeof err);
  fuzz_check_result("fac_parse", rc, err, sizeof err);
  if (rc != 0) {
    FUZZ_REQUIRE(f.sec == NULL && f.count == 0, "a failed parse left %zu sections", f.count);
  } else {
    FUZZ_REQUIRE(f.count > 0, "a successful parse gave no section");
    for (size_t i = 0; i < f.count; i++) {
      const fac_section *c = &f.sec[i];
      FUZZ_REQUIRE(isfinite(c->threshold) && isfinite(c->a) && isfinite(c->b),
                   "section %zu is not finite", i);
      FUZZ_REQUIRE(c->threshold >= 0, "negative threshold %g", c->threshold);
      FUZZ_REQUIRE(i == 0 || c->threshold > f.sec[i - 1].threshold,
                   "thresholds not strictly increasing at %zu", i);
      if (kind == 0)
        FUZZ_REQUIRE(c->a > 0, "factor value %g not > 0", c->a);
      else
        FUZZ_REQUIRE(c->a >= 0, "value %g < 0", c->a);
      if (kind == 2)
        FUZZ_REQUIRE(c->b >= 0, "per_byte %g < 0", c->b);
      check_at(&f, kind, c->threshold);
      check_at(&f, kind, nextafter(c->threshold, INFINITY));
      check_at(&f, kind, c->threshold + 1);
    }
    check_at(&f, kind, 0);
    check_at(&f, kind, 1);
    check_at(&f, kind, 1e15);
    fac_free(&f);
  }
  free(s);
  return 0;
}
