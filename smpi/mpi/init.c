/* MPI_Init, MPI_Finalize and MPI_Abort without their bindings (smpi/mpi/init.h). */
#include <stdio.h>

#include "kernel/engine.h"
#include "smpi/emulation/burst.h"
#include "smpi/mpi/init.h"
#include "smpi/mpi/p2p.h"
#include "smpi/runtime/observer.h"
#include "src/cfg.h"

void smpi_mpi_init(smpi_rank *me, const char *fname)
{
  if (me->phase != SMPI_RANK_CREATED) {
    fprintf(stderr, "smpi: rank %d called %s %s\n", me->rank, fname,
            me->phase == SMPI_RANK_INITIALIZED ? "twice" : "after MPI_Finalize");
    smpi_abort_job(1);
  }
  smpi_comm_rank_init(me->rank);
  me->phase = SMPI_RANK_INITIALIZED;
  SMPI_OBSERVE(call_begin, me, fname);
  double t = cfg_get_double("smpi/init");
  if (t > 0)
    smpi_sleep_now(t);
  SMPI_OBSERVE(call_end, me);
}

void smpi_mpi_finalize(smpi_rank *me)
{
  smpi_comm_rank_finalize(me->rank);
  smpi_p2p_report_pending(me->rank);
  me->phase = SMPI_RANK_FINALIZED;
}

void smpi_mpi_abort(const smpi_comm *c, int errorcode)
{
  smpi_rank *me = smpi_self();
  fflush(stdout);
  fprintf(stderr,
          "smpi: MPI_Abort called by rank %d on %s with error code %d at simulated time %.9f s\n",
          me ? me->rank : -1, c ? smpi_comm_display_name(c) : "an invalid communicator",
          errorcode, eng_now());
  smpi_abort_job(errorcode);
}
