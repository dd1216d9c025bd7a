/* The README's first simulation: a token travels around a ring of ranks while every rank
 * computes; rank 0 reports the simulated time of each lap.
 *
 *   build/tools/smpirun -np 8 build/tools/examples/demo
 *
 * The computation is declared with smpi_execute_flops (deterministic); real CPU bursts
 * between MPI calls are simulated too, scaled by --cfg=smpi/host-speed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int rank, size, laps = argc > 1 ? atoi(argv[1]) : 3;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0)
      fprintf(stderr, "demo: run it with at least 2 ranks (smpirun -np 8 ...)\n");
    MPI_Finalize();
    return 1;
  }
  double token[1024] = {0}; /* 8 KiB message */
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int lap = 0; lap < laps; lap++) {
    smpi_execute_flops(1e6 * (rank + 1)); /* uneven work: rank r computes (r+1) Mflop */
    if (rank == 0) {
      double t0 = MPI_Wtime();
      MPI_Send(token, 1024, MPI_DOUBLE, next, lap, MPI_COMM_WORLD);
      MPI_Recv(token, 1024, MPI_DOUBLE, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("lap %d: the token went around %d ranks in %.6f simulated seconds\n", lap, size,
             MPI_Wtime() - t0);
    } else {
      MPI_Recv(token, 1024, MPI_DOUBLE, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token[0] += 1;
      MPI_Send(token, 1024, MPI_DOUBLE, next, lap, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("token value after %d laps: %.0f (expected %d)\n", laps, token[0], laps * (size - 1));
  MPI_Finalize();
  return 0;
}
