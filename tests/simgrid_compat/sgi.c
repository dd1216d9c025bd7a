/* The InfiniBand cases' program (cases.py ib_*): flows whose penalties depend on how many
 * flows leave and reach each host (kernel/network.c, network/model:IB). Phase 1: every rank
 * sends 0.3, 0.6 and 0.9 MB to the next three ranks at once and receives from the three
 * before (in = out = 3, so gammar applies; self-sends with 3 ranks or fewer). Phase 2:
 * rank 0 sends 1 MB to every other rank at once (out-degree np - 1). Phase 3: every other
 * rank sends 0.5 and 0.6 MB to rank 0 at once (several flows from one source). Each phase
 * prints its duration on every rank. Plain MPI, built by both simulators' smpicc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *sb = calloc(1000000, 1), *rb = calloc(1000000, 2 * (size_t)size + 4);
  MPI_Request rq[256];
  int n = 0;
  double t0 = MPI_Wtime();
  for (int d = 1; d <= 3; d++) {
    MPI_Isend(sb, 300000 * d, MPI_CHAR, (rank + d) % size, d, MPI_COMM_WORLD, &rq[n++]);
    MPI_Irecv(rb + (size_t)d * 1000000, 300000 * d, MPI_CHAR, (rank + size - d % size) % size, d,
              MPI_COMM_WORLD, &rq[n++]);
  }
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  double t1 = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  double t2 = MPI_Wtime();
  n = 0;
  if (rank == 0) {
    for (int i = 1; i < size; i++)
      MPI_Isend(sb, 1000000, MPI_CHAR, i, 0, MPI_COMM_WORLD, &rq[n++]);
  } else {
    MPI_Irecv(rb, 1000000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &rq[n++]);
  }
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  double t3 = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  double t4 = MPI_Wtime();
  n = 0;
  for (int j = 0; j < 2; j++) {
    if (rank == 0)
      for (int i = 1; i < size; i++)
        MPI_Irecv(rb + (size_t)(2 * i + j) * 1000000, 500000 + 100000 * j, MPI_CHAR, i, j,
                  MPI_COMM_WORLD, &rq[n++]);
    else
      MPI_Isend(sb, 500000 + 100000 * j, MPI_CHAR, 0, j, MPI_COMM_WORLD, &rq[n++]);
  }
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  double t5 = MPI_Wtime(), tmax;
  printf("rank%d_ring %.17g\nrank%d_fanout %.17g\nrank%d_fanin %.17g\n", rank, t1 - t0, rank,
         t3 - t2, rank, t5 - t4);
  MPI_Reduce(&t5, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("time %.17g\n", tmax);
  free(sb);
  free(rb);
  MPI_Finalize();
  return 0;
}
