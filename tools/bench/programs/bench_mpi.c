/* One MPI program for every benchmark case, so each simulator builds it once.
 *
 *   bench_mpi CASE [CALLS [private]]   CASE: pingpong tokenring shiftring alltoall allreduce
 *                                          bcast reduceburst stencil stencilflops empty
 *
 * CALLS (default 1): the collective cases (alltoall, allreduce, bcast) call the collective
 * that many times per size, as a program in a loop does; "private": their buffers come from
 * malloc (written once) instead of SMPI_SHARED_MALLOC, so payloads are really copied.
 *
 * Rank 0 prints "bench: case=CASE msgs=M" where M is the number of point-to-point messages
 * the case implies (for collectives: a nominal count, independent of the algorithm, so that
 * "messages per wall-second" compares the two simulators on the same work).
 * Buffers come from SMPI_SHARED_MALLOC: their content does not matter and 1024 ranks of
 * private 1 MiB buffers would not fit, on either simulator (the stencil's small blocks are
 * private: its kernel computes on them), unless "private" asks for them. One global, written
 * alike by every rank: the harness runs most cases without privatization
 * (smpi/privatization:no), where globals are shared.
 *
 * "empty" does nothing between MPI_Init and MPI_Finalize: the start-up and end of a job with
 * the same program, options and platform, which the harness shows beside the payload floor
 * (tools/bench/README.md). */
#include <mpi.h> /* also gives SMPI_SHARED_MALLOC, on both simulators */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024L
#define MIB (1024L * 1024L)

/* set from the command line by every rank alike (so shared globals are harmless) */
static struct bench_opts {
  int calls;    /* collective calls per size */
  int private_; /* buffers from malloc instead of SMPI_SHARED_MALLOC */
} opts = {1, 0};

static void *buf_alloc(size_t n)
{
  if (!opts.private_)
    return SMPI_SHARED_MALLOC(n);
  char *p = malloc(n);
  if (!p) {
    fprintf(stderr, "bench_mpi: out of memory (%zu bytes)\n", n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(p, 1, n);
  return p;
}

static void buf_free(void *p)
{
  if (opts.private_)
    free(p);
  else
    SMPI_SHARED_FREE(p);
}

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
    char *sb = buf_alloc((size_t)(b * size));
    char *rb = buf_alloc((size_t)(b * size));
    for (int c = 0; c < opts.calls; c++) {
      MPI_Alltoall(sb, (int)b, MPI_CHAR, rb, (int)b, MPI_CHAR, MPI_COMM_WORLD);
      msgs += (long)size * (size - 1);
    }
    buf_free(sb);
    buf_free(rb);
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
    double *sb = buf_alloc((size_t)b);
    double *rb = buf_alloc((size_t)b);
    for (int c = 0; c < opts.calls; c++) {
      MPI_Allreduce(sb, rb, (int)(b / sizeof(double)), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      msgs += (long)size * ilog2ceil(size);
    }
    buf_free(sb);
    buf_free(rb);
  }
  return msgs;
}

/* Bcast of 1 KiB, 32 KiB, 1 MiB from rank 0 (nominal messages: size - 1). */
static long bcast(int rank, int size)
{
  (void)rank;
  long msgs = 0;
  for (long b = KIB; b <= MIB; b *= 32) {
    char *buf = buf_alloc((size_t)b);
    for (int c = 0; c < opts.calls; c++) {
      MPI_Bcast(buf, (int)b, MPI_CHAR, 0, MPI_COMM_WORLD);
      msgs += size - 1;
    }
    buf_free(buf);
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

/* 2-D Jacobi stencil on a P x Q periodic process grid (P <= Q, P the largest divisor of size
 * not above its square root; 16 ranks: 4 x 4, 32: 4 x 8). Each of ST_STEPS iterations
 * exchanges halos with the 4 neighbours (rows contiguous, columns packed; tags name the
 * direction, so a neighbour that is both up and down still matches) and then updates the
 * ST_N x ST_N local block with the 5-point kernel:
 *
 *          up (tag 0 from below)
 *   left    [ ST_N x ST_N ]   right         halo: row 0, row ST_N+1, column 0, column ST_N+1
 *          down (tag 1 from above)
 *
 * sampled = 1 ("stencil"): the kernel really runs, in SimGrid 3.32's loop form of
 *   SMPI_SAMPLE_LOCAL (one sample = one row): each rank times its first ST_SAMPLES rows,
 *   later rows are skipped and their estimated cost injected. Needs
 *   smpi/simulate-computation:yes; the simulated time depends on each simulator's
 *   measurements, so it is only reported.
 * sampled = 0 ("stencilflops"): the kernel never runs; SMPI_SAMPLE_FLOPS injects its nominal
 *   flop count (5 per point), so the simulated time is deterministic and comparable. */
#define ST_N 64
#define ST_STEPS 20
#define ST_SAMPLES 16
static long stencil_run(int rank, int size, int sampled)
{
  int P = 1;
  for (int d = 1; d * d <= size; d++)
    if (size % d == 0)
      P = d;
  int Q = size / P, r = rank / Q, c = rank % Q;
  int up = ((r + P - 1) % P) * Q + c, down = ((r + 1) % P) * Q + c;
  int left = r * Q + (c + Q - 1) % Q, right = r * Q + (c + 1) % Q;
  const int ld = ST_N + 2;
  double *u = calloc((size_t)ld * ld, sizeof *u), *v = calloc((size_t)ld * ld, sizeof *v);
  double *cols = malloc(4 * ST_N * sizeof *cols); /* send left, send right, recv left, right */
  if (!u || !v || !cols) {
    fprintf(stderr, "bench_mpi: stencil: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 1; i <= ST_N; i++)
    for (int j = 1; j <= ST_N; j++)
      u[i * ld + j] = (double)((rank + i * j) % 7);
  for (int s = 0; s < ST_STEPS; s++) {
    MPI_Request rq[8];
    for (int i = 0; i < ST_N; i++) {
      cols[i] = u[(i + 1) * ld + 1];
      cols[ST_N + i] = u[(i + 1) * ld + ST_N];
    }
    MPI_Irecv(&u[(ST_N + 1) * ld + 1], ST_N, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&u[1], ST_N, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(&cols[2 * ST_N], ST_N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[2]);
    MPI_Irecv(&cols[3 * ST_N], ST_N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &rq[3]);
    MPI_Isend(&u[ld + 1], ST_N, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &rq[4]);
    MPI_Isend(&u[ST_N * ld + 1], ST_N, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &rq[5]);
    MPI_Isend(&cols[ST_N], ST_N, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[6]);
    MPI_Isend(&cols[0], ST_N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &rq[7]);
    MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < ST_N; i++) {
      u[(i + 1) * ld] = cols[2 * ST_N + i];
      u[(i + 1) * ld + ST_N + 1] = cols[3 * ST_N + i];
    }
    if (sampled) {
      SMPI_SAMPLE_LOCAL(int i = 1, i <= ST_N, i++, ST_SAMPLES, 0.0)
      {
        for (int j = 1; j <= ST_N; j++)
          v[i * ld + j] = 0.2 * (u[i * ld + j] + u[(i - 1) * ld + j] + u[(i + 1) * ld + j] +
                                 u[i * ld + j - 1] + u[i * ld + j + 1]);
      }
    } else {
      SMPI_SAMPLE_FLOPS(5.0 * ST_N * ST_N) {}
    }
    double *t = u;
    u = v;
    v = t;
  }
  free(u);
  free(v);
  free(cols);
  return 4L * ST_STEPS * size;
}

static long stencil(int rank, int size) { return stencil_run(rank, size, 1); }
static long stencilflops(int rank, int size) { return stencil_run(rank, size, 0); }

static long empty(int rank, int size)
{
  (void)rank;
  (void)size;
  return 0;
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
  } cases[] = {{"pingpong", pingpong},         {"tokenring", tokenring},
               {"shiftring", shiftring},       {"alltoall", alltoall},
               {"allreduce", allreduce},       {"bcast", bcast},
               {"reduceburst", reduceburst},   {"stencil", stencil},
               {"stencilflops", stencilflops}, {"empty", empty}};
  const char *want = argc > 1 ? argv[1] : "";
  opts.calls = argc > 2 ? atoi(argv[2]) : 1;
  opts.private_ = argc > 3 && !strcmp(argv[3], "private");
  if (opts.calls < 1)
    opts.calls = 1;
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
