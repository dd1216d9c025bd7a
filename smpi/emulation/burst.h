/* CPU bursts (burst.c): the rank's own computation between MPI calls becomes simulated
 * work on its host. Every entry point of the MPI layer brackets itself with
 * smpi_enter_call / smpi_leave_call. */
#ifndef SMPI_EMULATION_BURST_H
#define SMPI_EMULATION_BURST_H

#include <stdbool.h>
#include <stdint.h>

#include "smpi/runtime/world.h"
#include "src/invariant.h"

/* CPU bursts: called at the entry and exit of every MPI call (nesting-safe). At entry the
 * CPU time the rank spent since its last MPI call is injected as a computation on its
 * host; at exit the timer restarts. Inline because every MPI call pays them, and without
 * burst measurement (smpi/simulate-computation:no, or a negative smpi/cpu-threshold) they
 * only count the nesting. */
/* smpi_burst_end returns its monotonic clock reading (ns) when the burst was short and
 * nothing else happened (no CPU clock read, nothing injected), -1 otherwise; a call that
 * does nothing the simulation sees may restart the timer from it (smpi_burst_resume: one
 * clock read per call instead of two, libc.c's clock polls). */
int64_t smpi_burst_end(smpi_rank *me);               /* the outermost call begins: inject */
void smpi_burst_start(smpi_rank *me);                /* the outermost call ends: restart */
void smpi_burst_resume(smpi_rank *me, int64_t wall); /* restart from that reading (or -1) */
/* The program's CPU in bursts under smpi/cpu-threshold (never injected), seconds: the
 * payload floor's "program" counts them beside the injected ones (burst.c). */
double smpi_burst_short_seconds(void);
static inline bool smpi_bursts_measured(void)
{
  return smpi_w.simulate_computation && smpi_w.cpu_threshold >= 0;
}
/* The clock polls the rank ran ahead of the simulated date are slept now (burst.c): every
 * call the simulation sees starts at the rank's own date. */
void smpi_clock_settle(smpi_rank *me);
static inline void smpi_enter_call(void)
{
  smpi_rank *me = smpi_self();
  if (me && me->call_depth++ == 0) {
    if (smpi_bursts_measured())
      smpi_burst_end(me);
    if (__builtin_expect(me->ahead_n != 0, 0))
      smpi_clock_settle(me);
  }
}
static inline void smpi_leave_call(void)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  ASSERT(me->call_depth > 0);
  if (--me->call_depth == 0 && smpi_bursts_measured())
    smpi_burst_start(me);
}
/* Block the current rank while it computes flops on its host (smpi_execute_flops). */
void smpi_execute_flops_now(double flops);
/* Block the current rank for a duration of simulated time without using its CPU. */
void smpi_sleep_now(double seconds);

#endif
