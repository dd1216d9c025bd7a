/* What the communicator-layer test programs share: a failure counter, the world rank and
 * size, CHECK (which names the program, rank and line of a failed check and counts it),
 * class_of, and all_ok (every rank's verdict, agreed through messages only, since
 * collectives are not assumed). Each program defines MPITEST_NAME before including it:
 *
 *   #define MPITEST_NAME "groups"
 *   #include "mpitest.h"
 *   ...
 *   CHECK(n == 4, "size %d", n);   ->  groups: rank 2: line 57: check failed: n == 4: size 3
 *
 * Plain MPI and C11: the programs also build with any other MPI's mpicc. */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>
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

#define CHECK(cond, ...)                                                                  \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, MPITEST_NAME ": rank %d: line %d: check failed: %s: ", wrank(),     \
              __LINE__, #cond);                                                          \
      fprintf(stderr, __VA_ARGS__);                                                      \
      fputc('\n', stderr);                                                               \
      failures++;                                                                        \
    }                                                                                    \
  } while (0)

/* The error class of an MPI error code (-1 if MPI_Error_class rejects it). */
static inline int class_of(int code)
{
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

/* A barrier made of messages that also ANDs ok over the ranks (tags 998 and 999 of
 * MPI_COMM_WORLD are reserved for it). */
static inline int all_ok(int ok)
{
  int rank = wrank(), size = wsize();
  int all = ok;
  if (rank == 0) {
    for (int i = 1; i < size; i++) {
      int o;
      MPI_Recv(&o, 1, MPI_INT, i, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      all = all && o;
    }
    for (int i = 1; i < size; i++)
      MPI_Send(&all, 1, MPI_INT, i, 998, MPI_COMM_WORLD);
  } else {
    MPI_Send(&ok, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
    MPI_Recv(&all, 1, MPI_INT, 0, 998, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return all;
}

#endif
