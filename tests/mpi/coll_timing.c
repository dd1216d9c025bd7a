/* coll_timing: simulated time of one collective call, for comparing simulators.
 *
 * Standard MPI only (plus SMPI_SHARED_MALLOC when the simulator has it), so that the same
 * file builds with SimGrid's smpicc, ours and a native MPI. For each requested collective
 * and each size, every rank
 *
 *   1. calls the collective once untimed (a simulator may set things up at the first call
 *      on a communicator: SimGrid 3.32 finds out the host layout for some algorithms with
 *      an allgather, an allreduce and a bcast),
 *   2. meets the others in a barrier made of point-to-point messages (so the collective
 *      algorithm forced for MPI_Barrier never changes when the measurement starts),
 *   3. reads t0 = MPI_Wtime(), calls the collective once, reads t1 = MPI_Wtime(),
 *   4. sends (t0, t1) to rank 0, which prints
 *
 *        <collective> <bytes> <ranks> <span> <mean>
 *
 *      span = max t1 - min t0 over the ranks, mean = average of t1 - t0.
 *
 * Usage: coll_timing [-s BYTES[,BYTES...]] COLLECTIVE[:ALGORITHM][@ROOT]...
 *   ALGORITHM forces that algorithm for this measurement through smpi's test hook
 *   (smpi_coll_force); other simulators take it from their configuration instead.
 *   BYTES is the size of one block (/BYTES: BYTES divided by the number of ranks): the whole buffer for bcast/reduce/allreduce/scan/exscan,
 *   one rank's part for gather/scatter/allgather(v), one pair's part for alltoall(v,w), one
 *   rank's result block for reduce_scatter(_block). Reductions use MPI_DOUBLE and MPI_SUM
 *   (BYTES / 8 elements, at least 1 unless BYTES is 0); everything else MPI_CHAR.
 *   Default sizes: 8,1048576.
 *
 * No mutable global variables, so the result does not depend on privatization.
 * Run with --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 so that the result only
 * depends on the network model and the algorithm. */
#include <mpi.h>
#if defined(__GLIBC__) && !defined(malloc) /* SimGrid's smpicc makes malloc a macro */
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_SHARED_MALLOC
/* Buffers of 1 MiB or more are folded: their content does not matter here, only their
 * size (64 ranks would otherwise touch gigabytes). */
#define BIG_ALLOC(n) ((n) >= (1L << 20) ? SMPI_SHARED_MALLOC(n) : malloc(n))
#define BIG_FREE(p, n) ((n) >= (1L << 20) ? SMPI_SHARED_FREE(p) : free(p))
#else
#define BIG_ALLOC(n) malloc(n)
#define BIG_FREE(p, n) free(p)
#endif

extern int smpi_coll_force(const char *coll, const char *name) __attribute__((weak));

static void die(const char *msg)
{
  fprintf(stderr, "coll_timing: %s\n", msg);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static void p2p_barrier(int rank, int np)
{
  char c = 0;
  if (rank == 0) {
    for (int i = 1; i < np; i++)
      MPI_Recv(&c, 0, MPI_CHAR, i, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i < np; i++)
      MPI_Send(&c, 0, MPI_CHAR, i, 77, MPI_COMM_WORLD);
  } else {
    MPI_Send(&c, 0, MPI_CHAR, 0, 77, MPI_COMM_WORLD);
    MPI_Recv(&c, 0, MPI_CHAR, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void *xalloc(size_t n)
{
  void *p = BIG_ALLOC(n ? n : 1);
  if (!p)
    die("out of memory");
  if (n < (1L << 20))
    memset(p, 1, n);
  return p;
}

/* Runs one collective; returns 0, or -1 for an unknown name. */
static int run(const char *name, long bytes, int root, int np)
{
  size_t b = (size_t)bytes, n = (size_t)np;
  int cnt = (int)bytes;                                         /* MPI_CHAR elements per block */
  int dcnt = bytes == 0 ? 0 : (int)(bytes / 8 ? bytes / 8 : 1); /* MPI_DOUBLE elements */
  size_t db = (size_t)dcnt * 8;
  int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
  MPI_Datatype *types = malloc(n * sizeof(MPI_Datatype));
  for (int i = 0; i < np; i++) {
    counts[i] = cnt;
    displs[i] = i * cnt;
    types[i] = MPI_CHAR;
  }
  void *s = NULL, *r = NULL;
  size_t ss = 0, rs = 0;
  int rc = 0;
#define ALLOC(sz_s, sz_r) \
  do {                    \
    ss = (sz_s);          \
    rs = (sz_r);          \
    s = xalloc(ss);       \
    r = xalloc(rs);       \
  } while (0)
  if (!strcmp(name, "barrier")) {
    ALLOC(0, 0);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(name, "bcast")) {
    ALLOC(b, 0);
    MPI_Bcast(s, cnt, MPI_CHAR, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "gather")) {
    ALLOC(b, b * n);
    MPI_Gather(s, cnt, MPI_CHAR, r, cnt, MPI_CHAR, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "gatherv")) {
    ALLOC(b, b * n);
    MPI_Gatherv(s, cnt, MPI_CHAR, r, counts, displs, MPI_CHAR, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "scatter")) {
    ALLOC(b * n, b);
    MPI_Scatter(s, cnt, MPI_CHAR, r, cnt, MPI_CHAR, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "scatterv")) {
    ALLOC(b * n, b);
    MPI_Scatterv(s, counts, displs, MPI_CHAR, r, cnt, MPI_CHAR, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "allgather")) {
    ALLOC(b, b * n);
    MPI_Allgather(s, cnt, MPI_CHAR, r, cnt, MPI_CHAR, MPI_COMM_WORLD);
  } else if (!strcmp(name, "allgatherv")) {
    ALLOC(b, b * n);
    MPI_Allgatherv(s, cnt, MPI_CHAR, r, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
  } else if (!strcmp(name, "alltoall")) {
    ALLOC(b * n, b * n);
    MPI_Alltoall(s, cnt, MPI_CHAR, r, cnt, MPI_CHAR, MPI_COMM_WORLD);
  } else if (!strcmp(name, "alltoallv")) {
    ALLOC(b * n, b * n);
    MPI_Alltoallv(s, counts, displs, MPI_CHAR, r, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
  } else if (!strcmp(name, "alltoallw")) {
    ALLOC(b * n, b * n);
    MPI_Alltoallw(s, counts, displs, types, r, counts, displs, types, MPI_COMM_WORLD);
  } else if (!strcmp(name, "reduce")) {
    ALLOC(db, db);
    MPI_Reduce(s, r, dcnt, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "allreduce")) {
    ALLOC(db, db);
    MPI_Allreduce(s, r, dcnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(name, "reduce_scatter")) {
    for (int i = 0; i < np; i++)
      counts[i] = dcnt;
    ALLOC(db * n, db);
    MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(name, "reduce_scatter_block")) {
    ALLOC(db * n, db);
    MPI_Reduce_scatter_block(s, r, dcnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(name, "scan")) {
    ALLOC(db, db);
    MPI_Scan(s, r, dcnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(name, "exscan")) {
    ALLOC(db, db);
    MPI_Exscan(s, r, dcnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    rc = -1;
  }
  if (s)
    BIG_FREE(s, ss);
  if (r)
    BIG_FREE(r, rs);
  free(counts);
  free(displs);
  free(types);
  return rc;
}

int main(int argc, char **argv)
{
  int rank, np; /* no mutable globals: the program must not depend on privatization */
#if defined(__GLIBC__) && !defined(malloc) /* SimGrid's smpicc makes malloc a macro */
  /* buffers come and go at every measurement: keep them in the heap rather than mapping
   * fresh zeroed pages each time (which costs more than the simulation) */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);

  long sizes[64];
  int per_rank[64] = {0};
  int nsizes = 0;
  int first = 1;
  if (argc > 2 && !strcmp(argv[1], "-s")) {
    char *list = argv[2];
    for (char *tok = strtok(list, ","); tok && nsizes < 64; tok = strtok(NULL, ",")) {
      per_rank[nsizes] = *tok == '/';
      sizes[nsizes] = strtol(tok + per_rank[nsizes], NULL, 10);
      nsizes++;
    }
    first = 3;
  } else {
    sizes[nsizes++] = 8;
    sizes[nsizes++] = 1048576;
  }
  for (int a = first; a < argc; a++) {
    char name[64];
    int root = 0;
    snprintf(name, sizeof name, "%s", argv[a]);
    char *at = strchr(name, '@');
    if (at) {
      *at = 0;
      root = atoi(at + 1) % np;
    }
    char *algo = strchr(name, ':');
    if (algo) {
      *algo++ = 0;
      if (!smpi_coll_force)
        die("COLLECTIVE:ALGORITHM needs smpi's smpi_coll_force");
      if (smpi_coll_force(name, algo) != 0)
        die("unknown collective or algorithm");
    }
    for (int k = 0; k < nsizes; k++) {
      long bytes = per_rank[k] ? sizes[k] / np : sizes[k];
      p2p_barrier(rank, np);
      if (run(name, bytes, root, np) != 0)
        die("unknown collective (see the usage at the top of coll_timing.c)");
      p2p_barrier(rank, np);
      double t[2];
      t[0] = MPI_Wtime();
      if (run(name, bytes, root, np) != 0)
        die("unknown collective (see the usage at the top of coll_timing.c)");
      t[1] = MPI_Wtime();
      if (rank == 0) {
        double lo = t[0], hi = t[1], sum = t[1] - t[0];
        for (int i = 1; i < np; i++) {
          double u[2];
          MPI_Recv(u, 2, MPI_DOUBLE, i, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (u[0] < lo)
            lo = u[0];
          if (u[1] > hi)
            hi = u[1];
          sum += u[1] - u[0];
        }
        printf("%s%s%s%s%s %s%ld %d %.17g %.17g\n", name, algo ? ":" : "", algo ? algo : "",
               at ? "@" : "", at ? at + 1 : "", per_rank[k] ? "/" : "", sizes[k], np, hi - lo,
               sum / np);
        fflush(stdout);
      } else {
        MPI_Send(t, 2, MPI_DOUBLE, 0, 78, MPI_COMM_WORLD);
      }
    }
    if (algo)
      smpi_coll_force(name, NULL);
  }
  MPI_Finalize();
  return 0;
}
