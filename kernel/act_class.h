/* Classes of flows sharing one saturated bottleneck (maxmin/class-sharing:yes), for
 * activity.c and network.c only. See act_class.c for the model and its limits. */
#ifndef SMPI_KERNEL_ACT_CLASS_H
#define SMPI_KERNEL_ACT_CLASS_H

#include "kernel/activity.h"

typedef struct act_class act_class;
typedef struct act_classes act_classes;

/* Counters for tests and benchmarks. */
typedef struct act_class_stats {
  unsigned long formed, dissolved, joins, leaves, probes, live_max;
  /* why classes dissolved: a flow that could not join, a link that would saturate, a
   * capacity change */
  unsigned long broken_join, broken_level, broken_capacity;
} act_class_stats;

/* Turns the class path on for m (before any action exists): a class forms when a solve
 * changed at least min_flows values and they share a bottleneck as lmm_class_probe says. */
void act_classes_enable(act_model *m, size_t min_flows);
void act_classes_free(act_model *m);
void act_classes_get_stats(const act_model *m, act_class_stats *out);

/* activity.c's hooks (m->classes != NULL) */
void act_class_fresh(act_model *m, act_action *a); /* a's variable was just enabled */
void act_class_forget(act_action *a);              /* a ended (out of any class): drops a->cx */
void act_class_before_solve(act_model *m, double now);
void act_class_after_solve(act_model *m, double now);
double act_class_next_date(const act_model *m); /* -1: none */
/* A member due at now (<= now + timing precision), out of its class, remaining 0; NULL when
 * none is left. */
act_action *act_class_pop_due(act_model *m, double now);
/* a (a->cls != NULL) leaves its class at now: remaining and last_update as of now */
void act_class_leave(act_action *a, double now);
double act_class_remaining(const act_action *a, double now);
double act_class_value(const act_action *a); /* the lmm value a would have */

/* network.c: c's capacity changes (its class, if any, dissolves at the next solve); the load
 * that class members put on c (their lmm variables are disabled) */
void act_classes_capacity_changed(act_model *m, lmm_constraint *c);
double act_classes_load(const act_model *m, const lmm_constraint *c);

/* activity.c's catch-up (remaining brought to now with the speed that held) */
void action_catch_up(act_action *a, double now);

#endif
