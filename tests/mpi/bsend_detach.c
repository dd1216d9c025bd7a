/* bsend_detach: buffered sends still pending at MPI_Buffer_detach (MPI 3.1 section 3.6.1:
 * detach blocks until every message in the buffer has been transmitted, then hands the
 * buffer back): rank 0 attaches a buffer, MPI_Bsends several messages (small ones and one of
 * 200 KB) to rank 1, reuses its send buffer at once, detaches, gets the address and size it
 * attached back, and scribbles over that buffer; rank 1 receives every message (its
 * receives may come after the detach) and must find each intact. Then a buffer is attached
 * again and the round repeated. Any number of ranks >= 2 (the suite uses 2). Plain MPI: the
 * test runs it under MPICH too. */
#define MPITEST_NAME "bsend_detach"
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define NMSG 5
#define BIG (50 * 1000) /* ints: 200 KB */

static int count_of(int m) { return m == NMSG - 1 ? BIG : 10 * (m + 1); }

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  mpitest_need(wsize() >= 2, "2 ranks");
  int me = wrank();
  int size = 0;
  for (int m = 0; m < NMSG; m++) {
    int s;
    MPI_Pack_size(count_of(m), MPI_INT, MPI_COMM_WORLD, &s);
    size += s + MPI_BSEND_OVERHEAD;
  }
  for (int round = 0; round < 2; round++) {
    if (me == 0) {
      char *buf = malloc((size_t)size);
      MPI_Buffer_attach(buf, size);
      int *data = malloc(BIG * sizeof(int));
      for (int m = 0; m < NMSG; m++) {
        for (int i = 0; i < count_of(m); i++)
          data[i] = 1000 * m + i + round;
        MPI_Bsend(data, count_of(m), MPI_INT, 1, m, MPI_COMM_WORLD);
      }
      memset(data, 0xff, BIG * sizeof(int)); /* the user buffer is free at once */
      void *back = NULL;
      int bsize = -1;
      MPI_Buffer_detach(&back, &bsize);
      CHECK(back == buf && bsize == size, "detach gave %p/%d, attached %p/%d", back, bsize,
            (void *)buf, size);
      memset(buf, 0xee, (size_t)size); /* ours again */
      free(buf);
      free(data);
      int go = 1;
      MPI_Send(&go, 1, MPI_INT, 1, 100, MPI_COMM_WORLD);
    } else if (me == 1) {
      int go = 0;
      /* the detach may have waited for these receives, or not: either way the data must be
       * the data sent */
      int *got = malloc(BIG * sizeof(int));
      for (int m = 0; m < NMSG; m++) {
        MPI_Status st;
        int cnt = -1, bad = 0;
        MPI_Recv(got, BIG, MPI_INT, 0, m, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        for (int i = 0; i < cnt; i++)
          bad += got[i] != 1000 * m + i + round;
        CHECK(cnt == count_of(m) && bad == 0, "round %d, message %d: %d ints, %d wrong", round, m,
              cnt, bad);
      }
      MPI_Recv(&go, 1, MPI_INT, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      free(got);
    }
  }
  return mpitest_finalize();
}
