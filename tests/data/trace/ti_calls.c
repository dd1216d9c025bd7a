/* Every call the TI recorder knows, on 4 ranks (tests/mpi/trace_check.py mode simgrid).
 * tests/data/trace/simgrid_ti/ holds what SimGrid 3.32 recorded for it:
 *   smpicc -O1 ti_calls.c -o ti_calls
 *   smpirun -trace-ti -trace-file t.txt -platform tests/data/simgrid-ref/platforms/cluster16.xml \
 *           -hostfile <node-0..node-3> -np 4 ./ti_calls
 * (the rank files renamed rank-1.txt .. rank-4.txt, their compute lines dropped: measured). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double buf[1000] = {0};
  volatile double x = 0;
  for (long i = 0; i < 3000000; i++) x += i * 0.5;
  if (rank == 0) {
    MPI_Send(buf, 100, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(buf, 1000, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, 100, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 1000, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD);
  }
  MPI_Request rq[2];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Isend(buf, 10, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(buf + 500, 10, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Bcast(buf, 50, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double s = rank, r;
  MPI_Reduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int sc[4] = {1,2,3,4}, rc[8]; /* the root of the Gather below receives 2 x 4 ints */
  MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Gather(sc, 2, MPI_INT, rc, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgather(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Scatter(sc, 1, MPI_INT, rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int rcounts[4] = {1,1,1,1}, displs[4] = {0,1,2,3};
  MPI_Gatherv(sc, 1, MPI_INT, rc, rcounts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(sc, 1, MPI_INT, rc, rcounts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallv(sc, rcounts, displs, MPI_INT, rc, rcounts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter(sc, rc, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Sendrecv(sc, 2, MPI_INT, right, 9, rc, 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request rr;
  MPI_Irecv(rc, 1, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &rr);
  MPI_Send(sc, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
  MPI_Bcast(buf, 5, MPI_DOUBLE, 0, sub);
  MPI_Comm_free(&sub);
  MPI_Finalize();
  if (rank == 0) printf("done\n");
  return 0;
}
