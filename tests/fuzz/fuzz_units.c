/* Fuzz target: quantities with units (src/units.h), as written in platform files.
 *
 * The first byte picks the kind (mod 4) and, with bit 2, the units_parse_<kind> shortcut
 * (which logs the unit-less warning itself) instead of units_parse. A value that parses must
 * be a finite number >= 0 in base units: the platform loader and the models divide by these. */
#include "fuzz_common.h"

#include "src/units.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  units_kind kind = (units_kind)(data[0] % 4);
  char *s = fuzz_cstr(data + 1, size - 1);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  double v = -1;
  bool unitless = false;
  int rc;
  if (data[0] & 4) {
    static int (*const shortcut[4])(const char *, double *, char *,
                                    size_t) = {units_parse_speed, units_parse_bandwidth,
                                               units_parse_latency, units_parse_size};
    rc = shortcut[kind](s, &v, err, sizeof err);
  } else {
    rc = units_parse(kind, s, &v, &unitless, err, sizeof err);
  }
  fuzz_check_result("units_parse", rc, err, sizeof err);
  if (rc == 0) {
    FUZZ_REQUIRE(v >= 0, "'%s' parsed as %s %g", s, units_kind_name(kind), v);
    /* tag units-inf: "1e308Gf" overflows to inf when the unit is applied (reported) */
    FUZZ_REQUIRE_UNLESS("units-inf", isfinite(v), "'%s' parsed as %s %g", s,
                        units_kind_name(kind), v);
    FUZZ_REQUIRE(!unitless || v != 0, "'%s': a zero is flagged unit-less", s);
  }
  free(s);
  return 0;
}
