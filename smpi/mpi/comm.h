/* Communicators, groups, error handlers (smpi/mpi/comm.c, group.c, errhandler.c).
 *
 * Groups are immutable and shared (refcounted) between the ranks that hold them: a
 * communicator of 4 096 ranks holds one group array, not one per member. A communicator
 * object belongs to one rank (attributes, name and error handler are per process in MPI),
 * and points to the shared group and to a context id that all its members agree on; the
 * point-to-point layer matches messages by (context id, source, tag).
 *
 * MPI_COMM_WORLD and MPI_COMM_SELF are predefined handles shared by all ranks:
 * smpi_comm_get resolves them to the calling rank's object. */
#ifndef SMPI_SMPI_COMM_H
#define SMPI_SMPI_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "smpi/mpi.h"

typedef struct smpi_comm smpi_comm;
typedef struct smpi_group smpi_group;

/* Called by the runtime once the number of ranks is known / when a rank calls MPI_Init. */
void smpi_comm_world_setup(int np);
void smpi_comm_rank_init(int world_rank); /* creates that rank's WORLD and SELF objects */

smpi_comm *smpi_comm_get(MPI_Comm h);          /* NULL for null, freed, or non-comm handles */
int smpi_comm_size(const smpi_comm *c);        /* local group size */
int smpi_comm_rank(const smpi_comm *c);        /* caller's rank in it */
int smpi_comm_remote_size(const smpi_comm *c); /* intercommunicators; 0 otherwise */
bool smpi_comm_is_inter(const smpi_comm *c);
/* World rank of a rank of c (for an intercommunicator: of its remote group, which is the
 * group point-to-point addresses). */
int smpi_comm_world_rank(const smpi_comm *c, int rank);
/* Context ids: point-to-point and collective traffic of one communicator never match each
 * other. Both are the same on every member. */
uint32_t smpi_comm_p2p_context(const smpi_comm *c);
uint32_t smpi_comm_coll_context(const smpi_comm *c);
/* The handle the calling rank uses for c, and its printable name ("MPI_COMM_WORLD", a
 * name set with MPI_Comm_set_name, or "communicator 0x4000103"). */
MPI_Comm smpi_comm_handle(const smpi_comm *c);
const char *smpi_comm_display_name(const smpi_comm *c);

/* Error handling: reports `code` raised by MPI function fname on communicator h through
 * its error handler (MPI_ERRORS_ARE_FATAL by default: message naming the rank, function
 * and error, then the job ends), and returns the code the function must return. A null or
 * invalid h uses MPI_COMM_WORLD's handler (what the standard says for errors not tied to a
 * communicator), and the message names h: "smpi: rank 0: MPI_Send: MPI_ERR_COMM: invalid
 * communicator (MPI_COMM_NULL)", or "(handle 0x4000105, freed)". So pass the communicator
 * argument that failed to resolve, not MPI_COMM_WORLD. */
int smpi_comm_error(MPI_Comm h, int code, const char *fname);
/* The same with a detail for the fatal message, e.g. "dest 7 with 4 ranks": printed as
 * "smpi: rank 3: MPI_Send on MPI_COMM_WORLD: MPI_ERR_RANK: invalid rank (dest 7 with 4 ranks)" */
int smpi_comm_errorf(MPI_Comm h, int code, const char *fname, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Extensions for the rest of the MPI layer. */
/* A request or another object that outlives the user's handle holds a reference: the
 * object stays valid after MPI_Comm_free until the last unref (the handle itself is gone). */
void smpi_comm_ref(smpi_comm *c);
void smpi_comm_unref(smpi_comm *c);
/* Rank in c's local group of a world rank, MPI_UNDEFINED if it is not a member (O(1)). */
int smpi_comm_rank_of_world(const smpi_comm *c, int world_rank);
/* World rank of rank r of c's local group (for an intracommunicator, smpi_comm_world_rank). */
int smpi_comm_local_world_rank(const smpi_comm *c, int r);
/* MPI_Finalize calls it first: deletes the attributes of the rank's MPI_COMM_SELF, newest
 * first, as MPI 3.1 section 8.7.1 requires (libraries hook their clean-up there). */
void smpi_comm_rank_finalize(int world_rank);

/* What MPI_Comm_dup, MPI_Comm_free, MPI_Comm_split, MPI_Comm_set_errhandler and
 * MPI_Error_string do once their arguments are checked (smpi/bindings/ checks them; the
 * rest of the MPI layer calls these directly, with valid arguments). Each returns
 * MPI_SUCCESS or an error class, which the caller reports through its error handler; fname
 * is the MPI function the creation messages and diagnostics are charged to. MPI_Comm_rank
 * and MPI_Comm_size are smpi_comm_rank and smpi_comm_size above. */
/* A duplicate with c's attributes (copy callbacks), hints and topology: *out, or NULL and
 * the first error a copy callback returned. Collective over c (a broadcast's cost). */
int smpi_comm_dup(smpi_comm *c, smpi_comm **out, const char *fname);
/* Deletes c's attributes (delete callbacks), frees its handle and drops the caller's
 * reference: c is gone even when a callback fails, whose error is returned. Not for
 * MPI_COMM_WORLD or MPI_COMM_SELF. */
int smpi_comm_free(smpi_comm *c);
/* MPI_Comm_split of the intracommunicator c (MPI_ERR_COMM for an intercommunicator): *out
 * is NULL for color MPI_UNDEFINED. Also the machinery of Comm_create, Cart_sub, ... */
int smpi_comm_split(smpi_comm *c, int color, int key, smpi_comm **out, const char *fname);
/* Attaches error handler eh to c: MPI_ERR_ARG if eh is not a communicator error handler. */
int smpi_comm_set_errhandler(smpi_comm *c, MPI_Errhandler eh);
/* MPI_Error_string: the string of code (or "unknown error code N"), at most
 * MPI_MAX_ERROR_STRING - 1 characters and a NUL into string, its length into *resultlen.
 * Always MPI_SUCCESS. */
int smpi_error_string_copy(int code, char *string, int *resultlen);

#endif
