/* CPU bursts: the program's computation between two MPI calls, measured on the real CPU
 * and injected as simulated work on the rank's host (x smpi/host-speed), and the public
 * smpi_execute* calls that inject work directly (smpi.h). How a burst is measured cheaply
 * is explained above smpi_burst_start. */
#include "smpi/emulation/burst.h"

#include <stdint.h>
#include <time.h>

#include "kernel/cpu.h"
#include "smpi/emulation/sample.h"
#include "smpi/runtime/copies.h"
#include "smpi/runtime/observer.h"
#include "smpi/smpi.h"
#include "src/invariant.h"

/* ---- CPU bursts ---- */

void smpi_execute_flops_now(double flops)
{
  smpi_rank *me = smpi_self();
  ASSERT(me);
  if (flops <= 0)
    return;
  SMPI_OBSERVE(compute_begin, flops);
  act_action *a = cpu_exec_start(me->host, flops, -1, NULL, NULL);
  a->tag = me->trace_category;
  act_wait(a);
  act_action_free(a);
  SMPI_OBSERVE(compute_end, flops);
}

void smpi_sleep_now(double seconds)
{
  if (seconds > 0)
    eng_sleep(seconds);
}

/* Measuring a burst. The thread CPU clock is what a burst costs (the OS may run other
 * processes meanwhile: wall time would charge the rank for them), but reading it is a system
 * call, about 3 us on a virtual machine: more than a whole simulated message, and reading it
 * at every MPI call made it most of a message-heavy program's simulation. The monotonic
 * clock is read in the vDSO (~0.1 us). All ranks run on this one thread, and between leaving
 * an MPI call and entering the next a rank runs alone, so:
 *
 *   wall:  ..cp.......|=== burst b ===|....      cp   checkpoint: (CPU, wall) read together
 *                     start           end        W    wall from cp to end
 *   CPU at end - CPU at cp = C <= W              w    the burst's wall time, b <= w, C - b <= W - w
 *
 * 1. A burst whose wall time w is below smpi/cpu-threshold (the margin covers the clocks'
 *    rate difference, at most 0.05 % under NTP slewing) is below it in CPU time too:
 *    discarded with no system call. With the default threshold, that is almost every burst
 *    of a message-heavy rank.
 * 2. A rank whose previous burst was long reads the CPU clock when its burst starts (it is
 *    likely computing again): its bursts are measured exactly, as by the CPU clock alone.
 * 3. A long burst after short ones has no CPU reading at its start. The CPU clock read at its
 *    end and the latest checkpoint (refreshed by every CPU reading, and at a burst start when
 *    it is older than CP_REFRESH) bound it: C - (W - w) <= b <= min(w, C). We take
 *    min(w, C): if the thread lost no time during the burst, C >= w and that is exactly w;
 *    if it lost D there, the estimate exceeds b by at most min(D, the simulator's CPU time
 *    between the checkpoint and the burst), and that is at most CP_REFRESH. Time lost
 *    outside the burst does not matter (spreading W - C over the window would charge it).
 * A message-heavy rank thus pays a CPU clock read per CP_REFRESH of wall time instead of one
 * per MPI call. SimGrid 3.32 reads the thread CPU clock at both ends of every burst
 * (xbt_os_threadtimer). */
#define CP_REFRESH_NS 1000000 /* 1 ms: one system call per ms is under 0.5 % of the run */

/* the checkpoint: thread CPU and monotonic clocks read together, ns */
static struct burst_checkpoint {
  int64_t cpu, wall;
} burst_cp;

static inline int64_t clock_ns(clockid_t id)
{
  struct timespec ts;
  smpi_host_clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* the rank's thread only, or (smpi/cpu-all-threads) every thread of the process */
static inline clockid_t burst_clock(void)
{
  return smpi_w.cpu_all_threads ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID;
}

static void burst_start_at(smpi_rank *me, int64_t wall)
{
  /* smpi/cpu-all-threads: the threads a rank started (OpenMP) run beside it, so the CPU time
   * can exceed the wall time and the estimate below does not hold: read the clock each time */
  me->burst_exact = me->burst_long || smpi_w.cpu_all_threads;
  if (me->burst_exact || wall - burst_cp.wall > CP_REFRESH_NS) {
    burst_cp.cpu = clock_ns(burst_clock());
    wall = clock_ns(CLOCK_MONOTONIC); /* after the system call: it is not the rank's burst */
    burst_cp.wall = wall;
    me->burst_cpu = burst_cp.cpu;
  }
  me->burst_wall = wall;
}

/* Bursts under the threshold are not injected, but they are the program's CPU all the same
 * (a polling loop's kernels: most of an OSU overlap run), and smpi/display-timing's payload
 * floor counts them. A burst that began at a fresh reading is exact: wall time, and under a
 * microsecond no other process runs in it. A burst resumed from a clock poll's reading
 * (smpi_burst_resume) also holds the rest of that poll, our bookkeeping after the reading;
 * counting it would put the simulator's own CPU into the floor. So while the floor is watched
 * (smpi_copies.watch), one poll in SHORT_SAMPLE starts its burst on a reading of its own,
 * after the bookkeeping, and each resumed burst counts as the mean of those samples:
 *
 *   poll k    [read]-bookkeeping-|user code...|[read]   resumed: w holds the bookkeeping
 *   poll k+16 [read]-bookkeeping-[read]|user code...|[read]   sample: user code (+ entry)
 *
 * One extra clock read per SHORT_SAMPLE polls, only with display-timing. */
#define SHORT_SAMPLE 16
static struct burst_short {
  int64_t exact_ns;  /* bursts started fresh (after an MPI call or a sampled poll) */
  int64_t sample_ns; /* sampled bursts after polls */
  uint64_t samples, resumed, polls;
} burst_short;

double smpi_burst_short_seconds(void)
{
  double s = 1e-9 * (double)(burst_short.exact_ns + burst_short.sample_ns);
  if (burst_short.samples)
    s += (double)burst_short.resumed * 1e-9 * (double)burst_short.sample_ns /
         (double)burst_short.samples;
  return s;
}

void smpi_burst_start(smpi_rank *me)
{
  me->burst_from = SMPI_BURST_FRESH;
  burst_start_at(me, clock_ns(CLOCK_MONOTONIC));
}

/* After a call that did nothing but bookkeeping since smpi_burst_end read the clock (a clock
 * poll run ahead): that reading starts the next burst, which then also counts the call's
 * few instructions, tens of ns against smpi/cpu-threshold's 1 us. Not after a long burst:
 * the next one is measured exactly (rule 2 above), as smpi_burst_start would. */
void smpi_burst_resume(smpi_rank *me, int64_t wall)
{
  bool sample = smpi_copies.watch && ++burst_short.polls % SHORT_SAMPLE == 0;
  if (sample || wall < 0 || me->burst_long || smpi_w.cpu_all_threads ||
      wall - burst_cp.wall > CP_REFRESH_NS) {
    smpi_burst_start(me);
    if (sample)
      me->burst_from = SMPI_BURST_SAMPLE;
  } else {
    burst_start_at(me, wall);
    me->burst_from = SMPI_BURST_RESUMED;
  }
}

int64_t smpi_burst_end(smpi_rank *me)
{
  int64_t now = clock_ns(CLOCK_MONOTONIC);
  int64_t w = now - me->burst_wall;
  if ((double)w * 1e-9 < 0.999 * smpi_w.cpu_threshold) {
    me->burst_long = false;
    switch (me->burst_from) {
    case SMPI_BURST_RESUMED:
      burst_short.resumed++;
      break;
    case SMPI_BURST_SAMPLE:
      burst_short.sample_ns += w;
      burst_short.samples++;
      break;
    case SMPI_BURST_FRESH:
      burst_short.exact_ns += w;
      break;
    }
    return now;
  }
  int64_t cpu = clock_ns(burst_clock());
  double spent;
  if (me->burst_exact) {
    spent = (double)(cpu - me->burst_cpu) * 1e-9;
  } else {
    /* the checkpoint was taken at a burst start or end, never during this burst (nothing
     * else runs then), so C covers the whole burst */
    int64_t C = cpu - burst_cp.cpu;
    spent = (double)(C < w ? C : w) * 1e-9;
  }
  burst_cp.cpu = cpu;
  burst_cp.wall = now;
  me->burst_long = spent >= smpi_w.cpu_threshold;
  if (spent <= 0 || !me->burst_long) {
    burst_short.exact_ns += spent > 0 ? (int64_t)(spent * 1e9) : 0; /* CPU time: exact */
    return -1;
  }
  me->injected += spent;
  if (me->ahead_n) /* the computation starts at the rank's own date */
    smpi_clock_settle(me);
  /* smpi/compute-noise applies to measured bursts too, not only to sampled blocks */
  smpi_execute_flops_now(spent * smpi_sample_noise_factor() * smpi_w.host_speed);
  return -1;
}

void smpi_clock_settle(smpi_rank *me)
{
  unsigned long n = me->ahead_n;
  me->ahead_n = 0;
  eng_sleep_repeat(me->ahead_cost, n);
  ASSERTF(eng_now() == me->ahead_date,
          "rank %d: its clock polls ran ahead to %.17g, the engine slept them to %.17g", me->rank,
          me->ahead_date, eng_now());
}

/* ---- public extensions (smpi.h) ---- */

SMPI_PUBLIC void smpi_execute_flops(double flops)
{
  smpi_enter_call();
  smpi_execute_flops_now(flops);
  smpi_leave_call();
}

SMPI_PUBLIC void smpi_execute_flops_benched(double flops) { smpi_execute_flops(flops); }

/* SimGrid 3.32's units, so that programs written for it carry over: smpi_execute takes
 * seconds of the machine running the simulation, like a measured burst (x smpi/host-speed,
 * dropped under smpi/cpu-threshold; a negative threshold drops nothing here, as SimGrid's
 * plain comparison does), smpi_execute_benched seconds of the simulated host. */
SMPI_PUBLIC void smpi_execute(double seconds)
{
  if (!smpi_self() || !(seconds >= smpi_w.cpu_threshold))
    return;
  smpi_enter_call();
  smpi_execute_flops_now(seconds * smpi_w.host_speed);
  smpi_leave_call();
}

SMPI_PUBLIC void smpi_execute_benched(double seconds)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  smpi_enter_call();
  smpi_execute_flops_now(seconds * cpu_host_speed(me->host));
  smpi_leave_call();
}
