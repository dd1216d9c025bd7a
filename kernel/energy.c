/* Host energy (SimGrid's host_energy plugin). Each host draws, in its current pstate p,
 *
 *   idle[p]                                   when no core computes (load 0)
 *   eps[p] + load x (max[p] - eps[p])         when computing, load in (0, 1]
 *
 * load = share of all cores' capacity in use (kernel/cpu.c, cpu_host_load).
 * wattage_per_state gives "idle:eps:max" per pstate, or "idle:max" (then eps = idle).
 * This is what SimGrid 3.32 computes, measured (tests/simgrid_compat): a 4-core host
 * "50:60:140" with 1, 2, 3 busy cores draws 80, 100, 120 W (not 60 W for one core, as the
 * names "OneCore:AllCores" of SimGrid's documentation suggest); a 2-core host "93:170" with
 * one busy core 131.5 W; a 1-core host "100:120:200" computing 200 W.
 *
 * One difference, deliberate: SimGrid 3.32 counts a host whose initial pstate is not 0 with
 * pstate 0's wattage until the host's first activity (its plugin reads the pstate at its
 * first update); here the draw is always the current pstate's (energy.xml's host B, pstate
 * 1, idle all run: SimGrid 100 W, smpi 93 W).
 *
 * The energy is the integral of the draw: the engine calls energy_next_event after the CPU
 * model's own (which solves its shares), where the loads of the coming interval are read,
 * then energy_advance when the clock moves, which adds draw x elapsed time. */
#include "kernel/energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/engine.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_CATEGORY(host_energy, "energy consumed by the hosts (plugin:host_energy)");
LOG_DEFAULT_CATEGORY(host_energy);

typedef struct energy_host {
  double *idle, *eps, *max; /* W per pstate; NULL: no wattage_per_state, draws 0 */
  size_t npstates;
  double joules;
  double watts; /* draw during the current interval */
  bool used;    /* computed at some point (SimGrid's "used hosts") */
} energy_host;

static struct energy_state {
  bool on;
  eng_model model;
  const route_table *rt;
  energy_host *hosts;
  size_t nhosts;
  double last; /* date up to which joules are counted, s */
} energy;

void energy_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING("plugin", "", NULL,
                     "SimGrid plugins to load, ',' or ' ' separated: host_energy (energy of "
                     "each host, from its wattage_per_state property, printed at the end) is "
                     "simulated; others are warned about and ignored"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

/* "idle:eps:max, idle:max, ..." -> the arrays; -1 with a message when malformed. */
static int parse_wattage(const char *text, size_t npstates, energy_host *h, const char *host,
                         char *err, size_t errlen)
{
  h->idle = xcalloc(npstates, sizeof *h->idle);
  h->eps = xcalloc(npstates, sizeof *h->eps);
  h->max = xcalloc(npstates, sizeof *h->max);
  h->npstates = npstates;
  const char *s = text;
  size_t p = 0;
  for (;; p++) {
    size_t len = strcspn(s, ",");
    if (p >= npstates) {
      snprintf(err, errlen,
               "host '%s': wattage_per_state '%s' lists more power ranges than the %zu pstate%s",
               host, text, npstates, npstates == 1 ? "" : "s");
      return -1;
    }
    double v[3];
    int n = 0;
    const char *q = s, *end = s + len;
    while (q < end && n < 4) {
      char *e;
      double x = strtod(q, &e);
      if (e == q || e > end || !(x >= 0) || !isfinite(x)) {
        n = -1;
        break;
      }
      if (n < 3)
        v[n] = x;
      n++;
      while (e < end && (*e == ' ' || *e == '\t'))
        e++;
      if (e < end && *e != ':') {
        n = -1;
        break;
      }
      q = e < end ? e + 1 : e;
    }
    if (n != 2 && n != 3) {
      snprintf(err, errlen,
               "host '%s': wattage_per_state '%s': pstate %zu is not 'idle:max' or "
               "'idle:epsilon:max' (watts)",
               host, text, p);
      return -1;
    }
    h->idle[p] = v[0];
    h->max[p] = n == 3 ? v[2] : v[1];
    h->eps[p] = n == 3 ? v[1] : v[0];
    if (!s[len])
      break;
    s += len + 1;
  }
  if (p + 1 != npstates) {
    snprintf(err, errlen,
             "host '%s': wattage_per_state '%s' lists %zu power range%s for %zu pstates", host,
             text, p + 1, p ? "s" : "", npstates);
    return -1;
  }
  return 0;
}

static double draw(const energy_host *h, size_t pstate, double load)
{
  if (!h->idle)
    return 0;
  if (!(load > 0))
    return h->idle[pstate];
  return h->eps[pstate] + load * (h->max[pstate] - h->eps[pstate]);
}

static double energy_next_event(eng_model *m, double now)
{
  (void)m;
  (void)now;
  for (size_t i = 0; i < energy.nhosts; i++) {
    energy_host *h = &energy.hosts[i];
    if (!h->idle)
      continue;
    double load = cpu_host_load(i);
    h->used |= load > 0;
    h->watts = draw(h, cpu_host_pstate(i), load);
  }
  return -1;
}

static void energy_advance(eng_model *m, double now)
{
  (void)m;
  double dt = now - energy.last;
  if (dt <= 0)
    return;
  for (size_t i = 0; i < energy.nhosts; i++)
    energy.hosts[i].joules += energy.hosts[i].watts * dt;
  energy.last = now;
}

static const eng_model_ops energy_ops = {"host_energy", energy_next_event, energy_advance};

/* plugin's value holds name as a whole word (',' or ' ' separated) */
static bool plugin_listed(const char *list, const char *name)
{
  size_t n = strlen(name);
  for (const char *s = list; *s;) {
    s += strspn(s, ", ");
    size_t len = strcspn(s, ", ");
    if (len == n && !strncmp(s, name, n))
      return true;
    s += len;
  }
  return false;
}

int energy_start(const route_table *rt, char *err, size_t errlen)
{
  energy_stop();
  energy_declare_config();
  const char *plugins = cfg_get_string("plugin");
  for (const char *s = plugins; *s;) {
    s += strspn(s, ", ");
    size_t len = strcspn(s, ", ");
    if (len && !(len == 11 && !strncmp(s, "host_energy", 11)))
      LOG_WARN("plugin '%.*s' is a SimGrid plugin that smpi does not implement: ignored",
               (int)len, s);
    s += len;
  }
  if (!plugin_listed(plugins, "host_energy"))
    return 0;
  energy.rt = rt;
  energy.nhosts = route_host_count(rt);
  energy.hosts = xcalloc(energy.nhosts ? energy.nhosts : 1, sizeof *energy.hosts);
  size_t missing = 0;
  for (size_t i = 0; i < energy.nhosts; i++) {
    plat_host_desc d;
    route_host_desc(rt, i, &d);
    energy_host *h = &energy.hosts[i];
    const char *w = plat_props_get(d.props, "wattage_per_state");
    char name[256];
    route_host_name(rt, i, name, sizeof name);
    if (!w) {
      /* as SimGrid 3.32, which no longer reads the old name watt_per_state either */
      if (++missing <= 5)
        LOG_WARN("no wattage_per_state property for host %s%s: it draws 0 W", name,
                 plat_props_get(d.props, "watt_per_state")
                     ? " (watt_per_state is the name older SimGrid versions read)"
                     : "");
      continue;
    }
    if (parse_wattage(w, d.npstates, h, name, err, errlen) != 0) {
      energy_stop();
      return -1;
    }
  }
  if (missing > 5)
    LOG_WARN("... and %zu more hosts without wattage_per_state (0 W each)", missing - 5);
  energy.model.ops = &energy_ops;
  eng_model_register(&energy.model);
  energy.last = eng_now();
  energy.on = true;
  return 0;
}

bool energy_enabled(void) { return energy.on; }

bool energy_host_range(size_t host, size_t pstate, double *idle, double *epsilon, double *max)
{
  if (!energy.on || host >= energy.nhosts)
    return false;
  const energy_host *h = &energy.hosts[host];
  if (!h->idle || pstate >= h->npstates)
    return false;
  *idle = h->idle[pstate];
  *epsilon = h->eps[pstate];
  *max = h->max[pstate];
  return true;
}

double energy_host_joules(size_t host)
{
  if (!energy.on || host >= energy.nhosts)
    return 0;
  /* the interval since the last event is not counted yet */
  const energy_host *h = &energy.hosts[host];
  return h->joules + h->watts * (eng_now() - energy.last);
}

double energy_host_watts(size_t host)
{
  return energy.on && host < energy.nhosts ? energy.hosts[host].watts : 0;
}

typedef struct named_host {
  char name[256];
  size_t index;
} named_host;

static int cmp_name(const void *a, const void *b)
{
  return strcmp(((const named_host *)a)->name, ((const named_host *)b)->name);
}

void energy_report(FILE *out)
{
  if (!energy.on)
    return;
  energy_advance(&energy.model, eng_now());
  named_host *hs = xmalloc((energy.nhosts ? energy.nhosts : 1) * sizeof *hs);
  double total = 0, used = 0;
  for (size_t i = 0; i < energy.nhosts; i++) {
    route_host_name(energy.rt, i, hs[i].name, sizeof hs[i].name);
    hs[i].index = i;
    total += energy.hosts[i].joules;
    if (energy.hosts[i].used)
      used += energy.hosts[i].joules;
  }
  qsort(hs, energy.nhosts, sizeof *hs, cmp_name);
  /* SimGrid's lines, so that scripts reading them carry over */
  fprintf(out,
          "[host_energy/INFO] Total energy consumption: %f Joules (used hosts: %f Joules; "
          "unused/idle hosts: %f)\n",
          total, used, total - used);
  for (size_t i = 0; i < energy.nhosts; i++)
    fprintf(out, "[host_energy/INFO] Energy consumption of host %s: %f Joules\n", hs[i].name,
            energy.hosts[hs[i].index].joules);
  free(hs);
}

void energy_stop(void)
{
  if (energy.on && eng_initialized()) /* eng_shutdown forgets the models itself */
    eng_model_unregister(&energy.model);
  for (size_t i = 0; i < energy.nhosts; i++) {
    free(energy.hosts[i].idle);
    free(energy.hosts[i].eps);
    free(energy.hosts[i].max);
  }
  free(energy.hosts);
  memset(&energy, 0, sizeof energy);
}
