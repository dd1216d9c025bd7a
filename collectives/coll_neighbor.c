/* Neighborhood collectives (MPI 3.1 section 7.6): MPI_Neighbor_allgather(v) and
 * MPI_Neighbor_alltoall(v,w), on Cartesian, graph and distributed-graph topologies.
 * coll_neighbor.h says what the shared entry point does and in which order the neighbours
 * come. Worked example, a 3 x 3 non-periodic grid, rank 4 in the middle and rank 1 above:
 *
 *     0 1 2     rank 4: neighbours (dim 0 -1, dim 0 +1, dim 1 -1, dim 1 +1) = (1, 7, 3, 5)
 *     3 4 5     rank 1: neighbours (PROC_NULL, 4, 0, 2)
 *     6 7 8
 *
 *   Neighbor_alltoall: rank 4 sends its block 0 to rank 1 (tag T, "to my -1"); rank 1
 *   receives it as its block 1 (from its +1 neighbour, tag T). Rank 1's block 0 has no
 *   sender (PROC_NULL) and stays as it was. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "collectives/coll_neighbor.h"
#include "collectives/coll_private.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/p2p.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- neighbour lists ---- */

typedef struct nbrs {
  int indeg, outdeg;
  int *in, *out;       /* ranks (MPI_PROC_NULL at Cartesian borders) */
  int *intag, *outtag; /* offsets from the base tag (0 or 1) */
} nbrs;

static void nbrs_get(smpi_comm *c, nbrs *n)
{
  const smpi_topo *t = c->topo;
  ASSERT(t);
  switch (t->kind) {
  case MPI_CART:
    n->indeg = n->outdeg = 2 * t->ndims;
    break;
  case MPI_GRAPH: {
    int first = c->rank ? t->index[c->rank - 1] : 0;
    n->indeg = n->outdeg = t->index[c->rank] - first;
    break;
  }
  case MPI_DIST_GRAPH:
    n->indeg = t->indegree;
    n->outdeg = t->outdegree;
    break;
  default:
    DIE("topology kind %d", t->kind);
  }
  n->in = xmalloc(((size_t)n->indeg + 1) * sizeof *n->in);
  n->out = xmalloc(((size_t)n->outdeg + 1) * sizeof *n->out);
  n->intag = xcalloc((size_t)n->indeg + 1, sizeof *n->intag);
  n->outtag = xcalloc((size_t)n->outdeg + 1, sizeof *n->outtag);
  if (t->kind == MPI_CART) {
    for (int d = 0; d < t->ndims; d++) {
      int lo, hi;
      smpi_cart_shift(t, c->rank, d, 1, &lo, &hi);
      n->in[2 * d] = n->out[2 * d] = lo;
      n->in[2 * d + 1] = n->out[2 * d + 1] = hi;
      /* what I send to my -1 neighbour arrives there from its +1 neighbour */
      n->outtag[2 * d] = 0;
      n->outtag[2 * d + 1] = 1;
      n->intag[2 * d] = 1;     /* my -1 neighbour sent it to its +1 */
      n->intag[2 * d + 1] = 0; /* my +1 neighbour sent it to its -1 */
    }
  } else if (t->kind == MPI_GRAPH) {
    int first = c->rank ? t->index[c->rank - 1] : 0;
    for (int i = 0; i < n->indeg; i++)
      n->in[i] = n->out[i] = t->edges[first + i];
  } else {
    for (int i = 0; i < n->indeg; i++)
      n->in[i] = t->sources[i];
    for (int i = 0; i < n->outdeg; i++)
      n->out[i] = t->destinations[i];
  }
}

static void nbrs_free(nbrs *n)
{
  free(n->in);
  free(n->out);
  free(n->intag);
  free(n->outtag);
}

/* ---- checks ---- */

static const char *const names[] = {
    [COLL_NEIGHBOR_ALLGATHER] = "MPI_Neighbor_allgather",
    [COLL_NEIGHBOR_ALLGATHERV] = "MPI_Neighbor_allgatherv",
    [COLL_NEIGHBOR_ALLTOALL] = "MPI_Neighbor_alltoall",
    [COLL_NEIGHBOR_ALLTOALLV] = "MPI_Neighbor_alltoallv",
    [COLL_NEIGHBOR_ALLTOALLW] = "MPI_Neighbor_alltoallw",
};

const char *coll_neighbor_name(coll_neighbor_kind kind) { return names[kind]; }

static int bad(char *why, size_t len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(char *why, size_t len, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
  return code;
}

/* a datatype argument: valid and committed */
static int check_type(char *why, size_t len, const char *what, MPI_Datatype h)
{
  const smpi_dt *dt = smpi_dt_get(h);
  if (!dt)
    return bad(why, len, MPI_ERR_TYPE, "%s datatype is not a valid datatype", what);
  if (!smpi_dt_is_committed(dt))
    return bad(why, len, MPI_ERR_TYPE, "%s datatype is not committed", what);
  return 0;
}

/* count elements of h at buf: non-negative count, valid type, no NULL or MPI_IN_PLACE
 * where data is touched (MPI_BOTTOM is fine with absolute-address types) */
static int check_buf(char *why, size_t len, const char *what, const void *buf, int count,
                     MPI_Datatype h)
{
  if (count < 0)
    return bad(why, len, MPI_ERR_COUNT, "%s count %d is negative", what, count);
  int rc = check_type(why, len, what, h);
  if (rc)
    return rc;
  const smpi_dt *dt = smpi_dt_get(h);
  if (buf == MPI_IN_PLACE)
    return bad(why, len, MPI_ERR_BUFFER,
               "MPI_IN_PLACE is not allowed in neighborhood collectives (%s buffer)", what);
  if (!buf && count > 0 && smpi_dt_size(dt) > 0 && smpi_dt_true_lb(dt) == 0)
    return bad(why, len, MPI_ERR_BUFFER, "%s buffer is NULL", what);
  return 0;
}

/* per-neighbour counts (and displacements, and datatypes for w) */
static int check_v(char *why, size_t len, const char *what, const void *buf, int n,
                   const int *counts, const void *displs, MPI_Datatype type,
                   const MPI_Datatype *types)
{
  if (n > 0 && (!counts || !displs))
    return bad(why, len, MPI_ERR_ARG, "%s counts or displacements array is NULL", what);
  if (n > 0 && !types && type == MPI_DATATYPE_NULL)
    return bad(why, len, MPI_ERR_ARG, "%s datatypes array is NULL", what);
  for (int i = 0; i < n; i++) {
    char w[48];
    snprintf(w, sizeof w, "%s [%d]", what, i);
    int rc = check_buf(why, len, w, buf, counts[i], types ? types[i] : type);
    if (rc)
      return rc;
  }
  return 0;
}

int coll_neighbor_check(smpi_comm *c, const coll_neighbor_args *a, char *why, size_t len)
{
  why[0] = 0;
  if (smpi_comm_is_inter(c))
    return bad(why, len, MPI_ERR_COMM, "neighborhood collectives need an intracommunicator");
  if (!c->topo)
    return bad(why, len, MPI_ERR_TOPOLOGY,
               "the communicator has no process topology (Cartesian, graph or distributed "
               "graph)");
  nbrs n;
  nbrs_get(c, &n);
  int rc = 0;
  switch (a->kind) {
  case COLL_NEIGHBOR_ALLGATHER:
  case COLL_NEIGHBOR_ALLTOALL:
    rc = check_buf(why, len, "send", a->sbuf, a->scount, a->stype);
    if (!rc)
      rc = check_buf(why, len, "receive", a->rbuf, a->rcount, a->rtype);
    break;
  case COLL_NEIGHBOR_ALLGATHERV:
    rc = check_buf(why, len, "send", a->sbuf, a->scount, a->stype);
    if (!rc && !(rc = check_type(why, len, "receive", a->rtype)))
      rc = check_v(why, len, "receive", a->rbuf, n.indeg, a->rcounts, a->rdispls, a->rtype, NULL);
    break;
  case COLL_NEIGHBOR_ALLTOALLV:
    if (!(rc = check_type(why, len, "send", a->stype)))
      rc = check_v(why, len, "send", a->sbuf, n.outdeg, a->scounts, a->sdispls, a->stype, NULL);
    if (!rc && !(rc = check_type(why, len, "receive", a->rtype)))
      rc = check_v(why, len, "receive", a->rbuf, n.indeg, a->rcounts, a->rdispls, a->rtype, NULL);
    break;
  case COLL_NEIGHBOR_ALLTOALLW:
    rc = check_v(why, len, "send", a->sbuf, n.outdeg, a->scounts, a->swdispls, MPI_DATATYPE_NULL,
                 a->stypes);
    if (!rc)
      rc = check_v(why, len, "receive", a->rbuf, n.indeg, a->rcounts, a->rwdispls,
                   MPI_DATATYPE_NULL, a->rtypes);
    break;
  default:
    DIE("neighborhood collective kind %d", (int)a->kind);
  }
  nbrs_free(&n);
  return rc;
}

/* ---- the collective ---- */

int coll_neighbor_run(smpi_comm *c, const coll_neighbor_args *a, int tag)
{
  nbrs n;
  nbrs_get(c, &n);
  smpi_req **reqs = xmalloc(((size_t)n.indeg + (size_t)n.outdeg + 1) * sizeof *reqs);
  size_t k = 0;
  const smpi_dt *sdt = a->kind == COLL_NEIGHBOR_ALLTOALLW ? NULL : smpi_dt_get(a->stype);
  const smpi_dt *rdt = a->kind == COLL_NEIGHBOR_ALLTOALLW ? NULL : smpi_dt_get(a->rtype);
  /* receives first, so that no message waits in the unexpected queue for long */
  for (int i = 0; i < n.indeg; i++) {
    char *buf;
    size_t count;
    const smpi_dt *dt = rdt;
    switch (a->kind) {
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLTOALL:
      count = (size_t)a->rcount;
      buf = (char *)a->rbuf + (MPI_Aint)i * (MPI_Aint)count * smpi_dt_extent(dt);
      break;
    case COLL_NEIGHBOR_ALLGATHERV:
    case COLL_NEIGHBOR_ALLTOALLV:
      count = (size_t)a->rcounts[i];
      buf = (char *)a->rbuf + (MPI_Aint)a->rdispls[i] * smpi_dt_extent(dt);
      break;
    default:
      count = (size_t)a->rcounts[i];
      dt = smpi_dt_get(a->rtypes[i]);
      buf = (char *)a->rbuf + a->rwdispls[i];
      break;
    }
    reqs[k++] = smpi_p2p_irecv(buf, count, dt, n.in[i], tag + n.intag[i], c, SMPI_P2P_COLL);
  }
  for (int i = 0; i < n.outdeg; i++) {
    const char *buf;
    size_t count;
    const smpi_dt *dt = sdt;
    switch (a->kind) {
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLGATHERV:
      count = (size_t)a->scount;
      buf = a->sbuf;
      break;
    case COLL_NEIGHBOR_ALLTOALL:
      count = (size_t)a->scount;
      buf = (const char *)a->sbuf + (MPI_Aint)i * (MPI_Aint)count * smpi_dt_extent(dt);
      break;
    case COLL_NEIGHBOR_ALLTOALLV:
      count = (size_t)a->scounts[i];
      buf = (const char *)a->sbuf + (MPI_Aint)a->sdispls[i] * smpi_dt_extent(dt);
      break;
    default:
      count = (size_t)a->scounts[i];
      dt = smpi_dt_get(a->stypes[i]);
      buf = (const char *)a->sbuf + a->swdispls[i];
      break;
    }
    reqs[k++] = smpi_p2p_isend(buf, count, dt, n.out[i], tag + n.outtag[i], c, SMPI_P2P_COLL);
  }
  int rc = k ? smpi_p2p_waitall(k, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
  /* the only error a receive of a correct program can meet is a truncation */
  if (rc == MPI_ERR_IN_STATUS)
    rc = MPI_ERR_TRUNCATE;
  free(reqs);
  nbrs_free(&n);
  return rc;
}

/* ---- the MPI functions ---- */

static int run_blocking(MPI_Comm comm, smpi_comm *c, const coll_neighbor_args *a,
                        const char *fname)
{
  char why[160];
  int rc = coll_neighbor_check(c, a, why, sizeof why);
  if (rc)
    return smpi_comm_errorf(comm, rc, fname, "%s", why);
  smpi_p2p_set_activity(fname);
  rc = coll_neighbor_run(c, a, COLL_NEIGHBOR_TAG);
  smpi_p2p_set_activity(NULL);
  return rc ? smpi_comm_error(comm, rc, fname) : MPI_SUCCESS;
}

int coll_mpi_neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, const char *smpi_fname_)
{
  smpi_comm *c = COLL_CHECK_COMM(comm);
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLGATHER,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcount = recvcount,
                          .rtype = recvtype};
  return run_blocking(comm, c, &a, smpi_fname_);
}

int coll_mpi_neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, const char *smpi_fname_)
{
  smpi_comm *c = COLL_CHECK_COMM(comm);
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLGATHERV,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rdispls = displs,
                          .rtype = recvtype};
  return run_blocking(comm, c, &a, smpi_fname_);
}

int coll_mpi_neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               const char *smpi_fname_)
{
  smpi_comm *c = COLL_CHECK_COMM(comm);
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALL,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcount = recvcount,
                          .rtype = recvtype};
  return run_blocking(comm, c, &a, smpi_fname_);
}

int coll_mpi_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                const char *smpi_fname_)
{
  smpi_comm *c = COLL_CHECK_COMM(comm);
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALLV,
                          .sbuf = sendbuf,
                          .scounts = sendcounts,
                          .sdispls = sdispls,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rdispls = rdispls,
                          .rtype = recvtype};
  return run_blocking(comm, c, &a, smpi_fname_);
}

int coll_mpi_neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                const char *smpi_fname_)
{
  smpi_comm *c = COLL_CHECK_COMM(comm);
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALLW,
                          .sbuf = sendbuf,
                          .scounts = sendcounts,
                          .swdispls = sdispls,
                          .stypes = sendtypes,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rwdispls = rdispls,
                          .rtypes = recvtypes};
  return run_blocking(comm, c, &a, smpi_fname_);
}
