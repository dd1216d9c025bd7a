/* A progress line on stderr during long simulations (smpi/runtime/progress.c):
 *
 *   smpi: simulated 12.345678 s | wall-clock 3.5 s | 12/64 ranks finished
 *
 * rewritten in place ("\r") at most every smpi/progress-interval seconds of wall-clock
 * time, and erased at the end. smpi/progress:auto shows it only when stderr is a terminal,
 * so logs and pipes never see it. It is refreshed from the ranks' MPI calls (a counter per
 * call, a clock read every 256 calls): a simulation that makes no MPI call for a long
 * time shows no update meanwhile. */
#ifndef SMPI_SMPI_PROGRESS_H
#define SMPI_SMPI_PROGRESS_H

#include <stdbool.h>

/* Declares smpi/progress, smpi/progress-interval (idempotent; smpi_declare_config). */
void smpi_progress_declare_config(void);
/* Reads the keys; the runtime calls it just before the simulation starts. */
void smpi_progress_start(void);
extern bool smpi_progress_on;
void smpi_progress_tick(void);
static inline void smpi_progress_poll(void)
{
  if (__builtin_expect(smpi_progress_on, 0))
    smpi_progress_tick();
}
/* A rank's main returned. */
void smpi_progress_rank_done(void);
/* The simulation is over: erase the line. */
void smpi_progress_end(void);

#endif
