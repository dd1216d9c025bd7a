/* coll_contention: collective messages contend in the network model.
 *
 * A binomial scatter of 4 MiB per rank over 16 ranks on a 1 Gb/s cluster whose switch is
 * one shared 1 Gb/s backbone (coll_contention.xml), as in the SMPI paper (Clauss et al.,
 * JPDC 2011): the root sends 32, 16, 8 and 4 MiB to ranks 8, 4, 2, 1 with blocking sends
 * while its children already forward halves of what they got, so from the second round on
 * several transfers cross the backbone at once. Without contention each path would take
 * T(32 MiB) + T(16 MiB) + T(8 MiB) + T(4 MiB), T measured here for a lone transfer; the
 * simulated scatter must take clearly longer (at least 20 %).
 *
 * Under smpi MPICH's binomial scatter (largest subtree first) is forced (smpi_coll_force); under another MPI the
 * native scatter runs and only the data is checked (real timings prove nothing here).
 * Prints "coll_contention: OK" and the three times. */
#define MPITEST_NAME "coll_contention"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int smpi_coll_force(const char *coll, const char *name) __attribute__((weak));

#define CHUNK (4 << 20)

/* time of one lone transfer of bytes from rank 0 to rank `to` (others wait) */
static double lone(char *buf, int bytes, int to, int rank, MPI_Comm comm)
{
  MPI_Barrier(comm);
  double t = 0;
  if (rank == 0) {
    double t0 = MPI_Wtime();
    MPI_Send(buf, bytes, MPI_CHAR, to, 1, comm);
    MPI_Recv(&t, 1, MPI_DOUBLE, to, 2, comm, MPI_STATUS_IGNORE);
    t -= t0;
  } else if (rank == to) {
    MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, comm, MPI_STATUS_IGNORE);
    t = MPI_Wtime();
    MPI_Send(&t, 1, MPI_DOUBLE, 0, 2, comm);
  }
  return t;
}

int main(int argc, char **argv)
{
  int rank, n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 16) {
    if (rank == 0)
      fprintf(stderr, "coll_contention: run with 16 ranks\n");
    MPI_Finalize();
    return 1;
  }
  char *send = NULL, *recv = malloc(CHUNK), *big = malloc(8 * CHUNK);
  if (rank == 0) {
    send = malloc((size_t)16 * CHUNK);
    for (size_t i = 0; i < (size_t)16 * CHUNK; i++)
      send[i] = (char)(i / CHUNK + 1);
  }
  /* no-contention prediction: the four message sizes of a root-to-leaf path, alone */
  double pred = 0;
  for (int k = 8; k >= 1; k /= 2)
    pred += lone(big, k * CHUNK, k, rank, MPI_COMM_WORLD);
  int simulated = smpi_coll_force != NULL;
  if (simulated)
    smpi_coll_force("scatter", "mpich_binomial");
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Scatter(send, CHUNK, MPI_CHAR, recv, CHUNK, MPI_CHAR, 0, MPI_COMM_WORLD);
  double t1 = MPI_Wtime(), lo, hi;
  MPI_Reduce(&t0, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  for (int i = 0, ok = 1; i < CHUNK && ok; i++) {
    ok = recv[i] == (char)(rank + 1);
    CHECK(ok, "byte %d of its chunk is wrong", i);
  }
  if (rank == 0) {
    double took = hi - lo;
    printf("coll_contention: binomial scatter of 4 MiB x 16 ranks: %.6f s; lone transfers "
           "on a path: %.6f s (%.0f %% more)\n",
           took, pred, 100 * (took / pred - 1));
    CHECK(!simulated || took > 1.2 * pred,
          "the scatter (%.6f s) should take clearly longer than the no-contention sum (%.6f s)",
          took, pred);
  }
  free(send);
  free(recv);
  free(big);
  return mpitest_finalize();
}
