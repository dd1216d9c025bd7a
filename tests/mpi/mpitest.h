/* What the communicator-layer test programs share: a failure counter, the world rank and
 * size, CHECK (which names the program, rank and line of a failed check and counts it),
 * class_of, and all_ok (every rank's verdict, agreed through messages only, since
 * collectives are not assumed). Each program defines MPITEST_NAME before including it:
 *
 *   #define MPITEST_NAME "groups"
 *   #include "mpitest.h"
 *   ...
 *   CHECK(n == 4, "size %d", n);   ->  groups: rank 2: line 57: check failed: n == 4: size 3
 *   CHECK_CLASS(MPI_Send(b, -1, MPI_INT, 1, 0, c), MPI_ERR_COUNT, "count -1");
 *   ...
 *   return mpitest_finalize();     ->  groups: OK  (rank 0, when no rank failed a check)
 *
 * A program that loops over cases may name the case in each report with CHECK_IN (a string
 * of its own, e.g. "n 4, count 3"), and may print fewer reports by defining
 * MPITEST_MAX_REPORTS (the failures are still counted).
 *
 * Plain MPI and C11: the programs also build with any other MPI's mpicc. */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

#ifndef MPITEST_NAME
#error "define MPITEST_NAME (the program's name, a string) before including mpitest.h"
#endif

/* The only mutable global: without privatization the ranks share it, which is fine (it
 * stays 0 only if no rank failed). Everything else is per rank: locals, extra_state. */
static int failures;

static inline int wrank(void)
{
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

static inline int wsize(void)
{
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

#ifndef MPITEST_MAX_REPORTS
#define MPITEST_MAX_REPORTS 1000000
#endif

/* Counts a failed check; the first MPITEST_MAX_REPORTS of the rank are printed as
 * "NAME: rank R: line L: check failed: COND: [WHERE: ]MESSAGE". */
#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static inline void
mpitest_fail(int line, const char *cond, const char *where, const char *fmt, ...)
{
  if (++failures > MPITEST_MAX_REPORTS)
    return;
  fprintf(stderr, MPITEST_NAME ": rank %d: line %d: check failed: %s: %s%s", wrank(), line, cond,
          where, *where ? ": " : "");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

#define CHECK(cond, ...)                              \
  do {                                                \
    if (!(cond))                                      \
      mpitest_fail(__LINE__, #cond, "", __VA_ARGS__); \
  } while (0)

/* CHECK naming the case being run (where: a string) */
#define CHECK_IN(where, cond, ...)                         \
  do {                                                     \
    if (!(cond))                                           \
      mpitest_fail(__LINE__, #cond, (where), __VA_ARGS__); \
  } while (0)

/* Stops the job unless ok (the program cannot run with this many ranks): rank 0 says what
 * it needs ("NAME: needs 2 ranks") and the job aborts with code 2. */
static inline void mpitest_need(int ok, const char *what)
{
  if (ok)
    return;
  if (wrank() == 0)
    fprintf(stderr, MPITEST_NAME ": needs %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* The error class of an MPI error code (-1 if MPI_Error_class rejects it). */
static inline int class_of(int code)
{
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

/* A barrier made of messages that also ANDs ok over the ranks (tags 997 to 999 of
 * MPI_COMM_WORLD are reserved for it). Rank 0 starts it when it gets there, and until then
 * the others only wait for it: none of its messages can meet a wildcard receive or probe
 * of rank 0 (p2p_probe checks that no message is left over). The other ranks must not
 * have wildcard receives pending when rank 0 calls it. */
static inline int all_ok(int ok)
{
  int rank = wrank(), size = wsize();
  int all = ok, go = 1;
  if (rank == 0) {
    for (int i = 1; i < size; i++)
      MPI_Send(&go, 1, MPI_INT, i, 997, MPI_COMM_WORLD);
    for (int i = 1; i < size; i++) {
      int o;
      MPI_Recv(&o, 1, MPI_INT, i, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      all = all && o;
    }
    for (int i = 1; i < size; i++)
      MPI_Send(&all, 1, MPI_INT, i, 998, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&go, 1, MPI_INT, 0, 997, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&ok, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
    MPI_Recv(&all, 1, MPI_INT, 0, 998, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return all;
}

/* A barrier made of messages only: nobody leaves before everybody arrived. */
static inline void mpitest_barrier(void) { (void)all_ok(1); }

/* CHECK that call returns an error of class want (MPI_SUCCESS: that it succeeds); what
 * (a string) says which case it was. The report shows the call:
 *   p2p_errors: rank 0: line 40: check failed: MPI_Send(b, -1, ...): Send count -1: error
 *   class 0, expected MPI_ERR_COUNT (2) */
#define CHECK_CLASS(call, want, what)                                                         \
  do {                                                                                        \
    int cls_ = class_of(call);                                                                \
    if (cls_ != (want))                                                                       \
      mpitest_fail(__LINE__, #call, "", "%s: error class %d, expected %s (%d)", (what), cls_, \
                   #want, (want));                                                            \
  } while (0)

/* The end of a program, in place of MPI_Finalize: every rank's verdict agreed (all_ok),
 * rank 0 prints "NAME: OK" when no rank failed a check, then MPI_Finalize. Returns main's
 * exit code. */
static inline int mpitest_finalize(void)
{
  int ok = all_ok(failures == 0);
  if (ok && wrank() == 0)
    printf(MPITEST_NAME ": OK\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}

#endif
