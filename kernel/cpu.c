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

#include "kernel/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(cpu, kernel, "CPU model (computations on hosts)");
LOG_DEFAULT_CATEGORY(cpu);

void cpu_declare_config(void)
{
  /* See network/optim in network.c: accepted so SimGrid command lines carry over. */
  static const cfg_key keys[] = {
      CFG_KEY_STRING("cpu/optim", "Lazy", "Lazy|Full|TI",
                     "Accepted for compatibility with SimGrid; no effect: CPU sharing is always "
                     "computed exactly, incrementally"),
      CFG_KEY_BOOL("cpu/maxmin-selective-update", true,
                   "Accepted for compatibility with SimGrid; no effect"),
      /* SimGrid users' scripts pin the models they rely on; the defaults are what we model */
      CFG_KEY_STRING("cpu/model", "Cas01", "Cas01",
                     "Accepted for compatibility with SimGrid: its default CPU model (Cas01, "
                     "max-min sharing of the host's cores) is the only one here"),
      CFG_KEY_STRING("host/model", "default", "default|compound",
                     "SimGrid's host models: 'compound' combines cpu/model and network/model; "
                     "'default' set explicitly is SimGrid's Cas01 + LV08, whatever "
                     "network/model says (no ptask_L07)"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

int cpu_model_init(const route_table *rt, char *err, size_t errlen)
{
  ASSERTF(!kworld.cpu.initialized, "cpu_model_init called twice without cpu_model_shutdown");
  ASSERTF(eng_initialized(), "cpu_model_init before eng_init");
  (void)err;
  (void)errlen;
  cpu_declare_config();
  kworld.cpu.rt = rt;
  kworld.cpu.nhosts = route_host_count(rt);
  /* the pages of hosts without ranks are never touched (4 096 hosts: 192 KiB) */
  kworld.cpu.hosts = xcalloc_lazy(kworld.cpu.nhosts, sizeof *kworld.cpu.hosts);
  kworld.cpu.nconstraints = 0;
  act_model_init(&kworld.cpu.model, "cpu", eng_work_precision());
  kworld.cpu.initialized = true;
  return 0;
}

void cpu_model_shutdown(void)
{
  if (!kworld.cpu.initialized)
    return;
  act_model_destroy(&kworld.cpu.model); /* frees the constraints with the lmm system */
  xfree_lazy(kworld.cpu.hosts, kworld.cpu.nhosts, sizeof *kworld.cpu.hosts);
  kworld.cpu.hosts = NULL;
  kworld.cpu.initialized = false;
}

bool cpu_model_initialized(void) { return kworld.cpu.initialized; }
act_model *cpu_act_model(void) { return &kworld.cpu.model; }
size_t cpu_constraint_count(void) { return kworld.cpu.nconstraints; }
size_t cpu_host_count(void) { return kworld.cpu.nhosts; }

static void host_describe(size_t host, double *speed, int *cores)
{
  plat_host_desc d;
  route_host_desc(kworld.cpu.rt, host, &d);
  const cpu_host *h = &kworld.cpu.hosts[host];
  size_t pstate = h->pstate_set ? h->pstate : d.pstate;
  ASSERTF(d.npstates > 0 && pstate < d.npstates, "host %zu: pstate %zu of %zu", host, pstate,
          d.npstates);
  *speed = d.speeds[pstate];
  *cores = d.cores;
  ASSERTF(*speed > 0 && isfinite(*speed) && *cores > 0, "host %zu: speed %g, %d cores", host,
          *speed, *cores);
}

static cpu_host *host_get(size_t host)
{
  ASSERTF(kworld.cpu.initialized, "CPU model not initialized");
  ASSERTF(host < kworld.cpu.nhosts, "host index %zu out of range (%zu hosts)", host,
          kworld.cpu.nhosts);
  cpu_host *h = &kworld.cpu.hosts[host];
  if (!h->cnst) {
    host_describe(host, &h->speed, &h->cores);
    h->cnst = lmm_constraint_new(kworld.cpu.model.sys, (void *)(uintptr_t)(host + 1),
                                 (h->scaled ? h->scale : 1.0) * h->speed * h->cores, LMM_SHARED);
    kworld.cpu.nconstraints++;
  }
  return h;
}

double cpu_host_speed(size_t host)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  const cpu_host *h = &kworld.cpu.hosts[host];
  if (h->cnst)
    return h->speed;
  double speed;
  int cores;
  host_describe(host, &speed, &cores);
  return speed;
}

int cpu_host_cores(size_t host)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  const cpu_host *h = &kworld.cpu.hosts[host];
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
  double b = h->scaled ? h->scale * h->speed : h->speed;
  if (bound > 0 && bound < b)
    b = bound;
  act_action *a = act_action_new(&kworld.cpu.model, flops, 0.0, 1.0, b, 1, fn, data);
  lmm_expand(kworld.cpu.model.sys, h->cnst, a->var, 1.0);
  LOG_DEBUG("exec %p: %.17g flops on host %zu (speed %g, %d cores, bound %g)", (void *)a, flops,
            host, h->speed, h->cores, b);
  return a;
}

static void rebound(lmm_variable *v, void *arg)
{
  lmm_variable_set_bound(kworld.cpu.model.sys, v, *(double *)arg);
}

void cpu_host_set_scale(size_t host, double scale)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  ASSERTF(scale >= 0 && isfinite(scale), "host %zu: speed scale %g", host, scale);
  cpu_host *h = &kworld.cpu.hosts[host];
  h->scaled = true;
  h->scale = scale;
  if (h->cnst) {
    lmm_constraint_set_capacity(kworld.cpu.model.sys, h->cnst, scale * h->speed * h->cores);
    /* a running execution's bound, one core, follows the speed (as in SimGrid); a user
     * bound below it is not kept (no SMPI call sets one) */
    double bound = scale * h->speed;
    lmm_constraint_foreach_variable(h->cnst, rebound, &bound);
    kworld.cpu.model.dirty = true;
  }
}

size_t cpu_host_pstate(size_t host)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  const cpu_host *h = &kworld.cpu.hosts[host];
  if (h->pstate_set)
    return h->pstate;
  plat_host_desc d;
  route_host_desc(kworld.cpu.rt, host, &d);
  return d.pstate;
}

void cpu_host_set_pstate(size_t host, size_t pstate)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  cpu_host *h = &kworld.cpu.hosts[host];
  h->pstate_set = true;
  h->pstate = pstate;
  if (!h->cnst)
    return; /* described with this pstate when it first computes */
  double speed;
  int cores;
  host_describe(host, &speed, &cores);
  h->speed = speed;
  double scale = h->scaled ? h->scale : 1.0;
  lmm_constraint_set_capacity(kworld.cpu.model.sys, h->cnst, scale * speed * h->cores);
  double bound = scale * speed;
  lmm_constraint_foreach_variable(h->cnst, rebound, &bound);
  kworld.cpu.model.dirty = true;
}

double cpu_host_load(size_t host)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  const cpu_host *h = &kworld.cpu.hosts[host];
  if (!h->cnst)
    return 0;
  double cap = lmm_constraint_capacity(h->cnst);
  if (!(cap > 0))
    return 0;
  double load = lmm_constraint_load(h->cnst) / cap;
  return load > 1 ? 1 : load;
}

void cpu_host_foreach_use(size_t host, void (*fn)(uint16_t tag, double used, void *arg),
                          void *arg)
{
  ASSERTF(kworld.cpu.initialized && host < kworld.cpu.nhosts, "bad host %zu", host);
  lmm_constraint *c = kworld.cpu.hosts[host].cnst;
  if (c)
    act_constraint_foreach_use(c, fn, arg);
}
