/* exit(), _exit(), _Exit() and abort() called by a rank end that rank only, as they end one
 * process of a real MPI job; the simulation goes on until every rank has ended, then prints
 * its reports (simulated time, complete traces) as usual.
 *
 *   rank 1: ... MPI_Finalize(); exit(0);     -> rank 1 ends here (stdio flushed)
 *   rank 0: ... MPI_Finalize(); printf(...); -> still runs, prints; the job ends after it
 *
 * Mechanism: interposition. libsmpi.so defines these names and is loaded before libc, so the
 * program's calls, and those of every library it links (static or shared, built by smpicc or
 * not), reach the definitions below. Calls made inside libc itself (error(), err(), the C
 * runtime after main) bypass them: launch.c's on_exit handler reports those, as before.
 * Outside a running rank (before or after the simulation, the maestro, a program run without
 * smpirun) each one is libc's own.
 *
 * abort() ends only the rank when the rank is past MPI_Finalize and in its own code: before
 * that it is a crash (the crash report names the rank and ends the job, as mpiexec would). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "smpi/emulation/ctors.h"
#include "smpi/launch/launch.h"
#include "smpi/runtime/world.h"
#include "smpi/smpi.h"

/* A rank of the running simulation is calling, from its own code. */
static smpi_rank *rank_calling(void)
{
  smpi_rank *me = smpi_self();
  return me && smpi_launch_running() && smpi_thread_self() == smpi_w.thread ? me : NULL;
}

SMPI_PUBLIC _Noreturn void exit(int status);
SMPI_PUBLIC _Noreturn void _exit(int status);
SMPI_PUBLIC _Noreturn void _Exit(int status);
SMPI_PUBLIC _Noreturn void abort(void);

void exit(int status)
{
  smpi_rank *me = rank_calling();
  if (me) {
    smpi_ctors_rank_end(me->rank); /* the rank's C++ globals, as the process's exit runs them */
    fflush(NULL);                  /* what the process's exit would write */
    smpi_launch_end_rank(status, "exit");
  }
  void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
  if (real)
    real(status);
  fflush(NULL);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

void _exit(int status)
{
  if (rank_calling())
    smpi_launch_end_rank(status, "_exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

void _Exit(int status)
{
  if (rank_calling())
    smpi_launch_end_rank(status, "_Exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

void abort(void)
{
  smpi_rank *me = rank_calling();
  if (me && me->phase == SMPI_RANK_FINALIZED && me->call_depth == 0) {
    fflush(stdout);
    fprintf(stderr,
            "smpi: rank %d called abort() after MPI_Finalize: that rank ends with "
            "status 134 (SIGABRT), the others go on\n",
            me->rank);
    smpi_launch_end_rank(134, "abort");
  }
  void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "abort");
  if (real)
    real();
  syscall(SYS_exit_group, 134);
  __builtin_unreachable();
}
