/* partial_shared: SMPI_PARTIAL_SHARED_MALLOC keeps the bytes outside the listed ranges
 * private (HPL's panel: matrix data folded, indices private). Every rank allocates 16 MiB
 * with six folded ranges (some tiny, some not page-aligned); the private bytes hold the
 * rank's own pattern and survive other ranks' writes; even ranks send the whole buffer to the
 * next odd rank, whose private bytes must then be the sender's pattern. Under smpi, the whole
 * pages inside the folded ranges are one memory for all ranks: what rank 0 writes there, the
 * others read (the pages straddling a range's ends stay private). Under a real MPI, the macros
 * fall back to malloc/free and only the private parts are checked. Even number of ranks. */
#define MPITEST_NAME "partial_shared"
#include "mpitest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef SMPI_VERSION_MAJOR
#define FOLDED 1
#else
#define FOLDED 0
#define SMPI_PARTIAL_SHARED_MALLOC(n, offsets, count) malloc(n)
#define SMPI_SHARED_FREE(p) free(p)
#endif

#define SIZE ((size_t)16 << 20)
#define PAGE ((size_t)4096)

/* [start, end) pairs, sorted: folded */
static const size_t shared_ranges[] = {
    0,        0x123456, /* from the start, not page-aligned at the end */
    0x130000, 0x130001, /* one byte: no whole page */
    0x345678, 0x345789, /* less than a page */
    0x444444, 0x555555, /* unaligned both ends */
    0x555556, 0x560000, /* right after the previous one */
    0x800000, SIZE,     /* to the end */
};
#define NRANGES ((int)(sizeof shared_ranges / sizeof *shared_ranges / 2))

static int rank, size;

static unsigned char pattern(int r, size_t i) { return (unsigned char)(r * 31 + i % 251); }

/* the private bytes of buf (between the sorted ranges) hold r's pattern */
static void check_private(volatile unsigned char *buf, int r, const char *when)
{
  size_t bad = 0, first = 0, from = 0;
  for (int k = 0; k <= NRANGES; k++) {
    size_t to = k < NRANGES ? shared_ranges[2 * k] : SIZE;
    for (size_t i = from; i < to; i++)
      if (buf[i] != pattern(r, i) && bad++ == 0)
        first = i;
    if (k < NRANGES)
      from = shared_ranges[2 * k + 1];
  }
  CHECK(bad == 0, "%s: %zu private bytes differ from rank %d's pattern, first at 0x%zx", when,
        bad, r, first);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size % 2) {
    if (rank == 0)
      fprintf(stderr, "partial_shared: needs an even number of ranks\n");
    MPI_Finalize();
    return 1;
  }
  volatile unsigned char *buf = SMPI_PARTIAL_SHARED_MALLOC(SIZE, (size_t *)shared_ranges,
                                                           NRANGES);
  CHECK(buf != NULL, "allocation failed");
  if (!buf)
    MPI_Abort(MPI_COMM_WORLD, 1);
  /* everybody writes its pattern everywhere, the folded ranges included */
  for (size_t i = 0; i < SIZE; i++)
    buf[i] = pattern(rank, i);
  mpitest_barrier();
  check_private(buf, rank, "after every rank wrote");

  /* the whole pages of the folded ranges are shared: rank 0 writes, everyone reads */
  mpitest_barrier();
  if (rank == 0)
    for (int k = 0; k < NRANGES; k++)
      for (size_t i = shared_ranges[2 * k]; i < shared_ranges[2 * k + 1]; i++)
        buf[i] = 42;
  mpitest_barrier();
  if (FOLDED) {
    for (int k = 0; k < NRANGES; k++) {
      size_t s = (shared_ranges[2 * k] + PAGE - 1) / PAGE * PAGE;
      size_t e = shared_ranges[2 * k + 1] / PAGE * PAGE;
      size_t bad = 0;
      for (size_t i = s; i < e; i++)
        bad += buf[i] != 42;
      CHECK(bad == 0, "range %d: %zu bytes of its whole pages are not rank 0's", k, bad);
    }
  }
  check_private(buf, rank, "after rank 0 wrote the folded ranges");

  /* the private parts travel: even ranks send everything to the next odd rank */
  mpitest_barrier();
  if (rank % 2 == 0) {
    MPI_Send((void *)buf, (int)SIZE, MPI_BYTE, rank + 1, 5, MPI_COMM_WORLD);
  } else {
    MPI_Status st;
    int count;
    MPI_Recv((void *)buf, (int)SIZE, MPI_BYTE, rank - 1, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == (int)SIZE, "received %d bytes", count);
    check_private(buf, rank - 1, "after receiving the even rank's buffer");
  }
  SMPI_SHARED_FREE((void *)buf);

  return mpitest_finalize();
}
