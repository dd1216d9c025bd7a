/* Classes: flows that one saturated link bottlenecks, shared by one level and a virtual clock
 * (maxmin/class-sharing:yes; network model only; default no keeps the general path and its
 * bits). A processor-sharing queue: a start or an end touches the class, not each member.
 *
 *   class of backbone c (capacity C), members u1..un, w_i = coef(ui, c) / penalty(ui):
 *     level L = C / sum w_i,   value(ui) = L / penalty(ui)   (what lmm_fast_bottleneck gives)
 *     virtual clock V(t) = integral of L dt, advanced only when L changes
 *     ui delivers rate_factor(ui) / penalty(ui) = f_i bytes per unit of V: it joined at V_j
 *     with r_i bytes left, it ends when V reaches key_i = V_j + r_i / f_i
 *     members heap: key_i; the model's class heap: the date V reaches the least key,
 *       t = vdate + (key_min - V(vdate)) / L
 *   Worked example: C = 10, u1 (100 B), u2 (300 B) start at 0, penalties and factors 1:
 *     L = 5, keys 100 and 300; at t = 20 V = 100: u1 ends, L = 10; u2 ends when V = 300,
 *     t = 20 + 200 / 10 = 40 (the general path: 300 - 5 x 20 = 200 left at 10/s, same date).
 *
 * Members' lmm variables are disabled while in the class (the solver does not see them; the
 * class keeps their load), so the class's constraints must stay out of the solver's reach:
 *   - the bottleneck c and the members' other links b carry no flow but members;
 *   - each b stays unsaturated, with a margin: L x U_b < 0.9 capacity(b) (1 - P), U_b =
 *     sum coef(u, b) / penalty(u) over members crossing b; a level that reaches it breaks
 *     the class (an upper bound of max U_b / capacity(b) makes the check O(1));
 *   - no member's bound can bind (checked when it joins: bound, coefs, capacities fixed).
 * A flow enabled (created, or out of its latency phase) that touches a class's constraint
 * joins it if it keeps all that (it crosses c; its other links are its own or the class's),
 * else the class dissolves before the solve; so does a broken class or one whose capacity
 * changed. Dissolving materializes each member's remaining and re-enables its variable: the
 * general path resumes exactly as today from there.
 *
 * A class forms after a solve that changed at least min_flows values, when lmm_class_probe
 * finds that the first such flow's bottleneck qualifies (O(flows of c) per try; failed tries
 * back off exponentially).
 *
 * Dates differ from the general path's in the last bits: remaining is r0 - f (V(t) - V(t0))
 * rather than per-flow steps r -= speed dt, and the level is not subject to lmm's rule of
 * keeping a value that moved by less than the precision P. docs/class-sharing.md gives the
 * measured difference. */
#include "kernel/act_class.h"

#include <math.h>
#include <stdlib.h>

#include "kernel/engine.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(act_class, kernel, "classes of flows sharing one bottleneck");
LOG_DEFAULT_CATEGORY(act_class);

/* What a constraint's class pointer points to: a class (its bottleneck) or a link of one. */
typedef struct class_tag {
  bool is_link;
} class_tag;

typedef struct class_link {
  class_tag tag;
  act_class *cls;
  lmm_constraint *b;
  double usage; /* U_b */
  size_t n;     /* members crossing b */
  size_t idx;   /* in cls->links */
} class_link;

/* A class keeps each of its links below this fraction of the load that saturates it: the
 * check after an end is then O(1) but for a rescan of the links when the level has risen
 * by about (1 / CLASS_LINK_MARGIN) since the last one (links_overflow) */
#define CLASS_LINK_MARGIN 0.9

struct act_class {
  class_tag tag;
  act_classes *owner;
  lmm_constraint *c;
  double capacity;
  double usage; /* sum of w_i */
  double level;
  double vclock, vdate; /* V(vdate) */
  heap members;         /* act_cls_part.node by key */
  class_link **links;   /* the members' other links */
  size_t n_links, cap_links;
  double umax; /* >= max over links of U_b / (capacity(b) (1 - P)), exact after a rescan */
  size_t n;
  size_t ops;     /* joins and leaves since usage was summed afresh */
  bool broken;    /* dissolves at the next solve */
  heap_node node; /* in owner->heap by date of the next completion */
  list_node broken_node;
};

/* A flow's part of the class path, apart from its act_action (which every flow of every
 * model has): created when the flow is first enabled in a model with classes, given back
 * when it ends. Freed ones are kept for reuse, as activity.c keeps actions. */
struct act_cls_part {
  union {
    act_action *a;                   /* its flow */
    struct act_cls_part *next_spare; /* on cls_spare */
  };
  heap_node node;       /* in its class's members heap, keyed on its virtual finishing value */
  double w, f;          /* coef on the bottleneck / penalty; rate_factor / penalty */
  list_node fresh_node; /* on the classes' list of flows enabled since the last solve */
};
#define CLS_SPARE_MAX 4096
static struct cls_spare_list {
  struct act_cls_part *first;
  size_t n;
} cls_spare;

static struct act_cls_part *part_of(act_action *a)
{
  if (!a->cx) {
    struct act_cls_part *p = cls_spare.first;
    if (p) {
      cls_spare.first = p->next_spare;
      cls_spare.n--;
    } else {
      p = xmalloc(sizeof *p);
    }
    p->a = a;
    heap_node_init(&p->node);
    p->w = p->f = 0;
    list_init(&p->fresh_node);
    a->cx = p;
  }
  return a->cx;
}

void act_class_forget(act_action *a)
{
  struct act_cls_part *p = a->cx;
  ASSERT(!a->cls && !heap_contains(&p->node));
  if (list_linked(&p->fresh_node))
    list_remove(&p->fresh_node);
  a->cx = NULL;
  if (cls_spare.n < CLS_SPARE_MAX) {
    p->next_spare = cls_spare.first;
    cls_spare.first = p;
    cls_spare.n++;
  } else {
    free(p);
  }
}

static inline act_action *member_at(const heap *members, size_t i)
{
  return container_of(members->items[i], struct act_cls_part, node)->a;
}

struct act_classes {
  act_model *m;
  size_t min_flows;
  double precision; /* the solver's P */
  heap heap;        /* classes by next completion date */
  list_node fresh;  /* actions enabled since the last solve */
  list_node broken; /* classes to dissolve at the next solve */
  size_t n_live;
  uint64_t stamp;              /* batch of flows enabled together (lmm_class_count) */
  unsigned long skip, backoff; /* failed probes: skip the next `skip` chances */
  lmm_variable **scratch;
  size_t cap_scratch;
  act_class_stats stats;
};

void act_classes_enable(act_model *m, size_t min_flows)
{
  ASSERT(!m->classes && m->running == 0);
  act_classes *cs = xcalloc(1, sizeof *cs);
  cs->m = m;
  cs->min_flows = min_flows > 2 ? min_flows : 2;
  cs->precision = lmm_system_precision(m->sys);
  heap_init(&cs->heap);
  list_init(&cs->fresh);
  list_init(&cs->broken);
  m->classes = cs;
}

void act_classes_get_stats(const act_model *m, act_class_stats *out)
{
  if (m->classes)
    *out = m->classes->stats;
  else
    *out = (act_class_stats){0};
}

/* ---- the virtual clock ---- */

static void advance(act_class *k, double now)
{
  if (now > k->vdate) {
    k->vclock += k->level * (now - k->vdate);
    k->vdate = now;
  }
}

static double member_left(const act_class *k, const act_action *a, double vnow)
{
  double r = (a->cx->node.key - vnow) * a->cx->f;
  /* below this, what is left is rounding noise (activity.c's rule) */
  return r < eng_work_precision() * eng_timing_precision() ? 0 : r;
}

static void reschedule(act_class *k)
{
  act_classes *cs = k->owner;
  if (k->broken || !heap_size(&k->members)) {
    heap_remove(&cs->heap, &k->node);
    return;
  }
  double dv = heap_top_key(&k->members) - k->vclock;
  heap_set(&cs->heap, &k->node, k->vdate + (dv > 0 ? dv / k->level : 0));
}

/* ---- links ---- */

static double link_limit(const class_link *l, double precision)
{
  return lmm_constraint_capacity(l->b) * (1 - precision);
}

static void link_add(act_class *k, lmm_constraint *b, double w)
{
  class_link *l = lmm_constraint_class(b);
  if (!l) {
    l = xcalloc(1, sizeof *l);
    l->tag.is_link = true;
    l->cls = k;
    l->b = b;
    lmm_constraint_set_class(b, l);
    XGROW(k->links, k->cap_links, k->n_links + 1);
    l->idx = k->n_links;
    k->links[k->n_links++] = l;
  }
  ASSERT(l->tag.is_link && l->cls == k);
  l->usage += w;
  l->n++;
  double u = l->usage / link_limit(l, k->owner->precision);
  if (u > k->umax)
    k->umax = u;
}

static void link_sub(act_class *k, lmm_constraint *b, double w)
{
  class_link *l = lmm_constraint_class(b);
  ASSERT(l && l->tag.is_link && l->cls == k && l->n > 0);
  if (--l->n == 0) {
    k->links[l->idx] = k->links[--k->n_links];
    k->links[l->idx]->idx = l->idx;
    lmm_constraint_set_class(b, NULL);
    free(l);
    return;
  }
  l->usage -= w; /* umax stays an upper bound */
}

/* some link would reach the margin at the current level */
static bool links_overflow(act_class *k)
{
  if (k->level * k->umax < CLASS_LINK_MARGIN)
    return false;
  double umax = 0;
  for (size_t i = 0; i < k->n_links; i++) {
    double u = k->links[i]->usage / link_limit(k->links[i], k->owner->precision);
    if (u > umax)
      umax = u;
  }
  k->umax = umax;
  return k->level * umax >= CLASS_LINK_MARGIN;
}

static void mark_broken(act_class *k)
{
  if (k->broken)
    return;
  k->broken = true;
  list_push_back(&k->owner->broken, &k->broken_node);
  heap_remove(&k->owner->heap, &k->node);
  k->owner->m->dirty = true;
}

/* ---- members ---- */

static void set_level(act_class *k)
{
  /* summed afresh every n changes (amortized O(1)): the running sum's rounding would drift */
  if (++k->ops >= 64 && k->ops >= k->n) {
    double u = 0;
    for (size_t i = 0; i < heap_size(&k->members); i++)
      u += member_at(&k->members, i)->cx->w;
    k->usage = u;
    k->ops = 0;
  }
  k->level = k->capacity / k->usage;
}

/* a's remaining is as of now (== k->vdate); a's variable is already disabled */
static void member_add(act_class *k, act_action *a, double wc)
{
  struct act_cls_part *p = part_of(a);
  a->cls = k;
  p->w = wc / a->penalty;
  p->f = a->rate_factor / a->penalty;
  a->speed = 0;
  heap_push(&k->members, &p->node, k->vclock + a->remaining / p->f);
  k->usage += p->w;
  k->n++;
  size_t ne = lmm_variable_element_count(a->var);
  for (size_t i = 0; i < ne; i++) {
    double coef;
    lmm_constraint *b = lmm_variable_constraint(a->var, i, &coef);
    if (coef > 0 && b != k->c)
      link_add(k, b, coef / a->penalty);
  }
}

static void class_free(act_class *k)
{
  act_classes *cs = k->owner;
  heap_remove(&cs->heap, &k->node);
  if (list_linked(&k->broken_node))
    list_remove(&k->broken_node);
  lmm_constraint_set_class(k->c, NULL);
  for (size_t i = 0; i < k->n_links; i++) {
    lmm_constraint_set_class(k->links[i]->b, NULL);
    free(k->links[i]);
  }
  free(k->links);
  heap_destroy(&k->members);
  cs->n_live--;
  free(k);
}

/* a leaves k at now (k->vdate == now): remaining as of now; k may be freed */
static void member_remove(act_class *k, act_action *a, double now)
{
  a->remaining = member_left(k, a, k->vclock);
  a->last_update = now;
  a->speed = 0;
  a->cls = NULL;
  heap_remove(&k->members, &a->cx->node);
  k->owner->stats.leaves++;
  if (--k->n == 0) {
    class_free(k);
    return;
  }
  k->usage -= a->cx->w;
  size_t ne = lmm_variable_element_count(a->var);
  for (size_t i = 0; i < ne; i++) {
    double coef;
    lmm_constraint *b = lmm_variable_constraint(a->var, i, &coef);
    if (coef > 0 && b != k->c)
      link_sub(k, b, coef / a->penalty);
  }
  set_level(k);
  if (links_overflow(k)) {
    k->owner->stats.broken_level++;
    mark_broken(k);
  } else {
    reschedule(k);
  }
}

void act_class_leave(act_action *a, double now)
{
  act_class *k = a->cls;
  advance(k, now);
  member_remove(k, a, now);
}

double act_class_remaining(const act_action *a, double now)
{
  const act_class *k = a->cls;
  double v = k->vclock + (now > k->vdate ? k->level * (now - k->vdate) : 0);
  return member_left(k, a, v);
}

double act_class_value(const act_action *a) { return a->cls->level / a->penalty; }

/* ---- dissolving ---- */

static void dissolve(act_class *k, double now)
{
  act_classes *cs = k->owner;
  lmm_system *sys = cs->m->sys;
  advance(k, now);
  cs->stats.dissolved++;
  /* re-enabled in the members heap's array order (deterministic) */
  for (size_t i = 0; i < heap_size(&k->members); i++) {
    act_action *a = member_at(&k->members, i);
    a->remaining = member_left(k, a, k->vclock);
    a->last_update = now;
    a->speed = 0;
    a->cls = NULL;
    heap_node_init(&a->cx->node);
    lmm_variable_set_penalty(sys, a->var, a->penalty);
  }
  k->members.size = 0;
  LOG_DEBUG("class of %p dissolved at %.17g (%zu members)", (void *)k->c, now, k->n);
  k->n = 0;
  class_free(k);
  cs->m->dirty = true;
}

void act_classes_capacity_changed(act_model *m, lmm_constraint *c)
{
  class_tag *t = m->classes ? lmm_constraint_class(c) : NULL;
  if (t) {
    m->classes->stats.broken_capacity++;
    mark_broken(t->is_link ? ((class_link *)t)->cls : (act_class *)t);
  }
}

double act_classes_load(const act_model *m, const lmm_constraint *c)
{
  const class_tag *t = m->classes ? lmm_constraint_class(c) : NULL;
  if (!t)
    return 0;
  if (t->is_link) {
    const class_link *l = (const class_link *)t;
    return l->cls->level * l->usage;
  }
  const act_class *k = (const act_class *)t;
  return k->level * k->usage;
}

void act_classes_free(act_model *m)
{
  act_classes *cs = m->classes;
  if (!cs)
    return;
  LOG_VERB("%lu classes formed (%lu probes), %lu joins, %lu leaves, %lu dissolved (%lu by a "
           "flow that could not join, %lu by a link reaching saturation, %lu by a capacity "
           "change), at most %lu at once",
           cs->stats.formed, cs->stats.probes, cs->stats.joins, cs->stats.leaves,
           cs->stats.dissolved, cs->stats.broken_join, cs->stats.broken_level,
           cs->stats.broken_capacity, cs->stats.live_max);
  while (!list_empty(&cs->fresh))
    list_remove(list_first(&cs->fresh));
  /* the actions are being freed with the model: drop the classes as they are */
  while (heap_size(&cs->heap) || !list_empty(&cs->broken)) {
    act_class *k = heap_size(&cs->heap)
                       ? container_of(heap_top(&cs->heap), act_class, node)
                       : container_of(list_first(&cs->broken), act_class, broken_node);
    for (size_t i = 0; i < heap_size(&k->members); i++)
      member_at(&k->members, i)->cls = NULL;
    k->members.size = 0;
    class_free(k);
  }
  heap_destroy(&cs->heap);
  free(cs->scratch);
  free(cs);
  m->classes = NULL;
}

/* ---- flows enabled: join or dissolve ---- */

void act_class_fresh(act_model *m, act_action *a)
{
  struct act_cls_part *p = part_of(a);
  if (!list_linked(&p->fresh_node))
    list_push_back(&m->classes->fresh, &p->fresh_node);
}

/* b, not a class's yet, can become a link of a's class: shared, and all its flows were
 * enabled with a (the flows of a collective's step start together, many per host), none of
 * them examined and left on the general path (each later one joins, or the class
 * dissolves since it touches b) */
static bool own_link(act_classes *cs, lmm_constraint *b)
{
  return lmm_constraint_sharing(b) == LMM_SHARED && lmm_constraint_capacity(b) > 0 &&
         lmm_class_all_counted(b, cs->stamp);
}

static bool fresh_candidate(const act_action *a)
{
  return a->state == ACT_RUNNING && a->var && !a->in_latency && !a->cls;
}

/* calls fn(b, stamp) on a's constraints that no class uses */
static void on_free_constraints(act_classes *cs, const act_action *a,
                                void (*fn)(lmm_constraint *b, uint64_t stamp))
{
  size_t ne = lmm_variable_element_count(a->var);
  for (size_t i = 0; i < ne; i++) {
    double coef;
    lmm_constraint *b = lmm_variable_constraint(a->var, i, &coef);
    if (coef > 0 && !lmm_constraint_class(b))
      fn(b, cs->stamp);
  }
}

/* The class a can join, or NULL with *spoiled set to the classes (at most 2 noted, the rest
 * marked broken) that it touches without being able to join. */
static act_class *join_target(act_classes *cs, act_action *a, double *wc)
{
  lmm_variable *v = a->var;
  size_t ne = lmm_variable_element_count(v);
  act_class *k = NULL;
  bool ok = a->rate_factor > 0 && !lmm_variable_bound_binds(v);
  bool touches = false;
  for (size_t i = 0; i < ne; i++) {
    double coef;
    lmm_constraint *b = lmm_variable_constraint(v, i, &coef);
    if (!(coef > 0))
      continue;
    class_tag *t = lmm_constraint_class(b);
    if (!t) {
      if (!own_link(cs, b))
        ok = false;
      continue;
    }
    touches = true;
    act_class *kt = t->is_link ? ((class_link *)t)->cls : (act_class *)t;
    if (!t->is_link) {
      if (k && k != kt)
        ok = false;
      k = kt;
      *wc = coef;
    }
  }
  if (!touches)
    return NULL;
  if (k && !k->broken && ok) {
    /* its links stay unsaturated at the lower level */
    double level = k->capacity / (k->usage + *wc / a->penalty);
    for (size_t i = 0; i < ne && ok; i++) {
      double coef;
      lmm_constraint *b = lmm_variable_constraint(v, i, &coef);
      if (!(coef > 0) || b == k->c)
        continue;
      class_tag *t = lmm_constraint_class(b);
      if (t && ((class_link *)t)->cls != k) {
        ok = false;
        break;
      }
      double u = (t ? ((class_link *)t)->usage : 0) + coef / a->penalty;
      if (level * u >= CLASS_LINK_MARGIN * lmm_constraint_capacity(b) * (1 - cs->precision))
        ok = false;
    }
    if (ok)
      return k;
  }
  /* not joinable: every class it touches dissolves */
  for (size_t i = 0; i < ne; i++) {
    double coef;
    lmm_constraint *b = lmm_variable_constraint(v, i, &coef);
    class_tag *t = coef > 0 ? lmm_constraint_class(b) : NULL;
    act_class *kt = !t ? NULL : t->is_link ? ((class_link *)t)->cls : (act_class *)t;
    if (kt && !kt->broken) {
      cs->stats.broken_join++;
      mark_broken(kt);
    }
  }
  return NULL;
}

void act_class_before_solve(act_model *m, double now)
{
  act_classes *cs = m->classes;
  if (!list_empty(&cs->fresh) && cs->n_live) {
    cs->stamp++;
    list_foreach (it, &cs->fresh) {
      const act_action *a = container_of(it, struct act_cls_part, fresh_node)->a;
      if (fresh_candidate(a))
        on_free_constraints(cs, a, lmm_class_count);
    }
  }
  while (!list_empty(&cs->fresh)) {
    act_action *a = container_of(list_pop_front(&cs->fresh), struct act_cls_part, fresh_node)->a;
    if (!fresh_candidate(a) || !cs->n_live)
      continue;
    double wc = 0;
    act_class *k = join_target(cs, a, &wc);
    if (!k) {
      on_free_constraints(cs, a, lmm_class_taint); /* it stays on the general path */
      continue;
    }
    advance(k, now);
    lmm_class_detach(m->sys, a->var);
    if (heap_contains(&a->hnode))
      heap_remove(&m->events, &a->hnode);
    action_catch_up(a, now);
    member_add(k, a, wc);
    set_level(k);
    cs->stats.joins++;
    reschedule(k);
  }
  while (!list_empty(&cs->broken))
    dissolve(container_of(list_first(&cs->broken), act_class, broken_node), now);
}

/* ---- forming ---- */

void act_class_after_solve(act_model *m, double now)
{
  act_classes *cs = m->classes;
  lmm_system *sys = m->sys;
  size_t nmod = lmm_modified_count(sys);
  if (nmod < cs->min_flows)
    return;
  if (cs->skip) {
    cs->skip--;
    return;
  }
  lmm_variable *v = NULL;
  for (size_t i = 0; i < nmod && !v; i++) { /* the first may be new flows in latency */
    lmm_variable *u = lmm_modified_get(sys, i);
    const act_action *a = lmm_variable_id(u);
    if (!a->cls && !a->in_latency && lmm_variable_penalty(u) > 0)
      v = u;
  }
  if (!v)
    return; /* only flows in their latency phase changed: no probe, no back-off */
  cs->stats.probes++;
  lmm_constraint *c = lmm_class_probe(sys, v, cs->min_flows, 2 * nmod + cs->min_flows);
  act_class *k = NULL;
  size_t n = 0;
  if (c) {
    n = lmm_constraint_active_count(c);
    XGROW(cs->scratch, cs->cap_scratch, n);
    n = lmm_constraint_active_vars(c, cs->scratch);
    k = xcalloc(1, sizeof *k);
    k->owner = cs;
    k->c = c;
    k->capacity = lmm_constraint_capacity(c);
    k->vdate = now;
    heap_init(&k->members);
    heap_node_init(&k->node);
    list_init(&k->broken_node);
    lmm_constraint_set_class(c, k);
    cs->n_live++;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
      act_action *a = lmm_variable_id(cs->scratch[i]);
      ok = !a->in_latency && a->rate_factor > 0;
    }
    if (ok) {
      for (size_t i = 0; i < n; i++) {
        act_action *a = lmm_variable_id(cs->scratch[i]);
        size_t ne = lmm_variable_element_count(a->var);
        for (size_t j = 0; j < ne; j++) {
          double coef;
          lmm_constraint *b = lmm_variable_constraint(a->var, j, &coef);
          if (coef > 0 && b == c)
            k->usage += coef / a->penalty;
          else if (coef > 0)
            link_add(k, b, coef / a->penalty);
        }
      }
      k->level = k->capacity / k->usage;
      ok = !links_overflow(k);
    }
    if (!ok) {
      class_free(k);
      k = NULL;
    }
  }
  if (!k) {
    LOG_DEBUG("no class at %.17g: %zu values changed, probe %s", now, nmod,
              c ? "passed" : "failed");
    cs->backoff = cs->backoff ? (cs->backoff < 8 ? 2 * cs->backoff : cs->backoff) : 1;
    cs->skip = cs->backoff;
    return;
  }
  cs->backoff = 0;
  k->usage = 0; /* summed again by member_add, in the same order */
  for (size_t i = 0; i < n; i++) {
    act_action *a = lmm_variable_id(cs->scratch[i]);
    action_catch_up(a, now); /* with the speed that held until now */
    if (heap_contains(&a->hnode))
      heap_remove(&m->events, &a->hnode);
    double wc = 0;
    size_t ne = lmm_variable_element_count(a->var);
    for (size_t j = 0; j < ne; j++) {
      double coef;
      if (lmm_variable_constraint(a->var, j, &coef) == c)
        wc = coef;
    }
    /* member_add counts the links again: take them out first */
    for (size_t j = 0; j < ne; j++) {
      double coef;
      lmm_constraint *b = lmm_variable_constraint(a->var, j, &coef);
      if (coef > 0 && b != c)
        link_sub(k, b, coef / a->penalty);
    }
    lmm_class_detach(sys, a->var);
    member_add(k, a, wc);
  }
  k->level = k->capacity / k->usage;
  cs->stats.formed++;
  if (cs->n_live > cs->stats.live_max)
    cs->stats.live_max = cs->n_live;
  LOG_DEBUG("class of %p formed at %.17g: %zu flows, level %.17g", (void *)c, now, n, k->level);
  if (links_overflow(k))
    mark_broken(k);
  else
    reschedule(k);
}

/* ---- dates ---- */

double act_class_next_date(const act_model *m)
{
  const act_classes *cs = m->classes;
  return heap_size(&cs->heap) ? heap_top_key(&cs->heap) : -1.0;
}

act_action *act_class_pop_due(act_model *m, double now)
{
  act_classes *cs = m->classes;
  double eps = eng_timing_precision();
  while (heap_size(&cs->heap) && heap_top_key(&cs->heap) <= now + eps) {
    act_class *k = container_of(heap_top(&cs->heap), act_class, node);
    advance(k, now);
    act_action *a = member_at(&k->members, 0);
    double dv = a->cx->node.key - k->vclock;
    if (dv <= k->level * eps || member_left(k, a, k->vclock) == 0) {
      member_remove(k, a, now);
      a->remaining = 0;
      return a;
    }
    reschedule(k);
  }
  return NULL;
}
