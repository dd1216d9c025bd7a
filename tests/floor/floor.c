/* Programs whose payload floor parts are known (check_floor.py holds the arithmetic):
 *
 *   reduce  rank 0 reduces locally: 1000 doubles (MPI_SUM, 8000 B), a vector of 100
 *           doubles at stride 2 (MPI_MAX, packed: 800 B), 1000 doubles into folded memory
 *           (not computed: 0 B), 1000 doubles with a user op (the user's code: 0 B); then
 *           MPI_Reduce of 1000 doubles from 2 ranks to rank 0 (8000 B): 16800 B in 3
 *   spin    rank 0 burns 50 ms of CPU between two MPI calls: the program's own time
 *   polls   rank 0 polls MPI_Wtime 200 000 times with a tiny kernel between two polls (each
 *           burst far under smpi/cpu-threshold, none injected, as in OSU's overlap loops):
 *           the kernels are the program's time too; rank 0 prints the loop's thread CPU
 *   rdv3    rank 0 sends 3 MiB to rank 1 (rendezvous: 1 copy; working set 6 MiB)
 *   many    rank 0 sends the same 1 MiB buffer to rank 1 300 times (300 MiB copied, but
 *           the memory touched is that of the process: its peak RSS)
 *
 * First touches (pages of the program's memory a received payload writes first; buffers
 * mapped fresh with mmap, so that no page of them can be resident before):
 *
 *   fresh    rank 1 receives 4 MiB twice into a buffer it never wrote: 1024 pages, once
 *   touched  the same after rank 1 wrote its buffer: 0
 *   bcast    MPI_Bcast of 1 MiB from rank 0 into the other ranks' fresh buffers: 256 each
 *   reduce1m MPI_Reduce of 1 MiB of doubles into rank 0's fresh buffer: its 256 pages, not
 *            the root's scratch buffers (the simulator's own memory)
 *   again M  MPI_Allreduce of M MiB three times on written buffers: rank 0 prints the page
 *            faults of the whole process during the third call (getrusage): the collective's
 *            scratch is reused, not faulted in again (the heap's below 32 MiB, the pool of
 *            collectives/coll_ops.c above). The third, not the second: at 1 MiB the second
 *            call still places one rank's scratch on heap pages never touched (256 faults,
 *            every time with computation not measured); the heap is settled after it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define MIB (1024 * 1024)

static void fail(const char *what)
{
  fprintf(stderr, "floor: wrong result in %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void mine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  for (int i = 0; i < *len; i++)
    ((double *)inout)[i] += ((double *)in)[i];
}

static void reduce(int rank)
{
  enum { N = 1000 };
  double *in = malloc(N * sizeof *in), *io = malloc(N * sizeof *io);
  for (int i = 0; i < N; i++)
    in[i] = i;
  if (rank == 0) {
    for (int i = 0; i < N; i++)
      io[i] = 2 * i;
    MPI_Reduce_local(in, io, N, MPI_DOUBLE, MPI_SUM);
    if (io[0] != 0 || io[N - 1] != 3 * (N - 1))
      fail("MPI_Reduce_local sum");
    MPI_Datatype vec;
    MPI_Type_vector(100, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 200; i++)
      io[i] = 150;
    MPI_Reduce_local(in, io, 1, vec, MPI_MAX);
    if (io[0] != 150 || io[198] != 198 || io[199] != 150)
      fail("MPI_Reduce_local vector max");
    MPI_Type_free(&vec);
    double *folded = SMPI_SHARED_MALLOC(N * sizeof *folded);
    MPI_Reduce_local(in, folded, N, MPI_DOUBLE, MPI_SUM);
    SMPI_SHARED_FREE(folded);
    MPI_Op op;
    MPI_Op_create(mine, 1, &op);
    MPI_Reduce_local(in, io, N, MPI_DOUBLE, op);
    MPI_Op_free(&op);
  }
  MPI_Reduce(in, io, N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && io[N - 1] != 2 * (N - 1))
    fail("MPI_Reduce");
  free(in);
  free(io);
}

static void spin(int rank)
{
  if (rank == 0) {
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    volatile double x = 0;
    do {
      for (int i = 0; i < 10000; i++)
        x += i;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 50e6);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void send(int rank, int bytes, int times)
{
  unsigned char *buf = malloc((size_t)bytes);
  memset(buf, rank + 1, (size_t)bytes);
  for (int k = 0; k < times; k++) {
    if (rank == 0)
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 1 && (buf[0] != 1 || buf[bytes - 1] != 1))
    fail("send");
  free(buf);
}

static void *fresh_pages(size_t bytes)
{
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    fail("mmap");
  return p;
}

static void first_touch(int rank, int write_first)
{
  size_t bytes = 4 * MIB;
  unsigned char *buf = fresh_pages(bytes);
  if (rank == 0 || write_first)
    memset(buf, rank + 1, bytes);
  for (int k = 0; k < 2; k++) {
    if (rank == 0)
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 1 && (buf[0] != 1 || buf[bytes - 1] != 1))
    fail("first touch");
  munmap(buf, bytes);
}

static void bcast(int rank)
{
  unsigned char *buf = fresh_pages(MIB);
  if (rank == 0)
    memset(buf, 7, MIB);
  MPI_Bcast(buf, MIB, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (buf[0] != 7 || buf[MIB - 1] != 7)
    fail("bcast");
  munmap(buf, MIB);
}

static void reduce1m(int rank, int size)
{
  int n = MIB / (int)sizeof(double);
  double *in = malloc(MIB), *out = fresh_pages(MIB);
  for (int i = 0; i < n; i++)
    in[i] = rank;
  MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && (out[0] != size * (size - 1) / 2 || out[n - 1] != out[0]))
    fail("reduce1m");
  free(in);
  munmap(out, MIB);
}

static long faults(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

#define CALLS_AGAIN 3
static void again(int rank, int mib)
{
  int n = mib * (MIB / (int)sizeof(double));
  double *in = malloc((size_t)mib * MIB), *out = malloc((size_t)mib * MIB);
  for (int i = 0; i < n; i++)
    in[i] = out[i] = 1;
  long before = 0;
  for (int k = 0; k < CALLS_AGAIN; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (k == CALLS_AGAIN - 1)
      before = faults();
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("floor: again faults=%ld\n", faults() - before);
  free(in);
  free(out);
}

static volatile double poll_sink;

static void polls(int rank)
{
  if (rank == 0) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    double x = 1.0, w = 0;
    for (int p = 0; p < 200000; p++) {
      for (int i = 0; i < 64; i++) /* a dependent chain: ~0.1 us, never vectorized away */
        x = x * 1.0000001 + 0.5;
      w += MPI_Wtime();
    }
    poll_sink = x + w;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    printf("floor: polls loop cpu %.6f s\n",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "reduce"))
    reduce(rank);
  else if (!strcmp(c, "spin"))
    spin(rank);
  else if (!strcmp(c, "polls"))
    polls(rank);
  else if (!strcmp(c, "rdv3"))
    send(rank, 3 * MIB, 1);
  else if (!strcmp(c, "many"))
    send(rank, MIB, 300);
  else if (!strcmp(c, "fresh") || !strcmp(c, "touched"))
    first_touch(rank, !strcmp(c, "touched"));
  else if (!strcmp(c, "bcast"))
    bcast(rank);
  else if (!strcmp(c, "reduce1m"))
    reduce1m(rank, size);
  else if (!strcmp(c, "again") && argc > 2 && atoi(argv[2]) > 0)
    again(rank, atoi(argv[2]));
  else {
    if (rank == 0)
      fprintf(stderr, "floor: unknown case '%s'\n", c);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    printf("floor: %s OK\n", c);
  MPI_Finalize();
  return 0;
}
