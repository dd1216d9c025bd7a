/* coll_nonblocking: data correctness of every nonblocking collective (MPI_Ibarrier ...
 * MPI_Iexscan), on communicators of several sizes (powers of two and not), for counts 0,
 * 1, 7 and 1000, with and without MPI_IN_PLACE, a non-contiguous datatype freed before
 * completion and a non-commutative user op, each completed by MPI_Wait, MPI_Test polling,
 * MPI_Waitany, MPI_Testsome polling or MPI_Request_get_status polling; then the same
 * collectives all outstanding at once on one communicator, interleaved with blocking
 * collectives and point-to-point traffic on that communicator, completed by MPI_Waitall
 * over the mixed array, MPI_Testany polling, MPI_Waitsome then MPI_Testall polling, or one
 * MPI_Wait each in a rank-dependent order; the five MPI_Ineighbor_* on a Cartesian grid and
 * a distributed graph; finally the argument errors (same classes as the blocking calls),
 * MPI_Cancel refused, MPI_Request_free accepted, a communicator freed before the wait.
 *
 * Every rank contributes val(r, i) = 1000 r + i as element i; references are closed forms.
 * Any number of ranks (the test suite uses 9). No mutable globals but mpitest.h's failure
 * counter (ranks share them when the program runs without privatization). Prints
 * "coll_nonblocking: OK". Plain MPI: also runs under MPICH (mpicc coll_nonblocking.c &&
 * mpirun -np 9 ./a.out). */
#define MPITEST_NAME "coll_nonblocking"
#define MPITEST_MAX_REPORTS 20
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOPS 20
#define FILL (-7)

typedef struct t {
  MPI_Comm comm;
  int n, me, c, inplace;
  char where[48]; /* case_name's */
  /* buffers of each op, allocated by start_*, checked and freed by check_* */
  int *b[NOPS][2];
  int *counts[NOPS][4];
  MPI_Datatype vec;
} t;

static int val(int r, int i) { return 1000 * r + i; }
/* alltoall element i of the block rank s sends to rank d */
static int a2a(int s, int d, int i) { return 100000 * s + 1000 * d + i; }
/* v variants: block sizes that differ between ranks (0 or 1 when c is 0) */
static int vcnt(const t *x, int r) { return x->c + r % 2; }
/* alltoallv/w: what s sends to d (symmetric, as MPI_IN_PLACE requires) */
static int f2(const t *x, int s, int d) { return x->c + (s + d) % 3; }

/* CHECK naming the case (communicator size, count, in place) */
#define CHECK_CASE(x, cond, ...) CHECK_IN(case_name(x), cond, __VA_ARGS__)
static const char *case_name(t *x)
{
  snprintf(x->where, sizeof x->where, "n %d, count %d%s", x->n, x->c,
           x->inplace ? ", in place" : "");
  return x->where;
}

static int *ialloc(size_t n)
{
  int *p = malloc((n ? n : 1) * sizeof *p);
  if (!p) {
    fprintf(stderr, "coll_nonblocking: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (size_t i = 0; i < n; i++)
    p[i] = FILL;
  return p;
}

/* prefix offsets of counts with a one-element gap before each block; returns the total */
static int layout(const int *counts, int *displs, int n)
{
  int off = 0;
  for (int i = 0; i < n; i++) {
    off += 1;
    displs[i] = off;
    off += counts[i];
  }
  return off + 1;
}

/* Non-commutative op on MPI_2INT: each element is a range [lo, hi] of ranks; in (lower
 * ranks) followed by inout must be contiguous, else the result is marked broken. */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  int *a = in, *b = inout;
  for (int k = 0; k < *len; k++) {
    int lo = a[2 * k], hi = b[2 * k + 1];
    if (a[2 * k + 1] + 1 != b[2 * k] || a[2 * k] < 0 || b[2 * k] < 0)
      lo = hi = -1000;
    b[2 * k] = lo;
    b[2 * k + 1] = hi;
  }
}

enum {
  OP_BARRIER,
  OP_BCAST,
  OP_BCAST_VEC,
  OP_GATHER,
  OP_GATHERV,
  OP_SCATTER,
  OP_SCATTERV,
  OP_ALLGATHER,
  OP_ALLGATHERV,
  OP_ALLTOALL,
  OP_ALLTOALLV,
  OP_ALLTOALLW,
  OP_REDUCE,
  OP_REDUCE_NC,
  OP_ALLREDUCE,
  OP_REDUCE_SCATTER,
  OP_REDUCE_SCATTER_BLOCK,
  OP_SCAN,
  OP_EXSCAN,
  OP_COUNT
};

/* Starts op k on x->comm; *r is its request. */
static void start(t *x, int k, MPI_Op concat_op, MPI_Request *r)
{
  int n = x->n, me = x->me, c = x->c, ip = x->inplace;
  MPI_Comm comm = x->comm;
  int **b = x->b[k];
  int **cn = x->counts[k];
  switch (k) {
  case OP_BARRIER:
    MPI_Ibarrier(comm, r);
    break;
  case OP_BCAST: {
    int root = n - 1;
    b[0] = ialloc((size_t)c);
    if (me == root)
      for (int i = 0; i < c; i++)
        b[0][i] = val(root, i);
    MPI_Ibcast(b[0], c, MPI_INT, root, comm, r);
    break;
  }
  case OP_BCAST_VEC: { /* every other int; the type is freed before completion */
    int root = n / 2;
    b[0] = ialloc((size_t)(2 * c + 1));
    if (me == root)
      for (int i = 0; i < c; i++)
        b[0][2 * i] = val(root, i);
    MPI_Datatype v;
    MPI_Type_vector(c > 0 ? c : 1, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Ibcast(b[0], c > 0 ? 1 : 0, v, root, comm, r);
    MPI_Type_free(&v);
    break;
  }
  case OP_GATHER: {
    int root = n / 2;
    b[0] = ialloc((size_t)c);
    b[1] = ialloc((size_t)n * (size_t)c);
    for (int i = 0; i < c; i++)
      (me == root && ip ? b[1] + (size_t)root * c : b[0])[i] = val(me, i);
    MPI_Igather(me == root && ip ? MPI_IN_PLACE : b[0], c, MPI_INT, b[1], c, MPI_INT, root, comm,
                r);
    break;
  }
  case OP_GATHERV: {
    int root = n - 1;
    cn[0] = ialloc((size_t)n);
    cn[1] = ialloc((size_t)n);
    for (int j = 0; j < n; j++)
      cn[0][j] = vcnt(x, j);
    int tot = layout(cn[0], cn[1], n);
    b[0] = ialloc((size_t)vcnt(x, me));
    b[1] = ialloc((size_t)tot);
    for (int i = 0; i < vcnt(x, me); i++)
      (me == root && ip ? b[1] + cn[1][root] : b[0])[i] = val(me, i);
    MPI_Igatherv(me == root && ip ? MPI_IN_PLACE : b[0], vcnt(x, me), MPI_INT, b[1], cn[0], cn[1],
                 MPI_INT, root, comm, r);
    break;
  }
  case OP_SCATTER: {
    int root = 0;
    b[0] = ialloc((size_t)n * (size_t)c);
    b[1] = ialloc((size_t)c);
    if (me == root)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < c; i++)
          b[0][(size_t)j * c + i] = val(j, i);
    MPI_Iscatter(b[0], c, MPI_INT, me == root && ip ? MPI_IN_PLACE : b[1], c, MPI_INT, root, comm,
                 r);
    break;
  }
  case OP_SCATTERV: {
    int root = n / 2;
    cn[0] = ialloc((size_t)n);
    cn[1] = ialloc((size_t)n);
    for (int j = 0; j < n; j++)
      cn[0][j] = vcnt(x, j);
    int tot = layout(cn[0], cn[1], n);
    b[0] = ialloc((size_t)tot);
    b[1] = ialloc((size_t)vcnt(x, me));
    if (me == root)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < cn[0][j]; i++)
          b[0][cn[1][j] + i] = val(j, i);
    MPI_Iscatterv(b[0], cn[0], cn[1], MPI_INT, me == root && ip ? MPI_IN_PLACE : b[1],
                  vcnt(x, me), MPI_INT, root, comm, r);
    break;
  }
  case OP_ALLGATHER:
    b[0] = ialloc((size_t)c);
    b[1] = ialloc((size_t)n * (size_t)c);
    for (int i = 0; i < c; i++)
      (ip ? b[1] + (size_t)me * c : b[0])[i] = val(me, i);
    MPI_Iallgather(ip ? MPI_IN_PLACE : b[0], c, MPI_INT, b[1], c, MPI_INT, comm, r);
    break;
  case OP_ALLGATHERV: {
    cn[0] = ialloc((size_t)n);
    cn[1] = ialloc((size_t)n);
    for (int j = 0; j < n; j++)
      cn[0][j] = vcnt(x, j);
    int tot = layout(cn[0], cn[1], n);
    b[0] = ialloc((size_t)vcnt(x, me));
    b[1] = ialloc((size_t)tot);
    for (int i = 0; i < vcnt(x, me); i++)
      (ip ? b[1] + cn[1][me] : b[0])[i] = val(me, i);
    MPI_Iallgatherv(ip ? MPI_IN_PLACE : b[0], vcnt(x, me), MPI_INT, b[1], cn[0], cn[1], MPI_INT,
                    comm, r);
    break;
  }
  case OP_ALLTOALL:
    b[0] = ialloc((size_t)n * (size_t)c);
    b[1] = ialloc((size_t)n * (size_t)c);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < c; i++)
        (ip ? b[1] : b[0])[(size_t)j * c + i] = a2a(me, j, i);
    MPI_Ialltoall(ip ? MPI_IN_PLACE : b[0], c, MPI_INT, b[1], c, MPI_INT, comm, r);
    break;
  case OP_ALLTOALLV:
  case OP_ALLTOALLW: {
    for (int q = 0; q < 4; q++)
      cn[q] = ialloc((size_t)n);
    for (int j = 0; j < n; j++) {
      cn[0][j] = f2(x, me, j);
      cn[2][j] = f2(x, j, me);
    }
    int stot = layout(cn[0], cn[1], n), rtot = layout(cn[2], cn[3], n);
    b[0] = ialloc((size_t)stot);
    b[1] = ialloc((size_t)rtot);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < f2(x, me, j); i++) {
        if (ip)
          b[1][cn[3][j] + i] = a2a(me, j, i);
        else
          b[0][cn[1][j] + i] = a2a(me, j, i);
      }
    if (k == OP_ALLTOALLV) {
      MPI_Ialltoallv(ip ? MPI_IN_PLACE : b[0], cn[0], cn[1], MPI_INT, b[1], cn[2], cn[3], MPI_INT,
                     comm, r);
    } else {
      /* byte displacements, one datatype per peer (array freed before completion) */
      int *sd = ialloc((size_t)n), *rd = ialloc((size_t)n);
      MPI_Datatype *ty = malloc((size_t)n * sizeof *ty);
      for (int j = 0; j < n; j++) {
        sd[j] = cn[1][j] * (int)sizeof(int);
        rd[j] = cn[3][j] * (int)sizeof(int);
        ty[j] = MPI_INT;
      }
      MPI_Ialltoallw(ip ? MPI_IN_PLACE : b[0], cn[0], sd, ty, b[1], cn[2], rd, ty, comm, r);
      for (int j = 0; j < n; j++) /* the arrays belong to the caller again */
        sd[j] = rd[j] = -1;
      free(sd);
      free(rd);
      free(ty);
    }
    break;
  }
  case OP_REDUCE: {
    int root = n - 1;
    b[0] = ialloc((size_t)c);
    b[1] = ialloc((size_t)c);
    for (int i = 0; i < c; i++)
      (me == root && ip ? b[1] : b[0])[i] = val(me, i);
    MPI_Ireduce(me == root && ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_INT, MPI_SUM, root, comm, r);
    break;
  }
  case OP_REDUCE_NC: {
    int root = 0;
    b[0] = ialloc((size_t)(2 * c));
    b[1] = ialloc((size_t)(2 * c));
    for (int i = 0; i < 2 * c; i++)
      (me == root && ip ? b[1] : b[0])[i] = me;
    MPI_Ireduce(me == root && ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_2INT, concat_op, root, comm,
                r);
    break;
  }
  case OP_ALLREDUCE:
    b[0] = ialloc((size_t)c);
    b[1] = ialloc((size_t)c);
    for (int i = 0; i < c; i++)
      (ip ? b[1] : b[0])[i] = val(me, i);
    MPI_Iallreduce(ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_INT, MPI_SUM, comm, r);
    break;
  case OP_REDUCE_SCATTER:
  case OP_REDUCE_SCATTER_BLOCK: {
    cn[0] = ialloc((size_t)n);
    int tot = 0;
    for (int j = 0; j < n; j++)
      tot += cn[0][j] = k == OP_REDUCE_SCATTER ? vcnt(x, j) : c;
    b[0] = ialloc((size_t)tot);
    b[1] = ialloc((size_t)tot);
    for (int i = 0; i < tot; i++)
      (ip ? b[1] : b[0])[i] = val(me, i);
    if (k == OP_REDUCE_SCATTER)
      MPI_Ireduce_scatter(ip ? MPI_IN_PLACE : b[0], b[1], cn[0], MPI_INT, MPI_SUM, comm, r);
    else
      MPI_Ireduce_scatter_block(ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_INT, MPI_SUM, comm, r);
    break;
  }
  case OP_SCAN:
  case OP_EXSCAN:
    b[0] = ialloc((size_t)c);
    b[1] = ialloc((size_t)c);
    for (int i = 0; i < c; i++)
      (ip ? b[1] : b[0])[i] = val(me, i);
    if (k == OP_SCAN)
      MPI_Iscan(ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_INT, MPI_SUM, comm, r);
    else
      MPI_Iexscan(ip ? MPI_IN_PLACE : b[0], b[1], c, MPI_INT, MPI_SUM, comm, r);
    break;
  }
}

/* sum over ranks lo..hi-1 of val(r, i) */
static int vsum(int lo, int hi, int i)
{
  int s = 0;
  for (int r = lo; r < hi; r++)
    s += val(r, i);
  return s;
}

static void check(t *x, int k)
{
  int n = x->n, me = x->me, c = x->c, ip = x->inplace;
  int **b = x->b[k];
  int **cn = x->counts[k];
  switch (k) {
  case OP_BARRIER:
    break;
  case OP_BCAST:
    for (int i = 0; i < c; i++)
      CHECK_CASE(x, b[0][i] == val(n - 1, i), "ibcast [%d] = %d", i, b[0][i]);
    break;
  case OP_BCAST_VEC:
    for (int i = 0; i < 2 * c + 1; i++)
      CHECK_CASE(x, b[0][i] == (i % 2 || i == 2 * c ? FILL : val(n / 2, i / 2)),
                 "ibcast vector [%d] = %d", i, b[0][i]);
    break;
  case OP_GATHER:
    if (me == n / 2)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < c; i++)
          CHECK_CASE(x, b[1][(size_t)j * c + i] == val(j, i), "igather block %d [%d] = %d", j, i,
                     b[1][(size_t)j * c + i]);
    break;
  case OP_GATHERV:
    if (me == n - 1) {
      int tot = cn[1][n - 1] + cn[0][n - 1] + 1;
      int j = 0;
      for (int p = 0; p < tot; p++) {
        while (j + 1 < n && p >= cn[1][j + 1])
          j++;
        int want = p >= cn[1][j] && p < cn[1][j] + cn[0][j] ? val(j, p - cn[1][j]) : FILL;
        CHECK_CASE(x, b[1][p] == want, "igatherv [%d] = %d, expected %d", p, b[1][p], want);
      }
    }
    break;
  case OP_SCATTER:
    for (int i = 0; i < c; i++) {
      int got = me == 0 && ip ? b[0][i] : b[1][i];
      CHECK_CASE(x, got == val(me, i), "iscatter [%d] = %d", i, got);
    }
    break;
  case OP_SCATTERV:
    for (int i = 0; i < vcnt(x, me); i++) {
      int got = me == n / 2 && ip ? b[0][cn[1][me] + i] : b[1][i];
      CHECK_CASE(x, got == val(me, i), "iscatterv [%d] = %d", i, got);
    }
    break;
  case OP_ALLGATHER:
    for (int j = 0; j < n; j++)
      for (int i = 0; i < c; i++)
        CHECK_CASE(x, b[1][(size_t)j * c + i] == val(j, i), "iallgather block %d [%d] = %d", j, i,
                   b[1][(size_t)j * c + i]);
    break;
  case OP_ALLGATHERV: {
#ifdef MPICH
    if (n == 1) /* MPICH 4.0.2 ignores displs[0] on one rank */
      break;
#endif
    int tot = cn[1][n - 1] + cn[0][n - 1] + 1;
    int j = 0;
    for (int p = 0; p < tot; p++) {
      while (j + 1 < n && p >= cn[1][j + 1])
        j++;
      int want = p >= cn[1][j] && p < cn[1][j] + cn[0][j] ? val(j, p - cn[1][j]) : FILL;
      CHECK_CASE(x, b[1][p] == want, "iallgatherv [%d] = %d, expected %d", p, b[1][p], want);
    }
    break;
  }
  case OP_ALLTOALL:
    for (int j = 0; j < n; j++)
      for (int i = 0; i < c; i++)
        CHECK_CASE(x, b[1][(size_t)j * c + i] == a2a(j, me, i), "ialltoall block %d [%d] = %d", j,
                   i, b[1][(size_t)j * c + i]);
    break;
  case OP_ALLTOALLV:
  case OP_ALLTOALLW:
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < f2(x, j, me); i++)
        CHECK_CASE(x, b[1][cn[3][j] + i] == a2a(j, me, i), "%s block %d [%d] = %d",
                   k == OP_ALLTOALLV ? "ialltoallv" : "ialltoallw", j, i, b[1][cn[3][j] + i]);
      CHECK_CASE(x, b[1][cn[3][j] - 1] == FILL, "gap before block %d = %d", j,
                 b[1][cn[3][j] - 1]);
    }
    break;
  case OP_REDUCE:
    if (me == n - 1)
      for (int i = 0; i < c; i++)
        CHECK_CASE(x, b[1][i] == vsum(0, n, i), "ireduce [%d] = %d", i, b[1][i]);
    break;
  case OP_REDUCE_NC:
    if (me == 0)
      for (int i = 0; i < c; i++)
        CHECK_CASE(x, b[1][2 * i] == 0 && b[1][2 * i + 1] == n - 1,
                   "ireduce non-commutative [%d] = [%d, %d]", i, b[1][2 * i], b[1][2 * i + 1]);
    break;
  case OP_ALLREDUCE:
    for (int i = 0; i < c; i++)
      CHECK_CASE(x, b[1][i] == vsum(0, n, i), "iallreduce [%d] = %d", i, b[1][i]);
    break;
  case OP_REDUCE_SCATTER:
  case OP_REDUCE_SCATTER_BLOCK: {
    int off = 0;
    for (int j = 0; j < me; j++)
      off += cn[0][j];
    for (int i = 0; i < cn[0][me]; i++)
      CHECK_CASE(x, b[1][i] == vsum(0, n, off + i), "%s [%d] = %d",
                 k == OP_REDUCE_SCATTER ? "ireduce_scatter" : "ireduce_scatter_block", i,
                 b[1][i]);
    break;
  }
  case OP_SCAN:
    for (int i = 0; i < c; i++)
      CHECK_CASE(x, b[1][i] == vsum(0, me + 1, i), "iscan [%d] = %d", i, b[1][i]);
    break;
  case OP_EXSCAN:
    if (me > 0)
      for (int i = 0; i < c; i++)
        CHECK_CASE(x, b[1][i] == vsum(0, me, i), "iexscan [%d] = %d", i, b[1][i]);
    break;
  }
  for (int q = 0; q < 2; q++) {
    free(b[q]);
    b[q] = NULL;
  }
  for (int q = 0; q < 4; q++) {
    free(cn[q]);
    cn[q] = NULL;
  }
}

/* One at a time: start, then complete it with one of MPI_Wait, MPI_Test polling,
 * MPI_Waitany, MPI_Testsome polling, MPI_Request_get_status polling then MPI_Wait (in
 * turn, so that every collective meets each of them over the counts). */
static void one_by_one(t *x, MPI_Op concat_op)
{
  for (int k = 0; k < OP_COUNT; k++) {
    MPI_Request r = MPI_REQUEST_NULL;
    start(x, k, concat_op, &r);
    CHECK_CASE(x, r != MPI_REQUEST_NULL, "op %d gave no request", k);
    int flag = 0, idx = -1, out = 0;
    switch ((k + x->c + x->inplace) % 5) {
    case 0:
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      break;
    case 1:
      while (!flag)
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
      break;
    case 2:
      MPI_Waitany(1, &r, &idx, MPI_STATUS_IGNORE);
      CHECK_CASE(x, idx == 0, "waitany index %d", idx);
      break;
    case 3:
      while (out == 0)
        MPI_Testsome(1, &r, &out, &idx, MPI_STATUSES_IGNORE);
      CHECK_CASE(x, out == 1 && idx == 0, "testsome: %d, index %d", out, idx);
      break;
    default:
      while (!flag)
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
      CHECK_CASE(x, r != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      break;
    }
    CHECK_CASE(x, r == MPI_REQUEST_NULL, "op %d: request not freed", k);
    check(x, k);
  }
}

/* Everything outstanding at once, with blocking collectives and point-to-point traffic of
 * the same communicator in between; completion style by mode. */
static void all_at_once(t *x, MPI_Op concat_op, int mode)
{
  int n = x->n, me = x->me;
  MPI_Request r[OP_COUNT + 2];
  int nr = 0;
  int ring_out = val(me, 5), ring_in = FILL;
  for (int k = 0; k < OP_COUNT; k++) {
    start(x, k, concat_op, &r[nr++]);
    if (k == OP_BCAST) { /* point-to-point on the same communicator, tags 0 and 5 */
      MPI_Irecv(&ring_in, 1, MPI_INT, (me + n - 1) % n, 0, x->comm, &r[nr++]);
      MPI_Isend(&ring_out, 1, MPI_INT, (me + 1) % n, 0, x->comm, &r[nr++]);
    }
    if (k == OP_ALLGATHER) { /* a blocking collective while the others are in flight */
      int one = me + 1, sum = 0;
      MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, x->comm);
      CHECK_CASE(x, sum == n * (n + 1) / 2, "blocking allreduce among nonblocking ones: %d", sum);
    }
    if (k == OP_REDUCE) {
      int v = me == 0 ? 77 : 0;
      MPI_Bcast(&v, 1, MPI_INT, 0, x->comm);
      CHECK_CASE(x, v == 77, "blocking bcast among nonblocking ones: %d", v);
    }
  }
  switch (mode) {
  case 0:
    MPI_Waitall(nr, r, MPI_STATUSES_IGNORE);
    break;
  case 1: { /* MPI_Testany polling */
    for (;;) {
      int idx, flag;
      MPI_Testany(nr, r, &idx, &flag, MPI_STATUS_IGNORE);
      if (flag && idx == MPI_UNDEFINED)
        break;
    }
    break;
  }
  case 2: /* one wait each; even ranks newest first */
    for (int i = 0; i < nr; i++)
      MPI_Wait(&r[me % 2 ? i : nr - 1 - i], MPI_STATUS_IGNORE);
    break;
  case 3: { /* MPI_Waitsome, then MPI_Testall polling for the rest */
    int idx[OP_COUNT + 2], out = 0;
    MPI_Waitsome(nr, r, &out, idx, MPI_STATUSES_IGNORE);
    CHECK_CASE(x, out >= 1 && out <= nr, "waitsome: %d", out);
    int flag = 0;
    while (!flag)
      MPI_Testall(nr, r, &flag, MPI_STATUSES_IGNORE);
    break;
  }
  }
  for (int i = 0; i < nr; i++)
    CHECK_CASE(x, r[i] == MPI_REQUEST_NULL, "request %d not freed (mode %d)", i, mode);
  CHECK_CASE(x, ring_in == val((me + n - 1) % n, 5), "ring message %d", ring_in);
  for (int k = 0; k < OP_COUNT; k++)
    check(x, k);
}

/* Neighborhood collectives, all five outstanding at once with a blocking one in between,
 * on a 2-D Cartesian grid (periodic in dimension 0 only, so borders have MPI_PROC_NULL
 * neighbours) and, for allgather and alltoall, on a distributed graph (in: me-1, me-2; out:
 * me+1, me+2). Block k of what a rank sends carries nb(sender, k, i); on the grid, what a
 * rank sends to its -1 neighbour (block 2d) arrives there as the block of its +1 neighbour
 * (2d + 1), and the other way round. */
static int nb(int s, int k, int i) { return 100000 * s + 1000 * k + i; }

static void neighbors(t *x, MPI_Comm comm, int graph)
{
  int c = x->c, me;
  MPI_Comm_rank(comm, &me);
  int deg = 4, nbr[4], from[4]; /* neighbour of block k, and its block that comes here */
  if (graph) {
    int n;
    MPI_Comm_size(comm, &n);
    deg = 2;
    nbr[0] = (me + n - 1) % n;
    nbr[1] = (me + n - 2) % n;
    from[0] = 0;
    from[1] = 1;
  } else {
    for (int d = 0; d < 2; d++) {
      MPI_Cart_shift(comm, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
      from[2 * d] = 2 * d + 1;
      from[2 * d + 1] = 2 * d;
    }
  }
  int cnt[4], dsp[4], rcnt[4], rdsp[4], bsd[4], brd[4];
  MPI_Aint asd[4], ard[4];
  MPI_Datatype ty[4];
  int scnt_g = c + me % 2; /* allgatherv: what this rank contributes */
  for (int k = 0; k < deg; k++) {
    cnt[k] = c + k % 2;
    rcnt[k] = c + from[k] % 2;
    ty[k] = MPI_INT;
  }
  int stot = layout(cnt, dsp, deg), rtot = layout(rcnt, rdsp, deg);
  for (int k = 0; k < deg; k++) {
    asd[k] = (MPI_Aint)dsp[k] * (MPI_Aint)sizeof(int);
    ard[k] = (MPI_Aint)rdsp[k] * (MPI_Aint)sizeof(int);
    bsd[k] = dsp[k];
    brd[k] = rdsp[k];
  }
  int *gsend = ialloc((size_t)c + 1), *gv = ialloc((size_t)c + 1), *a2s = ialloc((size_t)deg * c);
  int *vs = ialloc((size_t)stot);
  int *res[5];
  size_t reslen[5] = {(size_t)deg * c, 0, (size_t)deg * c, (size_t)rtot, (size_t)rtot};
  int gcnt[4], gdsp[4];
  for (int k = 0; k < deg; k++)
    gcnt[k] = nbr[k] == MPI_PROC_NULL ? 0 : c + nbr[k] % 2;
  reslen[1] = (size_t)layout(gcnt, gdsp, deg);
  for (int q = 0; q < 5; q++)
    res[q] = ialloc(reslen[q]);
  for (int i = 0; i < c; i++)
    gsend[i] = nb(me, 0, i);
  for (int i = 0; i < scnt_g; i++)
    gv[i] = nb(me, 0, i);
  for (int k = 0; k < deg; k++) {
    for (int i = 0; i < c; i++)
      a2s[k * c + i] = nb(me, k, i);
    for (int i = 0; i < cnt[k]; i++)
      vs[dsp[k] + i] = nb(me, k, i);
  }
  MPI_Request r[5];
  int nr = 0;
  MPI_Ineighbor_allgather(gsend, c, MPI_INT, res[0], c, MPI_INT, comm, &r[nr++]);
  MPI_Ineighbor_alltoall(a2s, c, MPI_INT, res[2], c, MPI_INT, comm, &r[nr++]);
  if (!graph) {
    MPI_Ineighbor_allgatherv(gv, scnt_g, MPI_INT, res[1], gcnt, gdsp, MPI_INT, comm, &r[nr++]);
    /* a blocking one between the nonblocking ones, on the same communicator */
    int one = nb(me, 0, 0), got[4] = {FILL, FILL, FILL, FILL};
    MPI_Neighbor_allgather(&one, 1, MPI_INT, got, 1, MPI_INT, comm);
    for (int k = 0; k < deg; k++)
      CHECK_CASE(x, got[k] == (nbr[k] == MPI_PROC_NULL ? FILL : nb(nbr[k], 0, 0)),
                 "blocking neighbor_allgather block %d = %d", k, got[k]);
    MPI_Ineighbor_alltoallv(vs, cnt, bsd, MPI_INT, res[3], rcnt, brd, MPI_INT, comm, &r[nr++]);
    MPI_Ineighbor_alltoallw(vs, cnt, asd, ty, res[4], rcnt, ard, ty, comm, &r[nr++]);
  }
  MPI_Waitall(nr, r, MPI_STATUSES_IGNORE);
  const char *what[5] = {"ineighbor_allgather", "ineighbor_allgatherv", "ineighbor_alltoall",
                         "ineighbor_alltoallv", "ineighbor_alltoallw"};
  for (int k = 0; k < deg; k++) {
    int p = nbr[k];
    for (int i = 0; i < c; i++) {
      int want = p == MPI_PROC_NULL ? FILL : nb(p, 0, i);
      CHECK_CASE(x, res[0][k * c + i] == want, "%s%s block %d [%d] = %d, expected %d", what[0],
                 graph ? " (graph)" : "", k, i, res[0][k * c + i], want);
      want = p == MPI_PROC_NULL ? FILL : nb(p, from[k], i);
      CHECK_CASE(x, res[2][k * c + i] == want, "%s%s block %d [%d] = %d, expected %d", what[2],
                 graph ? " (graph)" : "", k, i, res[2][k * c + i], want);
    }
    if (graph)
      continue;
    for (int i = 0; i < gcnt[k]; i++)
      CHECK_CASE(x, res[1][gdsp[k] + i] == nb(p, 0, i), "%s block %d [%d] = %d", what[1], k, i,
                 res[1][gdsp[k] + i]);
    for (int q = 3; q < 5; q++)
      for (int i = 0; i < rcnt[k]; i++) {
        int want = p == MPI_PROC_NULL ? FILL : nb(p, from[k], i);
        CHECK_CASE(x, res[q][rdsp[k] + i] == want, "%s block %d [%d] = %d, expected %d", what[q],
                   k, i, res[q][rdsp[k] + i], want);
      }
  }
  for (int q = 0; q < 5; q++)
    free(res[q]);
  free(gsend);
  free(gv);
  free(a2s);
  free(vs);
}

static int cls(int rc)
{
  int k = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &k);
  return k;
}

static void errors(t *x)
{
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  /* errors without a valid communicator go to WORLD's handler (MPI 4: SELF's) */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int n = x->n, buf[4] = {1, 2, 3, 4}, out[4];
  MPI_Request r = MPI_REQUEST_NULL;
  CHECK_CASE(x, cls(MPI_Ibcast(buf, 1, MPI_INT, n, comm, &r)) == MPI_ERR_ROOT,
             "ibcast root = size");
  CHECK_CASE(x, cls(MPI_Ibcast(buf, -1, MPI_INT, 0, comm, &r)) == MPI_ERR_COUNT,
             "ibcast count -1");
  CHECK_CASE(x, cls(MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, comm, &r)) == MPI_ERR_OP,
             "iallreduce null op");
  CHECK_CASE(x, cls(MPI_Iallreduce(buf, buf, 1, MPI_INT, MPI_SUM, comm, &r)) == MPI_ERR_BUFFER,
             "iallreduce aliased buffers");
  CHECK_CASE(x, cls(MPI_Ialltoall(buf, -2, MPI_INT, out, 1, MPI_INT, comm, &r)) == MPI_ERR_COUNT,
             "ialltoall count -2");
  CHECK_CASE(x, cls(MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, -1, comm, &r)) == MPI_ERR_ROOT,
             "ireduce root -1");
  CHECK_CASE(x, cls(MPI_Ibarrier(MPI_COMM_NULL, &r)) == MPI_ERR_COMM,
             "ibarrier on MPI_COMM_NULL");
  CHECK_CASE(x, cls(MPI_Ibarrier(comm, NULL)) == MPI_ERR_ARG, "ibarrier without a request");
  CHECK_CASE(x, r == MPI_REQUEST_NULL, "a failed call set the request");

  /* cancelling a nonblocking collective is erroneous: refused, the request still works */
  buf[0] = x->me == 0 ? 42 : 0;
  MPI_Ibcast(buf, 1, MPI_INT, 0, comm, &r);
  int rc = MPI_Cancel(&r);
#ifndef MPICH /* MPICH accepts it (and then completes the operation anyway) */
  CHECK_CASE(x, cls(rc) == MPI_ERR_REQUEST, "MPI_Cancel of an MPI_Ibcast gave class %d", cls(rc));
#else
  (void)rc;
#endif
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK_CASE(x, buf[0] == 42, "ibcast after a refused cancel: %d", buf[0]);

  /* a freed request still completes in the background; the communicator goes on (MPI
   * 3.1 calls freeing a nonblocking collective's request erroneous; MPICH refuses it) */
  MPI_Ibarrier(comm, &r);
  rc = MPI_Request_free(&r);
#ifndef MPICH
  CHECK_CASE(x, rc == MPI_SUCCESS && r == MPI_REQUEST_NULL, "MPI_Request_free: %d", cls(rc));
#else
  if (r != MPI_REQUEST_NULL)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
#endif
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
  CHECK_CASE(x, sum == n, "allreduce after a freed ibarrier: %d", sum);
  /* the communicator may be freed while a collective on it is pending */
  MPI_Comm d;
  MPI_Comm_dup(comm, &d);
  int mine = x->me + 1, tot = 0;
  MPI_Iallreduce(&mine, &tot, 1, MPI_INT, MPI_SUM, d, &r);
  MPI_Comm_free(&d);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK_CASE(x, tot == n * (n + 1) / 2, "iallreduce on a communicator freed before the wait: %d",
             tot);
  MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Op concat_op;
  MPI_Op_create(concat, 0, &concat_op);
  static const int counts[] = {0, 1, 7, 1000};
  /* communicator sizes: 1, 2, 3, 5, 8 when there are enough ranks, and all of them */
  static const int sizes[] = {1, 2, 3, 5, 8, 0};
  int mode = 0;
  for (int s = 0; s < 6; s++) {
    int n = sizes[s] ? sizes[s] : world_size;
    if (n > world_size || (sizes[s] && n == world_size))
      continue;
    MPI_Comm comm;
    /* the last ranks, so that rank 0 of the communicator is not world rank 0 */
    MPI_Comm_split(MPI_COMM_WORLD, world_rank >= world_size - n ? 0 : MPI_UNDEFINED, world_rank,
                   &comm);
    if (comm == MPI_COMM_NULL)
      continue;
    for (int ci = 0; ci < 4; ci++)
      for (int ip = 0; ip < 2; ip++) {
        /* the smaller communicators take half the (count, in place) pairs, alternately, so
         * that every pair still meets several sizes (under a real MPI on 2 cores, 9 busy
         * processes make each collective slow) */
        if (sizes[s] && (ci + ip + s) % 2)
          continue;
        t x = {0};
        x.comm = comm;
        x.n = n;
        x.c = counts[ci];
        x.inplace = ip;
        MPI_Comm_rank(comm, &x.me);
        one_by_one(&x, concat_op);
        all_at_once(&x, concat_op, mode++ % 4);
      }
    MPI_Comm_free(&comm);
  }
  /* neighborhood collectives */
  {
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(world_size, 2, dims);
    MPI_Comm cart, graph;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    int src[2] = {(world_rank + world_size - 1) % world_size,
                  (world_rank + world_size - 2) % world_size};
    int dst[2] = {(world_rank + 1) % world_size, (world_rank + 2) % world_size};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &graph);
    for (int ci = 0; ci < 4; ci++) {
      t x = {0};
      x.n = world_size;
      x.c = counts[ci] > 100 ? 100 : counts[ci];
      neighbors(&x, cart, 0);
      neighbors(&x, graph, 1);
    }
    MPI_Comm_free(&cart);
    MPI_Comm_free(&graph);
  }
  t x = {0};
  x.n = world_size;
  x.me = world_rank;
  errors(&x);
  MPI_Op_free(&concat_op);

  return mpitest_finalize();
}
