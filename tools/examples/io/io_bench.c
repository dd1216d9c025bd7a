/* io_bench: a small IOR-like MPI-IO benchmark that checks its data.
 *
 * Each of n ranks writes `segments` segments of `block` bytes in `xfer`-byte transfers, then
 * reads them back, IOR's layout in a shared file (or one file per rank with -F):
 *
 *   segment 0: [rank 0 block][rank 1 block]...[rank n-1 block]  segment 1: [rank 0]...
 *   transfer k of rank r in segment s at s * n * block + r * block + k * xfer
 *
 * Every 8-byte word holds its file offset xor a per-rank, per-iteration tag, so a read
 * finds any misplaced, stale or torn byte. Reads go to the next rank's data (IOR -C) so that
 * nothing is served from what the rank just wrote. Bandwidths are the data of all ranks over
 * the slowest rank's time, between barriers.
 *
 *   io_bench [-b block] [-t xfer] [-s segments] [-i iterations] [-c] [-F] [-o path]
 *     -c  collective calls (MPI_File_write_at_all / read_at_all), else independent
 *     -F  one file per rank (path.<rank>)
 *   sizes take k, m, g suffixes (powers of 1024). Prints "io_bench: OK" when every read
 *   matched. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long long size_arg(const char *s)
{
  char *end;
  long long v = strtoll(s, &end, 10);
  if (*end == 'k' || *end == 'K')
    v <<= 10;
  else if (*end == 'm' || *end == 'M')
    v <<= 20;
  else if (*end == 'g' || *end == 'G')
    v <<= 30;
  return v;
}

static uint64_t tag_of(int rank, int iter)
{
  return ((uint64_t)rank << 48) ^ ((uint64_t)iter << 40);
}

static void fill(uint64_t *w, long long n, long long off, uint64_t tag)
{
  for (long long i = 0; i < n / 8; i++)
    w[i] = (uint64_t)(off + 8 * i) ^ tag;
}

static long long check(const uint64_t *w, long long n, long long off, uint64_t tag)
{
  long long bad = 0;
  for (long long i = 0; i < n / 8; i++)
    bad += w[i] != ((uint64_t)(off + 8 * i) ^ tag);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long long block = 4 << 20, xfer = 1 << 20;
  int segments = 2, iters = 1, coll = 0, fpp = 0, c;
  const char *path = "io_bench.dat";
  optind = 1; /* in a simulator whose ranks share the process, another rank may have parsed */
  while ((c = getopt(argc, argv, "b:t:s:i:cFo:")) != -1) {
    switch (c) {
    case 'b':
      block = size_arg(optarg);
      break;
    case 't':
      xfer = size_arg(optarg);
      break;
    case 's':
      segments = atoi(optarg);
      break;
    case 'i':
      iters = atoi(optarg);
      break;
    case 'c':
      coll = 1;
      break;
    case 'F':
      fpp = 1;
      break;
    case 'o':
      path = optarg;
      break;
    default:
      if (rank == 0)
        fprintf(stderr, "usage: io_bench [-b block] [-t xfer] [-s segments] [-i iters] [-c] "
                        "[-F] [-o path]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (xfer <= 0 || xfer % 8 || block % xfer || segments <= 0 || xfer > (1 << 30)) {
    if (rank == 0)
      fprintf(stderr, "io_bench: the block must be a multiple of the transfer size, itself a "
                      "multiple of 8 bytes\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char name[1024];
  if (fpp)
    snprintf(name, sizeof name, "%s.%d", path, rank);
  else
    snprintf(name, sizeof name, "%s", path);
  MPI_Comm fcomm = fpp ? MPI_COMM_SELF : MPI_COMM_WORLD;
  int fn = fpp ? 1 : n, fr = fpp ? 0 : rank;
  uint64_t *buf = malloc((size_t)xfer);
  long long per_rank = block * segments, bad = 0;
  double total = (double)per_rank * n / (1 << 20);
  if (rank == 0)
    printf("io_bench: %d ranks, %s, %s, block %lld, transfer %lld, %d segments: %.1f MiB "
           "per phase\n",
           n, fpp ? "file per rank" : "shared file", coll ? "collective" : "independent", block,
           xfer, segments, total);
  for (int it = 0; it < iters; it++) {
    MPI_File fh;
    if (MPI_File_open(fcomm, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) !=
        MPI_SUCCESS) {
      fprintf(stderr, "io_bench: rank %d cannot open %s\n", rank, name);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* write */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int s = 0; s < segments; s++)
      for (long long k = 0; k < block / xfer; k++) {
        long long off = (long long)s * fn * block + (long long)fr * block + k * xfer;
        fill(buf, xfer, off, tag_of(rank, it));
        if (coll)
          MPI_File_write_at_all(fh, off, buf, (int)xfer, MPI_BYTE, MPI_STATUS_IGNORE);
        else
          MPI_File_write_at(fh, off, buf, (int)xfer, MPI_BYTE, MPI_STATUS_IGNORE);
      }
    MPI_File_sync(fh);
    double tw = MPI_Wtime() - t0, twmax;
    MPI_Reduce(&tw, &twmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    /* read the next rank's data (a file per rank: our own) */
    int from = fpp ? rank : (rank + 1) % n, ffr = fpp ? 0 : from;
    t0 = MPI_Wtime();
    for (int s = 0; s < segments; s++)
      for (long long k = 0; k < block / xfer; k++) {
        long long off = (long long)s * fn * block + (long long)ffr * block + k * xfer;
        memset(buf, 0, (size_t)xfer);
        if (coll)
          MPI_File_read_at_all(fh, off, buf, (int)xfer, MPI_BYTE, MPI_STATUS_IGNORE);
        else
          MPI_File_read_at(fh, off, buf, (int)xfer, MPI_BYTE, MPI_STATUS_IGNORE);
        bad += check(buf, xfer, off, tag_of(from, it));
      }
    double tr = MPI_Wtime() - t0, trmax;
    MPI_Reduce(&tr, &trmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_File_close(&fh);
    if (rank == 0)
      printf("io_bench: iteration %d: write %.6f s %.2f MiB/s, read %.6f s %.2f MiB/s\n", it,
             twmax, total / twmax, trmax, total / trmax);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (fpp || rank == 0)
    MPI_File_delete(name, MPI_INFO_NULL);
  long long allbad;
  MPI_Reduce(&bad, &allbad, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  free(buf);
  if (rank == 0) {
    if (allbad)
      printf("io_bench: %lld words read back wrong\n", allbad);
    else
      printf("io_bench: OK\n");
  }
  MPI_Finalize();
  return rank == 0 && allbad ? 1 : 0;
}
