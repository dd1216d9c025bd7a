/* A program that times itself and waits with libc's clocks and sleeps, not MPI_Wtime.
 * Run with 2 ranks, --cfg=smpi/cpu-threshold:-1 and --cfg=smpi/wtime:0 (no measured
 * computation, free clock reads: every date below is exact).
 *
 *   virtual_time          smpi/virtual-clocks:yes (the default): rank 0 sleeps with sleep(2),
 *                         usleep(250000), nanosleep(0.125 s), clock_nanosleep(0.0625 s,
 *                         relative) and clock_nanosleep(absolute, +0.5 s); after each, every
 *                         clock (gettimeofday, time, clock_gettime REALTIME/MONOTONIC/
 *                         BOOTTIME/_COARSE, timespec_get) and MPI_Wtime tell the same
 *                         simulated date, advanced by exactly the sleep. No real time passes:
 *                         the host's monotonic clock (a raw system call) moves < 1 s for 2.94 s
 *                         of sleeps. Rank 1 waits in a receive; its date after it is rank 0's.
 *                         CPU-time clocks keep counting real CPU time.
 *   virtual_time host     smpi/virtual-clocks:no: gettimeofday is the host's date (after 2020)
 *                         and usleep(20000) takes real time. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int failures;
#define CHECK(c, ...)                                      \
  do {                                                     \
    if (!(c)) {                                            \
      printf("virtual_time: line %d: %s: ", __LINE__, #c); \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      failures++;                                          \
    }                                                      \
  } while (0)

static double host_monotonic(void) /* the real clock, not through libc */
{
  struct timespec ts;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double ts_sec(const struct timespec *ts)
{
  return (double)ts->tv_sec + 1e-9 * (double)ts->tv_nsec;
}

/* every clock tells `want` (to its resolution) */
static void check_clocks(double want, const char *after)
{
  struct timeval tv;
  struct timespec ts;
  gettimeofday(&tv, NULL);
  double g = (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
  CHECK(g > want - 1.5e-6 && g < want + 1e-6, "after %s: gettimeofday %.9f, want %.9f", after, g,
        want);
  time_t t = time(NULL);
  CHECK(t == (time_t)want, "after %s: time %ld, want %ld", after, (long)t, (long)want);
  static const clockid_t ids[] = {CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME,
                                  CLOCK_MONOTONIC_COARSE, CLOCK_MONOTONIC_RAW};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
    clock_gettime(ids[i], &ts);
    CHECK(ts_sec(&ts) > want - 1e-9 && ts_sec(&ts) < want + 1e-9,
          "after %s: clock %d says %.9f, want %.9f", after, (int)ids[i], ts_sec(&ts), want);
  }
  CHECK(timespec_get(&ts, TIME_UTC) == TIME_UTC && ts_sec(&ts) > want - 1e-9 &&
            ts_sec(&ts) < want + 1e-9,
        "after %s: timespec_get %.9f, want %.9f", after, ts_sec(&ts), want);
  double w = MPI_Wtime();
  CHECK(w > want - 1e-9 && w < want + 1e-9, "after %s: MPI_Wtime %.9f, want %.9f", after, w,
        want);
}

int main(int argc, char **argv)
{
  int host = argc > 1 && !strcmp(argv[1], "host");
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (host) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    CHECK(tv.tv_sec > 1577836800, "gettimeofday %ld is not the host's date", (long)tv.tv_sec);
    double h0 = host_monotonic();
    usleep(20000);
    CHECK(host_monotonic() - h0 >= 0.019, "usleep(20000) took %.6f s of real time",
          host_monotonic() - h0);
  } else if (rank == 0) {
    double h0 = host_monotonic(), t0 = MPI_Wtime();
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    check_clocks(t0, "MPI_Init");
    CHECK(sleep(2) == 0, "sleep returned non-zero");
    check_clocks(t0 + 2, "sleep(2)");
    CHECK(usleep(250000) == 0, "usleep failed");
    check_clocks(t0 + 2.25, "usleep(250000)");
    struct timespec req = {0, 125000000}, rem = {1, 1};
    CHECK(nanosleep(&req, &rem) == 0 && rem.tv_sec == 0 && rem.tv_nsec == 0, "nanosleep");
    check_clocks(t0 + 2.375, "nanosleep(0.125)");
    req.tv_nsec = 62500000;
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == 0, "clock_nanosleep");
    check_clocks(t0 + 2.4375, "clock_nanosleep(0.0625)");
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += 500000000;
    if (until.tv_nsec >= 1000000000) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000;
    }
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == 0,
          "clock_nanosleep absolute");
    check_clocks(t0 + 2.9375, "clock_nanosleep(absolute)");
    req.tv_nsec = 1000000000;
    CHECK(nanosleep(&req, NULL) == -1, "nanosleep accepted tv_nsec = 1e9");
    double real = host_monotonic() - h0;
    CHECK(real < 1.0, "2.94 s of sleeps took %.3f s of real time", real);
    /* CPU-time clocks stay real: burn a little CPU, it shows */
    volatile double x = 0;
    for (long i = 0; i < 3000000; i++)
      x += (double)i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    CHECK(ts_sec(&c1) > ts_sec(&c0), "the thread CPU clock did not move");
    int token = 1;
    MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else {
    int token = 0;
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    CHECK(tv.tv_sec == 2, "rank 1 received at gettimeofday %ld.%06ld, want 2.9375 s + latency",
          (long)tv.tv_sec, (long)tv.tv_usec);
    CHECK(tv.tv_usec >= 937500 && tv.tv_usec < 999000, "rank 1 received at 2.%06ld",
          (long)tv.tv_usec);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf("virtual_time: OK\n");
  MPI_Finalize();
  return all != 0;
}
