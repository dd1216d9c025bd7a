/* Nonblocking collectives (collectives/coll_nb.c): MPI_Ibcast & co. run the algorithm the
 * blocking call would run, in a helper actor of the calling rank, on a private matching
 * context; the request completes when the helper is done. */
#ifndef SMPI_COLLECTIVES_COLL_NB_H
#define SMPI_COLLECTIVES_COLL_NB_H

#include "collectives/coll_inter.h"
#include "collectives/coll_private.h"

/* Starts collective id on c with arguments a (checked, MPI_IN_PLACE resolved: exactly what
 * the blocking entry point hands to coll_run) and stores the new request's handle in
 * *request. The arrays a points to (counts, displacements, datatypes) are copied, the
 * datatypes held, so the caller may release them when this returns.
 * scratch: NULL, or the coll_ctx holding scratch buffers a refers to (in-place copies):
 * they are taken over and freed when the collective completes.
 * fname names the request in reports ("MPI_Ibcast", a string that lives forever).
 * Returns MPI_SUCCESS. */
int coll_nb_start(smpi_comm *c, coll_id id, const coll_args *a, coll_ctx *scratch,
                  const char *fname, MPI_Request *request);
/* The nonblocking form of collective k on intercommunicator c (coll_inter.h): the same as
 * coll_nb_start, the blocking intercommunicator algorithm run by the helper. */
int coll_nb_start_inter(smpi_comm *c, const coll_inter_call *k, const char *fname,
                        MPI_Request *request);

#endif
