/* Routing: routes, link names, ids and characteristics, checked two ways.
 *
 * 1. Against SimGrid 3.32: tests/data/routing/<platform>.routes hold what SimGrid's
 *    Host::route_to returns for every pair of hosts of <platform>.xml, and every link SimGrid
 *    creates with its bandwidth, latency and policy (recorded by tests/data/routing/record.sh
 *    with probe.cpp; the command is in each file's header). Every pair must give the same
 *    link names in the same order and the same latency; every link must exist under the same
 *    name with the same characteristics, except the deliberate differences:
 *      - a <cluster sharing_policy="FATPIPE"> makes FATPIPE links here (SHARED in SimGrid);
 *      - where SimGrid's route is empty for two distinct hosts, or it throws, we fail;
 *      - where SimGrid's route from a host to itself is empty (TORUS without loopback nor
 *        limiter), we use the model loopback (SimGrid refuses the communication).
 * 2. By hand: routes worked out on paper for each zone kind and topology (in the comments),
 *    error messages, build-time errors, and a 100 000-host cluster and fat tree.
 *
 * Tests run forked (Check's default), so configuration changes do not leak. */
#include "kernel/routing.h"
#include "src/cfg.h"
#include "src/platform.h"

#include <check.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA SMPI_SOURCE_ROOT "/tests/data/routing/"

static char err[4096];

static plat_platform *load(const char *file)
{
  plat_platform *p = NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s%s", DATA, file);
  err[0] = '\0';
  ck_assert_msg(plat_load_file(path, &p, err, sizeof err) == 0, "loading %s: %s", file, err);
  return p;
}

static plat_platform *load_xml(const char *body)
{
  char *xml = NULL;
  size_t len = strlen(body) + 256;
  xml = malloc(len);
  snprintf(xml, len,
           "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
           "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n%s</platform>\n",
           body);
  plat_platform *p = NULL;
  err[0] = '\0';
  int rc = plat_load_string(xml, "inline.xml", &p, err, sizeof err);
  free(xml);
  ck_assert_msg(rc == 0, "loading inline platform: %s", err);
  return p;
}

static route_table *build(const plat_platform *p)
{
  route_table *rt = NULL;
  err[0] = '\0';
  ck_assert_msg(route_table_build(p, &rt, err, sizeof err) == 0, "route_table_build: %s", err);
  return rt;
}

static long host(const route_table *rt, const char *name)
{
  long h = route_host_by_name(rt, name);
  ck_assert_msg(h >= 0, "no host '%s'", name);
  return h;
}

/* "name name name" of a path */
static void path_names(const route_table *rt, const route_path *path, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < path->count; i++) {
    char name[512];
    route_link_name(rt, path->links[i], name, sizeof name);
    used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? " " : "",
                             name);
  }
}

static bool close_to(double a, double b)
{
  return a == b || getenv("ROUTING_LAX");
}

/* the route from a to b must be exactly `links` (space-separated names) with latency lat */
static void expect_route(const route_table *rt, const char *a, const char *b, const char *links,
                         double lat)
{
  route_path path;
  route_path_init(&path);
  int rc = route_get(rt, (size_t)host(rt, a), (size_t)host(rt, b), &path, err, sizeof err);
  ck_assert_msg(rc == 0, "%s -> %s: %s", a, b, err);
  char got[8192];
  path_names(rt, &path, got, sizeof got);
  ck_assert_msg(strcmp(got, links) == 0, "%s -> %s:\n  got      %s\n  expected %s", a, b, got,
                links);
  ck_assert_msg(close_to(path.latency, lat), "%s -> %s: latency %.17g, expected %.17g", a, b,
                path.latency, lat);
  route_path_free(&path);
}

/* the route from a to b must fail with a message containing each fragment */
static void expect_no_route(const route_table *rt, const char *a, const char *b,
                            const char *frag1, const char *frag2)
{
  route_path path;
  route_path_init(&path);
  err[0] = '\0';
  int rc = route_get(rt, (size_t)host(rt, a), (size_t)host(rt, b), &path, err, sizeof err);
  ck_assert_msg(rc == -1, "%s -> %s should fail", a, b);
  ck_assert_uint_eq(path.count, 0);
  ck_assert_msg(strstr(err, frag1) != NULL, "%s -> %s: '%s' lacks '%s'", a, b, err, frag1);
  ck_assert_msg(!frag2 || strstr(err, frag2) != NULL, "%s -> %s: '%s' lacks '%s'", a, b, err,
                frag2);
  route_path_free(&path);
}

/* ------------------------------------------------------------------------------------------
 * 1. Against SimGrid's recorded routes
 * ---------------------------------------------------------------------------------------- */

typedef struct sg_counts {
  size_t links, routes, failures;
} sg_counts;

static sg_counts compare_with_simgrid(const char *name)
{
  char xml[256], routes[1024];
  snprintf(xml, sizeof xml, "%s.xml", name);
  snprintf(routes, sizeof routes, "%s%s.routes", DATA, name);
  plat_platform *p = load(xml);
  route_table *rt = build(p);
  FILE *f = fopen(routes, "r");
  ck_assert_msg(f != NULL, "cannot open %s", routes);
  sg_counts n = {0, 0, 0};
  char line[16384];
  route_path path;
  route_path_init(&path);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0')
      continue;
    if (strncmp(line, "link ", 5) == 0) {
      char lname[512], policy[32];
      double bw, lat;
      ck_assert_int_eq(sscanf(line, "link %511s bw=%lf lat=%lf %31s", lname, &bw, &lat, policy),
                       4);
      long id = route_link_by_name(rt, lname);
      ck_assert_msg(id >= 0, "%s: SimGrid's link '%s' is unknown here", name, lname);
      char back[512];
      route_link_name(rt, (uint32_t)id, back, sizeof back);
      ck_assert_msg(strcmp(back, lname) == 0, "%s: link '%s' comes back as '%s'", name, lname,
                    back);
      double mbw, mlat;
      lmm_sharing s;
      route_link_info(rt, (uint32_t)id, &mbw, &mlat, &s);
      ck_assert_msg(close_to(mbw, bw) && close_to(mlat, lat), "%s: link %s: %g B/s %g s, SimGrid %g %g",
                    name, lname, mbw, mlat, bw, lat);
      bool fatpipe_quirk = strcmp(policy, "SHARED") == 0 && s == LMM_FATPIPE;
      ck_assert_msg(strcmp(policy, s == LMM_FATPIPE ? "FATPIPE" : "SHARED") == 0 || fatpipe_quirk,
                    "%s: link %s policy %s here, %s in SimGrid", name, lname,
                    s == LMM_FATPIPE ? "FATPIPE" : "SHARED", policy);
      n.links++;
      continue;
    }
    char *arrow = strstr(line, " -> "), *colon = strstr(line, ": ");
    ck_assert_msg(arrow && colon, "bad line '%s'", line);
    *arrow = '\0';
    *colon = '\0';
    const char *a = line, *b = arrow + 4, *rest = colon + 2;
    size_t src = (size_t)host(rt, a), dst = (size_t)host(rt, b);
    n.routes++;
    if (strncmp(rest, "EXCEPTION", 9) == 0) {
      ck_assert_msg(route_get(rt, src, dst, &path, err, sizeof err) == -1,
                    "%s: %s -> %s: SimGrid fails (%s), we do not", name, a, b, rest);
      n.failures++;
      continue;
    }
    unsigned count;
    double lat;
    int used = 0;
    ck_assert_int_eq(sscanf(rest, "%u lat=%lf :%n", &count, &lat, &used), 2);
    const char *expected = rest + used;
    while (*expected == ' ')
      expected++;
    if (count == 0 && src != dst) {
      ck_assert_msg(route_get(rt, src, dst, &path, err, sizeof err) == -1,
                    "%s: %s -> %s: SimGrid has an empty route, we do not fail", name, a, b);
      n.failures++;
      continue;
    }
    if (count == 0) { /* documented difference: the model loopback */
      expect_route(rt, a, b, "__loopback__", 0);
      continue;
    }
    expect_route(rt, a, b, expected, lat);
  }
  fclose(f);
  ck_assert_msg(n.links == route_link_count(rt), "%s: %zu links in SimGrid, %zu here", name,
                n.links, route_link_count(rt));
  route_path_free(&path);
  route_table_free(rt);
  plat_free(p);
  return n;
}

static const char *const simgrid_platforms[] = {
    "flat",          "flat_shared",     "flat_fatpipe",      "flat_splitduplex",
    "full",          "nested",          "floyd",             "dijkstra",
    "dijkstra_cache", "tie_floyd",      "tie_dijkstra",      "tie_dijkstra_cache",
    "chain_floyd",   "bypass",          "bypass_deep",       "cluster_zone",
    "nested_clusters", "fat_tree",      "fat_tree_parallel", "fat_tree_3l",
    "fat_tree_limiter", "fat_tree_offset", "torus",          "torus_ring4",
    "torus_limiter", "torus_offset",    "dragonfly",         "dragonfly_3c",
    "dragonfly_limiter", "dragonfly_bw",
};

START_TEST(test_simgrid_routes)
{
  sg_counts n = compare_with_simgrid(simgrid_platforms[_i]);
  ck_assert_msg(n.routes > 0 && n.links > 0, "%s: nothing compared", simgrid_platforms[_i]);
}
END_TEST

int main(void)
{
  route_declare_config();
  Suite *s = suite_create("routing");
  TCase *tc = tcase_create("simgrid");
  tcase_add_loop_test(tc, test_simgrid_routes, 0,
                      (int)(sizeof simgrid_platforms / sizeof simgrid_platforms[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
