/* CPU model (Cas01); see cpu.h. Example on a 2-core host at 1 Gflop/s (capacity 2e9):
 *
 *   one exec of 1e9 flops         bound 1e9, alone           -> 1 s
 *   two execs of 1e9 and 2e9      1e9 each (2 x 1e9 <= 2e9)  -> 1 s and 2 s
 *   three execs of 1e9            2e9 / 3 each               -> 1.5 s
 */
#include "kernel/cpu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(cpu, kernel, "CPU model (computations on hosts)");
LOG_DEFAULT_CATEGORY(cpu);

typedef struct cpu_host {
  lmm_constraint *cnst; /* NULL until the host first computes */
  double speed;         /* valid once cnst is set */
  int cores;
} cpu_host;

static struct {
  bool initialized;
  act_model model;
  const route_table *rt;
  cpu_host *hosts; /* calloc'ed: untouched entries cost no memory in practice */
  size_t nhosts;
  size_t nconstraints;
} C;

void cpu_declare_config(void)
{
  /* See network/optim in network.c: accepted so SimGrid command lines carry over. */
  static const cfg_key keys[] = {
      CFG_KEY_STRING("cpu/optim", "Lazy", "Lazy|Full|TI",
                     "Accepted for compatibility with SimGrid; no effect: CPU sharing is always "
                     "computed exactly, incrementally"),
      CFG_KEY_BOOL("cpu/maxmin-selective-update", true,
                   "Accepted for compatibility with SimGrid; no effect"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

int cpu_model_init(const route_table *rt, char *err, size_t errlen)
{
  ASSERTF(!C.initialized, "cpu_model_init called twice without cpu_model_shutdown");
  ASSERTF(eng_initialized(), "cpu_model_init before eng_init");
  (void)err;
  (void)errlen;
  cpu_declare_config();
  C.rt = rt;
  C.nhosts = route_host_count(rt);
  C.hosts = xcalloc(C.nhosts ? C.nhosts : 1, sizeof *C.hosts);
  C.nconstraints = 0;
  act_model_init(&C.model, "cpu", eng_work_precision());
  C.initialized = true;
  return 0;
}

void cpu_model_shutdown(void)
{
  if (!C.initialized)
    return;
  act_model_destroy(&C.model); /* frees the constraints with the lmm system */
  free(C.hosts);
  C.hosts = NULL;
  C.initialized = false;
}

bool cpu_model_initialized(void) { return C.initialized; }
act_model *cpu_act_model(void) { return &C.model; }
size_t cpu_constraint_count(void) { return C.nconstraints; }
size_t cpu_host_count(void) { return C.nhosts; }

static void host_describe(size_t host, double *speed, int *cores)
{
  plat_host_desc d;
  route_host_desc(C.rt, host, &d);
  ASSERTF(d.npstates > 0 && d.pstate < d.npstates, "host %zu: pstate %zu of %zu", host, d.pstate,
          d.npstates);
  *speed = d.speeds[d.pstate];
  *cores = d.cores;
  ASSERTF(*speed > 0 && isfinite(*speed) && *cores > 0, "host %zu: speed %g, %d cores", host,
          *speed, *cores);
}

static cpu_host *host_get(size_t host)
{
  ASSERTF(C.initialized, "CPU model not initialized");
  ASSERTF(host < C.nhosts, "host index %zu out of range (%zu hosts)", host, C.nhosts);
  cpu_host *h = &C.hosts[host];
  if (!h->cnst) {
    host_describe(host, &h->speed, &h->cores);
    h->cnst = lmm_constraint_new(C.model.sys, (void *)(uintptr_t)(host + 1),
                                 h->speed * h->cores, LMM_SHARED);
    C.nconstraints++;
  }
  return h;
}

double cpu_host_speed(size_t host)
{
  ASSERTF(C.initialized && host < C.nhosts, "bad host %zu", host);
  const cpu_host *h = &C.hosts[host];
  if (h->cnst)
    return h->speed;
  double speed;
  int cores;
  host_describe(host, &speed, &cores);
  return speed;
}

int cpu_host_cores(size_t host)
{
  ASSERTF(C.initialized && host < C.nhosts, "bad host %zu", host);
  const cpu_host *h = &C.hosts[host];
  if (h->cnst)
    return h->cores;
  double speed;
  int cores;
  host_describe(host, &speed, &cores);
  return cores;
}

act_action *cpu_exec_start(size_t host, double flops, double bound, act_finish_fn fn, void *data)
{
  ASSERTF(flops >= 0 && isfinite(flops), "bad amount of flops %g", flops);
  cpu_host *h = host_get(host);
  /* one core at most; a user bound only lowers that (SimGrid ignores a larger one) */
  double b = h->speed;
  if (bound > 0 && bound < b)
    b = bound;
  act_action *a = act_action_new(&C.model, flops, 0.0, 1.0, b, 1, fn, data);
  lmm_expand(C.model.sys, h->cnst, a->var, 1.0);
  LOG_DEBUG("exec %p: %.17g flops on host %zu (speed %g, %d cores, bound %g)", (void *)a, flops,
            host, h->speed, h->cores, b);
  return a;
}
