/* The gfortran runtime under simulation: STOP ends one rank, and unit numbers are per rank.
 *
 * smpif90 links programs with -Wl,--wrap= for the entry points below, so the program's calls
 * land here (libgfortran's own calls do not).
 *
 * STOP: gfortran compiles `STOP`, `STOP 3` and `STOP 'done'` into _gfortran_stop_numeric and
 * _gfortran_stop_string, which print and call exit(): in smpi that would end every rank of
 * the job at once (all ranks are one process), while in a real run it ends one MPI process.
 * Here, in a rank, the message is printed as gfortran prints it and the rank ends as if its
 * main had returned the code (smpi_rank_stop); outside a simulation, the process stops as
 * with gfortran. ERROR STOP is left alone: it ends the whole program, as MPI_Abort would.
 *
 * Units: libgfortran keeps one table of units for the process, so rank 0's OPEN(10, ...)
 * and rank 1's OPEN(10, ...) would be the same connection (the second reconnects it). Each
 * I/O statement passes its unit in the parameter block every st_* entry point begins with;
 * a unit the program numbered itself is made distinct per rank:
 *
 *     rank r, unit u (0 < u < 100000, not 0/5/6)  ->  u + r * 100000
 *     rank 0: unchanged          preconnected 0, 5, 6 (stderr, stdin, stdout): shared, as C's
 *     NEWUNIT= units (negative): already distinct           stdio streams are
 *
 * so each rank's files are its own, as C's FILE * are. Only gfortran's messages show the
 * translated number ("unit = 200010"). */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "smpi/launch/launch.h"
#include "smpi/runtime/world.h"
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

/* ---- units ---- */

#define FRT_UNIT_STRIDE 100000

/* the head of libgfortran's st_parameter_common, first member of every st_parameter_* */
struct frt_common {
  int32_t flags;
  int32_t unit;
};

static int32_t frt_unit(int32_t u)
{
  smpi_rank *me = smpi_self();
  if (!me || me->rank == 0 || u <= 0 || u == 5 || u == 6 || u >= FRT_UNIT_STRIDE ||
      me->rank > (INT32_MAX - FRT_UNIT_STRIDE) / FRT_UNIT_STRIDE)
    return u;
  return u + me->rank * FRT_UNIT_STRIDE;
}

/* libgfortran's function: the program's reference was wrapped, so it is looked up by name */
static void *frt_real(const char *name)
{
  void *f = dlsym(RTLD_DEFAULT, name);
  if (!f) {
    fprintf(stderr,
            "smpi: %s not found in the process (a program linked with -static-libgfortran? "
            "smpif90 needs the shared libgfortran)\n",
            name);
    abort();
  }
  return f;
}

#define FRT_WRAP(name)                                                    \
  SMPI_PUBLIC void __wrap__gfortran_##name(struct frt_common *p);         \
  void __wrap__gfortran_##name(struct frt_common *p)                      \
  {                                                                       \
    static void (*real)(struct frt_common *);                             \
    if (!real)                                                            \
      real = (void (*)(struct frt_common *))frt_real("_gfortran_" #name); \
    p->unit = frt_unit(p->unit);                                          \
    real(p);                                                              \
  }
FRT_WRAP(st_open)
FRT_WRAP(st_close)
FRT_WRAP(st_read)
FRT_WRAP(st_write)
FRT_WRAP(st_inquire)
FRT_WRAP(st_rewind)
FRT_WRAP(st_backspace)
FRT_WRAP(st_endfile)
FRT_WRAP(st_flush)
FRT_WRAP(st_wait)
