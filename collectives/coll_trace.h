/* Recording of collective calls for the traces (collectives/coll_trace.c): run_top calls
 * coll_trace(c, id, &args) once the arguments are resolved, while smpi_observed. */
#ifndef SMPI_COLLECTIVES_COLL_TRACE_H
#define SMPI_COLLECTIVES_COLL_TRACE_H

#include "smpi/mpi/comm.h"
#include "smpi/runtime/observer.h"

struct coll_args;

/* Reports the call to the observer (smpi_obs.coll); id is a coll_id
 * (collectives/coll_private.h). */
void coll_trace(smpi_comm *c, int id, const struct coll_args *a);

#endif
