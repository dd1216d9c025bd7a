/* The communication of NPB IS (integer sort), without the sort: per iteration an Allreduce of
 * the bucket counts (1 024 ints), an Alltoall of one int (how many keys go to each rank) and
 * an Alltoallv of the keys, whose counts vary a little between pairs as IS's do. Every
 * rank's Alltoallv flows cross the platform's shared links at once: on a flat cluster all
 * N (N - 1) of them share the backbone, the case the max-min solver's saturated-bottleneck
 * path is for (tools/bench/README.md, "Saturated bottlenecks").
 *
 *   is_like [TOTAL_KEYS_LOG2 [ITERATIONS]]     default 2^25 keys (class B), 10 iterations
 *
 * Buffers are SMPI_SHARED_MALLOC'ed (content does not matter) so that 128 ranks fit on both
 * simulators; no globals. Rank 0 prints "is_like: ranks=N keys=K iterations=I". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NUM_BUCKETS 1024

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int lg = argc > 1 ? atoi(argv[1]) : 25;
  int iters = argc > 2 ? atoi(argv[2]) : 10;
  long total = 1L << lg;
  long per_rank = total / size;
  int *bucket = malloc(NUM_BUCKETS * sizeof *bucket);
  int *bucket_sum = malloc(NUM_BUCKETS * sizeof *bucket_sum);
  int *scount = malloc((size_t)size * sizeof *scount);
  int *rcount = malloc((size_t)size * sizeof *rcount);
  int *sdispl = malloc((size_t)size * sizeof *sdispl);
  int *rdispl = malloc((size_t)size * sizeof *rdispl);
  /* keys sent to each rank: per_rank / size, +- up to 1/8 of it depending on the pair and
   * iteration (sums are not kept exact: the buffers are sized for the worst case) */
  int *keys = SMPI_SHARED_MALLOC((size_t)(2 * per_rank + size) * sizeof(int));
  int *sorted = SMPI_SHARED_MALLOC((size_t)(2 * per_rank + size) * sizeof(int));
  for (int b = 0; b < NUM_BUCKETS; b++)
    bucket[b] = rank + b;
  for (int it = 0; it < iters; it++) {
    MPI_Allreduce(bucket, bucket_sum, NUM_BUCKETS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    long base = per_rank / size, spread = base / 8 + 1;
    int at = 0;
    for (int j = 0; j < size; j++) {
      long c = base + ((rank * 7 + j * 13 + it * 5) % 17 - 8) * spread / 8;
      scount[j] = (int)(c > 0 ? c : 0);
      sdispl[j] = at;
      at += scount[j];
    }
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    at = 0;
    for (int j = 0; j < size; j++) {
      rdispl[j] = at;
      at += rcount[j];
    }
    MPI_Alltoallv(keys, scount, sdispl, MPI_INT, sorted, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime();
  if (rank == 0)
    printf("is_like: ranks=%d keys=%ld iterations=%d time=%.9g\n", size, total, iters, t);
  SMPI_SHARED_FREE(keys);
  SMPI_SHARED_FREE(sorted);
  free(bucket);
  free(bucket_sum);
  free(scount);
  free(rcount);
  free(sdispl);
  free(rdispl);
  MPI_Finalize();
  return 0;
}
