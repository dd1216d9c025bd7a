/* p2p_probe: MPI_Probe/Iprobe tell the size before the receive; MPI_Mprobe/Improbe take a
 * message out of the queues so that only MPI_Mrecv/Imrecv gets it, even when another
 * receive would match; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. Needs 2 ranks. */
#define MPITEST_NAME "p2p_probe"
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
  const int sizes[] = {0, 3, 1000, 30000};
  if (rank == 1) {
    for (int k = 0; k < 4; k++) {
      int *b = malloc((size_t)(sizes[k] + 1) * sizeof(int));
      for (int i = 0; i < sizes[k]; i++)
        b[i] = k + i;
      MPI_Send(b, sizes[k], MPI_INT, 0, k, MPI_COMM_WORLD);
      free(b);
    }
    /* two messages with the same envelope for the matched-probe part */
    int x = 11, y = 22, z = 33;
    MPI_Send(&x, 1, MPI_INT, 0, 50, MPI_COMM_WORLD);
    MPI_Send(&y, 1, MPI_INT, 0, 50, MPI_COMM_WORLD);
    MPI_Send(&z, 1, MPI_INT, 0, 51, MPI_COMM_WORLD);
  } else {
    /* probe, size the buffer, receive */
    for (int k = 0; k < 4; k++) {
      MPI_Status st;
      int n = -1, flag = 0;
      if (k % 2) {
        while (!flag)
          MPI_Iprobe(MPI_ANY_SOURCE, k, MPI_COMM_WORLD, &flag, &st);
      } else {
        MPI_Probe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      }
      MPI_Get_count(&st, MPI_INT, &n);
      CHECK(n == sizes[k] && st.MPI_TAG == k && st.MPI_SOURCE == 1, "probe %d: count %d tag %d",
            k, n, st.MPI_TAG);
      int *b = malloc((size_t)(n + 1) * sizeof(int));
      MPI_Recv(b, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
      for (int i = 0; i < n; i++)
        if (b[i] != k + i) {
          CHECK(0, "message %d: b[%d] = %d", k, i, b[i]);
          break;
        }
      free(b);
    }
    /* matched probe of the first tag-50 message; an ordinary receive then gets the second */
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(1, 50, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg != MPI_MESSAGE_NULL && st.MPI_TAG == 50, "mprobe");
    int v = 0, w = 0;
    MPI_Recv(&w, 1, MPI_INT, 1, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Mrecv(&v, 1, MPI_INT, &msg, &st);
    CHECK(v == 11 && w == 22, "mrecv got %d, recv got %d", v, w);
    CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == 1, "after mrecv");
    /* nonblocking variants */
    int flag = 0;
    while (!flag)
      MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(st.MPI_TAG == 51, "improbe tag %d", st.MPI_TAG);
    MPI_Request rq;
    MPI_Imrecv(&v, 1, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    CHECK(v == 33 && st.MPI_TAG == 51, "imrecv got %d", v);
    /* nothing left */
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "message left");
    /* MPI_PROC_NULL */
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "mprobe PROC_NULL");
    v = 5;
    MPI_Mrecv(&v, 1, MPI_INT, &msg, &st);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(msg == MPI_MESSAGE_NULL && v == 5 && n == 0 && st.MPI_SOURCE == MPI_PROC_NULL,
          "mrecv NO_PROC");
    MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "probe PROC_NULL");
    MPI_Iprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL, "iprobe PROC_NULL");
  }
  return mpitest_finalize();
}
