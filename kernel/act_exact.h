/* The exact class (maxmin/exact-class): see act_exact.c. For activity.c only. */
#ifndef SMPI_KERNEL_ACT_EXACT_H
#define SMPI_KERNEL_ACT_EXACT_H

#include "kernel/activity.h"

/* Members form on a bottleneck of at least min_flows flows (network model only). */
void act_exact_enable(act_model *m, size_t min_flows);
void act_exact_free(act_model *m);
/* Right after lmm_solve: the members take the solve's value as one (or the class is
 * dissolved when the solve did something it cannot follow). */
void act_exact_after_solve(act_model *m, double now);
/* After the modified actions were updated: the flows that joined at this solve are
 * adopted (or dropped), and the head member is put in the model's heap. */
void act_exact_adopt(act_model *m, double now);
/* Every member back to an ordinary action (remaining, date, heap entry as they would be). */
void act_exact_dissolve(act_model *m);
/* After activity.c's loop over the modified actions, which skipped the members: a solve
 * other than the class's changed some. When every group still shares one value, the
 * members take their step as one (NULL); else the class is dissolved and the members whose
 * value changed are returned (n_changed of them, an array to free) for the loop's update. */
act_action **act_exact_resync(act_model *m, double now, size_t *n_changed);
/* a, a member, leaves (it ends or is cancelled): its fields are brought back first. */
void act_exact_leave(act_model *m, act_action *a);
double act_exact_remaining(const act_action *a, double now);

typedef struct act_exact_stats {
  unsigned long formed, dissolved; /* classes */
  unsigned long by_solve, by_api; /* dissolved by a solve that changed a member, by an API call */
  unsigned long resynced;         /* solves that changed the members flow by flow, as one */
  unsigned long events;           /* solves that moved the members as one */
  unsigned long joined, left;     /* flows */
} act_exact_stats;
void act_exact_get_stats(const act_model *m, act_exact_stats *out);

#endif
