/* Clock polls run ahead of the simulated date (smpi/wtime-ahead, docs/polling.md): phases
 * where the order of events at equal dates, the timing precision and the other ranks'
 * actions during a rank's polls decide the dates, so that any difference between polling
 * ahead and sleeping at each poll shows. Every rank prints its date after each phase
 * ("ahead: rank R phase P date %.17g") and the counts it saw; check.py compares the output
 * and the trace with smpi/wtime-ahead:yes and :no, with and without inline steps.
 *
 *   ahead K   (K polls per phase; computation not simulated, 4 ranks or more) */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int rank, size;

static void report(int phase, double extra)
{
  printf("ahead: rank %d phase %d date %.17g extra %.17g\n", rank, phase, MPI_Wtime(), extra);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int k = argc > 1 ? atoi(argv[1]) : 200;
  int peer = rank ^ 1, flag = 0;
  static char sbuf[1 << 16], rbuf[1 << 16];
  MPI_Request rq[2];

  /* 1. all ranks poll at the same dates while their exchanges are in flight */
  if (peer < size) {
    MPI_Irecv(rbuf, sizeof rbuf, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(sbuf, sizeof sbuf, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &rq[1]);
    for (int i = 0; i < k; i++)
      MPI_Wtime();
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  }
  report(1, 0);

  /* 2. polls of different lengths end at equal dates, then a failed MPI_Iprobe each: the
   * shared smpi/iprobe counter makes the order of the ranks at those dates matter */
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < (rank % 3) * 7 + 5; i++)
    MPI_Wtime();
  MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  report(2, flag);

  /* 3. a computation of rank 2 ends within the timing precision (1e-9 s) after one of the
   * other ranks' poll dates: a poll's date attracts that event (it fires at the poll's date) */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 2)
    smpi_execute_benched(7 * 1e-8 + 4e-10);
  else
    for (int i = 0; i < 20; i++)
      MPI_Wtime();
  report(3, 0);

  /* 4. the virtual clocks and MPI_Wtime interleaved, then an absolute sleep from the rank's
   * own date, and computations between polls */
  MPI_Barrier(MPI_COMM_WORLD);
  struct timespec ts;
  struct timeval tv;
  for (int i = 0; i < k; i++) {
    if (i % 3 == 0)
      clock_gettime(CLOCK_MONOTONIC, &ts);
    else if (i % 3 == 1)
      gettimeofday(&tv, NULL);
    else
      MPI_Wtime();
    if (i % 50 == 49)
      smpi_execute_flops(1e3 * (rank + 1));
  }
  clock_gettime(CLOCK_MONOTONIC, &ts);
  ts.tv_nsec += 1500;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
  report(4, 0);

  /* 5. OSU's dummy compute: poll the clock until a period passes, test, until the message
   * that rank 0 sends late arrives */
  MPI_Barrier(MPI_COMM_WORLD);
  int polls = 0, tests = 0;
  if (rank == 0) {
    usleep(400);
    for (int r = 1; r < size; r++)
      MPI_Send(sbuf, 1024 * r, MPI_CHAR, r, 5, MPI_COMM_WORLD);
  } else {
    MPI_Irecv(rbuf, sizeof rbuf, MPI_CHAR, 0, 5, MPI_COMM_WORLD, &rq[0]);
    while (!flag) {
      double t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < 1e-6 * rank)
        polls++;
      MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
      tests++;
    }
  }
  report(5, polls * 1000.0 + tests);

  /* 6. even ranks poll the clock, odd ranks sleep as long (10 ns) as many times: at each
   * date the run queue mixes both, and the order they end in at the last date, which the
   * shared smpi/iprobe counter shows, is the order of their sleeps' turns all along */
  MPI_Barrier(MPI_COMM_WORLD);
  struct timespec ten = {0, 10};
  for (int i = 0; i < k; i++)
    if (rank % 2)
      nanosleep(&ten, NULL);
    else
      MPI_Wtime();
  MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  report(6, flag);

  /* 7. ranks end right after polling: the job's end is each rank's own date */
  for (int i = 0; i < k * (rank + 1); i++)
    MPI_Wtime();
  MPI_Finalize();
  return 0;
}
