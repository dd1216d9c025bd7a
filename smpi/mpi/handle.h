/* Handle tables: MPI handles (ints, encoding in mpi.h) <-> runtime objects.
 *
 *   MPI_Comm h = smpi_handle_new(SMPI_KIND_COMM, obj);   index >= SMPI_PREDEFINED_LIMIT
 *   smpi_comm *c = smpi_handle_get(h, SMPI_KIND_COMM);   NULL: null, freed, wrong kind, junk
 *   smpi_handle_free(h);                                 the slot remembers it was freed
 *
 * A freed slot is reused only after SMPI_HANDLE_REUSE_DELAY other frees of the same kind
 * (FIFO), so a program that keeps using a handle after freeing it gets an error rather
 * than another object, while request-heavy programs do not grow the tables forever.
 * Predefined objects are registered at fixed indices with smpi_handle_set_predefined. */
#ifndef SMPI_SMPI_HANDLE_H
#define SMPI_SMPI_HANDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"

#define SMPI_HANDLE_REUSE_DELAY 1024

int smpi_handle_new(int kind, void *obj);
void smpi_handle_set_predefined(int handle, void *obj);
void *smpi_handle_get(int handle, int kind);
/* replace the object of a live handle (e.g. a request reused by MPI_Start) */
void smpi_handle_replace(int handle, void *obj);
void smpi_handle_free(int handle);
bool smpi_handle_is_predefined(int handle);
/* For messages about an argument smpi_handle_get(handle, kind) refused: its null name
 * ("MPI_COMM_NULL"), or "handle 0x4000105, freed", "..., a datatype, not a communicator",
 * "..., never created". Writes at most len bytes into buf and returns buf. */
char *smpi_handle_describe(int handle, int kind, char *buf, size_t len);
/* Live user-created handles of a kind, for leak reports: calls fn for each, in index
 * order; returns how many there are. */
size_t smpi_handle_foreach_live(int kind, void (*fn)(int handle, void *obj, void *data),
                                void *data);
void smpi_handle_reset_all(void); /* tests */

#endif
