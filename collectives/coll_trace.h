/* Recording of collective calls for the traces (collectives/coll_trace.c): run_top calls
 * SMPI_TRACE(coll_trace(c, id, &args)) once the arguments are resolved. */
#ifndef SMPI_COLLECTIVES_COLL_TRACE_H
#define SMPI_COLLECTIVES_COLL_TRACE_H

#include "smpi/mpi/comm.h"
#include "smpi/observe/trace.h" /* SMPI_TRACE */

struct coll_args;

/* id is a coll_id (collectives/coll_private.h) */
void coll_trace(smpi_comm *c, int id, const struct coll_args *a);

#endif
