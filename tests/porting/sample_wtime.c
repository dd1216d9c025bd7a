/* MPI_Wtime, and an MPI call that waits, inside a timed SMPI_SAMPLE_LOCAL block: the sample
 * must measure the calling rank's CPU time only. Run with 8 ranks, -platform cluster_flat.xml
 * (1 Gf hosts) and smpi/host-speed:1Gf, so that a measured CPU second is a simulated second.
 *
 * Each rank times a fixed loop twice: bare (its CPU time, the reference), then inside a
 * sampled block that calls MPI_Wtime every 100 000 iterations and exchanges a message with its
 * neighbours halfway. Before issue 21, MPI_Wtime slept smpi/wtime inside the block, letting the
 * other ranks run their loops while the sample's CPU clock ran: the block took about as many
 * times the reference as there are ranks (SimGrid's EP port: 4.8x at 64 ranks). Now it must
 * stay within [0.5, 2] x the reference. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <time.h>

#define ITERS 20000000L

static volatile double sink;

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void loop(long from, long to, int with_wtime)
{
  double x = 0;
  for (long i = from; i < to; i++) {
    x += (double)i * 0.5;
    if (with_wtime && i % 100000 == 0)
      x += MPI_Wtime() * 0;
  }
  sink += x;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, ok = 1, all;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double c0 = cpu_now();
  loop(0, ITERS, 0);
  double ref = cpu_now() - c0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  SMPI_SAMPLE_LOCAL(1)
  {
    loop(0, ITERS / 2, 1);
    int out = rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    loop(ITERS / 2, ITERS, 1);
  }
  double t1 = MPI_Wtime();
  double ratio = (t1 - t0) / ref;
  if (!(ratio > 0.5 && ratio < 2)) {
    printf("sample_wtime: rank %d: sampled block %.6f s, the same loop measured bare %.6f s "
           "(%.2fx)\n",
           rank, t1 - t0, ref, ratio);
    ok = 0;
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && all)
    printf("sample_wtime: OK\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
