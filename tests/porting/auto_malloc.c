/* smpi/auto-shared-malloc-thresh: plain malloc, calloc and realloc of at least the threshold,
 * made by the program, are folded (docs/porting.md); smaller ones stay private; free works
 * on both. Run by porting.py as "auto_malloc folded" with the key set to 1M (the block size
 * is the default 1 MiB) and as "auto_malloc plain" without it.
 *
 * Folded is seen from the data: every folded allocation maps the same block again and again,
 * so byte 0 and byte 1 MiB of one allocation are the same byte, and rank 0's byte 0 is rank
 * 1's byte 0. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1u << 20)

static int fails;
#define CHECK(cond, ...)                                 \
  do {                                                   \
    if (!(cond)) {                                       \
      printf("rank %d: FAIL line %d: ", rank, __LINE__); \
      printf(__VA_ARGS__);                               \
      printf("\n");                                      \
      fails++;                                           \
    }                                                    \
  } while (0)

/* whether p's first byte and the one a block further are the same memory */
static int aliased(volatile char *p)
{
  p[0] = 11;
  p[MIB] = 22;
  return p[0] == 22;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int folded = argc > 1 && strcmp(argv[1], "folded") == 0;

  char *big = malloc(8 * MIB);       /* the largest: display-allocs lists this line first */
  char *zeroed = calloc(2 * MIB, 1); /* calloc, at the threshold */
  char *small = malloc(MIB - 1);     /* just under it: private */
  char *grown = realloc(NULL, 4096); /* realloc: private, then grown over the threshold */
  strcpy(grown, "kept");
  grown = realloc(grown, 3 * MIB);
  CHECK(big && zeroed && small && grown, "allocation failed");
  if (!folded)
    CHECK(strcmp(grown, "kept") == 0, "realloc lost the content");
  CHECK(aliased(big) == folded, "8 MiB malloc %s folded", folded ? "not" : "");
  CHECK(aliased(zeroed) == folded, "2 MiB calloc %s folded", folded ? "not" : "");
  CHECK(aliased(grown) == folded, "realloc to 3 MiB %s folded", folded ? "not" : "");
  CHECK(((uintptr_t)big % 4096 == 0) == folded || !folded, "folded block not page-aligned");

  /* private memory stays private: each rank writes its rank, reads it back after the others
   * wrote theirs */
  memset(small, rank, MIB - 1);
  volatile char *vbig = big; /* read after the others wrote, not what this rank stored */
  vbig[0] = (char)(100 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(small[0] == rank && small[MIB - 2] == rank, "small allocation not private");
  /* folded: every rank reads the same byte (the last write of any rank); private: its own */
  char mine = vbig[0];
  char *seen = malloc((size_t)size);
  MPI_Allgather(&mine, 1, MPI_CHAR, seen, 1, MPI_CHAR, MPI_COMM_WORLD);
  for (int r = 0; r < size; r++)
    CHECK(folded ? seen[r] == seen[0] && seen[0] >= 100 && seen[0] < 100 + size
                 : seen[r] == (char)(100 + r),
          "rank %d read %d in its big block", r, seen[r]);
  free(seen);
  MPI_Barrier(MPI_COMM_WORLD);

  /* realloc of a folded block down under the threshold: private again */
  grown = realloc(grown, 1000);
  memset(grown, rank, 1000);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(grown[999] == rank, "realloc'ed down block not private");

  free(big);
  free(zeroed);
  free(small);
  free(grown);
  /* many folded allocations freed and made again: no leak of mappings, no double free */
  double sum = 0;
  for (int i = 0; i < 200; i++) {
    double *volatile v = malloc(4 * MIB); /* volatile: the compiler may not drop the pair */
    v[MIB / sizeof(double)] = i;
    sum += v[MIB / sizeof(double)];
    free(v);
  }
  CHECK(sum == 199 * 200 / 2, "sum %g", sum);

  int all;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf("auto_malloc %s: OK\n", folded ? "folded" : "plain");
  MPI_Finalize();
  return all != 0;
}
