/* libc functions whose meaning is per process, given to each rank: getopt's parse, and the
 * clocks and sleeps, which tell the rank's simulated time (smpi/virtual-clocks).
 *
 * ---- getopt ----
 *
 * optind, optarg, opterr and optopt are swapped per rank at every switch (privatize.c), so a
 * rank reads its own optind after its loop. glibc also keeps the position inside the current
 * argv element in a hidden static; a rank that starts a parse (its optind is 1) while that
 * static still describes another rank's parse would continue the other's cluster of short
 * options. So when the caller of getopt is not the rank that called it last, and starts a
 * parse, optind is set to 0 for that call: glibc's documented full reset.
 *
 *   rank 0: getopt(...) x 3, returns -1      rank 1: getopt(...)  optind 1 -> 0: reset
 *
 * Mechanism: interposition (libsmpi.so is loaded before libc: the program's calls and its
 * libraries' land here; outside a running rank these are libc's own). A parse interrupted by
 * an MPI call between two getopt calls, while another rank parses, is the one case left. */
#include "smpi/emulation/libc.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kernel/engine.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"

SMPI_PUBLIC int getopt(int argc, char *const argv[], const char *optstring);
SMPI_PUBLIC int __posix_getopt(int argc, char *const argv[], const char *optstring);
SMPI_PUBLIC int getopt_long(int argc, char *const argv[], const char *optstring,
                            const struct option *longopts, int *longindex);
SMPI_PUBLIC int getopt_long_only(int argc, char *const argv[], const char *optstring,
                                 const struct option *longopts, int *longindex);

static struct libc_getopt_state {
  const smpi_rank *last; /* the rank whose parse glibc's hidden state describes */
  int (*getopt)(int, char *const[], const char *);
  int (*posix_getopt)(int, char *const[], const char *);
  int (*getopt_long)(int, char *const[], const char *, const struct option *, int *);
  int (*getopt_long_only)(int, char *const[], const char *, const struct option *, int *);
} libc_getopt;

static void getopt_enter(void)
{
  const smpi_rank *me = smpi_self();
  if (!me || me == libc_getopt.last)
    return;
  libc_getopt.last = me;
  if (optind == 1)
    optind = 0;
}

int getopt(int argc, char *const argv[], const char *optstring)
{
  if (!libc_getopt.getopt)
    *(void **)&libc_getopt.getopt = dlsym(RTLD_NEXT, "getopt");
  getopt_enter();
  return libc_getopt.getopt(argc, argv, optstring);
}

/* what <unistd.h> calls getopt in a strict POSIX compilation (no _GNU_SOURCE) */
int __posix_getopt(int argc, char *const argv[], const char *optstring)
{
  if (!libc_getopt.posix_getopt)
    *(void **)&libc_getopt.posix_getopt = dlsym(RTLD_NEXT, "__posix_getopt");
  getopt_enter();
  return libc_getopt.posix_getopt(argc, argv, optstring);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longindex)
{
  if (!libc_getopt.getopt_long)
    *(void **)&libc_getopt.getopt_long = dlsym(RTLD_NEXT, "getopt_long");
  getopt_enter();
  return libc_getopt.getopt_long(argc, argv, optstring, longopts, longindex);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longindex)
{
  if (!libc_getopt.getopt_long_only)
    *(void **)&libc_getopt.getopt_long_only = dlsym(RTLD_NEXT, "getopt_long_only");
  getopt_enter();
  return libc_getopt.getopt_long_only(argc, argv, optstring, longopts, longindex);
}

/* ---- clocks and sleeps ----
 *
 * A program that times itself with gettimeofday or clock_gettime, or waits with sleep, must see
 * the simulated machine, as it sees it through MPI_Wtime:
 *
 *   rank code                     smpi/virtual-clocks:yes (default)
 *   gettimeofday, time,           the rank's simulated time, read as MPI_Wtime reads it: the
 *   clock_gettime(REALTIME,        CPU burst so far is injected first, then smpi/wtime is paid
 *     MONOTONIC, BOOTTIME, TAI,    (simulated time starts at 0: REALTIME dates are in 1970, as
 *     _RAW, _COARSE, _ALARM)       SimGrid's)
 *   clock_gettime(CPU clocks),    the host's: the rank's real CPU time (what bursts measure)
 *     clock()
 *   sleep, usleep, nanosleep,     the rank's CPU burst ends and it sleeps in simulated time;
 *   clock_nanosleep                no real time passes
 *
 * Inside an MPI call's callback (a user reduction, an error handler) or a timed SMPI_SAMPLE_*
 * block a rank must not yield: clocks read the date only, and sleeps return at once.
 * Interposition, like getopt: every object of the process that calls these through the PLT
 * (the program, its static and shared libraries, whoever compiled them) reaches these
 * definitions; a call from inside libc does not (e.g. timespec_get, which is interposed too,
 * and libc's own use of its clock). The simulator's own measurements use
 * smpi_host_clock_gettime. */

SMPI_PUBLIC int clock_gettime(clockid_t id, struct timespec *ts);
SMPI_PUBLIC int gettimeofday(struct timeval *restrict tv, void *restrict tz);
SMPI_PUBLIC time_t time(time_t *t);
SMPI_PUBLIC int timespec_get(struct timespec *ts, int base);
SMPI_PUBLIC unsigned int sleep(unsigned int seconds);
SMPI_PUBLIC int usleep(useconds_t usec);
SMPI_PUBLIC int nanosleep(const struct timespec *req, struct timespec *rem);
SMPI_PUBLIC int clock_nanosleep(clockid_t id, int flags, const struct timespec *req,
                                struct timespec *rem);

static const cfg_key libc_keys[] = {
    CFG_KEY_BOOL("smpi/virtual-clocks", true,
                 "The ranks' gettimeofday, clock_gettime (all but CPU-time clocks) and time "
                 "return simulated time, and sleep, usleep, nanosleep and clock_nanosleep sleep "
                 "in simulated time (no: the host's clocks and real sleeps)"),
    CFG_KEY_BOOL("smpi/wtime-ahead", true,
                 "A rank polling MPI_Wtime or a virtual clock runs ahead of the simulated date "
                 "until its next call the simulation sees, then sleeps the polls' costs as "
                 "repeated sleeps (no: each poll sleeps at once; same simulated times, for "
                 "measurements)"),
};

static struct libc_clock_state {
  bool virtual_clocks; /* smpi/virtual-clocks */
  double wtime;        /* smpi/wtime: cost of reading the clock, s */
  bool ahead;          /* smpi/wtime-ahead */
  int windows;         /* RMA windows alive (smpi_clock_ahead_hold): no polling ahead */
  bool sanitized;      /* a sanitizer runtime is loaded: reading a clock never yields */
  int (*real_gettimeofday)(struct timeval *, void *);
  time_t (*real_time)(time_t *);
  int (*real_nanosleep)(const struct timespec *, struct timespec *);
  int (*real_clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);
} libc_clock;

void smpi_libc_declare_config(void) { cfg_declare_keys(libc_keys, CFG_NKEYS(libc_keys)); }

void smpi_libc_init(void)
{
  libc_clock.virtual_clocks = cfg_get_bool("smpi/virtual-clocks");
  libc_clock.wtime = cfg_get_double("smpi/wtime");
  libc_clock.ahead = cfg_get_bool("smpi/wtime-ahead");
  /* A sanitizer's allocator reads clock_gettime (through our definition) while it holds its
   * lock: a rank switched out there would deadlock the next rank's malloc. */
  libc_clock.sanitized = dlsym(RTLD_DEFAULT, "__asan_init") ||
                         dlsym(RTLD_DEFAULT, "__tsan_init") || dlsym(RTLD_DEFAULT, "__msan_init");
}

double smpi_libc_wtime_cost(void) { return libc_clock.wtime; }

/* the running rank, if its clocks are simulated (NULL: the host's) */
static smpi_rank *virtual_rank(void)
{
  smpi_rank *me = smpi_self();
  if (!me || !libc_clock.virtual_clocks || smpi_thread_self() != smpi_w.thread)
    return NULL;
  return me;
}

/* the clocks that tell time of day or elapsed time, not CPU time */
static bool is_time_clock(clockid_t id)
{
  switch (id) {
  case CLOCK_REALTIME:
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_REALTIME_COARSE:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
  case CLOCK_REALTIME_ALARM:
  case CLOCK_BOOTTIME_ALARM:
  case CLOCK_TAI:
    return true;
  default:
    return false;
  }
}

/* Clock polls run ahead. A poll changes nothing but its rank's date (it costs smpi/wtime),
 * and what the rank computes until its next call depends on nothing else, so the rank need
 * not wait for the others to reach each poll's date: it keeps its own date (ahead_date) and
 * the number of polls not slept yet, and goes on. Its next call the simulation sees
 * (smpi_enter_call, a measured burst to inject, the end of the rank) first sleeps them all
 * with eng_sleep_repeat, which gives every one of those sleeps its turn among the other
 * actors as if the rank had slept each time: same dates and same order of everything, to the
 * last bit (tests/polling_ahead compares with smpi/wtime-ahead:no), at a few instructions
 * per poll instead of a context switch, a privatization swap and a scheduling turn.
 *
 *   16 ranks polling at the same dates, 1 000 polls each:
 *     ahead:no   16 000 switches (each a swap of the ranks' globals) and 1 000 rounds
 *     ahead:yes  each rank runs its 1 000 polls at once (16 switches), then 16 000 ghost
 *                turns: a timer push each, no switch
 *
 * A poll also reads the monotonic clock once, not twice: the reading that ends the burst
 * before it starts the burst after it (smpi_burst_resume). What the rank does while ahead
 * that is not simulated (printing, files) happens earlier in real time than the other ranks'
 * actions at dates before its own; nothing simulated does. Memory that others may change
 * between the rank's calls is the exception: RMA windows, whose unified model shows a put or
 * a store at the first poll after it lands, so no rank polls ahead while a window exists
 * (smpi_clock_ahead_hold); and, for what MPI promises nothing about (a global shared under
 * smpi/privatization:no), a rank settles every AHEAD_MAX polls, so that a loop waiting for
 * such a change ends, late, rather than never. Settling early changes no date. */
#define AHEAD_MAX 65536

static double clock_poll(smpi_rank *me, double cost)
{
  me->call_depth = 1;
  int64_t wall = smpi_bursts_measured() ? smpi_burst_end(me) : -1; /* may settle */
  double now;
  if (me->ahead_n && me->ahead_cost == cost) {
    now = me->ahead_date;
  } else {
    if (me->ahead_n)
      smpi_clock_settle(me);
    now = eng_now();
    me->ahead_cost = cost;
  }
  me->ahead_date = now + cost; /* eng_sleep's date: the engine's now + duration */
  if (++me->ahead_n == AHEAD_MAX) {
    smpi_clock_settle(me);
    wall = -1; /* the others ran meanwhile */
  }
  me->call_depth = 0;
  if (smpi_bursts_measured())
    smpi_burst_resume(me, wall);
  return now;
}

void smpi_clock_ahead_hold(int delta)
{
  libc_clock.windows += delta;
  ASSERT(libc_clock.windows >= 0);
}

/* The date as MPI_Wtime gives it: the burst so far first, then the cost. */
double smpi_clock_now(smpi_rank *me, double cost)
{
  if (libc_clock.ahead && cost > 0 && me->call_depth == 0 && me->phase == SMPI_RANK_INITIALIZED &&
      libc_clock.windows == 0)
    return clock_poll(me, cost);
  smpi_enter_call();
  double now = eng_now();
  if (cost > 0)
    smpi_sleep_now(cost);
  smpi_leave_call();
  return now;
}

static double rank_now(smpi_rank *me)
{
  if (me->sampling || me->call_depth > 0 || libc_clock.sanitized)
    return eng_now();
  return smpi_clock_now(me, me->phase == SMPI_RANK_INITIALIZED ? libc_clock.wtime : 0);
}

static void rank_sleep(smpi_rank *me, double seconds)
{
  if (me->sampling || me->call_depth > 0 || !(seconds > 0))
    return;
  smpi_enter_call();
  smpi_sleep_now(seconds);
  smpi_leave_call();
}

static void to_timespec(double t, struct timespec *ts)
{
  ts->tv_sec = (time_t)t;
  long ns = (long)((t - (double)ts->tv_sec) * 1e9 + 0.5);
  if (ns >= 1000000000L) {
    ts->tv_sec++;
    ns -= 1000000000L;
  }
  ts->tv_nsec = ns;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
  smpi_rank *me = virtual_rank();
  if (!me || !is_time_clock(id))
    return smpi_host_clock_gettime(id, ts);
  to_timespec(rank_now(me), ts);
  return 0;
}

int timespec_get(struct timespec *ts, int base)
{
  if (base != TIME_UTC)
    return 0;
  return clock_gettime(CLOCK_REALTIME, ts) == 0 ? base : 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
  smpi_rank *me = virtual_rank();
  if (!me) {
    if (!libc_clock.real_gettimeofday)
      *(void **)&libc_clock.real_gettimeofday = dlsym(RTLD_NEXT, "gettimeofday");
    return libc_clock.real_gettimeofday(tv, tz);
  }
  if (tz)
    *(struct timezone *)tz = (struct timezone){0, 0};
  struct timespec ts;
  to_timespec(rank_now(me), &ts);
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
  return 0;
}

time_t time(time_t *t)
{
  smpi_rank *me = virtual_rank();
  if (!me) {
    if (!libc_clock.real_time)
      *(void **)&libc_clock.real_time = dlsym(RTLD_NEXT, "time");
    return libc_clock.real_time(t);
  }
  time_t now = (time_t)rank_now(me);
  if (t)
    *t = now;
  return now;
}

static int real_nanosleep(const struct timespec *req, struct timespec *rem)
{
  if (!libc_clock.real_nanosleep)
    *(void **)&libc_clock.real_nanosleep = dlsym(RTLD_NEXT, "nanosleep");
  return libc_clock.real_nanosleep(req, rem);
}

unsigned int sleep(unsigned int seconds)
{
  smpi_rank *me = virtual_rank();
  if (!me) {
    struct timespec req = {(time_t)seconds, 0}, rem = {0, 0};
    if (real_nanosleep(&req, &rem) != 0)
      return (unsigned int)rem.tv_sec + (rem.tv_nsec > 0);
    return 0;
  }
  rank_sleep(me, (double)seconds);
  return 0;
}

int usleep(useconds_t usec)
{
  smpi_rank *me = virtual_rank();
  if (!me) {
    struct timespec req = {(time_t)(usec / 1000000), (long)(usec % 1000000) * 1000};
    return real_nanosleep(&req, NULL);
  }
  rank_sleep(me, (double)usec * 1e-6);
  return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
  smpi_rank *me = virtual_rank();
  if (!me)
    return real_nanosleep(req, rem);
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0) {
    errno = EINVAL;
    return -1;
  }
  rank_sleep(me, (double)req->tv_sec + (double)req->tv_nsec * 1e-9);
  if (rem)
    *rem = (struct timespec){0, 0};
  return 0;
}

int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
  smpi_rank *me = virtual_rank();
  if (!me || !is_time_clock(id)) {
    if (!libc_clock.real_clock_nanosleep)
      *(void **)&libc_clock.real_clock_nanosleep = dlsym(RTLD_NEXT, "clock_nanosleep");
    return libc_clock.real_clock_nanosleep(id, flags, req, rem);
  }
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0)
    return EINVAL;
  double t = (double)req->tv_sec + (double)req->tv_nsec * 1e-9;
  if (flags & TIMER_ABSTIME)
    t -= me->ahead_n ? me->ahead_date : eng_now(); /* its own date: polls may run ahead */
  rank_sleep(me, t);
  if (rem && !(flags & TIMER_ABSTIME))
    *rem = (struct timespec){0, 0};
  return 0;
}
