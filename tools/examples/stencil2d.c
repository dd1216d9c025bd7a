/* 2-D stencil: Jacobi iterations on a grid split over a Cartesian grid of ranks.
 *
 *   smpirun -np 4 --cfg=smpi/simulate-computation:no build/tools/examples/stencil2d [N] [iters]
 *
 * The N x N grid (fixed boundary: 1 on the top edge, 0 elsewhere) is cut into px x py blocks
 * (MPI_Dims_create, MPI_Cart_create). Each iteration every rank
 *   1. exchanges its halo: one row with the ranks above and below, one column (a strided
 *      MPI_Type_vector) with the ranks left and right (MPI_Cart_shift + MPI_Sendrecv);
 *   2. updates its cells: u'[i][j] = (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) / 4,
 *      and declares the cost of a heavier computation, 1000 flops per cell
 *      (smpi_execute_flops), so that simulated times do not depend on this machine.
 *
 *      rank grid 2 x 2            one block with its halo (h)
 *      +------+------+            h h h h h h
 *      |  0   |  1   |            h . . . . h      rows travel up/down,
 *      +------+------+            h . . . . h      columns left/right
 *      |  2   |  3   |            h h h h h h
 *      +------+------+
 *
 * Rank 0 checks the result against a serial computation of the whole grid and prints the
 * time per iteration: computation shrinks as 1/np, the halo does not (docs/teaching.md,
 * exercise 4). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(a, i, j) (a)[(size_t)(i) * (size_t)(ld) + (size_t)(j)]

static void serial(int n, int iters, double *out)
{
  int ld = n + 2;
  double *u = calloc((size_t)ld * ld, sizeof *u), *v = calloc((size_t)ld * ld, sizeof *v);
  for (int j = 0; j < ld; j++)
    AT(u, 0, j) = AT(v, 0, j) = 1.0;
  for (int it = 0; it < iters; it++) {
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        AT(v, i, j) = 0.25 *
                      (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
    double *t = u;
    u = v;
    v = t;
  }
  for (int i = 0; i < n; i++)
    memcpy(out + (size_t)i * n, &AT(u, i + 1, 1), (size_t)n * sizeof *out);
  free(u);
  free(v);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 96, iters = argc > 2 ? atoi(argv[2]) : 50;
  int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  if (n % dims[0] || n % dims[1]) {
    if (rank == 0)
      fprintf(stderr, "stencil2d: N=%d is not divisible by the %d x %d rank grid\n", n, dims[0],
              dims[1]);
    MPI_Finalize();
    return 1;
  }
  int rows = n / dims[0], cols = n / dims[1], ld = cols + 2;
  int up, down, left, right;
  MPI_Cart_shift(grid, 0, 1, &up, &down); /* MPI_PROC_NULL at the grid's edges */
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  MPI_Datatype column; /* rows doubles, one every ld */
  MPI_Type_vector(rows, 1, ld, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  double *u = calloc((size_t)(rows + 2) * ld, sizeof *u),
         *v = calloc((size_t)(rows + 2) * ld, sizeof *v);
  if (coords[0] == 0) /* the global top boundary lives in the top ranks' halo row */
    for (int j = 0; j < ld; j++)
      AT(u, 0, j) = AT(v, 0, j) = 1.0;

  MPI_Barrier(grid);
  double t0 = MPI_Wtime(), halo = 0;
  for (int it = 0; it < iters; it++) {
    double h0 = MPI_Wtime();
    MPI_Sendrecv(&AT(u, 1, 1), cols, MPI_DOUBLE, up, 0, &AT(u, rows + 1, 1), cols, MPI_DOUBLE,
                 down, 0, grid, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, rows, 1), cols, MPI_DOUBLE, down, 1, &AT(u, 0, 1), cols, MPI_DOUBLE, up,
                 1, grid, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, 1, 1), 1, column, left, 2, &AT(u, 1, cols + 1), 1, column, right, 2, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, 1, cols), 1, column, right, 3, &AT(u, 1, 0), 1, column, left, 3, grid,
                 MPI_STATUS_IGNORE);
    halo += MPI_Wtime() - h0;
    for (int i = 1; i <= rows; i++)
      for (int j = 1; j <= cols; j++)
        AT(v, i, j) = 0.25 *
                      (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
    smpi_execute_flops(1000.0 * rows * cols);
    double *t = u;
    u = v;
    v = t;
  }
  double elapsed = MPI_Wtime() - t0;

  /* gather the blocks on rank 0 and compare with the serial result */
  double *mine = malloc((size_t)rows * cols * sizeof *mine), *all = NULL;
  for (int i = 0; i < rows; i++)
    memcpy(mine + (size_t)i * cols, &AT(u, i + 1, 1), (size_t)cols * sizeof *mine);
  if (rank == 0)
    all = malloc((size_t)n * n * sizeof *all);
  MPI_Gather(mine, rows * cols, MPI_DOUBLE, all, rows * cols, MPI_DOUBLE, 0, grid);
  if (rank == 0) {
    double *ref = malloc((size_t)n * n * sizeof *ref), err = 0;
    serial(n, iters, ref);
    for (int r = 0; r < size; r++) {
      int rc[2];
      MPI_Cart_coords(grid, r, 2, rc);
      for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
          double d = all[(size_t)r * rows * cols + (size_t)i * cols + j] -
                     ref[(size_t)(rc[0] * rows + i) * n + (size_t)(rc[1] * cols + j)];
          err = fmax(err, fabs(d));
        }
    }
    printf("grid %d x %d on %d x %d ranks, %d iterations\n", n, n, dims[0], dims[1], iters);
    printf("max difference with the serial computation: %g (%s)\n", err,
           err < 1e-12 ? "correct" : "WRONG");
    printf("time per iteration: %.3f us, of which halo exchange %.3f us\n", elapsed / iters * 1e6,
           halo / iters * 1e6);
    free(ref);
    free(all);
  }
  free(mine);
  free(u);
  free(v);
  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
