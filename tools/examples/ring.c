/* Ring: a message goes around all the ranks, one hop at a time.
 *
 *   smpirun -np 8 build/tools/examples/ring [bytes]
 *
 * Each rank waits for the message from its left neighbour, then passes it to its right
 * neighbour, so the hops cannot overlap: one lap takes np times the one-way time of a single
 * message (pingpong.c). Rank 0 prints the lap time and the time per hop; double the number of
 * ranks and the lap time doubles. Contrast with MPI_Bcast (coll_compare.c), whose tree
 * needs only log2(np) steps. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bytes = argc > 1 ? atoi(argv[1]) : 1000;
  char *msg = calloc((size_t)bytes + 1, 1);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int laps = 3;
  for (int lap = 0; lap < laps; lap++) {
    double t0 = MPI_Wtime();
    if (rank == 0) {
      msg[0] = 0;
      MPI_Send(msg, bytes, MPI_BYTE, next, lap, MPI_COMM_WORLD);
      MPI_Recv(msg, bytes, MPI_BYTE, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double t = MPI_Wtime() - t0;
      /* every other rank added one to the first byte on the way */
      printf("lap %d: %d hops of %d bytes in %.3f us (%.3f us per hop), counter %d\n", lap, size,
             bytes, t * 1e6, t * 1e6 / size, msg[0]);
    } else {
      MPI_Recv(msg, bytes, MPI_BYTE, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      msg[0]++;
      MPI_Send(msg, bytes, MPI_BYTE, next, lap, MPI_COMM_WORLD);
    }
  }
  free(msg);
  MPI_Finalize();
  return 0;
}
