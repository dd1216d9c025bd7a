/* A rank's MPI life (smpi/mpi/init.c): what MPI_Init, MPI_Finalize and MPI_Abort do once
 * their bindings (smpi/bindings/env.c) have entered the call, for the replay and the bindings
 * alike.
 *
 *   rank phase:  CREATED --smpi_mpi_init--> INITIALIZED --smpi_mpi_finalize--> FINALIZED
 *
 * Every other MPI call is refused outside INITIALIZED (smpi/bindings/call.c). */
#ifndef SMPI_SMPI_INIT_H
#define SMPI_SMPI_INIT_H

#include "smpi/mpi/comm.h"
#include "smpi/runtime/world.h"

/* Initializes the rank's MPI state (its MPI_COMM_WORLD and MPI_COMM_SELF objects), moves
 * it to INITIALIZED and pays smpi/init; the observers see the call fname ("MPI_Init") once
 * the rank is initialized. A rank that is not CREATED (a second MPI_Init, or one after
 * MPI_Finalize) ends the job with a message. The caller is inside the call
 * (smpi_enter_call). */
void smpi_mpi_init(smpi_rank *me, const char *fname);
/* Deletes the attributes of the rank's MPI_COMM_SELF (MPI 3.1 section 8.7.1: first, while
 * MPI is still usable in their callbacks), reports what it left pending (receives posted,
 * messages nobody received) and moves it to FINALIZED. */
void smpi_mpi_finalize(smpi_rank *me);
/* Ends the job with errorcode after a message naming the calling rank, the communicator
 * (c may be NULL: an invalid one) and the simulated time. */
_Noreturn void smpi_mpi_abort(const smpi_comm *c, int errorcode);

#endif
