/* Ping-pong between ranks 0 and 1 (others idle) at 1 KiB, 64 KiB and 1 MiB, with some
 * computation between rounds: a pure point-to-point, bandwidth-dominated trace for the
 * replay tests (tests/data/ti/README.md). Builds with SimGrid's smpicc and ours. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  static char buf[1 << 20];
  const int sizes[] = {1024, 65536, 1 << 20};
  double t0 = MPI_Wtime();
  for (int s = 0; s < 3; s++) {
    for (int it = 0; it < 3; it++) {
      if (rank == 0) {
        MPI_Send(buf, sizes[s], MPI_BYTE, 1, it, MPI_COMM_WORLD);
        MPI_Recv(buf, sizes[s], MPI_BYTE, 1, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, sizes[s], MPI_BYTE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, sizes[s], MPI_BYTE, 0, it, MPI_COMM_WORLD);
      }
    }
    smpi_execute_flops(1e6);
  }
  if (rank == 0)
    printf("ti_pingpong: time %.9g\n", MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
