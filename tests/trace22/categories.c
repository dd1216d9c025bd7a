/* Tracing categories (SimGrid's TRACE_category, TRACE_category_with_color,
 * TRACE_smpi_set_category): ranks 0 and 1 send 1 MB each to rank 2 at the same time, in
 * categories "ping" and "pong", then compute 1e8 and 2e8 flops in category "work". With
 * -trace --cfg=tracing/categorized:yes the Paje trace shows, per category, the bytes/s on
 * each link and the flop/s on each host (categories.py checks them). Builds with SimGrid's
 * smpicc too (tools/simgrid-ref/record_trace22.sh). */
#include <mpi.h>
#include <simgrid/instr.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES 1000000

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    fprintf(stderr, "categories: run with 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char *buf = malloc(2 * BYTES);
  TRACE_category("ping");
  TRACE_category_with_color("pong", "1 0 0");
  TRACE_category("work");
  if (rank < 2) {
    TRACE_smpi_set_category(rank == 0 ? "ping" : "pong");
    MPI_Send(buf, BYTES, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
  } else {
    MPI_Request r[2];
    MPI_Irecv(buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(buf + BYTES, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  TRACE_smpi_set_category("work");
  if (rank < 2)
    smpi_execute_flops(rank == 0 ? 1e8 : 2e8);
  TRACE_smpi_set_category(NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
  MPI_Finalize();
  return 0;
}
