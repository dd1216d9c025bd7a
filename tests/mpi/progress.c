/* progress: enough MPI calls for the progress line to appear (progress.py runs it under a
 * pseudo-terminal and through a pipe). The program itself only checks its exchanges. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 2000; i++) {
    int out = rank * 10000 + i, in = -1, peer = rank ^ 1;
    if (peer >= size)
      continue;
    MPI_Sendrecv(&out, 1, MPI_INT, peer, i, &in, 1, MPI_INT, peer, i, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    bad += in != peer * 10000 + i;
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf(bad ? "progress: %d wrong exchanges\n" : "progress: OK\n", bad);
  MPI_Finalize();
  return bad != 0;
}
