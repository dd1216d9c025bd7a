/* The program of the SimGrid-compatibility cases (run.py): two rounds of 1e8 flops and a
 * 100 kB ring exchange, an allreduce, then rank 0 prints the latest MPI_Wtime of all ranks.
 * Plain MPI plus smpi_execute_flops, so that SimGrid's smpicc builds it too
 * (tools/simgrid-ref/record_compat.py records SimGrid's times of the same cases). */
#include <mpi.h>
#include <stdio.h>

/* declared by both simulators' smpi.h, which their mpi.h may or may not include */
void smpi_execute_flops(double flops);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static char buf[2][100000];
  for (int it = 0; it < 2; it++) {
    smpi_execute_flops(1e8);
    MPI_Sendrecv(buf[0], 100000, MPI_CHAR, (rank + 1) % size, 0, buf[1], 100000, MPI_CHAR,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  double x = rank, y;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t = MPI_Wtime(), tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("time %.17g\n", tmax);
  MPI_Finalize();
  return 0;
}
