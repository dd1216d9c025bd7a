/* p2p_errors: the error class of each kind of bad argument, under MPI_ERRORS_RETURN:
 * MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT, MPI_ERR_TYPE (null and uncommitted),
 * MPI_ERR_BUFFER, MPI_ERR_COMM, MPI_ERR_REQUEST. Needs 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int error_class(int rc)
{
  int c = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &c);
  return c;
}

#define expect(rc, want, what)                                                            \
  do {                                                                                   \
    int c_ = error_class(rc);                                                            \
    if (c_ != (want)) {                                                                  \
      fprintf(stderr, "p2p_errors: rank %d: %s: error class %d, expected %d\n", rank,     \
              what, c_, want);                                                           \
      failures++;                                                                        \
    }                                                                                    \
  } while (0)

int main(int argc, char **argv)
{
  int rank, size, failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "p2p_errors: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int b[4] = {0};
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Status st;
  expect(MPI_Send(b, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank size");
  expect(MPI_Send(b, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank -5");
  expect(MPI_Send(b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
         "Send to MPI_ANY_SOURCE");
  expect(MPI_Recv(b, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "Recv from size+3");
  expect(MPI_Irecv(b, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &rq), MPI_ERR_RANK, "Irecv from -7");
  expect(MPI_Send(b, 1, MPI_INT, 1 - rank, -1, MPI_COMM_WORLD), MPI_ERR_TAG, "Send tag -1");
  expect(MPI_Isend(b, 1, MPI_INT, 1 - rank, MPI_ANY_TAG, MPI_COMM_WORLD, &rq), MPI_ERR_TAG,
         "Isend MPI_ANY_TAG");
  expect(MPI_Recv(b, 1, MPI_INT, 1 - rank, -3, MPI_COMM_WORLD, &st), MPI_ERR_TAG, "Recv tag -3");
  int *ub, flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (flag && *ub < 2147483647)
    expect(MPI_Send(b, 1, MPI_INT, 1 - rank, *ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG,
           "Send tag MPI_TAG_UB + 1");
  expect(MPI_Send(b, -1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Send count -1");
  expect(MPI_Irecv(b, -2, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
         "Irecv count -2");
  expect(MPI_Send(b, 1, MPI_DATATYPE_NULL, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
         "Send MPI_DATATYPE_NULL");
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  expect(MPI_Send(b, 1, pair, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send uncommitted type");
  MPI_Type_free(&pair);
  expect(MPI_Send(NULL, 3, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
         "Send NULL buffer, count 3");
  expect(MPI_Send(b, 1, MPI_INT, 1 - rank, 0, MPI_COMM_NULL), MPI_ERR_COMM, "Send MPI_COMM_NULL");
  expect(MPI_Probe(1 - rank, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, "Probe MPI_COMM_NULL");
  /* requests: a persistent one started twice, a non-persistent one started */
  MPI_Recv_init(b, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD, &rq);
  expect(MPI_Start(&rq), MPI_SUCCESS, "Start");
  expect(MPI_Start(&rq), MPI_ERR_REQUEST, "Start of an active request");
  MPI_Cancel(&rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  MPI_Request_free(&rq);
  /* nothing was sent by the failing calls (they all used tag 0 or an invalid one) */
  MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
  expect(flag ? MPI_ERR_OTHER : MPI_SUCCESS, MPI_SUCCESS, "a failed call sent a message");
  /* zero-length messages with a NULL buffer are fine */
  expect(MPI_Sendrecv(NULL, 0, MPI_INT, 1 - rank, 3, NULL, 0, MPI_INT, 1 - rank, 3,
                      MPI_COMM_WORLD, &st), MPI_SUCCESS, "Sendrecv of nothing");

  int total = failures;
  if (rank == 1)
    MPI_Send(&failures, 1, MPI_INT, 0, 1000, MPI_COMM_WORLD);
  else {
    int f;
    MPI_Recv(&f, 1, MPI_INT, 1, 1000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    total += f;
  }
  MPI_Finalize();
  if (rank == 0 && total == 0)
    printf("p2p_errors: OK\n");
  return failures ? 1 : 0;
}
