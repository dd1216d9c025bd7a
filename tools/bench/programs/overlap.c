/* An OSU-overlap-like polling benchmark (issue 27): ranks pair up (r, r ^ 1); for each size
 * they first time a plain Irecv/Isend/Waitall exchange, then post the same exchange and
 * "compute" for that long the way OSU's dummy_compute does: a tiny kernel, then a poll, in a
 * loop until MPI_Wtime says the time is up, then Waitall.
 *
 *   overlap MODE [ITERS [MAXSIZE [lone]]]  MODE: wtime  (MPI_Wtime only, as OSU without probes)
 *                                                test   (MPI_Test on the receive, then MPI_Wtime)
 *                                                iprobe (MPI_Iprobe, then MPI_Wtime)
 *
 * With "lone", only even ranks poll (odd ranks wait in MPI_Waitall): a poller that is alone
 * at its date, as HPL's ranks probing for a panel while the others compute.
 * Rank 0 prints "overlap: mode=M polls=P" (P: polling calls of rank 0, a deterministic count
 * when computation is not measured). Almost every poll fails and nothing else happens until
 * the exchange ends: the cost a simulator pays per failed poll is what this measures. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

/* OSU's compute_on_host: a few hundred flops, far under smpi/cpu-threshold */
static void kernel(void)
{
  double x = 1.0;
  for (int i = 0; i < 64; i++)
    x = x * 1.0000001 + 0.5;
  sink = x;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "wtime";
  int iters = argc > 2 ? atoi(argv[2]) : 10;
  long maxsize = argc > 3 ? atol(argv[3]) : 1L << 20;
  int lone = argc > 4 && !strcmp(argv[4], "lone");
  int m = !strcmp(mode, "test") ? 1 : !strcmp(mode, "iprobe") ? 2 : 0;
  if (m == 0 && strcmp(mode, "wtime") != 0) {
    if (rank == 0)
      fprintf(stderr, "overlap: unknown mode '%s' (wtime, test, iprobe)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int peer = rank ^ 1;
  char *sbuf = malloc((size_t)maxsize), *rbuf = malloc((size_t)maxsize);
  memset(sbuf, 1, (size_t)maxsize);
  long polls = 0;
  double total = 0;
  for (long s = 1; s <= maxsize; s *= 4) {
    if (peer >= size) /* odd rank count: the last rank sits out */
      break;
    MPI_Request rq[2];
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
      MPI_Irecv(rbuf, (int)s, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(sbuf, (int)s, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &rq[1]);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    double pure = (MPI_Wtime() - t0) / iters;
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
      MPI_Irecv(rbuf, (int)s, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(sbuf, (int)s, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &rq[1]);
      double c0 = MPI_Wtime(), c1 = c0;
      int flag = 0;
      while (c1 - c0 < pure && !(lone && rank % 2)) {
        kernel();
        if (m == 1 && !flag)
          MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
        else if (m == 2)
          MPI_Iprobe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        c1 = MPI_Wtime();
        polls++;
      }
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    total += MPI_Wtime() - t0;
  }
  if (rank == 0) {
    printf("overlap: mode=%s polls=%ld overlap_time=%.9f\n", mode, polls, total);
    printf("bench: case=overlap msgs=%ld\n", polls); /* the harness's unit: a poll of rank 0 */
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
