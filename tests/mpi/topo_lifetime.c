/* topo_lifetime: objects shared by the members of a new communicator outlive an early free.
 * Rank 0 creates each communicator and frees it at once, while the other ranks come to the
 * creation later (a delay of simulated time: a polling loop on MPI_Wtime) and only then
 * query it: a graph on fewer nodes than processes (Graph_create; one copy of the graph for
 * all members, which rank 0's free used to release before the others had taken it: a
 * use-after-free, or MPI_ERR_TOPOLOGY from Graph_neighbors_count), a Cartesian grid, a
 * distributed graph, and the groups a split and a Comm_create share with their parent.
 * Needs 4 ranks. */
#define MPITEST_NAME "topo_lifetime"
#include "mpitest.h"

/* a few microseconds of simulated time (and of real time elsewhere) */
static void later(int rank)
{
  double t0 = MPI_Wtime();
  while (MPI_Wtime() - t0 < 1e-4 * rank)
    ;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  mpitest_need(size == 4, "4 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* a graph of 3 nodes on 4 processes: 0 - 1 - 2 */
  int index[3] = {1, 3, 4}, edges[4] = {1, 0, 2, 1};
  later(rank);
  MPI_Comm g;
  CHECK(MPI_Graph_create(MPI_COMM_WORLD, 3, index, edges, 0, &g) == MPI_SUCCESS, "Graph_create");
  if (rank == 3) {
    CHECK(g == MPI_COMM_NULL, "rank 3 is outside the graph");
  } else {
    if (rank > 0)
      later(rank);
    int n = -1, nb[2] = {-1, -1};
    CHECK(MPI_Graph_neighbors_count(g, rank, &n) == MPI_SUCCESS, "Graph_neighbors_count");
    CHECK(n == (rank == 1 ? 2 : 1), "node %d has %d neighbours", rank, n);
    CHECK(MPI_Graph_neighbors(g, rank, 2, nb) == MPI_SUCCESS, "Graph_neighbors");
    CHECK(nb[0] == (rank == 1 ? 0 : 1), "first neighbour of %d: %d", rank, nb[0]);
    MPI_Comm_free(&g);
  }

  /* a 3-process grid on 4 processes */
  int dims[1] = {3}, periods[1] = {1};
  later(rank);
  MPI_Comm c;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c);
  if (c != MPI_COMM_NULL) {
    if (rank > 0)
      later(rank);
    int src, dst;
    CHECK(MPI_Cart_shift(c, 0, 1, &src, &dst) == MPI_SUCCESS, "Cart_shift");
    CHECK(src == (rank + 2) % 3 && dst == (rank + 1) % 3, "shift of %d: %d %d", rank, src, dst);
    MPI_Comm_free(&c);
  }

  /* a distributed graph: a ring */
  int to = (rank + 1) % size, from = (rank + size - 1) % size;
  later(rank);
  MPI_Comm d;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1, &to, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &d);
  if (rank > 0)
    later(rank);
  int in = -1, out = -1, w;
  MPI_Dist_graph_neighbors_count(d, &in, &out, &w);
  CHECK(in == 1 && out == 1, "ring degrees %d %d", in, out);
  MPI_Comm_free(&d);

  /* a split that keeps everybody in order (shares the parent's group), then a Comm_create
   * of the first three (one group for its members) */
  MPI_Comm s;
  later(rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &s);
  if (rank > 0)
    later(rank);
  int ss = -1;
  MPI_Comm_size(s, &ss);
  CHECK(ss == size, "split size %d", ss);
  MPI_Group wg, fg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int first[3] = {0, 1, 2};
  MPI_Group_incl(wg, 3, first, &fg);
  MPI_Comm f;
  later(rank);
  MPI_Comm_create(s, fg, &f);
  MPI_Comm_free(&s);
  MPI_Group_free(&fg);
  MPI_Group_free(&wg);
  if (f != MPI_COMM_NULL) {
    if (rank > 0)
      later(rank);
    int fs = -1;
    MPI_Comm_size(f, &fs);
    CHECK(fs == 3, "create size %d", fs);
    MPI_Comm_free(&f);
  }
  return mpitest_finalize();
}
