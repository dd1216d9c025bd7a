/* Fuzz target: a platform as the simulator uses it, from XML to routes. The document is
 * loaded (src/platform.h), its routing built (kernel/routing.h), and routes computed
 * between a few host pairs: first/last, both directions, a host to itself (the loopback)
 * and the middle one. Routes either come back or fail with a message; a route that comes
 * back names existing links, in a count that fits, with a finite latency >= 0 equal to the
 * sum of its links' latencies (within rounding). A separate target from fuzz_platform so
 * that each gets its own corpus: routing only ever sees documents that load.
 * Sandbox: see fuzz_platform_env.h. */
#include "fuzz_platform_env.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_platform_setup();
  return 0;
}

static void check_route(const route_table *rt, size_t src, size_t dst)
{
  route_path path;
  route_path_init(&path);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  int rc = route_get(rt, src, dst, &path, err, sizeof err);
  fuzz_check_result("route_get", rc, err, sizeof err);
  if (rc != 0) {
    FUZZ_REQUIRE(path.count == 0, "a failed route_get appended %zu links", path.count);
  } else {
    size_t nlinks = route_link_count(rt);
    double sum = 0;
    for (size_t i = 0; i < path.count; i++) {
      FUZZ_REQUIRE(path.links[i] < nlinks, "route %zu -> %zu: link id %u of %zu", src, dst,
                   path.links[i], nlinks);
      double bw, lat;
      lmm_sharing sharing;
      route_link_info(rt, path.links[i], &bw, &lat, &sharing);
      FUZZ_REQUIRE(bw > 0 && isfinite(lat) && lat >= 0, "route %zu -> %zu: link %u bw %g lat %g",
                   src, dst, path.links[i], bw, lat);
      sum += lat;
    }
    FUZZ_REQUIRE(isfinite(path.latency) && path.latency >= 0, "route %zu -> %zu: latency %g", src,
                 dst, path.latency);
    FUZZ_REQUIRE(fabs(path.latency - sum) <= 1e-9 * (sum > 1 ? sum : 1),
                 "route %zu -> %zu: latency %.17g, its links sum to %.17g", src, dst,
                 path.latency, sum);
  }
  route_path_free(&path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  plat_platform *p = fuzz_platform_load(data, size);
  if (p) {
    route_table *rt = (route_table *)1;
    char err[FUZZ_ERRLEN];
    fuzz_err_init(err, sizeof err);
    int rc = route_table_build(p, &rt, err, sizeof err);
    fuzz_check_result("route_table_build", rc, err, sizeof err);
    if (rc == 0) {
      size_t n = route_host_count(rt);
      FUZZ_REQUIRE(n == plat_host_count(p), "routing sees %zu hosts, the platform %zu", n,
                   plat_host_count(p));
      if (n > 0) {
        check_route(rt, 0, n - 1);
        check_route(rt, n - 1, 0);
        check_route(rt, 0, 0);
        check_route(rt, n / 2, n - 1);
      }
      route_table_free(rt);
    }
    plat_free(p);
  }
  cfg_reset();
  return 0;
}
