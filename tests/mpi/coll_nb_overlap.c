/* coll_nb_overlap: nonblocking collectives progress while the rank computes, in simulated
 * time (our simulator only: it uses smpi_execute_benched, and asserts simulated dates).
 *
 * For MPI_Ibcast of 1 MiB and MPI_Iallreduce of 1 MiB, on every rank, against the time T of
 * the blocking call measured in the same run (same algorithm, same platform):
 *   start + MPI_Wait                   lasts T                (same messages, same dates)
 *   start + compute X + MPI_Wait       lasts max(X, T)        for X = T/2 and X = 2T
 *                                      (the sum X + T if nothing progressed meanwhile)
 *   start + compute T/3 + MPI_Test polls  completes at the first poll that ends after T
 * and contention: an MPI_Ibcast from rank 0 and a 1 MiB message from rank 0 to rank 1
 * sent at the same time share rank 0's link, so the broadcast lasts longer than T on rank 1
 * but less than T + the message alone (they overlap rather than run one after the other).
 *
 * Run with --cfg=smpi/cpu-threshold:-1 --cfg=smpi/wtime:0 --cfg=smpi/grow-injected-times:no
 * so that the program's own CPU time and clock reads cost nothing and each MPI_Test costs
 * smpi/test (1e-4 s): the dates are then exact up to rounding (tolerance 1e-9 s plus 1e-9
 * relative). Prints the measured times (lines starting with '#'), then
 * "coll_nb_overlap: OK". */
#define MPITEST_NAME "coll_nb_overlap"
#include "mpitest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MIB (1 << 20)

/* smpi's test hook (collectives/coll_private.h): the algorithm of a collective on this rank */
int smpi_coll_force(const char *coll, const char *name);

typedef struct ctx {
  int rank, size;
} ctx;

static int near(double got, double want) { return fabs(got - want) <= 1e-9 + 1e-9 * fabs(want); }

/* which collective: 0 bcast, 1 allreduce; start = 1: nonblocking, returns its request */
static void run(int which, int nonblocking, char *buf, char *out, MPI_Request *r)
{
  if (which == 0) {
    if (nonblocking)
      MPI_Ibcast(buf, MIB, MPI_CHAR, 0, MPI_COMM_WORLD, r);
    else
      MPI_Bcast(buf, MIB, MPI_CHAR, 0, MPI_COMM_WORLD);
  } else {
    if (nonblocking)
      MPI_Iallreduce(buf, out, MIB / 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r);
    else
      MPI_Allreduce(buf, out, MIB / 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void overlap(ctx *c, int which, char *buf, char *out)
{
  const char *name = which ? "iallreduce" : "ibcast";
  MPI_Request r;
  /* T: the blocking call */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  run(which, 0, buf, out, NULL);
  double tb = MPI_Wtime() - t0;
  CHECK(tb > 0, "%s: blocking time %g", name, tb);

  /* start + wait */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  run(which, 1, buf, out, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  double tw = MPI_Wtime() - t0;
  CHECK(near(tw, tb), "%s + wait: %.12f s, blocking %.12f s", name, tw, tb);

  /* start + compute X + wait, X = T/2 and 2T (this rank's T) */
  for (int k = 0; k < 2; k++) {
    double x = k ? 2 * tb : tb / 2;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    run(which, 1, buf, out, &r);
    smpi_execute_benched(x);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;
    double want = x > tb ? x : tb;
    CHECK(near(t, want),
          "%s + compute %.9f + wait: %.12f s, expected max = %.12f s "
          "(sum would be %.12f s)",
          name, x, t, want, x + tb);
    if (c->rank == 1)
      printf("# %s, rank 1: T = %.9f s, compute %.9f s, start+compute+wait %.9f s (sum %.9f)\n",
             name, tb, x, t, x + tb);
  }

  /* start + compute T/3 + MPI_Test polls (each injects smpi/test = 1e-4 s) */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  run(which, 1, buf, out, &r);
  smpi_execute_benched(tb / 3);
  int flag = 0, polls = 0;
  while (!flag) {
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    polls++;
  }
  double t = MPI_Wtime() - t0;
  /* the first poll that ends after T sees it complete: within one poll (1e-4 s, not
   * growing with smpi/grow-injected-times:no) after T, never before */
  CHECK(t >= tb - 1e-9 && t <= tb + 1e-4 + 1e-9, "%s + compute + %d polls: %.9f s, T = %.9f s",
        name, polls, t, tb);
}

int main(int argc, char **argv)
{
  ctx c = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  mpitest_need(c.size >= 2, "at least 2 ranks");
  char *buf = calloc(MIB, 1), *out = calloc(MIB, 1), *msg = calloc(MIB, 1);
  if (!buf || !out || !msg)
    MPI_Abort(MPI_COMM_WORLD, 2);

  overlap(&c, 0, buf, out);
  overlap(&c, 1, buf, out);

  /* contention: the broadcast and a 1 MiB message from rank 0 to rank 1 at the same date */
  double tb, tp, both_b, both_p;
  MPI_Request r[2];
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Bcast(buf, MIB, MPI_CHAR, 0, MPI_COMM_WORLD);
  tb = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  if (c.rank == 0)
    MPI_Send(msg, MIB, MPI_CHAR, 1, 7, MPI_COMM_WORLD);
  else if (c.rank == 1)
    MPI_Recv(msg, MIB, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  tp = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  MPI_Ibcast(buf, MIB, MPI_CHAR, 0, MPI_COMM_WORLD, &r[0]);
  r[1] = MPI_REQUEST_NULL;
  if (c.rank == 0)
    MPI_Isend(msg, MIB, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &r[1]);
  else if (c.rank == 1)
    MPI_Irecv(msg, MIB, MPI_CHAR, 0, 7, MPI_COMM_WORLD, &r[1]);
  int idx;
  MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
  double first = MPI_Wtime() - t0;
  MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
  both_b = both_p = MPI_Wtime() - t0;
  (void)first;
  if (c.rank == 1) {
    printf("# contention, rank 1: bcast alone %.9f s, message alone %.9f s, both at once "
           "%.9f s (one after the other: %.9f s)\n",
           tb, tp, both_b, tb + tp);
    CHECK(both_b > tb + 1e-6 && both_p > tp + 1e-6,
          "no contention visible: both %.9f s, bcast %.9f s, message %.9f s", both_b, tb, tp);
    CHECK(both_b < tb + tp - 1e-6, "no overlap: both %.9f s >= %.9f + %.9f s", both_b, tb, tp);
  }

  /* the algorithm is fixed when the call starts: rank 0 switching algorithms right after
   * MPI_Ibcast (before its helper would otherwise have run) does not change that call */
  CHECK(smpi_coll_force("bcast", "flattree") == 0, "no flattree bcast");
  int *v = (int *)buf;
  for (int i = 0; i < 1000; i++)
    v[i] = c.rank == 0 ? i : -1;
  MPI_Ibcast(v, 1000, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
  if (c.rank == 0)
    smpi_coll_force("bcast", "binomial_tree");
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  smpi_coll_force("bcast", NULL);
  for (int i = 0, ok = 1; i < 1000 && ok; i++) {
    ok = v[i] == i;
    CHECK(ok, "ibcast with the algorithm switched after the call: [%d] = %d", i, v[i]);
  }

  free(buf);
  free(out);
  free(msg);
  return mpitest_finalize();
}
