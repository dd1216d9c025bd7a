/* Instrumentation of the MPI layer: Paje and Chrome-JSON traces, time-independent (TI)
 * traces, and the per-rank profile (smpi/observe/trace.c and its back ends trace_paje.c,
 * trace_json.c, trace_ti.c, profile.c). See docs/tracing.md for the options and formats.
 *
 * The rest of the MPI layer calls the hooks below through SMPI_TRACE, which costs one
 * load and one predictable branch while nothing is traced:
 *
 *   smpi_call_begin   -> smpi_trace_call_begin(me, "MPI_Send")   outermost calls only
 *     smpi_execute_flops_now -> smpi_trace_compute_begin/end     CPU bursts, sampled blocks
 *     p2p_req_start          -> smpi_trace_req_start(r)          user (not collective) requests
 *     post_send              -> smpi_trace_msg_post(m, coll)     every message
 *     deliver                -> smpi_trace_msg_deliver(m)        its arrival
 *     p2p_msg_destroy        -> smpi_trace_msg_drop(m)           or its end undelivered
 *     p2p_waitall/waitany    -> smpi_trace_wait_count(n)         Waitall(n)/Waitany(n)
 *     p2p_req_finish         -> smpi_trace_req_seen(r)           the request a Wait collects
 *     run_top                -> smpi_trace_coll(...)             collective kind and counts
 *   smpi_call_end     -> smpi_trace_call_end(me)
 *
 * Event times are the simulated clock (eng_now) when the hook runs; ranks are cooperative
 * threads, so hooks run in simulated-time order and the trace files need no sorting. */
#ifndef SMPI_SMPI_TRACE_H
#define SMPI_SMPI_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"

/* true while any output (tracing or profile) is on; read by every hook site */
extern bool smpi_trace_on;

#define SMPI_TRACE(call)                                                                 \
  do {                                                                                   \
    if (__builtin_expect(smpi_trace_on, 0))                                              \
      call;                                                                              \
  } while (0)

struct smpi_req;
struct p2p_msg;
struct smpi_dt;

/* Declares tracing, tracing/... and smpi/profile keys (idempotent; smpi_declare_config). */
void smpi_trace_declare_config(void);
/* Reads the keys and opens the outputs; the runtime calls it once the ranks exist and
 * before the simulation starts. Returns 0, or -1 with a message in err (bad option value,
 * file that cannot be created). */
int smpi_trace_init(char *err, size_t errlen);
/* Closes the traces and prints the profile; after the simulation. */
void smpi_trace_finish(void);

/* MPI_Init (or MPI_Init_thread) returned in rank me. */
void smpi_trace_rank_init(smpi_rank *me);
/* Entry and exit of an MPI call (every nesting level: the hooks keep only the outermost). */
void smpi_trace_call_begin(smpi_rank *me, const char *fname);
void smpi_trace_call_end(smpi_rank *me);
/* A computation of flops starts / ends now in the calling rank. */
void smpi_trace_compute_begin(double flops);
void smpi_trace_compute_end(double flops);
/* A cost an MPI call injects as computation (MPI_Iprobe's polling): a TI "compute" line
 * only, as SimGrid records it, so that a replay pays it too. */
void smpi_trace_ti_compute(double flops);

/* point-to-point (smpi/mpi/request.c) */
void smpi_trace_req_start(const struct smpi_req *r);
void smpi_trace_req_seen(const struct smpi_req *r);
void smpi_trace_wait_count(size_t n);
void smpi_trace_msg_post(const struct p2p_msg *m, bool coll);
void smpi_trace_msg_deliver(const struct p2p_msg *m);
void smpi_trace_msg_drop(const struct p2p_msg *m);

/* Collectives (collectives/coll.c run_top, through collectives/coll_trace.c): one call of
 * kind `verb` ("bcast", "gatherv", ... SimGrid's TI names). Counts are in elements of
 * their datatype; *counts arrays have comm-size entries or are NULL. send/recv/root/comp
 * are -1 when the collective has none. */
typedef struct smpi_trace_coll_args {
  const char *mpi_name;      /* "MPI_Bcast": only the user's own call is recorded */
  const char *verb;
  long send, recv;
  const int *scounts, *rcounts;
  int nranks;
  int root;
  int comp;                  /* reductions: SimGrid writes a 0 computation amount */
  MPI_Datatype sdt, rdt;     /* MPI_DATATYPE_NULL: none */
} smpi_trace_coll_args;
void smpi_trace_coll(const smpi_trace_coll_args *a);

#endif
