/* Attribute caching (smpi/mpi/attr.c) for communicators, datatypes and windows.
 *
 * Attributes belong to the process that set them, so an object is named by its handle and
 * the calling rank: predefined handles (MPI_COMM_WORLD, MPI_INT) carry separate attributes
 * on each rank. The object modules only call the two hooks below at the right moments:
 *
 *     MPI_Type_dup / MPI_Comm_dup:   rc = smpi_attr_copy_all(old, new)   copy callbacks
 *     MPI_Type_free / MPI_Win_free:  rc = smpi_attr_delete_all(h)        delete callbacks
 *
 * Both return MPI_SUCCESS or the first error code a user callback returned (which the
 * caller reports through its error handler). Order, as MPICH's: newest attribute first for
 * both copies and deletions; replacing a value keeps the attribute's place. */
#ifndef SMPI_SMPI_ATTR_H
#define SMPI_SMPI_ATTR_H

#include <stdbool.h>

#include "smpi/mpi.h"

/* Calls the copy callback of every attribute of oldh (on the calling rank) and attaches
 * those it asks for to newh. On a callback error, newh is left with no attribute. */
int smpi_attr_copy_all(int oldh, int newh);
/* Calls the delete callback of every attribute of h and forgets them all, even when a
 * callback fails (the object is going away anyway). */
int smpi_attr_delete_all(int h);
/* Windows answer their predefined keys (MPI_WIN_BASE, ...) through this function, which
 * the window module registers: it sets *value to a pointer to the attribute's value and
 * returns true, or returns false when it has none. */
typedef bool (*smpi_attr_builtin_fn)(MPI_Win win, int keyval, void **value);
void smpi_attr_set_win_builtin(smpi_attr_builtin_fn fn);

#endif
