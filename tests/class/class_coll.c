/* Collectives whose flows all cross a flat cluster's backbone, for check_class_mpi.py: the
 * simulated date after each call, at rank 0 and the latest over the ranks, at 17 digits.
 *   class_coll alltoall|alltoallv|allreduce BYTES ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* from `from` to `to`: between 1/2 and 3/2 of bytes, ~1 000 different sizes, so that the
 * flows end one by one (every end changes the backbone's share) */
static int uneven(int bytes, int from, int to)
{
  return bytes / 2 + (int)(((long)bytes * ((from * 7919L + to * 104729L) % 1009)) / 1009);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0)
      fprintf(stderr, "usage: %s alltoall|alltoallv|allreduce BYTES ITERATIONS\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *what = argv[1];
  int bytes = atoi(argv[2]), iters = atoi(argv[3]);
  double *dates = calloc((size_t)iters, sizeof *dates);
  char *sbuf = NULL, *rbuf = NULL;
  int *scounts = calloc((size_t)size, sizeof(int)), *rcounts = calloc((size_t)size, sizeof(int));
  int *sdispls = calloc((size_t)size, sizeof(int)), *rdispls = calloc((size_t)size, sizeof(int));
  if (!strcmp(what, "allreduce")) {
    sbuf = calloc((size_t)bytes, 1);
    rbuf = calloc((size_t)bytes, 1);
  } else {
    /* alltoallv: uneven, as NPB IS's key exchange */
    long stot = 0, rtot = 0;
    for (int p = 0; p < size; p++) {
      scounts[p] = !strcmp(what, "alltoallv") ? uneven(bytes, rank, p) : bytes;
      rcounts[p] = !strcmp(what, "alltoallv") ? uneven(bytes, p, rank) : bytes;
      sdispls[p] = (int)stot;
      rdispls[p] = (int)rtot;
      stot += scounts[p];
      rtot += rcounts[p];
    }
    sbuf = calloc((size_t)stot, 1);
    rbuf = calloc((size_t)rtot, 1);
  }
  for (int i = 0; i < iters; i++) {
    if (!strcmp(what, "allreduce"))
      MPI_Allreduce(sbuf, rbuf, bytes, MPI_CHAR, MPI_MAX, MPI_COMM_WORLD);
    else if (!strcmp(what, "alltoall"))
      MPI_Alltoall(sbuf, bytes, MPI_CHAR, rbuf, bytes, MPI_CHAR, MPI_COMM_WORLD);
    else
      MPI_Alltoallv(sbuf, scounts, sdispls, MPI_CHAR, rbuf, rcounts, rdispls, MPI_CHAR,
                    MPI_COMM_WORLD);
    dates[i] = MPI_Wtime();
  }
  double *latest = calloc((size_t)iters, sizeof *latest);
  MPI_Reduce(dates, latest, iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int i = 0; i < iters; i++)
      printf("call %d: rank 0 %.17g latest %.17g\n", i, dates[i], latest[i]);
  free(dates);
  free(latest);
  free(sbuf);
  free(rbuf);
  free(scounts);
  free(rcounts);
  free(sdispls);
  free(rdispls);
  MPI_Finalize();
  return 0;
}
