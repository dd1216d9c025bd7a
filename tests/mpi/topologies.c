/* topologies: Dims_create; a periodic x non-periodic Cartesian grid (Cart_get, Cart_rank,
 * Cart_coords, Cart_shift with MPI_PROC_NULL ends, neighbours confirmed by messages),
 * Cart_sub (rows, and the zero-dimensional grid), Cart_map; a graph ring (Graph_create,
 * Graphdims_get, Graph_get, Graph_neighbors(_count), Graph_map); distributed graphs
 * (Dist_graph_create_adjacent with weights, Dist_graph_create from scattered edges);
 * Topo_test; error classes. Any number of ranks >= 1; no collective. */
#include <stdlib.h>

#define MPITEST_NAME "topologies"
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int status, n, r;

  /* --- Dims_create (balanced, non-increasing, fixed entries kept) --- */
  int d3[3] = {0, 0, 0};
  MPI_Dims_create(12, 3, d3);
  CHECK(d3[0] == 3 && d3[1] == 2 && d3[2] == 2, "12 in 3: %d %d %d", d3[0], d3[1], d3[2]);
  int d2[2] = {0, 0};
  MPI_Dims_create(72, 2, d2);
  CHECK(d2[0] == 9 && d2[1] == 8, "72 in 2: %d %d", d2[0], d2[1]);
  int df[3] = {0, 5, 0};
  MPI_Dims_create(60, 3, df);
  CHECK(df[0] == 4 && df[1] == 5 && df[2] == 3, "60 in (0, 5, 0): %d %d %d", df[0], df[1], df[2]);

  MPI_Topo_test(MPI_COMM_WORLD, &status);
  CHECK(status == MPI_UNDEFINED, "world has no topology: %d", status);

  /* --- Cartesian grid: dim 0 periodic, dim 1 not --- */
  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Topo_test(cart, &status);
  CHECK(status == MPI_CART, "Topo_test: %d", status);
  MPI_Cartdim_get(cart, &n);
  CHECK(n == 2, "Cartdim_get: %d", n);
  int gd[2], gp[2], gc[2];
  MPI_Cart_get(cart, 2, gd, gp, gc);
  MPI_Comm_rank(cart, &r);
  CHECK(r == rank, "no reordering: rank %d", r);
  CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0,
        "Cart_get dims/periods");
  CHECK(gc[0] == rank / dims[1] && gc[1] == rank % dims[1], "row-major coords (%d, %d)", gc[0],
        gc[1]);
  int c2[2];
  MPI_Cart_coords(cart, rank, 2, c2);
  MPI_Cart_rank(cart, c2, &r);
  CHECK(r == rank && c2[0] == gc[0] && c2[1] == gc[1], "coords/rank round trip");
  /* periodic wrap in Cart_rank */
  int wrap[2] = {gc[0] + dims[0], gc[1]};
  MPI_Cart_rank(cart, wrap, &r);
  CHECK(r == rank, "periodic coordinate wraps: %d", r);
  /* shifts */
  int src, dst;
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  CHECK(src == ((gc[0] + dims[0] - 1) % dims[0]) * dims[1] + gc[1] &&
            dst == ((gc[0] + 1) % dims[0]) * dims[1] + gc[1],
        "periodic shift: %d %d", src, dst);
  {
    /* messages along dim 0 arrive from the announced source */
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, dst, 1, &got, 1, MPI_INT, src, 1, cart, MPI_STATUS_IGNORE);
    CHECK(got == src, "received %d from source %d", got, src);
  }
  MPI_Cart_shift(cart, 1, 1, &src, &dst);
  CHECK(src == (gc[1] == 0 ? MPI_PROC_NULL : rank - 1), "non-periodic source: %d", src);
  CHECK(dst == (gc[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1), "non-periodic dest: %d", dst);
  {
    int got = -7;
    MPI_Sendrecv(&rank, 1, MPI_INT, dst, 2, &got, 1, MPI_INT, src, 2, cart, MPI_STATUS_IGNORE);
    CHECK(got == (src == MPI_PROC_NULL ? -7 : src), "received %d from source %d", got, src);
  }
  /* dup keeps the topology */
  MPI_Comm cart_dup;
  MPI_Comm_dup(cart, &cart_dup);
  MPI_Topo_test(cart_dup, &status);
  CHECK(status == MPI_CART, "dup keeps the Cartesian topology: %d", status);
  MPI_Comm_free(&cart_dup);

  /* --- Cart_sub: rows (keep dim 1) --- */
  MPI_Comm row;
  int keep_cols[2] = {0, 1};
  MPI_Cart_sub(cart, keep_cols, &row);
  MPI_Comm_size(row, &n);
  MPI_Comm_rank(row, &r);
  CHECK(n == dims[1] && r == gc[1], "row: size %d rank %d", n, r);
  MPI_Cartdim_get(row, &n);
  CHECK(n == 1, "row has 1 dimension: %d", n);
  int rd, rp, rc1;
  MPI_Cart_get(row, 1, &rd, &rp, &rc1);
  CHECK(rd == dims[1] && rp == 0 && rc1 == gc[1], "row grid %d %d %d", rd, rp, rc1);
  MPI_Comm point;
  int keep_none[2] = {0, 0};
  MPI_Cart_sub(cart, keep_none, &point);
  /* every process gets a grid of itself (smpi); MPICH 4.0 gives one to rank 0 only */
  CHECK(point != MPI_COMM_NULL || rank != 0, "all dimensions dropped: no communicator");
  if (point != MPI_COMM_NULL) {
    MPI_Comm_size(point, &n);
    CHECK(n == 1, "all dimensions dropped: one process, got %d", n);
    MPI_Cartdim_get(point, &n);
    CHECK(n == 0, "zero-dimensional: %d", n);
    MPI_Comm_free(&point);
  }
  MPI_Comm_free(&row);

  /* --- a smaller grid leaves the others out --- */
  if (size > 1) {
    int small_dims[1] = {size - 1}, small_per[1] = {0};
    MPI_Comm small;
    MPI_Cart_create(MPI_COMM_WORLD, 1, small_dims, small_per, 1, &small);
    CHECK((rank == size - 1) == (small == MPI_COMM_NULL), "grid of size-1 processes");
    if (small != MPI_COMM_NULL)
      MPI_Comm_free(&small);
    MPI_Cart_map(MPI_COMM_WORLD, 1, small_dims, small_per, &r);
    CHECK(r == (rank == size - 1 ? MPI_UNDEFINED : rank), "Cart_map: %d", r);
  }

  /* --- graph: a ring (each node linked to both neighbours) --- */
  int *index = malloc((size_t)size * sizeof *index),
      *edges = malloc(2 * (size_t)size * sizeof *edges);
  for (int i = 0; i < size; i++) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + size - 1) % size;
    edges[2 * i + 1] = (i + 1) % size;
  }
  MPI_Comm ring;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
  MPI_Topo_test(ring, &status);
  CHECK(status == MPI_GRAPH, "graph topology: %d", status);
  int nn, ne;
  MPI_Graphdims_get(ring, &nn, &ne);
  CHECK(nn == size && ne == 2 * size, "Graphdims_get: %d %d", nn, ne);
  int cnt;
  MPI_Graph_neighbors_count(ring, rank, &cnt);
  CHECK(cnt == 2, "neighbours: %d", cnt);
  int nb[2];
  MPI_Graph_neighbors(ring, rank, 2, nb);
  CHECK(nb[0] == (rank + size - 1) % size && nb[1] == (rank + 1) % size, "neighbours %d %d",
        nb[0], nb[1]);
  int *gi = malloc((size_t)size * sizeof *gi), *ge = malloc(2 * (size_t)size * sizeof *ge);
  MPI_Graph_get(ring, size, 2 * size, gi, ge);
  int same = 1;
  for (int i = 0; i < size; i++)
    same = same && gi[i] == index[i] && ge[2 * i] == edges[2 * i] &&
           ge[2 * i + 1] == edges[2 * i + 1];
  CHECK(same, "Graph_get returns the graph");
  MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &r);
  CHECK(r == rank, "Graph_map: %d", r);
  {
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, nb[1], 3, &got, 1, MPI_INT, nb[0], 3, ring,
                 MPI_STATUS_IGNORE);
    CHECK(got == nb[0], "ring message from %d", got);
  }
  MPI_Comm_free(&ring);

  /* --- distributed graph, adjacent form, weighted: in from rank-1, out to rank+1 --- */
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int w_in = 10 + left, w_out = 10 + rank;
  MPI_Comm dg;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &w_in, 1, &right, &w_out,
                                 MPI_INFO_NULL, 0, &dg);
  MPI_Topo_test(dg, &status);
  CHECK(status == MPI_DIST_GRAPH, "dist graph topology: %d", status);
  int indeg, outdeg, weighted;
  MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
  CHECK(indeg == 1 && outdeg == 1 && weighted, "counts %d %d %d", indeg, outdeg, weighted);
  int s1, sw1, d1, dw1;
  MPI_Dist_graph_neighbors(dg, 1, &s1, &sw1, 1, &d1, &dw1);
  CHECK(s1 == left && sw1 == w_in && d1 == right && dw1 == w_out, "neighbours %d(%d) %d(%d)", s1,
        sw1, d1, dw1);
  MPI_Comm_free(&dg);

  /* --- distributed graph from scattered edges: rank 0 declares every edge i -> i+1 --- */
  MPI_Comm dg2;
  if (rank == 0) {
    int *srcs = malloc((size_t)size * sizeof *srcs), *degs = malloc((size_t)size * sizeof *degs);
    int *dsts = malloc((size_t)size * sizeof *dsts);
    for (int i = 0; i < size; i++) {
      srcs[i] = i;
      degs[i] = 1;
      dsts[i] = (i + 1) % size;
    }
    MPI_Dist_graph_create(MPI_COMM_WORLD, size, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL,
                          0, &dg2);
    free(srcs);
    free(degs);
    free(dsts);
  } else {
    MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                          &dg2);
  }
  MPI_Dist_graph_neighbors_count(dg2, &indeg, &outdeg, &weighted);
  CHECK(indeg == 1 && outdeg == 1 && !weighted, "scattered: counts %d %d %d", indeg, outdeg,
        weighted);
  MPI_Dist_graph_neighbors(dg2, 1, &s1, MPI_UNWEIGHTED, 1, &d1, MPI_UNWEIGHTED);
  CHECK(s1 == left && d1 == right, "scattered: neighbours %d %d", s1, d1);
  MPI_Comm_free(&dg2);

  /* --- errors, returned --- */
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc, cls;
  rc = MPI_Cart_shift(cart, 2, 1, &src, &dst);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "shift in direction 2: class %d", cls);
  int out_of_grid[2] = {0, dims[1]};
  rc = MPI_Cart_rank(cart, out_of_grid, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "non-periodic coordinate out of range: class %d", cls);
  rc = MPI_Cart_coords(cart, size, 2, c2);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_RANK, "coords of rank %d: class %d", size, cls);
  rc = MPI_Graphdims_get(cart, &nn, &ne);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "graph query on a grid: class %d", cls);
  rc = MPI_Cartdim_get(MPI_COMM_WORLD, &n);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "grid query without topology: class %d", cls);
  int nd[2] = {0, 3};
  rc = MPI_Dims_create(7, 2, nd);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_DIMS, "7 processes with a fixed 3: class %d", cls);
  int too_big[1] = {size + 1}, np0[1] = {0};
  MPI_Comm none;
  rc = MPI_Cart_create(MPI_COMM_WORLD, 1, too_big, np0, 0, &none);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "grid larger than the communicator: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  MPI_Comm_free(&cart);
  free(index);
  free(edges);
  free(gi);
  free(ge);

  return mpitest_finalize();
}
