/* Requests and the SMPI protocol: posting, matching, transfers, data movement, completion
 * and the waits, with SimGrid 3.32's timing (see p2p.h and p2p_private.h for the picture).
 *
 * Timeline of a detached MPI_Send (size < smpi/send-is-detached-thresh) and its MPI_Recv:
 *
 *   sender:    [pack][sleep os(s)] post -> returns
 *   receiver:          MPI_Recv posted ---- match: transfer of s+16 B ---- done [sleep or(s)]
 *
 * and of a rendezvous one: the sender posts without overhead and blocks; the transfer
 * starts when both are there; both complete when it ends; nobody pays or.
 *
 * Everything a rank waits for goes through one p2p_waiter on its stack: requests point to
 * it, a completion queues itself on the waiter and unblocks the rank if it is blocked, once.
 * Completions run in the maestro (end of a transfer) or in the rank that caused them
 * (matching an arrived eager message, cancel), never by scanning anything. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/context.h"
#include "kernel/cpu.h"
#include "kernel/factors.h"
#include "kernel/network.h"
#include "smpi/mpi/check.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/emulation/privatize.h"
#include "smpi/runtime/copies.h"
#include "smpi/runtime/observer.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(smpi_p2p, smpi, "MPI point-to-point: requests, matching, protocol");
LOG_DEFAULT_CATEGORY(smpi_p2p);

p2p_state p2p;

/* ---- configuration ---- */

static const cfg_key p2p_keys[] = {
    CFG_KEY_DOUBLE("smpi/test", 1e-4, "Simulated time injected by each MPI_Test call (s)"),
    CFG_KEY_DOUBLE("smpi/iprobe", 1e-4, "Simulated time injected by each MPI_Iprobe call (s)"),
    CFG_KEY_UINT("smpi/async-small-thresh", 0,
                 "Messages up to this size (bytes) are sent eagerly, without waiting for the "
                 "receiver"),
    CFG_KEY_UINT("smpi/send-is-detached-thresh", 65536,
                 "Messages below this size (bytes) are detached: MPI_Send returns once the data "
                 "is copied; from this size on, it waits for the transfer (rendezvous)"),
    CFG_KEY_STRING("smpi/os", "0:0:0", NULL,
                   "Send overhead of MPI_Send: 'size:start:per_byte;...' (seconds)"),
    CFG_KEY_STRING("smpi/ois", "0:0:0", NULL,
                   "Send overhead of MPI_Isend: 'size:start:per_byte;...' (seconds)"),
    CFG_KEY_STRING("smpi/or", "0:0:0", NULL,
                   "Receive overhead: 'size:start:per_byte;...' (seconds)"),
    CFG_KEY_BOOL("smpi/grow-injected-times", true,
                 "Each unsuccessful MPI_Test/MPI_Iprobe in a row injects one more multiple of "
                 "smpi/test resp. smpi/iprobe (polling loops advance faster)"),
    CFG_KEY_STRING("smpi/iprobe-counter", "shared", "shared|per-rank",
                   "Whose failed MPI_Iprobe calls in a row grow the injected smpi/iprobe time "
                   "(smpi/grow-injected-times): one counter for the whole job, as SimGrid, or "
                   "one per rank (then a rank's cost does not depend on the others' polling)"),
    CFG_KEY_DOUBLE("smpi/iprobe-cpu-usage", 1.0,
                   "Share of the host's CPU an MPI_Iprobe uses while it injects smpi/iprobe"),
};

void smpi_p2p_declare_config(void) { cfg_declare_keys(p2p_keys, CFG_NKEYS(p2p_keys)); }

int smpi_p2p_init(char *err, size_t errlen)
{
  static const char *const keys[3] = {"smpi/os", "smpi/or", "smpi/ois"};
  fac_func *dst[3] = {&p2p.os, &p2p.or_, &p2p.ois};
  smpi_p2p_declare_config();
  for (int i = 0; i < 3; i++) {
    fac_free(dst[i]);
    if (fac_parse_overhead(keys[i], cfg_get_string(keys[i]), dst[i], err, errlen) != 0)
      return -1;
  }
  p2p.detached_thresh = cfg_get_int("smpi/send-is-detached-thresh");
  p2p.async_thresh = cfg_get_int("smpi/async-small-thresh");
  p2p.test_cost = cfg_get_double("smpi/test");
  p2p.iprobe_cost = cfg_get_double("smpi/iprobe");
  p2p.grow = cfg_get_bool("smpi/grow-injected-times");
  p2p.iprobe_usage = cfg_get_double("smpi/iprobe-cpu-usage");
  p2p.iprobe_per_rank = strcmp(cfg_get_string("smpi/iprobe-counter"), "per-rank") == 0;
  if (p2p.test_cost < 0 || p2p.iprobe_cost < 0) {
    snprintf(err, errlen, "%s must be >= 0", p2p.test_cost < 0 ? "smpi/test" : "smpi/iprobe");
    return -1;
  }
  if (!(p2p.iprobe_usage > 0 && p2p.iprobe_usage <= 1)) {
    snprintf(err, errlen, "smpi/iprobe-cpu-usage must be in (0, 1], not %g", p2p.iprobe_usage);
    return -1;
  }
  p2p.test_n = p2p.testany_n = p2p.iprobe_n = 1;
  for (int i = 0; i < 3; i++)
    p2p.ovh_bytes[i] = -1;
  p2p.ready = true;
  return 0;
}

/* smpi/os (which 0), smpi/ois (1) or smpi/or (2) for a message of bytes */
static double overhead(int which, double bytes)
{
  if (bytes != p2p.ovh_bytes[which]) {
    const fac_func *f = which == 0 ? &p2p.os : which == 1 ? &p2p.ois : &p2p.or_;
    p2p.ovh_cost[which] = fac_overhead(f, bytes);
    p2p.ovh_bytes[which] = bytes;
  }
  return p2p.ovh_cost[which];
}

void p2p_ensure_init(void)
{
  if (p2p.ready)
    return;
  char err[512];
  if (smpi_p2p_init(err, sizeof err) != 0) {
    fprintf(stderr, "smpi: %s\n", err);
    smpi_abort_job(1);
  }
}

/* ---- per-rank state ---- */

p2p_rank *p2p_rank_of(int world)
{
  if (__builtin_expect(world >= 0 && world < p2p.nranks && p2p.ranks[world], 1))
    return p2p.ranks[world];
  ASSERTF(world >= 0, "bad world rank %d", world);
  if (world >= p2p.nranks) {
    /* an array of pointers: growing it never moves a rank's list heads */
    int n = p2p.nranks ? p2p.nranks : 16;
    while (n <= world)
      n *= 2;
    if (n < smpi_w.np)
      n = smpi_w.np;
    p2p.ranks = xrealloc(p2p.ranks, (size_t)n * sizeof *p2p.ranks);
    memset(p2p.ranks + p2p.nranks, 0, (size_t)(n - p2p.nranks) * sizeof *p2p.ranks);
    p2p.nranks = n;
  }
  p2p_rank *rk = p2p.ranks[world];
  if (!rk) {
    rk = p2p.ranks[world] = xcalloc(1, sizeof *rk);
    list_init(&rk->lent);
  }
  return rk;
}

int p2p_my_world_rank(void)
{
  smpi_rank *me = smpi_self();
  ASSERTF(me, "point-to-point call outside of any rank");
  return me->rank;
}

void smpi_p2p_set_activity(const char *what) { smpi_p2p_set_activity_root(what, -1); }

void smpi_p2p_set_activity_root(const char *what, int root)
{
  p2p_rank *r = p2p_rank_of(p2p_my_world_rank());
  r->activity = what;
  r->activity_root = root;
}

/* ---- objects ---- */

static void defer_free_action(act_action *a)
{
  XGROW(p2p.dead, p2p.dead_cap, p2p.dead_count + 1);
  p2p.dead[p2p.dead_count++] = a;
}

/* Actions end in their model's callbacks, where they may not be freed: free them later. */
static void flush_dead_actions(void)
{
  for (size_t i = 0; i < p2p.dead_count; i++)
    act_action_free(p2p.dead[i]);
  p2p.dead_count = 0;
}

static smpi_req *req_alloc(void)
{
  smpi_req *r = p2p.free_reqs;
  if (r)
    p2p.free_reqs = r->free_next, p2p.free_req_count--;
  else
    r = xmalloc(sizeof *r);
  /* all zero: status included (qlink shares its bytes and is only set when queued), for
   * requests that complete without p2p_req_start (smpi/io/file.c's) */
  mem_zero(r, sizeof *r);
  r->handle = MPI_REQUEST_NULL;
  p2p.stats.live_requests++;
  return r;
}

smpi_req *p2p_req_new(req_kind kind, void *buf, size_t count, const smpi_dt *dt, int peer,
                      int tag, smpi_comm *c, unsigned flags, const char *call)
{
  if (__builtin_expect(!p2p.ready, 0))
    p2p_ensure_init();
  smpi_req *r = req_alloc();
  r->kind = (uint8_t)kind;
  r->mode = MODE_STANDARD;
  r->blocking = (flags & SMPI_P2P_BLOCKING) != 0;
  if (flags & SMPI_P2P_SYNC)
    r->mode = MODE_SYNC;
  r->coll = (flags & SMPI_P2P_COLL) != 0;
  r->scratch = (flags & SMPI_P2P_SCRATCH) != 0;
  r->owner = p2p_my_world_rank();
  r->buf = buf;
  r->count = count;
  r->dt = dt;
  if (dt) /* MPI_Type_free may come before the operation completes */
    smpi_dt_ref((smpi_dt *)dt);
  r->bytes = count && dt ? count * smpi_dt_size(dt) : 0;
  r->comm = c;
  smpi_comm_ref(c); /* MPI_Comm_free may come before the operation completes */
  r->ctx = r->coll ? smpi_comm_coll_context(c) : smpi_comm_p2p_context(c);
  r->peer = peer;
  r->peer_world = (kind == REQ_SEND && peer >= 0) ? smpi_comm_world_rank(c, peer) : -1;
  r->tag = tag;
  r->call = call;
  r->site = smpi_check_sites ? smpi_check_sites[r->owner] : NULL; /* smpi_check_site_of */
  return r;
}

void p2p_req_destroy(smpi_req *r)
{
  ASSERTF(!r->active || r->complete, "destroying a request still in progress");
  ASSERT(!r->queued && !r->in_done);
  if (r->msg) {
    /* a detached send whose message is still unmatched: the message lives on alone */
    ASSERT(r->kind == REQ_SEND && r->detached && r->msg->sreq == r);
    p2p_send_settle(r);
    r->msg->sreq = NULL;
    r->msg = NULL;
  }
  if (p2p_req_greq(r))
    p2p_greq_release(r);
  if (r->check_listed) /* ended without a wait or test (MPI_Request_free) */
    smpi_check_req_forget(r);
  if (r->handle != MPI_REQUEST_NULL)
    smpi_handle_free(r->handle);
  smpi_comm_unref(r->comm);
  if (r->dt)
    smpi_dt_unref((smpi_dt *)r->dt);
  p2p.stats.live_requests--;
  if (p2p.free_req_count < P2P_FREE_LIST_MAX) {
    r->free_next = p2p.free_reqs;
    p2p.free_reqs = r;
    p2p.free_req_count++;
  } else {
    free(r);
  }
}

/* small: the message may carry a payload of up to P2P_SMALL_BYTES packed inside it */
static p2p_msg *msg_new(bool small)
{
  p2p_msg **pool = small ? &p2p.free_small_msgs : &p2p.free_msgs;
  p2p_msg *m = *pool;
  if (m) {
    *pool = m->free_next;
    if (small)
      p2p.free_small_msg_count--;
    else
      p2p.free_msg_count--;
    mem_zero(m, sizeof *m);
  } else {
    m = xcalloc(1, sizeof *m + (small ? P2P_SMALL_BYTES : 0));
  }
  m->has_small = small;
  list_init(&m->slink);
  list_init(&m->alink);
  p2p.stats.live_messages++;
  return m;
}

/* A buffered message has left the sender's attached buffer: its transfer started (the
 * network took the bytes, as a real MPI's send from the buffer completes: at once when eager,
 * when the receiver matched it otherwise), or it died unsent. MPI_Buffer_detach waits for
 * this. */
static void bsend_release(p2p_msg *m)
{
  m->buffered = false;
  p2p_rank *rk = p2p_rank_of(m->src_world);
  if (rk->bsend_gen != m->bsend_gen)
    return;
  ASSERT(rk->bsend_used >= m->bytes + MPI_BSEND_OVERHEAD);
  rk->bsend_used -= m->bytes + MPI_BSEND_OVERHEAD;
  if (rk->bsend_used == 0 && rk->detach_actor) {
    eng_actor *a = rk->detach_actor;
    rk->detach_actor = NULL;
    eng_unblock(a);
  }
}

static p2p_lend *lend_new(p2p_msg *m)
{
  p2p_lend *l = p2p.free_lends;
  if (l)
    p2p.free_lends = l->free_next;
  else
    l = xmalloc(sizeof *l);
  *l = (p2p_lend){.m = m};
  return l;
}

/* m stops being lent: the p2p_waitall that held it forgets it, its owner's list too; the
 * lend goes back to its pool, and what it said is returned */
static p2p_lend lend_end(p2p_msg *m)
{
  ASSERT(m->lent && m->lend->m == m);
  p2p_lend *l = m->lend, was = *l;
  if (l->held)
    *l->held = NULL;
  list_remove(&l->link);
  l->free_next = p2p.free_lends;
  p2p.free_lends = l;
  m->lent = false;
  m->data = NULL;
  return was;
}

/* the payload packed in m, if any, and not in m itself */
static void free_data(p2p_msg *m)
{
  if (!(m->has_small && m->data == m->small))
    free(m->data);
}

void p2p_msg_destroy(p2p_msg *m)
{
  ASSERT(!m->queued && !m->action);
  SMPI_OBSERVE(msg_drop, m);
  p2p_msg_unlist(m);
  if (m->buffered) /* never sent: cancelled, or withdrawn at MPI_Finalize */
    bsend_release(m);
  if (m->lent)
    lend_end(m);
  else
    free_data(m);
  if (m->comm)
    smpi_comm_unref(m->comm);
  p2p.stats.live_messages--;
  size_t *count = m->has_small ? &p2p.free_small_msg_count : &p2p.free_msg_count;
  if (*count < P2P_FREE_LIST_MAX) {
    p2p_msg **pool = m->has_small ? &p2p.free_small_msgs : &p2p.free_msgs;
    m->free_next = *pool;
    *pool = m;
    ++*count;
  } else {
    free(m);
  }
}

void p2p_msg_unlist(p2p_msg *m)
{
  if (m->rdv_listed) {
    m->rdv_listed = false;
    p2p_rank *rk = p2p_rank_of(m->src_world);
    ASSERT(rk->rdv_unmatched > 0);
    rk->rdv_unmatched--;
  }
}

/* ---- completion ---- */

static void done_push(p2p_waiter *w, smpi_req *r)
{
  ASSERT(!r->in_done);
  r->in_done = true;
  r->wnext = NULL;
  *w->done_tail = r;
  w->done_tail = &r->wnext;
}

static void waiter_signal(p2p_waiter *w, smpi_req *r)
{
  done_push(w, r);
  if (w->blocked) {
    w->blocked = false;
    eng_unblock(w->actor);
  }
}

void p2p_complete(smpi_req *r)
{
  ASSERT(r->active && !r->complete);
  r->complete = true;
  if (r->user_freed) {
    r->active = false;
    p2p_req_destroy(r);
    return;
  }
  if (r->waiter)
    waiter_signal(r->waiter, r);
}

/* Both ends of a synchronous transfer complete together: wake whoever blocked first first,
 * so that ranks resume in a deterministic order that does not depend on who sent. */
static void complete_pair(smpi_req *a, smpi_req *b)
{
  unsigned long sa = a->waiter && a->waiter->blocked ? a->waiter->block_seq : ~0ul;
  unsigned long sb = b->waiter && b->waiter->blocked ? b->waiter->block_seq : ~0ul;
  if (sb < sa) {
    smpi_req *t = a;
    a = b;
    b = t;
  }
  p2p_complete(a);
  p2p_complete(b);
}

/* smpi/display-timing: the pages of receive rr's buffer that the copy of n bytes about to
 * land there touches first (smpi_dt_first_touch); a collective's scratch is ours */
static inline void first_touch(const smpi_req *rr, void *rbuf, size_t n)
{
  if (__builtin_expect(smpi_copies.watch, 0) && !rr->scratch)
    smpi_dt_first_touch(rbuf, rr->dt, n);
}

/* the payload of n bytes is in rr's buffer rbuf: a sink consumes it now */
static inline void landed(const smpi_req *rr, void *rbuf, size_t n)
{
  if (__builtin_expect(rr->sink != NULL, 0))
    rr->sink->fn(rr->sink, rbuf, n);
}

/* A payload of count elements of dt at sbuf (as its owner sees it) that lies in folded memory
 * from end to end: nothing meaningful to move (smpi_shared_aware_copy would move no byte), and
 * its receive gets SMPI_STATUS_FOLDED. Contiguous types only: a derived type's gaps may be
 * anywhere. */
static bool payload_folded(const void *sbuf, size_t count, const smpi_dt *dt)
{
  return smpi_dt_is_contiguous(dt) && smpi_dt_all_folded(sbuf, count, dt);
}

/* Transfer over and receive matched: move the data, complete the receive (and the send). */
static void deliver(p2p_msg *m)
{
  SMPI_OBSERVE(msg_deliver, m);
  smpi_req *r = m->rreq;
  ASSERT(r && !m->action);
  size_t n = m->bytes < r->bytes ? m->bytes : r->bytes;
  bool watched = r->check_set; /* smpi/check-buffers */
  if (watched)
    smpi_check_recv_arrives(r, m);
  if (n > 0) {
    /* this runs in the maestro or in another rank: a buffer that is a global variable of
     * the program must be reached through its owner's private copy */
    void *rbuf = smpi_privatize_translate(r->owner, r->buf);
    if (m->folded || m->landed) {
      /* folded: nothing meaningful was sent, the receive buffer keeps its bytes, as a copy
       * from folded memory leaves private bytes (smpi_shared_aware_copy); landed: copied
       * when the send was posted (post_send) */
    } else if (m->data) {
      first_touch(r, rbuf, n);
      p2p.copying = m;
      smpi_dt_unpack(m->data, n, rbuf, r->count, r->dt);
      p2p.copying = NULL;
    } else {
      smpi_req *s = m->sreq;
      ASSERT(s);
      const void *sbuf = smpi_privatize_translate(s->owner, s->buf);
      if (payload_folded(sbuf, s->count, s->dt)) {
        m->folded = true; /* as take_payload decides for eager payloads */
      } else {
        first_touch(r, rbuf, n);
        p2p.copying = m;
        size_t moved = smpi_dt_copy(sbuf, s->count, s->dt, rbuf, r->count, r->dt);
        p2p.copying = NULL;
        ASSERTF(moved == n, "copied %zu bytes instead of %zu", moved, n);
      }
    }
    if (!m->landed)
      landed(r, rbuf, n);
  }
  if (watched)
    smpi_check_recv_filled(r);
  r->status.MPI_SOURCE = m->src;
  r->status.MPI_TAG = m->tag;
  int err = m->bytes > r->bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  /* one compare of two words in the common case: equal signatures */
  if (__builtin_expect(m->sig != smpi_dt_signature(r->dt), 0))
    err = smpi_check_types(m, r, err);
  r->status.MPI_ERROR = err;
  r->status.smpi_count = (long long)n;
  r->status.smpi_cancelled = n > 0 && m->folded ? SMPI_STATUS_FOLDED : 0;
  r->from_detached = m->detached;
  r->msg = NULL;
  smpi_req *s = NULL;
  if (m->sreq) {
    s = m->waits ? m->sreq : NULL;
    m->sreq->msg = NULL;
    m->sreq = NULL;
  }
  p2p_msg_destroy(m);
  if (s) {
    s->status.MPI_ERROR = MPI_SUCCESS;
    complete_pair(s, r);
  } else {
    p2p_complete(r);
  }
}

/* A message whose host or link is down (state profiles, kernel/profiles.c). SimGrid 3.32
 * ends the whole job there (an uncaught NetworkFailureException, or "Actor is gone" for a
 * send to a killed rank), and so do we: MPI without fault tolerance has no way to go on,
 * and returning MPI_ERR_OTHER would only move the abort to the program's error handler. */
static _Noreturn void comm_failed(const p2p_msg *m, const char *why)
{
  char a[128], b[128];
  route_host_name(smpi_w.routes, smpi_w.ranks[m->src_world].host, a, sizeof a);
  route_host_name(smpi_w.routes, smpi_w.ranks[m->dst_world].host, b, sizeof b);
  fprintf(stderr,
          "smpi: communication failure at simulated date %.17g: %s of %zu bytes from rank %d "
          "(host '%s') to rank %d (host '%s'): %s; the job ends, as in SimGrid (a failed "
          "communication aborts an SMPI job)\n",
          eng_now(), m->call ? m->call : "message", m->bytes, m->src_world, a, m->dst_world, b,
          why);
  smpi_abort_job(1);
}

/* Why m cannot start: its receiver was killed, or a host or link of its path is down. */
static _Noreturn void peer_failed(const p2p_msg *m)
{
  char why[512];
  const smpi_rank *d = &smpi_w.ranks[m->dst_world], *s = &smpi_w.ranks[m->src_world];
  if (d->killed || s->killed)
    snprintf(why, sizeof why, "rank %d was killed at %.17g when its host went down",
             d->killed ? m->dst_world : m->src_world, d->killed ? d->killed_at : s->killed_at);
  else if (!net_path_down(s->host, d->host, why, sizeof why))
    ASSERTF(false, "message to rank %d: nothing failed", m->dst_world);
  comm_failed(m, why);
}

static void transfer_done(act_action *a, void *data)
{
  p2p_msg *m = data;
  if (a->state == ACT_FAILED)
    comm_failed(m, net_failure());
  if (a->state != ACT_DONE)
    return; /* cancelled: whoever cancelled it cleans up */
  m->action = NULL;
  defer_free_action(a);
  if (m->rreq)
    deliver(m);
  else
    m->arrived = true; /* eager: the receiver takes it when it posts */
}

static void start_transfer(p2p_msg *m)
{
  /* static, not on the stack: the simulation runs on one thread, only the failure reads it,
   * and 512 bytes between this frame and the model's would spread the deepest frames of the
   * send path over more cache lines of a stack that is cold whenever a rank resumes */
  static char err[512];
  ASSERT(!m->started);
  if (p2p.dead_count)
    flush_dead_actions();
  m->started = true;
  if (m->buffered)
    bsend_release(m);
  p2p.stats.transfers++;
  size_t src = smpi_w.ranks[m->src_world].host, dst = smpi_w.ranks[m->dst_world].host;
  if (smpi_w.ranks[m->dst_world].killed || smpi_w.ranks[m->src_world].killed ||
      net_path_down(src, dst, NULL, 0))
    peer_failed(m);
  m->action = net_comm_start(src, dst, (double)m->bytes + 16.0, transfer_done, m, err,
                             sizeof err);
  if (m->action)
    m->action->tag = m->category;
  if (!m->action) {
    char a[128], b[128];
    route_host_name(smpi_w.routes, src, a, sizeof a);
    route_host_name(smpi_w.routes, dst, b, sizeof b);
    fprintf(stderr,
            "smpi: rank %d cannot send to rank %d: %s (hosts %s -> %s); check the routes of "
            "platform %s\n",
            m->src_world, m->dst_world, err, a, b, smpi_w.platform_name);
    smpi_abort_job(1);
  }
}

/* r's owner is blocked on r, and resumes once this message is delivered: start loading what
 * the delivery and the resumption touch, so that their misses overlap with the rest of the
 * sender's call and the engine's step to the delivery (a 4 096-rank ring's loop: ~30 %
 * faster). The waiter lives in the blocked rank's frames: its address needs no load. */
static void prefetch_resume(const smpi_req *r)
{
  if (r->bytes)
    __builtin_prefetch(r->buf, 1, 3);
  ctx_prefetch_frames(r->waiter);
}

static void land_lent(p2p_msg *m, smpi_req *rr);

static void match(p2p_msg *m, smpi_req *r)
{
  ASSERT(!m->rreq && !r->msg);
  m->rreq = r;
  r->msg = m;
  p2p_msg_unlist(m);
  if (m->lent)
    land_lent(m, r);
  if (m->sreq && !m->waits) {
    /* a matched detached send can no longer be cancelled: forget its request */
    m->sreq->msg = NULL;
    m->sreq = NULL;
  }
  if (r->waiter)
    prefetch_resume(r);
  if (m->arrived)
    deliver(m);
  else if (!m->started)
    start_transfer(m);
}

/* ---- posting ---- */

/* The payload of detached or eager send r, message m, when it is posted. Four ways, so
 * that each byte is copied once where it can be:
 *
 *   receive rr already posted:  sender -> receive buffer, now ("landed"); the receiver may
 *                               not look at its buffer before the receive completes, and
 *                               the transfer's simulated duration is the same
 *   no receive yet, the send    nothing yet ("lent"): the program may not touch its buffer
 *   nonblocking (MPI_Isend, a   before it finishes the request (wait, test); a receive
 *   collective's own sends):    posted meanwhile takes the payload straight from it
 *                               (land_lent), else finishing packs it (p2p_send_settle)
 *   no receive yet, blocking:   sender -> bounce buffer (m->data) -> receiver at delivery
 *   payload folded end to end:  nothing (smpi_shared_aware_copy would move no byte)
 *
 * A sendrecv pair of a pairwise exchange is the lent case: whichever side posts first finds
 * no receive, and its partner's receive comes while it waits for its own.
 * A receive watched by smpi/check-buffers takes the bounce path: its buffer must stay as
 * posted until the simulated arrival, which is when the checker looks. Only the host's CPU
 * time of the copy moves, never a simulated date. */
/* where m's packed payload goes: inside m when it fits */
static void *data_room(p2p_msg *m)
{
  return m->has_small && m->bytes <= P2P_SMALL_BYTES ? m->small : xmalloc(m->bytes);
}

static void pack_payload(smpi_req *r, p2p_msg *m)
{
  const void *sbuf = smpi_privatize_translate(r->owner, r->buf);
  m->data = data_room(m);
  p2p.packing = r;
  smpi_dt_pack(sbuf, r->count, r->dt, m->data);
  p2p.packing = NULL;
}

/* The sender gets its buffer back: copy a still lent payload into the bounce buffer. */
static void pack_lent(p2p_msg *m)
{
  p2p_lend l = lend_end(m);
  const void *sbuf = smpi_privatize_translate(l.owner, l.buf);
  m->data = data_room(m);
  p2p.packing = m->sreq;
  smpi_dt_pack(sbuf, l.count, l.dt, m->data);
  p2p.packing = NULL;
}

/* Lent message m meets its receive rr: straight into rr's buffer (or the bounce buffer for a
 * watched receive), from the sender's buffer, which its owner has not been given back yet. */
static void land_lent(p2p_msg *m, smpi_req *rr)
{
  if (rr->check_set) {
    pack_lent(m);
    return;
  }
  p2p_lend l = lend_end(m);
  if (rr->bytes > 0) {
    const void *sbuf = smpi_privatize_translate(l.owner, l.buf);
    void *rbuf = smpi_privatize_translate(rr->owner, rr->buf);
    first_touch(rr, rbuf, m->bytes < rr->bytes ? m->bytes : rr->bytes);
    p2p.copying = m;
    smpi_dt_copy(sbuf, l.count, l.dt, rbuf, rr->count, rr->dt);
    p2p.copying = NULL;
    landed(rr, rbuf, m->bytes < rr->bytes ? m->bytes : rr->bytes);
  }
  m->landed = true;
}

void p2p_send_settle(smpi_req *r)
{
  p2p_msg *m = r->msg;
  if (m && m->lent && !m->lend->held && m->sreq == r)
    pack_lent(m);
}

static void take_payload(smpi_req *r, p2p_msg *m, smpi_req *rr)
{
  const void *sbuf = smpi_privatize_translate(r->owner, r->buf);
  /* Folded bytes are never moved (smpi_shared_aware_copy): a payload that is folded from
   * end to end would give a copy nobody reads. Skipping it keeps a million outstanding
   * eager messages of folded data (a 1 024-rank linear all-to-all) from allocating and
   * touching a gigabyte of copies. */
  if (payload_folded(sbuf, r->count, r->dt)) {
    m->folded = true;
    return;
  }
  if (rr && !rr->check_set) {
    if (rr->bytes > 0) {
      void *rbuf = smpi_privatize_translate(rr->owner, rr->buf);
      first_touch(rr, rbuf, r->bytes < rr->bytes ? r->bytes : rr->bytes);
      p2p.copying = m;
      smpi_dt_copy(sbuf, r->count, r->dt, rbuf, rr->count, rr->dt);
      p2p.copying = NULL;
      landed(rr, rbuf, r->bytes < rr->bytes ? r->bytes : rr->bytes);
    }
    m->landed = true;
    return;
  }
  if (!r->blocking && r->mode != MODE_BUFFERED) {
    p2p_lend *l = lend_new(m);
    l->buf = r->buf;
    l->count = r->count;
    l->dt = r->dt;
    l->owner = r->owner;
    list_push_back(&p2p_rank_of(r->owner)->lent, &l->link);
    m->lend = l;
    m->lent = true;
    return;
  }
  pack_payload(r, m);
}

static void post_send(smpi_req *r)
{
  if (r->peer == MPI_PROC_NULL) {
    r->status = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
    p2p_complete(r);
    return;
  }
  p2p.stats.messages++;
  bool sync = r->mode == MODE_SYNC;
  bool detached = !sync && (r->mode == MODE_BUFFERED || (long)r->bytes < p2p.detached_thresh);
  bool eager = !sync && (long)r->bytes < p2p.async_thresh;
  /* room for a small payload only where take_payload may pack one */
  p2p_msg *m = msg_new((detached || eager) && r->bytes > 0 && r->bytes <= P2P_SMALL_BYTES);
  m->seq = ++p2p.msg_seq;
  m->ctx = r->ctx;
  m->dst_world = r->peer_world;
  m->src = smpi_comm_rank(r->comm);
  m->src_world = r->owner;
  m->tag = r->tag;
  m->sig = smpi_dt_signature(r->dt);
  m->bytes = r->bytes;
  m->detached = detached;
  m->comm = r->comm;
  smpi_comm_ref(m->comm); /* for reports about it */
  m->call = r->call;
  m->site = r->site;
  if (smpi_w.ranks[m->dst_world].killed ||
      net_path_down(smpi_w.ranks[m->src_world].host, smpi_w.ranks[m->dst_world].host, NULL, 0))
    peer_failed(m); /* SimGrid fails a send to a killed rank when it is posted */
  if (r->mode == MODE_BUFFERED) {
    p2p_rank *rk = p2p_rank_of(r->owner);
    m->buffered = true;
    m->bsend_gen = rk->bsend_gen;
    rk->bsend_used += r->bytes + MPI_BSEND_OVERHEAD; /* room checked by the caller */
  }
  m->category = smpi_w.ranks[m->src_world].trace_category;
  SMPI_OBSERVE(msg_post, m, r->coll);
  double cost = 0;
  if (detached || sync || !r->blocking)
    cost = overhead(r->blocking ? 0 : 1, (double)r->bytes);
  if (cost > 0)
    smpi_sleep_now(cost);

  r->detached = detached;
  r->msg = m;
  m->sreq = r;
  m->waits = !detached;
  smpi_req *rr = mq_arrive(m);
  /* A detached or eager send returns before its transfer ends, and the program may then
   * rewrite its buffer: the payload must be taken now (the sender is still in this call,
   * asleep for its overhead above, so its buffer is as it was at the call). */
  if ((detached || eager) && r->bytes > 0)
    take_payload(r, m, rr);
  if (rr) {
    match(m, rr);
  } else {
    p2p.stats.unexpected++;
    if (smpi_w.ranks[m->dst_world].phase == SMPI_RANK_FINALIZED) /* nobody will receive it */
      LOG_WARN("rank %d sent a message to rank %d after rank %d reached MPI_Finalize: %s, tag "
               "%d, %zu bytes, on %s%s",
               m->src_world, m->dst_world, m->dst_world, m->call ? m->call : "send", m->tag,
               m->bytes, m->comm ? smpi_comm_display_name(m->comm) : "?",
               smpi_check_where(m->site));
    if (!detached) {
      m->rdv_listed = true;
      p2p_rank_of(r->owner)->rdv_unmatched++;
    }
    if (eager)
      start_transfer(m);
    p2p_rank *d = p2p_rank_of(m->dst_world);
    if (d->probe_actor) {
      eng_actor *a = d->probe_actor;
      d->probe_actor = NULL;
      eng_unblock(a);
    }
  }
  if (detached) {
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.smpi_count = (long long)r->bytes;
    p2p_complete(r);
  }
}

static void post_recv(smpi_req *r)
{
  if (r->peer == MPI_PROC_NULL) {
    r->status = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
    p2p_complete(r);
    return;
  }
  r->seq = ++p2p.seq;
  p2p_msg *m = mq_post_recv(r);
  if (m)
    match(m, r);
}

void p2p_req_start(smpi_req *r)
{
  ASSERT(!r->active);
  SMPI_OBSERVE(req_start, r);
  if (r->msg) {
    /* a persistent send restarted while its previous detached message is still unmatched:
     * that message goes on alone (it can no longer be cancelled through r) */
    ASSERT(r->kind == REQ_SEND && r->msg->sreq == r && !r->msg->waits);
    r->msg->sreq = NULL;
    r->msg = NULL;
  }
  r->active = true;
  r->complete = false;
  r->cancelled = false;
  r->from_detached = false;
  r->or_paid = false;
  r->reported = false;
  r->detached = false;
  memset(&r->status, 0, sizeof r->status);
  /* a collective's traffic uses the collective's buffers and its own temporaries */
  if (smpi_check_buffers && !r->coll)
    smpi_check_req_posted(r);
  if (r->kind == REQ_SEND)
    post_send(r);
  else
    post_recv(r);
}

void p2p_recv_matched(smpi_req *r, p2p_msg *m)
{
  ASSERT(r->kind == REQ_RECV && !r->active);
  r->active = true;
  r->seq = ++p2p.seq;
  match(m, r);
}

bool p2p_req_cancel(smpi_req *r)
{
  if (!r->active)
    return false;
  if (r->kind == REQ_RECV) {
    if (!r->queued)
      return false;
    mq_remove_recv(r);
    r->cancelled = true;
    r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE,
                             .MPI_TAG = MPI_ANY_TAG,
                             .smpi_cancelled = SMPI_STATUS_CANCELLED};
    p2p_complete(r);
    return true;
  }
  p2p_msg *m = r->msg;
  if (!m || !m->queued || m->rreq)
    return false;
  mq_remove_msg(m);
  if (m->action) {
    act_action *a = m->action;
    m->action = NULL;
    act_action_cancel(a, ACT_CANCELED);
    defer_free_action(a);
  }
  r->msg = NULL;
  m->sreq = NULL;
  p2p_msg_destroy(m);
  r->cancelled = true;
  r->status.smpi_cancelled = SMPI_STATUS_CANCELLED;
  if (!r->complete)
    p2p_complete(r);
  return true;
}

/* ---- waiting ---- */

static void describe_req(const smpi_req *r, char *buf, size_t len)
{
  char peer[48], tag[32];
  const char *name = r->comm ? smpi_comm_display_name(r->comm) : "?";
  if (r->kind == REQ_COLL) {
    snprintf(buf, len, "%s on %s", r->call ? r->call : "nonblocking collective", name);
    return;
  }
  if (r->kind == REQ_GREQ) {
    snprintf(buf, len, "a generalized request (MPI_Grequest_complete not called yet)");
    return;
  }
  if (r->peer == MPI_ANY_SOURCE)
    snprintf(peer, sizeof peer, "any source");
  else
    snprintf(peer, sizeof peer, "rank %d", r->peer);
  if (r->tag == MPI_ANY_TAG)
    snprintf(tag, sizeof tag, "any tag");
  else
    snprintf(tag, sizeof tag, "tag %d", r->tag);
  const char *what = r->call ? r->call : (r->kind == REQ_SEND ? "send" : "receive");
  snprintf(buf, len, "%s %s %s, %s, on %s%s", what, r->kind == REQ_SEND ? "to" : "from", peer,
           tag, name, r->coll ? " (collective traffic)" : "");
}

static void describe_waiter(eng_actor *a, void *data, char *buf, size_t len)
{
  (void)a;
  p2p_waiter *w = data;
  size_t pending = 0;
  const smpi_req *first = NULL;
  for (size_t i = 0; i < w->n; i++) {
    const smpi_req *r = w->reqs[i];
    if (r && r->waiter == w && !r->complete && pending++ == 0)
      first = r;
  }
  char rd[256] = "nothing";
  if (first)
    describe_req(first, rd, sizeof rd);
  const p2p_rank *owner = w->owner >= 0 ? p2p_rank_of(w->owner) : NULL;
  const char *act = owner ? owner->activity : NULL;
  if (act && owner->activity_root >= 0)
    snprintf(buf, len, "%s (root %d): waiting for %s", act, owner->activity_root, rd);
  else if (act)
    snprintf(buf, len, "%s: waiting for %s", act, rd);
  else if (w->total <= 1 && first && first->call == w->call)
    snprintf(buf, len, "%s", rd); /* blocking call: "MPI_Recv from rank 0, tag 5, on ..." */
  else if (w->total <= 1)
    snprintf(buf, len, "%s for %s", w->call, rd);
  else
    snprintf(buf, len, "%s for %zu of %zu requests, first: %s", w->call, pending, w->total, rd);
}

void p2p_waiter_init(p2p_waiter *w, const char *call, smpi_req **reqs, size_t n)
{
  memset(w, 0, sizeof *w);
  w->actor = eng_self();
  ASSERTF(w->actor, "waiting from outside of any rank");
  w->done_tail = &w->done_head;
  w->call = call;
  w->reqs = reqs;
  w->n = n;
  for (size_t i = 0; i < n; i++)
    if (reqs[i] && reqs[i]->active)
      w->total++;
  w->owner = p2p_my_world_rank();
}

/* Blocks until some request the waiter is attached to completes (returns at once if one
 * already did). */
void p2p_waiter_block(p2p_waiter *w)
{
  if (w->done_head)
    return;
  w->blocked = true;
  w->block_seq = ++p2p.block_seq;
  /* for the wait-for graph of a deadlock report (smpi/mpi/check.c); a nonblocking collective's
   * helper actor waits on behalf of the rank but is not the rank */
  p2p_rank *rk = w->owner >= 0 && w->owner < smpi_w.np && smpi_w.ranks[w->owner].actor == w->actor
                     ? p2p_rank_of(w->owner)
                     : NULL;
  if (rk)
    rk->waiting = w;
  eng_block(describe_waiter, w);
  if (rk)
    rk->waiting = NULL;
  ASSERT(!w->blocked && w->done_head);
}

void p2p_waiter_attach(p2p_waiter *w, smpi_req *r)
{
  ASSERT(!r->waiter);
  r->waiter = w;
  if (r->complete)
    done_push(w, r);
}

void p2p_waiter_detach_all(p2p_waiter *w, smpi_req **rs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (rs[i] && rs[i]->waiter == w) {
      rs[i]->waiter = NULL;
      rs[i]->in_done = false;
    }
  w->done_head = NULL; /* every member was one of rs */
  w->done_tail = &w->done_head;
}

smpi_req *p2p_waiter_pop(p2p_waiter *w)
{
  smpi_req *r = w->done_head;
  if (!r)
    return NULL;
  w->done_head = r->wnext;
  if (!w->done_head)
    w->done_tail = &w->done_head;
  r->wnext = NULL;
  r->in_done = false;
  r->waiter = NULL;
  return r;
}

void p2p_wait_complete(smpi_req *r, const char *call)
{
  if (r->complete)
    return;
  p2p_waiter w;
  smpi_req *one[1] = {r};
  p2p_waiter_init(&w, call, one, 1);
  p2p_waiter_attach(&w, r);
  p2p_waiter_block(&w);
  ASSERT(p2p_waiter_pop(&w) == r && r->complete);
}

bool p2p_status_wanted(const MPI_Status *st)
{
  return st && st != MPI_STATUS_IGNORE && st != MPI_STATUSES_IGNORE;
}

/* MPI 3.1 section 3.2.5: "message-passing calls do not modify the value of the error code
 * field of status variables", except the multiple-completion calls when they return
 * MPI_ERR_IN_STATUS (p2p_errs_*). So a status goes out with the program's MPI_ERROR kept. */
void p2p_status_out(MPI_Status *st, const MPI_Status *from)
{
  if (!p2p_status_wanted(st))
    return;
  int keep = st->MPI_ERROR;
  *st = *from;
  st->MPI_ERROR = keep;
}

void p2p_errs_note(p2p_errs *e, size_t i, int err)
{
  if (err == MPI_SUCCESS)
    return;
  if (!e->errs)
    e->errs = xcalloc(e->n, sizeof *e->errs); /* MPI_SUCCESS is 0 */
  e->errs[i] = err;
}

bool p2p_errs_end(p2p_errs *e, MPI_Status *sts, size_t done)
{
  bool failed = e->errs != NULL;
  if (failed && p2p_status_wanted(sts))
    for (size_t i = 0; i < done; i++)
      sts[i].MPI_ERROR = e->errs[i];
  free(e->errs);
  e->errs = NULL;
  return failed;
}

void p2p_status_empty(MPI_Status *st)
{
  if (p2p_status_wanted(st))
    *st = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};
}

void p2p_pay_or(smpi_req *r)
{
  if (r->kind == REQ_RECV && r->from_detached && !r->or_paid && !r->cancelled) {
    r->or_paid = true;
    double cost = overhead(2, (double)r->status.smpi_count);
    if (cost > 0)
      smpi_sleep_now(cost);
  }
}

int p2p_req_finish(smpi_req *r, MPI_Status *st)
{
  ASSERT(r->active && r->complete);
  if (r->kind == REQ_SEND)
    p2p_send_settle(r);
  if (r->check_listed)
    smpi_check_req_finished(r);
  SMPI_OBSERVE(req_seen, r);
  p2p_pay_or(r);
  if (p2p_req_greq(r))
    r->status.MPI_ERROR = p2p_greq_query(r);
  int err = r->status.MPI_ERROR;
  p2p_status_out(st, &r->status);
  r->active = false;
  if (!r->persistent)
    p2p_req_destroy(r);
  return err;
}

/* how many lent payloads one p2p_waitall keeps lent (more are packed at once) */
#define WAITALL_HOLD 64

int p2p_waitall(size_t n, smpi_req **rs, MPI_Status *sts, const char *call)
{
  SMPI_OBSERVE(wait_count, n);
  ASSERTF(n <= UINT32_MAX, "%zu requests in one wait (smpi_req.widx)", n);
  bool want = p2p_status_wanted(sts);
  p2p_waiter w;
  p2p_waiter_init(&w, call, rs, n);
  size_t pending = 0;
  p2p_errs errs = {.n = n};
  for (size_t i = 0; i < n; i++) {
    smpi_req *r = rs[i];
    if (!r || !r->active) {
      if (want)
        p2p_status_empty(&sts[i]);
      continue;
    }
    r->widx = (uint32_t)i;
    if (!r->complete) {
      p2p_waiter_attach(&w, r);
      pending++;
    }
  }
  /* Detached sends are complete from the start. Their payloads that no receive took yet
   * stay lent until this call returns (its sends' buffers are the caller's until then):
   * the partner of a sendrecv or of a collective's exchange, posting its receive while we
   * wait, copies straight from our buffer, without a bounce (take_payload). */
  p2p_msg *held[WAITALL_HOLD];
  size_t nheld = 0;
  /* already complete ones first, in order (SimGrid's waitany picks them that way) */
  for (size_t i = 0; i < n; i++) {
    smpi_req *r = rs[i];
    if (r && r->active && r->complete && r->waiter != &w) {
      if (r->kind == REQ_SEND && r->msg && r->msg->lent && !r->msg->lend->held &&
          nheld < WAITALL_HOLD) {
        held[nheld] = r->msg;
        r->msg->lend->held = &held[nheld++];
      }
      bool keep = r->persistent;
      p2p_errs_note(&errs, i, p2p_req_finish(r, want ? &sts[i] : NULL));
      if (!keep)
        rs[i] = NULL;
    }
  }
  while (pending > 0) {
    p2p_waiter_block(&w);
    smpi_req *r = p2p_waiter_pop(&w);
    pending--;
    size_t i = r->widx;
    bool keep = r->persistent;
    p2p_errs_note(&errs, i, p2p_req_finish(r, want ? &sts[i] : NULL));
    if (!keep)
      rs[i] = NULL;
  }
  for (size_t k = 0; k < nheld; k++)
    if (held[k]) /* lend_end() cleared the slots of those received or gone */
      pack_lent(held[k]);
  return p2p_errs_end(&errs, sts, n) ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

long p2p_waitany(size_t n, smpi_req **rs, MPI_Status *st, const char *call, int *err)
{
  SMPI_OBSERVE(wait_count, n);
  ASSERTF(n <= UINT32_MAX, "%zu requests in one wait (smpi_req.widx)", n);
  *err = MPI_SUCCESS;
  long found = -1;
  bool any_active = false;
  for (size_t i = 0; i < n && found < 0; i++) {
    smpi_req *r = rs[i];
    if (r && r->active) {
      any_active = true;
      if (r->complete)
        found = (long)i;
    }
  }
  if (!any_active) {
    p2p_status_empty(st);
    return -1;
  }
  if (found < 0) {
    p2p_waiter w;
    p2p_waiter_init(&w, call, rs, n);
    for (size_t i = 0; i < n; i++)
      if (rs[i] && rs[i]->active) {
        rs[i]->widx = (uint32_t)i;
        p2p_waiter_attach(&w, rs[i]);
      }
    p2p_waiter_block(&w);
    /* the first completion wins, as in SimGrid's waitany */
    smpi_req *first = w.done_head;
    found = (long)first->widx;
    p2p_waiter_detach_all(&w, rs, n);
  }
  smpi_req *r = rs[found];
  bool keep = r->persistent;
  *err = p2p_req_finish(r, st);
  if (!keep)
    rs[found] = NULL;
  return found;
}

/* ---- injected costs of polling calls (SimGrid 3.32's, counters shared by all ranks) ---- */

void p2p_test_inject(void)
{
  p2p_ensure_init();
  smpi_sleep_now(p2p.test_n * p2p.test_cost);
}

void p2p_test_outcome(bool success)
{
  if (success)
    p2p.test_n = 1;
  else if (p2p.grow)
    p2p.test_n++;
}

void p2p_testany_inject(void)
{
  p2p_ensure_init();
  smpi_sleep_now(p2p.testany_n * p2p.test_cost);
}

void p2p_testany_outcome(bool success)
{
  /* SimGrid grows this one whatever smpi/grow-injected-times says */
  p2p.testany_n = success ? 1 : p2p.testany_n + 1;
}

/* An iprobe computes: n x smpi/iprobe seconds of the host at smpi/iprobe-cpu-usage of its
 * speed, so it shares the CPU with whatever else runs there. n counts the failed probes in a
 * row, plus one: SimGrid's is one counter for the whole job, so that a rank's probe costs
 * more when another rank failed just before (smpi/iprobe-counter:per-rank counts each
 * rank's own). */
static long *iprobe_counter(void) /* the rank's own, or NULL for the shared p2p.iprobe_n */
{
  return p2p.iprobe_per_rank ? &p2p_rank_of(p2p_my_world_rank())->iprobe_fails : NULL;
}

void p2p_iprobe_inject(void)
{
  p2p_ensure_init();
  if (p2p.iprobe_cost <= 0)
    return;
  smpi_rank *me = smpi_self();
  ASSERT(me);
  long *own = iprobe_counter();
  double n = own ? (double)(*own + 1) : (double)p2p.iprobe_n;
  double speed = cpu_host_speed(me->host) * p2p.iprobe_usage;
  SMPI_OBSERVE(ti_compute, n * p2p.iprobe_cost * cpu_host_speed(me->host));
  act_action *a = cpu_exec_start(me->host, n * p2p.iprobe_cost * speed, speed, NULL, NULL);
  act_wait(a);
  act_action_free(a);
}

void p2p_iprobe_outcome(bool success)
{
  long *own = iprobe_counter();
  if (own) {
    if (success)
      *own = 0;
    else if (p2p.grow)
      (*own)++;
  } else if (success)
    p2p.iprobe_n = 1;
  else if (p2p.grow)
    p2p.iprobe_n++;
}

/* ---- internal API (p2p.h) ---- */

smpi_req *smpi_p2p_isend(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                         smpi_comm *c, unsigned flags)
{
  smpi_req *r = smpi_p2p_send_init(buf, count, dt, dst, tag, c, flags);
  r->persistent = false;
  p2p_req_start(r);
  return r;
}

smpi_req *smpi_p2p_irecv(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                         smpi_comm *c, unsigned flags)
{
  return smpi_p2p_irecv_sink(buf, count, dt, src, tag, c, flags, NULL);
}

smpi_req *smpi_p2p_irecv_sink(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                              smpi_comm *c, unsigned flags, const smpi_recv_sink *sink)
{
  smpi_req *r = smpi_p2p_recv_init(buf, count, dt, src, tag, c, flags);
  r->persistent = false;
  r->sink = sink; /* before the start: a message already there lands at once */
  p2p_req_start(r);
  return r;
}

smpi_req *smpi_p2p_send_init(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                             smpi_comm *c, unsigned flags)
{
  smpi_req *r = p2p_req_new(REQ_SEND, (void *)buf, count, dt, dst, tag, c, flags, NULL);
  r->persistent = true;
  return r;
}

smpi_req *smpi_p2p_recv_init(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                             smpi_comm *c, unsigned flags)
{
  smpi_req *r = p2p_req_new(REQ_RECV, buf, count, dt, src, tag, c, flags, NULL);
  r->persistent = true;
  return r;
}

void smpi_p2p_start(smpi_req *r) { p2p_req_start(r); }

void smpi_p2p_free(smpi_req *r)
{
  ASSERTF(r->persistent && !r->active, "smpi_p2p_free of an active or non-persistent request");
  p2p_req_destroy(r);
}

int smpi_p2p_wait(smpi_req **r, MPI_Status *status)
{
  if (!*r || !(*r)->active) {
    p2p_status_empty(status);
    return MPI_SUCCESS;
  }
  smpi_req *q = *r;
  bool keep = q->persistent;
  p2p_wait_complete(q, "wait");
  int err = p2p_req_finish(q, status);
  if (!keep)
    *r = NULL;
  return err;
}

int smpi_p2p_waitall(size_t n, smpi_req **rs, MPI_Status *statuses)
{
  return p2p_waitall(n, rs, statuses, "waitall");
}

bool smpi_p2p_is_complete(const smpi_req *r) { return !r || !r->active || r->complete; }

int smpi_p2p_send(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                  smpi_comm *c, unsigned flags)
{
  smpi_req *r = smpi_p2p_isend(buf, count, dt, dst, tag, c, flags | SMPI_P2P_BLOCKING);
  return smpi_p2p_wait(&r, NULL);
}

int smpi_p2p_recv(void *buf, size_t count, const smpi_dt *dt, int src, int tag, smpi_comm *c,
                  unsigned flags, MPI_Status *status)
{
  smpi_req *r = smpi_p2p_irecv(buf, count, dt, src, tag, c, flags);
  return smpi_p2p_wait(&r, status);
}

/* SimGrid copies a send-receive with oneself directly, at no cost; so do we, when nothing
 * else from oneself is pending there (it would have to be received first). */
static bool self_sendrecv(smpi_comm *c, int dst, int stag, int src, int rtag, unsigned flags)
{
  int me = smpi_comm_rank(c);
  if (smpi_comm_is_inter(c) || dst != me || src != me || (rtag != MPI_ANY_TAG && rtag != stag))
    return false;
  uint32_t cid = (flags & SMPI_P2P_COLL) ? smpi_comm_coll_context(c) : smpi_comm_p2p_context(c);
  return !mq_peek(cid, p2p_my_world_rank(), me, MPI_ANY_TAG);
}

int p2p_sendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                 int stag, void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int rtag,
                 unsigned flags, MPI_Status *status, const char *call)
{
  if (self_sendrecv(c, dst, stag, src, rtag, flags)) {
    size_t sbytes = scount * smpi_dt_size(sdt);
    bool folded = payload_folded(sbuf, scount, sdt); /* false for no data */
    size_t n = smpi_dt_copy(sbuf, scount, sdt, rbuf, rcount, rdt);
    int err = sbytes > n ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    p2p_status_out(status, &(MPI_Status){.MPI_SOURCE = src,
                                         .MPI_TAG = stag,
                                         .MPI_ERROR = err,
                                         .smpi_cancelled = folded ? SMPI_STATUS_FOLDED : 0,
                                         .smpi_count = (long long)n});
    return err;
  }
  /* both sides nonblocking: the send pays smpi/ois, as SimGrid's sendrecv does */
  unsigned f = flags & ~(unsigned)(SMPI_P2P_BLOCKING | SMPI_P2P_SYNC);
  smpi_req *r[2];
  MPI_Status st[2] = {{.MPI_ERROR = MPI_SUCCESS}, {.MPI_ERROR = MPI_SUCCESS}};
  r[0] = p2p_req_new(REQ_SEND, (void *)sbuf, scount, sdt, dst, stag, c, f, call);
  r[1] = p2p_req_new(REQ_RECV, rbuf, rcount, rdt, src, rtag, c, f, call);
  p2p_req_start(r[0]);
  p2p_req_start(r[1]);
  p2p_waitall(2, r, st, call ? call : "sendrecv");
  p2p_status_out(status, &st[1]);
  return st[1].MPI_ERROR != MPI_SUCCESS ? st[1].MPI_ERROR : st[0].MPI_ERROR;
}

int smpi_p2p_sendrecv(const void *sbuf, size_t scount, const smpi_dt *sdt, int dst, int stag,
                      void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int rtag,
                      smpi_comm *c, unsigned flags, MPI_Status *status)
{
  return p2p_sendrecv(c, sbuf, scount, sdt, dst, stag, rbuf, rcount, rdt, src, rtag, flags,
                      status, NULL);
}

/* ---- Finalize, statistics, reset ---- */

size_t smpi_p2p_report_pending(int world_rank)
{
  /* not "return if the rank has no p2p_rank": posting a receive does not create one */
  p2p_rank *rk = p2p_rank_of(world_rank);
  size_t n = 0;
  char d[256];
  smpi_req **recvs;
  size_t nrecvs = mq_posted_by(world_rank, &recvs);
  for (size_t i = 0; i < nrecvs; i++) {
    smpi_req *r = recvs[i];
    describe_req(r, d, sizeof d);
    LOG_WARN("rank %d reached MPI_Finalize with a receive still posted: %s%s", world_rank, d,
             smpi_check_where(r->site));
    n++;
    mq_remove_recv(r);
    r->cancelled = true;
    r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE,
                             .MPI_TAG = MPI_ANY_TAG,
                             .smpi_cancelled = SMPI_STATUS_CANCELLED};
    p2p_complete(r);
  }
  free(recvs);
  /* messages sent to it that it never received: nobody can receive them any more */
  p2p_msg **inbox;
  size_t ninbox = mq_unexpected_to(world_rank, &inbox);
  for (size_t i = 0; i < ninbox; i++) {
    const p2p_msg *m = inbox[i];
    LOG_WARN("rank %d reached MPI_Finalize without receiving a message: %s from rank %d, tag "
             "%d, %zu bytes, on %s%s",
             world_rank, m->call ? m->call : "send", m->src, m->tag, m->bytes,
             m->comm ? smpi_comm_display_name(m->comm) : "?", smpi_check_where(m->site));
    n++;
  }
  free(inbox);
  /* its own detached sends still lent, never waited for (erroneous, but the program may
   * free their buffers now): their payloads are taken while the buffers still exist */
  while (!list_empty(&rk->lent))
    pack_lent(list_entry(list_first(&rk->lent), p2p_lend, link)->m);
  /* its own rendezvous sends nobody matched: their buffers are about to go away */
  p2p_msg **rdv;
  size_t nrdv = mq_rendezvous_from(world_rank, rk->rdv_unmatched, &rdv);
  for (size_t i = 0; i < nrdv; i++) {
    p2p_msg *m = rdv[i];
    smpi_req *s = m->sreq;
    ASSERT(s && m->waits);
    describe_req(s, d, sizeof d);
    LOG_WARN("rank %d reached MPI_Finalize with a send nobody received (withdrawn): %s, %zu "
             "bytes%s",
             world_rank, d, m->bytes, smpi_check_where(s->site));
    n++;
    if (m->action) {
      act_action *a = m->action;
      m->action = NULL;
      act_action_cancel(a, ACT_CANCELED);
      defer_free_action(a);
    }
    mq_remove_msg(m);
    s->msg = NULL;
    m->sreq = NULL;
    p2p_msg_destroy(m);
    s->cancelled = true;
    s->status.smpi_cancelled = SMPI_STATUS_CANCELLED;
    p2p_complete(s);
  }
  free(rdv);
  return n;
}

void smpi_p2p_get_stats(smpi_p2p_stats *out)
{
  *out = p2p.stats;
  out->queue_nodes = mq_node_count();
}

void smpi_p2p_reset(void)
{
  /* objects still referenced from queues are leaked on purpose: their owners are gone */
  mq_reset();
  flush_dead_actions();
  free(p2p.dead);
  while (p2p.free_reqs) {
    smpi_req *r = p2p.free_reqs;
    p2p.free_reqs = r->free_next;
    free(r);
  }
  for (int k = 0; k < 2; k++)
    for (p2p_msg **pool = k ? &p2p.free_small_msgs : &p2p.free_msgs; *pool;) {
      p2p_msg *m = *pool;
      *pool = m->free_next;
      free(m);
    }
  while (p2p.free_lends) {
    p2p_lend *l = p2p.free_lends;
    p2p.free_lends = l->free_next;
    free(l);
  }
  for (int i = 0; i < 3; i++)
    fac_free(i == 0 ? &p2p.os : i == 1 ? &p2p.or_ : &p2p.ois);
  for (int i = 0; i < p2p.nranks; i++)
    free(p2p.ranks[i]);
  free(p2p.ranks);
  memset(&p2p, 0, sizeof p2p);
}
