/* A token ring with nonblocking calls: each round every rank posts an Irecv from its left
 * neighbour and an Isend to its right one, computes, and waits (Waitall, or Wait and a
 * Test); then a barrier. Point-to-point with requests for the replay tests. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static double in[4096], out[4096];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double t0 = MPI_Wtime();
  for (int round = 0; round < 4; round++) {
    MPI_Request rq[2];
    int n = 512 << round; /* 4 KiB .. 32 KiB of doubles */
    MPI_Irecv(in, n, MPI_DOUBLE, left, round, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, n, MPI_DOUBLE, right, round, MPI_COMM_WORLD, &rq[1]);
    smpi_execute_flops(2e5 * (rank + 1));
    if (round % 2 == 0) {
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else {
      int flag = 0;
      MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      MPI_Test(&rq[1], &flag, MPI_STATUS_IGNORE);
      if (!flag)
        MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("ti_ring: time %.9g\n", MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
