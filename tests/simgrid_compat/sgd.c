/* The state_recv_* cases' program (cases.py): rank 1 computes 1e9 flops while rank 0
 * computes 1e8 then waits for a message from rank 1. When rank 1's host goes down during
 * its computation, rank 0 waits forever: both simulators report a deadlock at 0.1 s. */
#include <mpi.h>
#include <stdio.h>

/* declared by both simulators' smpi.h, which their mpi.h may or may not include */
void smpi_execute_flops(double flops);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  smpi_execute_flops(rank == 1 ? 1e9 : 1e8);
  if (rank == 0)
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else if (rank == 1)
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  printf("time %.17g\n", MPI_Wtime());
  MPI_Finalize();
  return 0;
}
