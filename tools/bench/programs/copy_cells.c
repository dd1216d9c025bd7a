/* The bandwidth-heavy cells of tools/bench/copy_floor.py, on ordinary (not folded) buffers
 * allocated once and reused, several calls per cell, as programs do:
 *
 *   bcast1m      MPI_Bcast of 1 MiB from rank 0, 4 times
 *   alltoall32k  MPI_Alltoall of 32 KiB blocks, 4 times
 *   alltoall1m   MPI_Alltoall of 1 MiB per rank (blocks of 1 MiB / ranks), 4 times
 *   allreduce1m  MPI_Allreduce (sum) of 1 MiB of doubles, 4 times
 *   pingpong     pairs (i, i + ranks/2) ping-pong 1, 4 and 16 MiB, 4 round trips each
 *   empty        nothing: the start-up and the end of the job, subtracted by copy_floor.py
 *
 * Each rank checks what it received (a wrong byte exits 1): the data must really move.
 * Rank 0 prints "copy_cells: case=CASE payload=B" where B is the payload the program hands
 * to MPI for delivery to another rank, summed over all ranks (the bytes the receivers must
 * end up with; an algorithm's own forwarding is extra). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024L * 1024L)
#define CALLS 4

static int bad(const char *what, int rank)
{
  fprintf(stderr, "copy_cells: rank %d: wrong data after %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

static long bcast1m(int rank, int size)
{
  long n = MIB;
  unsigned char *buf = malloc((size_t)n);
  for (int c = 0; c < CALLS; c++) {
    if (rank == 0)
      memset(buf, c + 1, (size_t)n);
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (buf[0] != c + 1 || buf[n - 1] != c + 1)
      bad("MPI_Bcast", rank);
  }
  free(buf);
  return (long)CALLS * (size - 1) * n;
}

static long alltoall(int rank, int size, long block)
{
  unsigned char *sb = malloc((size_t)(block * size)), *rb = malloc((size_t)(block * size));
  for (int c = 0; c < CALLS; c++) {
    for (int p = 0; p < size; p++)
      memset(sb + p * block, (rank + p + c) & 0xff, (size_t)block);
    MPI_Alltoall(sb, (int)block, MPI_BYTE, rb, (int)block, MPI_BYTE, MPI_COMM_WORLD);
    for (int p = 0; p < size; p++)
      if (rb[p * block] != ((p + rank + c) & 0xff) || rb[(p + 1) * block - 1] != rb[p * block])
        bad("MPI_Alltoall", rank);
  }
  free(sb);
  free(rb);
  return (long)CALLS * size * (size - 1) * block;
}

static long alltoall32k(int rank, int size) { return alltoall(rank, size, 32 * 1024); }
static long alltoall1m(int rank, int size) { return alltoall(rank, size, MIB / size); }

static long allreduce1m(int rank, int size)
{
  long n = MIB / (long)sizeof(double);
  double *sb = malloc((size_t)n * sizeof *sb), *rb = malloc((size_t)n * sizeof *rb);
  for (int c = 0; c < CALLS; c++) {
    for (long i = 0; i < n; i++)
      sb[i] = rank + c;
    MPI_Allreduce(sb, rb, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double want = (double)size * (size - 1) / 2 + (double)size * c;
    if (rb[0] != want || rb[n - 1] != want)
      bad("MPI_Allreduce", rank);
  }
  free(sb);
  free(rb);
  /* what reaches each rank: the other ranks' contributions, reduced (a nominal figure) */
  return (long)CALLS * (size - 1) * MIB;
}

static long empty(int rank, int size)
{
  (void)rank;
  (void)size;
  return 0;
}

static long pingpong(int rank, int size)
{
  const int rounds = 4;
  long max = 16 * MIB, payload = 0;
  unsigned char *buf = malloc((size_t)max);
  int half = size / 2;
  for (long s = MIB; s <= max; s *= 4) {
    for (int r = 0; r < rounds; r++) {
      if (rank < half) {
        memset(buf, r + 1, (size_t)s);
        MPI_Send(buf, (int)s, MPI_BYTE, rank + half, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)s, MPI_BYTE, rank + half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (buf[s - 1] != r + 2)
          bad("pong", rank);
      } else if (rank < 2 * half) {
        MPI_Recv(buf, (int)s, MPI_BYTE, rank - half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (buf[s - 1] != r + 1)
          bad("ping", rank);
        memset(buf, r + 2, (size_t)s);
        MPI_Send(buf, (int)s, MPI_BYTE, rank - half, 0, MPI_COMM_WORLD);
      }
    }
    payload += 2L * rounds * half * s;
  }
  free(buf);
  return payload;
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static const struct {
    const char *name;
    long (*run)(int rank, int size);
  } cases[] = {{"bcast1m", bcast1m},       {"alltoall32k", alltoall32k},
               {"alltoall1m", alltoall1m}, {"allreduce1m", allreduce1m},
               {"pingpong", pingpong},     {"empty", empty}};
  const char *want = argc > 1 ? argv[1] : "";
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (!strcmp(want, cases[i].name)) {
      long payload = cases[i].run(rank, size);
      if (rank == 0)
        printf("copy_cells: case=%s payload=%ld\n", want, payload);
      MPI_Finalize();
      return 0;
    }
  if (rank == 0)
    fprintf(stderr, "copy_cells: unknown case '%s'\n", want);
  MPI_Finalize();
  return 2;
}
