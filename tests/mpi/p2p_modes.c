/* p2p_modes: the send modes' semantics. A synchronous send cannot complete before its
 * receive is posted; a buffered send completes at once while room remains in the attached
 * buffer (size + MPI_BSEND_OVERHEAD per message) and fails with MPI_ERR_BUFFER beyond it,
 * or without a buffer; MPI_Buffer_detach hands the buffer back; a ready send works when
 * its receive is posted. Needs 2 ranks. */
#define MPITEST_NAME "p2p_modes"
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
  int go = 1;
  if (rank == 0) {
    /* synchronous: not complete until rank 1 posts the receive, which it does only after
     * our go message */
    int v = 5, flag = 1;
    MPI_Request rq;
    MPI_Issend(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq);
    for (int i = 0; i < 5; i++) {
      MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
      CHECK(!flag, "Issend completed before its receive was posted");
    }
    MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Ssend(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);

    /* buffered: no buffer yet */
    int d[300];
    for (int i = 0; i < 300; i++)
      d[i] = i;
    int rc = MPI_Bsend(d, 100, MPI_INT, 1, 3, MPI_COMM_WORLD);
    CHECK(class_of(rc) == MPI_ERR_BUFFER, "Bsend without a buffer returned %d", rc);
    /* room for two 100-int messages; a 300-int one never fits (whether a third 100-int
     * one fits depends on when the implementation transmits the first two) */
    int bsize = 2 * (100 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)bsize);
    MPI_Buffer_attach(buf, bsize);
    rc = MPI_Bsend(d, 100, MPI_INT, 1, 3, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "first Bsend: %d", rc);
    MPI_Ibsend(d, 100, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE); /* complete at once: the data is in the buffer */
    rc = MPI_Bsend(d, 300, MPI_INT, 1, 5, MPI_COMM_WORLD);
    CHECK(class_of(rc) == MPI_ERR_BUFFER, "oversized Bsend returned %d", rc);
    MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    CHECK(back == buf && backsize == bsize, "detach: %p %d", back, backsize);
    free(buf);

    /* ready: rank 1 posted its receive before telling us */
    MPI_Recv(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Rsend(d, 100, MPI_INT, 1, 6, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irsend(d, 10, MPI_INT, 1, 7, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  } else {
    int v = 0;
    MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 5, "issend data %d", v);
    MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int d[100];
    MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int t = 3; t <= 4; t++) {
      MPI_Recv(d, 100, MPI_INT, 0, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(d[0] == 0 && d[99] == 99, "bsend %d data", t);
    }
    int flag;
    MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "the refused Bsend was sent");
    MPI_Request rq;
    MPI_Irecv(d, 100, MPI_INT, 0, 6, MPI_COMM_WORLD, &rq);
    MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(d[50] == 50, "rsend data");
    MPI_Irecv(d, 10, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq);
    MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  }
  return mpitest_finalize();
}
