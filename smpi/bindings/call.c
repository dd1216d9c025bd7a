/* The entry and exit of every MPI call (smpi/bindings/call.h): the rank's phase, the call
 * site, the CPU burst, progress messages and the observers. */
#include <stdio.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/check.h"
#include "smpi/runtime/observer.h"
#include "smpi/runtime/progress.h"

int smpi_call_begin(const char *fname) { return smpi_call_begin_at(fname, NULL); }

int smpi_call_begin_at(const char *fname, const void *site)
{
  smpi_rank *me = smpi_self();
  if (!me) {
    fprintf(stderr,
            "smpi: %s called outside of any MPI process (from a thread the simulator "
            "does not know?)\n",
            fname);
    smpi_abort_job(1);
  }
  /* the outermost call is the program's own: remember where it came from (smpi/mpi/check.h) */
  bool outermost = me->call_depth == 0;
  if (outermost)
    smpi_check_enter(me->rank, fname, site);
  smpi_enter_call();
  if (outermost) /* after the CPU burst was measured: printing is the simulator's time */
    smpi_progress_poll();
  if (me->phase != SMPI_RANK_INITIALIZED) {
    fflush(stdout);
    fprintf(stderr, "smpi: rank %d called %s %s%s (MPI_ERR_OTHER)\n", me->rank, fname,
            me->phase == SMPI_RANK_CREATED ? "before MPI_Init" : "after MPI_Finalize",
            smpi_check_where(site));
    /* no communicator is usable yet (or any more): the error is fatal, as in MPICH */
    smpi_abort_job(1);
  }
  SMPI_OBSERVE(call_begin, me, fname);
  return 0;
}

void smpi_call_end(void)
{
  SMPI_OBSERVE(call_end, smpi_self());
  smpi_leave_call();
}
