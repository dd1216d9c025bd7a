/* Monte-Carlo pi with CPU sampling: simulate a long computation without running all of it.
 *
 *   smpirun -np 4 --cfg=smpi/host-speed:1Gf build/tools/examples/pi_sampling [blocks]
 *
 * Each rank throws random points in the unit square, `blocks` blocks of 200 000 points, and
 * counts those inside the quarter circle: pi ~ 4 x inside / thrown. The block is wrapped in
 * SMPI_SAMPLE_LOCAL(10): each rank really runs it 10 times, the simulator measures how long
 * it takes, and the remaining executions are skipped, their mean cost injected as simulated
 * computation instead. The simulated time is that of the full run; the wall-clock time is
 * that of 10 blocks per rank. Only the blocks that ran produced points, so the estimate
 * counts those (a real sampled application accepts the same loss of precision).
 *
 * Exercise: run with 10, 100 and 1000 blocks (docs/teaching.md, exercise 3) and compare the
 * simulated time (grows with blocks), the wall-clock time (does not) and the estimate. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long blocks = argc > 1 ? atol(argv[1]) : 100;
  const long per_block = 200000;
  unsigned seed = 12345u + 977u * (unsigned)rank;
  long inside = 0, thrown = 0, ran = 0;
  double t0 = MPI_Wtime();
  for (long b = 0; b < blocks; b++) {
    SMPI_SAMPLE_LOCAL(10)
    {
      for (long i = 0; i < per_block; i++) {
        double x = rand_r(&seed) / (double)RAND_MAX, y = rand_r(&seed) / (double)RAND_MAX;
        inside += x * x + y * y <= 1.0;
      }
      thrown += per_block;
      ran++;
    }
  }
  long local[3] = {inside, thrown, ran}, total[3];
  MPI_Reduce(local, total, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("pi ~ %.5f from %ld points\n", 4.0 * total[0] / total[1], total[1]);
    printf("blocks run: %ld of %ld (the others were sampled)\n", total[2], blocks * size);
    printf("simulated time: %.3f s\n", t);
  }
  MPI_Finalize();
  return 0;
}
