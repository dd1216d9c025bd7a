/* The cuts of issue 27's 16-rank payload cells (check_cuts.py runs each case):
 *
 *   reduce     MPI_Reduce of 1 MiB of doubles to root R (argument 2), in place or not
 *              (argument 3 "inplace"): the root receives the last rank's vector straight
 *              into its result when rbuf is not its own vector (display-timing's "bytes
 *              copied" shows one vector less); rank R prints the page faults of the first
 *              call (getrusage) and checks the sums
 *   prefault   rank 1 receives 4 MiB into pages it never wrote, in messages of argument 2
 *              bytes (default: one message): the simulator populates them with one system
 *              call per message, so the copy traps on (almost) none of them; rank 1
 *              prints the page-fault traps of the receive, counted by the kernel's software
 *              event (perf_event_open, this thread only: gup's population is not a trap)
 *              and the resident pages after it (mincore)
 *
 *   sumbits    MPI_Reduce_local(MPI_SUM) on doubles, floats, ints and longs (random values,
 *              infinities, NaNs, denormals; 1 000 003 elements: blocks of 8 and a tail)
 *              through the vectorized path (aligned, apart: op.c's sum_fast) and the scalar
 *              one (the same values one byte off their alignment): the same bits, but
 *              for the payload of a sum of two NaNs (CUTS_DEBUG=1 prints the first
 *              elements that differ)
 *
 * Every rank of a run is a thread of one process: the counters see the whole simulation. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIB (1024 * 1024)

static long faults(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

static void reduce(int rank, int size, int root, int inplace)
{
  int n = MIB / (int)sizeof(double);
  double *in = malloc(MIB), *out = malloc(MIB);
  for (int i = 0; i < n; i++)
    in[i] = rank + 1, out[i] = -1; /* both written: their pages are resident */
  void *sbuf = inplace && rank == root ? MPI_IN_PLACE : in;
  if (inplace && rank == root)
    memcpy(out, in, MIB);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank's own faults before the count starts */
  long before = faults();
  MPI_Reduce(sbuf, out, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  long took = faults() - before;
  double want = (double)size * (size + 1) / 2;
  if (rank == root) {
    for (int i = 0; i < n; i++)
      if (out[i] != want) {
        fprintf(stderr, "cuts: reduce: out[%d] = %g, not %g\n", i, out[i], want);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    printf("cuts: reduce faults=%ld\n", took);
  }
  free(in);
  free(out);
}

static void prefault(int rank, size_t block)
{
  size_t bytes = 4 * MIB, psz = (size_t)sysconf(_SC_PAGESIZE);
  char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED)
    MPI_Abort(MPI_COMM_WORLD, 2);
  if (rank == 0)
    memset(buf, 7, bytes);
  MPI_Barrier(MPI_COMM_WORLD); /* the sender's own faults before the count starts */
  if (rank == 0) {
    for (size_t o = 0; o < bytes; o += block)
      MPI_Send(buf + o, (int)block, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    struct perf_event_attr pa;
    memset(&pa, 0, sizeof pa);
    pa.size = sizeof pa;
    pa.type = PERF_TYPE_SOFTWARE;
    pa.config = PERF_COUNT_SW_PAGE_FAULTS;
    pa.disabled = 1;
    pa.exclude_kernel = 1;
    pa.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
    if (fd >= 0) {
      ioctl(fd, PERF_EVENT_IOC_RESET, 0);
      ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    }
    for (size_t o = 0; o < bytes; o += block)
      MPI_Recv(buf + o, (int)block, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long long traps = -1;
    if (fd >= 0) {
      ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
      if (read(fd, &traps, sizeof traps) != sizeof traps)
        traps = -1;
      close(fd);
    }
    unsigned char *vec = malloc(bytes / psz);
    size_t resident = 0;
    if (mincore(buf, bytes, vec) == 0)
      for (size_t i = 0; i < bytes / psz; i++)
        resident += vec[i] & 1;
    free(vec);
    for (size_t i = 0; i < bytes; i += 4096)
      if (buf[i] != 7) {
        fprintf(stderr, "cuts: prefault: byte %zu is %d\n", i, buf[i]);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    printf("cuts: prefault traps=%lld resident=%zu of %zu\n", traps, resident, bytes / psz);
  }
  munmap(buf, bytes);
}

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

/* in and inout of n elements of size sz, random bits (every 97th a special value for the
 * floating types), reduced aligned and one byte off: returns 0 when the bits agree */
static int is_nan(const unsigned char *p, size_t sz)
{
  if (sz == sizeof(double)) {
    double d;
    memcpy(&d, p, sz);
    return d != d;
  }
  float f;
  memcpy(&f, p, sz);
  return f != f;
}

static int sumbits_one(MPI_Datatype dt, size_t sz, int floating)
{
  size_t n = 1000003, bytes = n * sz;
  unsigned char *in = malloc(bytes), *io = malloc(bytes), *inu = malloc(bytes + 1),
                *iou = malloc(bytes + 1);
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t r = rnd(), q = rnd();
    memcpy(in + i, &r, bytes - i < 8 ? bytes - i : 8);
    memcpy(io + i, &q, bytes - i < 8 ? bytes - i : 8);
  }
  if (floating)
    for (size_t i = 0; i < n; i += 97) {
      double d[] = {1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 4.9e-324, -0.0, 1e308};
      float f[] = {1.0f / 0.0f, -1.0f / 0.0f, 0.0f / 0.0f, 1.4e-45f, -0.0f, 3e38f};
      if (sz == 8)
        memcpy(in + i * sz, &d[(i / 97) % 6], sz);
      else
        memcpy(in + i * sz, &f[(i / 97) % 6], sz);
    }
  else if (sz == 4) /* ints: keep them from overflowing (undefined in C either way) */
    for (size_t i = 0; i < n; i++) {
      int32_t a, b;
      memcpy(&a, in + i * 4, 4);
      memcpy(&b, io + i * 4, 4);
      a /= 4, b /= 4;
      memcpy(in + i * 4, &a, 4);
      memcpy(io + i * 4, &b, 4);
    }
  else
    for (size_t i = 0; i < n; i++) {
      int64_t a, b;
      memcpy(&a, in + i * 8, 8);
      memcpy(&b, io + i * 8, 8);
      a /= 4, b /= 4;
      memcpy(in + i * 8, &a, 8);
      memcpy(io + i * 8, &b, 8);
    }
  memcpy(inu + 1, in, bytes);
  memcpy(iou + 1, io, bytes);
  MPI_Reduce_local(in, io, (int)n, dt, MPI_SUM);
  MPI_Reduce_local(inu + 1, iou + 1, (int)n, dt, MPI_SUM);
  /* The same bits, except where both results are NaNs: a sum is a NaN with another payload
   * only when both operands were NaNs, and which one survives is the compiler's choice of
   * operand order, in either loop (it differs between the plain and the sanitized builds). */
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    bad |= memcmp(io + i * sz, iou + 1 + i * sz, sz) != 0 &&
           !(floating && is_nan(io + i * sz, sz) && is_nan(iou + 1 + i * sz, sz));
  if (getenv("CUTS_DEBUG"))
    for (size_t i = 0, shown = 0; i < n && shown < 5; i++)
      if (memcmp(io + i * sz, iou + 1 + i * sz, sz)) {
        uint64_t x = 0, y = 0, w = 0, v = 0;
        memcpy(&x, io + i * sz, sz), memcpy(&y, iou + 1 + i * sz, sz);
        memcpy(&w, in + i * sz, sz), memcpy(&v, inu + 1 + i * sz, sz);
        printf("%zu: fast %016llx scalar %016llx in %016llx\n", i, (unsigned long long)x,
               (unsigned long long)y, (unsigned long long)w);
        shown++;
      }
  free(in), free(io), free(inu), free(iou);
  return bad;
}

static void sumbits(int rank)
{
  if (rank != 0)
    return;
  struct {
    MPI_Datatype dt;
    size_t sz;
    int floating;
    const char *name;
  } t[] = {{MPI_DOUBLE, 8, 1, "double"},
           {MPI_FLOAT, 4, 1, "float"},
           {MPI_INT, sizeof(int), 0, "int"},
           {MPI_LONG, sizeof(long), 0, "long"}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    printf("cuts: sumbits %s %s\n", t[i].name,
           sumbits_one(t[i].dt, t[i].sz, t[i].floating) ? "differ" : "same");
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "reduce"))
    reduce(rank, size, argc > 2 ? atoi(argv[2]) : 0, argc > 3 && !strcmp(argv[3], "inplace"));
  else if (!strcmp(c, "prefault"))
    prefault(rank, argc > 2 ? (size_t)atol(argv[2]) : 4 * MIB);
  else if (!strcmp(c, "sumbits"))
    sumbits(rank);
  else {
    if (rank == 0)
      fprintf(stderr, "cuts: unknown case '%s'\n", c);
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
