/* Diagnostics of wrong MPI programs (smpi/mpi/check.c): where each MPI call came from, who waits
 * for whom in a deadlock, collectives that do not match across ranks, send buffers modified
 * while a nonblocking send is pending, requests never completed.
 *
 * Call sites. SMPI_ENTER (smpi/bindings/call.h) passes the return address of the PMPI function, i.e.
 * the instruction after the application's `call MPI_Send` (the MPI_Name wrappers of api.c
 * are tail calls at -O2), and the outermost call of a rank records it here: two stores per
 * call. Addresses become "file.c:line" only when a report needs them, through
 * `addr2line -e <object>` (binutils) run once per object as a coprocess; programs built
 * without -g, or a binutils-less machine, just get no line.
 *
 * Collective matching. Every blocking collective (collectives/coll.c's run_top) and every
 * nonblocking one at its start calls smpi_check_collective. Each rank counts the
 * collectives it calls on a communicator; the k-th call of every member meets in one shared
 * record (the simulator is one process: no simulated message, no change in timing):
 *
 *   comm ctx 42   rank 0 -> seq 7  --+
 *                 rank 1 -> seq 7  --+-->  record #7 {MPI_Bcast, root 0, 400 B, MPI_INT}
 *                 rank 2 -> seq 6        (rank 2 has not reached its 7th call yet)
 *
 * The first member to reach step k writes the record, the others compare with it; the last
 * one frees it. A difference ends the job with a report naming both ranks, the calls and
 * what differs. Cost: two hash lookups per rank and call (smpi/check-collectives:no turns
 * it off; tools/bench numbers in docs/teaching.md). */
#ifndef SMPI_SMPI_CHECK_H
#define SMPI_SMPI_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi/comm.h"
#include "smpi/mpi.h"

typedef struct smpi_req smpi_req;
typedef struct p2p_msg p2p_msg;

/* Declares smpi/check-collectives, smpi/check-buffers (idempotent; smpi_declare_config). */
void smpi_check_declare_config(void);

/* ---- call sites ---- */

/* The current outermost MPI call of every rank (set by smpi_call_begin_at). */
extern const void **smpi_check_sites;
extern const char **smpi_check_calls;
void smpi_check_alloc_sites(void);

static inline void smpi_check_enter(int world_rank, const char *call, const void *site)
{
  if (__builtin_expect(!smpi_check_sites, 0))
    smpi_check_alloc_sites();
  smpi_check_sites[world_rank] = site;
  smpi_check_calls[world_rank] = call;
}
/* Where rank r's current (or last) MPI call came from; NULL if unknown. */
const void *smpi_check_site_of(int world_rank);
/* " at file.c:12" for a call site, or "" when unknown (no -g, no addr2line, NULL). The
 * string stays valid until the end of the run. */
const char *smpi_check_where(const void *site);

/* ---- collectives ---- */

/* What must agree across the members of one collective call. */
typedef struct smpi_check_coll {
  const char *call;   /* "MPI_Bcast", "MPI_Ibcast": blocking and nonblocking differ */
  int root;           /* rank in the communicator, -1 for unrooted collectives */
  MPI_Op op;          /* a predefined op's handle, SMPI_CHECK_OP_USER for a user-defined one,
                       * MPI_OP_NULL without one: an identity taken at the call, never the op
                       * object, which the rank may free before the others arrive */
  long long bytes;    /* bytes of the part every member must agree on (the vector of a
                          * reduction, one rank's block of a gather...), -1: not checked */
  MPI_Datatype basic; /* smpi_dt_basic_type of the data, MPI_DATATYPE_NULL: unknown */
} smpi_check_coll;

/* smpi_check_coll.op of a user-defined op (MPI_Op_create); never a valid handle */
#define SMPI_CHECK_OP_USER ((MPI_Op)-1)

/* Called by every member of c at the start of each collective, in program order. Returns
 * if it matches what the other members called at the same step; otherwise prints the
 * mismatch and ends the job (exit status 1). No-op with smpi/check-collectives:no and on
 * intercommunicators. */
void smpi_check_collective(smpi_comm *c, const smpi_check_coll *k);
bool smpi_check_collectives_enabled(void);
/* Rank's MPI_Comm_free of c (a rank may free it while others still call collectives on
 * it): once every member has freed it, the checker's state of c goes. */
void smpi_check_comm_freed(smpi_comm *c);

/* ---- point-to-point type matching (smpi/check-types) ---- */

/* A message m is delivered to receive r and their type signatures (smpi_dt_signature) differ:
 * with smpi/check-types, unless either one matches anything, the data is empty or it is a
 * collective's traffic, prints the mismatch with both call sites and returns MPI_ERR_TYPE
 * (the receive's error, through its communicator's handler); otherwise returns err. */
int smpi_check_types(const p2p_msg *m, const smpi_req *r, int err);

/* ---- send buffers (smpi/check-buffers:yes) ---- */

extern bool smpi_check_buffers;
/* A point-to-point request (not a collective's) starts: its buffer must not overlap the
 * buffer of a request of the same rank still in flight, unless both are sends (ends the job
 * otherwise); it joins them. A user-visible one (with a handle) also gets a checksum of its
 * buffer. */
void smpi_check_req_posted(smpi_req *r);
/* A watched receive's message arrives: its buffer must be as it was when posted (the program
 * wrote into it otherwise: ends the job); ..._filled: the checksum of what was delivered. */
void smpi_check_recv_arrives(smpi_req *r, const p2p_msg *m);
void smpi_check_recv_filled(smpi_req *r);
/* It completes (wait/test): the buffer must be unchanged since the post (send) or the arrival
 * (receive); ends the job otherwise. It leaves the requests in flight. */
void smpi_check_req_finished(smpi_req *r);
/* It is destroyed without a wait or test (MPI_Request_free): it leaves them, unchecked. */
void smpi_check_req_forget(smpi_req *r);

/* ---- reports ---- */

/* After a deadlock (the engine printed the blocked actors): the wait-for graph of the MPI
 * ranks, its cycles, ranks waiting for ranks that are gone, with call sites. */
void smpi_check_report_deadlock(void);
/* A rank called how(code) ("exit", "_exit") between MPI_Init and MPI_Finalize. Returns how
 * many other ranks had neither finalized nor ended: if any, it printed who called it and where
 * each of them waits (the caller then ends the job, never with status 0, as mpiexec would). */
int smpi_check_report_exit(int rank, int code, const char *how);
/* After a normal end: requests the program never completed (waited, tested or freed), with
 * the rank, call, peer, tag, size and where they were posted. Returns how many. Logs
 * (smpi_check, debug) how many communicators still have collective-matching state. */
size_t smpi_check_report_requests(void);

/* ---- crashes ---- */

struct sig_buf;
/* From a signal handler (async-signal-safe): if a message's payload was being copied when
 * the fault at addr happened, appends to b which message (sender and receiver ranks, their
 * calls, count, datatype and buffer range) and which buffer the address lies in, and
 * returns true; false when no copy was in progress. */
bool smpi_check_describe_copy(struct sig_buf *b, const void *addr);

#endif
