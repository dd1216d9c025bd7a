/* The entry and exit of every MPI call (smpi/bindings/call.h): the rank's phase, the call
 * site, the CPU burst, progress messages and the observers. */
#include <stdio.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/check.h"
#include "smpi/runtime/observer.h"
#include "smpi/runtime/progress.h"

int smpi_call_begin(const char *fname) { return smpi_call_begin_at(fname, NULL); }

/* A call that enters through a Fortran binding (fortran.c) is the program's call from the
 * binding's caller, not from the binding: the binding names that site here around its PMPI
 * call, so that deadlock reports give the Fortran file:line. */
static struct call_hint {
  const void *site; /* return address into the program, or NULL */
} call_hint;

void smpi_call_hint_site(const void *site) { call_hint.site = site; }

static const char *thread_level_name(int level)
{
  switch (level) {
  case MPI_THREAD_SINGLE:
    return "MPI_THREAD_SINGLE";
  case MPI_THREAD_FUNNELED:
    return "MPI_THREAD_FUNNELED";
  case MPI_THREAD_SERIALIZED:
    return "MPI_THREAD_SERIALIZED";
  case MPI_THREAD_MULTIPLE:
    return "MPI_THREAD_MULTIPLE";
  default:
    return "an unknown thread level";
  }
}

void smpi_call_wrong_thread(const char *fname)
{
  if (!smpi_w.thread) /* no simulation: a plain program (tests/mpi/link_all.c) calls a stub */
    return;
  /* Runs on the foreign thread while the simulator's thread goes on (or waits for this one
   * in pthread_join): touch no simulator state, only print and end the process. */
  int required, provided;
  smpi_env_thread_levels(&required, &provided);
  char asked[96];
  if (required < 0)
    snprintf(asked, sizeof asked, "the program called MPI_Init (%s)",
             thread_level_name(MPI_THREAD_SINGLE));
  else
    snprintf(asked, sizeof asked, "the program asked for %s in MPI_Init_thread",
             thread_level_name(required));
  fflush(stdout);
  fprintf(stderr,
          "smpi: %s called from a thread the simulator does not run (a thread the program "
          "created): %s, smpi provided %s; smpi runs every rank as a user-level thread of one "
          "OS thread, so only a rank's main thread may call MPI (%s at most)\n",
          fname, asked, thread_level_name(provided), thread_level_name(MPI_THREAD_FUNNELED));
  smpi_abort_job(1);
}

int smpi_call_begin_at(const char *fname, const void *site)
{
  smpi_call_check_thread(fname);
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
  if (outermost && call_hint.site)
    site = call_hint.site;
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
