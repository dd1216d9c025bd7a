/* The autotools project's program: a token goes once around the ring of ranks. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank, size, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0)
    MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  token += rank;
  MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (token != size * (size - 1) / 2) {
      printf("ring: token %d, expected %d\n", token, size * (size - 1) / 2);
      return 1;
    }
    /* SIZEOF_LONG comes from a configure test program that ran */
    printf("ring: OK (%d ranks, sizeof(long) = %d)\n", size, SIZEOF_LONG);
  }
  MPI_Finalize();
  return 0;
}
