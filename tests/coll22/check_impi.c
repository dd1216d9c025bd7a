/* The impi selector against SimGrid 3.32's own tables (tests/data/simgrid-ref/
 * impi_tables.txt, read from libsimgrid.so.3.32 by tools/simgrid-ref/record_impi_tables.py):
 * every row, threshold and algorithm number, the algorithm each number runs, and that each
 * of those names exists in this build. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll_private.h"

#define REF SMPI_SOURCE_ROOT "/tests/data/simgrid-ref/impi_tables.txt"

static char *slurp_ours(void)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  coll_impi_dump(f);
  fclose(f);
  return buf;
}

/* SimGrid's function for number k of collective c, as our name */
static const char *our_name(const char *c, int k, const char *sg)
{
  static char buf[128];
  if (!strncmp(sg, "static@", 7)) { /* the selector file's own helpers */
    if (!strcmp(c, "reduce_scatter") && k == 1)
      return "ompi_basic_recursivehalving";
    return "default"; /* barrier 5-6, reduce_scatter 4-5 */
  }
  const char *p = strstr(sg, "__");
  snprintf(buf, sizeof buf, "%s", p ? p + 2 : sg);
  return buf;
}

START_TEST(tables_are_simgrids)
{
  FILE *ref = fopen(REF, "r");
  ck_assert_msg(ref != NULL, "cannot open %s", REF);
  char *ours = slurp_ours();
  char line[4096];
  int rows = 0, names = 0;
  while (fgets(line, sizeof line, ref)) {
    line[strcspn(line, "\n")] = 0;
    if (!strncmp(line, "table ", 6)) {
      char want[4100];
      snprintf(want, sizeof want, "%s\n", line);
      ck_assert_msg(strstr(ours, want) != NULL, "row missing or different here: %s", line);
      rows++;
    } else if (!strncmp(line, "functions ", 10)) {
      char c[64];
      int off;
      ck_assert(sscanf(line + 10, "%63s%n", c, &off) == 1);
      char expect[1024] = "names ";
      strcat(expect, c);
      for (char *tok = strtok(line + 10 + off, " "); tok; tok = strtok(NULL, " ")) {
        int k = atoi(tok);
        char *colon = strchr(tok, ':');
        ck_assert(colon != NULL);
        char item[160];
        snprintf(item, sizeof item, " %d:%s", k, our_name(c, k, colon + 1));
        strcat(expect, item);
      }
      strcat(expect, "\n");
      ck_assert_msg(strstr(ours, expect) != NULL, "algorithm numbers differ: want %s", expect);
      names++;
    }
  }
  fclose(ref);
  /* as many rows here as there */
  int our_rows = 0;
  for (const char *p = ours; (p = strstr(p, "table ")); p++)
    our_rows++;
  ck_assert_int_eq(our_rows, rows);
  ck_assert_int_eq(names, 11);
  free(ours);
}
END_TEST

static bool is_selector(const char *name)
{
  for (size_t k = 0; k < coll_nselectors; k++)
    if (!strcmp(coll_selectors[k].name, name))
      return true;
  return false;
}

START_TEST(names_exist)
{
  char *ours = slurp_ours();
  for (char *l = strtok(ours, "\n"); l; l = strtok(NULL, "\n")) {
    char c[64];
    int off;
    if (sscanf(l, "names %63s%n", c, &off) != 1)
      continue;
    int id = -1;
    for (int i = 0; i < COLL_COUNT; i++)
      if (!strcmp(coll_infos[i].name, c))
        id = i;
    ck_assert_int_ge(id, 0);
    /* the names line, then reduce_scatter's non-commutative alternative */
    char list[1024];
    snprintf(list, sizeof list, "%s%s", l + off,
             !strcmp(c, "reduce_scatter") ? " 1:mvapich2" : "");
    char *save;
    for (char *tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
      const char *name = strchr(tok, ':') + 1;
      char pair[128];
      snprintf(pair, sizeof pair, "%s %s", c, name);
      bool have = coll_algo_find((coll_id)id, name) >= 0 || is_selector(name);
      ck_assert_msg(have, "the impi tables name %s, which this build lacks", pair);
    }
  }
  free(ours);
}
END_TEST

static coll_features feat(coll_id c, int n, int ppn, size_t bytes, bool commutative)
{
  coll_features f = {.coll = c,
                     .size = n,
                     .ppn = ppn,
                     .dtsize = 1,
                     .count = bytes,
                     .bytes = bytes,
                     .total = bytes * (size_t)n,
                     .commutative = commutative};
  return f;
}

START_TEST(lookups)
{
  coll_features f = feat(COLL_bcast, 64, 8, 1000, true); /* the file's worked example */
  ck_assert_str_eq(coll_impi_pick(&f), "mvapich2");
  f = feat(COLL_bcast, 64, 8, 600, true);
  ck_assert_str_eq(coll_impi_pick(&f), "binomial_tree");
  f = feat(COLL_bcast, 64, 8, 699, true); /* thresholds are exclusive upper bounds */
  ck_assert_str_eq(coll_impi_pick(&f), "mvapich2");
  f = feat(COLL_allreduce, 16, 3, 8, true); /* no table for 3 per host: the 1-per-host one */
  ck_assert_str_eq(coll_impi_pick(&f), "rdb");
  f = feat(COLL_allreduce, 16, 0, 8, true); /* irregular layout: likewise */
  ck_assert_str_eq(coll_impi_pick(&f), "rdb");
  f = feat(COLL_reduce_scatter, 16, 2, 1, true); /* n = 1 bounds the search: element 1 */
  f.total = 100;
  ck_assert_str_eq(coll_impi_pick(&f), "ompi_basic_recursivehalving");
  f.commutative = false;
  ck_assert_str_eq(coll_impi_pick(&f), "mvapich2");
  f.total = 1000000;
  f.commutative = true;
  ck_assert_str_eq(coll_impi_pick(&f), "ompi_basic_recursivehalving");
  f = feat(COLL_barrier, 4, 1, 0, true);
  ck_assert_str_eq(coll_impi_pick(&f), "default");
  f = feat(COLL_scan, 4, 1, 8, true); /* no table: NULL, the default selector decides */
  ck_assert_ptr_null(coll_impi_pick(&f));
  /* what runs: an algorithm that fits, else the default selector's */
  f = feat(COLL_alltoall, 16, 1, 100000, true); /* 84645 <= m < 167570: 3 = pair */
  ck_assert_str_eq(coll_algos[coll_select_impi(&f)].name, "pair");
  f = feat(COLL_alltoall, 12, 1, 100000, true); /* pair needs a power of two */
  coll_features d = f;
  ck_assert_int_eq(coll_select_impi(&f), coll_select_default(&d));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("coll_impi");
  TCase *tc = tcase_create("impi");
  tcase_add_test(tc, tables_are_simgrids);
  tcase_add_test(tc, names_exist);
  tcase_add_test(tc, lookups);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
