/* The world of one simulation: one actor per MPI rank, the rank running now, the job's end.
 *
 * smpi_main() (launch/launch.c, called by the program's wrapped main) fills it in once;
 * the rest of the MPI layer finds "who am I" through smpi_self(). */
#ifndef SMPI_SMPI_RUNTIME_H
#define SMPI_SMPI_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>
#if !defined(__x86_64__) && !defined(__aarch64__)
#include <pthread.h>
#endif

#include "kernel/engine.h"
#include "kernel/routing.h"
#include "src/invariant.h"

typedef enum {
  SMPI_RANK_CREATED,     /* main not entered MPI yet */
  SMPI_RANK_INITIALIZED, /* between MPI_Init and MPI_Finalize */
  SMPI_RANK_FINALIZED,
} smpi_rank_phase;

/* How a rank's current burst started: after an MPI call (exact), from a clock poll's own
 * reading (smpi_burst_resume: it holds the poll's bookkeeping), or after a poll on a reading
 * of its own (a sample of what resumed bursts hold: emulation/burst.c) */
typedef enum { SMPI_BURST_FRESH, SMPI_BURST_RESUMED, SMPI_BURST_SAMPLE } smpi_burst_from;

typedef struct smpi_rank {
  int rank;    /* in MPI_COMM_WORLD */
  size_t host; /* routing host index */
  eng_actor *actor;
  smpi_rank_phase phase;
  int exit_code;      /* main's return value */
  bool returned;      /* main returned */
  bool killed;        /* its host went down (state profile): it runs no more */
  double killed_at;   /* simulated date of that */
  int call_depth;     /* nesting of MPI calls: the CPU burst timer runs only at depth 0 */
  int64_t burst_wall; /* CLOCK_MONOTONIC (ns) when the rank left its last MPI call */
  int64_t burst_cpu;  /* thread CPU clock (ns) at the same moment, if burst_exact */
  bool burst_exact;   /* burst_cpu was read: the rank's previous burst was long (burst.c) */
  bool burst_long;    /* the rank's last burst reached smpi/cpu-threshold */
  smpi_burst_from burst_from; /* how its burst started (the floor's short bursts: burst.c) */
  bool sampling;   /* a SMPI_SAMPLE_* block of the rank is being timed (emulation/sample.c) */
  double injected; /* computation injected so far, seconds of host time (statistics) */
  /* Clock polls run ahead of the simulated date (smpi/wtime-ahead, emulation/libc.c): their
   * number, their cost each, and the rank's own date after them; slept at the rank's next
   * call (smpi_clock_settle) */
  unsigned long ahead_n;
  double ahead_cost;
  double ahead_date;
  void *mpi; /* per-rank MPI state, owned by the MPI modules */
  /* TRACE_smpi_set_category's category (smpi/observe/trace.c), 0: none */
  uint16_t trace_category;
} smpi_rank;

/* Seconds from t0 to t1. */
static inline double smpi_seconds_between(const struct timespec *t0, const struct timespec *t1)
{
  return (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Job-wide state. */
typedef struct smpi_world {
  int np;
  smpi_rank *ranks;
  const route_table *routes;
  const char *platform_name;
  double host_speed;    /* smpi/host-speed, flop/s of the machine running the simulation */
  double cpu_threshold; /* smpi/cpu-threshold */
  bool cpu_all_threads; /* smpi/cpu-all-threads: bursts read the process CPU clock */
  bool simulate_computation;
  /* the OS thread running the simulation (smpi_thread_self() at start-up): the ranks are
   * user-level threads of it, and MPI calls from any other thread are refused (bindings/
   * call.h); NULL before smpi_main */
  const void *thread;
} smpi_world;

extern smpi_world smpi_w;

/* The calling OS thread: its thread pointer, one register read on x86-64 (%fs:0) and AArch64,
 * so that every MPI call can afford comparing it with smpi_w.thread. */
static inline const void *smpi_thread_self(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
  return __builtin_thread_pointer();
#else
  return (const void *)(uintptr_t)pthread_self();
#endif
}

/* The rank running now (NULL outside of any rank, e.g. in the maestro). The engine's switch
 * hook (launch/launch.c) keeps it current: it is read several times per MPI call, and a load is
 * cheaper than asking the engine for its running actor and that actor's data each time. */
extern smpi_rank *smpi_running;
static inline smpi_rank *smpi_self(void) { return smpi_running; }
/* Starts an actor that works for the calling rank (a nonblocking collective's helper): its
 * data is the rank's smpi_rank, so inside it smpi_self() is the rank, with the rank's
 * privatized globals; then lets it run first, at this same date, before the rank goes on. */
void smpi_spawn_helper(const char *name, void (*fn)(void *arg), void *arg);

/* Ends the whole job now with this exit code (MPI_Abort, fatal errors). */
_Noreturn void smpi_abort_job(int code);
/* Run by smpi_abort_job before the process ends without atexit handlers (NULL: none). The
 * MPI-IO layer removes its temporary directory there (smpi/io/file.c). */
extern void (*smpi_on_abort)(void);

/* The host's clock_gettime, for the simulator's own measurements (CPU bursts, wall time):
 * libsmpi.so interposes clock_gettime to give the ranks simulated time (emulation/libc.c),
 * and the simulator's calls would land there too. */
int smpi_host_clock_gettime(clockid_t id, struct timespec *ts);

#endif
