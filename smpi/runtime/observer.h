/* Observers: how the layers below observe/ report what the simulation does, without
 * depending on who records it (observe/ sits above mpi/ and reads its requests).
 *
 *   mpi/request.c  post_send:  SMPI_OBSERVE(msg_post, m, r->coll);
 *                                  |  one load of smpi_observed and a predictable branch
 *                                  v  while nothing observes
 *   observe/trace.c            smpi_trace_msg_post(m, coll)   (smpi_obs.msg_post, set by
 *                                                              smpi_trace_init when on)
 *
 * The hooks and where they are called:
 *   call_begin / call_end      smpi_call_begin / smpi_call_end (bindings), outermost calls
 *   compute_begin/_end         smpi_execute_flops_now (emulation/burst.c): bursts, samples
 *   ti_compute                 a cost an MPI call injects as computation (MPI_Iprobe's
 *                              polling): a TI "compute" line only, as SimGrid records it
 *   req_start                  p2p_req_start: user (not collective) requests
 *   msg_post/deliver/drop      every message: posted, arrived, or ended undelivered
 *   wait_count                 Waitall(n)/Waitany(n)
 *   req_seen                   the request a Wait or Test collects
 *   coll                       a collective call, with its kind and counts (collectives/)
 *   io                         an MPI-IO access (io/file.c): the file, its byte range, pieces
 * Event times are the simulated clock (eng_now) when the hook runs; ranks are cooperative
 * threads, so hooks run in simulated-time order. */
#ifndef SMPI_RUNTIME_OBSERVER_H
#define SMPI_RUNTIME_OBSERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"
#include "smpi/runtime/world.h"

struct smpi_req;
struct p2p_msg;

/* Collectives (the coll hook: collectives/coll_trace.c): one call of
 * kind `verb` ("bcast", "gatherv", ... SimGrid's TI names). Counts are in elements of
 * their datatype; *counts arrays have comm-size entries or are NULL. send/recv/root/comp
 * are -1 when the collective has none. */
typedef struct smpi_trace_coll_args {
  const char *mpi_name; /* "MPI_Bcast": only the user's own call is recorded */
  const char *verb;
  long send, recv;
  const int *scounts, *rcounts;
  int nranks;
  int root;
  int comp;              /* reductions: SimGrid writes a 0 computation amount */
  MPI_Datatype sdt, rdt; /* MPI_DATATYPE_NULL: none */
} smpi_trace_coll_args;
/* An MPI-IO data access (the io hook: smpi/io/file.c), as the time-independent trace writes
 * it: `verb` "file_read", "file_write", "file_read_all" or "file_write_all"; the rank's data
 * bytes, in `pieces` contiguous pieces from byte `offset` of the file to offset + span; the
 * size of the file's communicator. */
typedef struct smpi_trace_io_args {
  const char *verb;
  const char *file;
  long long offset, bytes, span, pieces;
  int comm_size;
} smpi_trace_io_args;

typedef struct smpi_observer {
  void (*call_begin)(smpi_rank *me, const char *fname);
  void (*call_end)(smpi_rank *me);
  void (*compute_begin)(double flops);
  void (*compute_end)(double flops);
  void (*ti_compute)(double flops);
  void (*req_start)(const struct smpi_req *r);
  void (*req_seen)(const struct smpi_req *r);
  void (*wait_count)(size_t n);
  void (*msg_post)(const struct p2p_msg *m, bool coll);
  void (*msg_deliver)(const struct p2p_msg *m);
  void (*msg_drop)(const struct p2p_msg *m);
  void (*coll)(const smpi_trace_coll_args *a);
  void (*io)(const smpi_trace_io_args *a);
} smpi_observer;

/* true while an observer is installed (tracing or the profile): read by every hook site */
extern bool smpi_observed;
extern smpi_observer smpi_obs;

/* Installs obs (every hook set) until smpi_observer_remove. */
void smpi_observer_install(const smpi_observer *obs);
void smpi_observer_remove(void);

#define SMPI_OBSERVE(hook, ...)             \
  do {                                      \
    if (__builtin_expect(smpi_observed, 0)) \
      smpi_obs.hook(__VA_ARGS__);           \
  } while (0)

#endif
