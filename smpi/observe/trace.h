/* Instrumentation of the MPI layer: Paje and Chrome-JSON traces, time-independent (TI)
 * traces, and the per-rank profile (smpi/observe/trace.c and its back ends trace_paje.c,
 * trace_json.c, trace_ti.c, profile.c). See docs/tracing.md for the options and formats.
 *
 * The layers below report events through the observer hooks of smpi/runtime/observer.h;
 * smpi_trace_init installs the functions below as that observer when any output is on. */
#ifndef SMPI_SMPI_TRACE_H
#define SMPI_SMPI_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"
#include "smpi/runtime/observer.h"
#include "smpi/runtime/world.h"

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

/* SimGrid's TRACE_category(_with_color) (color "r g b" in [0,1], NULL: SimGrid's random
 * one) and TRACE_smpi_set_category (NULL or "": none) for the calling rank: no effect
 * unless tracing/categorized is on. */
void smpi_trace_category(const char *name, const char *color);
void smpi_trace_set_category(const char *name);

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

void smpi_trace_coll(const smpi_trace_coll_args *a);
void smpi_trace_io(const smpi_trace_io_args *a);

#endif
