/* A 1-D Jacobi stencil: halo exchange with both neighbours (Irecv/Isend/Waitall),
 * computation, an Allreduce of the residual every iteration, and the collectives a real
 * code uses around it (Bcast of parameters, Scatter/Gather of the field, Reduce,
 * Allgather, Alltoall, the v variants, Reduce_scatter with equal blocks, Scan). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2048

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *u = calloc(N + 2, sizeof *u), *all = calloc((size_t)N * size, sizeof *all);
  double *tmp = calloc((size_t)N * size, sizeof *tmp);
  int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
  for (int i = 0; i < size; i++)
    counts[i] = 16 * (i + 1), displs[i] = 16 * i * (i + 1) / 2;
  int params[4] = {10, 0, 0, 0};
  double t0 = MPI_Wtime();
  MPI_Bcast(params, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(all, N, MPI_DOUBLE, u + 1, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int left = rank - 1, right = rank + 1;
  for (int it = 0; it < params[0]; it++) {
    MPI_Request rq[4];
    int k = 0;
    if (left >= 0) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[k++]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[k++]);
    }
    if (right < size) {
      MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[k++]);
      MPI_Isend(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[k++]);
    }
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    smpi_execute_flops(5.0 * N * (1 + rank % 2));
    double res = 1.0, sum;
    MPI_Allreduce(&res, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Gather(u + 1, N, MPI_DOUBLE, all, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce(u + 1, tmp, N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Allgather(u + 1, 64, MPI_DOUBLE, all, 64, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoall(all, 32, MPI_DOUBLE, tmp, 32, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gatherv(u + 1, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, u + 1, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(u + 1, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  int *sc = malloc(size * sizeof *sc), *sd = malloc(size * sizeof *sd);
  for (int i = 0; i < size; i++)
    sc[i] = 8 * (1 + (i + rank) % 3), sd[i] = 24 * i;
  int *rc = malloc(size * sizeof *rc), *rd = malloc(size * sizeof *rd);
  for (int i = 0; i < size; i++)
    rc[i] = 8 * (1 + (i + rank) % 3), rd[i] = 24 * i;
  MPI_Alltoallv(all, sc, sd, MPI_DOUBLE, tmp, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  int *eq = malloc(size * sizeof *eq);
  for (int i = 0; i < size; i++)
    eq[i] = 64;
  MPI_Reduce_scatter(all, tmp, eq, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(u + 1, tmp, 128, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("ti_stencil: time %.9g\n", MPI_Wtime() - t0);
  free(u), free(all), free(tmp), free(counts), free(displs), free(sc), free(sd), free(rc), free(rd), free(eq);
  MPI_Finalize();
  return 0;
}
