/* Ping-pong: the first thing to measure on any network.
 *
 *   smpirun -np 2 --cfg=network/model:CM02 build/tools/examples/pingpong
 *
 * Rank 0 sends a message of s bytes to rank 1, which sends it back; half the round trip is
 * the one-way time. On an ideal network (the CM02 model: no correction factors) it is
 *
 *     t(s) = latency + (s + 16) / bandwidth          (16: the envelope SMPI adds)
 *
 * so small messages measure the latency and large ones the bandwidth. On the built-in
 * platform a message crosses two 1 us, 10 Gb/s links: latency 2 us, bandwidth 1.25 GB/s.
 * The default model (SMPI) corrects both with piecewise factors fitted on a real cluster:
 * compare the two runs (docs/teaching.md, exercise 1). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "pingpong: run it with exactly 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  const int reps = 4; /* the simulation is deterministic: repeating only shows it */
  char *buf = calloc(1 << 22, 1);
  if (rank == 0)
    printf("%10s %14s %12s\n", "bytes", "one-way (us)", "MB/s");
  for (int s = 1; s <= 1 << 22; s *= 4) {
    double t0 = 0;
    /* one round trip untimed first: rank 1 leaves the barrier a little after rank 0 (the
     * last barrier message is still travelling), which would delay the first timed trip */
    for (int r = -1; r < reps; r++) {
      if (r == 0)
        t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf, s, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, s, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, s, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, s, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    /* MPI_Wtime itself costs 10 ns of simulated time (smpi/wtime): negligible here */
    double one_way = (MPI_Wtime() - t0) / (2.0 * reps);
    if (rank == 0)
      printf("%10d %14.4f %12.2f\n", s, one_way * 1e6, s / one_way / 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
