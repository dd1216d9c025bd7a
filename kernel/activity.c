/* Lazily updated max-min activities; see activity.h for the update rule. */
#include "kernel/activity.h"
#include "kernel/act_class.h"
#include "kernel/act_exact.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(activity, kernel, "max-min activities (executions, flows)");
LOG_DEFAULT_CATEGORY(activity);

/* Freed actions are kept for reuse (every message and CPU burst creates one): a malloc and
 * a free less per activity. Capped so that a burst of a million concurrent flows does not
 * pin its memory for the rest of the run. */
#define ACT_FREE_MAX 4096
static act_action *act_free_list;
static size_t act_free_count;

/* bulk re-keying from this many changed actions, when they are at least 1/ACT_BULK_SHARE
 * of the heap */
#define ACT_BULK_MIN 64
#define ACT_BULK_SHARE 4

static void action_end(act_action *a, act_state state, double now)
{
  act_model *m = a->model;
  if (a->xmember)
    act_exact_leave(m, a);
  if (heap_contains(&a->hnode))
    heap_remove(&m->events, &a->hnode);
  if (a->var) {
    lmm_variable_free(m->sys, a->var);
    a->var = NULL;
    m->dirty = true;
  }
  if (a->cx)
    act_class_forget(a);
  a->state = state;
  a->remaining = state == ACT_DONE ? 0 : act_action_remaining(a);
  m->running--;
  if (m->on_end)
    m->on_end(a);
  if (a->on_finish)
    a->on_finish(a, a->data);
}

/* Bring remaining up to date at `now` with the speed that held since last_update. */
void action_catch_up(act_action *a, double now)
{
  if (!a->in_latency && a->speed > 0 && now > a->last_update) {
    a->remaining -= a->speed * (now - a->last_update);
    /* below this, what is left is rounding noise (the same absolute epsilon as SimGrid) */
    if (a->remaining < eng_work_precision() * eng_timing_precision())
      a->remaining = 0;
  }
  a->last_update = now;
}

static void action_rekey(act_action *a, double now)
{
  act_model *m = a->model;
  if (a->in_latency) {
    heap_set(&m->events, &a->hnode, a->latency_end);
  } else if (a->remaining <= 0) {
    heap_set(&m->events, &a->hnode, now);
  } else if (a->speed > 0) {
    heap_set(&m->events, &a->hnode, now + a->remaining / a->speed);
  } else if (heap_contains(&a->hnode)) { /* starved: no date until its share changes */
    if (!m->events.bulk) {
      heap_remove(&m->events, &a->hnode);
    } else { /* no removal in a bulk re-keying: once the order is back (model_update) */
      heap_update(&m->events, &a->hnode, INFINITY);
      XGROW(m->starved, m->cap_starved, m->n_starved + 1);
      m->starved[m->n_starved++] = a;
    }
  }
}

/* Thousands of actions change after a full pass, scattered: fetch the variables (16
 * ahead), then their actions (8 ahead; two lines: the heap node and in_latency). */
static inline void prefetch_modified(const act_model *m, size_t i, size_t n)
{
  if (i + 16 < n)
    __builtin_prefetch(lmm_modified_get(m->sys, i + 16));
  if (i + 8 < n) {
    const act_action *ahead = lmm_variable_id(lmm_modified_get(m->sys, i + 8));
    __builtin_prefetch(ahead, 1);
    __builtin_prefetch((const char *)ahead + 64, 1);
  }
}

/* With classes (maxmin/class-sharing:yes), a class may have formed right after the solve
 * (its members caught up with the speed that held until now, then left out of the
 * re-keying). Forming one takes its members out of the solver without marking anything;
 * should it change the system all the same (a class found broken as it forms), this
 * settles it at once. */
static __attribute__((noinline)) void model_update_classes(act_model *m, double now)
{
  if (!m->dirty)
    return;
  m->dirty = false;
  act_class_before_solve(m, now);
  lmm_solve(m->sys);
  size_t n = lmm_modified_count(m->sys);
  for (size_t i = 0; i < n; i++) {
    prefetch_modified(m, i, n);
    act_action *a = lmm_variable_id(lmm_modified_get(m->sys, i));
    if (a->cls)
      continue;
    action_catch_up(a, now);
    a->speed = a->in_latency ? 0 : lmm_variable_value(a->var) * a->rate_factor;
    action_rekey(a, now);
  }
}

/* Solves the system and brings the actions whose share changed up to date. */
static __attribute__((noinline)) void model_update(act_model *m, double now)
{
  m->dirty = false;
  if (m->classes)
    act_class_before_solve(m, now);
  lmm_solve(m->sys);
  if (m->classes)
    act_class_after_solve(m, now);
  if (m->exact)
    act_exact_after_solve(m, now);
  size_t n = lmm_modified_count(m->sys);
  bool members = false;
  /* a full solve re-dates a good part of the heap: one O(n) reordering instead of a sift
   * per action (src/heap.h, bulk re-keying); the same pop order either way */
  bool bulk = n >= m->bulk_min && n * ACT_BULK_SHARE >= heap_size(&m->events);
  if (bulk)
    heap_bulk_begin(&m->events);
  for (size_t i = 0; i < n; i++) {
    prefetch_modified(m, i, n);
    act_action *a = lmm_variable_id(lmm_modified_get(m->sys, i));
    if (a->cls) /* its variable is disabled: the class keeps its rate */
      continue;
    if (a->xmember) { /* the exact class's: after the loop (a member's update pushes nothing) */
      members = true;
      continue;
    }
    action_catch_up(a, now);
    a->speed = a->in_latency ? 0 : lmm_variable_value(a->var) * a->rate_factor;
    action_rekey(a, now);
  }
  if (bulk) {
    heap_bulk_end(&m->events);
    for (size_t i = 0; i < m->n_starved; i++)
      heap_remove(&m->events, &m->starved[i]->hnode);
    m->n_starved = 0;
  }
  if (members) {
    size_t k;
    act_action **changed = act_exact_resync(m, now, &k);
    for (size_t i = 0; i < k; i++) {
      act_action *a = changed[i];
      action_catch_up(a, now);
      a->speed = lmm_variable_value(a->var) * a->rate_factor;
      action_rekey(a, now);
    }
    free(changed);
  }
  if (m->exact)
    act_exact_adopt(m, now);
  if (m->classes)
    model_update_classes(m, now);
}

/* The engine asks every model at every event; the common answer (nothing changed, nothing
 * due) stays a few instructions without a frame, the work is out of line. */
static double model_next_event(eng_model *base, double now)
{
  act_model *m = container_of(base, act_model, base);
  /* every change to the system goes through this file (an action created, ended, or leaving
   * its latency phase; the models expand a variable right after creating it): without one,
   * a solve would report nothing modified, and the models that are idle (the CPUs of a run
   * without computation) skip it at every event */
  if (m->dirty)
    model_update(m, now);
  double next = heap_size(&m->events) ? heap_top_key(&m->events) : -1.0;
  if (m->classes) {
    double c = act_class_next_date(m);
    if (c >= 0 && (next < 0 || c < next))
      next = c;
  }
  return next;
}

static __attribute__((noinline)) void model_advance_due(act_model *m, double now)
{
  double eps = eng_timing_precision();
  while (heap_size(&m->events) && heap_top_key(&m->events) <= now + eps) {
    act_action *a = container_of(heap_pop(&m->events), act_action, hnode);
    if (a->in_latency) {
      /* latency over: the flow starts taking its share */
      a->in_latency = false;
      a->last_update = now;
      if (a->remaining > 0) {
        lmm_variable_set_penalty(m->sys, a->var, a->penalty);
        m->dirty = true;
        if (m->classes)
          act_class_fresh(m, a);
        continue;
      }
    }
    LOG_DEBUG("%s action %p of %.17g done at %.17g", m->name, (void *)a, a->total, now);
    action_end(a, ACT_DONE, now);
  }
}

static void model_advance(eng_model *base, double now)
{
  act_model *m = container_of(base, act_model, base);
  if (heap_size(&m->events))
    model_advance_due(m, now);
  if (m->classes) {
    act_action *a;
    while ((a = act_class_pop_due(m, now))) {
      LOG_DEBUG("%s action %p of %.17g done at %.17g (class)", m->name, (void *)a, a->total, now);
      action_end(a, ACT_DONE, now);
    }
  }
}

static const eng_model_ops act_model_ops = {"activity", model_next_event, model_advance};

void act_model_init(act_model *m, const char *name, double precision)
{
  m->base.ops = &act_model_ops;
  list_init(&m->base.link);
  m->sys = lmm_system_new(precision);
  heap_init(&m->events);
  m->name = name;
  m->running = 0;
  m->dirty = true;
  m->bulk_min = ACT_BULK_MIN;
  m->starved = NULL;
  m->n_starved = m->cap_starved = 0;
  eng_model_register(&m->base);
}

void act_model_destroy(act_model *m)
{
  eng_model_unregister(&m->base);
  act_classes_free(m);
  act_exact_free(m);
  heap_destroy(&m->events);
  free(m->starved);
  lmm_system_free(m->sys);
  m->sys = NULL;
}

act_action *act_action_new(act_model *m, double work, double latency, double penalty,
                           double bound, size_t elements_hint, act_finish_fn on_finish,
                           void *data)
{
  ASSERTF(work >= 0 && isfinite(work), "bad amount of work %g", work);
  ASSERTF(latency >= 0 && isfinite(latency), "bad latency %g", latency);
  ASSERTF(penalty > 0, "bad sharing penalty %g", penalty);
  double now = eng_now();
  act_action *a = act_free_list;
  if (a) {
    act_free_list = a->free_next;
    act_free_count--;
    mem_zero(a, sizeof *a);
  } else {
    a = xcalloc(1, sizeof *a);
  }
  heap_node_init(&a->hnode);
  a->model = m;
  a->total = a->remaining = work;
  a->last_update = now;
  a->rate_factor = 1.0;
  a->penalty = penalty;
  a->latency_end = now + latency;
  a->in_latency = latency > 0;
  a->state = ACT_RUNNING;
  a->on_finish = on_finish;
  a->data = data;
  a->tag = 0;
  a->var = lmm_variable_new(m->sys, a, a->in_latency ? 0.0 : penalty, bound, elements_hint);
  m->dirty = true;
  m->running++;
  if (m->classes && !a->in_latency)
    act_class_fresh(m, a); /* expanded by the caller before the next solve */
  /* keyed now so that a zero-work action without latency ends even if lmm gives it no share */
  action_rekey(a, now);
  return a;
}

void act_action_set_rate_factor(act_action *a, double factor)
{
  ASSERT(factor > 0);
  a->rate_factor = factor;
}

double act_action_remaining(const act_action *a)
{
  if (a->state != ACT_RUNNING)
    return a->remaining;
  double now = eng_now();
  if (a->cls)
    return act_class_remaining(a, now);
  if (a->xmember)
    return act_exact_remaining(a, now);
  if (a->in_latency || a->speed <= 0 || now <= a->last_update)
    return a->remaining;
  double r = a->remaining - a->speed * (now - a->last_update);
  return r > 0 ? r : 0;
}

void act_action_cancel(act_action *a, act_state why)
{
  ASSERT(why == ACT_CANCELED || why == ACT_FAILED);
  if (a->state != ACT_RUNNING)
    return;
  if (a->cls)
    act_class_leave(a, eng_now());
  if (a->xmember)
    act_exact_leave(a->model, a);
  action_catch_up(a, eng_now());
  action_end(a, why, eng_now());
}

void act_action_free(act_action *a)
{
  if (a->state == ACT_RUNNING)
    act_action_cancel(a, ACT_CANCELED);
  if (act_free_count < ACT_FREE_MAX) {
    a->free_next = act_free_list;
    act_free_list = a;
    act_free_count++;
  } else {
    free(a);
  }
}

struct waiter {
  eng_actor *actor;
  act_action *action;
};

static void wake_waiter(act_action *a, void *data) { eng_unblock(data); }

static void describe_wait(eng_actor *who, void *data, char *buf, size_t len)
{
  act_action *a = data;
  snprintf(buf, len, "waiting for a %s activity (%.6g of %.6g units left)", a->model->name,
           act_action_remaining(a), a->total);
}

static void wait_on_kill(eng_actor *who, void *data)
{
  act_action *a = data;
  a->on_finish = NULL;
  a->data = NULL;
  /* nobody will use what is left of it: a killed actor's execution stops using its CPU */
  act_action_cancel(a, ACT_CANCELED);
}

act_state act_wait(act_action *a)
{
  if (a->state != ACT_RUNNING)
    return a->state;
  eng_actor *self = eng_self();
  ASSERTF(self, "act_wait called from the maestro");
  ASSERTF(a->on_finish == NULL, "an action can be waited on by one actor only");
  a->on_finish = wake_waiter;
  a->data = self;
  eng_actor_on_kill(self, wait_on_kill, a);
  eng_block(describe_wait, a);
  return a->state;
}

typedef struct use_walk {
  lmm_constraint *c;
  void (*fn)(uint16_t tag, double used, void *arg);
  void *arg;
} use_walk;

static void use_of(lmm_variable *v, void *arg)
{
  use_walk *w = arg;
  const act_action *a = lmm_variable_id(v);
  double value = a && a->cls ? act_class_value(a) : lmm_variable_value(v);
  if (!a || !(value > 0))
    return;
  double weight = 0, coef;
  for (size_t i = 0; i < lmm_variable_element_count(v); i++)
    if (lmm_variable_constraint(v, i, &coef) == w->c)
      weight += coef;
  if (weight > 0)
    w->fn(a->tag, value * a->rate_factor * weight, w->arg);
}

void act_constraint_foreach_use(lmm_constraint *c,
                                void (*fn)(uint16_t tag, double used, void *arg), void *arg)
{
  use_walk w = {c, fn, arg};
  lmm_constraint_foreach_variable(c, use_of, &w);
}
