/* p2p_bsend_space: the attached buffer's space comes back once a buffered message has been
 * sent, and MPI_Buffer_detach waits for the messages still in it. Rank 1 posts its receives
 * first; rank 0 fills the buffer with three MPI_Bsend, which go out at once to the posted
 * receives, then an MPI_Ibsend must find room (it used to fail with MPI_ERR_BUFFER while the
 * three were in flight: the space came back only on delivery). Then three more MPI_Bsend
 * whose receives rank 1 posts later: MPI_Buffer_detach returns only after they were posted
 * (a check of simulated dates, smpi only: MPICH sends such messages eagerly), and the data
 * arrives intact although rank 0 reuses the buffer at once. Needs 2 ranks. */
#define MPITEST_NAME "p2p_bsend_space"
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define N 1000 /* ints per message */

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  mpitest_need(size == 2, "2 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static int d[7][N];
  int go = 1;
  if (rank == 0) {
    for (int t = 0; t < 7; t++)
      for (int i = 0; i < N; i++)
        d[t][i] = 1000 * t + i;
    int bsize = 3 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD); /* 12 384 bytes */
    char *buf = malloc((size_t)bsize);
    MPI_Buffer_attach(buf, bsize);
    MPI_Recv(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int t = 0; t < 3; t++)
      CHECK_CLASS(MPI_Bsend(d[t], N, MPI_INT, 1, t, MPI_COMM_WORLD), MPI_SUCCESS, "Bsend");
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK_CLASS(MPI_Ibsend(d[3], N, MPI_INT, 1, 3, MPI_COMM_WORLD, &rq), MPI_SUCCESS,
                "Ibsend after three Bsend to posted receives");
    if (rq != MPI_REQUEST_NULL)
      MPI_Wait(&rq, MPI_STATUS_IGNORE);

    /* three more, not received yet: detaching waits for them */
    for (int t = 4; t < 7; t++)
      CHECK_CLASS(MPI_Bsend(d[t], N, MPI_INT, 1, t, MPI_COMM_WORLD), MPI_SUCCESS, "Bsend");
    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    double detached = MPI_Wtime();
    CHECK(back == buf && backsize == bsize, "detach: %p %d", back, backsize);
    memset(buf, 0xff, (size_t)bsize);
    free(buf);
    double posted;
    MPI_Recv(&posted, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef SMPI_VERSION_MAJOR
    CHECK(detached >= posted, "MPI_Buffer_detach returned at %g, before the receives (%g)",
          detached, posted);
#else
    (void)detached;
#endif
  } else {
    static int r[7][N];
    MPI_Request rq[7];
    for (int t = 0; t < 4; t++)
      MPI_Irecv(r[t], N, MPI_INT, 0, t, MPI_COMM_WORLD, &rq[t]);
    MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    /* later: a polling loop of simulated time (real time elsewhere) */
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 1e-3)
      ;
    double posted = MPI_Wtime();
    for (int t = 4; t < 7; t++)
      MPI_Irecv(r[t], N, MPI_INT, 0, t, MPI_COMM_WORLD, &rq[t]);
    MPI_Waitall(3, rq + 4, MPI_STATUSES_IGNORE);
    for (int t = 0; t < 7; t++)
      CHECK(r[t][0] == 1000 * t && r[t][N - 1] == 1000 * t + N - 1, "message %d: %d ... %d", t,
            r[t][0], r[t][N - 1]);
    MPI_Send(&posted, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
  }
  return mpitest_finalize();
}
