/* Activities whose progress is shared by max-min: executions on CPUs, flows on links.
 *
 * An act_model owns one lmm system and a heap of the actions' next event dates. An action
 * has an amount of work (flops, bytes), an optional latency phase during which it takes no
 * share (its lmm variable is disabled), and a speed = lmm share x rate_factor (the SMPI
 * network model applies its bandwidth factor after sharing; CPUs use 1).
 *
 * Lazy update: an action's remaining work is only brought up to date when its share
 * changes (lmm reports the modified variables); in between, its completion date in the
 * heap stays valid. So one solve costs the actions whose share changed, not all of them.
 *
 *   remaining(t) = remaining(last_update) - speed * (t - last_update)
 *   date         = last_update + remaining(last_update) / speed
 */
#ifndef SMPI_KERNEL_ACTIVITY_H
#define SMPI_KERNEL_ACTIVITY_H

#include "kernel/engine.h"
#include "kernel/lmm.h"
#include "src/heap.h"
#include "src/list.h"

typedef struct act_model act_model;
typedef struct act_action act_action;

typedef enum { ACT_RUNNING, ACT_DONE, ACT_FAILED, ACT_CANCELED } act_state;

/* Called in the maestro (or in the actor that cancels) when the action ends, in any
 * state. The action is still valid during the call; act_action_free it afterwards. */
typedef void (*act_finish_fn)(act_action *a, void *data);

struct act_model {
  eng_model base;
  lmm_system *sys;
  heap events;
  const char *name;
  size_t running; /* actions in ACT_RUNNING */
  bool dirty;     /* lmm changed since the last solve (else solving would find nothing) */
  /* called first when one of its actions ends (the InfiniBand model's degree counts) */
  void (*on_end)(act_action *a);
  /* kernel/act_class.c's state when maxmin/class-sharing:yes (network only), else NULL */
  struct act_classes *classes;
  /* kernel/act_exact.c's state when maxmin/exact-class:yes (network only), else NULL */
  struct act_exact *exact;
  /* model_update re-dates the heap in bulk from this many changed actions (ACT_BULK_MIN in
   * activity.c; a test sets SIZE_MAX to compare with one sift per action) */
  size_t bulk_min;
  /* actions starved during a bulk re-keying (model_update), removed from the heap after it */
  act_action **starved;
  size_t n_starved, cap_starved;
};

/* 144 bytes, laid out for the in-flight flows of an Alltoall (16.8 M at 4 096 ranks: every 8
 * bytes here are 134 MB) and for model_update, which reads the first two lines of each
 * action whose share changed (issue 27: 232 bytes before, 16 of them holes, 16 of them
 * a start and a finish date nobody read). */
struct act_action {
  heap_node hnode;
  act_model *model;
  lmm_variable *var; /* NULL once ended */
  double remaining;  /* as of last_update */
  double last_update;
  double speed; /* current share * rate_factor */

  double rate_factor;
  double penalty;     /* sharing penalty restored after the latency phase */
  double latency_end; /* date the latency phase ends (<= its creation date if none) */
  /* act_class.c (maxmin/class-sharing:yes): the class whose level sets its rate, else NULL;
   * then its lmm variable is disabled and remaining/last_update are not kept, the class's
   * virtual clock is (see act_class.c) */
  struct act_class *cls;
  act_state state;
  uint16_t tag; /* the owner's label (tracing category; 0 none), not used here */
  bool in_latency;
  /* act_exact.c: a member of the exact class; then remaining, last_update, speed and the heap
   * entry are the class's (brought back when it leaves) */
  bool xmember;
  double total; /* initial work (logs, describe_wait) */

  act_finish_fn on_finish;
  union {
    void *data;            /* on_finish's argument */
    act_action *free_next; /* activity.c's list of freed actions (data is unused there) */
  };
  uint32_t src, dst; /* a flow's hosts (network.c: a host that goes down fails it) */
  /* act_class.c's part (its heap node, weights, fresh list's node), only once the flow was
   * enabled in a model with classes (maxmin/class-sharing:yes), else NULL: 48 bytes less
   * for every other action */
  struct act_cls_part *cx;
};
_Static_assert(sizeof(struct act_action) == 144, "act_action grew: see issue 27");

/* Calls fn(action's tag, resource used, arg) for each action sharing constraint c: used =
 * its lmm value x rate factor x its weight on c (what a trace of utilization shows). */
void act_constraint_foreach_use(lmm_constraint *c,
                                void (*fn)(uint16_t tag, double used, void *arg), void *arg);

/* The model registers itself with the engine. precision: lmm precision (work-amount). */
void act_model_init(act_model *m, const char *name, double precision);
void act_model_destroy(act_model *m); /* frees remaining actions' variables */

/* Creates a running action of `work` units; its lmm variable has `penalty` and `bound`
 * (< 0: none) and room for `elements_hint` constraints; the caller then expands it onto
 * constraints with lmm_expand(m->sys, cnst, a->var, coef). If latency > 0 the action
 * takes no share until now + latency. */
act_action *act_action_new(act_model *m, double work, double latency, double penalty,
                           double bound, size_t elements_hint, act_finish_fn on_finish,
                           void *data);
void act_action_set_rate_factor(act_action *a, double factor);
/* Ends a running action now with state ACT_CANCELED (or ACT_FAILED); calls on_finish. */
void act_action_cancel(act_action *a, act_state why);
void act_action_free(act_action *a);
/* Work left at the current date. */
double act_action_remaining(const act_action *a);

/* From inside an actor: block until a ends. Returns its final state. */
act_state act_wait(act_action *a);

#endif
