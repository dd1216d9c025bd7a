/* smpi_internal.h: the MPI layer's internal header — what the files of smpi/ share and
 * applications never see. Public names stay in include/smpi/mpi.h and smpi.h. */
#ifndef SMPI_SMPI_INTERNAL_H
#define SMPI_SMPI_INTERNAL_H

#include "smpi/mpi.h"

/* What every not-yet-implemented MPI function does (the stubs api.c generates from
 * mpi_functions.h): one line on stderr naming the function, then the error goes through
 * smpi_errhandler_invoke_world like any other MPI error. MPI_T functions skip the error
 * handler (the tool interface only returns codes). Returns the code the caller must return. */
int smpi_unsupported(const char *name);

/* Reports error `code` raised by MPI function `name` (e.g. "MPI_Send") to the error handler
 * of MPI_COMM_WORLD and returns the code the function must return (if the handler returns).
 * TODO(runtime): invoke the handler actually attached to MPI_COMM_WORLD (MPI_ERRORS_ARE_FATAL
 * by default: print and abort the simulation). For now (smpi/mpi/errors.c) it returns `code`. */
int smpi_errhandler_invoke_world(int code, const char *name);

#endif /* SMPI_SMPI_INTERNAL_H */
