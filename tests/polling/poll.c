/* Polling loops whose simulated cost is known exactly (issue 27, docs/polling.md).
 *
 *   poll wtime K        rank 0 alone (rank 1 waits in MPI_Recv): K x MPI_Wtime; prints the
 *                       date after the loop and the same sum done here, t += smpi/wtime
 *   poll iprobe K       rank 0 alone: K failed MPI_Iprobe; prints the date after the loop
 *   poll iprobe2 K      ranks 0 and 1 both fail K MPI_Iprobe, interleaved at the same dates
 *   poll test K         rank 0 alone: K failed MPI_Test on a receive nobody matches yet
 *
 * Every rank prints "poll: rank R mode M date %.17g expect %.17g" where expect is the date
 * computed here under the rule the driver (check.py) names; computation is not simulated. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argv[1];
  int k = atoi(argv[2]);
  double t0 = MPI_Wtime(), expect = t0 + 1e-8; /* the read itself costs smpi/wtime */
  int flag = 0, token = 0;
  if (!strcmp(mode, "wtime")) {
    if (rank == 0) {
      for (int i = 0; i < k; i++) {
        MPI_Wtime();
        expect += 1e-8;
      }
      MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(mode, "iprobe") || !strcmp(mode, "iprobe2")) {
    int pollers = !strcmp(mode, "iprobe") ? 1 : 2;
    if (rank < pollers)
      for (int i = 0; i < k; i++) {
        MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag)
          MPI_Abort(MPI_COMM_WORLD, 3);
      }
    if (pollers == 1) {
      if (rank == 0)
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      else if (rank == 1)
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(mode, "test")) {
    if (rank == 0) {
      MPI_Request rq;
      MPI_Irecv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &rq);
      for (int i = 0; i < k; i++) {
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        if (flag)
          MPI_Abort(MPI_COMM_WORLD, 3);
      }
      MPI_Send(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
  }
  double t1 = MPI_Wtime();
  printf("poll: rank %d mode %s date %.17g expect %.17g\n", rank, mode, t1, expect);
  MPI_Finalize();
  return 0;
}
