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
#include "kernel/network.h"
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

typedef struct energy_link {
  bool metered;      /* has wattage_range */
  double idle, busy; /* W at load 0 and 1 */
  double joules;
  double watts;
} energy_link;

static struct energy_state {
  bool on;         /* host_energy */
  bool links_on;   /* link_energy */
  bool registered; /* model in the engine's list */
  eng_model model;
  energy_link *links; /* [nlinks] by link id (kernel/routing.h) */
  size_t nlinks;
  const route_table *rt;
  energy_host *hosts;
  size_t nhosts;
  double last; /* date up to which joules are counted, s */
} energy;

/* Each setting of "plugin" loads one more plugin, as in SimGrid (--cfg=plugin:host_energy
 * --cfg=plugin:link_energy loads both): the values are gathered here. */
static struct energy_plugins {
  char list[256]; /* every value set, ' ' separated */
} plugins_set;

static void on_plugin(const char *key, void *data)
{
  (void)data;
  size_t n = strlen(plugins_set.list);
  snprintf(plugins_set.list + n, sizeof plugins_set.list - n, " %s", cfg_get_string(key));
}

void energy_declare_config(void)
{
  if (cfg_is_declared("plugin"))
    return;
  static const cfg_key keys[] = {
      CFG_KEY_STRING("plugin", "", NULL,
                     "SimGrid plugin to load (each setting loads one more; ',' or ' ' separate "
                     "several in one value): host_energy (energy of "
                     "each host, from its wattage_per_state property) and link_energy (of each "
                     "link, from wattage_range), printed at the end; others are warned about "
                     "and ignored"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  plugins_set.list[0] = 0;
  cfg_on_change("plugin", on_plugin, NULL);
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
  /* SimGrid's link_energy: idle + (busy - idle) x usage / bandwidth */
  for (size_t i = 0; i < energy.nlinks; i++) {
    energy_link *l = &energy.links[i];
    if (l->metered)
      l->watts = l->idle + (l->busy - l->idle) * net_link_load((uint32_t)i);
  }
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
  for (size_t i = 0; i < energy.nlinks; i++)
    energy.links[i].joules += energy.links[i].watts * dt;
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

/* wattage_range "idle:busy" of each explicit, not split-duplex link (SimGrid 3.32 does not
 * give a SPLITDUPLEX link's property to its _UP and _DOWN halves: they draw 0 W) */
static int start_links(const plat_platform *p, const route_table *rt, char *err, size_t errlen)
{
  energy.nlinks = route_link_count(rt);
  energy.links = xcalloc(energy.nlinks ? energy.nlinks : 1, sizeof *energy.links);
  for (size_t i = 0; i < p->nlinks; i++) {
    const plat_link *l = p->links[i];
    const char *w = plat_props_get(&l->props, "wattage_range");
    if (!w || l->sharing == PLAT_SHARING_SPLITDUPLEX)
      continue;
    long id = route_link_by_name(rt, l->id);
    if (id < 0)
      continue;
    char *e1, *e2 = NULL;
    double idle = strtod(w, &e1), busy = -1;
    if (e1 != w && *e1 == ':')
      busy = strtod(e1 + 1, &e2);
    if (e1 == w || !e2 || e2 == e1 + 1 || e2[strspn(e2, " ")] || !(idle >= 0) || !(busy >= 0)) {
      snprintf(err, errlen, "link '%s': wattage_range '%s' is not 'idle:busy' (watts)", l->id, w);
      return -1;
    }
    energy.links[id] = (energy_link){.metered = true, .idle = idle, .busy = busy};
  }
  return 0;
}

static void start_warnings(const char *plugins)
{
  for (const char *s = plugins; *s;) {
    s += strspn(s, ", ");
    size_t len = strcspn(s, ", ");
    if (len && !(len == 11 && !strncmp(s, "host_energy", 11)) &&
        !(len == 11 && !strncmp(s, "link_energy", 11)))
      LOG_WARN("plugin '%.*s' is a SimGrid plugin that smpi does not implement: ignored",
               (int)len, s);
    s += len;
  }
}

int energy_start(const plat_platform *p, const route_table *rt, char *err, size_t errlen)
{
  energy_stop();
  energy_declare_config();
  const char *plugins = plugins_set.list;
  start_warnings(plugins);
  energy.rt = rt;
  if (plugin_listed(plugins, "link_energy")) {
    if (start_links(p, rt, err, errlen) != 0) {
      energy_stop();
      return -1;
    }
    energy.links_on = true;
  }
  if (plugin_listed(plugins, "host_energy")) {
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
    energy.on = true;
  }
  if (energy.on || energy.links_on) {
    energy.model.ops = &energy_ops;
    eng_model_register(&energy.model);
    energy.registered = true;
    energy.last = eng_now();
  }
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

static void report_links(FILE *out)
{
  named_host *ls = xmalloc((energy.nlinks ? energy.nlinks : 1) * sizeof *ls);
  double total = 0;
  size_t n = 0;
  for (size_t i = 0; i < energy.nlinks; i++) {
    route_link_name(energy.rt, (uint32_t)i, ls[n].name, sizeof ls[n].name);
    if (!strncmp(ls[n].name, "__", 2))
      continue; /* the routing's own loopback, which SimGrid does not list */
    ls[n++].index = i;
    total += energy.links[i].joules;
  }
  qsort(ls, n, sizeof *ls, cmp_name);
  fprintf(out, "[link_energy/INFO] Total energy over all links: %f\n", total);
  for (size_t i = 0; i < n; i++)
    fprintf(out, "[link_energy/INFO] Energy consumption of link '%s': %f Joules\n", ls[i].name,
            energy.links[ls[i].index].joules);
  free(ls);
}

void energy_report(FILE *out)
{
  if (!energy.registered)
    return;
  energy_advance(&energy.model, eng_now());
  if (energy.links_on)
    report_links(out);
  if (!energy.on)
    return;
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
  if (energy.registered && eng_initialized()) /* eng_shutdown forgets the models itself */
    eng_model_unregister(&energy.model);
  free(energy.links);
  for (size_t i = 0; i < energy.nhosts; i++) {
    free(energy.hosts[i].idle);
    free(energy.hosts[i].eps);
    free(energy.hosts[i].max);
  }
  free(energy.hosts);
  memset(&energy, 0, sizeof energy);
}
