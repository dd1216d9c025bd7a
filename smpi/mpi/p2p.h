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
 * MPI_ANY_TAG. Arguments are not checked here (the PMPI layer and the collectives do it):
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
};

/* Nonblocking operations; the request is owned by the caller until a wait frees it. */
smpi_req *smpi_p2p_isend(const void *buf, size_t count, const smpi_dt *dt, int dst, int tag,
                         smpi_comm *c, unsigned flags);
smpi_req *smpi_p2p_irecv(void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                         smpi_comm *c, unsigned flags);

/* Persistent requests: post with smpi_p2p_start, wait as usual (a wait leaves them
 * inactive instead of freeing them), free with smpi_p2p_free once inactive. */
smpi_req *smpi_p2p_send_init(const void *buf, size_t count, const smpi_dt *dt, int dst,
                             int tag, smpi_comm *c, unsigned flags);
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

/* What a rank blocked inside a collective shows in deadlock reports, e.g. "MPI_Bcast (root
 * 0)": set it before the collective's waits, NULL afterwards. The string must stay valid
 * meanwhile. Ranks blocked in a wait then read
 *   rank 2 (pid 3): MPI_Bcast (root 0) on MPI_COMM_WORLD: receive from rank 0, tag 1 */
void smpi_p2p_set_activity(const char *what);
/* The same with a root (>= 0), shown as "WHAT (root ROOT)": formatted only for a report. */
void smpi_p2p_set_activity_root(const char *what, int root);

/* At MPI_Finalize (the runtime calls it for the finalizing rank): prints one warning per
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
  unsigned long messages;    /* sends posted (PROC_NULL excluded) */
  unsigned long unexpected;  /* of which found no posted receive */
  unsigned long transfers;   /* network transfers started */
  size_t queue_nodes;        /* live (context, receiver, source) queues */
  size_t live_requests;
  size_t live_messages;
} smpi_p2p_stats;
void smpi_p2p_get_stats(smpi_p2p_stats *out);

#endif
