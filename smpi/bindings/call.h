/* What every implemented PMPI function does at its entry and exit.
 *
 *   int PMPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
 *   {
 *     SMPI_ENTER("MPI_Send");                 // stops the CPU burst timer (nesting-safe)
 *     smpi_comm *c = SMPI_CHECK_COMM(comm);   // or returns MPI_ERR_COMM through the handler
 *     SMPI_CHECK(count >= 0, comm, MPI_ERR_COUNT);
 *     ...
 *     SMPI_RETURN(MPI_SUCCESS);               // restarts the timer, returns
 *   }
 *
 * Errors go through smpi_comm_error (the communicator's error handler), so the default
 * MPI_ERRORS_ARE_FATAL ends the job with a message naming the rank, the call and the error,
 * and MPI_ERRORS_RETURN returns the code. SMPI_ENTER also refuses calls before MPI_Init and
 * after MPI_Finalize (MPI_ERR_OTHER, with a message saying so), and calls from an OS thread
 * other than the simulator's (a pthread of the program: the ranks are user-level threads of
 * one OS thread, so smpi provides MPI_THREAD_FUNNELED at most).
 *
 * The thread check costs a load and a compare on every call (smpi_call_check_thread): the
 * OS thread is not the rank, and smpi_self() from another thread would name whichever rank
 * the simulator runs at that moment, whose state that thread would then corrupt. */
#ifndef SMPI_SMPI_CALL_H
#define SMPI_SMPI_CALL_H

#include "smpi/mpi/comm.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"

/* returns 0 when the call may proceed; _at also records where the program called from (the
 * PMPI function's return address) for diagnostics (smpi/mpi/check.h) */
int smpi_call_begin(const char *fname);
int smpi_call_begin_at(const char *fname, const void *site);
void smpi_call_end(void);
/* The site the next outermost call reports instead of its own return address (a Fortran
 * binding's caller); NULL to stop. */
void smpi_call_hint_site(const void *site);

/* fname was called from an OS thread the simulator does not run: says so, with the thread
 * level the program asked for and the one smpi provides, and ends the job (exit status 1).
 * Returns only when no simulation runs at all (smpi_main was not called). */
void smpi_call_wrong_thread(const char *fname);
static inline void smpi_call_check_thread(const char *fname)
{
  if (__builtin_expect(smpi_w.thread != smpi_thread_self(), 0))
    smpi_call_wrong_thread(fname);
}
/* The highest level asked for in MPI_Init_thread by any rank (-1: none called it, only
 * MPI_Init) and the one provided (bindings/env.c). */
void smpi_env_thread_levels(int *required, int *provided);
/* Declares smpi/wtime and smpi/init, the costs env.c injects (smpi_declare_config). */
void smpi_env_declare_config(void);

/* What every not-yet-implemented MPI function does (the stubs api.c generates from
 * mpi_functions.h): one line on stderr naming the function, then MPI_ERR_UNSUPPORTED_OPERATION
 * through MPI_COMM_WORLD's error handler like any other MPI error. MPI_T functions skip the
 * handler (the tool interface only returns codes). Returns the code the caller must return. */
int smpi_unsupported(const char *name);

#define SMPI_ENTER(fname)                                                        \
  __attribute__((unused)) static const char *const smpi_fname_ = (fname);        \
  do {                                                                           \
    int smpi_rc_ = smpi_call_begin_at(smpi_fname_, __builtin_return_address(0)); \
    if (smpi_rc_ != 0)                                                           \
      return smpi_rc_;                                                           \
  } while (0)
/* for the few calls allowed outside Init..Finalize (MPI_Initialized, MPI_Finalized, ...) */
#define SMPI_ENTER_ANYTIME(fname)                                         \
  __attribute__((unused)) static const char *const smpi_fname_ = (fname); \
  smpi_call_check_thread(smpi_fname_);                                    \
  smpi_enter_call()
#define SMPI_RETURN(code)   \
  do {                      \
    int smpi_ret_ = (code); \
    smpi_call_end();        \
    return smpi_ret_;       \
  } while (0)
/* error on comm: through its handler, then return */
#define SMPI_FAIL(comm, code) SMPI_RETURN(smpi_comm_error((comm), (code), smpi_fname_))
#define SMPI_CHECK(cond, comm, code) \
  do {                               \
    if (!(cond))                     \
      SMPI_FAIL(comm, code);         \
  } while (0)
#define SMPI_CHECK_COMM(comm)                 \
  ({                                          \
    smpi_comm *smpi_c_ = smpi_comm_get(comm); \
    if (!smpi_c_)                             \
      SMPI_FAIL(comm, MPI_ERR_COMM);          \
    smpi_c_;                                  \
  })

#endif
