/* shared_malloc: memory folding from an MPI program (SMPI_SHARED_MALLOC, SMPI_SHARED_FREE,
 * SMPI_SHARED_CALL). Every rank folds 256 MiB; under smpi (smpi/shared-malloc:global, the
 * default) they are one block: what rank 0 writes, the others read, also one block further;
 * messages sent from and received into folded memory arrive with the right count;
 * SMPI_SHARED_CALL evaluates its function once for the whole job. Under a real MPI the macros
 * fall back to malloc/free/a plain call and only what MPI guarantees is checked.
 * Any number of ranks >= 2. */
#define MPITEST_NAME "shared_malloc"
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_VERSION_MAJOR
#define FOLDED 1
#else
#define FOLDED 0
#define SMPI_SHARED_MALLOC(n) malloc(n)
#define SMPI_SHARED_FREE(p) free(p)
#define SMPI_SHARED_CALL(func, input, ...) func(__VA_ARGS__)
#endif

#define MiB ((size_t)1 << 20)

static int rank, size;
static int table_calls; /* a global: each rank counts the calls it made itself */

static double *make_table(int n)
{
  table_calls++;
  double *t = malloc((size_t)n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = i * 0.25;
  return t;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* 1. folding: one block for everybody */
  volatile unsigned char *big = SMPI_SHARED_MALLOC(256 * MiB);
  CHECK(big != NULL, "SMPI_SHARED_MALLOC(256 MiB) failed");
  if (!big)
    MPI_Abort(MPI_COMM_WORLD, 1);
  big[255 * MiB] = 1; /* the whole range is usable */
  mpitest_barrier();
  if (rank == 0)
    big[123] = 77;
  mpitest_barrier();
  if (FOLDED) {
    CHECK(big[123] == 77, "rank 0's write is not visible: %d", big[123]);
    CHECK(big[MiB + 123] == 77, "the block does not repeat every MiB: %d", big[MiB + 123]);
  }
  mpitest_barrier();

  /* 2. messages from and into folded memory */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Status st;
  int count = -1;
  MPI_Sendrecv((void *)big, 4 * 1024 * 1024, MPI_BYTE, right, 1, (void *)(big + 8 * MiB),
               4 * 1024 * 1024, MPI_BYTE, left, 1, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == 4 * 1024 * 1024 && st.MPI_SOURCE == left, "count %d from %d", count,
        st.MPI_SOURCE);
  /* a private buffer received from folded memory is complete in size */
  char *priv = malloc(MiB);
  MPI_Sendrecv((void *)big, (int)MiB, MPI_BYTE, right, 2, priv, (int)MiB, MPI_BYTE, left, 2,
               MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == (int)MiB, "count %d", count);
  free(priv);
  SMPI_SHARED_FREE((void *)big);

  /* 3. SMPI_SHARED_CALL: the function runs once in the whole job */
  double *t1 = SMPI_SHARED_CALL(make_table, "n=1000", 1000);
  double *t2 = SMPI_SHARED_CALL(make_table, "n=1000", 1000);
  CHECK(t1 && t1[999] == 999 * 0.25, "wrong table");
  CHECK(FOLDED ? t1 == t2 : t1 != t2, "t1 %p t2 %p", (void *)t1, (void *)t2);
  int calls = table_calls, total = 0;
  if (rank == 0) {
    total = calls;
    for (int r = 1; r < size; r++) {
      MPI_Recv(&calls, 1, MPI_INT, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += calls;
    }
    CHECK(total == (FOLDED ? 1 : 2 * size), "make_table ran %d times in the job", total);
  } else {
    MPI_Send(&calls, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
  if (!FOLDED)
    free(t2);
  if (!FOLDED || rank == 0)
    free(t1); /* under smpi, one table for all, freed once */
  mpitest_barrier();

  return mpitest_finalize();
}
