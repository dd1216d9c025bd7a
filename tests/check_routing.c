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
 * 3. The route cache alone (ways, replacement, mirroring); check_network checks it inside
 *    the network model, dates to the bit.
 *
 * Tests run forked (Check's default), so configuration changes do not leak. */
#include "kernel/route_cache.h"
#include "kernel/routing.h"
#include "src/cfg.h"
#include "src/platform.h"

#include <check.h>
#include <glob.h>
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
    used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? " " : "", name);
  }
}

/* Latencies from SimGrid's files must match bit for bit (the sum is made in SimGrid's order);
 * hand-written ones are decimal approximations of the parsed values. */
static bool exact = true;

static bool close_to(double a, double b)
{
  if (exact)
    return a == b;
  return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
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
      ck_assert_msg(close_to(mbw, bw) && close_to(mlat, lat),
                    "%s: link %s: %g B/s %g s, SimGrid %g %g", name, lname, mbw, mlat, bw, lat);
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
  for (uint32_t id = 0; id < route_link_count(rt); id++) { /* names and ids agree */
    char lname[512];
    route_link_name(rt, id, lname, sizeof lname);
    ck_assert_msg(route_link_by_name(rt, lname) == (long)id, "%s: link %u '%s' comes back as %ld",
                  name, id, lname, route_link_by_name(rt, lname));
  }
  route_path_free(&path);
  route_table_free(rt);
  plat_free(p);
  return n;
}

/* every <platform>.routes of tests/data/routing (a new topology brings its own) */
static glob_t simgrid_platforms;

START_TEST(test_simgrid_routes)
{
  char name[256];
  const char *path = simgrid_platforms.gl_pathv[_i], *base = strrchr(path, '/') + 1;
  snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - strlen(".routes")), base);
  sg_counts n = compare_with_simgrid(name);
  ck_assert_msg(n.routes > 0 && n.links > 0, "%s: nothing compared", name);
}
END_TEST

/* ------------------------------------------------------------------------------------------
 * 2. By hand
 * ---------------------------------------------------------------------------------------- */

static void link_is(const route_table *rt, const char *name, double bw, double lat, lmm_sharing s)
{
  long id = route_link_by_name(rt, name);
  ck_assert_msg(id >= 0, "no link '%s'", name);
  double b, l;
  lmm_sharing sh;
  route_link_info(rt, (uint32_t)id, &b, &l, &sh);
  ck_assert_msg(b == bw && l == lat && sh == s, "link %s: %g B/s, %g s, %s", name, b, l,
                sh == LMM_FATPIPE ? "FATPIPE" : "SHARED");
}

/* flat.xml: hosts n-0.x n-1.x n-2.x n-7.x, private links 10 Gbps 1 us (SPLITDUPLEX),
 * backbone 20 Gbps 0.5 us, limiters 5 Gbps, loopbacks 100 Gbps 0.1 us. Links are named by
 * the host *number* (7), not its rank (3). */
START_TEST(test_flat)
{
  plat_platform *p = load("flat.xml");
  route_table *rt = build(p);
  /* up through the limiter then the private link, backbone, down then the limiter */
  expect_route(rt, "n-0.x", "n-7.x",
               "c_link_0_limiter c_link_0_UP c_backbone c_link_7_DOWN c_link_7_limiter",
               1e-6 + 0.5e-6 + 1e-6);
  expect_route(rt, "n-7.x", "n-0.x",
               "c_link_7_limiter c_link_7_UP c_backbone c_link_0_DOWN c_link_0_limiter",
               1e-6 + 0.5e-6 + 1e-6);
  expect_route(rt, "n-7.x", "n-7.x", "c_link_7_loopback", 0.1e-6);
  link_is(rt, "c_link_7_UP", 1.25e9, 1e-6, LMM_SHARED);
  link_is(rt, "c_link_7_DOWN", 1.25e9, 1e-6, LMM_SHARED);
  link_is(rt, "c_link_2_limiter", 6.25e8, 0, LMM_SHARED);
  link_is(rt, "c_link_2_loopback", 1.25e10, 0.1e-6, LMM_FATPIPE);
  link_is(rt, "c_backbone", 2.5e9, 0.5e-6, LMM_SHARED);
  link_is(rt, "__loopback__", 1e10, 0, LMM_FATPIPE);
  /* 4 x (UP, DOWN, limiter, loopback) + backbone + model loopback */
  ck_assert_uint_eq(route_link_count(rt), 18);
  ck_assert_int_eq(route_link_by_name(rt, "c_link_3_UP"), -1); /* no host number 3 */
  ck_assert_int_eq(route_link_by_name(rt, "c_link_7"), -1);    /* SPLITDUPLEX: a half */
  ck_assert_uint_eq(route_host_count(rt), 4);
  ck_assert_int_eq(route_host_by_name(rt, "n-7.x"), 3);
  ck_assert_int_eq(route_host_by_name(rt, "n-3.x"), -1);
  char name[64];
  ck_assert_int_eq(route_host_name(rt, 2, name, sizeof name), 5);
  ck_assert_str_eq(name, "n-2.x");
  route_table_free(rt);
  plat_free(p);

  /* SHARED private links, no backbone: to itself, one crossing of limiter and link */
  p = load("flat_shared.xml");
  rt = build(p);
  expect_route(rt, "n-0", "n-0", "c_link_0_limiter c_link_0", 1e-6);
  expect_route(rt, "n-0", "n-2", "c_link_0_limiter c_link_0 c_link_2 c_link_2_limiter",
               1e-6 + 1e-6);
  route_table_free(rt);
  plat_free(p);

  /* FATPIPE private links stay FATPIPE (SimGrid 3.32 ignores the attribute) */
  p = load("flat_fatpipe.xml");
  rt = build(p);
  link_is(rt, "c_link_1", 1.25e9, 1e-6, LMM_FATPIPE);
  link_is(rt, "c_backbone", 1.25e8, 0, LMM_FATPIPE);
  expect_route(rt, "n-1", "n-1", "c_link_1 c_backbone", 1e-6);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* full.xml: l1 1 us, l2 2 us and l3 4 us SPLITDUPLEX, self 8 us. */
START_TEST(test_full)
{
  plat_platform *p = load("full.xml");
  route_table *rt = build(p);
  expect_route(rt, "a", "b", "l1 l1 l2_UP l3_DOWN", 1e-6 + 1e-6 + 2e-6 + 4e-6);
  /* symmetrical: reversed, halves swapped */
  expect_route(rt, "b", "a", "l3_UP l2_DOWN l1 l1", 4e-6 + 2e-6 + 1e-6 + 1e-6);
  expect_route(rt, "a", "c", "l2_DOWN", 2e-6); /* one-way routes as declared */
  expect_route(rt, "c", "a", "l3_UP l1", 4e-6 + 1e-6);
  expect_route(rt, "a", "a", "self", 8e-6);      /* declared */
  expect_route(rt, "b", "b", "__loopback__", 0); /* model loopback */
  expect_no_route(rt, "b", "c",
                  "no route from 'b' to 'c': zone 'z' (Full routing) declares no route from "
                  "'b' to 'c'",
                  "full.xml:8)");
  route_table_free(rt);
  plat_free(p);

  /* the model loopback follows network/loopback-bw and -lat */
  ck_assert_int_eq(cfg_set("network/loopback-bw", "5e9", CFG_ORIGIN_CMDLINE, err, sizeof err), 0);
  ck_assert_int_eq(cfg_set("network/loopback-lat", "2e-6", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  p = load("full.xml");
  rt = build(p);
  link_is(rt, "__loopback__", 5e9, 2e-6, LMM_FATPIPE);
  expect_route(rt, "c", "c", "__loopback__", 2e-6);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

START_TEST(test_config_defaults)
{
  route_declare_config();
  route_declare_config(); /* idempotent */
  ck_assert(cfg_get_double("network/loopback-bw") == 1e10);
  ck_assert(cfg_get_double("network/loopback-lat") == 0);
  ck_assert_str_eq(cfg_get_string("routing/dragonfly"), "simgrid");
}
END_TEST

/* nested.xml: see the comment in the file. Latencies add up in SimGrid's order: the zone
 * route's links first, then the part before its gateway, then the part after. */
START_TEST(test_nested)
{
  plat_platform *p = load("nested.xml");
  route_table *rt = build(p);
  expect_route(rt, "a1", "b1", "la1_UP wan1_UP lb1", 1e-3 + 1e-6 + 10e-6);
  expect_route(rt, "b1", "a1", "lb1 wan1_DOWN la1_DOWN", 1e-3 + 10e-6 + 1e-6);
  /* a2 is the gateway itself; C's router reaches c-1 through the backbone then down */
  expect_route(rt, "a2", "c-1", "wan2 C_backbone C_link_1_DOWN", 2e-3 + 200e-6 + 100e-6);
  expect_route(rt, "a1", "c-0", "la1_UP la2 wan2 C_backbone C_link_0_DOWN",
               2e-3 + 1e-6 + 2e-6 + 200e-6 + 100e-6);
  expect_route(rt, "c-0", "b1", "C_link_0_UP C_backbone wan3 lb1",
               4e-3 + 100e-6 + 200e-6 + 10e-6);
  expect_no_route(rt, "b1", "c-0",
                  "no route from 'b1' to 'c-0': zone 'world' (Full routing) declares no "
                  "zoneRoute from 'B' to 'C'",
                  "nested.xml:9)");
  /* dense host order is document order */
  static const char *const order[] = {"a1", "a2", "b1", "c-0", "c-1"};
  ck_assert_uint_eq(route_host_count(rt), 5);
  for (size_t i = 0; i < 5; i++) {
    char name[64];
    route_host_name(rt, i, name, sizeof name);
    ck_assert_str_eq(name, order[i]);
    ck_assert_int_eq(route_host_by_name(rt, order[i]), (long)i);
  }
  plat_host_desc d;
  route_host_desc(rt, 3, &d);
  ck_assert(d.speeds[0] == 1e9 && d.cores == 1 && strcmp(d.zone->id, "C") == 0);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* floyd.xml & co: a->r1 is 3 links, r1->b 1; a->r2, r2->r3 (m2 UP), r3->b 1 each; the
 * shortest path counts links: a -> b = m1 m2_UP m3. */
static const char *const shortest[] = {"floyd.xml", "dijkstra.xml", "dijkstra_cache.xml"};

START_TEST(test_shortest_paths)
{
  plat_platform *p = load(shortest[_i]);
  route_table *rt = build(p);
  for (int rep = 0; rep < 2; rep++) { /* twice: DijkstraCache answers from its cache */
    expect_route(rt, "a", "b", "m1 m2_UP m3", 10e-6 + 10e-6 + 10e-6);
    expect_route(rt, "b", "a", "m3 m2_DOWN m1", 10e-6 + 10e-6 + 10e-6);
    expect_route(rt, "c", "d", "x", 10e-6);
    expect_route(rt, "a", "a", "__loopback__", 0);
    expect_no_route(rt, "d", "c", "no route from 'd' to 'c': zone 'z' (",
                    "has no path of routes");
    expect_no_route(rt, "a", "c", "no path of routes from 'a' to 'c'", NULL);
  }
  route_table_free(rt);
  plat_free(p);
}
END_TEST

static double link_lat(const route_table *rt, const char *name)
{
  double bw, lat;
  lmm_sharing s;
  route_link_info(rt, (uint32_t)route_link_by_name(rt, name), &bw, &lat, &s);
  return lat;
}

/* dijkstra_order.xml: latencies summed last route first, as SimGrid does (bit for bit) */
START_TEST(test_dijkstra_latency_order)
{
  plat_platform *p = load("dijkstra_order.xml");
  route_table *rt = build(p);
  exact = true;
  double z = link_lat(rt, "z"), x = link_lat(rt, "x"), y = link_lat(rt, "y");
  expect_route(rt, "a", "b", "x y z", (z + x) + y);
  expect_route(rt, "b", "a", "z y x", (y + x) + z);
  ck_assert((z + x) + y != (x + y) + z); /* the order shows */
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* Equal paths: Floyd takes the intermediate declared first (r2), Dijkstra the node that
 * appears first in the routes (r3). Between zones (chain_*.xml), A -> C goes through B:
 * the route between B's gateways b1 and b2 joins the two zoneRoutes. */
START_TEST(test_ties_and_chains)
{
  plat_platform *p = load("tie_floyd.xml");
  route_table *rt = build(p);
  expect_route(rt, "a", "b", "a2 b2", 0);
  route_table_free(rt);
  plat_free(p);
  p = load("tie_dijkstra.xml");
  rt = build(p);
  expect_route(rt, "a", "b", "a3 b3", 0);
  expect_route(rt, "b", "a", "b3 a3", 0);
  route_table_free(rt);
  plat_free(p);
  static const char *const chains[] = {"chain_floyd.xml", "chain_dijkstra.xml"};
  for (int i = 0; i < 2; i++) { /* SimGrid 3.32 crashes on the Dijkstra one */
    p = load(chains[i]);
    rt = build(p);
    expect_route(rt, "a1", "c2", "la ab lb bc_UP lc", ((1e-3 + 2e-6) + 2e-3) + 1e-6 + 3e-6);
    expect_route(rt, "c2", "a1", "lc bc_DOWN lb ab la", ((2e-3 + 2e-6) + 1e-3) + 3e-6 + 1e-6);
    expect_route(rt, "b1", "a1", "ab la", 1e-3 + 1e-6);
    route_table_free(rt);
    plat_free(p);
  }
}
END_TEST

/* bypass.xml: bypassRoute a1 -> a2 = X (one way); bypassZoneRoute A -> B through a2, b2 = Y
 * with both halves computed even from a gateway to itself. */
START_TEST(test_bypass)
{
  plat_platform *p = load("bypass.xml");
  route_table *rt = build(p);
  expect_route(rt, "a1", "a2", "X", 3e-6);
  expect_route(rt, "a2", "a1", "la2 la1", 2e-6 + 1e-6);
  expect_route(rt, "a1", "b1", "X Y lb3", 3e-6 + 2e-3 + 40e-6);
  expect_route(rt, "a2", "b2", "__loopback__ Y __loopback__", 2e-3);
  expect_route(rt, "b1", "a1", "lb1 wan la1", 1e-3 + 10e-6 + 1e-6); /* B -> A: zoneRoute */
  route_table_free(rt);
  plat_free(p);
  p = load("bypass_deep.xml"); /* s is in A/A1/A2: the bypass A -> B still applies */
  rt = build(p);
  expect_route(rt, "s", "b", "k2 lpq Y __loopback__", ((2e-6 + 1e-6) + 2e-3));
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* cluster_zone.xml: h0 up u0 / down d0, h1 SPLITDUPLEX s1, h2 SHARED s2, backbone bb. */
START_TEST(test_cluster_zone)
{
  plat_platform *p = load("cluster_zone.xml");
  route_table *rt = build(p);
  expect_route(rt, "h0", "h1", "u0 bb s1_DOWN", 1e-6 + 10e-6 + 3e-6);
  expect_route(rt, "h1", "h1", "s1_UP bb s1_DOWN", 3e-6 + 10e-6 + 3e-6);
  expect_route(rt, "h2", "h2", "s2 bb", 4e-6 + 10e-6); /* one link both ways: once */
  /* cabinet hosts with link_<host>, gateway c-0.x; router czr of cz */
  expect_route(rt, "c-1.x", "h0", "link_c-1.x_UP link_c-0.x_DOWN w bb d0",
               ((1e-3 + 5e-6) + 5e-6) + 10e-6 + 2e-6);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* fat_tree.xml "2;4,4;1,2;1,2": host h under level-1 switch h/4 (SimGrid id 31 - h/4), top
 * switches 27 and 26; 2 parallel links between each level-1 and top switch.
 *   n0 -> n5: up from n0 to 31 (only parent); at 31 the port is 5 mod (2 x 2) = 1: parent
 *   1 % 2 = 1 (id 26), parallel link 1 / 2 = 0: uid 16 + 0*4 + 1*2 + 0 = 18. Down from 26:
 *   scan from 4 x (0 mod 2) = 0 for digit 5/4 = 1: port 1, link 0 to switch 30 (uid 22);
 *   the scan goes on at 30 with ports 2, 3 (no match for digit 5 % 4 = 1), restarts at 0:
 *   port 1 -> n5 (uid 5).
 *   n1 -> n12: at 31 port 12 mod 4 = 0 -> id 27, link 0 (uid 16). Down from 27: the scan
 *   starts at 4 x (1 mod 2) = 4 (the source!) and finds port 7 (digit 3, link 1): switch 28
 *   through uid 16 + 3*4 + 0*2 + 1 = 29; at 28 the scan (port 8) is past its 4 ports,
 *   restarts, port 0 -> n12. */
START_TEST(test_fat_tree)
{
  plat_platform *p = load("fat_tree.xml");
  route_table *rt = build(p);
  expect_route(rt, "n0", "n5",
               "link_from_0_31_0_UP link_from_31_26_18_UP link_from_30_26_22_DOWN "
               "link_from_5_30_5_DOWN",
               4e-6);
  expect_route(rt, "n1", "n12",
               "link_from_1_31_1_UP link_from_31_27_16_UP link_from_28_27_29_DOWN "
               "link_from_12_28_12_DOWN",
               4e-6);
  expect_route(rt, "n0", "n1", "link_from_0_31_0_UP link_from_1_31_1_DOWN", 2e-6);
  expect_route(rt, "n0", "n0", "link_from_0_31_0_UP link_from_0_31_0_DOWN", 2e-6);
  /* 16 host links + 4 x 4 switch links, SPLITDUPLEX, + model loopback */
  ck_assert_uint_eq(route_link_count(rt), 2 * 32 + 1);
  link_is(rt, "link_from_28_27_29_DOWN", 1.25e9, 1e-6, LMM_SHARED);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* torus.xml 3x3x2, host = x + 3y + 9z; each host owns the link to its +1 neighbour in each
 * dimension ("from i to next"); going -1 crosses the neighbour's link DOWN.
 *   n0 -> n17 (2,2,1): x 0 -> 2 in a ring of 3 is shorter down (via 2_to_0), y likewise
 *   (8_to_2), z 0 -> 1 up (8_to_17).
 *   n17 -> n0: x 2 -> 0 goes up (wraps), y too, z 1 -> 0 goes down (0_to_9).
 * torus_ring4.xml: ties (distance 2) 0 -> 2 up, 2 -> 0 down, 3 -> 1 up (SimGrid's rule). */
START_TEST(test_torus)
{
  plat_platform *p = load("torus.xml");
  route_table *rt = build(p);
  expect_route(rt, "n0", "n17",
               "to_link_from_2_to_0_DOWN to_link_from_8_to_2_DOWN to_link_from_8_to_17_UP", 3e-6);
  expect_route(rt, "n17", "n0",
               "to_link_from_17_to_15_UP to_link_from_15_to_9_UP to_link_from_0_to_9_DOWN", 3e-6);
  /* no loopback nor limiter: SimGrid has an empty route, we use the model loopback */
  expect_route(rt, "n4", "n4", "__loopback__", 0);
  ck_assert_uint_eq(route_link_count(rt), 18 * 3 * 2 + 1);
  route_table_free(rt);
  plat_free(p);
  p = load("torus_ring4.xml");
  rt = build(p);
  expect_route(rt, "n0", "n2", "tr_link_from_0_to_1_UP tr_link_from_1_to_2_UP", 2e-6);
  expect_route(rt, "n2", "n0", "tr_link_from_1_to_2_DOWN tr_link_from_0_to_1_DOWN", 2e-6);
  expect_route(rt, "n3", "n1", "tr_link_from_3_to_0_UP tr_link_from_0_to_1_UP", 2e-6);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* dragonfly.xml "3,1;2,1;3,1;2": router r = (group r/6, chassis r/3 % 2, blade r % 3),
 * host h on router h/2. Link uids: local 0..35, green 36.. (per group, chassis, blade pair),
 * black 54.. (per group, chassis pair, blade), blue 63.. (per group pair).
 *   n7 (router 3 = g0 c1 b0) -> n30 (router 15 = g2 c1 b0): group 0 reaches group 2 through
 *   its router of local index 2 (c0 b2): green in chassis 1 b0 -> b2 (uid 36 + 3 + 1 = 40),
 *   black c1 -> c0 at blade 2 (uid 54 + 0 + 2 = 56, DOWN), blue 0 -> 2 (uid 64), enters group 2
 *   at its router of local index 0 (c0 b0 = router 12), black c0 -> c1 at blade 0 (uid 60).
 *   n10 (router 5 = g0 c1 b2) -> n0 (router 0 = g0 c0 b0): SimGrid 3.32 changes blade (green
 *   in chassis 1) then believes it is in chassis 0: no black link. routing/dragonfly:minimal
 *   adds it. */
START_TEST(test_dragonfly)
{
  plat_platform *p = load("dragonfly.xml");
  route_table *rt = build(p);
  expect_route(rt, "n7", "n30",
               "local_link_from_router_3_to_node_1_7_UP "
               "green_link_in_chassis_1_between_routers_0_and_2_40_UP "
               "black_link_in_group_0_between_chassis_0_and_1_blade_2_56_DOWN "
               "blue_link_between_group_0_and_2_routers_2_and_12_64_UP "
               "black_link_in_group_2_between_chassis_0_and_1_blade_0_60_UP "
               "local_link_from_router_15_to_node_0_30_DOWN",
               6e-6);
  expect_route(rt, "n10", "n0",
               "local_link_from_router_5_to_node_0_10_UP "
               "green_link_in_chassis_1_between_routers_0_and_2_40_DOWN "
               "local_link_from_router_0_to_node_0_0_DOWN",
               3e-6);
  route_table_free(rt);
  ck_assert_int_eq(cfg_set("routing/dragonfly", "minimal", CFG_ORIGIN_CMDLINE, err, sizeof err),
                   0);
  rt = build(p);
  expect_route(rt, "n10", "n0",
               "local_link_from_router_5_to_node_0_10_UP "
               "green_link_in_chassis_1_between_routers_0_and_2_40_DOWN "
               "black_link_in_group_0_between_chassis_0_and_1_blade_0_54_DOWN "
               "local_link_from_router_0_to_node_0_0_DOWN",
               4e-6);
  route_table_free(rt);
  plat_free(p);
  p = load("dragonfly_bw.xml"); /* 3 blue, 4 black, 5 green links merged into one each */
  rt = build(p);
  link_is(rt, "blue_link_between_group_0_and_1_routers_1_and_6_30", 3 * 1.25e9, 1e-6,
          LMM_FATPIPE);
  link_is(rt, "local_link_from_router_0_to_node_0_0", 1.25e9, 1e-6, LMM_FATPIPE);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* ------------------------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------------------------- */

static void expect_build_error(const char *body, const char *frag1, const char *frag2)
{
  plat_platform *p = load_xml(body);
  route_table *rt = (route_table *)1;
  err[0] = '\0';
  ck_assert_int_eq(route_table_build(p, &rt, err, sizeof err), -1);
  ck_assert_ptr_null(rt);
  ck_assert_msg(strstr(err, frag1) != NULL, "'%s' lacks '%s'", err, frag1);
  ck_assert_msg(!frag2 || strstr(err, frag2) != NULL, "'%s' lacks '%s'", err, frag2);
  plat_free(p);
}

START_TEST(test_build_errors)
{
  /* symmetrical a -> b, then b -> a */
  expect_build_error("<zone id='z' routing='Full'>\n"
                     "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/>\n"
                     "  <link id='l' bandwidth='1Gbps'/>\n"
                     "  <route src='a' dst='b'><link_ctn id='l'/></route>\n"
                     "  <route src='b' dst='a'><link_ctn id='l'/></route>\n"
                     "</zone>\n",
                     "inline.xml:8: route b -> a: a route from 'b' to 'a' is already declared "
                     "at inline.xml:7",
                     "symmetrical=\"NO\"");
  /* the reverse of a symmetrical route collides with a one-way route */
  expect_build_error("<zone id='z' routing='Full'>\n"
                     "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/>\n"
                     "  <link id='l' bandwidth='1Gbps'/>\n"
                     "  <route src='a' dst='b' symmetrical='NO'><link_ctn id='l'/></route>\n"
                     "  <route src='b' dst='a'><link_ctn id='l'/></route>\n"
                     "</zone>\n",
                     "inline.xml:8: route b -> a: a route from 'a' to 'b' is already declared "
                     "at inline.xml:7 (routes are symmetrical unless symmetrical=\"NO\")",
                     NULL);
  /* SimGrid creates no router for a FAT_TREE cluster */
  expect_build_error(
      "<zone id='w' routing='Full'>\n"
      "  <cluster id='a' prefix='a' suffix='' radical='0-1' speed='1Gf' bw='1Gbps' lat='0'/>\n"
      "  <cluster id='f' prefix='f' suffix='' radical='0-3' speed='1Gf' bw='1Gbps' lat='0'\n"
      "           topology='FAT_TREE' topo_parameters='1;4;1;1'/>\n"
      "  <link id='l' bandwidth='1Gbps'/>\n"
      "  <zoneRoute src='a' dst='f' gw_src='aa_router' gw_dst='ff_router'>"
      "<link_ctn id='l'/></zoneRoute>\n"
      "</zone>\n",
      "inline.xml:9: zoneRoute a -> f: gateway 'ff_router' is the router of FAT_TREE cluster "
      "'f', which SimGrid does not create",
      "use one of the cluster's hosts");
  /* a bypassRoute between hosts of sub-zones is never looked up */
  expect_build_error("<zone id='w' routing='Full'>\n"
                     "  <zone id='A' routing='Full'><host id='a' speed='1Gf'/></zone>\n"
                     "  <zone id='B' routing='Full'><host id='b' speed='1Gf'/></zone>\n"
                     "  <link id='l' bandwidth='1Gbps'/>\n"
                     "  <bypassRoute src='a' dst='b'><link_ctn id='l'/></bypassRoute>\n"
                     "</zone>\n",
                     "inline.xml:8: bypassRoute a -> b: 'a' is in zone 'A', not directly in "
                     "zone 'w'",
                     "<bypassZoneRoute>");
  /* routing="Cluster" zones route through host_link, not routes */
  expect_build_error("<zone id='c' routing='Cluster'>\n"
                     "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/>\n"
                     "  <link id='l' bandwidth='1Gbps'/>\n"
                     "  <route src='a' dst='b'><link_ctn id='l'/></route>\n"
                     "</zone>\n",
                     "inline.xml:7: route a -> b: zone 'c' has routing Cluster, which takes no "
                     "declared routes",
                     "<host_link>");
  /* a dragonfly group needs a router per other group */
  expect_build_error(
      "<cluster id='d' prefix='d' suffix='' radical='0-7' speed='1Gf' bw='1Gbps' lat='0'\n"
      "         topology='DRAGONFLY' topo_parameters='4,1;1,1;2,1;1'/>\n",
      "inline.xml:5: cluster 'd': DRAGONFLY topology '4,1;1,1;2,1;1' has 4 groups but only 2 "
      "routers per group",
      NULL);
}
END_TEST

/* Topologies check their topo_parameters when the routing is built (the loader reads only
 * their syntax: tests/check_platform.c); the message starts with the cluster's file:line. */
static const struct {
  const char *file;
  const char *fragment;
} topo_errors[] = {
    {"fat_tree_parts.xml", "cluster 'ft': FAT_TREE topo_parameters '2;4,4;1,2' must have 4"},
    {"fat_tree_level_count.xml", "down-link counts (2nd part) '4,4,4' has 3 values, 2 expected"},
    {"fat_tree_host_count.xml", "describe 16 hosts (FAT_TREE) but radical '0-31' gives 32"},
    {"torus_missing.xml", "TORUS needs topo_parameters"},
    {"dragonfly_pair.xml", "DRAGONFLY chassis part"},
    {"dragonfly_host_count.xml", "describe 54 hosts (DRAGONFLY) but radical '0-49' gives 50"},
    {"topology_unknown.xml", "unknown topology 'FAT-TREE'; expected one of FLAT, FAT_TREE, "
                             "TORUS, DRAGONFLY"},
};

START_TEST(test_topology_errors)
{
  char path[1024], expect[1200];
  snprintf(path, sizeof path, SMPI_SOURCE_ROOT "/tests/data/platforms/bad/%s",
           topo_errors[_i].file);
  snprintf(expect, sizeof expect, "%s:5: ", path);
  plat_platform *p = NULL;
  ck_assert_msg(plat_load_file(path, &p, err, sizeof err) == 0, "%s: %s", path, err);
  route_table *rt = (route_table *)&rt; /* must be reset to NULL */
  err[0] = '\0';
  ck_assert_int_eq(route_table_build(p, &rt, err, sizeof err), -1);
  ck_assert_ptr_null(rt);
  ck_assert_msg(strncmp(err, expect, strlen(expect)) == 0, "error '%s' does not start with '%s'",
                err, expect);
  ck_assert_msg(strstr(err, topo_errors[_i].fragment), "error '%s' lacks '%s'", err,
                topo_errors[_i].fragment);
  plat_free(p);
}
END_TEST

START_TEST(test_route_errors)
{
  /* None: nothing is routed, not even a host to itself (SimGrid aborts) */
  plat_platform *p = load_xml("<zone id='z' routing='None'>\n"
                              "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/>\n"
                              "</zone>\n");
  route_table *rt = build(p);
  expect_no_route(rt, "a", "b", "no route from 'a' to 'b': zone 'z' has routing None",
                  "(inline.xml:4)");
  expect_no_route(rt, "a", "a", "zone 'z' has routing None", NULL);
  route_table_free(rt);
  plat_free(p);

  /* a Cluster zone without host_link nor backbone gives an empty route: an error */
  p = load_xml("<zone id='c' routing='Cluster'>\n"
               "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/>\n"
               "</zone>\n");
  rt = build(p);
  expect_no_route(rt, "a", "b",
                  "no route from 'a' to 'b': the route between them crosses no link",
                  "(inline.xml:4)");
  expect_route(rt, "b", "b", "__loopback__", 0);
  route_table_free(rt);
  plat_free(p);

  /* Dijkstra: a host in no route */
  p = load_xml(
      "<zone id='z' routing='Dijkstra'>\n"
      "  <host id='a' speed='1Gf'/><host id='b' speed='1Gf'/><host id='c' speed='1Gf'/>\n"
      "  <link id='l' bandwidth='1Gbps'/>\n"
      "  <route src='a' dst='b'><link_ctn id='l'/></route>\n"
      "</zone>\n");
  rt = build(p);
  expect_route(rt, "b", "a", "l", 0);
  expect_no_route(rt, "a", "c", "zone 'z' (Dijkstra routing): 'c' appears in none of its routes",
                  NULL);
  route_table_free(rt);
  plat_free(p);
}
END_TEST

/* ------------------------------------------------------------------------------------------
 * Scale: 100 000 hosts cost nothing per host
 * ---------------------------------------------------------------------------------------- */

static size_t heap_in_use(void)
{
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

static void check_big(const char *body, size_t expected_hosts, size_t expected_links,
                      const char *pair_a, const char *pair_b, const char *links, double lat)
{
  plat_platform *p = load_xml(body);
  size_t before = heap_in_use();
  route_table *rt = build(p);
  size_t table = heap_in_use() - before;
  /* a few arrays sized by the platform's elements (one cluster), none by its hosts */
  ck_assert_msg(table < 64 * 1024, "the routing table takes %zu bytes", table);
  ck_assert_uint_eq(route_host_count(rt), expected_hosts);
  ck_assert_uint_eq(route_link_count(rt), expected_links);
  route_path path;
  route_path_init(&path);
  uint64_t x = 12345;
  for (int i = 0; i < 2000; i++) { /* a sample of pairs, every link checked by name */
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    size_t a = (size_t)(x >> 33) % expected_hosts;
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    size_t b = (size_t)(x >> 33) % expected_hosts;
    path.count = 0;
    path.latency = 0;
    ck_assert_int_eq(route_get(rt, a, b, &path, err, sizeof err), 0);
    ck_assert_uint_ge(path.count, 1);
    for (size_t k = 0; k < path.count; k++) {
      char name[256];
      route_link_name(rt, path.links[k], name, sizeof name);
      ck_assert_int_eq(route_link_by_name(rt, name), (long)path.links[k]);
    }
  }
  route_path_free(&path);
  expect_route(rt, pair_a, pair_b, links, lat);
  route_table_free(rt);
  plat_free(p);
}

START_TEST(test_scale)
{
  check_big("<cluster id='big' prefix='h' suffix='' radical='0-99999' speed='1Gf' bw='10Gbps'\n"
            "         lat='1us' bb_bw='100Gbps' bb_lat='1us'/>\n",
            100000, 2 * 100000 + 1 + 1, "h17", "h99999",
            "big_link_17_UP big_backbone big_link_99999_DOWN", 3e-6);
  /* 100 000 hosts, 2 500 + 1 000 + 500 switches, 175 000 links SPLITDUPLEX */
  check_big(
      "<cluster id='ft' prefix='h' suffix='' radical='0-99999' speed='1Gf' bw='10Gbps'\n"
      "         lat='1us' topology='FAT_TREE' topo_parameters='3;40,50,50;1,20,25;1,1,1'/>\n",
      100000, 2 * 175000 + 1, "h0", "h39", "link_from_0_199999_0_UP link_from_39_199999_39_DOWN",
      2e-6);
}
END_TEST
/* fixtures: each test starts from the default configuration (also when not forked) */
static void approximate(void)
{
  cfg_reset();
  exact = false;
}

static void bit_exact(void)
{
  cfg_reset();
  exact = true;
}

/* ------------------------------------------------------------------------------------------
 * 3. The route cache (kernel/route_cache.h), with a fill function of its own: a route's
 *    "constraints" are fake pointers naming its links (never dereferenced: weight_S 0), so
 *    what the cache returns can be compared with what the fill gave.
 * ---------------------------------------------------------------------------------------- */

static struct {
  size_t calls;
  bool fail;
  size_t nfwd, nback; /* links of the routes the fill makes */
} fake;

static lmm_constraint *fake_link(size_t from, size_t to, size_t i)
{
  return (lmm_constraint *)(uintptr_t)(0x100000 + ((from * 64 + to) * 16 + i) * 64);
}

/* forward links from src to dst, then the reverse ones (distinct: nothing merged) */
static int fake_fill(size_t src, size_t dst, rc_entry *e, char *errbuf, size_t errlen)
{
  fake.calls++;
  if (fake.fail) {
    snprintf(errbuf, errlen, "no route");
    return -1;
  }
  memset(e, 0, sizeof *e);
  e->nfwd = (uint16_t)fake.nfwd;
  e->nback = (uint16_t)fake.nback;
  e->n = (uint16_t)(fake.nfwd + fake.nback);
  e->lat = (double)(src * 100 + dst);
  e->back_lat = (double)(dst * 100 + src);
  e->penalty = e->lat;
  for (size_t i = 0; i < e->n && i < RC_ELEMS; i++) {
    bool fwd = i < fake.nfwd;
    e->el[i].cnst = fwd ? fake_link(src, dst, i) : fake_link(dst, src, i - fake.nfwd);
    e->el[i].coef = fwd ? 1.0 : RC_CROSS_TRAFFIC_COEF;
  }
  return 0;
}

static void expect_entry(route_cache *rc, size_t src, size_t dst, size_t calls)
{
  const rc_entry *e = route_cache_get(rc, src, dst, err, sizeof err);
  ck_assert_msg(e != NULL, "%zu -> %zu: %s", src, dst, err);
  ck_assert_msg(fake.calls == calls, "%zu -> %zu: %zu fills, %zu expected", src, dst, fake.calls,
                calls);
  ck_assert_uint_eq(e->nfwd, fake.nfwd);
  ck_assert(e->lat == (double)(src * 100 + dst) && e->penalty == e->lat);
  for (size_t i = 0; i < e->n && i < RC_ELEMS; i++) {
    bool fwd = i < e->nfwd;
    lmm_constraint *want = fwd ? fake_link(src, dst, i) : fake_link(dst, src, i - e->nfwd);
    ck_assert_ptr_eq(e->el[i].cnst, want);
    ck_assert(e->el[i].coef == (fwd ? 1.0 : RC_CROSS_TRAFFIC_COEF));
  }
}

START_TEST(test_route_cache_ways)
{
  route_cache rc;
  memset(&fake, 0, sizeof fake);
  fake.nfwd = 2;
  route_cache_init(&rc, 20, 0.0, false, fake_fill);
  /* RC_WAYS destinations of host 3 fill the ways; all hit afterwards */
  for (size_t d = 0; d < RC_WAYS; d++)
    expect_entry(&rc, 3, 10 + d, d + 1);
  for (size_t d = 0; d < RC_WAYS; d++)
    expect_entry(&rc, 3, 10 + d, RC_WAYS);
  /* another source has its own set */
  expect_entry(&rc, 4, 10, RC_WAYS + 1);
  /* one more destination replaces the oldest (round robin), and only it */
  expect_entry(&rc, 3, 19, RC_WAYS + 2);
  expect_entry(&rc, 3, 11, RC_WAYS + 2);
  expect_entry(&rc, 3, 10, RC_WAYS + 3);
  /* a missing route: NULL with the message, nothing cached */
  fake.fail = true;
  ck_assert_ptr_null(route_cache_get(&rc, 5, 6, err, sizeof err));
  ck_assert_str_eq(err, "no route");
  fake.fail = false;
  expect_entry(&rc, 5, 6, RC_WAYS + 5);
  /* a route of more elements than an entry holds comes back each time from the fill */
  fake.nfwd = RC_ELEMS + 1;
  expect_entry(&rc, 7, 8, RC_WAYS + 6);
  expect_entry(&rc, 7, 8, RC_WAYS + 7);
  ck_assert_uint_eq(rc.computed, RC_WAYS + 7); /* the failed one too */
  ck_assert_uint_eq(rc.mirrored, 0);
  route_cache_free(&rc);
}
END_TEST

START_TEST(test_route_cache_mirror)
{
  route_cache rc;
  memset(&fake, 0, sizeof fake);
  fake.nfwd = 3;
  fake.nback = 2;
  route_cache_init(&rc, 20, 0.0, true, fake_fill);
  expect_entry(&rc, 1, 2, 1);
  /* 2 -> 1: the roles swapped, without a fill (2 forward links now, 3 reverse) */
  fake.nfwd = 2;
  fake.nback = 3;
  expect_entry(&rc, 2, 1, 1);
  const rc_entry *e = route_cache_get(&rc, 2, 1, err, sizeof err);
  ck_assert(e->back_lat == 102.0 && e->nback == 3 && e->n == 5);
  ck_assert_uint_eq(rc.mirrored, 1);
  /* an entry whose routes share a link (merged) is looked up */
  route_cache_free(&rc);
  route_cache_init(&rc, 20, 0.0, true, fake_fill);
  fake.calls = 0;
  fake.nfwd = 2;
  fake.nback = 0;
  const rc_entry *m = route_cache_get(&rc, 1, 2, err, sizeof err);
  ((rc_entry *)m)->nback = RC_MERGED;
  expect_entry(&rc, 2, 1, 2);
  ck_assert_uint_eq(rc.mirrored, 0);
  route_cache_free(&rc);
  /* without cross-traffic the reverse route is not in the entry: no mirror */
  route_cache_init(&rc, 20, 0.0, false, fake_fill);
  fake.calls = 0;
  expect_entry(&rc, 1, 2, 1);
  expect_entry(&rc, 2, 1, 2);
  route_cache_free(&rc);
}
END_TEST

int main(void)
{
  route_declare_config();
  Suite *s = suite_create("routing");
  TCase *tc = tcase_create("simgrid");
  tcase_add_checked_fixture(tc, bit_exact, NULL);
  /* the platforms of the recorded routes, the four topologies among them: a lost file
   * would shrink the comparison silently */
  if (glob(DATA "*.routes", 0, NULL, &simgrid_platforms) != 0 ||
      simgrid_platforms.gl_pathc < 30) {
    fprintf(stderr, "only %zu .routes files in %s\n", simgrid_platforms.gl_pathc, DATA);
    return EXIT_FAILURE;
  }
  tcase_add_loop_test(tc, test_simgrid_routes, 0, (int)simgrid_platforms.gl_pathc);
  suite_add_tcase(s, tc);
  tc = tcase_create("by-hand");
  tcase_add_checked_fixture(tc, approximate, NULL);
  tcase_add_test(tc, test_config_defaults);
  tcase_add_test(tc, test_flat);
  tcase_add_test(tc, test_full);
  tcase_add_test(tc, test_nested);
  tcase_add_loop_test(tc, test_shortest_paths, 0, 3);
  tcase_add_test(tc, test_ties_and_chains);
  tcase_add_test(tc, test_dijkstra_latency_order);
  tcase_add_test(tc, test_bypass);
  tcase_add_test(tc, test_cluster_zone);
  tcase_add_test(tc, test_fat_tree);
  tcase_add_test(tc, test_torus);
  tcase_add_test(tc, test_dragonfly);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_checked_fixture(tc, approximate, NULL);
  tcase_add_test(tc, test_build_errors);
  tcase_add_loop_test(tc, test_topology_errors, 0,
                      (int)(sizeof topo_errors / sizeof topo_errors[0]));
  tcase_add_test(tc, test_route_errors);
  suite_add_tcase(s, tc);
  tc = tcase_create("route-cache");
  tcase_add_test(tc, test_route_cache_ways);
  tcase_add_test(tc, test_route_cache_mirror);
  suite_add_tcase(s, tc);
  tc = tcase_create("scale");
  tcase_add_checked_fixture(tc, approximate, NULL);
  tcase_add_test(tc, test_scale);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  globfree(&simgrid_platforms);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
