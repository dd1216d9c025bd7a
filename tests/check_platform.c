/* Unit tests of the platform loader, the unit parser and the string map.
 *
 * Data: the shipped examples in platforms/ and tests/data/platforms/{good,bad}/. Every
 * bad file is listed in bad_files[] with the exact "file:line:" its error must start with
 * and a fragment of the message. Tests run forked (Check's default): the configuration key
 * declared in main() is there in every test, and settings made by one test do not leak. */
#include "src/cfg.h"
#include "src/platform.h"
#include "src/strmap.h"
#include "src/units.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PLATFORMS SMPI_SOURCE_ROOT "/platforms/"
#define DATA SMPI_SOURCE_ROOT "/tests/data/platforms/"

static char err[2048];

static plat_platform *load_ok(const char *path)
{
  plat_platform *p = NULL;
  err[0] = '\0';
  int rc = plat_load_file(path, &p, err, sizeof err);
  ck_assert_msg(rc == 0, "loading %s failed: %s", path, err);
  ck_assert_ptr_nonnull(p);
  return p;
}

static plat_platform *load_string_ok(const char *xml, const char *name)
{
  plat_platform *p = NULL;
  err[0] = '\0';
  int rc = plat_load_string(xml, name, &p, err, sizeof err);
  ck_assert_msg(rc == 0, "loading %s failed: %s", name, err);
  return p;
}

static void assert_close(double got, double want)
{
  ck_assert_msg(fabs(got - want) <= 1e-12 * fabs(want), "got %.17g, expected %.17g", got, want);
}

static const char *point_name(const plat_point *pt)
{
  static char buf[256];
  plat_point_name(pt, buf, sizeof buf);
  return buf;
}

static plat_route *find_route(plat_zone *z, const char *src, const char *dst)
{
  for (size_t i = 0; i < z->nroutes; i++) {
    char a[256], b[256];
    plat_point_name(&z->routes[i]->src, a, sizeof a);
    plat_point_name(&z->routes[i]->dst, b, sizeof b);
    if (strcmp(a, src) == 0 && strcmp(b, dst) == 0)
      return z->routes[i];
  }
  ck_abort_msg("no route %s -> %s in zone %s", src, dst, z->id);
  return NULL;
}

/* ======================================================================================
 * units
 * ====================================================================================== */

static const struct {
  units_kind kind;
  const char *text;
  double value;
} unit_ok[] = {
    {UNITS_SPEED, "1f", 1},
    {UNITS_SPEED, "1flops", 1},
    {UNITS_SPEED, "2kf", 2e3},
    {UNITS_SPEED, "1.5Mf", 1.5e6},
    {UNITS_SPEED, "1Gf", 1e9},
    {UNITS_SPEED, "1e9f", 1e9},
    {UNITS_SPEED, "3Tf", 3e12},
    {UNITS_SPEED, " \t3Tf \n", 3e12},
    {UNITS_SPEED, "1Pf", 1e15},
    {UNITS_SPEED, "1Ef", 1e18},
    {UNITS_SPEED, "1Zf", 1e21},
    {UNITS_SPEED, "1Yf", 1e24},
    {UNITS_SPEED, "2gigaflops", 2e9},
    {UNITS_SPEED, "1kiloflops", 1e3},
    {UNITS_SPEED, "1megaflops", 1e6},
    {UNITS_SPEED, "1teraflops", 1e12},
    {UNITS_SPEED, "1petaflops", 1e15},
    {UNITS_SPEED, "1exaflops", 1e18},
    {UNITS_SPEED, "1zettaflops", 1e21},
    {UNITS_SPEED, "1yottaflops", 1e24},
    {UNITS_SPEED, "0", 0},
    {UNITS_BANDWIDTH, "1Bps", 1},
    {UNITS_BANDWIDTH, "1kBps", 1e3},
    {UNITS_BANDWIDTH, "1KBps", 1e3},
    {UNITS_BANDWIDTH, "125MBps", 1.25e8},
    {UNITS_BANDWIDTH, "1GBps", 1e9},
    {UNITS_BANDWIDTH, "1TBps", 1e12},
    {UNITS_BANDWIDTH, "1PBps", 1e15},
    {UNITS_BANDWIDTH, "1EBps", 1e18},
    {UNITS_BANDWIDTH, "1KiBps", 1024},
    {UNITS_BANDWIDTH, "1MiBps", 1048576},
    {UNITS_BANDWIDTH, "1GiBps", 1073741824.0},
    {UNITS_BANDWIDTH, "1TiBps", 1099511627776.0},
    {UNITS_BANDWIDTH, "1PiBps", 1125899906842624.0},
    {UNITS_BANDWIDTH, "1EiBps", 1152921504606846976.0},
    {UNITS_BANDWIDTH, "8bps", 1},
    {UNITS_BANDWIDTH, "8kbps", 1e3},
    {UNITS_BANDWIDTH, "8Kbps", 1e3},
    {UNITS_BANDWIDTH, "100Mbps", 1.25e7},
    {UNITS_BANDWIDTH, "10Gbps", 1.25e9},
    {UNITS_BANDWIDTH, "1Tbps", 1.25e11},
    {UNITS_BANDWIDTH, "1Pbps", 1.25e14},
    {UNITS_BANDWIDTH, "1Ebps", 1.25e17},
    {UNITS_BANDWIDTH, "8Kibps", 1024},
    {UNITS_BANDWIDTH, "8Mibps", 1048576},
    {UNITS_BANDWIDTH, "8Gibps", 1073741824.0},
    {UNITS_BANDWIDTH, "8Tibps", 1099511627776.0},
    {UNITS_BANDWIDTH, "8Pibps", 1125899906842624.0},
    {UNITS_BANDWIDTH, "8Eibps", 1152921504606846976.0},
    {UNITS_BANDWIDTH, "27262976Bps", 27262976},
    {UNITS_LATENCY, "1s", 1},
    {UNITS_LATENCY, "1.5ms", 1.5e-3},
    {UNITS_LATENCY, "50us", 5e-5},
    {UNITS_LATENCY, "500ns", 5e-7},
    {UNITS_LATENCY, "3ps", 3e-12},
    {UNITS_LATENCY, "2m", 120},
    {UNITS_LATENCY, "1h", 3600},
    {UNITS_LATENCY, "1d", 86400},
    {UNITS_LATENCY, "1w", 604800},
    {UNITS_LATENCY, "0", 0},
    {UNITS_LATENCY, ".5s", 0.5},
    {UNITS_SIZE, "1B", 1},
    {UNITS_SIZE, "1kB", 1e3},
    {UNITS_SIZE, "1KB", 1e3},
    {UNITS_SIZE, "2MB", 2e6},
    {UNITS_SIZE, "1GB", 1e9},
    {UNITS_SIZE, "1TB", 1e12},
    {UNITS_SIZE, "1PB", 1e15},
    {UNITS_SIZE, "1EB", 1e18},
    {UNITS_SIZE, "64KiB", 65536},
    {UNITS_SIZE, "1MiB", 1048576},
    {UNITS_SIZE, "1GiB", 1073741824.0},
    {UNITS_SIZE, "1TiB", 1099511627776.0},
    {UNITS_SIZE, "1PiB", 1125899906842624.0},
    {UNITS_SIZE, "1EiB", 1152921504606846976.0},
    {UNITS_SIZE, "8b", 1},
    {UNITS_SIZE, "8kb", 1e3},
    {UNITS_SIZE, "8Kb", 1e3},
    {UNITS_SIZE, "8Mb", 1e6},
    {UNITS_SIZE, "8Gb", 1e9},
    {UNITS_SIZE, "8Tb", 1e12},
    {UNITS_SIZE, "8Pb", 1e15},
    {UNITS_SIZE, "8Eb", 1e18},
    {UNITS_SIZE, "8Kib", 1024},
    {UNITS_SIZE, "8Mib", 1048576},
    {UNITS_SIZE, "8Gib", 1073741824.0},
    {UNITS_SIZE, "8Tib", 1099511627776.0},
    {UNITS_SIZE, "8Pib", 1125899906842624.0},
    {UNITS_SIZE, "8Eib", 1152921504606846976.0},
};

START_TEST(test_units_ok)
{
  double v = -1;
  char msg[512];
  int rc = units_parse(unit_ok[_i].kind, unit_ok[_i].text, &v, NULL, msg, sizeof msg);
  ck_assert_msg(rc == 0, "%s: %s", unit_ok[_i].text, msg);
  assert_close(v, unit_ok[_i].value);
}
END_TEST

/* Every unit the parser lists has a line in unit_ok (so a unit added to units.c without a
 * test, or with a wrong factor, shows up). */
START_TEST(test_units_all_covered)
{
  for (units_kind k = UNITS_SPEED; k <= UNITS_SIZE; k++) {
    char list[1024];
    snprintf(list, sizeof list, "%s", units_list(k));
    for (char *save, *u = strtok_r(list, ", ", &save); u; u = strtok_r(NULL, ", ", &save)) {
      bool found = false;
      for (size_t i = 0; i < sizeof unit_ok / sizeof unit_ok[0] && !found; i++) {
        const char *t = unit_ok[i].text;
        size_t tl = strlen(t), ul = strlen(u);
        found = unit_ok[i].kind == k && tl > ul && strcmp(t + tl - ul, u) == 0 &&
                strchr("0123456789.", t[tl - ul - 1]);
      }
      ck_assert_msg(found, "unit '%s' (%s) has no test line", u, units_kind_name(k));
    }
  }
}
END_TEST

static const struct {
  units_kind kind;
  const char *text;
  const char *fragment;
} unit_bad[] = {
    {UNITS_BANDWIDTH, "10Gbs", "unknown unit 'Gbs' in bandwidth '10Gbs'; expected one of Bps, "},
    {UNITS_BANDWIDTH, "10gbps", "unknown unit 'gbps'"},
    {UNITS_BANDWIDTH, "1 Gbps", "unknown unit ' Gbps'"},
    {UNITS_SPEED, "1GHz", "unknown unit 'GHz' in speed '1GHz'; expected one of f, flops"},
    {UNITS_SPEED, "1mf", "unknown unit 'mf'"},
    {UNITS_SPEED, "fast", "'fast' is not a valid speed"},
    {UNITS_SPEED, "", "empty speed"},
    {UNITS_SPEED, "   ", "empty speed"},
    {UNITS_SPEED, "inf", "'inf' is not a valid speed"},
    {UNITS_SPEED, "nanf", "'nanf' is not a valid speed"},
    {UNITS_SPEED, "0x10f", "'0x10f' is not a valid speed"},
    {UNITS_LATENCY, "5usec", "unknown unit 'usec' in latency '5usec'; expected one of s, ms, us"},
    {UNITS_LATENCY, "-1ms", "negative latency '-1ms'"},
    {UNITS_LATENCY, "1e999s", "'1e999s' is not a valid latency"},
    {UNITS_SPEED, "1e308Gf", "speed '1e308Gf' is too large"}, /* found by fuzzing */
    {UNITS_LATENCY, "us", "'us' is not a valid latency"},
    {UNITS_SIZE, "1KiBps", "unknown unit 'KiBps' in size"},
    {UNITS_SIZE, "1kiB", "unknown unit 'kiB' in size"},
};

START_TEST(test_units_bad)
{
  double v = 42;
  char msg[512] = "";
  int rc = units_parse(unit_bad[_i].kind, unit_bad[_i].text, &v, NULL, msg, sizeof msg);
  ck_assert_int_eq(rc, -1);
  ck_assert_msg(strstr(msg, unit_bad[_i].fragment), "'%s': message '%s' lacks '%s'",
                unit_bad[_i].text, msg, unit_bad[_i].fragment);
  assert_close(v, 42); /* untouched on error */
}
END_TEST

START_TEST(test_units_unitless)
{
  double v;
  bool unitless;
  char msg[256];
  ck_assert_int_eq(units_parse(UNITS_BANDWIDTH, "1000", &v, &unitless, msg, sizeof msg), 0);
  ck_assert(unitless);
  assert_close(v, 1000);
  ck_assert_int_eq(units_parse(UNITS_LATENCY, "0", &v, &unitless, msg, sizeof msg), 0);
  ck_assert(!unitless); /* 0 needs no unit */
  ck_assert_int_eq(units_parse(UNITS_SPEED, "1Gf", &v, &unitless, msg, sizeof msg), 0);
  ck_assert(!unitless);
  /* the shortcuts accept a bare number (with a logged warning) and reject garbage */
  ck_assert_int_eq(units_parse_speed("100", &v, msg, sizeof msg), 0);
  assert_close(v, 100);
  ck_assert_int_eq(units_parse_bandwidth("1.25GBps", &v, msg, sizeof msg), 0);
  assert_close(v, 1.25e9);
  ck_assert_int_eq(units_parse_latency("2.5us", &v, msg, sizeof msg), 0);
  assert_close(v, 2.5e-6);
  ck_assert_int_eq(units_parse_size("4KiB", &v, msg, sizeof msg), 0);
  assert_close(v, 4096);
  ck_assert_int_eq(units_parse_size("4 KiB", &v, msg, sizeof msg), -1);
  ck_assert_str_eq(units_kind_name(UNITS_LATENCY), "latency");
  ck_assert_ptr_nonnull(strstr(units_list(UNITS_BANDWIDTH), "Gibps"));
}
END_TEST

static Suite *units_suite(void)
{
  Suite *s = suite_create("units");
  TCase *tc = tcase_create("units");
  tcase_add_loop_test(tc, test_units_ok, 0, sizeof unit_ok / sizeof unit_ok[0]);
  tcase_add_loop_test(tc, test_units_bad, 0, sizeof unit_bad / sizeof unit_bad[0]);
  tcase_add_test(tc, test_units_unitless);
  tcase_add_test(tc, test_units_all_covered);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * strmap
 * ====================================================================================== */

START_TEST(test_strmap)
{
  strmap *m = strmap_new();
  static int vals[3];
  ck_assert_ptr_null(strmap_get(m, "a"));
  ck_assert(strmap_insert(m, "a", &vals[0]));
  ck_assert(!strmap_insert(m, "a", &vals[1])); /* present: unchanged */
  ck_assert_ptr_eq(strmap_get(m, "a"), &vals[0]);
  ck_assert_ptr_eq(strmap_set(m, "a", &vals[2]), &vals[0]);
  ck_assert_ptr_eq(strmap_get(m, "a"), &vals[2]);
  ck_assert(strmap_insert(m, "", NULL));
  void *v = &vals[0];
  ck_assert(strmap_find(m, "", &v));
  ck_assert_ptr_null(v);
  ck_assert_uint_eq(strmap_size(m), 2);

  /* growth, removals (tombstones) and re-insertions */
  char key[32];
  for (int i = 0; i < 20000; i++) {
    snprintf(key, sizeof key, "node-%d", i);
    ck_assert(strmap_insert(m, key, (void *)(intptr_t)(i + 1)));
  }
  for (int i = 0; i < 20000; i += 2) {
    snprintf(key, sizeof key, "node-%d", i);
    void *old;
    ck_assert(strmap_remove(m, key, &old));
    ck_assert_int_eq((int)(intptr_t)old, i + 1);
  }
  ck_assert(!strmap_remove(m, "node-0", NULL));
  ck_assert_uint_eq(strmap_size(m), 10002);
  for (int i = 0; i < 20000; i++) {
    snprintf(key, sizeof key, "node-%d", i);
    void *got = strmap_get(m, key);
    ck_assert_int_eq((int)(intptr_t)got, i % 2 ? i + 1 : 0);
  }
  for (int i = 0; i < 20000; i += 2) {
    snprintf(key, sizeof key, "node-%d", i);
    ck_assert(strmap_insert(m, key, (void *)(intptr_t)-i));
  }
  size_t count = 0, it = 0;
  const char *k;
  while (strmap_next(m, &it, &k, &v))
    count++;
  ck_assert_uint_eq(count, 20002);
  ck_assert_uint_eq(strmap_size(m), 20002);
  strmap_free(m);
}
END_TEST

static Suite *strmap_suite(void)
{
  Suite *s = suite_create("strmap");
  TCase *tc = tcase_create("strmap");
  tcase_add_test(tc, test_strmap);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * shipped examples
 * ====================================================================================== */

START_TEST(test_small_hetero)
{
  plat_platform *p = load_ok(PLATFORMS "small_hetero.xml");
  ck_assert_uint_eq(p->nzones, 1);
  ck_assert_int_eq(p->root->routing, PLAT_ROUTING_FULL);
  ck_assert_uint_eq(plat_host_count(p), 4);
  ck_assert_uint_eq(p->nlinks, 4);
  ck_assert_uint_eq(p->root->nroutes, 6);
  plat_host *bob = plat_find_host(p, "bob");
  ck_assert_ptr_nonnull(bob);
  assert_close(bob->speeds[0], 2e9);
  ck_assert_int_eq(bob->cores, 4);
  plat_host *carol = plat_find_host(p, "carol");
  ck_assert_uint_eq(carol->npstates, 2);
  assert_close(carol->speeds[1], 2.5e8);
  ck_assert_str_eq(plat_props_get(&carol->props, "role"), "storage");
  plat_route *r = find_route(p->root, "alice", "carol");
  ck_assert(r->symmetrical);
  ck_assert_uint_eq(r->nlinks, 2);
  ck_assert_str_eq(r->links[1].link->id, "l_carol");
  assert_close(r->links[1].link->bandwidth, 1.25e7);
  assert_close(r->links[1].link->latency, 5e-5);
  ck_assert_int_eq(r->links[1].link->sharing, PLAT_SHARING_SHARED);
  plat_free(p);
}
END_TEST

/* a cluster's parsed topo_parameters written back: parts joined by ';', values by ',' */
static const char *topo_text(const plat_cluster *c)
{
  static char buf[256];
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < c->topo.nparts; i++)
    for (size_t k = c->topo.start[i]; k < c->topo.start[i + 1]; k++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%u",
                               k == c->topo.start[i] ? (i ? ";" : "") : ",", c->topo.values[k]);
  return buf;
}

START_TEST(test_cluster_flat)
{
  plat_platform *p = load_ok(PLATFORMS "cluster_flat.xml");
  ck_assert_uint_eq(plat_host_count(p), 64);
  ck_assert_uint_eq(p->nhosts, 0); /* cluster hosts are not materialised */
  ck_assert_uint_eq(p->nclusters, 1);
  plat_cluster *c = p->root->cluster;
  ck_assert_ptr_nonnull(c);
  ck_assert_str_eq(c->topology, "FLAT");
  ck_assert(c->flat);
  ck_assert_uint_eq(c->topo.nparts, 0);
  ck_assert_int_eq(c->sharing, PLAT_SHARING_SPLITDUPLEX); /* cluster default */
  assert_close(c->bw, 1.25e9);
  assert_close(c->lat, 1e-6);
  ck_assert(c->has_backbone);
  assert_close(c->bb_bw, 1.25e9);
  assert_close(c->bb_lat, 5e-7);
  ck_assert_int_eq(c->bb_sharing, PLAT_SHARING_SHARED);
  ck_assert(!c->has_limiter && !c->has_loopback);
  ck_assert_str_eq(c->router->id, "node-flat_router");
  plat_point pt = plat_host_at(p, 63);
  ck_assert_str_eq(point_name(&pt), "node-63");
  plat_link_ref ref;
  ck_assert(plat_find_link(p, "flat_backbone", PLAT_DIR_NONE, &ref));
  ck_assert_int_eq(ref.which, PLAT_CLINK_BACKBONE);
  ck_assert(plat_find_link(p, "flat_link_7", PLAT_DIR_UP, &ref));
  ck_assert_int_eq(ref.which, PLAT_CLINK_PRIVATE);
  ck_assert_uint_eq(ref.rank, 7);
  ck_assert(!plat_find_link(p, "flat_link_7", PLAT_DIR_NONE, &ref)); /* SPLITDUPLEX */
  ck_assert(!plat_find_link(p, "flat_link_64_UP", PLAT_DIR_NONE, &ref));
  plat_free(p);
}
END_TEST

START_TEST(test_cluster_fat_tree)
{
  plat_platform *p = load_ok(PLATFORMS "cluster_fat_tree.xml");
  plat_cluster *c = p->root->cluster;
  ck_assert_str_eq(c->topology, "FAT_TREE");
  ck_assert(!c->flat);
  ck_assert_str_eq(topo_text(c), "2;4,4;1,2;1,2"); /* the routing checks what they mean */
  ck_assert_uint_eq(plat_host_count(p), 16);
  plat_free(p);
}
END_TEST

START_TEST(test_cluster_torus)
{
  plat_platform *p = load_ok(PLATFORMS "cluster_torus.xml");
  plat_cluster *c = p->root->cluster;
  ck_assert_str_eq(c->topology, "TORUS");
  ck_assert_str_eq(topo_text(c), "4,4,4");
  ck_assert_uint_eq(plat_host_count(p), 64);
  ck_assert(c->has_loopback);
  assert_close(c->loopback_bw, 1e11);
  plat_link_ref ref;
  ck_assert(plat_find_link(p, "torus_link_5_loopback", PLAT_DIR_NONE, &ref));
  ck_assert_int_eq(ref.which, PLAT_CLINK_LOOPBACK);
  ck_assert(!plat_find_link(p, "torus_link_5_UP", PLAT_DIR_NONE, &ref)); /* named by routing */
  plat_free(p);
}
END_TEST

START_TEST(test_cluster_dragonfly)
{
  plat_platform *p = load_ok(PLATFORMS "cluster_dragonfly.xml");
  plat_cluster *c = p->root->cluster;
  ck_assert_str_eq(c->topology, "DRAGONFLY");
  ck_assert_str_eq(topo_text(c), "3,4;3,2;3,1;2");
  ck_assert_uint_eq(plat_host_count(p), 54);
  plat_free(p);
}
END_TEST

START_TEST(test_two_clusters_wan)
{
  plat_platform *p = load_ok(PLATFORMS "two_clusters_wan.xml");
  ck_assert_uint_eq(p->nzones, 3);
  ck_assert_uint_eq(p->root->nchildren, 2);
  ck_assert_uint_eq(plat_host_count(p), 32);
  ck_assert_uint_eq(p->nrouters, 2);
  ck_assert_uint_eq(p->root->nroutes, 1);
  plat_route *r = p->root->routes[0];
  ck_assert_int_eq(r->kind, PLAT_ZONE_ROUTE);
  ck_assert_int_eq(r->src.kind, PLAT_POINT_ZONE);
  ck_assert_str_eq(r->src.u.zone->id, "siteA");
  ck_assert_int_eq(r->gw_src.kind, PLAT_POINT_ROUTER);
  ck_assert_str_eq(r->gw_src.u.router->id, "siteA-router");
  ck_assert_str_eq(r->gw_dst.u.router->id, "siteB-router");
  ck_assert_uint_eq(r->nlinks, 1);
  ck_assert_str_eq(r->links[0].link->id, "wan");
  assert_close(r->links[0].link->latency, 0.01);
  plat_point pt = plat_host_at(p, 20);
  ck_assert_str_eq(point_name(&pt), "b-4");
  plat_host_desc d;
  plat_point_host_desc(&pt, &d);
  assert_close(d.speeds[0], 2e9);
  ck_assert_str_eq(d.zone->id, "siteB");
  plat_free(p);
}
END_TEST

START_TEST(test_teaching)
{
  plat_platform *p = load_ok(PLATFORMS "teaching.xml");
  ck_assert_uint_eq(plat_host_count(p), 4);
  ck_assert_uint_eq(p->nlinks, 9);
  ck_assert_uint_eq(p->root->nroutes, 10);
  plat_route *r = find_route(p->root, "pc2", "pc4");
  ck_assert_uint_eq(r->nlinks, 3);
  ck_assert_str_eq(r->links[1].link->id, "hub");
  assert_close(r->links[1].link->bandwidth, 1.25e7);
  r = find_route(p->root, "pc3", "pc3");
  ck_assert_int_eq(r->links[0].link->sharing, PLAT_SHARING_FATPIPE);
  plat_free(p);
}
END_TEST

START_TEST(test_default_platform)
{
  char *xml = plat_default_xml(4);
  plat_platform *p = load_string_ok(xml, "default");
  free(xml);
  ck_assert_uint_eq(plat_host_count(p), 4);
  plat_point pt = plat_host_at(p, 0);
  ck_assert_str_eq(point_name(&pt), "host1");
  pt = plat_host_at(p, 3);
  ck_assert_str_eq(point_name(&pt), "host4");
  plat_cluster *c = p->root->cluster;
  assert_close(c->speeds[0], 1e9);
  assert_close(c->bw, 1.25e9);
  assert_close(c->lat, 1e-6);
  ck_assert_int_eq(c->sharing, PLAT_SHARING_SPLITDUPLEX);
  ck_assert(!c->has_backbone);
  ck_assert(c->has_loopback);
  assert_close(c->loopback_bw, 50e9);
  assert_close(c->loopback_lat, 1e-7);
  plat_free(p);

  xml = plat_default_xml(0);
  p = load_string_ok(xml, "default");
  free(xml);
  ck_assert_uint_eq(plat_host_count(p), 1);
  plat_free(p);
}
END_TEST

START_TEST(test_dtd_embedded)
{
  const char *dtd = plat_dtd_text();
  ck_assert_ptr_nonnull(strstr(dtd, "<!ELEMENT platform"));
  ck_assert_ptr_nonnull(strstr(dtd, "<!ELEMENT cluster"));
}
END_TEST

static Suite *examples_suite(void)
{
  Suite *s = suite_create("examples");
  TCase *tc = tcase_create("examples");
  tcase_add_test(tc, test_small_hetero);
  tcase_add_test(tc, test_cluster_flat);
  tcase_add_test(tc, test_cluster_fat_tree);
  tcase_add_test(tc, test_cluster_torus);
  tcase_add_test(tc, test_cluster_dragonfly);
  tcase_add_test(tc, test_two_clusters_wan);
  tcase_add_test(tc, test_teaching);
  tcase_add_test(tc, test_default_platform);
  tcase_add_test(tc, test_dtd_embedded);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * a file using most of the format
 * ====================================================================================== */

START_TEST(test_everything)
{
  plat_platform *p = load_ok(DATA "good/everything.xml");
  assert_close(p->version, 4.1);
  ck_assert_int_eq(cfg_get_int("test/platform-int"), 7);
  ck_assert_int_eq(cfg_get_origin("test/platform-int"), CFG_ORIGIN_PLATFORM);
  ck_assert_uint_eq(p->nconfig, 1);
  ck_assert_str_eq(p->config[0].key, "test/platform-int");
  ck_assert_uint_eq(p->config[0].loc.line, 6);

  plat_zone *root = p->root;
  ck_assert_str_eq(root->id, "root");
  ck_assert_int_eq(root->routing, PLAT_ROUTING_FLOYD); /* "floyd": case does not matter */
  ck_assert_str_eq(plat_props_get(&root->props, "owner"), "lab");
  ck_assert_uint_eq(root->nchildren, 3);
  ck_assert_uint_eq(root->loc.line, 8);
  ck_assert_str_eq(plat_loc_file(p, root->loc), DATA "good/everything.xml");

  /* hosts */
  plat_host *h1 = plat_find_host(p, "h1");
  ck_assert_uint_eq(h1->npstates, 3);
  assert_close(h1->speeds[0], 1e9);
  assert_close(h1->speeds[1], 5e8);
  assert_close(h1->speeds[2], 1e8);
  ck_assert_uint_eq(h1->pstate, 1);
  ck_assert_int_eq(h1->cores, 2);
  ck_assert_str_eq(plat_props_get(&h1->props, "ram"), "16GiB");
  ck_assert_uint_eq(h1->ndisks, 1);
  ck_assert_str_eq(h1->disks[0].id, "ssd");
  assert_close(h1->disks[0].read_bw, 5e8);
  assert_close(h1->disks[0].write_bw, 2e8);
  ck_assert_str_eq(plat_props_get(&h1->disks[0].props, "size"), "1TB");
  ck_assert_uint_eq(h1->loc.line, 11);
  ck_assert_str_eq(h1->zone->id, "leaf");
  assert_close(plat_find_host(p, "h2")->speeds[0], 1e9);

  /* links */
  plat_link_ref ref;
  ck_assert(plat_find_link(p, "l1", PLAT_DIR_NONE, &ref));
  plat_link *l1 = ref.link;
  assert_close(l1->bandwidth, 1e9);
  assert_close(l1->latency, 1e-5);
  ck_assert_str_eq(plat_props_get(&l1->props, "color"), "red");
  ck_assert(plat_find_link(p, "l2", PLAT_DIR_DOWN, &ref));
  ck_assert_int_eq(ref.link->sharing, PLAT_SHARING_SPLITDUPLEX); /* FULLDUPLEX */
  ck_assert(plat_find_link(p, "l2_UP", PLAT_DIR_NONE, &ref));
  ck_assert_int_eq(ref.dir, PLAT_DIR_UP);
  ck_assert(!plat_find_link(p, "l2", PLAT_DIR_NONE, &ref));
  ck_assert(!plat_find_link(p, "l1", PLAT_DIR_UP, &ref));
  ck_assert(plat_find_link(p, "l3", PLAT_DIR_NONE, &ref));
  assert_close(ref.link->bandwidth, 1000); /* unit-less: accepted as B/s, with a warning */
  assert_close(ref.link->latency, 0);

  /* routes of the leaf zone */
  plat_zone *leaf = plat_find_zone(p, "leaf");
  ck_assert_int_eq(leaf->routing, PLAT_ROUTING_DIJKSTRA);
  ck_assert_uint_eq(leaf->nroutes, 4);
  plat_route *r = find_route(leaf, "r1", "h2");
  ck_assert(!r->symmetrical);
  ck_assert_uint_eq(r->nlinks, 2);
  ck_assert_str_eq(r->links[0].link->id, "l2");
  ck_assert_int_eq(r->links[0].dir, PLAT_DIR_UP);
  ck_assert_int_eq(r->links[1].dir, PLAT_DIR_NONE);
  ck_assert_uint_eq(r->loc.line, 21);
  r = find_route(leaf, "h2", "r1");
  ck_assert(!r->symmetrical);
  ck_assert_int_eq(r->links[0].dir, PLAT_DIR_DOWN);
  ck_assert(find_route(leaf, "h1", "r1")->symmetrical);
  r = leaf->routes[3];
  ck_assert_int_eq(r->kind, PLAT_BYPASS_ROUTE);
  ck_assert(!r->symmetrical);
  ck_assert_int_eq(r->links[1].dir, PLAT_DIR_DOWN);

  /* the hand-made Cluster zone */
  plat_zone *manual = plat_find_zone(p, "manual");
  ck_assert_int_eq(manual->routing, PLAT_ROUTING_CLUSTER);
  ck_assert_ptr_null(manual->cluster);
  ck_assert_uint_eq(manual->nhosts, 4);
  ck_assert_str_eq(manual->hosts[2]->id, "m-3.lab");
  assert_close(manual->hosts[2]->speeds[0], 2e9);
  ck_assert_uint_eq(manual->nhost_links, 4);
  ck_assert_ptr_eq(manual->host_links[3].host, plat_find_host(p, "m-extra"));
  ck_assert_int_eq(manual->host_links[3].up.dir, PLAT_DIR_UP);
  ck_assert_str_eq(manual->host_links[0].down.link->id, "link_m-1.lab");
  ck_assert_int_eq(manual->host_links[0].down.dir, PLAT_DIR_DOWN);
  ck_assert_str_eq(manual->backbone->id, "manual-bb");
  assert_close(manual->backbone->bandwidth, 1.25e9);

  /* the cluster */
  plat_zone *cz = plat_find_zone(p, "cl");
  plat_cluster *c = cz->cluster;
  ck_assert_uint_eq(c->count, 6);
  ck_assert_int_eq(c->cores, 4);
  ck_assert_str_eq(c->router->id, "ccl_router");
  ck_assert(c->router->generated);
  ck_assert(c->has_limiter);
  assert_close(c->limiter_bw, 1.875e9);
  assert_close(c->loopback_bw, 5e10);
  assert_close(c->loopback_lat, 1e-7);
  ck_assert_int_eq(c->bb_sharing, PLAT_SHARING_FATPIPE);
  ck_assert_str_eq(plat_props_get(&cz->props, "queue"), "batch");
  size_t rank;
  ck_assert(plat_cluster_rank_of(c, "c10", &rank));
  ck_assert_uint_eq(rank, 4);
  ck_assert(!plat_cluster_rank_of(c, "c010", &rank));
  ck_assert(!plat_cluster_rank_of(c, "c5", &rank));
  ck_assert_int_eq(plat_cluster_number(c, 5), 11);
  plat_point pt;
  ck_assert(plat_find_point(p, "c11", &pt));
  ck_assert_int_eq(pt.kind, PLAT_POINT_CLUSTER_HOST);
  ck_assert_uint_eq(pt.rank, 5);
  plat_host_desc d;
  plat_point_host_desc(&pt, &d);
  ck_assert_int_eq(d.cores, 4);
  ck_assert_str_eq(plat_props_get(d.props, "queue"), "batch");

  /* zone routes */
  r = root->routes[0];
  ck_assert_int_eq(r->kind, PLAT_ZONE_ROUTE); /* ASroute */
  ck_assert_str_eq(r->gw_dst.u.router->id, "manual-router");
  r = root->routes[1];
  ck_assert_uint_eq(r->nlinks, 2);
  ck_assert_ptr_null(r->links[1].link);
  ck_assert_ptr_eq(r->links[1].cluster, cz);
  ck_assert_int_eq(r->links[1].which, PLAT_CLINK_BACKBONE);
  ck_assert_ptr_eq(r->gw_dst.u.router, c->router);
  r = root->routes[2];
  ck_assert_int_eq(r->kind, PLAT_BYPASS_ZONE_ROUTE);
  ck_assert_int_eq(r->gw_dst.kind, PLAT_POINT_CLUSTER_HOST);
  ck_assert_uint_eq(r->gw_dst.rank, 4);
  ck_assert_int_eq(r->links[1].which, PLAT_CLINK_PRIVATE);
  ck_assert_uint_eq(r->links[1].rank, 4);
  ck_assert_int_eq(r->links[1].dir, PLAT_DIR_DOWN);
  char name[128];
  plat_link_ref_name(&r->links[1], name, sizeof name);
  ck_assert_str_eq(name, "cl_link_10_DOWN");
  double bw, lat;
  plat_sharing sh;
  plat_link_ref_props(&r->links[1], &bw, &lat, &sh);
  assert_close(bw, 1.25e9);
  assert_close(lat, 1e-6);
  ck_assert_int_eq(sh, PLAT_SHARING_SPLITDUPLEX);
  ck_assert(plat_find_link(p, "cl_link_11_limiter", PLAT_DIR_NONE, &ref));
  ck_assert_int_eq(ref.which, PLAT_CLINK_LIMITER);
  ck_assert_uint_eq(ref.rank, 5);
  ck_assert(!plat_find_link(p, "cl_link_4_UP", PLAT_DIR_NONE, &ref));

  /* points, order of hosts, traces */
  ck_assert(plat_find_point(p, "manual", &pt) && pt.kind == PLAT_POINT_ZONE);
  ck_assert(plat_find_point(p, "r1", &pt) && pt.kind == PLAT_POINT_ROUTER);
  ck_assert(!plat_find_point(p, "nobody", &pt));
  ck_assert_uint_eq(plat_host_count(p), 12);
  static const char *const order[] = {"h1", "h2", "m-1.lab", "m-2.lab", "m-3.lab", "m-extra",
                                      "c0", "c1", "c2",      "c3",      "c10",     "c11"};
  for (size_t i = 0; i < 12; i++) {
    pt = plat_host_at(p, i);
    ck_assert_str_eq(point_name(&pt), order[i]);
  }
  ck_assert_uint_eq(p->ntraces, 1);
  ck_assert_ptr_nonnull(strstr(p->traces[0].text, "5 0.5"));
  ck_assert_uint_eq(p->ntrace_connects, 1);
  plat_free(p);
}
END_TEST

START_TEST(test_config_priority)
{
  /* the command line wins over the platform file */
  char msg[256];
  ck_assert_int_eq(cfg_set("test/platform-int", "99", CFG_ORIGIN_CMDLINE, msg, sizeof msg), 0);
  plat_platform *p = load_ok(DATA "good/everything.xml");
  ck_assert_int_eq(cfg_get_int("test/platform-int"), 99);
  plat_free(p);
}
END_TEST

START_TEST(test_include)
{
  plat_platform *p = load_ok(DATA "good/include_top.xml");
  ck_assert_uint_eq(p->nzones, 3);
  ck_assert_uint_eq(plat_host_count(p), 10);
  ck_assert_uint_eq(p->nfiles, 4);
  plat_zone *a = plat_find_zone(p, "siteA");
  ck_assert_ptr_eq(a->parent, p->root);
  ck_assert_str_eq(plat_loc_file(p, a->loc), DATA "good/parts/deeper/cluster_a.xml");
  ck_assert_uint_eq(a->loc.line, 5); /* libxml2 gives the line where the start tag ends */
  plat_zone *b = plat_find_zone(p, "siteB");
  ck_assert_ptr_eq(b->parent, p->root);
  ck_assert_str_eq(plat_loc_file(p, plat_find_host(p, "b2")->loc), DATA "good/parts/site_b.xml");
  plat_route *r = p->root->routes[0];
  ck_assert_str_eq(r->gw_src.u.router->id, "siteA_gw");
  ck_assert_ptr_eq(r->gw_dst.u.host, plat_find_host(p, "b1"));
  plat_free(p);

  /* from a string: includes are relative to the directory of the name given */
  p = load_string_ok("<?xml version='1.0'?>\n"
                     "<platform version='4.1'>\n"
                     "  <zone id='top' routing='Full'>\n"
                     "    <include file='parts/site_b.xml'/>\n"
                     "  </zone>\n"
                     "</platform>\n",
                     DATA "good/memory.xml");
  ck_assert_uint_eq(plat_host_count(p), 2);
  plat_free(p);

  /* a device is refused at once instead of being read forever (found by fuzzing) */
  ck_assert_int_eq(plat_load_string("<?xml version='1.0'?>\n"
                                    "<platform version='4.1'>\n"
                                    "  <zone id='top' routing='Full'>\n"
                                    "    <include file='/dev/zero'/>\n"
                                    "  </zone>\n"
                                    "</platform>\n",
                                    "dev.xml", &p, err, sizeof err),
                   -1);
  ck_assert_ptr_null(p);
  ck_assert_msg(strstr(err, "dev.xml:4: cannot read included file '/dev/zero'") &&
                    strstr(err, "not a regular file"),
                "message: %s", err);
  ck_assert_int_eq(plat_load_file("/dev/null", &p, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "not a regular file"), "message: %s", err);

  /* a FIFO is refused without waiting for a writer (opening it for reading used to block) */
  char dir[] = "/tmp/check_platform.XXXXXX", fifo[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(fifo, sizeof fifo, "%s/fifo.xml", dir);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  ck_assert_int_eq(plat_load_file(fifo, &p, err, sizeof err), -1);
  ck_assert_msg(strstr(err, fifo) && strstr(err, "it is a FIFO or pipe, not a regular file"),
                "message: %s", err);
  char xml[512];
  snprintf(xml, sizeof xml,
           "<platform version='4.1'>\n<zone id='top' routing='Full'>\n"
           "<include file='%s'/>\n</zone>\n</platform>\n",
           fifo);
  ck_assert_int_eq(plat_load_string(xml, "fifo.xml", &p, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "fifo.xml:3: cannot read included file") &&
                    strstr(err, "it is a FIFO or pipe"),
                "message: %s", err);
  unlink(fifo);
  rmdir(dir);
}
END_TEST

/* "--" inside a comment is not well-formed XML, but SimGrid's parser takes it (its own
 * cluster_multi.xml has one): the whole tree after it is read; any other error still fails */
START_TEST(test_hyphen_comment)
{
  plat_platform *p = load_string_ok("<?xml version='1.0'?>\n"
                                    "<platform version='4.1'>\n"
                                    "<!-- 3 clusters -- interconnected -->\n"
                                    "<zone id='z' routing='Full'>\n"
                                    "<host id='h1' speed='1Gf'/><host id='h2' speed='2Gf'/>\n"
                                    "</zone></platform>\n",
                                    "hy.xml");
  ck_assert_ptr_nonnull(plat_find_host(p, "h2"));
  plat_free(p);
  ck_assert_int_eq(
      plat_load_string("<?xml version='1.0'?>\n"
                       "<platform version='4.1'>\n"
                       "<!-- a -- b -->\n"
                       "<zone id='z' routing='Full'><host id='h' speed='1Gf'/></zone\n"
                       "</platform>\n",
                       "hy2.xml", &p, err, sizeof err),
      -1);
  ck_assert_msg(strstr(err, "hy2.xml:5: not well-formed XML"), "%s", err);
}
END_TEST

START_TEST(test_entities)
{
  /* an entity in attribute values is expanded once (validation sees the expanded value) */
  plat_platform *p;
  ck_assert_int_eq(plat_load_string("<?xml version='1.0'?>\n"
                                    "<!DOCTYPE platform [\n"
                                    "<!ENTITY bw '1&amp;0Gbps'><!ENTITY g 'G'>\n"
                                    "<!ENTITY sp 'FATPIPE'><!ENTITY speed '2&g;f'>]>\n"
                                    "<platform version='4.1'><zone id='z' routing='Full'>\n"
                                    "<host id='h&amp;&g;' speed='&speed;'/>\n"
                                    "<link id='l' bandwidth='1&bw;' sharing_policy='&sp;'/>\n"
                                    "</zone></platform>\n",
                                    "ent.xml", &p, err, sizeof err),
                   -1);
  /* '1&0Gbps' is not a bandwidth: the expansion is what is read */
  ck_assert_msg(strstr(err, "ent.xml:7: link 'l'") && strstr(err, "11&0Gbps"), "%s", err);
  ck_assert_int_eq(plat_load_string("<?xml version='1.0'?>\n"
                                    "<!DOCTYPE platform [\n"
                                    "<!ENTITY bw '0Gbps'><!ENTITY g 'G'>\n"
                                    "<!ENTITY sp 'FATPIPE'><!ENTITY speed '2&g;f'>]>\n"
                                    "<platform version='4.1'><zone id='z' routing='Full'>\n"
                                    "<host id='h&amp;&g;' speed='&speed;'/>\n"
                                    "<link id='l' bandwidth='1&bw;' sharing_policy='&sp;'/>\n"
                                    "</zone></platform>\n",
                                    "ent.xml", &p, err, sizeof err),
                   0);
  plat_host *h = plat_find_host(p, "h&G");
  ck_assert_ptr_nonnull(h);
  ck_assert_double_eq(h->speeds[0], 2e9);
  plat_link_ref ref;
  ck_assert(plat_find_link(p, "l", PLAT_DIR_NONE, &ref));
  ck_assert_double_eq(ref.link->bandwidth, 1.25e9);
  ck_assert_int_eq(ref.link->sharing, PLAT_SHARING_FATPIPE);
  plat_free(p);

  /* an attribute referencing a 100 kB entity 10^4 times (1 GB): took over ten minutes
   * (every reference re-concatenated the whole value); now refused at once */
  size_t big = 100000, refs = 10000;
  char *xml = malloc(big + 6 * refs + 1024);
  ck_assert_ptr_nonnull(xml);
  char *w = xml + sprintf(xml, "<!DOCTYPE platform [\n<!ENTITY big '");
  memset(w, 'x', big);
  w += big;
  w += sprintf(w, "'>]>\n<platform version='4.1'><zone id='z' routing='Full'>\n<host id='h' "
                  "speed='1Gf'>\n<prop id='p' value='");
  for (size_t i = 0; i < refs; i++)
    w += sprintf(w, "&big;");
  sprintf(w, "'/>\n</host></zone></platform>\n");
  ck_assert_int_eq(plat_load_string(xml, "big.xml", &p, err, sizeof err), -1);
  free(xml);
  ck_assert_msg(strstr(err, "big.xml:5: attribute 'value' of <prop>: entity references expand "
                            "to more than 16 MiB"),
                "%s", err);

  /* between elements, an entity's elements were silently skipped */
  ck_assert_int_eq(plat_load_string("<!DOCTYPE platform [<!ENTITY h \"<host id='h2' "
                                    "speed='1Gf'/>\">]>\n"
                                    "<platform version='4.1'><zone id='z' routing='Full'>\n"
                                    "<host id='h1' speed='1Gf'/>\n&h;\n</zone></platform>\n",
                                    "elem.xml", &p, err, sizeof err),
                   -1);
  ck_assert_msg(strstr(err, "elem.xml:4: entity reference '&h;' inside <zone>"), "%s", err);
}
END_TEST

START_TEST(test_big_cluster)
{
  /* 100 000 hosts: stored as ranges, loaded in well under a second */
  const char *xml =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n"
      "  <zone id=\"world\" routing=\"Full\">\n"
      "    <cluster id=\"big\" prefix=\"node-\" suffix=\".hpc\" "
      "radical=\"0-49999,60000-109999\"\n"
      "             speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\" bb_bw=\"100Gbps\" bb_lat=\"1us\"/>\n"
      "    <cluster id=\"other\" prefix=\"node-\" suffix=\".hpc\" radical=\"50000-59999\"\n"
      "             speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\"/>\n"
      "    <zone id=\"login\" routing=\"Full\"><host id=\"node-1\" speed=\"1Gf\"/></zone>\n"
      "  </zone>\n"
      "</platform>\n";
  plat_platform *p = load_string_ok(xml, "big.xml");
  ck_assert_uint_eq(plat_host_count(p), 110001);
  plat_point pt = plat_host_at(p, 99999);
  ck_assert_str_eq(point_name(&pt), "node-109999.hpc");
  pt = plat_host_at(p, 100000);
  ck_assert_str_eq(point_name(&pt), "node-50000.hpc");
  ck_assert(plat_find_point(p, "node-75000.hpc", &pt));
  ck_assert_str_eq(pt.u.zone->id, "big");
  ck_assert_uint_eq(pt.rank, 65000);
  ck_assert(plat_find_point(p, "node-1", &pt));
  ck_assert_int_eq(pt.kind, PLAT_POINT_HOST);
  plat_free(p);

  /* the same name twice is found across two clusters of 100 000 hosts whose prefixes differ
   * ("n" + "15" = "n1" + "5"); here only the last name clashes */
  const char *clash =
      "<?xml version='1.0'?>\n"
      "<platform version=\"4.1\">\n"
      "  <zone id=\"world\" routing=\"Full\">\n"
      "    <cluster id=\"a\" prefix=\"n\" suffix=\"\" radical=\"0-99999\"\n"
      "             speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\"/>\n"
      "    <cluster id=\"b\" prefix=\"n1\" suffix=\"\" radical=\"100000-199999,5\"\n"
      "             speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\"/>\n"
      "  </zone>\n"
      "</platform>\n";
  ck_assert_int_eq(plat_load_string(clash, "clash.xml", &p, err, sizeof err), -1);
  ck_assert_ptr_null(p);
  ck_assert_msg(strstr(err, "clash.xml:7: cluster 'b' generates host 'n15'"), "%s", err);
}
END_TEST

static Suite *features_suite(void)
{
  Suite *s = suite_create("features");
  TCase *tc = tcase_create("features");
  tcase_add_test(tc, test_everything);
  tcase_add_test(tc, test_config_priority);
  tcase_add_test(tc, test_include);
  tcase_add_test(tc, test_hyphen_comment);
  tcase_add_test(tc, test_entities);
  tcase_add_test(tc, test_big_cluster);
  suite_add_tcase(s, tc);
  return s;
}

/* ======================================================================================
 * bad files: each error must start with "path:line: " and contain the fragment
 * ====================================================================================== */

static const struct {
  const char *file;
  const char *where; /* file the error points at, if not the loaded one */
  int line;
  const char *fragment;
} bad_files[] = {
    {"not_well_formed.xml", NULL, 6, "not well-formed XML: Opening and ending tag mismatch"},
    {"no_version.xml", NULL, 3, "<platform> has no version attribute"},
    {"old_version.xml", NULL, 3, "version 3 is too old: this loader reads version 4.1"},
    {"future_version.xml", NULL, 3, "version 5 is newer than 4.1"},
    {"wrong_root.xml", NULL, 3, "the root element is <platforme>"},
    {"unknown_element.xml", NULL, 6, "unknown element <hots>"},
    {"unknown_attribute.xml", NULL, 6,
     "unknown attribute 'spead' in <host> (did you mean 'speed'?)"},
    {"missing_attribute.xml", NULL, 6, "<link> lacks the required attribute 'bandwidth'"},
    {"bad_enum.xml", NULL, 5,
     "invalid value 'SHARD' for attribute 'sharing_policy' of <link>; "
     "expected one of SHARED, SPLITDUPLEX"},
    {"misplaced_element.xml", NULL, 4, "<host> is not allowed inside <platform>"},
    {"bad_unit_bandwidth.xml", NULL, 6,
     "link 'l1': unknown unit 'Gbs' in bandwidth '10Gbs'; "
     "expected one of Bps, kBps"},
    {"bad_unit_speed.xml", NULL, 5, "host 'h1': unknown unit 'GHz' in speed '1GHz'"},
    {"bad_unit_latency.xml", NULL, 6, "unknown unit 'usec' in latency '5usec'"},
    {"bad_number.xml", NULL, 5, "'fast' is not a valid speed"},
    {"negative_latency.xml", NULL, 5, "negative latency '-1ms'"},
    {"unknown_link_in_route.xml", NULL, 10, "route h1 -> h2: unknown link 'l2'"},
    {"dup_host.xml", NULL, 6, "duplicate host id 'h1': already used by the host defined at"},
    {"dup_link.xml", NULL, 6, "duplicate link id 'l1'"},
    {"dup_zone.xml", NULL, 6, "duplicate zone id 'h1': already used by the host"},
    {"dup_router.xml", NULL, 7, "duplicate router id 'r1'"},
    {"dup_cluster_host.xml", NULL, 7,
     "duplicate host id 'node-42': already a host of cluster 'c'"},
    {"dup_across_clusters.xml", NULL, 6,
     "cluster 'c2' generates host 'node-50', which cluster "
     "'c1'"},
    {"dup_cluster_link.xml", NULL, 7,
     "duplicate link id 'c_backbone': already a link of cluster"},
    {"dup_splitduplex.xml", NULL, 6, "'L_UP': already a direction of the SPLITDUPLEX link 'L'"},
    {"unknown_route_src.xml", NULL, 7, "route h0 -> h1: unknown host or router 'h0'"},
    {"route_src_elsewhere.xml", NULL, 12, "host 'ha' is in zone 'a', not in zone 'b'"},
    {"bad_radical.xml", NULL, 4, "bad radical '0-9,1x': '1x' is neither a number nor a range"},
    {"reversed_radical.xml", NULL, 4, "range '10-5' is reversed"},
    {"repeated_radical.xml", NULL, 4, "number 5 appears twice"},
    {"torus_zero.xml", NULL, 5, "'0' is not a positive integer"},
    {"include_missing.xml", NULL, 5, "cannot read included file 'no_such_file.xml'"},
    {"include_cycle_a.xml", "include_cycle_b.xml", 4, "include cycle: "},
    {"config_unknown_key.xml", NULL, 6,
     "<config>: unknown configuration key 'test/platfrom-int'"},
    {"config_bad_value.xml", NULL, 5, "<config>: invalid value 'many' for 'test/platform-int'"},
    {"config_not_first.xml", NULL, 5, "<config> must come before any other element"},
    {"routing_unknown.xml", NULL, 4, "zone 'z': unknown routing 'Fulll'"},
    {"routing_vivaldi.xml", NULL, 5, "coordinates '1 2' are not three numbers 'x y height'"},
    {"splitduplex_no_direction.xml", NULL, 9, "link 'L' is SPLITDUPLEX: say which half"},
    {"direction_on_shared.xml", NULL, 9, "link 'L' is not SPLITDUPLEX"},
    {"empty_route.xml", NULL, 7, "route h1 -> h2: empty route"},
    {"two_roots.xml", NULL, 5, "'b' would be a second top-level zone"},
    {"mixed_zone.xml", NULL, 4, "zone 'world' holds both hosts/routers and sub-zones"},
    {"gateway_outside.xml", NULL, 8, "gw_src 'hb' is not inside zone 'a'"},
    {"wifi_link.xml", NULL, 5, "sharing_policy WIFI is known but not supported"},
    {"pstate_out_of_range.xml", NULL, 5, "pstate 2 does not exist"},
    {"peer_unsupported.xml", NULL, 5, "must be inside a zone with routing=\"Vivaldi\""},
    {"host_speed_file.xml", NULL, 5, "host 'h1': attribute speed_file: cannot open profile"},
    {"host_availability_file.xml", NULL, 5,
     "host 'h1': attribute availability_file: cannot open profile"},
    {"host_state_file.xml", NULL, 5, "host 'h1': attribute state_file: cannot open profile"},
    {"link_bandwidth_file.xml", NULL, 7,
     "link 'l1': attribute bandwidth_file: cannot open profile"},
    {"link_latency_file.xml", NULL, 7, "link 'l1': attribute latency_file: cannot open profile"},
    {"link_state_file.xml", NULL, 7, "link 'l1': attribute state_file: cannot open profile"},
};

START_TEST(test_bad_file)
{
  char path[1024], expect[1200];
  snprintf(path, sizeof path, DATA "bad/%s", bad_files[_i].file);
  snprintf(expect, sizeof expect,
           DATA "bad/%s:%d: ", bad_files[_i].where ? bad_files[_i].where : bad_files[_i].file,
           bad_files[_i].line);
  plat_platform *p = (plat_platform *)&p; /* must be reset to NULL */
  err[0] = '\0';
  int rc = plat_load_file(path, &p, err, sizeof err);
  ck_assert_msg(rc == -1, "%s loaded without error", bad_files[_i].file);
  ck_assert_ptr_null(p);
  ck_assert_msg(strncmp(err, expect, strlen(expect)) == 0,
                "%s: error '%s' does not start with '%s'", bad_files[_i].file, err, expect);
  ck_assert_msg(strstr(err, bad_files[_i].fragment), "%s: error '%s' lacks '%s'",
                bad_files[_i].file, err, bad_files[_i].fragment);
}
END_TEST

START_TEST(test_missing_file)
{
  plat_platform *p;
  ck_assert_int_eq(plat_load_file(DATA "bad/does_not_exist.xml", &p, err, sizeof err), -1);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(err, DATA "bad/does_not_exist.xml: cannot read platform file: No such file "
                             "or directory");
}
END_TEST

START_TEST(test_bad_strings)
{
  plat_platform *p;
  ck_assert_int_eq(plat_load_string("<platform version='4.1'>", "mem.xml", &p, err, sizeof err),
                   -1);
  ck_assert_msg(strncmp(err, "mem.xml:1: not well-formed XML", 30) == 0, "%s", err);
  ck_assert_int_eq(plat_load_string("", NULL, &p, err, sizeof err), -1);
  ck_assert_msg(strncmp(err, "<string>:", 9) == 0, "%s", err);
  /* the DOCTYPE's URL is never fetched, whatever it names */
  ck_assert_int_eq(
      plat_load_string("<?xml version='1.0'?>\n"
                       "<!DOCTYPE platform SYSTEM \"http://127.0.0.1:9/nothing.dtd\">\n"
                       "<platform version='4.1'><zone id='z' routing='None'/></platform>\n",
                       "net.xml", &p, err, sizeof err),
      0);
  plat_free(p);
  /* a loopback route to self and a route through a router of the zone are fine; a route
   * from a zone is not */
  ck_assert_int_eq(
      plat_load_string("<platform version='4'><zone id='w' routing='Full'>\n"
                       "<zone id='a' routing='Full'><host id='h' speed='1f'/></zone>\n"
                       "<link id='l' bandwidth='1Bps'/>\n"
                       "<route src='a' dst='a'><link_ctn id='l'/></route>\n"
                       "</zone></platform>",
                       "z.xml", &p, err, sizeof err),
      -1);
  ck_assert_msg(strstr(err, "z.xml:4: route a -> a: 'a' is a zone"), "%s", err);
}
END_TEST

static Suite *bad_suite(void)
{
  Suite *s = suite_create("bad");
  TCase *tc = tcase_create("bad");
  tcase_add_loop_test(tc, test_bad_file, 0, sizeof bad_files / sizeof bad_files[0]);
  tcase_add_test(tc, test_missing_file);
  tcase_add_test(tc, test_bad_strings);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  /* a key for the <config> tests; declared before the tests fork */
  static const cfg_key keys[] = {
      CFG_KEY_INT("test/platform-int", 0, "an integer set by test platform files"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  SRunner *sr = srunner_create(units_suite());
  srunner_add_suite(sr, strmap_suite());
  srunner_add_suite(sr, examples_suite());
  srunner_add_suite(sr, features_suite());
  srunner_add_suite(sr, bad_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
