/* p2p_errors: the error class of each kind of bad argument, under MPI_ERRORS_RETURN:
 * MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT, MPI_ERR_TYPE (null and uncommitted),
 * MPI_ERR_BUFFER, MPI_ERR_COMM, MPI_ERR_REQUEST. Needs 2 ranks. */
#define MPITEST_NAME "p2p_errors"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size == 2, "2 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int b[4] = {0};
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Status st;
  CHECK_CLASS(MPI_Send(b, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
              "Send to rank size");
  CHECK_CLASS(MPI_Send(b, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank -5");
  CHECK_CLASS(MPI_Send(b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
              "Send to MPI_ANY_SOURCE");
  CHECK_CLASS(MPI_Recv(b, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK,
              "Recv from size+3");
  CHECK_CLASS(MPI_Irecv(b, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &rq), MPI_ERR_RANK,
              "Irecv from -7");
  CHECK_CLASS(MPI_Send(b, 1, MPI_INT, 1 - rank, -1, MPI_COMM_WORLD), MPI_ERR_TAG, "Send tag -1");
  CHECK_CLASS(MPI_Isend(b, 1, MPI_INT, 1 - rank, MPI_ANY_TAG, MPI_COMM_WORLD, &rq), MPI_ERR_TAG,
              "Isend MPI_ANY_TAG");
  CHECK_CLASS(MPI_Recv(b, 1, MPI_INT, 1 - rank, -3, MPI_COMM_WORLD, &st), MPI_ERR_TAG,
              "Recv tag -3");
  int *ub, flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (flag && *ub < 2147483647)
    CHECK_CLASS(MPI_Send(b, 1, MPI_INT, 1 - rank, *ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG,
                "Send tag MPI_TAG_UB + 1");
  CHECK_CLASS(MPI_Send(b, -1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
              "Send count -1");
  CHECK_CLASS(MPI_Irecv(b, -2, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
              "Irecv count -2");
  CHECK_CLASS(MPI_Send(b, 1, MPI_DATATYPE_NULL, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
              "Send MPI_DATATYPE_NULL");
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  CHECK_CLASS(MPI_Send(b, 1, pair, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
              "Send uncommitted type");
  MPI_Type_free(&pair);
  CHECK_CLASS(MPI_Send(NULL, 3, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
              "Send NULL buffer, count 3");
  CHECK_CLASS(MPI_Send(b, 1, MPI_INT, 1 - rank, 0, MPI_COMM_NULL), MPI_ERR_COMM,
              "Send MPI_COMM_NULL");
  CHECK_CLASS(MPI_Probe(1 - rank, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, "Probe MPI_COMM_NULL");
  /* requests: a persistent one started twice, a non-persistent one started */
  MPI_Recv_init(b, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD, &rq);
  CHECK_CLASS(MPI_Start(&rq), MPI_SUCCESS, "Start");
  CHECK_CLASS(MPI_Start(&rq), MPI_ERR_REQUEST, "Start of an active request");
  MPI_Cancel(&rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  MPI_Request_free(&rq);
  /* nothing was sent by the failing calls (they all used tag 0 or an invalid one) */
  MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
  CHECK_CLASS(flag ? MPI_ERR_OTHER : MPI_SUCCESS, MPI_SUCCESS, "a failed call sent a message");
  /* zero-length messages with a NULL buffer are fine */
  CHECK_CLASS(MPI_Sendrecv(NULL, 0, MPI_INT, 1 - rank, 3, NULL, 0, MPI_INT, 1 - rank, 3,
                           MPI_COMM_WORLD, &st),
              MPI_SUCCESS, "Sendrecv of nothing");

  return mpitest_finalize();
}
