/* A collective I/O call that another rank never makes: rank 0 waits in MPI_File_write_all
 * while rank 1 waits for a message rank 0 never sends. smpirun must stop with the deadlock
 * report naming both calls, their lines and the file (io_deadlock.py checks). Deliberately
 * wrong: not in io_tests. */
#include <mpi.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "dl.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (rank == 0)
    MPI_File_write_all(fh, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
  else
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  MPI_Finalize();
}
