/* The disk model (kernel/disk.c) on platforms/io_cluster.xml: dates computed by hand from
 * the disks' bandwidths (local disks read 500 MB/s, write 250 MB/s; the storage host's
 * 1 GB/s and 400 MB/s), and which disk serves which name (mount points, local first). */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "kernel/cpu.h"
#include "kernel/disk.h"
#include "kernel/engine.h"
#include "kernel/network.h"
#include "kernel/routing.h"
#include "src/cfg.h"
#include "src/platform.h"

static plat_platform *W_plat;
static route_table *W_rt;

static void world_start(void)
{
  char err[512];
  eng_declare_config();
  route_declare_config();
  net_declare_config();
  cpu_declare_config();
  cfg_reset();
  ck_assert(cfg_set("contexts/stack-size", "128", CFG_ORIGIN_CMDLINE, err, sizeof err) == 0);
  ck_assert_msg(plat_load_file(SMPI_SOURCE_ROOT "/platforms/io_cluster.xml", &W_plat, err,
                               sizeof err) == 0,
                "%s", err);
  ck_assert_msg(route_table_build(W_plat, &W_rt, err, sizeof err) == 0, "%s", err);
  ck_assert_msg(eng_init(err, sizeof err) == 0, "%s", err);
  ck_assert_msg(disk_model_init(W_plat, W_rt, err, sizeof err) == 0, "%s", err);
}

static void world_stop(void)
{
  disk_model_shutdown();
  eng_shutdown();
  route_table_free(W_rt);
  plat_free(W_plat);
}

static size_t host(const char *name)
{
  long h = route_host_by_name(W_rt, name);
  ck_assert_msg(h >= 0, "no host '%s'", name);
  return (size_t)h;
}

typedef struct io_job {
  long disk;
  bool write;
  double bytes, start, done;
} io_job;

static void io_actor(void *arg)
{
  io_job *j = arg;
  if (j->start > eng_now())
    eng_sleep(j->start - eng_now());
  act_action *a = disk_io_start((size_t)j->disk, j->write, j->bytes, NULL, NULL);
  ck_assert_int_eq(act_wait(a), ACT_DONE);
  j->done = eng_now();
  act_action_free(a);
}

static void run(io_job *jobs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    eng_actor_create("io", io_actor, &jobs[i]);
  ck_assert_int_eq(eng_run(), ENG_OK);
}

#define ASSERT_DATE(got, want)                                                             \
  do {                                                                                     \
    double g_ = (got), w_ = (want);                                                        \
    ck_assert_msg(fabs(g_ - w_) <= 1e-9 * fabs(w_), "date %.17g, expected %.17g", g_, w_); \
  } while (0)

START_TEST(test_mounts)
{
  world_start();
  ck_assert_uint_eq(disk_count(), 5);
  long d = disk_find(host("node2"), "/scratch/a/b");
  ck_assert_int_ge(d, 0);
  ck_assert_str_eq(disk_name((size_t)d), "ssd2"); /* its own, not node1's /scratch */
  ck_assert_uint_eq(disk_host((size_t)d), host("node2"));
  ck_assert_str_eq(disk_mount((size_t)d), "/scratch");
  ck_assert_int_eq(disk_find(host("node2"), "/scratch"), d);
  /* "/scratchy" is not under /scratch: the storage host's "/" holds it */
  long s = disk_find(host("node2"), "/scratchy");
  ck_assert_int_ge(s, 0);
  ck_assert_str_eq(disk_name((size_t)s), "raid");
  ck_assert_uint_eq(disk_host((size_t)s), host("storage"));
  ck_assert_int_eq(disk_find(host("node1"), "/pfs/x"), s);
  /* the storage host's own disk for itself */
  ck_assert_int_eq(disk_find(host("storage"), "/scratch/x"), s);
  ck_assert(disk_read_bw((size_t)s) == 1e9 && disk_write_bw((size_t)s) == 4e8);
  world_stop();
}
END_TEST

START_TEST(test_alone_and_shared)
{
  world_start();
  long d = disk_find(host("node1"), "/scratch/f");
  io_job j[] = {
      {d, true, 25e6, 0, 0},  /* alone: 25e6 / 250e6 */
      {d, false, 50e6, 1, 0}, /* alone: 50e6 / 500e6 */
      {d, true, 25e6, 2, 0},  /* two writes: 125 MB/s each */
      {d, true, 25e6, 2, 0},  /*   -> 0.2 s */
      {d, true, 25e6, 3, 0},  /* write + read: write 250 (its cap), read 250 (readwrite */
      {d, false, 50e6, 3, 0}, /*   500 - 250); then the read alone at 500: 0.1 + 0.05 */
  };
  run(j, sizeof j / sizeof *j);
  ASSERT_DATE(j[0].done, 0.1);
  ASSERT_DATE(j[1].done, 1.1);
  ASSERT_DATE(j[2].done, 2.2);
  ASSERT_DATE(j[3].done, 2.2);
  ASSERT_DATE(j[4].done, 3.1);
  ASSERT_DATE(j[5].done, 3.15);
  world_stop();
}
END_TEST

START_TEST(test_disks_independent)
{
  world_start();
  io_job j[] = {
      {disk_find(host("node1"), "/scratch/f"), true, 25e6, 0, 0},
      {disk_find(host("node2"), "/scratch/f"), true, 25e6, 0, 0},
      {disk_find(host("node3"), "/pfs"), true, 40e6, 0, 0}, /* storage: 40e6 / 400e6 */
  };
  run(j, 3);
  ASSERT_DATE(j[0].done, 0.1);
  ASSERT_DATE(j[1].done, 0.1);
  ASSERT_DATE(j[2].done, 0.1);
  world_stop();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("disk");
  TCase *tc = tcase_create("model");
  tcase_add_test(tc, test_mounts);
  tcase_add_test(tc, test_alone_and_shared);
  tcase_add_test(tc, test_disks_independent);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
