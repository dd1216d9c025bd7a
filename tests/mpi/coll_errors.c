/* coll_errors: argument errors of the collectives come back as the right error classes
 * under MPI_ERRORS_RETURN (and a wrong call does not leave messages behind: the correct
 * calls after each batch still work). Any number of ranks >= 2. No mutable globals.
 * Prints "coll_errors: OK". */
#include <mpi.h>
#include <stdio.h>

typedef struct ctx {
  int rank, failures;
} ctx;

static void expect(ctx *c, int rc, int cls, const char *what)
{
  int got = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &got);
  if (got != cls) {
    char name[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(cls, name, &len);
    fprintf(stderr, "coll_errors: rank %d: %s: got class %d, expected %d (%s)\n", c->rank, what,
            got, cls, name);
    c->failures++;
  }
}

int main(int argc, char **argv)
{
  ctx c = {0, 0};
  int n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* MPI 4 reports null-communicator errors there */
  int buf[64] = {0}, out[64] = {0}, counts[64], displs[64];
  double d[4] = {0}, dout[4];
  for (int i = 0; i < 64; i++) {
    counts[i] = 1;
    displs[i] = i;
  }

  /* errors every rank detects alike (so no rank waits for a peer that bailed out) */
  expect(&c, MPI_Bcast(buf, 1, MPI_INT, n, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root = size");
  expect(&c, MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root -1");
  expect(&c, MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "bcast count -1");
  expect(&c, MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
         "bcast null type");
  expect(&c, MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
         "allreduce null op");
  expect(&c, MPI_Allreduce(d, dout, 4, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
         "allreduce MPI_BAND on doubles");
  expect(&c, MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
         "allreduce aliased buffers");
  expect(&c, MPI_Alltoall(buf, -2, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
         "alltoall count -2");
  expect(&c, MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, n + 3, MPI_COMM_WORLD), MPI_ERR_ROOT,
         "reduce root out of range");
  expect(&c, MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "barrier on MPI_COMM_NULL");

  /* the communicator still works */
  buf[0] = c.rank == 1 ? 42 : 0;
  expect(&c, MPI_Bcast(buf, 1, MPI_INT, 1, MPI_COMM_WORLD), MPI_SUCCESS, "bcast after errors");
  if (buf[0] != 42) {
    fprintf(stderr, "coll_errors: rank %d: bcast after errors gave %d\n", c.rank, buf[0]);
    c.failures++;
  }
  int one = 1, sum = 0;
  expect(&c, MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS,
         "allreduce after errors");
  if (sum != n) {
    fprintf(stderr, "coll_errors: rank %d: allreduce after errors gave %d\n", c.rank, sum);
    c.failures++;
  }
  /* MPI_IN_PLACE is fine where the standard allows it */
  out[c.rank] = c.rank;
  expect(&c, MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT,
                            MPI_COMM_WORLD),
         MPI_SUCCESS, "allgatherv in place");
  for (int i = 0; i < n && i < 64; i++)
    if (out[i] != i) {
      fprintf(stderr, "coll_errors: rank %d: allgatherv in place: block %d is %d\n", c.rank, i,
              out[i]);
      c.failures++;
      break;
    }

  int total;
  MPI_Allreduce(&c.failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (c.rank == 0 && total == 0)
    printf("coll_errors: OK\n");
  MPI_Finalize();
  return total != 0;
}
