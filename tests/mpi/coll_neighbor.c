/* coll_neighbor: MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) on a periodic
 * and a non-periodic 2-D Cartesian grid, a mixed one, a graph and a distributed graph with
 * asymmetric neighbours (some ranks without sources or destinations, one self-loop); the
 * received data is checked against a reference computed from the topology's definition,
 * and the blocks of MPI_PROC_NULL neighbours must be left untouched (MPI 3.1 section 7.6).
 * Also: MPI_ERR_TOPOLOGY on a communicator without a topology.
 *
 * Values: the k-th block rank s sends holds s * 10000 + k * 100 + j (j: element index);
 * for allgather(v) every block is block 0. Runs on 12 ranks. Plain MPI (passes under
 * MPICH too). */
#define MPITEST_NAME "coll_neighbor"
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define N 12
#define MAXD 16
#define SENTINEL (-7)

/* a topology as every rank knows it: out-neighbours of each rank, in-neighbours of each
 * rank and, for in-neighbour i of r, the slot of r among that sender's out-neighbours */
typedef struct topo {
  const char *name;
  int skip_w; /* a known bug of the MPI library at hand (see main) */
  int outdeg[N], out[N][MAXD];
  int indeg[N], in[N][MAXD], slot[N][MAXD];
} topo;

static int val(int s, int k, int j) { return s * 10000 + k * 100 + j; }

/* elements rank s sends in its slot k for the v/w variants */
static int vcount(int s, int k) { return (s + 2 * k) % 4 + 1; }

static void cart_topo(topo *t, const int dims[2], const int periods[2])
{
  for (int r = 0; r < N; r++) {
    int c[2] = {r / dims[1], r % dims[1]};
    t->outdeg[r] = t->indeg[r] = 4;
    for (int d = 0; d < 2; d++)
      for (int s = 0; s < 2; s++) {
        int cc[2] = {c[0], c[1]};
        cc[d] += s ? 1 : -1;
        int nb;
        if (cc[d] < 0 || cc[d] >= dims[d]) {
          if (!periods[d]) {
            nb = MPI_PROC_NULL;
            goto set;
          }
          cc[d] = (cc[d] + dims[d]) % dims[d];
        }
        nb = cc[0] * dims[1] + cc[1];
      set:
        t->out[r][2 * d + s] = t->in[r][2 * d + s] = nb;
        /* my -1 neighbour sent my block as its +1 block and vice versa */
        t->slot[r][2 * d + s] = 2 * d + !s;
      }
  }
}

static void fill_in_from_out(topo *t)
{
  for (int r = 0; r < N; r++) {
    t->indeg[r] = 0;
    for (int s = 0; s < N; s++)
      for (int k = 0; k < t->outdeg[s]; k++)
        if (t->out[s][k] == r) {
          t->in[r][t->indeg[r]] = s;
          t->slot[r][t->indeg[r]++] = k;
        }
  }
}

/* symmetric graph: ring, plus the opposite node, plus 0 - 3 (node 0 has degree 4) */
static void graph_topo(topo *t, int index[N], int edges[N * MAXD])
{
  int ne = 0;
  for (int r = 0; r < N; r++) {
    int d = 0;
    t->out[r][d++] = (r + N / 2) % N;
    t->out[r][d++] = (r + 1) % N;
    t->out[r][d++] = (r + N - 1) % N;
    if (r == 0)
      t->out[r][d++] = 3;
    if (r == 3)
      t->out[r][d++] = 0;
    t->outdeg[r] = d;
    for (int i = 0; i < d; i++)
      edges[ne++] = t->out[r][i];
    index[r] = ne;
  }
  /* the graph neighbours are both the sources and the destinations, in the same order */
  for (int r = 0; r < N; r++) {
    t->indeg[r] = t->outdeg[r];
    for (int i = 0; i < t->indeg[r]; i++) {
      int s = t->out[r][i];
      t->in[r][i] = s;
      for (int k = 0; k < t->outdeg[s]; k++)
        if (t->out[s][k] == r)
          t->slot[r][i] = k;
    }
  }
}

/* asymmetric: r sends to r + 1 (but rank 11 to nobody), even ranks also to r + 5 (while
 * that is a rank), rank 7 to itself too; so rank 0 receives from nobody, ranks 5, 7, 9, 11
 * from two ranks, rank 7 from itself */
static void dist_topo(topo *t)
{
  for (int r = 0; r < N; r++) {
    int d = 0;
    if (r != N - 1)
      t->out[r][d++] = r + 1;
    if (r % 2 == 0 && r + 5 < N)
      t->out[r][d++] = r + 5;
    if (r == 7)
      t->out[r][d++] = 7;
    t->outdeg[r] = d;
  }
  fill_in_from_out(t);
}

static void run_all(MPI_Comm comm, const topo *t)
{
  int me;
  MPI_Comm_rank(comm, &me);
  int indeg = t->indeg[me], outdeg = t->outdeg[me];
  const int *in = t->in[me], *slot = t->slot[me];
  enum { B = 3 };
  int *sbuf = malloc(sizeof(int) * (MAXD * 8 + 1));
  int *rbuf = malloc(sizeof(int) * (MAXD * 16 + 1));
  int scounts[MAXD], sdispls[MAXD], rcounts[MAXD], rdispls[MAXD];
  MPI_Aint swd[MAXD], rwd[MAXD];
  MPI_Datatype stypes[MAXD], rtypes[MAXD];

  /* allgather: B elements of block 0 from every in-neighbour */
  for (int j = 0; j < B; j++)
    sbuf[j] = val(me, 0, j);
  for (int i = 0; i < indeg * B; i++)
    rbuf[i] = SENTINEL;
  int rc = MPI_Neighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, comm);
  CHECK(rc == MPI_SUCCESS, "%s: allgather rc %d", t->name, rc);
  for (int i = 0; i < indeg; i++)
    for (int j = 0; j < B; j++) {
      int want = in[i] == MPI_PROC_NULL ? SENTINEL : val(in[i], 0, j);
      CHECK(rbuf[i * B + j] == want, "%s: allgather block %d[%d] = %d, want %d", t->name, i, j,
            rbuf[i * B + j], want);
    }

  /* allgatherv: the sender sends vcount(s, 0) elements; blocks stored backwards, with gaps */
  int sc = vcount(me, 0), pos = 0;
  for (int j = 0; j < sc; j++)
    sbuf[j] = val(me, 0, j);
  for (int i = indeg - 1; i >= 0; i--) {
    rcounts[i] = in[i] == MPI_PROC_NULL ? 2 : vcount(in[i], 0);
    rdispls[i] = pos + 1;
    pos += rcounts[i] + 1;
  }
  for (int i = 0; i < pos + 1; i++)
    rbuf[i] = SENTINEL;
  rc = MPI_Neighbor_allgatherv(sbuf, sc, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, comm);
  CHECK(rc == MPI_SUCCESS, "%s: allgatherv rc %d", t->name, rc);
  for (int i = 0; i < indeg; i++)
    for (int j = 0; j < rcounts[i]; j++) {
      int want = in[i] == MPI_PROC_NULL ? SENTINEL : val(in[i], 0, j);
      CHECK(rbuf[rdispls[i] + j] == want, "%s: allgatherv block %d[%d] = %d, want %d", t->name, i,
            j, rbuf[rdispls[i] + j], want);
    }
  for (int i = 0; i < indeg; i++)
    CHECK(rbuf[rdispls[i] - 1] == SENTINEL, "%s: allgatherv wrote into a gap", t->name);

  /* alltoall: block k to out-neighbour k */
  for (int k = 0; k < outdeg; k++)
    for (int j = 0; j < B; j++)
      sbuf[k * B + j] = val(me, k, j);
  for (int i = 0; i < indeg * B; i++)
    rbuf[i] = SENTINEL;
  rc = MPI_Neighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, comm);
  CHECK(rc == MPI_SUCCESS, "%s: alltoall rc %d", t->name, rc);
  for (int i = 0; i < indeg; i++)
    for (int j = 0; j < B; j++) {
      int want = in[i] == MPI_PROC_NULL ? SENTINEL : val(in[i], slot[i], j);
      CHECK(rbuf[i * B + j] == want, "%s: alltoall block %d[%d] = %d, want %d", t->name, i, j,
            rbuf[i * B + j], want);
    }

  /* alltoallv: vcount(s, k) elements in slot k; both buffers backwards with gaps */
  pos = 0;
  for (int k = outdeg - 1; k >= 0; k--) {
    scounts[k] = vcount(me, k);
    sdispls[k] = pos;
    for (int j = 0; j < scounts[k]; j++)
      sbuf[pos + j] = val(me, k, j);
    pos += scounts[k] + 1;
  }
  pos = 0;
  for (int i = indeg - 1; i >= 0; i--) {
    rcounts[i] = in[i] == MPI_PROC_NULL ? 1 : vcount(in[i], slot[i]);
    rdispls[i] = pos + 1;
    pos += rcounts[i] + 1;
  }
  for (int i = 0; i < pos + 1; i++)
    rbuf[i] = SENTINEL;
  rc = MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
                              comm);
  CHECK(rc == MPI_SUCCESS, "%s: alltoallv rc %d", t->name, rc);
  for (int i = 0; i < indeg; i++)
    for (int j = 0; j < rcounts[i]; j++) {
      int want = in[i] == MPI_PROC_NULL ? SENTINEL : val(in[i], slot[i], j);
      CHECK(rbuf[rdispls[i] + j] == want, "%s: alltoallv block %d[%d] = %d, want %d", t->name, i,
            j, rbuf[rdispls[i] + j], want);
    }

  if (t->skip_w) {
    free(sbuf);
    free(rbuf);
    return;
  }
  /* alltoallw: sent as vcount MPI_INTs, received as one contiguous type of that many
   * (same type signature), byte displacements, blocks backwards */
  pos = 0;
  for (int k = outdeg - 1; k >= 0; k--) {
    scounts[k] = vcount(me, k);
    swd[k] = (MPI_Aint)(pos * sizeof(int));
    stypes[k] = MPI_INT;
    for (int j = 0; j < scounts[k]; j++)
      sbuf[pos + j] = val(me, k, j);
    pos += scounts[k];
  }
  pos = 0;
  for (int i = indeg - 1; i >= 0; i--) {
    int n = in[i] == MPI_PROC_NULL ? 2 : vcount(in[i], slot[i]);
    MPI_Type_contiguous(n, MPI_INT, &rtypes[i]);
    MPI_Type_commit(&rtypes[i]);
    rcounts[i] = 1;
    rdispls[i] = n; /* remembered for the check */
    rwd[i] = (MPI_Aint)((pos + 2) * sizeof(int));
    pos += n + 2;
  }
  for (int i = 0; i < pos + 2; i++)
    rbuf[i] = SENTINEL;
  rc = MPI_Neighbor_alltoallw(sbuf, scounts, swd, stypes, rbuf, rcounts, rwd, rtypes, comm);
  CHECK(rc == MPI_SUCCESS, "%s: alltoallw rc %d", t->name, rc);
  for (int i = 0; i < indeg; i++) {
    const int *blk = rbuf + rwd[i] / (MPI_Aint)sizeof(int);
    for (int j = 0; j < rdispls[i]; j++) {
      int want = in[i] == MPI_PROC_NULL ? SENTINEL : val(in[i], slot[i], j);
      CHECK(blk[j] == want, "%s: alltoallw block %d[%d] = %d, want %d", t->name, i, j, blk[j],
            want);
    }
    CHECK(blk[-1] == SENTINEL && blk[-2] == SENTINEL, "%s: alltoallw wrote into a gap", t->name);
    MPI_Type_free(&rtypes[i]);
  }
  free(sbuf);
  free(rbuf);
}

/* the library's view of the neighbours matches the reference's */
static void check_dist_neighbors(MPI_Comm comm, const topo *t)
{
  int me, indeg, outdeg, weighted;
  MPI_Comm_rank(comm, &me);
  MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
  CHECK(indeg == t->indeg[me] && outdeg == t->outdeg[me], "%s: degrees %d %d", t->name, indeg,
        outdeg);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (wsize() != N) {
    if (wrank() == 0)
      fprintf(stderr, "coll_neighbor: run with %d ranks\n", N);
    MPI_Finalize();
    return 1;
  }
  int me = wrank();

  /* Cartesian: 4 x 3 periodic, 3 x 4 non-periodic, 6 x 2 periodic in dimension 0 only,
   * then periodic dimensions of size 2 and 1, where both neighbours in that dimension are
   * the same rank (MPI 4.1 section 8.6 says which block goes where: a sender's block s lands
   * in the receiver's block s ^ 1). Every rank builds the reference itself. */
  const int cdims[5][2] = {{4, 3}, {3, 4}, {6, 2}, {6, 2}, {12, 1}};
  const int cper[5][2] = {{1, 1}, {0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const char *cname[5] = {"cart 4x3 periodic", "cart 3x4 non-periodic", "cart 6x2 mixed",
                          "cart 6x2 periodic", "cart 12x1 periodic in dimension 1"};
  int ncart = 5;
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
  /* MPICH 4.0 pairs the blocks of a doubled neighbour wrongly in Neighbor_alltoallv/w
   * (pmodels/mpich pull request 5777, later) */
  ncart = 3;
#endif
  for (int v = 0; v < ncart; v++) {
    topo x;
    memset(&x, 0, sizeof x);
    cart_topo(&x, cdims[v], cper[v]);
    x.name = cname[v];
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, cdims[v], cper[v], 0, &cart);
    run_all(cart, &x);
    MPI_Comm_free(&cart);
  }

  /* graph */
  {
    topo g;
    memset(&g, 0, sizeof g);
    int index[N], edges[N * MAXD];
    graph_topo(&g, index, edges);
    g.name = "graph";
    MPI_Comm gc;
    MPI_Graph_create(MPI_COMM_WORLD, N, index, edges, 0, &gc);
    run_all(gc, &g);
    MPI_Comm_free(&gc);
  }

  /* distributed graph, adjacent form and general form */
  {
    topo d;
    memset(&d, 0, sizeof d);
    dist_topo(&d);
    d.name = "dist graph (adjacent)";
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
    /* MPICH 4.0 moves no data in Neighbor_alltoallw on a distributed graph whose ranks have
     * different in- and out-degrees (pmodels/mpich issue 6233, fixed later) */
    d.skip_w = 1;
#endif
    MPI_Comm dc;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, d.indeg[me], d.in[me], MPI_UNWEIGHTED,
                                   d.outdeg[me], d.out[me], MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &dc);
    check_dist_neighbors(dc, &d);
    run_all(dc, &d);
    MPI_Comm_free(&dc);
  }

  /* errors: no topology */
  {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 1, y[4];
    int rc = MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK(class_of(rc) == MPI_ERR_TOPOLOGY, "no topology: error class %d", class_of(rc));
    rc = MPI_Neighbor_alltoall(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK(class_of(rc) == MPI_ERR_TOPOLOGY, "no topology: error class %d", class_of(rc));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }

  return mpitest_finalize();
}
