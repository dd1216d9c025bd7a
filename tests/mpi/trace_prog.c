/* A small MPI program whose communication is known exactly, for the trace tests
 * (trace_check.py): run on 4 ranks, every trace format must show what it does.
 *
 *   rank 0 -> 1   MPI_Send 100 doubles, tag 7 (800 bytes)
 *   rank 1 -> 0   MPI_Send 1000 doubles, tag 8 (8000 bytes)
 *   ring          MPI_Isend / MPI_Irecv 10 ints to the right, tag 3, MPI_Waitall
 *   all           MPI_Bcast 50 doubles from 0, MPI_Barrier, MPI_Allreduce 1 double
 *   all           smpi_execute_flops(1e6) (1 ms on the 1 Gflop/s hosts), only with --compute
 *   ring          MPI_Sendrecv 2 ints right / from the left, tag 9
 *   all           MPI_Irecv any source, tag 11, MPI_Send 1 int right, MPI_Wait
 *
 * It checks the data it receives and prints "trace_prog: OK". Plain MPI otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#ifdef SMPI_VERSION_MAJOR /* smpi's mpi.h */
#define EXECUTE(f) smpi_execute_flops(f)
#else
#define EXECUTE(f) ((void)(f))
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int compute = argc > 1 && !strcmp(argv[1], "--compute");
  static double big[1000];
  for (int i = 0; i < 1000; i++)
    big[i] = rank * 1000 + i;
  if (rank == 0) {
    MPI_Send(big, 100, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(big, 1000, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += big[999] != 1999;
  } else if (rank == 1) {
    MPI_Recv(big, 100, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += big[99] != 99;
    for (int i = 0; i < 1000; i++)
      big[i] = 1000 + i;
    MPI_Send(big, 1000, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD);
  }
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[10], in[10];
  for (int i = 0; i < 10; i++)
    out[i] = rank;
  MPI_Request rq[2];
  MPI_Isend(out, 10, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(in, 10, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  bad += in[9] != left;
  double b[50];
  for (int i = 0; i < 50; i++)
    b[i] = rank == 0 ? i : -1;
  MPI_Bcast(b, 50, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  bad += b[49] != 49;
  MPI_Barrier(MPI_COMM_WORLD);
  double s = rank, r = 0;
  MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  bad += r != size * (size - 1) / 2.0;
  if (compute)
    EXECUTE(1e6);
  int so[2] = {rank, rank}, ri[2];
  MPI_Sendrecv(so, 2, MPI_INT, right, 9, ri, 2, MPI_INT, left, 9, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  bad += ri[1] != left;
  MPI_Request rr;
  int any = -1;
  MPI_Irecv(&any, 1, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &rr);
  MPI_Send(&rank, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  bad += any != left;
  int all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (all_bad) {
    if (rank == 0)
      fprintf(stderr, "trace_prog: %d wrong values received\n", all_bad);
    return 1;
  }
  if (rank == 0)
    printf("trace_prog: OK\n");
  return 0;
}
