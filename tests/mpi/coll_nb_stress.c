/* coll_nb_stress: many different nonblocking collectives outstanding at once, as test drivers
 * start them: every rank starts ROUNDS batches of NB collectives (broadcast, reductions with
 * predefined and user-defined ops, scans, gathers, scatters, all-to-alls, reduce-scatters, a
 * third of them MPI_IN_PLACE) on MPI_COMM_WORLD and on a duplicate of it, frees the user
 * ops, the derived datatypes and the duplicate right after starting them (MPI 3.1 sections
 * 5.9.5 and 4.1.9: the pending operations keep them alive), then completes the batch in an
 * order that differs between ranks (MPI_Waitall, MPI_Waitany, MPI_Testsome polling), and
 * checks every result against its closed form.
 *
 * Element i of rank r's contribution is 1 + r + i (small: the products of the user op stay
 * exact). Any number of ranks (the suite uses 6). Plain MPI: also runs under MPICH. */
#define MPITEST_NAME "coll_nb_stress"
#define MPITEST_MAX_REPORTS 20
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define ROUNDS 6
#define NB 16 /* collectives per batch */
#define CNT 5 /* elements per block */

static int val(int r, int i) { return 1 + r + i; }

/* user op: elementwise sum, declared commutative */
static void usum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  for (int i = 0; i < *len; i++)
    ((int *)inout)[i] += ((int *)in)[i];
}

/* user op, associative but not commutative: a op b = a (the left operand), so a scan over
 * ranks 0..k gives x_0 only when the order of the operands is kept */
static void ufirst(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  memcpy(inout, in, (size_t)*len * sizeof(int));
}

typedef struct batch {
  MPI_Request req[NB];
  int kind[NB];
  int inplace[NB];
  int root[NB];
  int *buf[NB][2];
  int *cnts[NB], *displs[NB];
  MPI_Datatype *types[NB];
} batch;

static int *ialloc(int n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(int)); }

enum {
  K_BCAST,
  K_REDUCE,
  K_ALLREDUCE,
  K_SCAN,
  K_EXSCAN,
  K_GATHER,
  K_GATHERV,
  K_SCATTER,
  K_SCATTERV,
  K_ALLGATHER,
  K_ALLGATHERV,
  K_ALLTOALL,
  K_ALLTOALLV,
  K_ALLTOALLW,
  K_REDSCAT,
  K_REDSCAT_BLOCK,
  K_BARRIER,
  NKINDS
};

/* starts collective j of the batch on comm (size n, rank me) */
static void start(batch *b, int j, int kind, int inplace, MPI_Comm comm, int n, int me, int rnd)
{
  MPI_Op op;
  MPI_Datatype pair;
  int root = (rnd + j) % n;
  b->kind[j] = kind;
  b->inplace[j] = inplace;
  b->root[j] = root;
  int *s = ialloc(n * CNT), *r = ialloc(n * CNT);
  b->buf[j][0] = s;
  b->buf[j][1] = r;
  for (int i = 0; i < n * CNT; i++) {
    s[i] = val(me, i);
    r[i] = -1;
  }
  MPI_Request *q = &b->req[j];
  switch (kind) {
  case K_BCAST:
    MPI_Type_contiguous(CNT, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (me != root)
      memset(s, 0, CNT * sizeof(int));
    MPI_Ibcast(s, 1, pair, root, comm, q);
    MPI_Type_free(&pair);
    break;
  case K_REDUCE:
    MPI_Op_create(usum, 1, &op);
    if (inplace && me == root) {
      memcpy(r, s, CNT * sizeof(int));
      MPI_Ireduce(MPI_IN_PLACE, r, CNT, MPI_INT, op, root, comm, q);
    } else {
      MPI_Ireduce(s, r, CNT, MPI_INT, op, root, comm, q);
    }
    MPI_Op_free(&op);
    break;
  case K_ALLREDUCE:
    MPI_Op_create(usum, 1, &op);
    if (inplace) {
      memcpy(r, s, CNT * sizeof(int));
      MPI_Iallreduce(MPI_IN_PLACE, r, CNT, MPI_INT, op, comm, q);
    } else {
      MPI_Iallreduce(s, r, CNT, MPI_INT, (rnd & 1) ? MPI_SUM : op, comm, q);
    }
    MPI_Op_free(&op);
    break;
  case K_SCAN:
    MPI_Op_create(ufirst, 0, &op);
    if (inplace) {
      memcpy(r, s, CNT * sizeof(int));
      MPI_Iscan(MPI_IN_PLACE, r, CNT, MPI_INT, op, comm, q);
    } else {
      MPI_Iscan(s, r, CNT, MPI_INT, op, comm, q);
    }
    MPI_Op_free(&op);
    break;
  case K_EXSCAN:
    MPI_Op_create(usum, 0, &op);
    if (inplace) {
      memcpy(r, s, CNT * sizeof(int));
      MPI_Iexscan(MPI_IN_PLACE, r, CNT, MPI_INT, op, comm, q);
    } else {
      MPI_Iexscan(s, r, CNT, MPI_INT, op, comm, q);
    }
    MPI_Op_free(&op);
    break;
  case K_GATHER:
    if (inplace && me == root) {
      memcpy(r + me * CNT, s, CNT * sizeof(int));
      MPI_Igather(MPI_IN_PLACE, CNT, MPI_INT, r, CNT, MPI_INT, root, comm, q);
    } else {
      MPI_Igather(s, CNT, MPI_INT, r, CNT, MPI_INT, root, comm, q);
    }
    break;
  case K_GATHERV:
  case K_SCATTERV:
  case K_ALLGATHERV:
  case K_ALLTOALLV:
  case K_REDSCAT:
    b->cnts[j] = ialloc(n);
    b->displs[j] = ialloc(n);
    for (int k = 0; k < n; k++) {
      b->cnts[j][k] = CNT - k % 2; /* blocks of CNT and CNT - 1 */
      b->displs[j][k] = k * CNT;
    }
    if (kind == K_GATHERV) {
      int mine = b->cnts[j][me];
      if (inplace && me == root) {
        memcpy(r + me * CNT, s, (size_t)mine * sizeof(int));
        MPI_Igatherv(MPI_IN_PLACE, mine, MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT, root,
                     comm, q);
      } else {
        MPI_Igatherv(s, mine, MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT, root, comm, q);
      }
    } else if (kind == K_SCATTERV) {
      if (inplace && me == root)
        MPI_Iscatterv(s, b->cnts[j], b->displs[j], MPI_INT, MPI_IN_PLACE, 0, MPI_INT, root, comm,
                      q);
      else
        MPI_Iscatterv(s, b->cnts[j], b->displs[j], MPI_INT, r, b->cnts[j][me], MPI_INT, root,
                      comm, q);
    } else if (kind == K_ALLGATHERV) {
      if (inplace) {
        memcpy(r + me * CNT, s, (size_t)b->cnts[j][me] * sizeof(int));
        MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT, comm, q);
      } else {
        MPI_Iallgatherv(s, b->cnts[j][me], MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT, comm,
                        q);
      }
    } else if (kind == K_ALLTOALLV) {
      /* the same counts both ways (block k has cnts[k]... made symmetric: CNT - 1 each) */
      for (int k = 0; k < n; k++)
        b->cnts[j][k] = CNT - 1;
      if (inplace) {
        memcpy(r, s, (size_t)(n * CNT) * sizeof(int));
        MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT,
                       comm, q);
      } else {
        MPI_Ialltoallv(s, b->cnts[j], b->displs[j], MPI_INT, r, b->cnts[j], b->displs[j], MPI_INT,
                       comm, q);
      }
    } else { /* K_REDSCAT: block k of the sum goes to rank k, packed */
      MPI_Op_create(usum, 1, &op);
      if (inplace) {
        int off = 0;
        for (int k = 0; k < n; k++)
          for (int i = 0; i < b->cnts[j][k]; i++)
            r[off++] = val(me, k * CNT + i);
        MPI_Ireduce_scatter(MPI_IN_PLACE, r, b->cnts[j], MPI_INT, op, comm, q);
      } else {
        int off = 0;
        for (int k = 0; k < n; k++)
          for (int i = 0; i < b->cnts[j][k]; i++)
            s[off++] = val(me, k * CNT + i);
        MPI_Ireduce_scatter(s, r, b->cnts[j], MPI_INT, op, comm, q);
      }
      MPI_Op_free(&op);
    }
    break;
  case K_SCATTER:
    if (inplace && me == root)
      MPI_Iscatter(s, CNT, MPI_INT, MPI_IN_PLACE, CNT, MPI_INT, root, comm, q);
    else
      MPI_Iscatter(s, CNT, MPI_INT, r, CNT, MPI_INT, root, comm, q);
    break;
  case K_ALLGATHER:
    if (inplace) {
      memcpy(r + me * CNT, s, CNT * sizeof(int));
      MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, r, CNT, MPI_INT, comm, q);
    } else {
      MPI_Iallgather(s, CNT, MPI_INT, r, CNT, MPI_INT, comm, q);
    }
    break;
  case K_ALLTOALL:
    if (inplace) {
      memcpy(r, s, (size_t)(n * CNT) * sizeof(int));
      MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_INT, r, CNT, MPI_INT, comm, q);
    } else {
      MPI_Ialltoall(s, CNT, MPI_INT, r, CNT, MPI_INT, comm, q);
    }
    break;
  case K_ALLTOALLW: {
    /* datatypes per peer: a contiguous type of CNT ints, freed right after the start */
    MPI_Datatype blk;
    MPI_Type_contiguous(CNT, MPI_INT, &blk);
    MPI_Type_commit(&blk);
    b->cnts[j] = ialloc(n);
    b->displs[j] = ialloc(n);
    b->types[j] = malloc((size_t)n * sizeof(MPI_Datatype));
    for (int k = 0; k < n; k++) {
      b->cnts[j][k] = 1;
      b->displs[j][k] = k * CNT * (int)sizeof(int);
      b->types[j][k] = blk;
    }
    if (inplace) {
      memcpy(r, s, (size_t)(n * CNT) * sizeof(int));
      MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, r, b->cnts[j], b->displs[j], b->types[j],
                     comm, q);
    } else {
      MPI_Ialltoallw(s, b->cnts[j], b->displs[j], b->types[j], r, b->cnts[j], b->displs[j],
                     b->types[j], comm, q);
    }
    MPI_Type_free(&blk);
    /* the arrays are the caller's to reuse once the call returned */
    for (int k = 0; k < n; k++)
      b->cnts[j][k] = -5, b->displs[j][k] = -5, b->types[j][k] = MPI_DATATYPE_NULL;
    break;
  }
  case K_REDSCAT_BLOCK:
    MPI_Op_create(usum, 1, &op);
    if (inplace) {
      memcpy(r, s, (size_t)(n * CNT) * sizeof(int));
      MPI_Ireduce_scatter_block(MPI_IN_PLACE, r, CNT, MPI_INT, op, comm, q);
    } else {
      MPI_Ireduce_scatter_block(s, r, CNT, MPI_INT, op, comm, q);
    }
    MPI_Op_free(&op);
    break;
  default:
    MPI_Ibarrier(comm, q);
    break;
  }
  /* the v arrays may be reused too once the call returned */
  if (b->cnts[j] && kind != K_ALLTOALLW) {
    int *c = ialloc(n), *d = ialloc(n);
    memcpy(c, b->cnts[j], (size_t)n * sizeof(int));
    memcpy(d, b->displs[j], (size_t)n * sizeof(int));
    for (int k = 0; k < n; k++)
      b->cnts[j][k] = b->displs[j][k] = -3;
    free(b->cnts[j]);
    free(b->displs[j]);
    b->cnts[j] = c;
    b->displs[j] = d;
  }
}

static int sum_over(int n, int i)
{
  int t = 0;
  for (int r = 0; r < n; r++)
    t += val(r, i);
  return t;
}

static void check(batch *b, int j, int n, int me, int round)
{
  int kind = b->kind[j], root = b->root[j], ip = b->inplace[j];
  int *s = b->buf[j][0], *r = b->buf[j][1];
  char where[64];
  snprintf(where, sizeof where, "round %d, op %d, kind %d%s", round, j, kind,
           ip ? ", in place" : "");
  switch (kind) {
  case K_BCAST:
    for (int i = 0; i < CNT; i++)
      CHECK_IN(where, s[i] == val(root, i), "[%d] %d", i, s[i]);
    break;
  case K_REDUCE:
    if (me == root)
      for (int i = 0; i < CNT; i++)
        CHECK_IN(where, r[i] == sum_over(n, i), "[%d] %d", i, r[i]);
    break;
  case K_ALLREDUCE:
  case K_REDSCAT_BLOCK:
    for (int i = 0; i < CNT; i++) {
      int want = kind == K_ALLREDUCE ? sum_over(n, i) : sum_over(n, me * CNT + i);
      CHECK_IN(where, r[i] == want, "[%d] %d, expected %d", i, r[i], want);
    }
    break;
  case K_SCAN:
    for (int i = 0; i < CNT; i++)
      CHECK_IN(where, r[i] == val(0, i), "[%d] %d, expected %d", i, r[i], val(0, i));
    break;
  case K_EXSCAN:
    if (me > 0)
      for (int i = 0; i < CNT; i++)
        CHECK_IN(where, r[i] == sum_over(me, i), "[%d] %d", i, r[i]);
    break;
  case K_GATHER:
  case K_ALLGATHER:
    if (kind == K_ALLGATHER || me == root)
      for (int k = 0; k < n; k++)
        for (int i = 0; i < CNT; i++)
          CHECK_IN(where, r[k * CNT + i] == val(k, i), "[%d][%d] %d", k, i, r[k * CNT + i]);
    break;
  case K_GATHERV:
  case K_ALLGATHERV:
    if (kind == K_ALLGATHERV || me == root)
      for (int k = 0; k < n; k++)
        for (int i = 0; i < CNT - k % 2; i++)
          CHECK_IN(where, r[k * CNT + i] == val(k, i), "[%d][%d] %d", k, i, r[k * CNT + i]);
    break;
  case K_SCATTER:
    for (int i = 0; i < CNT; i++) {
      int got = ip && me == root ? s[me * CNT + i] : r[i];
      CHECK_IN(where, got == val(root, me * CNT + i), "[%d] %d", i, got);
    }
    break;
  case K_SCATTERV:
    for (int i = 0; i < CNT - me % 2; i++) {
      int got = ip && me == root ? s[me * CNT + i] : r[i];
      CHECK_IN(where, got == val(root, me * CNT + i), "[%d] %d", i, got);
    }
    break;
  case K_ALLTOALL:
  case K_ALLTOALLW:
    for (int k = 0; k < n; k++)
      for (int i = 0; i < CNT; i++)
        CHECK_IN(where, r[k * CNT + i] == val(k, me * CNT + i), "[%d][%d] %d", k, i,
                 r[k * CNT + i]);
    break;
  case K_ALLTOALLV:
    for (int k = 0; k < n; k++)
      for (int i = 0; i < CNT - 1; i++)
        CHECK_IN(where, r[k * CNT + i] == val(k, me * CNT + i), "[%d][%d] %d", k, i,
                 r[k * CNT + i]);
    break;
  case K_REDSCAT:
    for (int i = 0; i < CNT - me % 2; i++)
      CHECK_IN(where, r[i] == sum_over(n, me * CNT + i), "[%d] %d", i, r[i]);
    break;
  default:
    break;
  }
  free(s);
  free(r);
  free(b->cnts[j]);
  free(b->displs[j]);
  free(b->types[j]);
  b->cnts[j] = b->displs[j] = NULL;
  b->types[j] = NULL;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int me = wrank(), n = wsize();
  batch *b = calloc(1, sizeof *b);
  for (int round = 0; round < ROUNDS; round++) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int j = 0; j < NB; j++) {
      int kind = (round * 5 + j * 3) % NKINDS;
      int inplace = (round + j) % 3 == 0;
      start(b, j, kind, inplace, j % 2 ? dup : MPI_COMM_WORLD, n, me, round);
    }
    MPI_Comm_free(&dup); /* the pending collectives on it keep it alive */
    switch ((round + me) % 3) {
    case 0:
      MPI_Waitall(NB, b->req, MPI_STATUSES_IGNORE);
      break;
    case 1:
      for (int k = 0; k < NB; k++) {
        int idx;
        MPI_Waitany(NB, b->req, &idx, MPI_STATUS_IGNORE);
        CHECK(idx != MPI_UNDEFINED, "Waitany found nothing at %d", k);
      }
      break;
    default: {
      int left = NB;
      while (left > 0) {
        int outc, idx[NB];
        MPI_Testsome(NB, b->req, &outc, idx, MPI_STATUSES_IGNORE);
        CHECK(outc != MPI_UNDEFINED, "Testsome found nothing with %d left", left);
        if (outc == MPI_UNDEFINED)
          break;
        left -= outc;
      }
      break;
    }
    }
    for (int j = 0; j < NB; j++) {
      CHECK(b->req[j] == MPI_REQUEST_NULL, "request %d not freed", j);
      check(b, j, n, me, round);
    }
  }
  free(b);

  /* a neighborhood collective on a ring whose datatypes are freed right after the start */
  MPI_Comm ring;
  int dims = n, periods = 1;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring);
  MPI_Datatype blk, blks[2];
  MPI_Type_contiguous(CNT, MPI_INT, &blk);
  MPI_Type_commit(&blk);
  int sb[2 * CNT], rb[2 * CNT], cnts[2] = {1, 1};
  MPI_Aint disp[2] = {0, CNT * sizeof(int)};
  for (int i = 0; i < 2 * CNT; i++)
    sb[i] = val(me, i), rb[i] = -1;
  blks[0] = blks[1] = blk;
  MPI_Request q;
  MPI_Ineighbor_alltoallw(sb, cnts, disp, blks, rb, cnts, disp, blks, ring, &q);
  MPI_Type_free(&blk);
  blks[0] = blks[1] = MPI_DATATYPE_NULL;
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  /* block 0 comes from the left neighbour's block 1, block 1 from the right's block 0 (with
   * fewer than 3 ranks both neighbours are one rank and the blocks may cross) */
  int left = (me + n - 1) % n, right = (me + 1) % n;
  for (int i = 0; n >= 3 && i < CNT; i++) {
    CHECK(rb[i] == val(left, CNT + i), "neighbor [0][%d] %d", i, rb[i]);
    CHECK(rb[CNT + i] == val(right, i), "neighbor [1][%d] %d", i, rb[CNT + i]);
  }
  MPI_Comm_free(&ring);
  return mpitest_finalize();
}
