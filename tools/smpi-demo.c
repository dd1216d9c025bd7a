/* A kernel-level demonstration, without MPI: four actors share one two-core machine
 * through the max-min solver, sleep, and hand work to each other, using the kernel's API
 * as the MPI layer does. It prints the simulated date of every step; the dates follow from
 * the numbers below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/activity.h"
#include "kernel/engine.h"
#include "src/cfg.h"
#include "src/log.h"

static act_model cpu_model;
static lmm_constraint *machine; /* 2 cores x 1 Gflop/s: capacity 2e9, one core per task */

static void compute(const char *who, double flops)
{
  act_action *a = act_action_new(&cpu_model, flops, 0, 1.0, 1e9 /* one core at most */, 1, NULL,
                                 NULL);
  lmm_expand(cpu_model.sys, machine, a->var, 1.0);
  printf("[%8.4f s] %s computes %.1f Gflop\n", eng_now(), who, flops / 1e9);
  act_wait(a);
  act_action_free(a);
  printf("[%8.4f s] %s is done computing\n", eng_now(), who);
}

static void worker(void *arg)
{
  long id = (long)arg;
  char name[32];
  snprintf(name, sizeof name, "worker %ld", id);
  eng_sleep(0.5 * (double)id);
  compute(name, 1e9 * (double)(id + 1));
}

int main(int argc, char **argv)
{
  char err[512];
  eng_declare_config();
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--cfg=", 6) == 0 &&
        cfg_parse(argv[i] + 6, CFG_ORIGIN_CMDLINE, err, sizeof err) == 0)
      continue;
    if (strncmp(argv[i], "--log=", 6) == 0 &&
        log_parse_setting(argv[i] + 6, err, sizeof err) == 0)
      continue;
    if (strcmp(argv[i], "--help") == 0) {
      cfg_help(stdout);
      return 0;
    }
    fprintf(stderr, "smpi-demo: %s: %s\n", argv[i],
            strncmp(argv[i], "--", 2) == 0 ? err : "unknown argument (try --help)");
    return 1;
  }
  if (eng_init(err, sizeof err) != 0) {
    fprintf(stderr, "smpi-demo: %s\n", err);
    return 1;
  }
  act_model_init(&cpu_model, "cpu", cfg_get_double("precision/work-amount"));
  machine = lmm_constraint_new(cpu_model.sys, NULL, 2e9, LMM_SHARED);
  for (long i = 0; i < 4; i++)
    eng_actor_create("worker", worker, (void *)i);
  int rc = eng_run();
  printf("simulation ended at %.6f s (%s)\n", eng_now(), rc == ENG_OK ? "ok" : "deadlock");
  act_model_destroy(&cpu_model);
  eng_shutdown();
  return rc;
}
