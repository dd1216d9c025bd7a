/* Engine scheduling cost: N actors yield M times each; ns per actor switch, with direct
 * actor-to-actor switching and with every switch going through the maestro. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/engine.h"
#include "src/cfg.h"

static int rounds;
static void yielder(void *arg)
{
  for (int i = 0; i < rounds; i++)
    eng_yield();
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double run(const char *factory, bool direct, int actors, int m)
{
  char err[256];
  eng_declare_config();
  cfg_reset();
  cfg_set("contexts/factory", factory, CFG_ORIGIN_CMDLINE, err, sizeof err);
  cfg_set("contexts/stack-size", "64", CFG_ORIGIN_CMDLINE, err, sizeof err);
  cfg_set("contexts/direct-switch", direct ? "yes" : "no", CFG_ORIGIN_CMDLINE, err, sizeof err);
  if (eng_init(err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  rounds = m;
  for (int i = 0; i < actors; i++)
    eng_actor_create("y", yielder, NULL);
  double t0 = now_s();
  eng_run();
  double t1 = now_s();
  eng_stats st;
  eng_get_stats(&st);
  eng_shutdown();
  return (t1 - t0) * 1e9 / (double)st.actor_switches;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void)
{
  const char *factories[] = {"raw", "ucontext"};
  int sizes[] = {2, 1000, 10000};
  printf("%-9s %7s %22s %22s\n", "factory", "actors", "direct (ns/switch)",
         "via maestro (ns/switch)");
  for (int f = 0; f < 2; f++)
    for (int s = 0; s < 3; s++) {
      int actors = sizes[s], m = 2000000 / actors;
      double d[5], v[5];
      for (int r = 0; r < 5; r++) {
        d[r] = run(factories[f], true, actors, m);
        v[r] = run(factories[f], false, actors, m);
      }
      qsort(d, 5, sizeof *d, cmp);
      qsort(v, 5, sizeof *v, cmp);
      printf("%-9s %7d %22.1f %22.1f\n", factories[f], actors, d[2], v[2]);
    }
  return 0;
}
