/* intercomm_ops: what test drivers do with intercommunicators (MPI 3.1 sections 5.2.2, 6.4.2,
 * 6.6), on groups of different sizes (A = world ranks 0-2, B = world ranks 3-6):
 *   - MPI_Comm_split on the intercommunicator (colors by parity, keys reversing the order,
 *     MPI_UNDEFINED, a color present in one group only -> MPI_COMM_NULL), then a collective
 *     on each result showing its remote group's members in key order;
 *   - MPI_Comm_create on it (a subgroup from each side; an empty one -> MPI_COMM_NULL);
 *   - MPI_Gatherv, MPI_Scatterv (rooted on either side), MPI_Alltoallw, MPI_Reduce_scatter;
 *   - the nonblocking collectives on it, all outstanding at once (a user op and a datatype
 *     freed right after the start);
 *   - MPI_Comm_idup of it, and collectives (blocking and not) on the duplicate;
 *   - MPI_Comm_create_group by a process outside the group: MPI_COMM_NULL (as in MPICH).
 * Results are closed forms of the senders' ranks. Runs on 7 ranks; plain MPI (the test
 * runs it under MPICH too). */
#define MPITEST_NAME "intercomm_ops"
#define MPITEST_MAX_REPORTS 30
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define NA 3 /* group A: world ranks 0..2; B: 3..6 */
#define NB 4

static int f(int side, int r, int j) { return side * 1000 + r * 10 + j; }

static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  for (int i = 0; i < *len; i++)
    ((int *)inout)[i] += ((int *)in)[i];
}

/* world ranks of the remote group of ic, in its order (an Allgather on ic) */
static void remote_members(MPI_Comm ic, int *out)
{
  int w = wrank();
  MPI_Allgather(&w, 1, MPI_INT, out, 1, MPI_INT, ic);
}

static void test_split(MPI_Comm ic, int side, int me)
{
  /* parity colors, reversed order; rank 2 of A stays out; rank 3 of B alone in color 7 */
  int color = me % 2, key = -me;
  if (side == 0 && me == 2)
    color = MPI_UNDEFINED;
  if (side == 1 && me == 3)
    color = 7;
  MPI_Comm sc;
  CHECK_CLASS(MPI_Comm_split(ic, color, key, &sc), MPI_SUCCESS, "split of an intercommunicator");
  if (color == MPI_UNDEFINED || color == 7) {
    CHECK(sc == MPI_COMM_NULL, "color %d: expected MPI_COMM_NULL", color);
    return;
  }
  CHECK(sc != MPI_COMM_NULL, "color %d: no communicator", color);
  if (sc == MPI_COMM_NULL)
    return;
  int flag, lsize, rsize, r;
  MPI_Comm_test_inter(sc, &flag);
  MPI_Comm_size(sc, &lsize);
  MPI_Comm_remote_size(sc, &rsize);
  MPI_Comm_rank(sc, &r);
  /* A color 0: {0}; A color 1: {1}; B color 0: {2, 0} (keys reversed); B color 1: {1} */
  int la[2] = {1, 1}, lb[2] = {2, 1};
  int want_l = side == 0 ? la[color] : lb[color], want_r = side == 0 ? lb[color] : la[color];
  CHECK(flag && lsize == want_l && rsize == want_r,
        "split: inter %d, sizes %d/%d, expected %d/%d", flag, lsize, rsize, want_l, want_r);
  if (side == 1 && color == 0)
    CHECK(r == (me == 2 ? 0 : 1), "split: rank %d for local rank %d (keys reversed)", r, me);
  int rem[NB];
  remote_members(sc, rem);
  if (side == 0 && color == 0)
    CHECK(rem[0] == NA + 2 && rem[1] == NA + 0, "split: remote members %d %d", rem[0], rem[1]);
  if (side == 1)
    CHECK(rem[0] == color, "split: remote member %d", rem[0]);
  MPI_Comm_free(&sc);
}

static void test_create(MPI_Comm ic, int side, int me)
{
  MPI_Group local, sub;
  MPI_Comm_group(ic, &local);
  /* A keeps its local ranks {1, 0}, B its {1, 2, 3} */
  int ra[2] = {1, 0}, rb[3] = {1, 2, 3};
  MPI_Group_incl(local, side ? 3 : 2, side ? rb : ra, &sub);
  MPI_Comm cc;
  CHECK_CLASS(MPI_Comm_create(ic, sub, &cc), MPI_SUCCESS, "create on an intercommunicator");
  int in = side ? me >= 1 : me <= 1;
  CHECK((cc != MPI_COMM_NULL) == in, "create: member %d, communicator %s", in,
        cc == MPI_COMM_NULL ? "null" : "made");
  if (cc != MPI_COMM_NULL) {
    int flag, lsize, rsize, rem[NB];
    MPI_Comm_test_inter(cc, &flag);
    MPI_Comm_size(cc, &lsize);
    MPI_Comm_remote_size(cc, &rsize);
    CHECK(flag && lsize == (side ? 3 : 2) && rsize == (side ? 2 : 3), "create: sizes %d/%d",
          lsize, rsize);
    remote_members(cc, rem);
    if (side == 0)
      CHECK(rem[0] == NA + 1 && rem[1] == NA + 2 && rem[2] == NA + 3, "create: remote %d %d %d",
            rem[0], rem[1], rem[2]);
    else
      CHECK(rem[0] == 1 && rem[1] == 0, "create: remote %d %d", rem[0], rem[1]);
    MPI_Comm_free(&cc);
  }
  MPI_Group_free(&sub);
  /* group A passes an empty group: nobody gets a communicator */
  MPI_Comm_create(ic, side ? local : MPI_GROUP_EMPTY, &cc);
  CHECK(cc == MPI_COMM_NULL, "create with an empty side: a communicator");
  MPI_Group_free(&local);
}

/* Gatherv and Scatterv rooted at rank 1 of `rootside`; block i of the remote group has
 * i + 1 elements at displacement 10 i */
static void test_rooted_v(MPI_Comm ic, int side, int me, int rootside)
{
  int rsize = side ? NA : NB;
  int root = side == rootside ? (me == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1;
  int counts[NB], displs[NB], sbuf[4], rbuf[10 * NB];
  for (int i = 0; i < NB; i++)
    counts[i] = i + 1, displs[i] = 10 * i;
  for (int i = 0; i < 10 * NB; i++)
    rbuf[i] = -1;
  for (int j = 0; j < 4; j++)
    sbuf[j] = f(side, me, j);
  MPI_Gatherv(sbuf, me + 1, MPI_INT, rbuf, counts, displs, MPI_INT, root, ic);
  if (root == MPI_ROOT)
    for (int i = 0; i < rsize; i++)
      for (int j = 0; j <= i; j++)
        CHECK(rbuf[10 * i + j] == f(!side, i, j), "gatherv [%d][%d] = %d", i, j,
              rbuf[10 * i + j]);
  /* scatterv: the root sends block i = f(side, i, j) */
  for (int i = 0; i < 10 * NB; i++)
    rbuf[i] = f(side, i / 10, i % 10);
  int got[4] = {-1, -1, -1, -1};
  MPI_Scatterv(rbuf, counts, displs, MPI_INT, got, me + 1, MPI_INT, root, ic);
  if (side != rootside)
    for (int j = 0; j <= me; j++)
      CHECK(got[j] == f(rootside, me, j), "scatterv [%d] = %d", j, got[j]);
}

static void test_alltoallw_redscat(MPI_Comm ic, int side, int me)
{
  int rsize = side ? NA : NB;
  /* alltoallw: to remote i, 2 ints (value 100 me + i) at byte offset 8 i */
  int sbuf[2 * NB], rbuf[2 * NB], cnt[NB], dsp[NB];
  MPI_Datatype types[NB];
  for (int i = 0; i < NB; i++) {
    cnt[i] = 2;
    dsp[i] = 8 * i;
    types[i] = MPI_INT;
    sbuf[2 * i] = sbuf[2 * i + 1] = f(side, me, i);
    rbuf[2 * i] = rbuf[2 * i + 1] = -1;
  }
  MPI_Alltoallw(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, ic);
  for (int i = 0; i < rsize; i++)
    CHECK(rbuf[2 * i] == f(!side, i, me) && rbuf[2 * i + 1] == f(!side, i, me),
          "alltoallw [%d] = %d %d", i, rbuf[2 * i], rbuf[2 * i + 1]);
  /* reduce_scatter: both groups' counts add up to 6; A's rank i gets its part of the sum
   * of B's vectors and vice versa */
  int ca[NA] = {2, 2, 2}, cb[NB] = {1, 2, 1, 2};
  int *counts = side ? cb : ca, vec[6], res[2] = {-1, -1}, off = 0;
  for (int j = 0; j < 6; j++)
    vec[j] = f(side, me, j);
  MPI_Reduce_scatter(vec, res, counts, MPI_INT, MPI_SUM, ic);
  for (int i = 0; i < me; i++)
    off += counts[i];
  for (int j = 0; j < counts[me]; j++) {
    int want = 0;
    for (int r = 0; r < rsize; r++)
      want += f(!side, r, off + j);
    CHECK(res[j] == want, "reduce_scatter [%d] = %d, expected %d", j, res[j], want);
  }
}

/* every nonblocking collective defined on intercommunicators, outstanding together */
static void test_nonblocking(MPI_Comm ic, int side, int me)
{
  int rsize = side ? NA : NB;
  MPI_Request q[12];
  int n = 0;
  MPI_Op op;
  MPI_Op_create(isum, 1, &op);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  int bc[2] = {-1, -1}, ar[2] = {-1, -1}, ag[2 * NB], a2a[NB], gv[NB], sv = -1, red[2] = {-1, -1};
  int mine[2] = {f(side, me, 0), f(side, me, 1)}, out[NB], cnts[NB], dsp[NB], rsb = -1;
  int vec[NB];
  /* bcast from rank 0 of A: 2 ints */
  if (side == 0) {
    bc[0] = 11, bc[1] = 12;
    MPI_Ibcast(bc, 1, pair, me == 0 ? MPI_ROOT : MPI_PROC_NULL, ic, &q[n++]);
  } else {
    MPI_Ibcast(bc, 1, pair, 0, ic, &q[n++]);
  }
  MPI_Type_free(&pair);
  MPI_Iallreduce(mine, ar, 2, MPI_INT, op, ic, &q[n++]);
  MPI_Op_free(&op);
  MPI_Iallgather(mine, 2, MPI_INT, ag, 2, MPI_INT, ic, &q[n++]);
  for (int i = 0; i < NB; i++) {
    out[i] = f(side, me, i);
    cnts[i] = 1;
    dsp[i] = i;
    gv[i] = a2a[i] = -1;
    vec[i] = f(side, me, i);
  }
  MPI_Ialltoall(out, 1, MPI_INT, a2a, 1, MPI_INT, ic, &q[n++]);
  /* gatherv to rank 0 of B, scatterv from rank 0 of A */
  if (side == 1)
    MPI_Igatherv(mine, 0, MPI_INT, gv, cnts, dsp, MPI_INT, me == 0 ? MPI_ROOT : MPI_PROC_NULL, ic,
                 &q[n++]);
  else
    MPI_Igatherv(mine, 1, MPI_INT, gv, cnts, dsp, MPI_INT, 0, ic, &q[n++]);
  if (side == 0)
    MPI_Iscatterv(out, cnts, dsp, MPI_INT, &sv, 0, MPI_INT, me == 0 ? MPI_ROOT : MPI_PROC_NULL,
                  ic, &q[n++]);
  else
    MPI_Iscatterv(out, cnts, dsp, MPI_INT, &sv, 1, MPI_INT, 0, ic, &q[n++]);
  /* reduce to rank 1 of A */
  if (side == 0)
    MPI_Ireduce(mine, red, 2, MPI_INT, MPI_SUM, me == 1 ? MPI_ROOT : MPI_PROC_NULL, ic, &q[n++]);
  else
    MPI_Ireduce(mine, red, 2, MPI_INT, MPI_SUM, 1, ic, &q[n++]);
  MPI_Ibarrier(ic, &q[n++]);
  /* reduce_scatter: 12 = 3 x 4 elements: A's counts 4 each, B's 3 each */
  int big[12], rsv[4] = {-1, -1, -1, -1}, c3[NB] = {3, 3, 3, 3}, c4[NA] = {4, 4, 4};
  for (int j = 0; j < 12; j++)
    big[j] = f(side, me, j);
  MPI_Ireduce_scatter(big, rsv, side ? c3 : c4, MPI_INT, MPI_SUM, ic, &q[n++]);
  /* reduce_scatter_block: lsize x 1 element vectors each side (MPICH's reading needs the
   * same total: only when the sizes agree, so here a count of 0) */
  MPI_Ireduce_scatter_block(vec, &rsb, 0, MPI_INT, MPI_SUM, ic, &q[n++]);
  MPI_Waitall(n, q, MPI_STATUSES_IGNORE);

  if (side == 1)
    CHECK(bc[0] == 11 && bc[1] == 12, "ibcast %d %d", bc[0], bc[1]);
  for (int j = 0; j < 2; j++) {
    int want = 0;
    for (int r = 0; r < rsize; r++)
      want += f(!side, r, j);
    CHECK(ar[j] == want, "iallreduce [%d] = %d, expected %d", j, ar[j], want);
    if (side == 0 && me == 1)
      CHECK(red[j] == want, "ireduce [%d] = %d, expected %d", j, red[j], want);
  }
  for (int r = 0; r < rsize; r++) {
    CHECK(ag[2 * r] == f(!side, r, 0) && ag[2 * r + 1] == f(!side, r, 1), "iallgather [%d]", r);
    CHECK(a2a[r] == f(!side, r, me), "ialltoall [%d] = %d", r, a2a[r]);
    if (side == 1 && me == 0)
      CHECK(gv[r] == f(0, r, 0), "igatherv [%d] = %d", r, gv[r]);
  }
  if (side == 1)
    CHECK(sv == f(0, 0, me), "iscatterv %d", sv);
  int per = side ? 3 : 4;
  for (int j = 0; j < per; j++) {
    int want = 0;
    for (int r = 0; r < rsize; r++)
      want += f(!side, r, me * per + j);
    CHECK(rsv[j] == want, "ireduce_scatter [%d] = %d, expected %d", j, rsv[j], want);
  }
}

static void test_idup(MPI_Comm ic, int side, int me)
{
  MPI_Comm d;
  MPI_Request q;
  MPI_Comm_idup(ic, &d, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  int flag, rsize, v = f(side, me, 0), sum = -1, isum_ = -1, want = 0;
  MPI_Comm_test_inter(d, &flag);
  MPI_Comm_remote_size(d, &rsize);
  CHECK(flag && rsize == (side ? NA : NB), "idup: inter %d, remote size %d", flag, rsize);
  for (int r = 0; r < rsize; r++)
    want += f(!side, r, 0);
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, d);
  MPI_Iallreduce(&v, &isum_, 1, MPI_INT, MPI_SUM, d, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  CHECK(sum == want && isum_ == want, "idup: allreduce %d / %d, expected %d", sum, isum_, want);
  MPI_Comm_free(&d);
}

static void test_create_group_outside(void)
{
  /* ranks 0 and 1 form a communicator; the others call too and get MPI_COMM_NULL */
  MPI_Group world, two;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int r[2] = {0, 1};
  MPI_Group_incl(world, 2, r, &two);
  MPI_Comm c;
  int w = wrank();
  CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, two, 5, &c), MPI_SUCCESS,
              "create_group by anyone");
  CHECK((c != MPI_COMM_NULL) == (w < 2), "create_group: %s on world rank %d",
        c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator", w);
  if (c != MPI_COMM_NULL)
    MPI_Comm_free(&c);
  MPI_Group_free(&two);
  MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  mpitest_need(wsize() == NA + NB, "7 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int w = wrank(), side = w < NA ? 0 : 1;
  MPI_Comm half, ic;
  MPI_Comm_split(MPI_COMM_WORLD, side, w, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side ? 0 : NA, 17, &ic);
  MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
  int me;
  MPI_Comm_rank(ic, &me);

  test_split(ic, side, me);
  test_create(ic, side, me);
  test_rooted_v(ic, side, me, 0);
  test_rooted_v(ic, side, me, 1);
  test_alltoallw_redscat(ic, side, me);
  test_nonblocking(ic, side, me);
  test_idup(ic, side, me);
  test_create_group_outside();

  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);
  return mpitest_finalize();
}
