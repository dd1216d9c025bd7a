/* errors.c: error handler invocation for the MPI layer.
 *
 * Placeholder until communicators and error handlers exist: every error behaves as under
 * MPI_ERRORS_RETURN. The runtime replaces this with the real dispatch (see smpi_internal.h). */
#include "smpi/smpi_internal.h"

int smpi_errhandler_invoke_world(int code, const char *name)
{
  (void)name;
  return code;
}
