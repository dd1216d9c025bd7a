/* The MPI profiling interface (MPI 4.0, chapter 15): a program's own MPI_Send, MPI_Recv,
 * MPI_Bcast and MPI_Allreduce wrap ours and reach them through PMPI_*. Each wrapper must see
 * exactly the calls the program makes: none of the simulator's internal traffic (a Bcast is
 * made of point-to-point messages, but not of the program's MPI_Send), and none bypassed
 * (libsmpi.so is built with link-time optimisation, which must not bind MPI_* calls inside
 * the library). Run with privatization on, where each rank has its own counters. */
#define MPITEST_NAME "pmpi_wrap"
#include "mpitest.h"

#include <stdio.h>

static int n_send, n_recv, n_bcast, n_allreduce;

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  n_send++;
  return PMPI_Send(buf, count, dt, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Status *st)
{
  n_recv++;
  return PMPI_Recv(buf, count, dt, src, tag, comm, st);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  n_bcast++;
  return PMPI_Bcast(buf, count, dt, root, comm);
}

int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  n_allreduce++;
  return PMPI_Allreduce(in, out, count, dt, op, comm);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int v = rank == 0 ? 7 : 0;
  for (int i = 0; i < 3; i++)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  /* a ring: each rank sends once and receives once (even ranks send first) */
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, tok = rank, got = -1;
  if (rank % 2 == 0) {
    MPI_Send(&tok, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&got, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&tok, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
  }
  /* the reduction and the barrier below are the simulator's, not wrapped */
  int counts[4] = {n_send, n_recv, n_bcast, n_allreduce};
  const int want[4] = {1, 1, 3, 1};
  const char *names[4] = {"MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Allreduce"};
  for (int k = 0; k < 4; k++)
    CHECK(counts[k] == want[k], "the %s wrapper saw %d calls, %d expected", names[k], counts[k],
          want[k]);
  CHECK(v == 7 && sum == size * (size - 1) / 2 && got == prev, "wrong results (%d, %d, %d)", v,
        sum, got);
  int total = 0;
  PMPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0 && total == 0)
    printf("pmpi_wrap: OK\n");
  return total != 0;
}
