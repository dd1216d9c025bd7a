/* What request.c, match.c and p2p.c share: the request and message objects and the
 * matching queues.
 *
 * Life of a message (one send; "msg" is the envelope the receiver side sees):
 *
 *   sender                          matching queues of (context, receiver)       receiver
 *   ------                          --------------------------------------       --------
 *   pack if detached, sleep os/ois
 *   post msg ---------------------> posted receive waiting?  yes: match ----+
 *                                   no: msg queued as unexpected            |
 *                                          ... receiver posts ------------> match
 *                                                                           |
 *   network transfer of size + 16 bytes starts at the match (or at once when eager)
 *   transfer ends: copy data into the receive buffer, complete the receive (and the
 *   send when it was not detached); the receiver pays smpi/or in its wait if the sender
 *   was detached.
 */
#ifndef SMPI_SMPI_P2P_PRIVATE_H
#define SMPI_SMPI_P2P_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/activity.h"
#include "kernel/engine.h"
#include "kernel/factors.h"
#include "smpi/mpi/p2p.h"
#include "src/list.h"

typedef struct p2p_msg p2p_msg;

/* Freed requests, messages and queue nodes are kept for reuse up to this many each: a root
 * that waits for 100 000 receives per collective reuses them instead of calling malloc
 * 200 000 times per round; memory stays bounded by the peak in use. */
#define P2P_FREE_LIST_MAX (1u << 20)
typedef struct p2p_waiter p2p_waiter;

/* REQ_COLL: a nonblocking collective (collectives/coll_nb.c): no transfer of its own, its
 * helper actor completes it. REQ_GREQ: a generalized request (MPI_Grequest_start), which
 * the program completes with MPI_Grequest_complete (smpi/mpi/greq.c) */
typedef enum { REQ_SEND = 1, REQ_RECV, REQ_COLL, REQ_GREQ } req_kind;
typedef struct p2p_greq p2p_greq;
typedef enum { MODE_STANDARD, MODE_BUFFERED, MODE_SYNC, MODE_READY } send_mode;

/* the generalized request's callbacks of r, or NULL */
#define p2p_req_greq(r) ((r)->kind == REQ_GREQ ? (r)->greq : NULL)

/* Bytes per operation in flight. A linear Alltoall at 4 096 ranks holds N(N-1) = 16.8 M
 * messages and as many receives at once: every 8 bytes of p2p_msg or smpi_req is 134 MB
 * there (tools/bench/results/2026-11-29-0830-mpi-bytes.md: 304 + 232 bytes before, 136 +
 * 144 now). So flags are bits; what few objects need lives beside them (p2p_lend, the
 * checksum of smpi/check-buffers in check.c's list of requests in flight); a rank's posted
 * receives, unexpected messages and unmatched rendezvous sends are found in the matching
 * table when a report needs them (mq_posted_by ...) instead of being linked per rank; the
 * inline small payload exists only in messages that may carry one; a queued receive's
 * matching fields share the bytes of its status. The _Static_asserts below the structures
 * hold these sizes: a field added there costs that much memory. */
#define P2P_REQ_BYTES 144
#define P2P_MSG_BYTES 136

struct smpi_req {
  uint8_t kind; /* req_kind */
  uint8_t mode; /* send_mode */
  bool persistent : 1;
  bool blocking : 1; /* send: pays os rather than ois */
  bool active : 1;   /* started and not yet collected by a wait/test */
  bool complete : 1; /* the operation itself is over (data moved, or cancelled) */
  bool cancelled : 1;
  bool user_freed : 1;    /* MPI_Request_free while active: destroy at completion */
  bool detached : 1;      /* send: data copied at post, complete for the sender at once */
  bool from_detached : 1; /* receive: its sender was detached, the receiver pays smpi/or */
  bool or_paid : 1;       /* receive: smpi/or already paid (by a failing MPI_Testall) */
  bool reported : 1;      /* seen complete by a failing MPI_Testall (SimGrid forgets it then) */
  bool queued : 1;        /* receive: in a posted-receive queue */
  bool coll : 1;          /* collective context */
  bool scratch : 1;       /* receive: into scratch of a collective (SMPI_P2P_SCRATCH) */
  bool check_set : 1;     /* smpi/check-buffers: check.c holds a checksum of its buffer */
  bool check_listed : 1;  /* smpi/check-buffers: in its owner's list of requests in flight */
  bool in_done : 1;       /* in its waiter's completion queue (wnext) */
  int handle;             /* MPI handle, MPI_REQUEST_NULL for internal requests */
  int owner;              /* world rank that created it */
  uint32_t ctx;
  int peer;       /* rank in comm: destination, or source (may be ANY/PROC_NULL) */
  int peer_world; /* send: world rank of the destination */
  int tag;
  uint32_t widx; /* index in the array the waiter waits on (p2p_waitall: at most UINT32_MAX) */
  void *buf;
  size_t count;
  const smpi_dt *dt;
  size_t bytes; /* count x type size */
  smpi_comm *comm;
  const char *call; /* the MPI call that created it ("MPI_Irecv"), for reports */
  const void *site; /* where the program called it (smpi/mpi/check.h), for reports */
  smpi_req *wnext;  /* waiter's completion queue (in_done), singly linked: only pushed at
                     * the back and popped at the front (a waitany drops it whole) */
  union {
    p2p_msg *msg;        /* send: its message until matched (detached) or delivered;
                     receive: the matched message until delivered */
    smpi_req *free_next; /* in p2p.free_reqs (msg is NULL before a request is freed) */
  };
  p2p_waiter *waiter;
  union {                       /* by kind: one word per request (millions may be in flight) */
    p2p_greq *greq;             /* REQ_GREQ: the program's callbacks (p2p_req_greq) */
    const smpi_recv_sink *sink; /* REQ_RECV: consumes the data as soon as it is in buf */
  };
  /* A receive is queued, or has a result, never both: what matching needs shares the
   * status's bytes. Whoever takes a queued receive off its queue writes its whole status
   * before completing it (deliver, cancel, the reports at MPI_Finalize). */
  union {
    struct {
      list_node qlink; /* receive, while queued: its posted-receive queue (mq_posted_by) */
      uint64_t seq;    /* receive, while queued: posting order, for MPI's matching order */
    };
    MPI_Status status; /* result, valid once complete */
  };
};

/* A detached or eager payload still read from its sender's buffer (request.c,
 * take_payload): the buffer, count and type, and their owner, kept here because the send
 * request may be gone while p2p_waitall holds the message. Few messages are lent at a time
 * (a wait packs them), so this is a pooled side object, not fields of every message. */
typedef struct p2p_lend {
  list_node link; /* its owner's lent messages (p2p_rank.lent) */
  p2p_msg *m;
  const void *buf;
  size_t count;
  const smpi_dt *dt;
  int owner;
  p2p_msg **held; /* held by a p2p_waitall of its sender: the slot that lists it */
  struct p2p_lend *free_next;
} p2p_lend;

/* Payloads up to this many bytes of detached or eager messages are packed inside the
 * message itself (no allocation); only messages that may need it get the room (two pools). */
#define P2P_SMALL_BYTES 64

/* One message per send in flight: P2P_MSG_BYTES, plus P2P_SMALL_BYTES when it may carry a
 * small packed payload. */
struct p2p_msg {
  union {
    list_node slink;    /* per-source unexpected queue */
    p2p_msg *free_next; /* in a free list (slink is reset when the message is reused) */
  };
  list_node alink;    /* arrival-ordered unexpected queue of the (context, receiver) */
  smpi_req *sreq;     /* the send request while linked (see smpi_req.msg) */
  smpi_req *rreq;     /* the matched receive */
  act_action *action; /* network transfer, NULL before it starts and once it ended */
  union {
    void *data;     /* !lent: packed copy (detached or eager), else NULL: read the sender's
                     * buffer */
    p2p_lend *lend; /* lent: where the payload still is */
  };
  size_t bytes;
  smpi_comm *comm; /* sender's communicator object (reports) */
  const char *call;
  const void *site; /* where the sender called it (smpi/mpi/check.h) */
  uint64_t seq;     /* posting order: reports list a rank's messages in it (mq_*_to/from) */
  uint32_t ctx;
  int dst_world;
  int src; /* sender's rank in the communicator (what MPI_SOURCE reports) */
  int src_world;
  int tag;
  int sig; /* smpi_dt_signature of the sender's type (check.c's type matching) */
  /* the sender's tracing category when it posted the send */
  uint16_t category;
  bool waits : 1;   /* sreq completes with the transfer (not detached) */
  bool folded : 1;  /* detached or eager, but every byte sent was folded: no copy, nothing
                      * to deliver (the receive buffer keeps its bytes) */
  bool landed : 1;  /* detached or eager, matched when posted: the payload went straight
                      * into the receive buffer, nothing left to copy at delivery */
  bool lent : 1;    /* detached or eager and unmatched, but the sender's request is not
                      * finished yet: the payload is still read from the sender's buffer
                      * (request.c, take_payload): see lend */
  bool queued : 1;  /* in the unexpected queues */
  bool started : 1; /* transfer started */
  bool arrived : 1; /* transfer over, receiver not matched yet (eager) */
  bool detached : 1;
  bool buffered : 1;     /* MPI_Bsend: holds bytes of the sender's attached buffer (until sent) */
  bool has_small : 1;    /* small[] exists (from the pool of messages with room for it) */
  bool rdv_listed : 1;   /* rendezvous, unmatched: counted in p2p_rank.rdv_unmatched */
  unsigned bsend_gen;    /* buffered: which attachment of the buffer it counts against */
  unsigned char small[]; /* has_small: data of small detached messages, P2P_SMALL_BYTES */
};

_Static_assert(sizeof(struct smpi_req) <= P2P_REQ_BYTES, "smpi_req grew: see P2P_REQ_BYTES");
_Static_assert(sizeof(list_node) + sizeof(uint64_t) <= sizeof(MPI_Status),
               "a queued receive's qlink and seq must fit in its status's bytes");
_Static_assert(sizeof(struct p2p_msg) <= P2P_MSG_BYTES, "p2p_msg grew: see P2P_REQ_BYTES");

/* A rank blocked in a wait. Requests point to it while it waits on them; completions
 * queue themselves on `done` and unblock the rank once (eng_unblock must not run twice). */
struct p2p_waiter {
  eng_actor *actor;
  int owner; /* world rank */
  bool blocked;
  unsigned long block_seq; /* when it blocked: simultaneous completions wake in that order */
  smpi_req *done_head;     /* completed requests not yet processed (wnext), oldest first */
  smpi_req **done_tail;    /* where the next one is linked */
  const char *call;        /* "MPI_Waitall" */
  smpi_req **reqs;         /* what it waits for, for the deadlock report */
  size_t n;
  size_t total; /* active requests when the call began (reports) */
};

/* ---- matching queues (match.c) ----
 * Keyed by (context, receiver world rank, source rank): posted receives and unexpected
 * messages per source, plus one queue per (context, receiver) for ANY_SOURCE receives
 * and for all unexpected messages in arrival order. Receives carry a global sequence
 * number so a message picks the earliest-posted of the exact-source and ANY_SOURCE
 * candidates. */

/* A message arrives: returns the earliest-posted matching receive, taken off its queue;
 * or NULL after queuing m as unexpected. */
smpi_req *mq_arrive(p2p_msg *m);
/* A receive is posted (r->ctx, r->owner, r->peer, r->tag): returns the first matching
 * unexpected message, taken off the queues; or NULL after queuing r. */
p2p_msg *mq_post_recv(smpi_req *r);
/* First matching unexpected message, left in place (probes). src may be MPI_ANY_SOURCE. */
p2p_msg *mq_peek(uint32_t ctx, int dst_world, int src, int tag);
void mq_remove_msg(p2p_msg *m);   /* m->queued */
void mq_remove_recv(smpi_req *r); /* r->queued */
/* For reports, not hot paths (they walk the table): what a rank has pending, in posting
 * order, in an array *out that the caller frees: the unexpected messages addressed to world
 * rank dst; the receives it has posted; its rendezvous messages still unmatched
 * (rdv_listed), expect of them (p2p_rank.rdv_unmatched). */
size_t mq_unexpected_to(int dst, p2p_msg ***out);
size_t mq_posted_by(int dst, smpi_req ***out);
size_t mq_rendezvous_from(int src_world, size_t expect, p2p_msg ***out);
size_t mq_node_count(void);
size_t mq_nodes_created(void); /* since the start (or mq_reset): churn of the queues */
void mq_reset(void);

/* ---- module state (request.c) ---- */
typedef struct p2p_rank {
  /* its posted receives and the unexpected messages addressed to it are in the matching
   * queues (mq_posted_by, mq_unexpected_to) */
  size_t rdv_unmatched;   /* its rendezvous sends nobody matched yet (mq_rendezvous_from) */
  list_node lent;         /* its detached sends whose payload is still lent (p2p_lend.link) */
  const char *activity;   /* smpi_p2p_set_activity */
  int activity_root;      /* smpi_p2p_set_activity_root, -1 for none */
  eng_actor *probe_actor; /* blocked in MPI_Probe (smpi/iprobe 0): woken by any arrival */
  p2p_waiter *waiting;    /* the wait it is blocked in (deadlock reports, smpi/mpi/check.c) */
  void *bsend_buf;        /* MPI_Buffer_attach */
  int bsend_size;
  size_t bsend_used;       /* bytes + MPI_BSEND_OVERHEAD of each message not yet sent */
  unsigned bsend_gen;      /* attachments so far: messages count against their own */
  eng_actor *detach_actor; /* blocked in MPI_Buffer_detach until bsend_used is 0 */
  long iprobe_fails;       /* smpi/iprobe-counter:per-rank: its failed MPI_Iprobe in a row */
} p2p_rank;

typedef struct p2p_state {
  bool ready;
  fac_func os, or_, ois;
  /* the overhead of the last size asked, per function (os, ois, or): a message's size is
   * usually the previous one's, and the lookup walks the sections */
  double ovh_bytes[3], ovh_cost[3];
  long detached_thresh, async_thresh;
  double test_cost, iprobe_cost, iprobe_usage;
  bool grow;
  bool iprobe_per_rank; /* smpi/iprobe-counter:per-rank (else SimGrid's shared counter) */
  /* SimGrid keeps these multipliers in function-static variables: one per process,
   * shared by all ranks. Same here, so polling costs match. */
  long test_n, testany_n, iprobe_n;
  uint64_t seq;     /* receives posted so far (smpi_req.seq) */
  uint64_t msg_seq; /* messages posted so far (p2p_msg.seq) */
  unsigned long block_seq;
  p2p_rank **ranks; /* allocated on first use */
  int nranks;
  act_action **dead;
  size_t dead_count, dead_cap;
  smpi_req *free_reqs;
  size_t free_req_count;
  p2p_msg *free_msgs, *free_small_msgs; /* without and with room for small[] */
  size_t free_msg_count, free_small_msg_count;
  p2p_lend *free_lends;
  smpi_p2p_stats stats;
  /* The payload being copied now, for the crash report (smpi_check_describe_copy): the
   * message being delivered (its rreq's buffer is written; its sreq's read unless the
   * payload was packed), or the send request whose buffer the sender is packing. Set right
   * before the copy and cleared right after (volatile: the stores must stay around it): a
   * fault in between is the program's buffer, not the simulator. */
  const p2p_msg *volatile copying;
  const smpi_req *volatile packing;
} p2p_state;

extern p2p_state p2p;

void p2p_ensure_init(void);
p2p_rank *p2p_rank_of(int world);
int p2p_my_world_rank(void);

/* requests and messages */
smpi_req *p2p_req_new(req_kind kind, void *buf, size_t count, const smpi_dt *dt, int peer,
                      int tag, smpi_comm *c, unsigned flags, const char *call);
void p2p_req_destroy(smpi_req *r);
/* generalized requests (greq.c): the status from the program's query callback, once
 * complete; the free callback, when the request goes; the cancel callback */
int p2p_greq_query(smpi_req *r);
void p2p_greq_release(smpi_req *r);
int p2p_greq_cancel(smpi_req *r);
void p2p_req_start(smpi_req *r);
/* cancels if still possible (not matched); true if it was */
bool p2p_req_cancel(smpi_req *r);
/* an inactive receive takes a message already dequeued (MPI_Mrecv) */
void p2p_recv_matched(smpi_req *r, p2p_msg *m);
void p2p_msg_destroy(p2p_msg *m);
/* m is matched or taken off the queues: no longer an unmatched rendezvous of its sender */
void p2p_msg_unlist(p2p_msg *m);
void p2p_complete(smpi_req *r);

/* waiting */
void p2p_waiter_init(p2p_waiter *w, const char *call, smpi_req **reqs, size_t n);
void p2p_waiter_attach(p2p_waiter *w, smpi_req *r);
/* forgets the requests of rs[0..n) still attached to w (p2p_waitany, once one completed) */
void p2p_waiter_detach_all(p2p_waiter *w, smpi_req **rs, size_t n);
void p2p_waiter_block(p2p_waiter *w);
smpi_req *p2p_waiter_pop(p2p_waiter *w);
void p2p_wait_complete(smpi_req *r, const char *call);
/* collects a complete request: pays smpi/or if due, copies its status, deactivates it and
 * destroys it unless persistent. Returns its error code. */
int p2p_req_finish(smpi_req *r, MPI_Status *st);
/* Send r is finished or its completion reported (wait, test, MPI_Request_get_status, free):
 * the program may reuse its buffer, so a payload still lent from it is packed now. */
void p2p_send_settle(smpi_req *r);
void p2p_status_out(MPI_Status *st, const MPI_Status *from);
/* The MPI_ERROR of each status of a multiple-completion call, written only when one failed
 * (MPI_ERR_IN_STATUS): p2p_errs_note each finished slot, p2p_errs_end for true if one failed. */
typedef struct p2p_errs {
  size_t n;
  int *errs; /* NULL until a slot fails */
} p2p_errs;
void p2p_errs_note(p2p_errs *e, size_t i, int err);
bool p2p_errs_end(p2p_errs *e, MPI_Status *sts, size_t done);
void p2p_pay_or(smpi_req *r);
int p2p_waitall(size_t n, smpi_req **rs, MPI_Status *sts, const char *call);
/* index finished, or -1 when no request is active; *err = its error */
long p2p_waitany(size_t n, smpi_req **rs, MPI_Status *st, const char *call, int *err);
/* MPI_Sendrecv (SimGrid's: a send-receive with oneself is a plain copy) */
int p2p_sendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt, int dst,
                 int stag, void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int rtag,
                 unsigned flags, MPI_Status *status, const char *call);
bool p2p_status_wanted(const MPI_Status *st);
void p2p_status_empty(MPI_Status *st);

/* injected costs of polling calls */
void p2p_test_inject(void);
void p2p_test_outcome(bool success);
void p2p_testany_inject(void);
void p2p_testany_outcome(bool success);
void p2p_iprobe_inject(void);
void p2p_iprobe_outcome(bool success);

#endif
