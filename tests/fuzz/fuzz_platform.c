/* Fuzz target: the platform loader (src/platform.h) on a whole XML document, with the
 * configuration keys its <config> section may set declared as the runtime declares them.
 * A platform that loads is walked: every explicit host, zone and the first and last
 * cluster hosts are named (plat_point_name) and looked up again by that name. The
 * configuration registry is reset after each input. Sandbox: see fuzz_platform_env.h. */
#include "fuzz_platform_env.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_platform_setup();
  return 0;
}

static void check_point(const plat_platform *p, size_t i)
{
  plat_point pt = plat_host_at(p, i);
  char name[256];
  int n = plat_point_name(&pt, name, sizeof name);
  FUZZ_REQUIRE(n >= 0, "host %zu has no name", i);
  if ((size_t)n >= sizeof name)
    return; /* truncated: nothing to look up */
  plat_point back;
  FUZZ_REQUIRE(plat_find_point(p, name, &back), "host %zu named '%s' is not found by name", i,
               name);
  FUZZ_REQUIRE(plat_point_equal(&pt, &back), "host %zu named '%s' finds another point", i, name);
  plat_host_desc d;
  plat_point_host_desc(&pt, &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  plat_platform *p = fuzz_platform_load(data, size);
  if (p) {
    size_t n = plat_host_count(p);
    /* the first and last 8 hosts: clusters may hold millions, all alike */
    for (size_t i = 0; i < n && i < 8; i++)
      check_point(p, i);
    for (size_t i = n > 16 ? n - 8 : 8; i < n; i++)
      check_point(p, i);
    plat_free(p);
  }
  cfg_reset();
  return 0;
}
