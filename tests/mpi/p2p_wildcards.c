/* p2p_wildcards: MPI_ANY_SOURCE and MPI_ANY_TAG receives; the status says who sent what;
 * a wildcard receive posted before an exact one gets the first matching message; probes
 * with wildcards. Needs 4 ranks or more. */
#define MPITEST_NAME "p2p_wildcards"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size >= 4, "4 ranks or more");
  int go = 0;
  if (rank == 0) {
    /* 1. one message from every other rank, tag = its rank, received from anyone */
    int *seen = calloc((size_t)size, sizeof(int));
    for (int i = 1; i < size; i++) {
      MPI_Status st;
      int v = -1;
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < size, "source %d", st.MPI_SOURCE);
      CHECK(st.MPI_TAG == st.MPI_SOURCE && v == 100 * st.MPI_SOURCE, "tag %d value %d from %d",
            st.MPI_TAG, v, st.MPI_SOURCE);
      if (st.MPI_SOURCE >= 1 && st.MPI_SOURCE < size)
        seen[st.MPI_SOURCE]++;
    }
    for (int i = 1; i < size; i++)
      CHECK(seen[i] == 1, "rank %d seen %d times", i, seen[i]);
    free(seen);

    /* 2. wildcard receive posted before an exact one: it gets rank 1's first message */
    MPI_Request rq[2];
    int a = -1, b = -1;
    MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &rq[1]);
    MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECK(a == 1 && b == 2, "wildcard got %d, exact got %d (expected 1, 2)", a, b);

    /* 3. exact receive posted before a wildcard: the exact one gets the first */
    MPI_Irecv(&b, 1, MPI_INT, 2, 8, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(&go, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECK(b == 1 && a == 2, "exact got %d, wildcard got %d (expected 1, 2)", b, a);

    /* 4. probes: rank 3 sent tags 30 then 31; ANY_TAG probe sees 30, tag-31 probe sees 31 */
    MPI_Send(&go, 1, MPI_INT, 3, 0, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Probe(3, 31, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_TAG == 31, "probe tag %d", st.MPI_TAG);
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_TAG == 30 && st.MPI_SOURCE == 3, "wild probe: tag %d source %d", st.MPI_TAG,
          st.MPI_SOURCE);
    int v[2];
    MPI_Recv(&v[0], 1, MPI_INT, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&v[1], 1, MPI_INT, 3, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v[0] == 31 && v[1] == 30, "got %d %d", v[0], v[1]);
  } else {
    int v = 100 * rank;
    MPI_Send(&v, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
    if (rank <= 3)
      MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1 || rank == 2) {
      int tag = rank == 1 ? 7 : 8;
      for (int k = 1; k <= 2; k++)
        MPI_Send(&k, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    } else if (rank == 3) {
      int t30 = 30, t31 = 31;
      MPI_Send(&t30, 1, MPI_INT, 0, 30, MPI_COMM_WORLD);
      MPI_Send(&t31, 1, MPI_INT, 0, 31, MPI_COMM_WORLD);
    }
  }
  return mpitest_finalize();
}
