/* A tiny program for the sweep tests: a token of SIZE bytes goes ROUNDS times around the
 * ranks, each rank computing FLOPS (smpi_execute_flops: no measured CPU time, so the
 * simulated time is exact and reproducible). Rank 0 prints a number for the sweep's
 * user pattern ("rate: BYTES_PER_SIMULATED_SECOND"). Usage: ring SIZE ROUNDS FLOPS */
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
  int rounds = argc > 2 ? atoi(argv[2]) : 1;
  double flops = argc > 3 ? atof(argv[3]) : 0;
  char *buf = calloc((size_t)bytes + 1, 1);
  double t0 = MPI_Wtime();
  for (int r = 0; r < rounds; r++) {
    if (flops > 0)
      smpi_execute_flops(flops);
    if (size > 1) {
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_CHAR, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_CHAR, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, (rank + 1) % size, 0, MPI_COMM_WORLD);
      }
    }
  }
  double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("rate: %.6g\n", t > 0 ? (double)bytes * rounds * size / t : 0.0);
  free(buf);
  MPI_Finalize();
  return 0;
}
