/* coll_errors: argument errors of the collectives come back as the right error classes
 * under MPI_ERRORS_RETURN (and a wrong call does not leave messages behind: the correct
 * calls after each batch still work). Any number of ranks >= 2. No mutable globals but
 * mpitest.h's failure counter.
 * Prints "coll_errors: OK". */
#define MPITEST_NAME "coll_errors"
#include "mpitest.h"

#include <stdio.h>

int main(int argc, char **argv)
{
  int rank, n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF,
                          MPI_ERRORS_RETURN); /* MPI 4 reports null-communicator errors there */
  int buf[64] = {0}, out[64] = {0}, counts[64], displs[64];
  double d[4] = {0}, dout[4];
  for (int i = 0; i < 64; i++) {
    counts[i] = 1;
    displs[i] = i;
  }

  /* errors every rank detects alike (so no rank waits for a peer that bailed out) */
  CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, n, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root = size");
  CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root -1");
  CHECK_CLASS(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "bcast count -1");
  CHECK_CLASS(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
              "bcast null type");
  CHECK_CLASS(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
              "allreduce null op");
  CHECK_CLASS(MPI_Allreduce(d, dout, 4, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
              "allreduce MPI_BAND on doubles");
  CHECK_CLASS(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
              "allreduce aliased buffers");
  CHECK_CLASS(MPI_Alltoall(buf, -2, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
              "alltoall count -2");
  CHECK_CLASS(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, n + 3, MPI_COMM_WORLD), MPI_ERR_ROOT,
              "reduce root out of range");
  CHECK_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "barrier on MPI_COMM_NULL");

  /* the communicator still works */
  buf[0] = rank == 1 ? 42 : 0;
  CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, 1, MPI_COMM_WORLD), MPI_SUCCESS, "bcast after errors");
  CHECK(buf[0] == 42, "bcast after errors gave %d", buf[0]);
  int one = 1, sum = 0;
  CHECK_CLASS(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS,
              "allreduce after errors");
  CHECK(sum == n, "allreduce after errors gave %d", sum);
  /* MPI_IN_PLACE is fine where the standard allows it */
  out[rank] = rank;
  CHECK_CLASS(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT,
                             MPI_COMM_WORLD),
              MPI_SUCCESS, "allgatherv in place");
  for (int i = 0, ok = 1; i < n && i < 64 && ok; i++) { /* the first wrong block only */
    ok = out[i] == i;
    CHECK(ok, "allgatherv in place: block %d is %d", i, out[i]);
  }

  return mpitest_finalize();
}
