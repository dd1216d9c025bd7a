/* Fortran's STOP in a simulated rank ends that rank only.
 *
 * gfortran compiles `STOP`, `STOP 3` and `STOP 'done'` into calls of _gfortran_stop_numeric
 * and _gfortran_stop_string, which print and call exit(): in smpi that would end every rank
 * of the job at once (all ranks are one process), although in a real run it ends one MPI
 * process. smpif90 links programs with -Wl,--wrap= for both, so the calls land here: in a
 * rank, the message is printed as gfortran prints it and the rank ends as if its main had
 * returned the code (smpi_rank_stop); outside a simulation, the process stops as with
 * gfortran. ERROR STOP is left alone: it ends the whole program, as MPI_Abort would. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "smpi/launch/launch.h"
#include "smpi/smpi.h"

SMPI_PUBLIC void __wrap__gfortran_stop_numeric(int code, bool quiet);
SMPI_PUBLIC void __wrap__gfortran_stop_string(const char *string, size_t len, bool quiet);

void __wrap__gfortran_stop_numeric(int code, bool quiet)
{
  fflush(stdout);
  if (!quiet)
    fprintf(stderr, "STOP %d\n", code);
  if (!smpi_rank_stop(code))
    exit(code);
}

void __wrap__gfortran_stop_string(const char *string, size_t len, bool quiet)
{
  fflush(stdout);
  if (string && !quiet)
    fprintf(stderr, "STOP %.*s\n", (int)len, string);
  if (!smpi_rank_stop(0))
    exit(0);
}
