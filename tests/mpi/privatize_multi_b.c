/* privatize_multi (part b): the main program. Its globals, and those of
 * privatize_multi_a.c (linked as a second object file, or from a static library), are
 * per rank: every rank records its rank several times, lets the other ranks run between
 * calls (ring exchanges), and checks that only its own calls show. Any number of ranks >= 2.
 * Prints "privatize_multi: OK" (the name is taken from argv[0], so the static-library build
 * prints its own name). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "privatize_multi.h"

static int main_side_total;

int main(int argc, char **argv)
{
  int rank, size, failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

  if (multi_counter != 0 || multi_values[1] != 2.0 || multi_hidden_calls() != 0 ||
      strcmp(multi_label, "initial") != 0) {
    fprintf(stderr,
            "%s: rank %d: does not start from the initial values (counter %d, "
            "values[1] %g, hidden calls %d, label %s)\n",
            name, rank, multi_counter, multi_values[1], multi_hidden_calls(), multi_label);
    failures++;
  }
  char label[32];
  snprintf(label, sizeof label, "rank %d", rank);
  multi_label = label;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 1; round <= 10; round++) {
    multi_record(rank);
    main_side_total += rank;
    int token = rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, right, round, &got, 1, MPI_INT, left, round, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (multi_counter != rank * round || multi_hidden_calls() != round ||
        multi_values[10] != rank + 5.0 + round || main_side_total != rank * round ||
        multi_label != label || got != left) {
      fprintf(stderr,
              "%s: rank %d round %d: counter %d (want %d), hidden calls %d, values[10] "
              "%g (want %g), main_side_total %d, label %s, token %d\n",
              name, rank, round, multi_counter, rank * round, multi_hidden_calls(),
              multi_values[10], rank + 5.0 + round, main_side_total, multi_label, got);
      failures++;
    }
  }
  if (rank == 0) {
    int total = failures;
    for (int r = 1; r < size; r++) {
      int f;
      MPI_Recv(&f, 1, MPI_INT, r, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += f;
    }
    if (total)
      printf("%s: %d ranks saw other ranks' globals\n", name, total);
    else
      printf("%s: OK\n", name);
    MPI_Finalize();
    return total != 0;
  }
  MPI_Send(&failures, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
  MPI_Finalize();
  return failures != 0;
}
