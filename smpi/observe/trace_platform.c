/* The platform in Paje traces, and its utilization per tracing category (SimGrid's
 * tracing/platform, tracing/uncategorized, tracing/categorized, TRACE_category and
 * TRACE_smpi_set_category).
 *
 *   0 4 0 HOST                      one container per host, variables speed (flop/s of a
 *   1 hs 4 speed "1 1 1"            core), core_count, and with uncategorized speed_used
 *   0 L 0 LINK                      one container per link, variables bandwidth (B/s),
 *   1 lb L bandwidth "1 1 1"        latency (s), and with uncategorized bandwidth_used
 *   1 p1 4 pping "0.81 0.13 0.90"   TRACE_category("ping"): p<name> on hosts (flop/s
 *   1 b1 L bping "0.81 0.13 0.90"   computed in that category), b<name> on links (B/s)
 *
 * A worked example: rank 0 in category "ping" sends 1 MB over link L at 94 MB/s during
 * [0.000116, 0.011279]; the trace gets, on L's container,
 *
 *   8 0.000116 b1 l0 0.000000         first use: the variable starts at 0
 *   9 0.000116 b1 l0 94069400.000000  Add over the interval the rate holds ...
 *   10 0.011279 b1 l0 94069400.000000 ... and Sub at its end
 *
 * so the integral of b<name> over time on a link is the bytes (message + 16-byte envelope)
 * its category sent through it, and of p<name> on a host the flops computed there.
 *
 * How: two engine models. The reader, registered after the CPU and network models (they
 * solve their sharing first), reads in next_event, for every link and host, the rate each
 * running action gets (act_constraint_foreach_use), summed per category. The writer,
 * registered before them, writes those sums over [last, now] in advance(now), before the
 * network's completions at now add their events to the file (time order). Nothing is registered when neither categorized nor uncategorized is
 * on: the MPI-level trace costs the same as before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/engine.h"
#include "kernel/network.h"
#include "kernel/routing.h"
#include "smpi/observe/trace_private.h"
#include "smpi/smpi.h"
#include "src/invariant.h"
#include "src/mem.h"

typedef struct trace_category {
  char *name;
  char color[64];
} trace_category;

/* one resource (host or link): the rate of each slot during the current interval (slot 0:
 * all actions, for uncategorized; slot c: category c) and whether its variable was set */
typedef struct res_use {
  double *rate;
  bool *started;
  bool hidden; /* trace_link_hidden */
} res_use;

static struct trace_plat_state {
  bool values; /* the engine models run */
  eng_model reader, writer;
  double last;
  size_t nhosts, nlinks;
  res_use *hosts, *links;
  trace_category *cats; /* [1..ncats]; [0] unused */
  size_t ncats, capcats;
  size_t nslots;    /* 1 + ncats, the size of every res_use array */
  uint32_t mt[624]; /* SimGrid colours uncoloured categories from a default mt19937 */
  int mti;
} pt = {.mti = 625};

/* ---- colours: the Mersenne Twister MT19937 with its default seed (5489), whose outputs
 * divided by 2^32 - 1 SimGrid 3.32 uses as r, g, b ---- */
static uint32_t mt_next(void)
{
  if (pt.mti > 624) { /* not seeded yet */
    pt.mt[0] = 5489u;
    for (int i = 1; i < 624; i++)
      pt.mt[i] = 1812433253u * (pt.mt[i - 1] ^ (pt.mt[i - 1] >> 30)) + (uint32_t)i;
    pt.mti = 624;
  }
  if (pt.mti == 624) {
    for (int i = 0; i < 624; i++) {
      uint32_t y = (pt.mt[i] & 0x80000000u) | (pt.mt[(i + 1) % 624] & 0x7fffffffu);
      pt.mt[i] = pt.mt[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
    }
    pt.mti = 0;
  }
  uint32_t y = pt.mt[pt.mti++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

static void random_color(char *out, size_t len)
{
  double r = mt_next() / 4294967295.0, g = mt_next() / 4294967295.0;
  double b = mt_next() / 4294967295.0;
  snprintf(out, len, "%f %f %f", r, g, b);
}

/* ---- categories ---- */

static uint16_t category_find(const char *name)
{
  for (size_t i = 1; i <= pt.ncats; i++)
    if (!strcmp(pt.cats[i].name, name))
      return (uint16_t)i;
  return 0;
}

static void grow_slots(res_use *r, size_t n, size_t slots)
{
  for (size_t i = 0; i < n; i++) {
    r[i].rate = xrealloc(r[i].rate, slots * sizeof *r[i].rate);
    r[i].started = xrealloc(r[i].started, slots * sizeof *r[i].started);
    r[i].rate[slots - 1] = 0;
    r[i].started[slots - 1] = false;
  }
}

uint16_t trace_category_declare(const char *name, const char *color)
{
  if (!tracer.categorized || !name || !*name)
    return 0;
  uint16_t id = category_find(name);
  if (id)
    return id;
  if (pt.ncats + 1 >= 65535)
    return 0; /* (a trace with 65534 categories is not readable anyway) */
  XGROW(pt.cats, pt.capcats, pt.ncats + 2);
  id = (uint16_t)++pt.ncats;
  pt.cats[id].name = xstrdup(name);
  if (color && *color)
    snprintf(pt.cats[id].color, sizeof pt.cats[id].color, "%s", color);
  else
    random_color(pt.cats[id].color, sizeof pt.cats[id].color);
  pt.nslots = 1 + pt.ncats;
  grow_slots(pt.hosts, pt.nhosts, pt.nslots);
  grow_slots(pt.links, pt.nlinks, pt.nslots);
  if (tracer.paje)
    paje_category(id, name, pt.cats[id].color);
  return id;
}

/* ---- utilization ---- */

static void add_use(uint16_t tag, double used, void *arg)
{
  double *rate = arg;
  rate[0] += used;
  if (tag && tag < pt.nslots)
    rate[tag] += used;
}

static double plat_next_event(eng_model *m, double now)
{
  (void)m;
  (void)now;
  for (size_t h = 0; h < pt.nhosts; h++) {
    memset(pt.hosts[h].rate, 0, pt.nslots * sizeof(double));
    cpu_host_foreach_use(h, add_use, pt.hosts[h].rate);
  }
  for (size_t l = 0; l < pt.nlinks; l++) {
    memset(pt.links[l].rate, 0, pt.nslots * sizeof(double));
    if (!pt.links[l].hidden)
      net_link_foreach_use((uint32_t)l, add_use, pt.links[l].rate);
  }
  return -1;
}

static void write_uses(bool host, size_t n, res_use *r, double t0, double t1)
{
  for (size_t i = 0; i < n; i++)
    for (size_t s = tracer.uncategorized ? 0 : 1; s < pt.nslots; s++)
      if (r[i].rate[s] > 0) {
        paje_resource_use(host, i, (uint16_t)s, !r[i].started[s], r[i].rate[s], t0, t1);
        r[i].started[s] = true;
      }
}

static void plat_advance(eng_model *m, double now)
{
  (void)m;
  if (now <= pt.last)
    return;
  if (tracer.paje) {
    write_uses(true, pt.nhosts, pt.hosts, pt.last, now);
    write_uses(false, pt.nlinks, pt.links, pt.last, now);
  }
  pt.last = now;
}

static double no_event(eng_model *m, double now)
{
  (void)m;
  (void)now;
  return -1;
}

static void no_advance(eng_model *m, double now)
{
  (void)m;
  (void)now;
}

static const eng_model_ops reader_ops = {"tracing (rates)", plat_next_event, no_advance};
static const eng_model_ops writer_ops = {"tracing (writes)", no_event, plat_advance};

void trace_platform_start(void)
{
  pt.nhosts = route_host_count(smpi_w.routes);
  pt.nlinks = route_link_count(smpi_w.routes);
  pt.nslots = 1;
  pt.hosts = xcalloc(pt.nhosts ? pt.nhosts : 1, sizeof *pt.hosts);
  pt.links = xcalloc(pt.nlinks ? pt.nlinks : 1, sizeof *pt.links);
  grow_slots(pt.hosts, pt.nhosts, 1);
  grow_slots(pt.links, pt.nlinks, 1);
  char name[256];
  for (size_t l = 0; l < pt.nlinks; l++) {
    route_link_name(smpi_w.routes, (uint32_t)l, name, sizeof name);
    pt.links[l].hidden = trace_link_hidden(name);
  }
  if (tracer.paje && (tracer.categorized || tracer.uncategorized)) {
    pt.reader.ops = &reader_ops;
    pt.writer.ops = &writer_ops;
    eng_model_register(&pt.reader);
    eng_model_register_first(&pt.writer);
    pt.values = true;
    pt.last = eng_now();
  }
}

void trace_platform_stop(void)
{
  if (pt.values) {
    plat_advance(&pt.writer, eng_now()); /* (the engine stopped at the last event) */
    if (eng_initialized()) {
      eng_model_unregister(&pt.reader);
      eng_model_unregister(&pt.writer);
    }
    pt.values = false;
  }
  for (size_t i = 0; i < pt.nhosts; i++) {
    free(pt.hosts[i].rate);
    free(pt.hosts[i].started);
  }
  for (size_t i = 0; i < pt.nlinks; i++) {
    free(pt.links[i].rate);
    free(pt.links[i].started);
  }
  free(pt.hosts);
  free(pt.links);
  for (size_t i = 1; i <= pt.ncats; i++)
    free(pt.cats[i].name);
  free(pt.cats);
  pt.hosts = pt.links = NULL;
  pt.cats = NULL;
  pt.ncats = pt.capcats = pt.nhosts = pt.nlinks = 0;
}
