/* Availability profiles over time (src/plat_profile.h): a host's speed scale, a link's
 * bandwidth and latency, changed at the dates of their profile's events by engine timers.
 *
 *   platform: <host id="A" speed="1Gf" speed_file="a.profile"/>   a.profile: 0 1.0
 *                                                                           5 0.5
 *                                                                           LOOPAFTER 5
 *   timers:   0 s: A at 1 Gf/s | 5 s: 0.5 Gf/s | 10 s: 1 Gf/s | 15 s: 0.5 Gf/s | ...
 *
 * State profiles (state_file, HOST_AVAIL / LINK_AVAIL): 0 turns the host or link off, any
 * other value on. A host going off kills its ranks (the hook of avail_on_host_down) and
 * fails the flows from and to it; a link going off fails the flows crossing it
 * (kernel/network.c). A host coming back does not bring its ranks back (as in SimGrid).
 *
 * One timer per profiled resource is pending at a time; each event arms the next. A looping
 * profile would arm timers forever: when nothing else can happen (no actor runnable, no
 * other timer, no running activity), the next one is not armed, so that the end of a run or
 * a deadlock is seen as without profiles. */
#include "kernel/profiles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/engine.h"
#include "kernel/network.h"
#include "kernel/world.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/plat_profile.h"

LOG_NEW_SUBCATEGORY(profiles, kernel, "availability profiles (speed and bandwidth over time)");
LOG_DEFAULT_CATEGORY(profiles);

typedef enum {
  AVAIL_SPEED,
  AVAIL_BANDWIDTH,
  AVAIL_LATENCY,
  AVAIL_HOST_STATE,
  AVAIL_LINK_STATE
} avail_kind;

typedef struct avail_track {
  avail_kind kind;
  size_t resource;          /* host index, or link id */
  double peak;              /* the link's bandwidth, for messages */
  const plat_profile *prof; /* owned by the platform */
  size_t next;              /* index of the next event */
  double cycle_start;       /* date of the current cycle's start (k x period) */
} avail_track;

static struct avail_state {
  avail_track *tracks; /* one per profiled resource */
  size_t ntracks;
  void (*host_down)(size_t host); /* avail_on_host_down */
} avail;

void avail_on_host_down(void (*hook)(size_t host)) { avail.host_down = hook; }

static void apply(avail_track *t, double value)
{
  if (t->kind == AVAIL_SPEED) {
    LOG_DEBUG("host %zu: speed scale %g at %.17g", t->resource, value, eng_now());
    cpu_host_set_scale(t->resource, value);
  } else if (t->kind == AVAIL_BANDWIDTH) {
    LOG_DEBUG("link %zu: bandwidth %g at %.17g", t->resource, value, eng_now());
    net_link_set_bandwidth((uint32_t)t->resource, value);
  } else if (t->kind == AVAIL_LATENCY) {
    LOG_DEBUG("link %zu: latency %g at %.17g", t->resource, value, eng_now());
    net_link_set_latency((uint32_t)t->resource, value);
  } else if (t->kind == AVAIL_LINK_STATE) {
    LOG_DEBUG("link %zu: %s at %.17g", t->resource, value != 0 ? "up" : "down", eng_now());
    net_link_set_up((uint32_t)t->resource, value != 0);
  } else {
    /* the ranks are killed first (reported), then the flows from and to the host fail */
    LOG_DEBUG("host %zu: %s at %.17g", t->resource, value != 0 ? "up" : "down", eng_now());
    bool was_up = net_host_is_up(t->resource);
    if (value == 0 && was_up && avail.host_down)
      avail.host_down(t->resource);
    net_host_set_up(t->resource, value != 0);
  }
}

static bool anything_running(void)
{
  return !eng_idle() || kworld.cpu.model.running > 0 || kworld.net.model.running > 0;
}

static void arm(avail_track *t);

static void fire(void *arg)
{
  avail_track *t = arg;
  apply(t, t->prof->value[t->next]);
  t->next++;
  if (t->next == t->prof->n) {
    if (t->prof->period <= 0)
      return; /* a profile that does not loop ends with its last event */
    t->next = 0;
    t->cycle_start += t->prof->period;
  }
  if (anything_running())
    arm(t);
}

static bool activity_under_way(void)
{
  return kworld.cpu.model.running > 0 || kworld.net.model.running > 0;
}

static void arm(avail_track *t)
{
  eng_timer_set_daemon(eng_timer_set(t->cycle_start + t->prof->date[t->next], fire, t),
                       activity_under_way);
}

/* Values are checked here, where their meaning is known: a speed scale >= 0, a bandwidth
 * > 0 (the link model divides by it), a state >= 0 (0: off, else on, as SimGrid reads it). */
static int check_values(const plat_profile *pr, avail_kind kind, const char *owner, char *err,
                        size_t errlen)
{
  for (size_t i = 0; i < pr->n; i++) {
    double v = pr->value[i];
    if (kind == AVAIL_BANDWIDTH ? !(v > 0) : !(v >= 0)) {
      snprintf(err, errlen, "%s: profile %s: value %g at date %g must be %s", owner, pr->name, v,
               pr->date[i],
               kind == AVAIL_SPEED       ? ">= 0 (a fraction of the peak speed)"
               : kind == AVAIL_BANDWIDTH ? "> 0 (a bandwidth in bytes/s)"
               : kind == AVAIL_LATENCY   ? ">= 0 (a latency in seconds)"
                                         : ">= 0 (0: off, else on)");
      return -1;
    }
  }
  return 0;
}

static int add(avail_kind kind, size_t resource, const plat_profile *pr, const char *owner,
               char *err, size_t errlen)
{
  if (!pr || pr->n == 0)
    return 0;
  if (check_values(pr, kind, owner, err, errlen) != 0)
    return -1;
  avail.tracks = xrealloc(avail.tracks, (avail.ntracks + 1) * sizeof *avail.tracks);
  avail.tracks[avail.ntracks++] = (avail_track){.kind = kind, .resource = resource, .prof = pr};
  return 0;
}

int avail_start(const plat_platform *p, const route_table *rt, char *err, size_t errlen)
{
  avail_stop();
  for (size_t i = 0; i < p->nhosts; i++) {
    const plat_host *h = p->hosts[i];
    if (!h->speed_profile && !h->state_profile)
      continue;
    long idx = route_host_by_name(rt, h->id);
    ASSERTF(idx >= 0, "host '%s' of the platform has no index", h->id);
    char owner[300];
    snprintf(owner, sizeof owner, "host '%s'", h->id);
    if (add(AVAIL_SPEED, (size_t)idx, h->speed_profile, owner, err, errlen) != 0 ||
        add(AVAIL_HOST_STATE, (size_t)idx, h->state_profile, owner, err, errlen) != 0)
      return -1;
  }
  for (size_t i = 0; i < p->nlinks; i++) {
    const plat_link *l = p->links[i];
    if (!l->bandwidth_profile && !l->latency_profile && !l->state_profile)
      continue;
    char owner[300];
    snprintf(owner, sizeof owner, "link '%s'", l->id);
    /* a SPLITDUPLEX link is two links, L_UP and L_DOWN: the profile drives both */
    const char *suffix[] = {"", "_UP", "_DOWN"};
    bool found = false;
    for (int s = 0; s < 3; s++) {
      char name[300];
      snprintf(name, sizeof name, "%s%s", l->id, suffix[s]);
      long id = route_link_by_name(rt, name);
      if (id < 0)
        continue;
      found = true;
      if (add(AVAIL_BANDWIDTH, (size_t)id, l->bandwidth_profile, owner, err, errlen) != 0 ||
          add(AVAIL_LATENCY, (size_t)id, l->latency_profile, owner, err, errlen) != 0 ||
          add(AVAIL_LINK_STATE, (size_t)id, l->state_profile, owner, err, errlen) != 0)
        return -1;
    }
    ASSERTF(found, "link '%s' of the platform has no id", l->id);
  }
  /* events at date 0 apply before anything runs; the others are timers */
  for (size_t i = 0; i < avail.ntracks; i++) {
    avail_track *t = &avail.tracks[i];
    while (t->next < t->prof->n && t->prof->date[t->next] <= 0)
      apply(t, t->prof->value[t->next++]);
    if (t->next == t->prof->n) {
      if (t->prof->period <= 0)
        continue;
      t->next = 0;
      t->cycle_start = t->prof->period;
    }
    arm(t);
  }
  if (avail.ntracks)
    LOG_VERB("%zu resource(s) follow an availability profile", avail.ntracks);
  return 0;
}

void avail_stop(void)
{
  free(avail.tracks);
  avail.tracks = NULL;
  avail.ntracks = 0;
}
