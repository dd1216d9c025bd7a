/* pingpong: one-way time of MPI_Send/MPI_Recv between ranks 0 and 1, per message size.
 *
 * Standard MPI only, so that the same file builds with a native MPI, SimGrid's smpicc and
 * ours. For each size: 1 warm-up round trip, then ITERS timed round trips; rank 0 prints
 *
 *     pingpong <size> <one-way seconds>      one-way = (t_after - t_before) / (2 * ITERS)
 *
 * Usage: pingpong [SIZE...]   (default: the built-in list below, in increasing order)
 *
 * The built-in list holds powers of two from 1 B to 16 MiB plus sizes on both sides of the
 * thresholds where a simulator changes behaviour: the default SMPI factor breakpoints (they
 * apply to size + 16 bytes of envelope, so breakpoint B shows at sizes B-17, B-16, B-15),
 * the breakpoints 1024 and 65536 of the custom factor set used by the references (on the
 * payload: 1007..1009, 65519..65521; on the bare size for the overheads: 1023..1025), the
 * detached/rendezvous switch at 65536 bytes, and the empty message.
 *
 * Under a simulator with computation off the result is deterministic; the warm-up makes
 * every timed round trip start from the same state (rank 1 already waiting in MPI_Recv).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 3

static const long default_sizes[] = {
    0,     1,     2,      4,      8,      16,      32,      64,      128,     240,
    241,   242,   256,    512,    715,    716,     717,     1007,    1008,    1009,
    1023,  1024,  1025,   1409,   1410,   1411,    2048,    3467,    3468,    3469,
    4096,  5759,  5760,   5761,   8192,   9359,    9360,    9361,    15407,   15408,
    15409, 16384, 32768,  65455,  65456,  65457,   65519,   65520,   65521,   65535,
    65536, 65537, 131072, 262144, 524288, 1048576, 2097152, 4194304, 8388608, 16777216,
};

static int parse_sizes(int argc, char **argv, long **sizes_out, int *n_out)
{
  if (argc <= 1) {
    *n_out = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    *sizes_out = malloc(sizeof default_sizes);
    if (*sizes_out == NULL)
      return -1;
    memcpy(*sizes_out, default_sizes, sizeof default_sizes);
    return 0;
  }
  *n_out = argc - 1;
  *sizes_out = malloc((size_t)(argc - 1) * sizeof(long));
  if (*sizes_out == NULL)
    return -1;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    long v = strtol(argv[i], &end, 10);
    if (*argv[i] == '\0' || *end != '\0' || v < 0 || v > (1L << 30)) {
      fprintf(stderr, "pingpong: bad size '%s' (want an integer in 0..2^30)\n", argv[i]);
      return -1;
    }
    (*sizes_out)[i - 1] = v;
  }
  return 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0;
  int np = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np < 2) {
    if (rank == 0)
      fprintf(stderr, "pingpong: needs at least 2 ranks (ranks above 1 stay idle)\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  long *sizes = NULL;
  int nsizes = 0;
  if (parse_sizes(argc, argv, &sizes, &nsizes) != 0)
    MPI_Abort(MPI_COMM_WORLD, 1);
  long maxsize = 1;
  for (int i = 0; i < nsizes; i++)
    if (sizes[i] > maxsize)
      maxsize = sizes[i];
  char *buf = malloc((size_t)maxsize);
  if (buf == NULL) {
    fprintf(stderr, "pingpong: cannot allocate %ld bytes\n", maxsize);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buf, rank, (size_t)maxsize);

  for (int s = 0; s < nsizes && rank <= 1; s++) {
    int n = (int)sizes[s];
    if (rank == 0) {
      double t0 = 0;
      for (int it = 0; it <= ITERS; it++) {
        if (it == 1) /* iteration 0 is the warm-up */
          t0 = MPI_Wtime();
        MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      double t1 = MPI_Wtime();
      printf("pingpong %d %.17g\n", n, (t1 - t0) / (2.0 * ITERS));
      fflush(stdout);
    } else {
      for (int it = 0; it <= ITERS; it++) {
        MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
  }

  free(buf);
  free(sizes);
  MPI_Finalize();
  return 0;
}
