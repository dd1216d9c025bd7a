/* The exact class (maxmin/exact-class): flows of one bottleneck updated as one, to the bit.
 *
 * A linear Reduce at 4 096 ranks: the root's link carries 4 095 flows of 1 MiB that start
 * and end one at a time, and every start or end gives every one of them a new value. The
 * general path then walks each flow in lmm (its links, its elements) and in activity.c
 * (catch-up, new speed, re-keying in the model's heap): ~1 ms per event. But flows with one
 * penalty and coefficient on the bottleneck (and no bound that could bind) get the same
 * value, so that the steps of each member, with last_update, speed and rate factor shared,
 * are the same operations on shared operands:
 *
 *   s = speed_old * (now - t_last)           one product for all
 *   rem_i = rem_i - s;  rem_i < P ? 0         one subtraction per member (dense array)
 *   key_i = rem_i <= 0 ? now : now + rem_i / speed     (speed = value * rate_factor)
 *
 * Worked example: members m0 m1 m2 with rem = {3, 1, 1} (seq 7, 9, 4), speed 2 since
 * t_last = 10; at now = 10.25 the value halves (speed 1): s = 0.5, rem = {2.5, 0.5, 0.5},
 * keys = {12.75, 10.75, 10.75}. The heap orders by (key, seq): m2 (10.75, #4) comes first,
 * then m1 (10.75, #9), then m0. Only m2 is in the model's heap (with its own seq #4); when
 * it ends, the least (key, seq) of the rest, m1, is pushed with #9: the heap pops the same
 * actions in the same order, at the same dates, as if all three had stayed in it.
 *
 * Members are grouped by penalty (a fat tree's routes of two lengths: two values per event),
 * each group with its own speed and t_last. The lmm side (lmm_xclass.c,
 * lmm_fast_bottleneck.c) keeps the members' values and every constraint's load as the general
 * path would, and does not list the members as modified. A solve by another path that
 * changed members leaves every group with one value again (a full pass gives the members of
 * a group the same value): the groups take their step as above (act_exact_resync).
 * Anything else (members of a group that now differ, an API change to a member, a speed of
 * 0) dissolves the class: each member gets back remaining, last_update, speed and its heap
 * entry (key, seq) as the general path would have left them, and the general path goes on
 * from there. tests/exact_class compares both, bit for bit. */
#include "kernel/act_exact.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(exact, kernel, "the exact class of max-min activities");
LOG_DEFAULT_CATEGORY(exact);

typedef struct act_exact {
  size_t min_flows;
  double *rem, *key; /* per member (lmm's slot order); key < 0: none (speed 0) */
  uint64_t *seq;
  uint8_t *grp; /* its group (lmm_xclass_group) */
  size_t cap;
  /* shared by every member of a group */
  double t_last[LMM_XG], speed[LMM_XG], rate_factor[LMM_XG];
  size_t gn[LMM_XG];
  act_action *head;   /* the member in the model's heap */
  act_exact_stats st; /* logged at the end (--log=exact.thres:verbose) */
} act_exact;

static void bulk(act_model *m, double now);

static inline double min4(double a, double b, double c, double d)
{
  double x = a < b ? a : b, y = c < d ? c : d;
  return x < y ? x : y;
}

static act_action *member(const act_model *m, size_t i)
{
  return lmm_variable_id(lmm_xclass_var(m->sys, i));
}

void act_exact_enable(act_model *m, size_t min_flows)
{
  m->exact = xcalloc(1, sizeof *m->exact);
  m->exact->min_flows = min_flows;
  lmm_xclass_allow(m->sys, min_flows);
}

void act_exact_free(act_model *m)
{
  if (!m->exact)
    return;
  act_exact_dissolve(m);
  const act_exact_stats *st = &m->exact->st;
  LOG_VERB("%s: %lu classes formed, %lu dissolved; %lu events by class, %lu flows joined, "
           "%lu left",
           m->name, st->formed, st->dissolved, st->events, st->joined, st->left);
  free(m->exact->rem);
  free(m->exact->key);
  free(m->exact->seq);
  free(m->exact->grp);
  free(m->exact);
  m->exact = NULL;
}

static void materialize(const act_exact *x, act_action *a, size_t i)
{
  a->remaining = x->rem[i];
  a->last_update = x->t_last[x->grp[i]];
  a->speed = x->speed[x->grp[i]];
  a->xmember = false;
}

static void dissolve(act_model *m)
{
  act_exact *x = m->exact;
  size_t n = lmm_xclass_adopted(m->sys);
  for (size_t i = 0; i < n; i++) {
    act_action *a = member(m, i);
    materialize(x, a, i);
    if (x->key[i] < 0)
      heap_remove(&m->events, &a->hnode);
    else if (!heap_contains(&a->hnode))
      heap_push_seq(&m->events, &a->hnode, x->key[i], x->seq[i]);
    else
      heap_update(&m->events, &a->hnode, x->key[i]);
  }
  lmm_xclass_dissolve(m->sys);
  x->head = NULL;
  memset(x->gn, 0, sizeof x->gn);
}

void act_exact_dissolve(act_model *m)
{
  m->exact->st.dissolved += lmm_xclass_adopted(m->sys) > 0;
  dissolve(m);
}

act_action **act_exact_resync(act_model *m, double now, size_t *n_changed)
{
  act_exact *x = m->exact;
  *n_changed = 0;
  if (lmm_xclass_resync(m->sys)) {
    x->st.resynced++;
    bulk(m, now);
    return NULL;
  }
  /* the members no longer share a value: the changed ones are to be updated one by one */
  size_t n = lmm_xclass_adopted(m->sys), k = 0;
  act_action **changed = xmalloc((n ? n : 1) * sizeof *changed);
  for (size_t i = 0; i < n; i++) {
    lmm_variable *v = lmm_xclass_var(m->sys, i);
    if (lmm_variable_value(v) != lmm_xclass_value(m->sys, lmm_xclass_group(m->sys, i)))
      changed[k++] = lmm_variable_id(v);
  }
  x->st.by_solve++;
  act_exact_dissolve(m);
  *n_changed = k;
  return changed;
}

/* The member of least (key, seq) is the one in the heap. */
static void fix_head(act_model *m)
{
  act_exact *x = m->exact;
  size_t n = lmm_xclass_adopted(m->sys);
  if (!n) {
    x->head = NULL;
    return;
  }
  /* the least key (four running minima: no chain of dependent compares), then the least
   * seq among the members at that key */
  const double *key = x->key;
  const uint64_t *seq = x->seq;
  double m0 = key[0], m1 = key[0], m2 = key[0], m3 = key[0];
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    m0 = key[i] < m0 ? key[i] : m0;
    m1 = key[i + 1] < m1 ? key[i + 1] : m1;
    m2 = key[i + 2] < m2 ? key[i + 2] : m2;
    m3 = key[i + 3] < m3 ? key[i + 3] : m3;
  }
  for (; i < n; i++)
    m0 = key[i] < m0 ? key[i] : m0;
  double least = min4(m0, m1, m2, m3);
  size_t best = SIZE_MAX;
  for (i = 0; i < n; i++)
    if (key[i] == least && (best == SIZE_MAX || seq[i] < seq[best]))
      best = i;
  act_action *a = member(m, best);
  if (x->head && x->head != a)
    heap_remove(&m->events, &x->head->hnode);
  if (heap_contains(&a->hnode))
    heap_update(&m->events, &a->hnode, key[best]);
  else
    heap_push_seq(&m->events, &a->hnode, key[best], seq[best]);
  x->head = a;
}

/* The members of the groups whose value changed at this solve take their step. */
static void bulk(act_model *m, double now)
{
  act_exact *x = m->exact;
  size_t n = lmm_xclass_adopted(m->sys);
  if (!n || !lmm_xclass_changed(m->sys))
    return;
  x->st.events++;
  /* activity.c's action_catch_up, then the new speed, then action_rekey, member by member:
   * per group, one product s and one speed for all */
  double s[LMM_XG], floor = eng_work_precision() * eng_timing_precision();
  bool moved[LMM_XG], step[LMM_XG], starved = false;
  for (unsigned g = 0; g < LMM_XG; g++) {
    moved[g] = x->gn[g] && lmm_xclass_group_changed(m->sys, g);
    step[g] = moved[g] && x->speed[g] > 0 && now > x->t_last[g];
    s[g] = step[g] ? x->speed[g] * (now - x->t_last[g]) : 0;
    if (moved[g]) {
      x->t_last[g] = now;
      x->speed[g] = lmm_xclass_value(m->sys, g) * x->rate_factor[g];
      starved |= !(x->speed[g] > 0);
    }
  }
  double *rem = x->rem, *key = x->key;
  const uint8_t *grp = x->grp;
  for (size_t i = 0; i < n; i++) {
    unsigned g = grp[i];
    if (!moved[g])
      continue;
    if (step[g]) {
      double r = rem[i] - s[g];
      rem[i] = r < floor ? 0 : r;
    }
    double speed = x->speed[g];
    key[i] = rem[i] <= 0 ? now : speed > 0 ? now + rem[i] / speed : -1.0;
  }
  if (starved) { /* no date, unless nothing is left: back to the general path */
    act_exact_dissolve(m);
    return;
  }
  fix_head(m);
}

void act_exact_after_solve(act_model *m, double now)
{
  act_exact *x = m->exact;
  if (!lmm_xclass_size(m->sys))
    return;
  if (lmm_xclass_broken(m->sys)) {
    x->st.by_api++;
    act_exact_dissolve(m);
    return;
  }
  bulk(m, now);
}

void act_exact_adopt(act_model *m, double now)
{
  act_exact *x = m->exact;
  size_t n = lmm_xclass_size(m->sys), ad = lmm_xclass_adopted(m->sys);
  if (n == ad)
    return;
  if (ad == 0) {
    memset(x->gn, 0, sizeof x->gn);
    x->head = NULL;
  }
  if (n > x->cap) {
    size_t cap = x->cap ? x->cap : 64;
    while (cap < n)
      cap *= 2;
    x->rem = xrealloc(x->rem, cap * sizeof *x->rem);
    x->key = xrealloc(x->key, cap * sizeof *x->key);
    x->seq = xrealloc(x->seq, cap * sizeof *x->seq);
    x->grp = xrealloc(x->grp, cap * sizeof *x->grp);
    x->cap = cap;
  }
  for (size_t j = ad; j < n; j++) {
    act_action *a = member(m, j);
    unsigned g = lmm_xclass_group(m->sys, j);
    if (!x->gn[g]) { /* the first of its group sets the shared fields */
      x->t_last[g] = a->last_update;
      x->speed[g] = a->speed;
      x->rate_factor[g] = a->rate_factor;
    }
    /* caught up now, with its group's speed, in the heap (activity.c's loop just did it) */
    if (a->state != ACT_RUNNING || a->in_latency || a->cls || a->last_update != now ||
        x->t_last[g] != now || a->speed != x->speed[g] || a->rate_factor != x->rate_factor[g] ||
        !(x->speed[g] > 0) || !heap_contains(&a->hnode)) {
      lmm_xclass_truncate(m->sys, j);
      break;
    }
    x->rem[j] = a->remaining;
    x->key[j] = a->hnode.key;
    x->seq[j] = a->hnode.seq;
    x->grp[j] = (uint8_t)g;
    x->gn[g]++;
    a->xmember = true;
    heap_remove(&m->events, &a->hnode);
  }
  n = lmm_xclass_size(m->sys);
  lmm_xclass_set_adopted(m->sys, n);
  if (ad == 0 && n < x->min_flows) {
    dissolve(m); /* not counted: it never moved as one */
    return;
  }
  x->st.formed += ad == 0;
  x->st.joined += n - ad;
  x->head = x->head && heap_contains(&x->head->hnode) ? x->head : NULL;
  fix_head(m);
}

void act_exact_leave(act_model *m, act_action *a)
{
  act_exact *x = m->exact;
  size_t n = lmm_xclass_size(m->sys);
  size_t i = lmm_variable_xindex(a->var) - 1;
  ASSERT(i < n && n == lmm_xclass_adopted(m->sys));
  x->st.left++;
  heap_remove(&m->events, &a->hnode);
  materialize(x, a, i);
  x->gn[x->grp[i]]--;
  x->rem[i] = x->rem[n - 1];
  x->key[i] = x->key[n - 1];
  x->seq[i] = x->seq[n - 1];
  x->grp[i] = x->grp[n - 1];
  lmm_xclass_remove(m->sys, i);
  if (n == 1) {
    lmm_xclass_dissolve(m->sys);
    x->head = NULL;
    memset(x->gn, 0, sizeof x->gn);
    return;
  }
  if (x->head == a) {
    x->head = NULL;
    fix_head(m);
  }
}

double act_exact_remaining(const act_action *a, double now)
{
  const act_exact *x = a->model->exact;
  size_t i = lmm_variable_xindex(a->var) - 1;
  double r = x->rem[i], speed = x->speed[x->grp[i]], t_last = x->t_last[x->grp[i]];
  if (speed <= 0 || now <= t_last)
    return r;
  r -= speed * (now - t_last);
  return r > 0 ? r : 0;
}

void act_exact_get_stats(const act_model *m, act_exact_stats *out)
{
  if (m->exact)
    *out = m->exact->st;
  else
    *out = (act_exact_stats){0};
}
