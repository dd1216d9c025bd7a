/* Point-to-point communication (smpi/mpi/request.c, match.c, p2p.c): requests, matching, the
 * SMPI protocol timing model and data movement; the internal API collectives build on.
 *
 * A collective posts many operations, then waits for all of them:
 *
 *   smpi_req *r[2 * n];
 *   for (i ...) r[k++] = smpi_p2p_irecv(buf_i, cnt, dt, i, tag, comm, SMPI_P2P_COLL);
 *   for (i ...) r[k++] = smpi_p2p_isend(buf_i, cnt, dt, i, tag, comm, SMPI_P2P_COLL);
 *   int rc = smpi_p2p_waitall(k, r, NULL);       // frees them; r[i] become NULL
 *
 * Ranks are ranks of the communicator (the remote group's for an intercommunicator);
 * MPI_PROC_NULL is accepted and completes at once; receives take MPI_ANY_SOURCE and
 * MPI_ANY_TAG. Arguments are not checked here (smpi/bindings/ and the collectives do it):
 * a bad one is a broken invariant.
 *
 * Timing follows SimGrid 3.32's SMPI: a send of s bytes (count x type size) moves s + 16
 * bytes through the network model; below smpi/send-is-detached-thresh it is detached (the
 * data is copied, the sender returns after its overhead, the transfer starts when the
 * matching receive is posted, and the receiver pays smpi/or once it completes); at or
 * above it the transfer starts when both sides are there and the send completes with it.
 * The sender's overhead is smpi/os for blocking calls (SMPI_P2P_BLOCKING, what MPI_Send,
 * MPI_Ssend and persistent starts pay) and smpi/ois for nonblocking ones; a blocking
 * standard send that is not detached pays none. Overheads are sleeps, not computations. */
#ifndef SMPI_SMPI_P2P_H
#define SMPI_SMPI_P2P_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi/comm.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi.h"

/* Largest valid tag, the value of the MPI_TAG_UB attribute (SimGrid's too). */
#define SMPI_TAG_UB INT_MAX

typedef struct smpi_req smpi_req;

/* Flags of smpi_p2p_isend / irecv / *_init. */
enum {
  SMPI_P2P_COLL = 1 << 0,     /* the communicator's collective context, not its p2p one */
  SMPI_P2P_BLOCKING = 1 << 1, /* send: pay smpi/os like MPI_Send (else smpi/ois) */
  SMPI_P2P_SYNC = 1 << 2,     /* send: synchronous mode, never detached (MPI_Ssend) */
  /* modes of the smpi_p2p_mpi_* sends only: */
  SMPI_P2P_BUFFERED = 1 << 3, /* buffered (MPI_Bsend): always detached, and counted against
                                 the buffer of MPI_Buffer_attach (no room: MPI_ERR_BUFFER) */
  SMPI_P2P_READY = 1 << 4,    /* ready (MPI_Rsend): timed as a standard send */
  SMPI_P2P_SCRATCH = 1 << 5,  /* receive: into the simulator's own scratch memory, not the
                                 program's (its first touches are not in the payload floor) */
};

/* Bits of a status's private smpi_cancelled field (include/smpi/mpi.h). A receive whose
 * message was sent from memory folded from end to end (SMPI_SHARED_MALLOC, or the
 * collectives' folded scratch) gets SMPI_STATUS_FOLDED: nothing was written into its buffer,
 * which keeps its bytes, and what it should have held is meaningless. Collectives that
 * forward other ranks' blocks through scratch carry that mark along (alltoall_bruck.c). */
#define SMPI_STATUS_CANCELLED 1
#define SMPI_STATUS_FOLDED 2

/* A receive whose data is consumed where it lands: fn runs right after the payload is
 * written into the receive's buffer (buf, as the receiver's code sees it), before anything
 * else can be written there, whichever rank or the engine happens to run at that moment.
 * Several receives may then share one buffer: the linear Reduce's root lands every vector
 * in one scratch vector and combines it at once (collectives/reduce/reduce_linear.c). fn
 * must not block and must not run program code (no user-defined op: privatization). */
typedef struct smpi_recv_sink smpi_recv_sink;
struct smpi_recv_sink {
  void (*fn)(const smpi_recv_sink *s, void *buf, size_t bytes);
};

/* Nonblocking operations; the request is owned by the caller until a wait frees it. */
smpi_req *smpi_p2p_isend(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                         smpi_comm *c, unsigned flags);
smpi_req *smpi_p2p_irecv(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                         smpi_comm *c, unsigned flags);
smpi_req *smpi_p2p_irecv_sink(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                              smpi_comm *c, unsigned flags, const smpi_recv_sink *sink);

/* Persistent requests: post with smpi_p2p_start, wait as usual (a wait leaves them
 * inactive instead of freeing them), free with smpi_p2p_free once inactive. */
smpi_req *smpi_p2p_send_init(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                             smpi_comm *c, unsigned flags);
smpi_req *smpi_p2p_recv_init(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                             smpi_comm *c, unsigned flags);
void smpi_p2p_start(smpi_req *r);
void smpi_p2p_free(smpi_req *r);

/* Completion. The wait functions block the calling rank (no simulated cost of their own;
 * a receive from a detached sender pays smpi/or). They return MPI_SUCCESS, the request's
 * error (MPI_ERR_TRUNCATE) for one request, or MPI_ERR_IN_STATUS for several when one
 * failed (each status then has its MPI_ERROR). status/statuses may be NULL or
 * MPI_STATUS(ES)_IGNORE. Non-persistent requests are freed and their pointers set to NULL;
 * NULL entries are skipped. */
int smpi_p2p_wait(smpi_req **r, MPI_Status *status);
int smpi_p2p_waitall(size_t n, smpi_req **rs, MPI_Status *statuses);
/* MPI_Iprobe's test on either context (flags: SMPI_P2P_COLL or 0), with its cost
 * (smpi/iprobe, growing while probes fail): has a matching message arrived? */
bool smpi_p2p_iprobe(smpi_comm *c, int src, int tag, unsigned flags);
/* Completed yet? No simulated cost, nothing freed (a progress check for schedules). */
bool smpi_p2p_is_complete(const smpi_req *r);

/* Blocking shortcuts (send pays smpi/os; sendrecv is an isend + irecv + waitall, as in
 * SimGrid: both sides pay smpi/ois). */
int smpi_p2p_send(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                  smpi_comm *c, unsigned flags);
int smpi_p2p_recv(void *buf, size_t count, const smpi_dt *dt, int src, int tag, smpi_comm *c,
                  unsigned flags, MPI_Status *status);
int smpi_p2p_sendrecv(const void *sbuf, size_t scount, const smpi_dt *sdt, int dst, int stag,
                      void *rbuf, size_t rcount, const smpi_dt *rdt, int src, int rtag,
                      smpi_comm *c, unsigned flags, MPI_Status *status);

/* ---- What the MPI point-to-point calls do (smpi/mpi/p2p.c) ----
 * smpi_p2p_mpi_X is MPI_X once the arguments are checked and the communicator and datatype
 * handles resolved: smpi/bindings/p2p.c checks, calls it and raises its error through the
 * error handler; layers below the bindings (the replay) call it directly. Unlike the smpi_p2p_* functions above, these
 * behave exactly as the MPI calls: MPI_PROC_NULL sends make no request, requests get MPI
 * handles, buffered sends are accounted. `call` names the MPI call in reports ("MPI_Send":
 * deadlocks, messages left at MPI_Finalize). They return MPI_SUCCESS or the error class the
 * call raises; on an error, *err_comm is the communicator whose handler reports it and *why
 * the detail of the message, when the error has one (both are left alone otherwise: the
 * caller sets them first). Array calls take the handles (hs, updated: MPI_REQUEST_NULL for
 * the requests they free) and the requests they resolve to (rs, NULL for MPI_REQUEST_NULL),
 * e.g. MPI_Waitall:
 *
 *   for (i ...) rs[i] = hs[i] == MPI_REQUEST_NULL ? NULL : smpi_p2p_req_get(hs[i]);
 *   MPI_Comm ec = MPI_COMM_WORLD;
 *   int rc = smpi_p2p_mpi_waitall(n, hs, rs, "MPI_Waitall", statuses, &ec);
 */
typedef struct smpi_p2p_why {
  char s[160];
} smpi_p2p_why;

/* The request of a handle; NULL for MPI_REQUEST_NULL, freed or non-request handles. */
smpi_req *smpi_p2p_req_get(MPI_Request h);
/* The handle of r's communicator (MPI_COMM_WORLD for r NULL): where r's errors go. */
MPI_Comm smpi_p2p_req_comm(const smpi_req *r);
/* The receiver's communicator of a message taken by MPI_(I)mprobe; NULL if h is not one. */
smpi_comm *smpi_p2p_message_comm(MPI_Message h);

/* flags: the send mode, 0 (standard) or one of SMPI_P2P_SYNC, _BUFFERED, _READY */
int smpi_p2p_mpi_send(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt, int dst,
                      int tag, unsigned flags, const char *call, smpi_p2p_why *why);
int smpi_p2p_mpi_isend(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt, int dst,
                       int tag, unsigned flags, const char *call, MPI_Request *request,
                       smpi_p2p_why *why);
int smpi_p2p_mpi_recv(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                      const char *call, MPI_Status *status, smpi_p2p_why *why);
void smpi_p2p_mpi_irecv(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src,
                        int tag, const char *call, MPI_Request *request);
void smpi_p2p_mpi_send_init(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt,
                            int dst, int tag, unsigned flags, const char *call,
                            MPI_Request *request);
void smpi_p2p_mpi_recv_init(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src,
                            int tag, const char *call, MPI_Request *request);
/* r NULL (an invalid handle) is MPI_ERR_REQUEST, as are requests not persistent or active */
int smpi_p2p_mpi_start(smpi_req *r, smpi_p2p_why *why);
/* checks every handle before starting any */
int smpi_p2p_mpi_startall(int count, const MPI_Request *requests, MPI_Comm *err_comm,
                          smpi_p2p_why *why);
int smpi_p2p_mpi_sendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt,
                          int dst, int stag, void *rbuf, size_t rcount, const smpi_dt *rdt,
                          int src, int rtag, const char *call, MPI_Status *status);
int smpi_p2p_mpi_sendrecv_replace(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt,
                                  int dst, int stag, int src, int rtag, const char *call,
                                  MPI_Status *status);
/* MPI_ERR_BUFFER if a buffer is attached already */
int smpi_p2p_mpi_buffer_attach(void *buffer, int size);
void smpi_p2p_mpi_buffer_detach(void *buffer_addr, int *size);

/* Completion; r NULL stands for MPI_REQUEST_NULL. */
int smpi_p2p_mpi_wait(smpi_req *r, MPI_Request *request, const char *call, MPI_Status *status,
                      MPI_Comm *err_comm, smpi_p2p_why *why);
int smpi_p2p_mpi_test(smpi_req *r, MPI_Request *request, int *flag, MPI_Status *status,
                      MPI_Comm *err_comm);
int smpi_p2p_mpi_waitall(int count, MPI_Request *hs, smpi_req **rs, const char *call,
                         MPI_Status *statuses, MPI_Comm *err_comm);
int smpi_p2p_mpi_waitany(int count, MPI_Request *hs, smpi_req **rs, const char *call, int *indx,
                         MPI_Status *status, MPI_Comm *err_comm);
int smpi_p2p_mpi_waitsome(int incount, MPI_Request *hs, smpi_req **rs, const char *call,
                          int *outcount, int *indices, MPI_Status *statuses, MPI_Comm *err_comm);
int smpi_p2p_mpi_testall(int count, MPI_Request *hs, smpi_req **rs, int *flag,
                         MPI_Status *statuses, MPI_Comm *err_comm);
int smpi_p2p_mpi_testany(int count, MPI_Request *hs, smpi_req **rs, int *indx, int *flag,
                         MPI_Status *status, MPI_Comm *err_comm);
int smpi_p2p_mpi_testsome(int incount, MPI_Request *hs, smpi_req **rs, int *outcount,
                          int *indices, MPI_Status *statuses, MPI_Comm *err_comm);
void smpi_p2p_mpi_request_get_status(smpi_req *r, int *flag, MPI_Status *status);
/* r not NULL; its handle is freed, the caller sets it to MPI_REQUEST_NULL */
void smpi_p2p_mpi_request_free(smpi_req *r);
/* generalized requests (greq.c): MPI_Grequest_start and MPI_Grequest_complete without
 * their bindings; MPI_SUCCESS, or MPI_ERR_REQUEST for a request that is not an incomplete
 * generalized one */
int smpi_greq_start(MPI_Grequest_query_function *query, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel, void *extra, MPI_Request *request);
int smpi_greq_complete(smpi_req *r);
/* MPI_Isendrecv(_replace) (isendrecv.c): the blocking sendrecv run by a helper actor;
 * replace: rbuf/rcount/rdt is the one buffer (sbuf, scount, sdt unused) */
int smpi_p2p_mpi_isendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt,
                           int dst, int stag, void *rbuf, size_t rcount, const smpi_dt *rdt,
                           int src, int rtag, bool replace, const char *call,
                           MPI_Request *request);
int smpi_p2p_mpi_cancel(smpi_req *r, MPI_Comm *err_comm, smpi_p2p_why *why);

/* Probes and matched receives: message is MPI_MESSAGE_NO_PROC or a valid message handle. */
void smpi_p2p_mpi_iprobe(smpi_comm *c, int src, int tag, int *flag, MPI_Status *status);
void smpi_p2p_mpi_probe(smpi_comm *c, int src, int tag, const char *call, MPI_Status *status);
void smpi_p2p_mpi_improbe(smpi_comm *c, int src, int tag, int *flag, MPI_Message *message,
                          MPI_Status *status);
void smpi_p2p_mpi_mprobe(smpi_comm *c, int src, int tag, const char *call, MPI_Message *message,
                         MPI_Status *status);
int smpi_p2p_mpi_mrecv(void *buf, size_t count, const smpi_dt *dt, MPI_Message *message,
                       const char *call, MPI_Status *status, smpi_p2p_why *why);
void smpi_p2p_mpi_imrecv(void *buf, size_t count, const smpi_dt *dt, MPI_Message *message,
                         const char *call, MPI_Request *request);

/* What a rank blocked inside a collective shows in deadlock reports, e.g. "MPI_Bcast (root
 * 0)": set it before the collective's waits, NULL afterwards. The string must stay valid
 * meanwhile. Ranks blocked in a wait then read
 *   rank 2 (pid 3): MPI_Bcast (root 0) on MPI_COMM_WORLD: receive from rank 0, tag 1 */
void smpi_p2p_set_activity(const char *what);
/* The same with a root (>= 0), shown as "WHAT (root ROOT)": formatted only for a report. */
void smpi_p2p_set_activity_root(const char *what, int root);

/* At MPI_Finalize (smpi_mpi_finalize calls it for the finalizing rank): prints one warning per
 * receive the rank still has posted and per message it sent that nobody received yet, then
 * withdraws its posted receives and its unmatched rendezvous sends (their buffers are about
 * to disappear). Detached messages stay deliverable. Returns how many it reported. */
size_t smpi_p2p_report_pending(int world_rank);

/* Reads and checks the smpi/os|or|ois, thresholds and injected-cost keys. The runtime
 * calls it before the ranks start; the first point-to-point call does it otherwise (and
 * ends the job on a bad value). Returns 0, or -1 with a message naming the key in err. */
int smpi_p2p_init(char *err, size_t errlen);
/* Declares the keys smpi_p2p_init reads (idempotent; smpi_declare_config and
 * smpi_p2p_init call it). */
void smpi_p2p_declare_config(void);
/* Drops every request, message and queue (tests; between simulations). */
void smpi_p2p_reset(void);

/* Statistics (tests, benchmarks). */
typedef struct smpi_p2p_stats {
  unsigned long messages;   /* sends posted (PROC_NULL excluded) */
  unsigned long unexpected; /* of which found no posted receive */
  unsigned long transfers;  /* network transfers started */
  size_t queue_nodes;       /* live (context, receiver, source) queues */
  size_t live_requests;
  size_t live_messages;
} smpi_p2p_stats;
void smpi_p2p_get_stats(smpi_p2p_stats *out);

/* The simulated date (s), for the collectives that time their own messages (the automatic
 * selector, collectives/coll.c): they reach the engine only through this layer. */
double smpi_p2p_now(void);

#endif
