/* Discrete-event engine; the loop is described in engine.h.
 *
 * Who runs when (S = ctx_switch):
 *
 *   maestro --S--> A ... A blocks --S--> B ... B ends --S--> maestro   (run queue empty)
 *
 * The maestro only enters the picture at the start and at the end of a scheduling round:
 * an actor that stops running hands control to the next runnable actor itself
 * (switch_away), which is why one round costs one switch per actor instead of two. */
#include "kernel/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/context.h"
#include "kernel/lmm.h"
#include "kernel/world.h"
#include "src/cfg.h"
#include "src/heap.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_CATEGORY(kernel, "the simulation kernel");
LOG_NEW_SUBCATEGORY(engine, kernel, "discrete-event engine: clock, actors, timers");
LOG_DEFAULT_CATEGORY(engine);

typedef enum { A_RUNNABLE, A_RUNNING, A_BLOCKED, A_DEAD } actor_state;

struct eng_timer {
  heap_node hnode;
  eng_timer_fn cb;
  void *arg;
  bool daemon;   /* eng_timer_set_daemon */
  bool embedded; /* part of its owner's state (a sleep's, on the actor's stack): not freed */
};

/* An actor's eng_sleep_repeat: the current sleep's timer (in the actor rather than on its
 * stack: the timer heap's sifts write into the nodes, and the actors sit close together
 * while the stacks are pages apart), the length of each sleep, the sleeps not started yet. */
struct eng_repeat {
  eng_timer timer;
  double duration;
  unsigned long left;
  list_node lane_link; /* in timer_lane when its timer is there rather than in the heap */
};

/* The timers of repeated sleeps in (date, creation) order, beside the heap. Ghost turns come
 * in date order and every sleep of a polling loop lasts smpi/wtime, so these timers are
 * created in date order: appending keeps the list sorted, and taking the earliest of its head
 * and the heap's top costs no sift (a heap pop, with dozens of pollers at distinct dates, was
 * the largest cost of a ghost turn: an unpredictable branch per level). A timer that would
 * not go last goes to the heap. Creation order is the heap's sequence counter, shared. */
static struct timer_lane {
  list_node fifo;
  size_t n;
} timer_lane;

struct eng_actor {
  ctx *context;
  char *name;
  unsigned long pid;
  eng_actor_fn fn;
  void *arg;
  void *data;
  actor_state state;
  list_node
      alive_link; /* kworld.engine.alive, creation order; then kworld.engine.dead once ended */
  list_node runq_link;
  /* an address in its frames when it last switched away (switch_away), beside runq_link:
   * what next_context prefetches when it is next but one in the run queue */
  const void *frames;
  eng_describe_fn describe;
  void *describe_data;
  void (*on_kill)(eng_actor *a, void *data);
  void *on_kill_data;
  struct eng_repeat repeat;
  bool ghost; /* in the run queue for a turn of its repeated sleep (run_ghosts) */
};

/* Daemon timers pending, and what tells whether they may still matter. */
static struct eng_daemon_timers {
  size_t pending;
  bool (*matters)(void);
} daemons;

void eng_timer_set_daemon(eng_timer *t, bool (*matters)(void))
{
  if (!t->daemon)
    daemons.pending++;
  t->daemon = true;
  daemons.matters = matters;
}

void eng_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_DOUBLE("precision/timing", 1e-9,
                     "Precision of simulated dates, in seconds: events closer than this are "
                     "simultaneous"),
      CFG_KEY_DOUBLE("precision/work-amount", 1e-5,
                     "Precision of work amounts and max-min shares (relative epsilon of the "
                     "solver)"),
      CFG_KEY_BOOL("contexts/direct-switch", true,
                   "An actor that stops running hands control straight to the next runnable "
                   "actor (no: always through the maestro; for measurements)"),
      CFG_KEY_BOOL("contexts/inline-steps", true,
                   "The last runnable actor of a round moves the clock to the next event "
                   "itself and runs on when that wakes only it (no: always through the "
                   "maestro; same simulated times, for measurements)"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  cfg_alias("surf/precision", "precision/timing");
  cfg_alias("maxmin/precision", "precision/work-amount");
  ctx_declare_config();
  lmm_declare_config();
}

static double now_hook(void) { return kworld.engine.now; }

int eng_init(char *err, size_t errlen)
{
  ASSERTF(!kworld.engine.initialized, "eng_init called twice without eng_shutdown");
  eng_declare_config();
  if (ctx_factory_init(NULL, 0, err, errlen) != 0)
    return -1;
  memset(&kworld.engine, 0, sizeof kworld.engine);
  memset(&daemons, 0, sizeof daemons);
  kworld.engine.prec_timing = cfg_get_double("precision/timing");
  kworld.engine.prec_work = cfg_get_double("precision/work-amount");
  kworld.engine.direct_switch = cfg_get_bool("contexts/direct-switch");
  kworld.engine.inline_steps = cfg_get_bool("contexts/inline-steps");
  list_init(&kworld.engine.alive);
  list_init(&kworld.engine.dead);
  list_init(&kworld.engine.runq);
  list_init(&kworld.engine.models);
  heap_init(&kworld.engine.timers);
  list_init(&timer_lane.fifo);
  timer_lane.n = 0;
  kworld.engine.next_pid = 1;
  kworld.engine.initialized = true;
  log_set_clock(now_hook);
  return 0;
}

bool eng_initialized(void) { return kworld.engine.initialized; }
double eng_now(void) { return kworld.engine.now; }
double eng_timing_precision(void) { return kworld.engine.prec_timing; }
double eng_work_precision(void) { return kworld.engine.prec_work; }
eng_actor *eng_self(void) { return kworld.engine.self; }
const char *eng_actor_name(const eng_actor *a) { return a->name; }
unsigned long eng_actor_pid(const eng_actor *a) { return a->pid; }
void *eng_actor_data(const eng_actor *a) { return a->data; }
void eng_actor_set_data(eng_actor *a, void *data) { a->data = data; }
bool eng_actor_is_blocked(const eng_actor *a) { return a->state == A_BLOCKED; }
size_t eng_actor_count(void) { return kworld.engine.alive_count; }
void eng_get_stats(eng_stats *out) { *out = kworld.engine.stats; }
void eng_on_actor_end(void (*hook)(eng_actor *a)) { kworld.engine.on_end = hook; }
void eng_on_switch(void (*hook)(eng_actor *to)) { kworld.engine.on_switch = hook; }

void eng_model_register(eng_model *m)
{
  ASSERT(kworld.engine.initialized);
  list_push_back(&kworld.engine.models, &m->link);
}

void eng_model_register_first(eng_model *m)
{
  ASSERT(kworld.engine.initialized);
  list_push_front(&kworld.engine.models, &m->link);
}

void eng_model_unregister(eng_model *m)
{
  if (list_linked(&m->link))
    list_remove(&m->link);
}

static bool run_ghosts(double *next);

/* Pops the next runnable actor and makes it the running one; the maestro when none. */
static ctx *next_context(void)
{
  run_ghosts(NULL);
  list_node *n = list_pop_front(&kworld.engine.runq);
  if (!n) {
    kworld.engine.self = NULL;
    if (kworld.engine.on_switch)
      kworld.engine.on_switch(NULL);
    return ctx_maestro();
  }
  eng_actor *a = list_entry(n, eng_actor, runq_link);
  ASSERT(a->state == A_RUNNABLE);
  /* the actor after a resumes when a stops: load its frames while a runs (a whole round of
   * blocked ranks resumes one after the other, each from frames long out of the caches).
   * The hint sits beside the run queue's link, and the line of the actor after that one is
   * loaded for the next call: no miss in series here. */
  list_node *n1 = kworld.engine.runq.next;
  if (n1 != &kworld.engine.runq) {
    const eng_actor *b = list_entry(n1, eng_actor, runq_link);
    if (b->frames)
      ctx_prefetch_frames(b->frames);
    __builtin_prefetch(n1->next);
  }
  a->state = A_RUNNING;
  kworld.engine.self = a;
  kworld.engine.stats.actor_switches++;
  if (kworld.engine.on_switch)
    kworld.engine.on_switch(a);
  return a->context;
}

/* Where a stopping actor hands control: the next runnable actor, or the maestro. */
static ctx *handoff_context(void)
{
  if (kworld.engine.direct_switch)
    return next_context();
  kworld.engine.self = NULL;
  if (kworld.engine.on_switch)
    kworld.engine.on_switch(NULL);
  return ctx_maestro();
}

/* The running actor stops running (it already put itself where it belongs). */
static void switch_away(eng_actor *self)
{
  self->frames = __builtin_frame_address(0);
  ctx *to = handoff_context();
  ctx_switch(self->context, to);
  /* resumed: whoever switched to us set kworld.engine.self */
  ASSERT(kworld.engine.self == self && self->state == A_RUNNING);
}

static void empty_graveyard(void);

static void make_dead(eng_actor *a)
{
  a->state = A_DEAD;
  list_remove(&a->alive_link);
  list_push_back(&kworld.engine.dead, &a->alive_link);
  kworld.engine.alive_count--;
}

static void actor_entry(void *arg)
{
  eng_actor *a = arg;
  a->fn(a->arg);
  LOG_DEBUG("actor '%s' ends", a->name);
  make_dead(a);
  /* returning from the context function goes wherever ctx_set_next says */
  ctx_set_next(a->context, handoff_context());
}

eng_actor *eng_actor_create(const char *name, eng_actor_fn fn, void *arg)
{
  ASSERT(kworld.engine.initialized);
  empty_graveyard(); /* their stacks can serve the new actor */
  eng_actor *a = xcalloc(1, sizeof *a);
  a->name = xstrdup(name);
  a->pid = kworld.engine.next_pid++;
  a->fn = fn;
  a->arg = arg;
  a->context = ctx_create(actor_entry, a, a->name);
  a->state = A_RUNNABLE;
  list_push_back(&kworld.engine.alive, &a->alive_link);
  list_push_back(&kworld.engine.runq, &a->runq_link);
  kworld.engine.alive_count++;
  return a;
}

void eng_yield(void)
{
  eng_actor *self = kworld.engine.self;
  ASSERTF(self, "eng_yield called from the maestro");
  self->state = A_RUNNABLE;
  list_push_back(&kworld.engine.runq, &self->runq_link);
  switch_away(self);
}

/* Inline steps. When the actor that stops running is the last runnable one of its round, the
 * maestro would only compute the next event date, move the clock there and fire what is due,
 * and, when that wakes this actor alone, switch straight back to it. The actor does those
 * same calls itself, in the same order, and goes on without two context switches: a polling
 * loop (MPI_Wtime, a failed MPI_Test or MPI_Iprobe) costs its injected time and no round
 * through the scheduler while no other event comes first. The callbacks run with self NULL
 * and the switch hook told, as in the maestro. Anything else (somebody else woken first, an
 * actor ended, no event at all) goes back to the ordinary path, whose maestro then sees
 * exactly the state it would have seen.
 *
 *   ordinary:  A blocks -S-> maestro: next_event_date, step_to(t) wakes A -S-> A
 *   inline:    A blocks, next_event_date, step_to(t) wakes A, A goes on      (no S)
 *
 * Returns true when self runs on (state RUNNING); false when it must switch away. */
static double next_event_date(void);
static void step_to(double next);

static bool may_step_inline(void)
{
  return kworld.engine.inline_steps && list_empty(&kworld.engine.runq) &&
         list_empty(&kworld.engine.dead);
}

static void leave_for_maestro(void)
{
  kworld.engine.self = NULL;
  if (kworld.engine.on_switch)
    kworld.engine.on_switch(NULL);
}

/* self is first in the run queue: it runs on, as the maestro would have switched to it */
static bool resume_inline(eng_actor *self)
{
  run_ghosts(NULL);
  if (list_empty(&kworld.engine.runq) ||
      list_entry(list_first(&kworld.engine.runq), eng_actor, runq_link) != self)
    return false;
  list_pop_front(&kworld.engine.runq);
  self->state = A_RUNNING;
  kworld.engine.self = self;
  if (kworld.engine.on_switch)
    kworld.engine.on_switch(self);
  return true;
}

/* next: the next event date when the caller has just computed it, NAN otherwise */
static bool block_inline(eng_actor *self, double next)
{
  double after_ghosts = NAN;
  if (run_ghosts(&after_ghosts)) /* their turns came before this actor blocked: theirs now */
    next = after_ghosts;
  if (!may_step_inline())
    return false;
  leave_for_maestro();
  for (;;) {
    if (isnan(next)) {
      next = next_event_date();
      ASSERT(list_empty(&kworld.engine.runq)); /* next_event never wakes anybody */
    }
    if (next == INFINITY)
      break;
    step_to(next);
    kworld.engine.stats.inline_steps++;
    next = NAN;
    run_ghosts(&next);
    if (!list_empty(&kworld.engine.runq) || !list_empty(&kworld.engine.dead))
      break;
  }
  if (self->state == A_DEAD) { /* killed by a callback: never resumed, as in eng_actor_kill */
    ctx_switch(self->context, handoff_context());
    UNREACHABLE();
  }
  /* the maestro reaps ended actors after the round, and this actor is the round */
  return resume_inline(self);
}

static void block(eng_actor *self, eng_describe_fn describe, void *data, double next)
{
  self->state = A_BLOCKED;
  self->describe = describe;
  self->describe_data = data;
  if (!block_inline(self, next))
    switch_away(self);
  self->describe = NULL;
  self->describe_data = NULL;
}

void eng_block(eng_describe_fn describe, void *data)
{
  eng_actor *self = kworld.engine.self;
  ASSERTF(self, "eng_block called from the maestro");
  block(self, describe, data, NAN);
}

void eng_unblock(eng_actor *a)
{
  ASSERTF(a->state == A_BLOCKED, "unblocking actor '%s' which is not blocked (state %d)", a->name,
          (int)a->state);
  a->state = A_RUNNABLE;
  a->on_kill = NULL;
  list_push_back(&kworld.engine.runq, &a->runq_link);
}

void eng_actor_on_kill(eng_actor *a, void (*hook)(eng_actor *a, void *data), void *data)
{
  a->on_kill = hook;
  a->on_kill_data = data;
}

void eng_actor_kill(eng_actor *a)
{
  if (a->state == A_DEAD)
    return;
  LOG_DEBUG("killing actor '%s'", a->name);
  if (a->on_kill) {
    void (*hook)(eng_actor *, void *) = a->on_kill;
    a->on_kill = NULL;
    hook(a, a->on_kill_data);
  }
  if (a->state == A_RUNNABLE)
    list_remove(&a->runq_link);
  bool self = (a == kworld.engine.self);
  make_dead(a);
  if (self) {
    /* never resumed: the maestro destroys the context when it reaps the dead */
    ctx_switch(a->context, handoff_context());
    UNREACHABLE();
  }
}

/* The date of the next event for the running actor about to sleep, alone runnable: the next
 * event date, daemon timers included. next_event_date leaves them out when they are all that
 * is pending (a deadlock then), but the sleep's own timer keeps the simulation going, and with
 * it pushed (the path through the maestro) they count: so they do here, and a sleep stepped
 * inline never passes a daemon timer's date without it firing there. */
static eng_timer *timers_first(void);

static double next_date_for_sleep(void)
{
  double next = next_event_date();
  ASSERT(list_empty(&kworld.engine.runq)); /* next_event never wakes anybody */
  eng_timer *t = timers_first();
  if (t && t->hnode.key < next)
    next = t->hnode.key;
  return next;
}

/* Sleeping */
static void sleep_wake(void *arg) { eng_unblock(arg); }

struct sleep_state {
  eng_timer timer; /* embedded: a sleep costs no allocation */
  double until;
};

static void timer_push(eng_timer *t, double date, eng_timer_fn cb, void *arg)
{
  ASSERTF(date >= kworld.engine.now && !isnan(date), "timer date %.17g is before now (%.17g)",
          date, kworld.engine.now);
  heap_node_init(&t->hnode);
  t->cb = cb;
  t->arg = arg;
  t->daemon = false;
  heap_push(&kworld.engine.timers, &t->hnode, date);
}

static size_t timers_pending(void) { return heap_size(&kworld.engine.timers) + timer_lane.n; }

/* The earliest timer, of the heap or the lane, by (date, creation); NULL when none. */
static eng_timer *timers_first(void)
{
  heap_node *h = heap_top(&kworld.engine.timers);
  list_node *l = list_first(&timer_lane.fifo);
  if (!l)
    return h ? container_of(h, eng_timer, hnode) : NULL;
  eng_timer *lt = &container_of(l, struct eng_repeat, lane_link)->timer;
  if (!h || lt->hnode.key < h->key || (lt->hnode.key == h->key && lt->hnode.seq < h->seq))
    return lt;
  return container_of(h, eng_timer, hnode);
}

static void timers_remove(eng_timer *t)
{
  if (heap_contains(&t->hnode)) {
    heap_remove(&kworld.engine.timers, &t->hnode);
    return;
  }
  list_remove(&container_of(t, struct eng_repeat, timer)->lane_link);
  timer_lane.n--;
}

static void sleep_on_kill(eng_actor *a, void *data)
{
  struct sleep_state *s = data;
  eng_timer_cancel(&s->timer);
}

static void sleep_describe(eng_actor *a, void *data, char *buf, size_t len)
{
  struct sleep_state *s = data;
  snprintf(buf, len, "sleeping until %.9g", s->until);
}

void eng_sleep(double duration)
{
  eng_actor *self = kworld.engine.self;
  ASSERTF(self, "eng_sleep called from the maestro");
  ASSERTF(duration >= 0 && isfinite(duration), "bad sleep duration %g", duration);
  struct sleep_state s = {.until = kworld.engine.now + duration};
  /* Nothing happens before the wake-up date (ties included: the timer would fire after
   * others of its date): the clock moves there with no timer, as block_inline would. */
  double next = NAN;
  if (may_step_inline()) {
    next = next_date_for_sleep();
    if (next > s.until + kworld.engine.prec_timing) {
      /* nothing falls due there (models fire what is within the precision): no callback
       * runs, so nothing to tell the switch hook either */
      step_to(s.until);
      kworld.engine.stats.inline_steps++;
      return;
    }
    if (s.until < next) {
      leave_for_maestro();
      self->state = A_BLOCKED; /* what a callback killing it expects; no timer to cancel */
      step_to(s.until);
      kworld.engine.stats.inline_steps++;
      if (self->state == A_DEAD) {
        ctx_switch(self->context, handoff_context());
        UNREACHABLE();
      }
      /* a model's event within the timing precision after s.until may have woken others:
       * they run first, then this actor, as its timer would have queued it after them */
      self->state = A_RUNNABLE;
      list_push_back(&kworld.engine.runq, &self->runq_link);
      if (!resume_inline(self))
        switch_away(self);
      return;
    }
    /* an event comes first, at next: the timer does not change that date */
  }
  s.timer.embedded = true;
  timer_push(&s.timer, s.until, sleep_wake, self);
  eng_actor_on_kill(self, sleep_on_kill, &s);
  block(self, sleep_describe, &s, next);
}

/* Repeated sleeps (eng_sleep_repeat). A rank polling its clock runs ahead of the simulated
 * date (smpi/emulation/libc.c), then sleeps all its polls' costs in one call; the other ranks
 * must see the same dates, the same events and the same order at equal dates as if it had
 * slept each time. So each sleep still has its turn, at the place in the round where the
 * actor would have slept: there the engine starts the next sleep itself (repeat_turn: what
 * eng_sleep would do at that point) and the actor stays blocked; the last sleep's end wakes
 * it. A "ghost" is an actor in the run queue for such a turn: whoever takes the next actor
 * from the queue first gives the ghosts ahead of it their turns (run_ghosts).
 *
 *   4 ranks polling at the same dates, each sleep d:
 *     eng_sleep:         round t: A B C D (4 switches), round t+d: A B C D, ...
 *     eng_sleep_repeat:  round t: A (runs all its polls, sleeps n times) B C D (likewise);
 *                        round t+d: 4 ghost turns (4 timer pushes, no switch), ...
 *
 * When a ghost is the last runnable actor of its round and no other event comes within its
 * next sleep, eng_sleep would step the clock to the sleep's end itself; nothing else can
 * happen meanwhile, so the next event date stays what it was and the ghost goes through its
 * sleeps in a loop until one ends within the timing precision of that date. */
static void repeat_wake(void *arg)
{
  eng_actor *a = arg;
  ASSERT(a->state == A_BLOCKED);
  a->state = A_RUNNABLE;
  if (a->repeat.left > 0)
    a->ghost = true;
  else
    a->on_kill = NULL; /* the last sleep is over: as eng_unblock */
  list_push_back(&kworld.engine.runq, &a->runq_link);
}

/* a's turn: start its next sleep as eng_sleep would (a is out of the run queue). Returns the
 * next event date when it had to compute it and then only added the sleep's timer (nothing
 * else changed since: the caller need not ask the models again), NAN otherwise. */
static double repeat_turn(eng_actor *a)
{
  struct eng_repeat *r = &a->repeat;
  ASSERT(r->left > 0);
  a->state = A_BLOCKED;
  double next = NAN;
  if (may_step_inline()) {
    next = next_date_for_sleep();
    while (r->left > 0) {
      double until = kworld.engine.now + r->duration;
      if (!(next > until + kworld.engine.prec_timing))
        break;
      /* step_to(until) with nothing due (eng_sleep's first inline case) */
      if (until > kworld.engine.now)
        kworld.engine.now = until;
      kworld.engine.stats.events++;
      kworld.engine.stats.inline_steps++;
      r->left--;
    }
    if (r->left == 0) { /* the last sleep is over: the actor runs next */
      a->state = A_RUNNABLE;
      a->on_kill = NULL;
      list_push_back(&kworld.engine.runq, &a->runq_link);
      return NAN;
    }
  }
  r->left--;
  double date = kworld.engine.now + r->duration;
  if (date < next) /* what next_event_date gives once the timer is in: daemons count too */
    next = date;
  list_node *last = list_last(&timer_lane.fifo);
  if (last && date < container_of(last, struct eng_repeat, lane_link)->timer.hnode.key) {
    timer_push(&r->timer, date, repeat_wake, a);
    return next;
  }
  r->timer.cb = repeat_wake;
  r->timer.arg = a;
  r->timer.daemon = false;
  r->timer.hnode.key = date;
  r->timer.hnode.seq = kworld.engine.timers.next_seq++;
  list_push_back(&timer_lane.fifo, &r->lane_link);
  timer_lane.n++;
  return next;
}

/* Gives the ghosts at the head of the run queue their turns; true if there were any. *next
 * (if not NULL) becomes what the last turn returned: the next event date, or NAN. */
static bool run_ghosts(double *next)
{
  bool ran = false;
  list_node *n;
  while ((n = list_first(&kworld.engine.runq))) {
    eng_actor *a = list_entry(n, eng_actor, runq_link);
    if (!a->ghost)
      break;
    list_remove(n);
    a->ghost = false;
    double nx = repeat_turn(a);
    if (next)
      *next = nx;
    ran = true;
  }
  return ran;
}

static void repeat_on_kill(eng_actor *a, void *data)
{
  struct eng_repeat *r = data;
  if (heap_contains(&r->timer.hnode) || list_linked(&r->lane_link))
    eng_timer_cancel(&r->timer);
  a->ghost = false; /* eng_actor_kill takes it out of the run queue */
}

static void repeat_describe(eng_actor *a, void *data, char *buf, size_t len)
{
  struct eng_repeat *r = data;
  snprintf(buf, len, "sleeping %.9g s, %lu more time%s", r->duration, r->left,
           r->left == 1 ? "" : "s");
}

void eng_sleep_repeat(double duration, unsigned long n)
{
  eng_actor *self = kworld.engine.self;
  ASSERTF(self, "eng_sleep_repeat called from the maestro");
  ASSERTF(duration >= 0 && isfinite(duration), "bad sleep duration %g", duration);
  if (n <= 1) {
    if (n == 1)
      eng_sleep(duration);
    return;
  }
  struct eng_repeat *r = &self->repeat;
  r->duration = duration;
  r->left = n;
  r->timer.embedded = true;
  heap_node_init(&r->timer.hnode);
  list_init(&r->lane_link);
  eng_actor_on_kill(self, repeat_on_kill, r);
  double next = repeat_turn(self);
  if (self->state == A_RUNNABLE) { /* every sleep stepped inline: it was alone */
    list_remove(&self->runq_link);
    self->state = A_RUNNING;
  } else {
    block(self, repeat_describe, r, next);
  }
}

/* Timers */
eng_timer *eng_timer_set(double date, eng_timer_fn cb, void *arg)
{
  eng_timer *t = xmalloc(sizeof *t);
  t->embedded = false;
  timer_push(t, date, cb, arg);
  return t;
}

void eng_timer_cancel(eng_timer *t)
{
  timers_remove(t);
  if (t->daemon)
    daemons.pending--;
  if (!t->embedded)
    free(t);
}

/* Destroys the contexts that reap_dead set aside. */
static void empty_graveyard(void)
{
  while (kworld.engine.ngrave)
    ctx_destroy(kworld.engine.graveyard[--kworld.engine.ngrave]);
}

/* Frees the ended actors. Their contexts are set aside rather than destroyed, until the
 * next actor is created or the engine shuts down: destroying a stack costs a munmap
 * (unmapping its touched pages and page tables, splitting nothing but still ~8 us), and
 * when a run's ranks all end, the process is about to exit and the kernel tears the whole
 * address space down in one go, cheaper than 4 096 separate calls (about 25 ms of a 4 096-rank
 * run). Memory stays bounded: what is set aside was alive when the last actor was created,
 * so it never exceeds the peak of live actors; a program that keeps creating actors
 * (nonblocking collectives' helpers) reuses the stacks as before. */
static void reap_dead(void)
{
  list_node *n;
  while ((n = list_pop_front(&kworld.engine.dead))) {
    eng_actor *a = list_entry(n, eng_actor, alive_link);
    if (kworld.engine.on_end)
      kworld.engine.on_end(a);
    XGROW(kworld.engine.graveyard, kworld.engine.grave_cap, kworld.engine.ngrave + 1);
    kworld.engine.graveyard[kworld.engine.ngrave++] = a->context;
    free(a->name);
    free(a);
  }
}

static void report_deadlock(void)
{
  fprintf(stderr,
          "smpi: deadlock at simulated time %.9f s: the %zu remaining actor%s blocked and no "
          "event is pending:\n",
          kworld.engine.now, kworld.engine.alive_count,
          kworld.engine.alive_count == 1 ? " is" : "s are all");
  list_foreach (n, &kworld.engine.alive) {
    eng_actor *a = list_entry(n, eng_actor, alive_link);
    char what[512] = "blocked";
    if (a->describe)
      a->describe(a, a->describe_data, what, sizeof what);
    fprintf(stderr, "  %s (pid %lu): %s\n", a->name, a->pid, what);
  }
  fflush(stderr);
}

bool eng_idle(void) { return list_empty(&kworld.engine.runq) && timers_pending() == 0; }

/* The date of the next event: the earliest of the models' and the timers'; INFINITY when
 * there is none (or only daemon timers that cannot matter). */
static double next_event_date(void)
{
  double next = INFINITY;
  list_foreach (n, &kworld.engine.models) {
    eng_model *m = list_entry(n, eng_model, link);
    double d = m->ops->next_event(m, kworld.engine.now);
    if (d >= 0 && d < next)
      next = d;
  }
  /* only daemon timers left, nobody runnable and nothing under way that they could change:
   * a deadlock now, not at their next date */
  bool only_daemons = next == INFINITY && list_empty(&kworld.engine.runq) &&
                      daemons.pending > 0 && timers_pending() == daemons.pending &&
                      !(daemons.matters && daemons.matters());
  eng_timer *t = only_daemons ? NULL : timers_first();
  if (t && t->hnode.key < next)
    next = t->hnode.key;
  return next;
}

/* Moves the clock to `next` and fires what is due there: the models' events, then the
 * timers (so an actor woken by a model runs before one woken by a timer of the same date). */
static void step_to(double next)
{
  ASSERTF(next >= kworld.engine.now - kworld.engine.prec_timing,
          "next event %.17g is in the past (now %.17g)", next, kworld.engine.now);
  if (next > kworld.engine.now)
    kworld.engine.now = next;
  kworld.engine.stats.events++;
  LOG_DEBUG("clock -> %.17g", kworld.engine.now);
  list_foreach (n, &kworld.engine.models) {
    eng_model *m = list_entry(n, eng_model, link);
    m->ops->advance(m, kworld.engine.now);
  }
  eng_timer *t;
  while ((t = timers_first()) && t->hnode.key <= kworld.engine.now) {
    timers_remove(t);
    if (t->daemon)
      daemons.pending--;
    bool embedded = t->embedded; /* the callback may end its owner */
    t->cb(t->arg);
    if (!embedded)
      free(t);
  }
}

int eng_run(void)
{
  ASSERT(kworld.engine.initialized && kworld.engine.self == NULL);
  for (;;) {
    if (!list_empty(&kworld.engine.runq))
      kworld.engine.stats.scheduling_rounds++;
    /* with direct switching, one switch runs the whole round */
    for (;;) {
      run_ghosts(NULL);
      if (list_empty(&kworld.engine.runq))
        break;
      ctx_switch(ctx_maestro(), next_context());
      ASSERT(kworld.engine.self == NULL);
    }
    if (!list_empty(&kworld.engine.dead))
      reap_dead();
    if (kworld.engine.alive_count == 0) {
      LOG_VERB("%lu events (%lu of them inline steps), %lu scheduling rounds, %lu actor "
               "switches",
               kworld.engine.stats.events, kworld.engine.stats.inline_steps,
               kworld.engine.stats.scheduling_rounds, kworld.engine.stats.actor_switches);
      return ENG_OK;
    }
    double next = next_event_date();
    if (next == INFINITY) {
      if (!list_empty(&kworld.engine.runq)) /* a model callback woke somebody */
        continue;
      report_deadlock();
      return ENG_DEADLOCK;
    }
    step_to(next);
  }
}

void eng_shutdown(void)
{
  if (!kworld.engine.initialized)
    return;
  ASSERTF(kworld.engine.self == NULL, "eng_shutdown called from an actor");
  /* before the stacks go: the timers of sleeping actors live there */
  list_init(&timer_lane.fifo); /* repeated sleeps' timers: in their actors, freed below */
  timer_lane.n = 0;
  heap_node *h;
  while ((h = heap_pop(&kworld.engine.timers))) {
    eng_timer *t = container_of(h, eng_timer, hnode);
    if (!t->embedded)
      free(t);
  }
  heap_destroy(&kworld.engine.timers);
  /* actors left alive (deadlock, early stop) are discarded without running their hooks */
  list_node *n;
  while ((n = list_pop_front(&kworld.engine.alive))) {
    eng_actor *a = list_entry(n, eng_actor, alive_link);
    if (list_linked(&a->runq_link))
      list_remove(&a->runq_link);
    a->state = A_DEAD;
    list_push_back(&kworld.engine.dead, &a->alive_link);
  }
  kworld.engine.alive_count = 0;
  reap_dead();
  empty_graveyard();
  free(kworld.engine.graveyard);
  kworld.engine.graveyard = NULL;
  kworld.engine.grave_cap = 0;
  while ((n = list_pop_front(&kworld.engine.models)))
    ;
  log_set_clock(NULL);
  ctx_factory_shutdown();
  kworld.engine.initialized = false;
}
