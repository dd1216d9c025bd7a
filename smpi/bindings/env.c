/* Environment management (MPI 3.1 chapter 8): MPI_Init/Finalize and friends, MPI_Wtime,
 * MPI_Abort. What Init, Finalize and Abort do to a rank is smpi/mpi/init.c's. */
#include <stdio.h>
#include <stdlib.h>

#include "kernel/engine.h"
#include "smpi/bindings/call.h"
#include "smpi/emulation/libc.h"
#include "smpi/mpi/init.h"
#include "src/cfg.h"
#include "src/log.h"

LOG_NEW_SUBCATEGORY(smpi_env, smpi, "MPI environment: init, finalize, time");

static struct thread_levels {
  int required; /* highest level asked for in MPI_Init_thread; -1: only MPI_Init was called */
  int provided; /* what MPI_Init_thread answered */
} threads = {-1, MPI_THREAD_SINGLE};

void smpi_env_thread_levels(int *required, int *provided)
{
  *required = threads.required;
  *provided = threads.provided;
}

static const cfg_key env_keys[] = {
    CFG_KEY_DOUBLE("smpi/wtime", 1e-8, "Simulated time injected by each MPI_Wtime call (s)"),
    CFG_KEY_DOUBLE("smpi/init", 0.0, "Simulated time injected by MPI_Init (s)"),
};

void smpi_env_declare_config(void) { cfg_declare_keys(env_keys, CFG_NKEYS(env_keys)); }

/* MPI_Init has no SMPI_ENTER: the rank is not initialized yet (smpi_mpi_init checks it is
 * not initialized either, and reports the call to the observers once it is). */
static int init_common(const char *fname)
{
  smpi_call_check_thread(fname);
  smpi_rank *me = smpi_self();
  if (!me) {
    fprintf(stderr, "smpi: %s called outside of any MPI process\n", fname);
    smpi_abort_job(1);
  }
  smpi_enter_call();
  smpi_mpi_init(me, fname);
  smpi_leave_call();
  return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv) { return init_common("MPI_Init"); }

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  /* Ranks are user-level threads of one OS thread: only the thread that called
   * MPI_Init_thread may call MPI (FUNNELED). */
  if (smpi_w.thread == smpi_thread_self() && required > threads.required)
    threads.required = required;
  threads.provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
  if (provided)
    *provided = threads.provided;
  return init_common("MPI_Init_thread");
}

int PMPI_Query_thread(int *provided)
{
  if (smpi_w.thread != smpi_thread_self() && provided) {
    *provided = threads.provided; /* MPI 3.1 section 12.4.3: may be asked from any thread */
    return MPI_SUCCESS;
  }
  SMPI_ENTER("MPI_Query_thread");
  SMPI_CHECK(provided, MPI_COMM_WORLD, MPI_ERR_ARG);
  *provided = threads.provided;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Is_thread_main(int *flag)
{
  if (smpi_w.thread != smpi_thread_self() && flag) {
    *flag = 0; /* the question this call exists for: another thread of the program asks */
    return MPI_SUCCESS;
  }
  SMPI_ENTER("MPI_Is_thread_main");
  SMPI_CHECK(flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  *flag = 1;
  SMPI_RETURN(MPI_SUCCESS);
}

/* MPI_Initialized and MPI_Finalized may be called from any thread (MPI 4.0 section 11.2.1).
 * Another OS thread of the program cannot say which rank it belongs to (smpi_self() names
 * whichever rank runs at that moment): it gets the answer of the job, some rank initialized,
 * every rank finalized. */
static int job_phase_count(smpi_rank_phase at_least)
{
  int n = 0;
  for (int r = 0; r < smpi_w.np; r++)
    n += smpi_w.ranks[r].phase >= at_least;
  return n;
}

int PMPI_Initialized(int *flag)
{
  smpi_rank *me = smpi_self();
  if (flag && smpi_w.thread != smpi_thread_self())
    *flag = job_phase_count(SMPI_RANK_INITIALIZED) > 0;
  else if (flag)
    *flag = me && me->phase != SMPI_RANK_CREATED;
  return flag ? MPI_SUCCESS : MPI_ERR_ARG;
}

int PMPI_Finalized(int *flag)
{
  smpi_rank *me = smpi_self();
  if (flag && smpi_w.thread != smpi_thread_self())
    *flag = smpi_w.np > 0 && job_phase_count(SMPI_RANK_FINALIZED) == smpi_w.np;
  else if (flag)
    *flag = me && me->phase == SMPI_RANK_FINALIZED;
  return flag ? MPI_SUCCESS : MPI_ERR_ARG;
}

int PMPI_Finalize(void)
{
  SMPI_ENTER("MPI_Finalize");
  smpi_mpi_finalize(smpi_self());
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
  smpi_call_check_thread("MPI_Abort");
  smpi_rank *me = smpi_self();
  if (me && me->ahead_n && me->call_depth == 0) /* aborts at its own date */
    smpi_clock_settle(me);
  smpi_mpi_abort(smpi_comm_get(comm), errorcode);
}

double PMPI_Wtime(void)
{
  smpi_call_check_thread("MPI_Wtime");
  smpi_rank *me = smpi_self();
  /* Inside a timed SMPI_SAMPLE_* block the burst belongs to the sample, and the rank must not
   * yield (smpi/wtime's sleep would let the others run): the clock only (SimGrid does so). */
  if (!me || me->phase != SMPI_RANK_INITIALIZED || me->sampling)
    return eng_now();
  /* The computation since the last MPI call ends here and is injected before the clock is
   * read, so that t1 - t0 around a computed block measures it (SimGrid does the same); then
   * the call's own cost (smpi/wtime), so that polling loops on MPI_Wtime advance (run ahead
   * of the simulated date: emulation/libc.c). */
  return smpi_clock_now(me, smpi_libc_wtime_cost());
}

double PMPI_Wtick(void) { return eng_timing_precision(); }

int PMPI_Get_version(int *version, int *subversion)
{
  if (!version || !subversion)
    return MPI_ERR_ARG;
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen)
{
  if (!version || !resultlen)
    return MPI_ERR_ARG;
  int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                   "smpi %s: simulated MPI %d.%d (on-line simulation of MPI applications)",
                   smpi_version_string(), MPI_VERSION, MPI_SUBVERSION);
  *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
  return MPI_SUCCESS;
}

int PMPI_Get_processor_name(char *name, int *resultlen)
{
  SMPI_ENTER("MPI_Get_processor_name");
  SMPI_CHECK(name && resultlen, MPI_COMM_WORLD, MPI_ERR_ARG);
  int n = route_host_name(smpi_w.routes, smpi_self()->host, name, MPI_MAX_PROCESSOR_NAME);
  *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
  SMPI_ENTER("MPI_Alloc_mem");
  SMPI_CHECK(size >= 0, MPI_COMM_WORLD, MPI_ERR_SIZE);
  SMPI_CHECK(baseptr, MPI_COMM_WORLD, MPI_ERR_ARG);
  void *p = malloc(size ? (size_t)size : 1);
  SMPI_CHECK(p, MPI_COMM_WORLD, MPI_ERR_NO_MEM);
  *(void **)baseptr = p;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Free_mem(void *base)
{
  SMPI_ENTER("MPI_Free_mem");
  free(base);
  SMPI_RETURN(MPI_SUCCESS);
}
