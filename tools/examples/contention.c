/* Contention: a network is more than the sum of its links.
 *
 *   smpirun -np 16 -platform platforms/teaching_racks.xml build/tools/examples/contention
 *
 * On teaching_racks.xml, ranks 0-7 sit in rack A and 8-15 in rack B; the racks are joined
 * by one 1 Gb/s link. The program times messages of 1 MiB:
 *   1. one exchange (a message each way, MPI_Sendrecv) inside rack A, alone;
 *   2. one exchange between rack A and rack B, alone: limited by the 1 Gb/s link, which
 *      its two messages share;
 *   3. 8 pairs inside each rack at the same time: no link is shared, same time as 1;
 *   4. 8 pairs across the racks at the same time (rank i <-> rank i+8): all 16 messages
 *      cross the thin link and share it, so the exchange takes 8 times as long as 2 -
 *      although every link on each message's route is the same as in 2;
 *   5. MPI_Alltoall of 64 KiB blocks: 128 of its 240 messages cross the thin link. Each
 *      rank's own 10 Gb/s link could move its 15 blocks in 0.8 ms; the 8 MiB that must
 *      cross the 1 Gb/s uplink need 67 ms at least.
 * Looking at one link at a time predicts 2 for 4 and 0.8 ms for 5; the simulation shows
 * what sharing does (docs/teaching.md, exercise 6). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MIB (1 << 20)

/* every rank in `active` exchanges with peer at the same time; returns the slowest time */
static double exchange(char *out, char *in, int bytes, int peer, int active)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (active)
    MPI_Sendrecv(out, bytes, MPI_BYTE, peer, 0, in, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  double t = MPI_Wtime() - t0, worst;
  MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return worst;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 16) {
    if (rank == 0)
      fprintf(stderr, "contention: run it with 16 ranks on platforms/teaching_racks.xml\n");
    MPI_Finalize();
    return 1;
  }
  char *out = calloc(MIB, 1), *in = calloc(MIB, 1); /* 1 MiB = 16 alltoall blocks too */
  /* 1 and 2: a single exchange (one message each way) between ranks 0 and 1 (same rack),
   * then 0 and 8 */
  double intra = exchange(out, in, MIB, rank ^ 1, rank < 2);
  double inter = exchange(out, in, MIB, rank ^ 8, rank == 0 || rank == 8);
  /* 3 and 4: everybody at once */
  double intra_all = exchange(out, in, MIB, rank ^ 1, 1);
  double inter_all = exchange(out, in, MIB, rank ^ 8, 1);
  /* 5: all-to-all, 64 KiB per pair */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Alltoall(out, 65536, MPI_BYTE, in, 65536, MPI_BYTE, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, a2a;
  MPI_Reduce(&t, &a2a, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("1 MiB inside a rack, alone:           %9.3f ms\n", intra * 1e3);
    printf("1 MiB between racks, alone:           %9.3f ms\n", inter * 1e3);
    printf("8 pairs inside each rack at once:     %9.3f ms (%.1fx alone)\n", intra_all * 1e3,
           intra_all / intra);
    printf("8 pairs between the racks at once:    %9.3f ms (%.1fx alone)\n", inter_all * 1e3,
           inter_all / inter);
    printf("alltoall, 64 KiB per pair:            %9.3f ms\n", a2a * 1e3);
    /* two ways to predict it: what each rank's own link allows, and what the uplink must
     * carry (every byte between the racks crosses it, in either direction) */
    printf("  its host link alone would allow:    %9.3f ms (15 x 64 KiB at 10 Gb/s)\n",
           15 * 65536 / 1.25e9 * 1e3);
    printf("  the uplink must carry 8 MiB:        %9.3f ms (128 x 64 KiB at 1 Gb/s)\n",
           128 * 65536 / 1.25e8 * 1e3);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
