/* One MPI program for every benchmark case, so each simulator builds it once.
 *
 *   bench_mpi CASE        CASE: pingpong tokenring shiftring alltoall allreduce bcast reduceburst
 *
 * Rank 0 prints "bench: case=CASE msgs=M" where M is the number of point-to-point messages
 * the case implies (for collectives: a nominal count, independent of the algorithm, so that
 * "messages per wall-second" compares the two simulators on the same work).
 * Buffers come from SMPI_SHARED_MALLOC: their content does not matter and 1024 ranks of
 * private 1 MiB buffers would not fit, on either simulator. No global variables: the
 * harness runs without privatization (smpi/privatization:no), where globals are shared. */
#include <mpi.h> /* also gives SMPI_SHARED_MALLOC, on both simulators */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024L
#define MIB (1024L * 1024L)


/* Pairs (i, i + size/2) ping-pong concurrently, 4 round trips per size, sizes 1 B, 4 B, ..
 * 16 MiB (powers of 4): with one pair at 2 ranks this is the classic ping-pong. */
static long pingpong(int rank, int size)
{
  const int rounds = 4;
  long max = 16 * MIB, msgs = 0;
  char *buf = SMPI_SHARED_MALLOC((size_t)max);
  int half = size / 2;
  for (long s = 1; s <= max; s *= 4) {
    for (int r = 0; r < rounds; r++) {
      if (rank < half) {
        MPI_Send(buf, (int)s, MPI_CHAR, rank + half, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)s, MPI_CHAR, rank + half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank < 2 * half) {
        MPI_Recv(buf, (int)s, MPI_CHAR, rank - half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)s, MPI_CHAR, rank - half, 0, MPI_COMM_WORLD);
      }
    }
    msgs += 2L * rounds * half;
  }
  SMPI_SHARED_FREE(buf);
  return msgs;
}

/* One 8-byte token goes around the ring 10 times: strictly sequential messages. */
static long tokenring(int rank, int size)
{
  const int laps = 10;
  long token[1] = {0};
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int l = 0; l < laps; l++) {
    if (rank == 0) {
      MPI_Send(token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
      MPI_Recv(token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token[0]++;
      MPI_Send(token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
    }
  }
  return (long)laps * size;
}

/* Every rank sends 8 bytes to its right neighbour at once, 10 times: all messages concurrent. */
static long shiftring(int rank, int size)
{
  const int steps = 10;
  long out = rank, in = 0;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int k = 0; k < steps; k++)
    MPI_Sendrecv(&out, 1, MPI_LONG, next, 0, &in, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  return (long)steps * size;
}

/* Alltoall, blocks of 1 KiB up to 1 MiB total per rank (4 sizes, capped by total). */
static long alltoall(int rank, int size)
{
  (void)rank;
  long msgs = 0;
  long total_cap = 1 * MIB * 4; /* per-rank send buffer bound */
  for (long b = KIB; b <= MIB; b *= 32) {
    if (b * size > total_cap && b != KIB)
      break;
    char *sb = SMPI_SHARED_MALLOC((size_t)(b * size));
    char *rb = SMPI_SHARED_MALLOC((size_t)(b * size));
    MPI_Alltoall(sb, (int)b, MPI_CHAR, rb, (int)b, MPI_CHAR, MPI_COMM_WORLD);
    msgs += (long)size * (size - 1);
    SMPI_SHARED_FREE(sb);
    SMPI_SHARED_FREE(rb);
  }
  return msgs;
}

static int ilog2ceil(int n)
{
  int l = 0;
  while ((1 << l) < n)
    l++;
  return l;
}

/* Allreduce of 1 KiB, 32 KiB, 1 MiB of doubles (nominal messages: recursive doubling). */
static long allreduce(int rank, int size)
{
  (void)rank;
  long msgs = 0;
  for (long b = KIB; b <= MIB; b *= 32) {
    double *sb = SMPI_SHARED_MALLOC((size_t)b);
    double *rb = SMPI_SHARED_MALLOC((size_t)b);
    MPI_Allreduce(sb, rb, (int)(b / sizeof(double)), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    msgs += (long)size * ilog2ceil(size);
    SMPI_SHARED_FREE(sb);
    SMPI_SHARED_FREE(rb);
  }
  return msgs;
}

/* Bcast of 1 KiB, 32 KiB, 1 MiB from rank 0 (nominal messages: size - 1). */
static long bcast(int rank, int size)
{
  (void)rank;
  long msgs = 0;
  for (long b = KIB; b <= MIB; b *= 32) {
    char *buf = SMPI_SHARED_MALLOC((size_t)b);
    MPI_Bcast(buf, (int)b, MPI_CHAR, 0, MPI_COMM_WORLD);
    msgs += size - 1;
    SMPI_SHARED_FREE(buf);
  }
  return msgs;
}

/* 64 back-to-back MPI_Reduce of 8 bytes to rank 0 (nominal messages: size - 1 each). */
static long reduceburst(int rank, int size)
{
  double in = rank, out = 0;
  for (int k = 0; k < 64; k++)
    MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return 64L * (size - 1);
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
  } cases[] = {{"pingpong", pingpong},   {"tokenring", tokenring}, {"shiftring", shiftring},
               {"alltoall", alltoall},   {"allreduce", allreduce}, {"bcast", bcast},
               {"reduceburst", reduceburst}};
  const char *want = argc > 1 ? argv[1] : "";
  int found = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (strcmp(want, cases[i].name))
      continue;
    found = 1;
    long msgs = cases[i].run(rank, size);
    if (rank == 0)
      printf("bench: case=%s msgs=%ld\n", want, msgs);
  }
  if (!found && rank == 0)
    fprintf(stderr, "bench_mpi: unknown case '%s'\n", want);
  MPI_Finalize();
  return found ? 0 : 2;
}
