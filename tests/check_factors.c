/* Piecewise factors and overheads: the strict lookup rule (largest threshold strictly below
 * the size), sections in any order, overhead fallback to the lowest section, and malformed
 * strings rejected with messages that name the key and the bad part. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/factors.h"

/* SimGrid 3.32's defaults (smpirun --help) */
static const char *bw_default = "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;"
                                "3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;0:0.812084";
static const char *lat_default = "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;"
                                 "3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;0:2.01467";

static fac_func parse_factor_ok(const char *spec, fac_domain d)
{
  fac_func f;
  char err[256];
  ck_assert_msg(fac_parse_factor("smpi/bw-factor", spec, d, &f, err, sizeof err) == 0,
                "'%s' rejected: %s", spec, err);
  return f;
}

static fac_func parse_overhead_ok(const char *spec)
{
  fac_func f;
  char err[256];
  ck_assert_msg(fac_parse_overhead("smpi/os", spec, &f, err, sizeof err) == 0,
                "'%s' rejected: %s", spec, err);
  return f;
}

START_TEST(test_default_bw_boundaries)
{
  fac_func f = parse_factor_ok(bw_default, FAC_POSITIVE);
  ck_assert_uint_eq(f.count, 9);
  /* no threshold below 0: factor 1 */
  ck_assert_double_eq(fac_factor(&f, 0), 1.0);
  ck_assert_double_eq(fac_factor(&f, 1), 0.812084);
  /* MPI: payload = size + 16. 241 B -> 257: "0:" section; 242 B -> 258: "257:" section */
  ck_assert_double_eq(fac_factor(&f, 241 + 16), 0.812084);
  ck_assert_double_eq(fac_factor(&f, 242 + 16), 0.338112);
  ck_assert_double_eq(fac_factor(&f, 732), 0.338112);
  ck_assert_double_eq(fac_factor(&f, 733), 0.341987);
  ck_assert_double_eq(fac_factor(&f, 5776), 0.77493);
  ck_assert_double_eq(fac_factor(&f, 5777), 1.08739); /* > 1: faster than the link */
  ck_assert_double_eq(fac_factor(&f, 65472), 0.697866);
  ck_assert_double_eq(fac_factor(&f, 65473), 0.940694);
  ck_assert_double_eq(fac_factor(&f, 1e12), 0.940694);
  fac_free(&f);
  ck_assert_uint_eq(f.count, 0);
}
END_TEST

START_TEST(test_default_lat_boundaries)
{
  fac_func f = parse_factor_ok(lat_default, FAC_NONNEGATIVE);
  ck_assert_double_eq(fac_factor(&f, 0), 1.0);
  ck_assert_double_eq(fac_factor(&f, 257), 2.01467);
  ck_assert_double_eq(fac_factor(&f, 258), 1.95341);
  ck_assert_double_eq(fac_factor(&f, 15424), 2.59299);
  ck_assert_double_eq(fac_factor(&f, 15425), 3.48845);
  ck_assert_double_eq(fac_factor(&f, 65552), 11.6436);
  fac_free(&f);
}
END_TEST

START_TEST(test_any_order)
{
  /* the same function written in three orders */
  const char *specs[] = {"0:0.5;1024:0.8;65536:0.95", "65536:0.95;0:0.5;1024:0.8",
                         " 1024 : 0.8 ; 65536:0.95;0:0.5 "};
  for (size_t i = 0; i < 3; i++) {
    fac_func f = parse_factor_ok(specs[i], FAC_POSITIVE);
    ck_assert_double_eq(fac_factor(&f, 0), 1.0);
    ck_assert_double_eq(fac_factor(&f, 0.5), 0.5);
    ck_assert_double_eq(fac_factor(&f, 1024), 0.5);
    ck_assert_double_eq(fac_factor(&f, 1025), 0.8);
    ck_assert_double_eq(fac_factor(&f, 65536), 0.8);
    ck_assert_double_eq(fac_factor(&f, 65537), 0.95);
    fac_free(&f);
  }
  /* a single section that starts above 0: 1.0 below it */
  fac_func g = parse_factor_ok("100:3", FAC_POSITIVE);
  ck_assert_double_eq(fac_factor(&g, 100), 1.0);
  ck_assert_double_eq(fac_factor(&g, 101), 3.0);
  fac_free(&g);
  /* an empty function: factor 1, overhead 0 */
  fac_func e = {0};
  ck_assert_double_eq(fac_factor(&e, 5), 1.0);
  ck_assert_double_eq(fac_overhead(&e, 5), 0.0);
}
END_TEST

START_TEST(test_overheads)
{
  /* pingpong_custom.txt's smpi/os */
  fac_func f = parse_overhead_ok("0:1e-6:1e-9;1024:2e-6:5e-10;65536:5e-6:1e-10");
  /* size 0: no threshold below it, the lowest section applies: 1e-6 + 1e-9 x 0 */
  ck_assert_double_eq(fac_overhead(&f, 0), 1e-6);
  ck_assert_double_eq(fac_overhead(&f, 1), 1e-6 + 1e-9 * 1);
  ck_assert_double_eq(fac_overhead(&f, 1024), 1e-6 + 1e-9 * 1024);
  ck_assert_double_eq(fac_overhead(&f, 1025), 2e-6 + 5e-10 * 1025);
  ck_assert_double_eq(fac_overhead(&f, 65537), 5e-6 + 1e-10 * 65537);
  fac_free(&f);
  /* out of order, lowest threshold 64: sizes up to 64 use it */
  f = parse_overhead_ok("1024:2e-6:5e-10;64:1:0");
  ck_assert_double_eq(fac_overhead(&f, 10), 1.0);
  ck_assert_double_eq(fac_overhead(&f, 64), 1.0);
  ck_assert_double_eq(fac_overhead(&f, 65), 1.0);
  ck_assert_double_eq(fac_overhead(&f, 1025), 2e-6 + 5e-10 * 1025);
  fac_free(&f);
  /* SimGrid's own default spelling of smpi/os has two extra fields */
  f = parse_overhead_ok("0:0:0:0:0");
  ck_assert_double_eq(fac_overhead(&f, 0), 0.0);
  ck_assert_double_eq(fac_overhead(&f, 1e6), 0.0);
  fac_free(&f);
}
END_TEST

typedef struct bad_case {
  int overhead; /* 0: factor (FAC_POSITIVE), 1: overhead, 2: factor (FAC_NONNEGATIVE) */
  const char *spec;
  const char *expect[3]; /* substrings the message must contain */
} bad_case;

static const bad_case bad[] = {
    {0, "", {"smpi/bw-factor", "empty value", "threshold:value"}},
    {0, "   ", {"smpi/bw-factor", "empty value", NULL}},
    {0, "0:1;;5:2", {"section 2 is empty", "\"0:1;;5:2\"", NULL}},
    {0, "0:1;", {"section 2 is empty", NULL, NULL}},
    {0, "1024", {"section 1 \"1024\" has 1 field,", "threshold:value", NULL}},
    {0, "0:1;64:1:2", {"section 2 \"64:1:2\" has 3 fields", NULL, NULL}},
    {0, "abc:1", {"section 1 \"abc:1\"", "threshold \"abc\" is not a number", NULL}},
    {0, "0:0.5;64:x1", {"section 2 \"64:x1\"", "value \"x1\" is not a number", NULL}},
    {0, "0:1 x", {"value \"1 x\" is not a number", NULL, NULL}},
    {0, "0:", {"value \"\" is empty", NULL, NULL}},
    {0, "-5:1", {"threshold -5 is negative", NULL, NULL}},
    {0, "0:0", {"section 1 \"0:0\"", "value 0 must be > 0", NULL}},
    {2, "0:-1", {"value -1 must be >= 0", NULL, NULL}},
    {0, "0:1;257:2;0:3", {"threshold 0 appears in sections 1 and 3", NULL, NULL}},
    {0, "0:nan", {"\"nan\" is not a finite number", NULL, NULL}},
    {0, "inf:1", {"\"inf\" is not a finite number", NULL, NULL}},
    {0, "1e400:1", {"is not a finite number", NULL, NULL}},
    {1, "0:1e-6", {"smpi/os", "section 1 \"0:1e-6\" has 2 fields", "threshold:start:per_byte"}},
    {1, "0:-1:0", {"start -1 must be >= 0", NULL, NULL}},
    {1, "0:1:-1e-09", {"per_byte -1e-09 must be >= 0", NULL, NULL}},
    {1, "0:1:2:x", {"extra field \"x\" is not a number", NULL, NULL}},
    {1, "0;1", {"section 1 \"0\" has 1 field", NULL, NULL}},
};

START_TEST(test_malformed)
{
  const bad_case *c = &bad[_i];
  fac_func f = {(fac_section *)1, 42}; /* garbage: must come back empty */
  char err[256] = "";
  int rc = c->overhead == 1
               ? fac_parse_overhead("smpi/os", c->spec, &f, err, sizeof err)
               : fac_parse_factor(c->overhead == 2 ? "smpi/lat-factor" : "smpi/bw-factor",
                                  c->spec, c->overhead == 2 ? FAC_NONNEGATIVE : FAC_POSITIVE, &f,
                                  err, sizeof err);
  ck_assert_msg(rc == -1, "'%s' accepted", c->spec);
  ck_assert_ptr_null(f.sec);
  ck_assert_uint_eq(f.count, 0);
  const char *key = c->overhead == 1   ? "smpi/os"
                    : c->overhead == 2 ? "smpi/lat-factor"
                                       : "smpi/bw-factor";
  ck_assert_msg(strncmp(err, key, strlen(key)) == 0,
                "'%s': message does not start with the key: %s", c->spec, err);
  for (int k = 0; k < 3; k++)
    if (c->expect[k])
      ck_assert_msg(strstr(err, c->expect[k]), "'%s': message '%s' lacks '%s'", c->spec, err,
                    c->expect[k]);
}
END_TEST

static Suite *factors_suite(void)
{
  Suite *s = suite_create("factors");
  TCase *tc = tcase_create("factors");
  tcase_add_test(tc, test_default_bw_boundaries);
  tcase_add_test(tc, test_default_lat_boundaries);
  tcase_add_test(tc, test_any_order);
  tcase_add_test(tc, test_overheads);
  tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof bad / sizeof bad[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(factors_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
