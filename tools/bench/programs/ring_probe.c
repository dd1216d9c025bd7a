/* HPL's increasing-ring panel broadcast, polled as HPL polls it (issue 27, docs/polling.md):
 * for each of STEPS panels the owner (rank step % size) computes, then sends the panel to the
 * next rank; every other rank probes for it with MPI_Iprobe, then receives and forwards it
 * (the last one keeps it), then computes its update. Prints the simulated time, which depends
 * on how smpi/iprobe's growing cost is counted (smpi/iprobe-counter).
 *
 *   ring_probe [STEPS [PANEL_BYTES [UPDATE_FLOPS]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 16;
  int bytes = argc > 2 ? atoi(argv[2]) : 1 << 20;
  double flops = argc > 3 ? atof(argv[3]) : 1e9;
  char *panel = malloc((size_t)bytes);
  long probes = 0;
  for (int s = 0; s < steps; s++) {
    int owner = s % size, pos = (rank - owner + size) % size;
    if (pos == 0) {
      smpi_execute_flops(flops / 4); /* the panel factorization */
      MPI_Send(panel, bytes, MPI_CHAR, (rank + 1) % size, s, MPI_COMM_WORLD);
    } else {
      int prev = (rank + size - 1) % size, flag = 0;
      while (!flag) {
        MPI_Iprobe(prev, s, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        probes++;
      }
      MPI_Recv(panel, bytes, MPI_CHAR, prev, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (pos < size - 1)
        MPI_Send(panel, bytes, MPI_CHAR, (rank + 1) % size, s, MPI_COMM_WORLD);
    }
    smpi_execute_flops(flops); /* the trailing update */
  }
  long all = 0;
  MPI_Reduce(&probes, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("ring_probe: ranks %d steps %d time %.6f s probes %ld\n", size, steps, MPI_Wtime(),
           all);
  free(panel);
  MPI_Finalize();
  return 0;
}
