/* rma.c: one-sided operations and synchronisations, timed as messages of the network model
 * (what the MPI calls do once smpi/bindings/rma.c checked their arguments).
 *
 * Every message below is a flow of payload + 16 bytes (the same envelope as point-to-point)
 * from the origin's host to the target's or back, sharing the links with all other
 * traffic; the origin pays smpi/os on the data it sends, as SimGrid's RMA does. An operation
 * "lands" when its message reaches the target: the data is read or written there at that
 * simulated date, all of it at once (so accumulates are atomic per element, and whole).
 *
 *     Put, Accumulate         origin --data--> target (lands; complete at the origin)
 *     Get                     origin --req(0)--> target (lands: reads) --reply(data)--> origin
 *     Get_accumulate, FOP     origin --data--> target (lands: reads, applies) --reply-->
 *     Compare_and_swap        origin --2 elements--> target --reply(1 element)--> origin
 *
 *     fence                   wait own operations complete, then a barrier on the window's
 *                             communicator (none with MPI_MODE_NOPRECEDE)
 *     post / start            target --post(0)--> each origin; start waits for its posts
 *     complete / wait         origin --complete(0)--> each target, handled there once the
 *                             origin's earlier operations landed; wait counts them
 *     lock / unlock           origin --lock(0)--> target, queued there until grantable
 *                             --grant(0)--> origin; unlock: origin --unlock(0)--> target,
 *                             handled once the origin's operations landed --ack(0)--> origin
 *     flush                   like unlock without the release, only when a Put or an
 *                             Accumulate needs its remote completion acknowledged
 *     lock_all / unlock_all   no message to take (MPICH takes them lazily); waits while an
 *                             exclusive lock is held; unlock_all = flush_all + release
 *
 * Operations on one's own memory are copies at once, with no time (SimGrid does the same).
 * Accumulates of one origin to one target are applied in issue order (MPI's default
 * accumulate_ordering) even when a later, smaller message arrives first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll.h"
#include "kernel/network.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/datatype_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/op_impl.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/emulation/privatize.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/copies.h"
#include "smpi/runtime/world.h"
#include "smpi/rma/win.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- state of one (origin, target) pair of a window ---- */

typedef struct rma_pair {
  long inflight;      /* issued by origin, not landed at target yet */
  long pending;       /* issued by origin, not complete at origin yet */
  long local_pending; /* of which not even locally complete (buffer reusable) */
  bool need_ack;      /* a Put/Accumulate awaits an acknowledged remote completion */
  bool dirty_listed;  /* in the origin's dirty list */
  int lock;           /* 0, MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE held by origin */
  bool lock_nocheck;  /* taken with MPI_MODE_NOCHECK: no lock state at the target */
  bool granted;       /* the grant arrived */
  bool ack;           /* the awaited acknowledgement arrived */
  long posts;         /* MPI_Win_post of target addressed to origin, not consumed */
  uint64_t acc_issued, acc_applied;
  list_node acc_held; /* landed accumulates waiting for an earlier one (rma_op.link) */
  list_node ctl_held; /* unlock/flush/complete waiting for inflight == 0 */
} rma_pair;

static uint64_t pair_key(const smpi_win_shared *sh, int origin, int target)
{
  return (uint64_t)origin * (uint64_t)sh->n + (uint64_t)target;
}

static rma_pair *pair_of(smpi_win_shared *sh, int origin, int target)
{
  uint64_t k = pair_key(sh, origin, target);
  rma_pair *p = smpi_u64map_get(&sh->pairs, k);
  if (!p) {
    p = xcalloc(1, sizeof *p);
    list_init(&p->acc_held);
    list_init(&p->ctl_held);
    smpi_u64map_put(&sh->pairs, k, p);
  }
  return p;
}

void smpi_rma_shared_destroy(smpi_win_shared *sh)
{
  for (size_t i = 0; i < sh->pairs.cap; i++)
    if (sh->pairs.used[i])
      free(sh->pairs.vals[i]);
  smpi_u64map_destroy(&sh->pairs);
}

/* ---- blocking ---- */

static void describe(eng_actor *a, void *data, char *buf, size_t len)
{
  (void)a;
  const smpi_win *w = data;
  if (w->name && *w->name)
    snprintf(buf, len, "%s on window %s", w->waiting_for, w->name);
  else
    snprintf(buf, len, "%s on window 0x%x", w->waiting_for, (unsigned)w->handle);
}

void smpi_rma_wait_until(smpi_win *w, bool (*cond)(smpi_win *w, void *arg), void *arg,
                         const char *what)
{
  while (!cond(w, arg)) {
    ASSERT(!w->waiter);
    w->waiter = eng_self();
    w->waiting_for = what;
    eng_block(describe, w);
  }
}

void smpi_rma_wake(smpi_win *w)
{
  if (w && w->waiter) {
    eng_actor *a = w->waiter;
    w->waiter = NULL;
    eng_unblock(a);
  }
}

/* ---- flows ---- */

typedef void (*arrive_fn)(void *data);

typedef struct rma_flow {
  arrive_fn fn;
  void *data;
} rma_flow;

static act_action **dead;
static size_t ndead, cap_dead;

static void flow_done(act_action *a, void *data)
{
  rma_flow *f = data;
  if (a->state != ACT_DONE)
    return;
  /* actions may not be freed from their own callback */
  XGROW(dead, cap_dead, ndead + 1);
  dead[ndead++] = a;
  arrive_fn fn = f->fn;
  void *d = f->data;
  free(f);
  fn(d);
}

/* A message of payload bytes from world rank src to world rank dst; fn(data) runs when it
 * arrives. */
static void send_flow(int src, int dst, size_t payload, arrive_fn fn, void *data)
{
  for (size_t i = 0; i < ndead; i++)
    act_action_free(dead[i]);
  ndead = 0;
  rma_flow *f = xmalloc(sizeof *f);
  f->fn = fn;
  f->data = data;
  char err[256];
  size_t hs = smpi_w.ranks[src].host, hd = smpi_w.ranks[dst].host;
  if (!net_comm_start(hs, hd, (double)payload + 16.0, flow_done, f, err, sizeof err)) {
    fprintf(stderr, "smpi: rank %d cannot reach rank %d for a one-sided operation: %s\n", src,
            dst, err);
    smpi_abort_job(1);
  }
}

/* ---- control messages ---- */

typedef enum {
  CTL_POST,
  CTL_COMPLETE,
  CTL_LOCK,
  CTL_GRANT,
  CTL_UNLOCK,
  CTL_FLUSH,
  CTL_ACK
} ctl_kind;

typedef struct rma_ctl {
  ctl_kind kind;
  smpi_win_shared *sh;
  int from, to;  /* window ranks */
  int lock_type; /* CTL_LOCK */
  list_node link;
} rma_ctl;

static void ctl_send(smpi_win_shared *sh, ctl_kind kind, int from, int to, int lock_type);

/* a lock request queued at its target */
typedef struct rma_lockreq {
  int origin;
  int type;
  list_node link;
} rma_lockreq;

static bool lock_grantable(smpi_win *t, int type)
{
  if (t->excl >= 0)
    return false;
  if (type == MPI_LOCK_EXCLUSIVE)
    return t->shared_holders == 0 && t->sh->lock_all_held == 0;
  return true;
}

static void grant(smpi_win *t, int origin, int type)
{
  if (type == MPI_LOCK_EXCLUSIVE) {
    t->excl = origin;
    t->sh->excl_held++;
  } else {
    t->shared_holders++;
  }
  ctl_send(t->sh, CTL_GRANT, t->rank, origin, type);
}

/* Grants the queued requests of t in order while they are compatible (FIFO: a waiting
 * exclusive request is not overtaken by later shared ones). */
static void try_grant(smpi_win *t)
{
  while (!list_empty(&t->lock_queue)) {
    rma_lockreq *q = list_entry(list_first(&t->lock_queue), rma_lockreq, link);
    if (!lock_grantable(t, q->type))
      break;
    list_remove(&q->link);
    int origin = q->origin, type = q->type;
    free(q);
    grant(t, origin, type);
  }
  if (list_empty(&t->lock_queue) && list_linked(&t->pending_link))
    list_remove(&t->pending_link);
}

/* a lock_all waiting for the exclusive locks to go */
typedef struct rma_allreq {
  smpi_win *w;
  bool granted;
  list_node link;
} rma_allreq;

static void after_release(smpi_win_shared *sh)
{
  if (sh->excl_held == 0) {
    while (!list_empty(&sh->lock_all_queue)) {
      rma_allreq *q = list_entry(list_pop_front(&sh->lock_all_queue), rma_allreq, link);
      q->granted = true;
      sh->lock_all_held++;
      smpi_rma_wake(q->w);
    }
  }
  /* the members with waiting requests (not all members: lock_all release is O(waiting)) */
  list_node todo;
  list_init(&todo);
  list_splice_back(&todo, &sh->lock_pending);
  while (!list_empty(&todo)) {
    smpi_win *t = list_entry(list_pop_front(&todo), smpi_win, pending_link);
    list_init(&t->pending_link);
    try_grant(t);
    if (!list_empty(&t->lock_queue) && !list_linked(&t->pending_link))
      list_push_back(&sh->lock_pending, &t->pending_link);
  }
}

static void ctl_handle(rma_ctl *m);

static void ctl_release_held(rma_pair *p)
{
  while (p->inflight == 0 && !list_empty(&p->ctl_held)) {
    rma_ctl *m = list_entry(list_pop_front(&p->ctl_held), rma_ctl, link);
    ctl_handle(m);
  }
}

/* A control message arrives at m->to. */
static void ctl_handle(rma_ctl *m)
{
  smpi_win_shared *sh = m->sh;
  smpi_win *to = sh->members[m->to];
  ASSERTF(to, "one-sided message to a rank that freed its window");
  switch (m->kind) {
  case CTL_POST:
    pair_of(sh, m->to, m->from)->posts++;
    smpi_rma_wake(to);
    break;
  case CTL_GRANT:
    pair_of(sh, m->to, m->from)->granted = true;
    smpi_rma_wake(to);
    break;
  case CTL_ACK:
    pair_of(sh, m->to, m->from)->ack = true;
    smpi_rma_wake(to);
    break;
  case CTL_LOCK: {
    rma_lockreq *q = xmalloc(sizeof *q);
    q->origin = m->from;
    q->type = m->lock_type;
    list_push_back(&to->lock_queue, &q->link);
    try_grant(to);
    if (!list_empty(&to->lock_queue) && !list_linked(&to->pending_link))
      list_push_back(&sh->lock_pending, &to->pending_link);
    break;
  }
  case CTL_COMPLETE:
  case CTL_UNLOCK:
  case CTL_FLUSH: {
    /* after the origin's operations: the channel is ordered in a real implementation */
    rma_pair *p = pair_of(sh, m->from, m->to);
    if (p->inflight > 0) {
      list_push_back(&p->ctl_held, &m->link);
      return; /* handled again by ctl_release_held */
    }
    if (m->kind == CTL_COMPLETE) {
      to->completes++;
      smpi_rma_wake(to);
    } else {
      if (m->kind == CTL_UNLOCK && m->lock_type != 0) {
        if (to->excl == m->from) {
          to->excl = -1;
          sh->excl_held--;
        } else {
          ASSERT(to->shared_holders > 0);
          to->shared_holders--;
        }
        try_grant(to);
        after_release(sh);
      }
      ctl_send(sh, CTL_ACK, m->to, m->from, 0);
    }
    break;
  }
  }
  free(m);
}

static void ctl_arrive(void *data) { ctl_handle(data); }

static void ctl_send(smpi_win_shared *sh, ctl_kind kind, int from, int to, int lock_type)
{
  rma_ctl *m = xcalloc(1, sizeof *m);
  m->kind = kind;
  m->sh = sh;
  m->from = from;
  m->to = to;
  m->lock_type = lock_type;
  list_init(&m->link);
  if (from == to) {
    ctl_handle(m); /* one's own memory: no message */
    return;
  }
  send_flow(sh->members[from]->world, sh->members[to]->world, 0, ctl_arrive, m);
}

/* ---- data operations ---- */

typedef struct rma_op {
  rma_op_kind kind;
  smpi_win_shared *sh;
  int origin, target; /* window ranks */
  int origin_world, target_world;
  rma_pair *pair;
  unsigned char *data; /* packed origin data (CAS: origin value then compare value) */
  size_t bytes;
  char *taddr; /* target address, in the target's view */
  size_t tcount;
  smpi_dt *tdt;
  size_t tbytes;
  char *raddr; /* where results go at the origin (Get, Gacc, CAS) */
  size_t rcount;
  smpi_dt *rdt;
  unsigned char *result; /* packed result */
  size_t rbytes;
  smpi_op *op;
  MPI_Op oph;
  MPI_Datatype basic;
  uint64_t acc_seq;
  smpi_req *req;   /* MPI_Rput & co. */
  bool local_done; /* locally complete: the origin buffer may be reused */
  list_node link;
} rma_op;

static void op_free(rma_op *o)
{
  if (o->tdt)
    smpi_dt_unref(o->tdt);
  if (o->rdt)
    smpi_dt_unref(o->rdt);
  if (o->op)
    smpi_op_unref(o->op);
  free(o->data);
  free(o->result);
  free(o);
}

/* Local completion: what MPI_Win_flush_local and the request of MPI_Rput wait for. */
static void op_local_complete(rma_op *o)
{
  if (o->local_done)
    return;
  o->local_done = true;
  smpi_win *ow = o->sh->members[o->origin];
  ASSERT(ow);
  ow->local_outstanding--;
  o->pair->local_pending--;
  if (o->req) {
    o->req->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE,
                                  .MPI_TAG = MPI_ANY_TAG,
                                  .MPI_ERROR = MPI_SUCCESS};
    p2p_complete(o->req);
    o->req = NULL;
  }
  smpi_rma_wake(ow);
}

/* At the origin: the operation is over (landed, and its reply is back if it has one). */
static void op_complete(rma_op *o)
{
  smpi_win *ow = o->sh->members[o->origin];
  ASSERT(ow);
  if (o->result && o->raddr) {
    /* more target data than the origin buffer holds: what fits (a mismatch is erroneous) */
    size_t room = o->rcount * smpi_dt_size(o->rdt);
    smpi_dt_unpack(o->result, o->rbytes < room ? o->rbytes : room,
                   smpi_privatize_translate(o->origin_world, o->raddr), o->rcount, o->rdt);
  }
  op_local_complete(o);
  ow->outstanding--;
  o->pair->pending--;
  smpi_rma_wake(ow);
  op_free(o);
}

static void reply_arrive(void *data) { op_complete(data); }

/* Applies the op to the target elements (packed copy t of them) with origin data in. */
static void apply_op(rma_op *o, unsigned char *t, const unsigned char *in, size_t bytes)
{
  if (o->oph == MPI_NO_OP)
    return;
  if (o->oph == MPI_REPLACE) {
    memcpy(t, in, bytes);
    smpi_copy_note(bytes);
    return;
  }
  const smpi_dt *b = smpi_dt_get(o->basic);
  size_t esz = smpi_dt_size(b), n = bytes / esz;
  MPI_Aint ext = smpi_dt_extent(b);
  int rc;
  if ((size_t)ext == esz) {
    rc = smpi_op_apply(o->op, in, t, (int)n, o->basic);
  } else {
    /* the pair types (MPI_DOUBLE_INT: 12 bytes packed, 16 in memory): the op reads its
     * elements at their extent, so give it them unpacked (before, every element after the
     * first was read at the wrong place: MPI_MAXLOC on 2 MPI_DOUBLE_INT updated one) */
    unsigned char *ui = xmalloc(n * (size_t)ext + 1), *ut = xmalloc(n * (size_t)ext + 1);
    smpi_dt_unpack(in, bytes, ui, n, b);
    smpi_dt_unpack(t, bytes, ut, n, b);
    rc = smpi_op_apply(o->op, ui, ut, (int)n, o->basic);
    smpi_dt_pack(ut, n, b, t);
    free(ui);
    free(ut);
  }
  ASSERTF(rc == MPI_SUCCESS, "accumulate op checked at the call failed at the target");
}

/* At the target, in order for accumulates: read and/or write the target's memory. */
static void op_execute(rma_op *o)
{
  char *t = smpi_privatize_translate(o->target_world, o->taddr);
  switch (o->kind) {
  case RMA_OP_PUT:
    smpi_dt_unpack(o->data, o->bytes < o->tbytes ? o->bytes : o->tbytes, t, o->tcount, o->tdt);
    break;
  case RMA_OP_GET:
    o->rbytes = o->tbytes;
    o->result = xmalloc(o->rbytes ? o->rbytes : 1);
    smpi_dt_pack(t, o->tcount, o->tdt, o->result);
    break;
  case RMA_OP_ACC:
  case RMA_OP_GACC: {
    unsigned char *cur = xmalloc(o->tbytes ? o->tbytes : 1);
    smpi_dt_pack(t, o->tcount, o->tdt, cur);
    if (o->kind == RMA_OP_GACC) {
      o->rbytes = o->tbytes;
      o->result = xmalloc(o->rbytes ? o->rbytes : 1);
      memcpy(o->result, cur, o->tbytes);
      smpi_copy_note(o->tbytes);
    }
    if (o->oph != MPI_NO_OP) {
      apply_op(o, cur, o->data, o->bytes < o->tbytes ? o->bytes : o->tbytes);
      smpi_dt_unpack(cur, o->tbytes, t, o->tcount, o->tdt);
    }
    free(cur);
    break;
  }
  case RMA_OP_CAS: {
    size_t esz = o->tbytes;
    o->rbytes = esz;
    o->result = xmalloc(esz ? esz : 1);
    memcpy(o->result, t, esz);
    smpi_copy_note(esz);
    if (memcmp(t, o->data + esz, esz) == 0) {
      memcpy(t, o->data, esz);
      smpi_copy_note(esz);
    }
    break;
  }
  }
}

static void op_landed_done(rma_op *o)
{
  rma_pair *p = o->pair;
  bool origin_self = o->origin == o->target;
  if (o->kind == RMA_OP_PUT || o->kind == RMA_OP_ACC || origin_self) {
    p->inflight--;
    op_complete(o);
  } else {
    p->inflight--;
    send_flow(o->target_world, o->origin_world, o->rbytes, reply_arrive, o);
  }
  ctl_release_held(p);
}

static void op_land(rma_op *o)
{
  rma_pair *p = o->pair;
  bool ordered = o->kind == RMA_OP_ACC || o->kind == RMA_OP_GACC || o->kind == RMA_OP_CAS;
  if (ordered && o->acc_seq != p->acc_applied) {
    /* an earlier accumulate of this origin is still on its way: keep issue order */
    list_node *it = p->acc_held.next;
    while (it != &p->acc_held && list_entry(it, rma_op, link)->acc_seq < o->acc_seq)
      it = it->next;
    list_insert_before(it, &o->link);
    return;
  }
  op_execute(o);
  if (ordered)
    p->acc_applied++;
  op_landed_done(o);
  while (!list_empty(&p->acc_held)) {
    rma_op *n = list_entry(list_first(&p->acc_held), rma_op, link);
    if (n->acc_seq != p->acc_applied)
      break;
    list_remove(&n->link);
    op_execute(n);
    p->acc_applied++;
    op_landed_done(n);
  }
}

static void op_arrive(void *data) { op_land(data); }

/* Starts o (filled by the caller) from the calling rank. */
static void op_issue(smpi_win *ow, rma_op *o)
{
  p2p_ensure_init();
  o->pair = pair_of(ow->sh, o->origin, o->target);
  rma_pair *p = o->pair;
  if (o->kind == RMA_OP_ACC || o->kind == RMA_OP_GACC || o->kind == RMA_OP_CAS)
    o->acc_seq = p->acc_issued++;
  ow->outstanding++;
  ow->local_outstanding++;
  ow->issued++;
  p->inflight++;
  p->pending++;
  p->local_pending++;
  if ((o->kind == RMA_OP_PUT || o->kind == RMA_OP_ACC) && o->origin != o->target) {
    p->need_ack = true;
    if (!p->dirty_listed) {
      p->dirty_listed = true;
      XGROW(ow->dirty, ow->cap_dirty, ow->ndirty + 1);
      ow->dirty[ow->ndirty++] = o->target;
    }
  }
  if (o->origin == o->target) {
    op_land(o);
    return;
  }
  if (o->bytes > 0 &&
      (o->kind == RMA_OP_PUT || o->kind == RMA_OP_ACC || o->kind == RMA_OP_GACC)) {
    /* the sender's overhead of the data message, as for a detached send in SimGrid */
    smpi_sleep_now(fac_overhead(&p2p.os, (double)o->bytes));
  }
  send_flow(o->origin_world, o->target_world, o->bytes, op_arrive, o);
  /* data below smpi/send-is-detached-thresh was copied: the origin buffer is free at once,
   * as for a detached send; above, it is free when the data has left (landed) */
  if ((o->kind == RMA_OP_PUT || o->kind == RMA_OP_ACC) && (long)o->bytes < p2p.detached_thresh)
    op_local_complete(o);
}

/* ---- communication calls ---- */

static bool in_group(const smpi_group *g, const smpi_win *w, int target)
{
  return g && smpi_group_rank_of(g, smpi_comm_local_world_rank(w->c, target)) != MPI_UNDEFINED;
}

/* The access epoch allows an operation to target: MPI_SUCCESS or MPI_ERR_RMA_SYNC. */
static int check_epoch(smpi_win *w, int target, bool request_based)
{
  switch (w->access) {
  case RMA_ACC_NONE:
    return MPI_ERR_RMA_SYNC;
  case RMA_ACC_FENCE_READY:
  case RMA_ACC_FENCE:
    if (request_based)
      return MPI_ERR_RMA_SYNC;
    w->access = RMA_ACC_FENCE;
    return MPI_SUCCESS;
  case RMA_ACC_START:
    if (request_based)
      return MPI_ERR_RMA_SYNC;
    return in_group(w->start_group, w, target) ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
  case RMA_ACC_LOCK:
    return pair_of(w->sh, w->rank, target)->lock ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
  case RMA_ACC_LOCK_ALL:
    return MPI_SUCCESS;
  }
  return MPI_ERR_RMA_SYNC;
}

/* Byte range [lo, hi) that count elements of dt touch, relative to the buffer address. */
static void span_of(const smpi_dt *dt, size_t count, MPI_Aint *lo, MPI_Aint *hi)
{
  if (count == 0 || smpi_dt_size(dt) == 0) {
    *lo = *hi = 0;
    return;
  }
  MPI_Aint ext = smpi_dt_extent(dt), tlb = smpi_dt_true_lb(dt), text = smpi_dt_true_extent(dt);
  MPI_Aint last = (MPI_Aint)(count - 1) * ext;
  MPI_Aint a = tlb, b = tlb + text;
  if (last < 0)
    a += last;
  else
    b += last;
  *lo = a;
  *hi = b;
}

/* The assertions t gave for the fence epoch numbered seq (0 when t is not in it yet). */
static int fence_assert_of(const smpi_win *t, unsigned long seq)
{
  if (t->fence_seq == seq)
    return t->fence_assert;
  if (t->fence_seq == seq + 1)
    return t->fence_assert_prev;
  return 0;
}

int smpi_rma_issue(smpi_win *w, const smpi_rma_args *a, const char *fname)
{
  bool has_origin = a->kind != RMA_OP_GET;
  bool has_result = a->kind == RMA_OP_GET || a->kind == RMA_OP_GACC || a->kind == RMA_OP_CAS;
  if (a->target == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (check_epoch(w, a->target, a->request != NULL) != MPI_SUCCESS)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no access epoch to rank %d%s", a->target,
                           a->request ? " (request-based operations need a passive-target epoch)"
                                      : "");
  smpi_win *t = w->sh->members[a->target];
  ASSERT(t);
  if ((a->kind == RMA_OP_PUT || a->kind == RMA_OP_ACC || a->kind == RMA_OP_GACC) &&
      ((t->posted && (t->post_assert & MPI_MODE_NOPUT) && w->access == RMA_ACC_START) ||
       (w->access == RMA_ACC_FENCE && (fence_assert_of(t, w->fence_seq) & MPI_MODE_NOPUT))) &&
      !(a->kind == RMA_OP_GACC && a->op == MPI_NO_OP))
    return smpi_win_errorf(w, MPI_ERR_RMA_CONFLICT, fname,
                           "rank %d exposed its window with MPI_MODE_NOPUT", a->target);
  MPI_Aint lo, hi;
  span_of(a->tdt, a->tcount, &lo, &hi);
  int err;
  char *taddr = smpi_win_target_addr(t, a->disp, lo, hi, &err);
  if (!taddr && err != MPI_SUCCESS)
    return smpi_win_errorf(w, err, fname,
                           "target_disp %ld: bytes [%ld, %ld) outside rank %d's window",
                           (long)a->disp, (long)lo, (long)hi, a->target);

  rma_op *o = xcalloc(1, sizeof *o);
  o->kind = a->kind;
  o->sh = w->sh;
  o->origin = w->rank;
  o->target = a->target;
  o->origin_world = w->world;
  o->target_world = t->world;
  o->taddr = taddr;
  o->tcount = a->tcount;
  o->tdt = a->tdt;
  smpi_dt_ref(a->tdt);
  o->tbytes = o->tcount * smpi_dt_size(a->tdt);
  o->oph = a->op;
  o->basic = a->basic;
  if (a->op_obj) {
    o->op = a->op_obj;
    smpi_op_ref(a->op_obj);
  }
  if (has_origin && a->kind != RMA_OP_CAS && !(a->kind == RMA_OP_GACC && a->op == MPI_NO_OP)) {
    o->bytes = a->ocount * smpi_dt_size(a->odt);
    o->data = xmalloc(o->bytes ? o->bytes : 1);
    smpi_dt_pack(a->oaddr, a->ocount, a->odt, o->data);
  } else if (a->kind == RMA_OP_CAS) {
    size_t esz = smpi_dt_size(a->odt);
    o->bytes = 2 * esz;
    o->data = xmalloc(o->bytes);
    memcpy(o->data, a->oaddr, esz);
    memcpy(o->data + esz, a->caddr, esz);
    smpi_copy_note(2 * esz);
  }
  if (has_result) {
    o->raddr = a->raddr;
    o->rcount = a->rcount;
    o->rdt = a->rdt;
    smpi_dt_ref(a->rdt);
  }
  if (a->request) {
    smpi_req *r = p2p_req_new(REQ_SEND, NULL, 0, NULL, MPI_PROC_NULL, 0, w->c, 0, fname);
    r->active = true;
    r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
    *a->request = r->handle;
    o->req = r;
  }
  op_issue(w, o);
  return MPI_SUCCESS;
}

/* ---- synchronisation ---- */

/* the fence's barrier, inside the user's MPI_Win_fence (internal entry point) */
static void rma_barrier(const smpi_win *w) { coll_mpi_barrier(w->comm, "MPI_Barrier"); }

static bool cond_no_outstanding(smpi_win *w, void *arg)
{
  (void)arg;
  return w->outstanding == 0;
}

static bool cond_pair_pending_zero(smpi_win *w, void *arg)
{
  return pair_of(w->sh, w->rank, *(int *)arg)->pending == 0;
}

static bool cond_no_local_outstanding(smpi_win *w, void *arg)
{
  (void)arg;
  return w->local_outstanding == 0;
}

static bool cond_pair_local_zero(smpi_win *w, void *arg)
{
  return pair_of(w->sh, w->rank, *(int *)arg)->local_pending == 0;
}

int smpi_rma_can_free(const smpi_win *w)
{
  if (w->access == RMA_ACC_START || w->access == RMA_ACC_LOCK || w->access == RMA_ACC_LOCK_ALL ||
      w->access == RMA_ACC_FENCE || w->posted)
    return MPI_ERR_RMA_SYNC;
  return MPI_SUCCESS;
}

int smpi_rma_fence(smpi_win *w, int assert, const char *fname)
{
  if (w->access != RMA_ACC_NONE && w->access != RMA_ACC_FENCE_READY && w->access != RMA_ACC_FENCE)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "another access epoch is open");
  if (w->posted)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname,
                           "an exposure epoch of MPI_Win_post is open");
  if ((assert &MPI_MODE_NOPRECEDE) && w->access == RMA_ACC_FENCE && w->issued > 0)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "MPI_MODE_NOPRECEDE after %lu operations",
                           w->issued);
  /* the assertions of the epoch this fence opens, known to the others past the barrier */
  w->fence_seq++;
  w->fence_assert_prev = w->fence_assert;
  w->fence_assert = (assert &MPI_MODE_NOSUCCEED) ? 0 : assert;
  if (!(assert &MPI_MODE_NOPRECEDE)) {
    smpi_rma_wait_until(w, cond_no_outstanding, NULL, "MPI_Win_fence");
    rma_barrier(w);
  }
  w->issued = 0;
  w->access = (assert &MPI_MODE_NOSUCCEED) ? RMA_ACC_NONE : RMA_ACC_FENCE_READY;
  return MPI_SUCCESS;
}

/* The window ranks of a group's members; MPI_ERR_RANK (*bad set) when one is not a member. */
static int group_targets(smpi_win *w, smpi_group *g, int **out, int *n)
{
  *n = g->size;
  *out = xmalloc((size_t)(g->size ? g->size : 1) * sizeof **out);
  for (int i = 0; i < g->size; i++) {
    int r = smpi_comm_rank_of_world(w->c, smpi_group_world_of(g, i));
    if (r == MPI_UNDEFINED) {
      free(*out);
      *out = NULL;
      return MPI_ERR_RANK;
    }
    (*out)[i] = r;
  }
  return MPI_SUCCESS;
}

int smpi_rma_post(smpi_win *w, smpi_group *g, int assert, const char *fname)
{
  if (w->posted)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname,
                           "MPI_Win_post while an exposure epoch is open");
  if (w->access == RMA_ACC_FENCE)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "a fence epoch is open");
  int *ranks, n;
  if (group_targets(w, g, &ranks, &n) != MPI_SUCCESS)
    return smpi_win_errorf(w, MPI_ERR_RANK, fname, "the group has a rank outside the window");
  if (w->access == RMA_ACC_FENCE_READY)
    w->access = RMA_ACC_NONE;
  w->posted = true;
  w->post_group = smpi_group_ref(g);
  w->post_assert = assert;
  if (!(assert &MPI_MODE_NOCHECK))
    for (int i = 0; i < n; i++)
      ctl_send(w->sh, CTL_POST, w->rank, ranks[i], 0);
  free(ranks);
  return MPI_SUCCESS;
}

typedef struct targets_arg {
  int *ranks;
  int n;
} targets_arg;

static bool cond_all_posted(smpi_win *w, void *arg)
{
  targets_arg *t = arg;
  for (int i = 0; i < t->n; i++)
    if (pair_of(w->sh, w->rank, t->ranks[i])->posts == 0)
      return false;
  return true;
}

int smpi_rma_start(smpi_win *w, smpi_group *g, int assert, const char *fname)
{
  if (w->access != RMA_ACC_NONE && w->access != RMA_ACC_FENCE_READY)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "another access epoch is open");
  targets_arg t;
  if (group_targets(w, g, &t.ranks, &t.n) != MPI_SUCCESS)
    return smpi_win_errorf(w, MPI_ERR_RANK, fname, "the group has a rank outside the window");
  w->access = RMA_ACC_START;
  w->start_group = smpi_group_ref(g);
  if (!(assert &MPI_MODE_NOCHECK)) {
    smpi_rma_wait_until(w, cond_all_posted, &t, "MPI_Win_start (waiting for MPI_Win_post)");
    for (int i = 0; i < t.n; i++)
      pair_of(w->sh, w->rank, t.ranks[i])->posts--;
  }
  free(t.ranks);
  return MPI_SUCCESS;
}

int smpi_rma_complete(smpi_win *w, const char *fname)
{
  if (w->access != RMA_ACC_START)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no MPI_Win_start epoch");
  int *ranks, n;
  int rc = group_targets(w, w->start_group, &ranks, &n);
  ASSERT(rc == MPI_SUCCESS);
  for (int i = 0; i < n; i++)
    ctl_send(w->sh, CTL_COMPLETE, w->rank, ranks[i], 0);
  free(ranks);
  smpi_rma_wait_until(w, cond_no_local_outstanding, NULL, "MPI_Win_complete");
  smpi_group_unref(w->start_group);
  w->start_group = NULL;
  w->access = RMA_ACC_NONE;
  return MPI_SUCCESS;
}

static bool cond_completed(smpi_win *w, void *arg)
{
  (void)arg;
  return w->completes >= w->post_group->size;
}

static void end_exposure(smpi_win *w)
{
  w->completes -= w->post_group->size;
  smpi_group_unref(w->post_group);
  w->post_group = NULL;
  w->posted = false;
  w->post_assert = 0;
}

int smpi_rma_wait(smpi_win *w, const char *fname)
{
  if (!w->posted)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no MPI_Win_post epoch");
  smpi_rma_wait_until(w, cond_completed, NULL, "MPI_Win_wait (waiting for MPI_Win_complete)");
  end_exposure(w);
  return MPI_SUCCESS;
}

int smpi_rma_test(smpi_win *w, int *flag, const char *fname)
{
  if (!w->posted)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no MPI_Win_post epoch");
  /* a polling call costs what MPI_Test costs, growing while it fails (smpi/test,
   * smpi/grow-injected-times) */
  p2p_test_inject();
  *flag = cond_completed(w, NULL);
  p2p_test_outcome(*flag);
  if (*flag)
    end_exposure(w);
  return MPI_SUCCESS;
}

static bool cond_granted(smpi_win *w, void *arg)
{
  return pair_of(w->sh, w->rank, *(int *)arg)->granted;
}

static bool cond_acked(smpi_win *w, void *arg)
{
  rma_pair *p = pair_of(w->sh, w->rank, *(int *)arg);
  return p->ack && p->pending == 0;
}

int smpi_rma_lock(smpi_win *w, int lock_type, int rank, int assert, const char *fname)
{
  if (w->access != RMA_ACC_NONE && w->access != RMA_ACC_FENCE_READY && w->access != RMA_ACC_LOCK)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "another access epoch is open");
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  rma_pair *p = pair_of(w->sh, w->rank, rank);
  if (p->lock)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "rank %d is locked already", rank);
  w->access = RMA_ACC_LOCK;
  w->locks_held++;
  p->lock = lock_type;
  p->lock_nocheck = (assert &MPI_MODE_NOCHECK) != 0;
  p->granted = false;
  if (!p->lock_nocheck) {
    ctl_send(w->sh, CTL_LOCK, w->rank, rank, lock_type);
    smpi_rma_wait_until(w, cond_granted, &rank, "MPI_Win_lock (waiting for the lock)");
  }
  return MPI_SUCCESS;
}

/* Remote completion of the origin's operations to target: a flush (or unlock) round trip
 * when a Put/Accumulate needs it, else the replies the pending gets wait for. */
static void flush_target(smpi_win *w, int target, bool unlock, int lock_type)
{
  rma_pair *p = pair_of(w->sh, w->rank, target);
  if (unlock || p->need_ack) {
    p->ack = false;
    ctl_send(w->sh, unlock ? CTL_UNLOCK : CTL_FLUSH, w->rank, target, lock_type);
    smpi_rma_wait_until(w, cond_acked, &target, unlock ? "MPI_Win_unlock" : "MPI_Win_flush");
    p->need_ack = false;
  } else {
    smpi_rma_wait_until(w, cond_pair_pending_zero, &target, "MPI_Win_flush");
  }
}

int smpi_rma_unlock(smpi_win *w, int rank, const char *fname)
{
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  rma_pair *p = pair_of(w->sh, w->rank, rank);
  if (w->access != RMA_ACC_LOCK || !p->lock)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "rank %d is not locked", rank);
  if (p->lock_nocheck)
    flush_target(w, rank, false, 0);
  else
    flush_target(w, rank, true, p->lock);
  p->lock = 0;
  p->granted = false;
  if (--w->locks_held == 0)
    w->access = RMA_ACC_NONE;
  return MPI_SUCCESS;
}

static bool cond_lock_all(smpi_win *w, void *arg)
{
  (void)w;
  return ((rma_allreq *)arg)->granted;
}

int smpi_rma_lock_all(smpi_win *w, int assert, const char *fname)
{
  if (w->access != RMA_ACC_NONE && w->access != RMA_ACC_FENCE_READY)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "another access epoch is open");
  w->access = RMA_ACC_LOCK_ALL;
  w->lock_all_nocheck = (assert &MPI_MODE_NOCHECK) != 0;
  if (w->lock_all_nocheck)
    return MPI_SUCCESS;
  smpi_win_shared *sh = w->sh;
  if (sh->excl_held == 0) {
    sh->lock_all_held++;
  } else {
    rma_allreq q = {.w = w};
    list_push_back(&sh->lock_all_queue, &q.link);
    smpi_rma_wait_until(w, cond_lock_all, &q, "MPI_Win_lock_all (waiting for exclusive locks)");
  }
  return MPI_SUCCESS;
}

/* Flushes every target with unacknowledged operations, all round trips at once. */
static bool cond_all_acked(smpi_win *w, void *arg)
{
  targets_arg *t = arg;
  for (int i = 0; i < t->n; i++)
    if (!pair_of(w->sh, w->rank, t->ranks[i])->ack)
      return false;
  return w->outstanding == 0;
}

static void flush_all(smpi_win *w, const char *what)
{
  targets_arg t = {.ranks = w->dirty, .n = 0};
  for (size_t i = 0; i < w->ndirty; i++) {
    rma_pair *p = pair_of(w->sh, w->rank, w->dirty[i]);
    p->dirty_listed = false;
    if (p->need_ack) {
      p->ack = false;
      w->dirty[t.n++] = w->dirty[i];
      ctl_send(w->sh, CTL_FLUSH, w->rank, w->dirty[i], 0);
    }
  }
  smpi_rma_wait_until(w, cond_all_acked, &t, what);
  for (int i = 0; i < t.n; i++)
    pair_of(w->sh, w->rank, t.ranks[i])->need_ack = false;
  w->ndirty = 0;
}

int smpi_rma_unlock_all(smpi_win *w, const char *fname)
{
  if (w->access != RMA_ACC_LOCK_ALL)
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no MPI_Win_lock_all epoch");
  flush_all(w, "MPI_Win_unlock_all");
  w->access = RMA_ACC_NONE;
  if (!w->lock_all_nocheck) {
    w->sh->lock_all_held--;
    after_release(w->sh);
  }
  return MPI_SUCCESS;
}

static bool passive(const smpi_win *w)
{
  return w->access == RMA_ACC_LOCK || w->access == RMA_ACC_LOCK_ALL;
}

int smpi_rma_flush(smpi_win *w, int rank, const char *fname)
{
  if (!passive(w) || (w->access == RMA_ACC_LOCK && rank != MPI_PROC_NULL &&
                      !pair_of(w->sh, w->rank, rank)->lock))
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no passive-target epoch to rank %d",
                           rank);
  if (rank != MPI_PROC_NULL)
    flush_target(w, rank, false, 0);
  return MPI_SUCCESS;
}

int smpi_rma_flush_all(smpi_win *w, const char *fname)
{
  if (!passive(w))
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no passive-target epoch");
  flush_all(w, "MPI_Win_flush_all");
  return MPI_SUCCESS;
}

int smpi_rma_flush_local(smpi_win *w, int rank, const char *fname)
{
  if (!passive(w) || (w->access == RMA_ACC_LOCK && rank != MPI_PROC_NULL &&
                      !pair_of(w->sh, w->rank, rank)->lock))
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no passive-target epoch to rank %d",
                           rank);
  if (rank != MPI_PROC_NULL)
    smpi_rma_wait_until(w, cond_pair_local_zero, &rank, "MPI_Win_flush_local");
  return MPI_SUCCESS;
}

int smpi_rma_flush_local_all(smpi_win *w, const char *fname)
{
  if (!passive(w))
    return smpi_win_errorf(w, MPI_ERR_RMA_SYNC, fname, "no passive-target epoch");
  smpi_rma_wait_until(w, cond_no_local_outstanding, NULL, "MPI_Win_flush_local_all");
  return MPI_SUCCESS;
}
