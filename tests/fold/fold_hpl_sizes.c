/* fold_hpl_sizes: HPL's allocations at a size that used to exceed vm.max_map_count. Each of
 * the (64) ranks folds its share of an N = 160 000 matrix (3.2 GB, SMPI_SHARED_MALLOC) and a
 * panel (SMPI_PARTIAL_SHARED_MALLOC: 4 KiB of private pivot indices, then 64 MiB of folded
 * data). In 1 MiB blocks that is 3 052 mappings per rank, 195 000 in all, three times the
 * kernel's default limit; the blocks are now chosen to fit a quarter of it.
 *
 * Rank 0 counts the lines of /proc/self/maps (the simulator's process: the ranks are its
 * threads) before and after every rank has allocated; the growth must stay within the
 * budget (smpi/shared-malloc-max-mappings, argv[1]; default a quarter of
 * /proc/sys/vm/max_map_count). Each rank writes its own pattern into its private indices,
 * and checks it after every other rank has done the same. Prints "fold_hpl_sizes: OK
 * mappings +M (budget B)" and "fold_hpl_sizes: OK". */
#define MPITEST_NAME "fold_hpl_sizes"
#include "../mpi/mpitest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 160000.0
#define PRIV 4096
#define PANEL ((size_t)64 << 20)

static long count_maps(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -1;
  long n = 0;
  int c;
  while ((c = getc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  long budget = argc > 1 ? atol(argv[1]) : -1;
  if (budget <= 0) {
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    long m = 65530;
    if (f) {
      if (fscanf(f, "%ld", &m) != 1)
        m = 65530;
      fclose(f);
    }
    budget = m / 4;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long before = rank == 0 ? count_maps() : 0;
  MPI_Barrier(MPI_COMM_WORLD);
  size_t local = (size_t)(N * N * 8.0 / size);
  char *a = SMPI_SHARED_MALLOC(local);
  size_t offs[] = {PRIV, PRIV + PANEL};
  unsigned char *panel = SMPI_PARTIAL_SHARED_MALLOC(PRIV + PANEL, offs, 1);
  CHECK(a != NULL && panel != NULL, "allocations of %zu and %zu bytes", local, PRIV + PANEL);
  if (a && panel) {
    a[local - 1] = 1; /* the far end is mapped */
    panel[PRIV + PANEL - 1] = 2;
    for (size_t i = 0; i < PRIV; i++)
      panel[i] = (unsigned char)(rank * 7 + i);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long after = rank == 0 ? count_maps() : 0;
  if (panel) {
    size_t bad = 0;
    for (size_t i = 0; i < PRIV; i++)
      bad += panel[i] != (unsigned char)(rank * 7 + i);
    CHECK(bad == 0, "%zu private bytes of the panel changed", bad);
  }
  if (rank == 0) {
    CHECK(before > 0 && after - before <= budget, "mappings %ld -> %ld, budget %ld", before,
          after, budget);
    printf("fold_hpl_sizes: mappings +%ld (budget %ld)\n", after - before, budget);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(panel);
  return mpitest_finalize();
}
