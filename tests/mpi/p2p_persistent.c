/* p2p_persistent: persistent requests of every send mode, started many times with
 * MPI_Start and MPI_Startall, in both directions, with the buffers changing in between;
 * a wait on an inactive request returns at once with an empty status; MPI_Request_free
 * releases them. Needs 2 ranks. */
#define MPITEST_NAME "p2p_persistent"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

#define ITERS 20
#define N 20000 /* ints: rendezvous-sized */

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size == 2, "2 ranks");
  int peer = 1 - rank;
  /* heap, not static: without privatization all ranks would share static arrays */
  int *sbig = malloc(N * sizeof(int)), *rbig = malloc(N * sizeof(int));
  int ssmall[4];
  int bsize = 4 * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  void *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);

  /* requests: 0 standard small, 1 standard big, 2 synchronous small, 3 buffered small,
   * 4 ready small (its receive is posted before the other side's go message), 5..9 recvs */
  MPI_Request rq[10];
  MPI_Send_init(ssmall, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Send_init(sbig, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[1]);
  MPI_Ssend_init(ssmall, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[2]);
  MPI_Bsend_init(ssmall, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[3]);
  MPI_Rsend_init(ssmall, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[4]);
  int(*rs)[N] = malloc(5 * sizeof *rs);
  for (int t = 0; t < 5; t++)
    MPI_Recv_init(t == 1 ? rbig : rs[t], t == 1 ? N : 4, MPI_INT, peer, t, MPI_COMM_WORLD,
                  &rq[5 + t]);

  /* an inactive request: immediate, empty status */
  MPI_Status st;
  MPI_Wait(&rq[0], &st);
  CHECK(rq[0] != MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
        "inactive wait: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
  int flag = 0;
  MPI_Test(&rq[5], &flag, &st);
  CHECK(flag && rq[5] != MPI_REQUEST_NULL, "inactive test");

  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < 4; i++)
      ssmall[i] = 1000 * rank + 10 * it + i;
    sbig[0] = it;
    sbig[N - 1] = -it - rank;
    /* receives first, then a go message, so that the ready send finds its receive */
    MPI_Startall(5, &rq[5]);
    int go = it, got;
    MPI_Sendrecv(&go, 1, MPI_INT, peer, 100, &got, 1, MPI_INT, peer, 100, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (it % 2) {
      MPI_Startall(5, rq);
    } else {
      for (int i = 0; i < 5; i++)
        MPI_Start(&rq[i]);
    }
    MPI_Status sts[10];
    MPI_Waitall(10, rq, sts);
    for (int i = 0; i < 10; i++)
      CHECK(rq[i] != MPI_REQUEST_NULL, "persistent request %d freed by a wait", i);
    for (int t = 0; t < 5; t++) {
      if (t == 1) {
        CHECK(rbig[0] == it && rbig[N - 1] == -it - peer, "iteration %d: big %d %d", it, rbig[0],
              rbig[N - 1]);
        continue;
      }
      CHECK(rs[t][0] == 1000 * peer + 10 * it && rs[t][3] == 1000 * peer + 10 * it + 3,
            "iteration %d mode %d: got %d", it, t, rs[t][0]);
      CHECK(sts[5 + t].MPI_SOURCE == peer && sts[5 + t].MPI_TAG == t, "status of %d", t);
    }
  }
  for (int i = 0; i < 10; i++) {
    MPI_Request_free(&rq[i]);
    CHECK(rq[i] == MPI_REQUEST_NULL, "free");
  }
  int dsize;
  void *dbuf;
  MPI_Buffer_detach(&dbuf, &dsize);
  CHECK(dbuf == bbuf && dsize == bsize, "detach gave %p %d", dbuf, dsize);
  free(bbuf);
  free(sbig);
  free(rbig);
  free(rs);

  return mpitest_finalize();
}
