/* The communication patterns of SKaMPI's point-to-point measurements, timed the way SKaMPI
 * times them, for the closed-loop check: simulate this with the settings smpi-calibrate
 * --closed-loop emitted and compare with its --pattern-table. Written by this project from
 * SKaMPI's documented behaviour; no SKaMPI code.
 *
 *   skampi_patterns -pattern Send_Recv -sizes 1,2,4,...  [-reps 16]
 *
 * What SKaMPI does, and what this program repeats for each size:
 *  - a batch of repetitions back to back, nothing between them (the synchronisation SKaMPI
 *    does between batches is a collective: here a barrier);
 *  - a repetition of a ping-pong pattern: rank 1 first receives, then both time one round
 *    trip (rank 0: send, receive; rank 1: send, receive), then rank 0 sends one more message
 *    outside its timed part: the message rank 1's timed receive waits for;
 *    Sendrecv patterns time one MPI_Sendrecv(_replace) on both ranks, nothing else;
 *  - the repetition's value is the larger of the two ranks' times; the result is the mean of
 *    the middle half of the sorted values (a quarter dropped at each end).
 * Output: "pattern size microseconds" per size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  P_SEND_RECV,
  P_SEND_RECV_AT,
  P_SEND_IRECV,
  P_ISEND_RECV,
  P_SSEND_RECV,
  P_ISSEND_RECV,
  P_SENDRECV,
  P_SENDRECV_REPLACE,
  P_N
};
static const char *const names[P_N] = {"Send_Recv",  "Send_Recv_AnyTag", "Send_Irecv",
                                       "Isend_Recv", "Ssend_Recv",       "Issend_Recv",
                                       "Sendrecv",   "Sendrecv_replace"};

static void psend(int pat, char *buf, int n, int peer)
{
  MPI_Request rq;
  switch (pat) {
  case P_ISEND_RECV:
    MPI_Isend(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    break;
  case P_SSEND_RECV:
    MPI_Ssend(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    break;
  case P_ISSEND_RECV:
    MPI_Issend(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    break;
  default:
    MPI_Send(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
  }
}

static void precv(int pat, char *buf, int n, int peer)
{
  MPI_Request rq;
  if (pat == P_SEND_IRECV) {
    MPI_Irecv(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, n, MPI_BYTE, peer, pat == P_SEND_RECV_AT ? MPI_ANY_TAG : 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
}

/* one repetition on this rank: its timed part, seconds */
static double repetition(int pat, int rank, char *sbuf, char *rbuf, int n)
{
  int peer = 1 - rank;
  double t0, t1;
  if (pat == P_SENDRECV || pat == P_SENDRECV_REPLACE) {
    t0 = MPI_Wtime();
    if (pat == P_SENDRECV)
      MPI_Sendrecv(sbuf, n, MPI_BYTE, peer, 0, rbuf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    else
      MPI_Sendrecv_replace(sbuf, n, MPI_BYTE, peer, 0, peer, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
    t1 = MPI_Wtime();
    return t1 - t0;
  }
  if (rank == 0) {
    t0 = MPI_Wtime();
    psend(pat, sbuf, n, peer);
    precv(pat, rbuf, n, peer);
    t1 = MPI_Wtime();
    psend(pat, sbuf, n, peer); /* the message rank 1's timed receive waits for */
  } else {
    precv(pat, rbuf, n, peer);
    t0 = MPI_Wtime();
    psend(pat, sbuf, n, peer);
    precv(pat, rbuf, n, peer);
    t1 = MPI_Wtime();
  }
  return t1 - t0;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  int rank, size, reps = 16, pat = -1;
  const char *sizes = NULL;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-pattern")) {
      for (int p = 0; p < P_N; p++)
        if (!strcmp(argv[i + 1], names[p]))
          pat = p;
    } else if (!strcmp(argv[i], "-sizes")) {
      sizes = argv[i + 1];
    } else if (!strcmp(argv[i], "-reps")) {
      reps = atoi(argv[i + 1]);
    }
  }
  if (size != 2 || pat < 0 || !sizes || reps < 4) {
    if (rank == 0)
      fprintf(stderr, "usage: skampi_patterns -pattern NAME -sizes N,N,... [-reps R >= 4] "
                      "(2 ranks)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double *mine = malloc(reps * sizeof *mine), *other = malloc(reps * sizeof *other);
  for (const char *s = sizes; *s;) {
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || n < 0) {
      if (rank == 0)
        fprintf(stderr, "skampi_patterns: bad size list at '%s'\n", s);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    s = *end == ',' ? end + 1 : end;
    char *sbuf = calloc(n ? n : 1, 1), *rbuf = calloc(n ? n : 1, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < reps; r++)
      mine[r] = repetition(pat, rank, sbuf, rbuf, (int)n);
    if (rank == 1)
      MPI_Send(mine, reps, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    else {
      MPI_Recv(other, reps, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int r = 0; r < reps; r++)
        mine[r] = mine[r] > other[r] ? mine[r] : other[r];
      qsort(mine, reps, sizeof *mine, cmp);
      double sum = 0;
      int k = 0;
      for (int r = reps / 4; r < reps - reps / 4; r++, k++)
        sum += mine[r];
      printf("%s %ld %.6f\n", names[pat], n, 1e6 * sum / k);
    }
    free(sbuf);
    free(rbuf);
  }
  free(mine);
  free(other);
  MPI_Finalize();
  return 0;
}
