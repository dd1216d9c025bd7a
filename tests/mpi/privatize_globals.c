/* privatize_globals: every rank has its own copy of the program's global and static
 * variables (smpi/privatization), as separate MPI processes do. Each rank checks that it
 * starts from the initial values although other ranks ran and wrote before it, writes its
 * rank into a global int, an initialised global, a static array, a string and a
 * thread-local variable, then passes messages around a ring many times (each exchange lets
 * other ranks run) and checks its values survive. Messages are received into a global
 * buffer: the payload must land in the receiver's copy, whoever runs when it is delivered
 * (with --recv-into-local, into a local buffer instead: for a point-to-point layer that does
 * not translate addresses of privatized buffers yet). stdout and errno keep working (libc's
 * variables stay shared; errno is kept per rank). Any number of ranks >= 2. */
#include <errno.h>
#define MPITEST_NAME "privatize_globals"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counter;                 /* .bss */
int initialised_global = 17; /* .data */
static double table[1000];   /* a static array */
static char name[64] = "unset";
static _Thread_local int tls_var = 5;
static int received[4]; /* a receive buffer that is a global */

static int rank, size;

static void check_mine(int round)
{
  CHECK(counter == rank + round, "counter %d, expected %d", counter, rank + round);
  CHECK(initialised_global == 100 + rank, "initialised_global %d", initialised_global);
  for (int i = 0; i < 1000; i += 37)
    CHECK(table[i] == rank * 1000.0 + i, "table[%d] = %g", i, table[i]);
  char want[64];
  snprintf(want, sizeof want, "rank %d", rank);
  CHECK(!strcmp(name, want), "name '%s'", name);
  CHECK(tls_var == rank * 3, "tls_var %d", tls_var);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* the initial values, whatever the ranks that ran before did */
  CHECK(counter == 0, "counter starts at %d", counter);
  CHECK(initialised_global == 17, "initialised_global starts at %d", initialised_global);
  CHECK(table[999] == 0.0, "table[999] starts at %g", table[999]);
  CHECK(!strcmp(name, "unset"), "name starts as '%s'", name);
  CHECK(tls_var == 5, "tls_var starts at %d", tls_var);

  counter = rank;
  initialised_global = 100 + rank;
  for (int i = 0; i < 1000; i++)
    table[i] = rank * 1000.0 + i;
  snprintf(name, sizeof name, "rank %d", rank);
  tls_var = rank * 3;

  int local_in[4];
  int *in = argc > 1 && !strcmp(argv[1], "--recv-into-local") ? local_in : received;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 0; round < 20; round++) {
    int out[4] = {rank, counter, round, initialised_global};
#ifdef SMPI_VERSION_MAJOR
    errno = 1000 + rank; /* smpi keeps errno per rank across other ranks' turns */
#endif
    MPI_Sendrecv(out, 4, MPI_INT, right, round, in, 4, MPI_INT, left, round, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#ifdef SMPI_VERSION_MAJOR
    /* the MPI call may change errno (libc calls do), but never to another rank's value */
    CHECK(errno < 1000 || errno >= 1000 + size || errno == 1000 + rank,
          "errno %d after round %d: another rank's", errno, round);
#endif
    CHECK(in[0] == left && in[1] == left + round && in[2] == round && in[3] == 100 + left,
          "round %d: received {%d, %d, %d, %d} from rank %d%s", round, in[0], in[1], in[2], in[3],
          left,
          in == received ? " (into a global buffer: does the message layer deliver into the "
                           "receiver's copy, with smpi_privatize_translate?)"
                         : "");
    check_mine(round);
    counter++;
  }

  return mpitest_finalize();
}
