/* topo.c: the construction of process topologies — Cartesian, graph, distributed graph.
 *
 * Cartesian ranks are row-major (the last dimension varies fastest), as the standard
 * requires: in a 2 x 3 grid, rank 4 has coordinates (1, 1).
 *
 *       dim 1 ->  0   1   2
 *     dim 0   0   0   1   2
 *             1   3   4   5
 *
 * Reordering is never done (reorder is a hint): rank i of the old communicator is rank i of
 * the new one, as MPICH does by default. A graph topology describes the whole graph and is
 * shared by the members (one copy for all); a distributed graph keeps each rank's own
 * neighbours in its communicator object.
 *
 * The MPI functions, with their checks and the queries, are in smpi/bindings/topo.c; the
 * arithmetic is in topo_math.c. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- Cartesian ---- */

int smpi_topo_cart_create(smpi_comm *c, int ndims, const int dims[], const int periods[],
                          smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return MPI_ERR_COMM;
  long size = 1;
  for (int i = 0; i < ndims; i++)
    size *= dims[i];
  ASSERTF(size <= c->group->size, "%s: a grid of %ld processes on %d", fname, size,
          c->group->size);
  smpi_comm_prefix_internal(c, (int)size, out, fname);
  if (*out)
    (*out)->topo = smpi_topo_cart_new(ndims, dims, periods);
  return MPI_SUCCESS;
}

int smpi_topo_cart_sub(smpi_comm *c, const int remain_dims[], smpi_comm **out, const char *fname)
{
  const smpi_topo *t = c->topo;
  ASSERTF(t && t->kind == MPI_CART, "%s on a communicator without a Cartesian topology", fname);
  /* the processes that agree on the dropped coordinates form one subgrid; the old rank
   * order is the row-major order of the kept ones */
  size_t n = (size_t)(t->ndims > 0 ? t->ndims : 1);
  int *coords = xmalloc(3 * n * sizeof *coords), *dims = coords + n, *periods = dims + n;
  smpi_cart_coords(t, c->rank, coords);
  long color = 0;
  int kept = 0;
  for (int i = 0; i < t->ndims; i++) {
    if (remain_dims[i]) {
      dims[kept] = t->dims[i];
      periods[kept] = t->periods[i];
      kept++;
    } else {
      color = color * t->dims[i] + coords[i];
    }
  }
  int rc = smpi_comm_split(c, (int)color, c->rank, out, fname);
  /* all dimensions dropped: a zero-dimensional grid of one process (MPI 3.1 section 7.5.7) */
  if (rc == MPI_SUCCESS)
    (*out)->topo = smpi_topo_cart_new(kept, dims, periods);
  free(coords);
  return rc;
}

/* ---- graphs ---- */

typedef struct graph_args {
  int nnodes;
  const int *index, *edges;
} graph_args;

static void *graph_build(void *arg)
{
  const graph_args *a = arg;
  smpi_topo *t = smpi_topo_new(MPI_GRAPH);
  t->nnodes = a->nnodes;
  t->nedges = a->nnodes ? a->index[a->nnodes - 1] : 0;
  t->index = smpi_copy_ints(a->index, a->nnodes);
  t->edges = smpi_copy_ints(a->edges, t->nedges);
  /* one reference per member from the start, handed over by smpi_shared_take: were each
   * member to take its own, the first one could free its communicator (and the graph) before
   * a slower member has taken the graph from the table */
  t->refs = a->nnodes;
  return t;
}

int smpi_topo_graph_create(smpi_comm *c, int nnodes, const int index[], const int edges[],
                           smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return MPI_ERR_COMM;
  smpi_comm_prefix_internal(c, nnodes, out, fname);
  smpi_comm *n = *out;
  if (n) {
    /* one copy of the graph for all members, found by the new context id */
    char key[48];
    snprintf(key, sizeof key, "topo:%u", n->ctx);
    graph_args a = {nnodes, index, edges};
    n->topo = smpi_shared_take(key, nnodes, graph_build, &a); /* carries our reference */
  }
  return MPI_SUCCESS;
}

/* ---- distributed graphs ---- */

static bool weighted_arg(const int *w) { return w != MPI_UNWEIGHTED; }

static int *copy_weights(const int *w, int n)
{
  if (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY || n == 0)
    return smpi_copy_ints(NULL, 0);
  return smpi_copy_ints(w, n);
}

int smpi_topo_dist_graph_create_adjacent(smpi_comm *c, int indegree, const int sources[],
                                         const int sourceweights[], int outdegree,
                                         const int destinations[], const int destweights[],
                                         smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return MPI_ERR_COMM;
  smpi_comm *n;
  smpi_comm_prefix_internal(c, c->group->size, &n, fname);
  smpi_topo *t = smpi_topo_new(MPI_DIST_GRAPH);
  t->indegree = indegree;
  t->outdegree = outdegree;
  t->sources = smpi_copy_ints(sources, indegree);
  t->destinations = smpi_copy_ints(destinations, outdegree);
  t->weighted = weighted_arg(sourceweights) && weighted_arg(destweights);
  t->sourceweights = t->weighted ? copy_weights(sourceweights, indegree) : NULL;
  t->destweights = t->weighted ? copy_weights(destweights, outdegree) : NULL;
  n->topo = t;
  *out = n;
  return MPI_SUCCESS;
}

/* What each member of MPI_Dist_graph_create deposits: its edge lists, in place. */
typedef struct dist_edges {
  int n;
  const int *sources, *degrees, *destinations, *weights;
} dist_edges;

/* Every rank's in- and out-neighbours, in CSR form: rank r's out-edges are
 * out[out_at[r] .. out_at[r + 1]). */
typedef struct dist_result {
  int *out_at, *out, *out_w;
  int *in_at, *in, *in_w;
  bool weighted;
} dist_result;

static void *dist_compute(smpi_xchg *x, void *arg)
{
  (void)arg;
  int n = smpi_xchg_members(x);
  dist_result *r = xcalloc(1, sizeof *r);
  r->out_at = xcalloc((size_t)n + 1, sizeof *r->out_at);
  r->in_at = xcalloc((size_t)n + 1, sizeof *r->in_at);
  /* count, then fill in deposit order (member order, then list order) */
  long total = 0;
  for (int m = 0; m < n; m++) {
    const dist_edges *d = smpi_xchg_ptr(x, m);
    if (d->weights != MPI_UNWEIGHTED)
      r->weighted = true;
    for (int i = 0, e = 0; i < d->n; i++)
      for (int j = 0; j < d->degrees[i]; j++, e++) {
        r->out_at[d->sources[i] + 1]++;
        r->in_at[d->destinations[e] + 1]++;
        total++;
      }
  }
  for (int i = 0; i < n; i++) {
    r->out_at[i + 1] += r->out_at[i];
    r->in_at[i + 1] += r->in_at[i];
  }
  size_t sz = (size_t)(total > 0 ? total : 1);
  r->out = xmalloc(sz * sizeof *r->out);
  r->in = xmalloc(sz * sizeof *r->in);
  r->out_w = xmalloc(sz * sizeof *r->out_w);
  r->in_w = xmalloc(sz * sizeof *r->in_w);
  int *ofill = xmalloc((size_t)n * sizeof *ofill);
  int *ifill = xmalloc((size_t)n * sizeof *ifill);
  memcpy(ofill, r->out_at, (size_t)n * sizeof *ofill);
  memcpy(ifill, r->in_at, (size_t)n * sizeof *ifill);
  for (int m = 0; m < n; m++) {
    const dist_edges *d = smpi_xchg_ptr(x, m);
    bool w = d->weights != MPI_UNWEIGHTED && d->weights != MPI_WEIGHTS_EMPTY;
    for (int i = 0, e = 0; i < d->n; i++)
      for (int j = 0; j < d->degrees[i]; j++, e++) {
        int s = d->sources[i], t = d->destinations[e], wt = w ? d->weights[e] : 1;
        r->out[ofill[s]] = t;
        r->out_w[ofill[s]++] = wt;
        r->in[ifill[t]] = s;
        r->in_w[ifill[t]++] = wt;
      }
  }
  free(ofill);
  free(ifill);
  return r;
}

static void dist_free(void *p)
{
  dist_result *r = p;
  free(r->out_at);
  free(r->out);
  free(r->out_w);
  free(r->in_at);
  free(r->in);
  free(r->in_w);
  free(r);
}

int smpi_topo_dist_graph_create(smpi_comm *c, int n, const int sources[], const int degrees[],
                                const int destinations[], const int weights[], smpi_comm **out,
                                const char *fname)
{
  *out = NULL;
  if (c->remote)
    return MPI_ERR_COMM;
  dist_edges mine = {n, sources, degrees, destinations, weights};
  smpi_xchg *x = smpi_comm_xchg(c, NULL, 0, &mine, SMPI_SYNC_ALL, 8, fname);
  dist_result *r = smpi_xchg_result(x, dist_compute, NULL, dist_free);
  smpi_topo *t = smpi_topo_new(MPI_DIST_GRAPH);
  int me = c->rank;
  t->weighted = r->weighted;
  t->outdegree = r->out_at[me + 1] - r->out_at[me];
  t->indegree = r->in_at[me + 1] - r->in_at[me];
  t->destinations = smpi_copy_ints(r->out + r->out_at[me], t->outdegree);
  t->sources = smpi_copy_ints(r->in + r->in_at[me], t->indegree);
  if (t->weighted) {
    t->destweights = smpi_copy_ints(r->out_w + r->out_at[me], t->outdegree);
    t->sourceweights = smpi_copy_ints(r->in_w + r->in_at[me], t->indegree);
  }
  smpi_xchg_leave(x);
  smpi_comm *nc;
  smpi_comm_prefix_internal(c, c->group->size, &nc, fname);
  nc->topo = t;
  *out = nc;
  return MPI_SUCCESS;
}
