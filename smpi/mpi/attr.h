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

/* What the MPI functions on keyvals and attributes do once the object is checked
 * (smpi/bindings/attr.c). kind is the object's SMPI_KIND_COMM, SMPI_KIND_DATATYPE or
 * SMPI_KIND_WIN (smpi/mpi/handle.h): a keyval serves one kind. Each returns MPI_SUCCESS or
 * the error to report: MPI_ERR_KEYVAL for a keyval that is not a live one of that kind (or
 * a predefined one, where the call would change it), MPI_ERR_ARG for a missing out
 * argument, or the error code a user callback returned. */
int smpi_attr_keyval_create(int kind, MPI_Comm_copy_attr_function *copy,
                            MPI_Comm_delete_attr_function *del, int *keyval, void *extra);
int smpi_attr_keyval_free(int kind, int *keyval); /* *keyval becomes MPI_KEYVAL_INVALID */
/* On object handle h (attributes of the calling rank): set (replacing a value runs the
 * delete callback first), get (*flag: whether there is one; predefined keys always answer
 * on communicators, through the window module's function on windows), delete (none to
 * delete is no error). */
int smpi_attr_set(int h, int kind, int keyval, void *val);
int smpi_attr_get(int h, int kind, int keyval, void *out, int *flag);
int smpi_attr_delete(int h, int kind, int keyval);

#endif
