/* System calls an Alltoall makes to prepare its receive buffers (tests/resident): the
 * program defines mincore and madvise, so the simulator's calls (through the PLT) land here
 * first and are counted, then made with syscall(2).
 *
 *   a2a_calls CALLS BYTES   CALLS Alltoalls of BYTES per rank (fresh buffers, reused)
 *
 * prints "a2a_calls: mincore=N populate=N" (between the first and the last call, all ranks:
 * run it with -no-privatize, so that the counters are one for the process) and checks the
 * received bytes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static struct {
  long mincore, populate;
} calls;

int mincore(void *addr, size_t length, unsigned char *vec)
{
  calls.mincore++;
  return (int)syscall(SYS_mincore, addr, length, vec);
}

int madvise(void *addr, size_t length, int advice)
{
  if (advice == MADV_POPULATE_WRITE)
    calls.populate++;
  return (int)syscall(SYS_madvise, addr, length, advice);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ncalls = argc > 1 ? atoi(argv[1]) : 4;
  size_t bytes = argc > 2 ? (size_t)atol(argv[2]) : (size_t)1 << 20;
  size_t block = bytes / (size_t)size;
  /* mappings of their own: fresh pages, and too small for a transparent huge page (which a
   * heap block could share with a neighbour, resident before its first receive) */
  unsigned char *sb = mmap(NULL, block * size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *rb = mmap(NULL, block * size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (sb == MAP_FAILED || rb == MAP_FAILED) {
    perror("a2a_calls: mmap");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long m0 = calls.mincore, p0 = calls.populate;
  int bad = 0;
  for (int c = 0; c < ncalls; c++) {
    for (int p = 0; p < size; p++)
      memset(sb + p * block, (rank * 7 + p * 3 + c) & 0xff, block);
    MPI_Alltoall(sb, (int)block, MPI_BYTE, rb, (int)block, MPI_BYTE, MPI_COMM_WORLD);
    for (int p = 0; p < size; p++)
      for (size_t i = 0; i < block; i += 509)
        bad += rb[p * block + i] != ((p * 7 + rank * 3 + c) & 0xff);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int total_bad;
  MPI_Reduce(&bad, &total_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("a2a_calls: mincore=%ld populate=%ld bad=%d\n", calls.mincore - m0,
           calls.populate - p0, total_bad);
  munmap(sb, block * size);
  munmap(rb, block * size);
  MPI_Finalize();
  return 0;
}
