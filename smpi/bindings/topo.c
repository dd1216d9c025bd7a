/* topo.c: the MPI functions of process topologies — Cartesian, graph, distributed graph —
 * and MPI_Dims_create. Each checks its arguments (errors on the communicator argument),
 * then either reads the communicator's topology (the queries) or calls the construction of
 * smpi/mpi/topo.c; the arithmetic is in smpi/mpi/topo_math.c. */
#include <stdlib.h>
#include <string.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"
#include "src/mem.h"

static smpi_topo *topo_of(smpi_comm *c, int kind)
{
  return c->topo && c->topo->kind == kind ? c->topo : NULL;
}

static MPI_Comm handle_of(const smpi_comm *n) { return n ? smpi_comm_handle(n) : MPI_COMM_NULL; }

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
  SMPI_ENTER("MPI_Dims_create");
  int rc = smpi_dims_create(nnodes, ndims, dims);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
  SMPI_ENTER("MPI_Topo_test");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(status, comm, MPI_ERR_ARG);
  *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- Cartesian ---- */

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
  SMPI_ENTER("MPI_Cart_create");
  (void)reorder;
  smpi_comm *c = SMPI_CHECK_COMM(comm_old);
  SMPI_CHECK(comm_cart, comm_old, MPI_ERR_ARG);
  SMPI_CHECK(!c->remote, comm_old, MPI_ERR_COMM);
  SMPI_CHECK(ndims >= 0, comm_old, MPI_ERR_DIMS);
  SMPI_CHECK(ndims == 0 || (dims && periods), comm_old, MPI_ERR_ARG);
  long size = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] <= 0)
      SMPI_RETURN(smpi_comm_errorf(comm_old, MPI_ERR_DIMS, smpi_fname_,
                                   "dimension %d has %d processes", i, dims[i]));
    size *= dims[i];
    if (size > c->group->size)
      break;
  }
  if (size > c->group->size)
    SMPI_RETURN(smpi_comm_errorf(comm_old, MPI_ERR_ARG, smpi_fname_,
                                 "the grid needs more processes than the %d of the communicator",
                                 c->group->size));
  smpi_comm *n;
  int rc = smpi_topo_cart_create(c, ndims, dims, periods, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  *comm_cart = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
  SMPI_ENTER("MPI_Cartdim_get");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(ndims, comm, MPI_ERR_ARG);
  *ndims = t->ndims;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
  SMPI_ENTER("MPI_Cart_get");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(maxdims >= 0, comm, MPI_ERR_ARG);
  int n = maxdims < t->ndims ? maxdims : t->ndims;
  SMPI_CHECK(n == 0 || (dims && periods && coords), comm, MPI_ERR_ARG);
  int *all = xmalloc((size_t)(t->ndims > 0 ? t->ndims : 1) * sizeof *all);
  smpi_cart_coords(t, c->rank, all);
  for (int i = 0; i < n; i++) {
    dims[i] = t->dims[i];
    periods[i] = t->periods[i];
    coords[i] = all[i];
  }
  free(all);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
  SMPI_ENTER("MPI_Cart_rank");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(rank && (t->ndims == 0 || coords), comm, MPI_ERR_ARG);
  int rc = smpi_cart_rank(t, coords, rank);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
  SMPI_ENTER("MPI_Cart_coords");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  if (rank < 0 || rank >= c->group->size)
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_RANK, smpi_fname_, "rank %d with %d processes",
                                 rank, c->group->size));
  SMPI_CHECK(maxdims >= t->ndims && (t->ndims == 0 || coords), comm, MPI_ERR_ARG);
  smpi_cart_coords(t, rank, coords);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
  SMPI_ENTER("MPI_Cart_shift");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(rank_source && rank_dest, comm, MPI_ERR_ARG);
  if (direction < 0 || direction >= t->ndims)
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_ARG, smpi_fname_,
                                 "direction %d in a %d-dimensional grid", direction, t->ndims));
  smpi_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Cart_sub");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_CART);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(newcomm && (t->ndims == 0 || remain_dims), comm, MPI_ERR_ARG);
  smpi_comm *sub;
  int rc = smpi_topo_cart_sub(c, remain_dims, &sub, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  *newcomm = handle_of(sub);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
  SMPI_ENTER("MPI_Cart_map");
  (void)periods;
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newrank && ndims >= 0 && (ndims == 0 || dims), comm, MPI_ERR_ARG);
  long size = 1;
  for (int i = 0; i < ndims && size <= c->group->size; i++) {
    SMPI_CHECK(dims[i] > 0, comm, MPI_ERR_DIMS);
    size *= dims[i];
  }
  SMPI_CHECK(size <= c->group->size, comm, MPI_ERR_ARG);
  /* no reordering: the first ranks of the grid keep their rank */
  *newrank = c->rank < size ? c->rank : MPI_UNDEFINED;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- graphs ---- */

static int check_graph(int nnodes, const int index[], const int edges[], int size)
{
  if (nnodes < 0 || nnodes > size || (nnodes > 0 && (!index || !edges)))
    return MPI_ERR_ARG;
  for (int i = 0; i < nnodes; i++)
    if (index[i] < (i ? index[i - 1] : 0))
      return MPI_ERR_ARG;
  int nedges = nnodes ? index[nnodes - 1] : 0;
  for (int e = 0; e < nedges; e++)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return MPI_ERR_ARG;
  return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
  SMPI_ENTER("MPI_Graph_create");
  (void)reorder;
  smpi_comm *c = SMPI_CHECK_COMM(comm_old);
  SMPI_CHECK(comm_graph, comm_old, MPI_ERR_ARG);
  SMPI_CHECK(!c->remote, comm_old, MPI_ERR_COMM);
  int rc = check_graph(nnodes, indx, edges, c->group->size);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  smpi_comm *n;
  rc = smpi_topo_graph_create(c, nnodes, indx, edges, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  *comm_graph = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
  SMPI_ENTER("MPI_Graphdims_get");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(nnodes && nedges, comm, MPI_ERR_ARG);
  *nnodes = t->nnodes;
  *nedges = t->nedges;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int indx[], int edges[])
{
  SMPI_ENTER("MPI_Graph_get");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(maxindex >= 0 && maxedges >= 0, comm, MPI_ERR_ARG);
  int ni = maxindex < t->nnodes ? maxindex : t->nnodes;
  int ne = maxedges < t->nedges ? maxedges : t->nedges;
  SMPI_CHECK((ni == 0 || indx) && (ne == 0 || edges), comm, MPI_ERR_ARG);
  if (ni)
    memcpy(indx, t->index, (size_t)ni * sizeof *indx);
  if (ne)
    memcpy(edges, t->edges, (size_t)ne * sizeof *edges);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
  SMPI_ENTER("MPI_Graph_neighbors_count");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(rank >= 0 && rank < t->nnodes, comm, MPI_ERR_RANK);
  SMPI_CHECK(nneighbors, comm, MPI_ERR_ARG);
  *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
  SMPI_ENTER("MPI_Graph_neighbors");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(rank >= 0 && rank < t->nnodes, comm, MPI_ERR_RANK);
  SMPI_CHECK(maxneighbors >= 0, comm, MPI_ERR_ARG);
  int first = rank ? t->index[rank - 1] : 0;
  int n = t->index[rank] - first;
  if (n > maxneighbors)
    n = maxneighbors;
  SMPI_CHECK(n == 0 || neighbors, comm, MPI_ERR_ARG);
  if (n)
    memcpy(neighbors, t->edges + first, (size_t)n * sizeof *neighbors);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[], const int edges[], int *newrank)
{
  SMPI_ENTER("MPI_Graph_map");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newrank, comm, MPI_ERR_ARG);
  int rc = check_graph(nnodes, indx, edges, c->group->size);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  /* no reordering: the first ranks keep their rank */
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- distributed graphs ---- */

static int check_ranks(const int *r, int n, int size)
{
  if (n < 0 || (n > 0 && !r))
    return MPI_ERR_ARG;
  for (int i = 0; i < n; i++)
    if (r[i] < 0 || r[i] >= size)
      return MPI_ERR_RANK;
  return MPI_SUCCESS;
}

static int check_weights(const int *w, int n)
{
  if (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY || n == 0)
    return MPI_SUCCESS;
  if (!w)
    return MPI_ERR_ARG;
  for (int i = 0; i < n; i++)
    if (w[i] < 0)
      return MPI_ERR_ARG;
  return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
  SMPI_ENTER("MPI_Dist_graph_create_adjacent");
  (void)info;
  (void)reorder;
  smpi_comm *c = SMPI_CHECK_COMM(comm_old);
  SMPI_CHECK(comm_dist_graph, comm_old, MPI_ERR_ARG);
  SMPI_CHECK(!c->remote, comm_old, MPI_ERR_COMM);
  int rc = check_ranks(sources, indegree, c->group->size);
  if (rc == MPI_SUCCESS)
    rc = check_ranks(destinations, outdegree, c->group->size);
  if (rc == MPI_SUCCESS)
    rc = check_weights(sourceweights, indegree);
  if (rc == MPI_SUCCESS)
    rc = check_weights(destweights, outdegree);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  smpi_comm *n;
  rc = smpi_topo_dist_graph_create_adjacent(c, indegree, sources, sourceweights, outdegree,
                                            destinations, destweights, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  *comm_dist_graph = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
  SMPI_ENTER("MPI_Dist_graph_create");
  (void)info;
  (void)reorder;
  smpi_comm *c = SMPI_CHECK_COMM(comm_old);
  SMPI_CHECK(comm_dist_graph, comm_old, MPI_ERR_ARG);
  SMPI_CHECK(!c->remote, comm_old, MPI_ERR_COMM);
  int rc = check_ranks(sources, n, c->group->size);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  SMPI_CHECK(n == 0 || degrees, comm_old, MPI_ERR_ARG);
  int nedges = 0;
  for (int i = 0; i < n; i++) {
    SMPI_CHECK(degrees[i] >= 0, comm_old, MPI_ERR_ARG);
    nedges += degrees[i];
  }
  rc = check_ranks(destinations, nedges, c->group->size);
  if (rc == MPI_SUCCESS)
    rc = check_weights(weights, nedges);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  smpi_comm *nc;
  rc = smpi_topo_dist_graph_create(c, n, sources, degrees, destinations, weights, &nc,
                                   smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm_old, rc);
  *comm_dist_graph = handle_of(nc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
  SMPI_ENTER("MPI_Dist_graph_neighbors_count");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_DIST_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(indegree && outdegree && weighted, comm, MPI_ERR_ARG);
  *indegree = t->indegree;
  *outdegree = t->outdegree;
  *weighted = t->weighted;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[])
{
  SMPI_ENTER("MPI_Dist_graph_neighbors");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_topo *t = topo_of(c, MPI_DIST_GRAPH);
  SMPI_CHECK(t, comm, MPI_ERR_TOPOLOGY);
  SMPI_CHECK(maxindegree >= 0 && maxoutdegree >= 0, comm, MPI_ERR_ARG);
  int ni = maxindegree < t->indegree ? maxindegree : t->indegree;
  int no = maxoutdegree < t->outdegree ? maxoutdegree : t->outdegree;
  SMPI_CHECK((ni == 0 || sources) && (no == 0 || destinations), comm, MPI_ERR_ARG);
  if (ni)
    memcpy(sources, t->sources, (size_t)ni * sizeof *sources);
  if (no)
    memcpy(destinations, t->destinations, (size_t)no * sizeof *destinations);
  if (t->weighted) {
    if (ni && sourceweights && sourceweights != MPI_UNWEIGHTED)
      memcpy(sourceweights, t->sourceweights, (size_t)ni * sizeof *sourceweights);
    if (no && destweights && destweights != MPI_UNWEIGHTED)
      memcpy(destweights, t->destweights, (size_t)no * sizeof *destweights);
  }
  SMPI_RETURN(MPI_SUCCESS);
}
