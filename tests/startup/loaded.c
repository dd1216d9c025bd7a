/* What a program smpicc builds loads at start-up (tests/startup/check_loaded.py): rank 0
 * prints one line "loaded: NAME" per shared object of the process, then "objects: N". */
#define _GNU_SOURCE
#include <link.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int show(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  int *count = data;
  const char *slash = strrchr(info->dlpi_name, '/');
  if (info->dlpi_name[0]) /* the program itself has no name here */
    printf("loaded: %s\n", slash ? slash + 1 : info->dlpi_name);
  ++*count;
  return 0;
}

int main(int argc, char **argv)
{
  int rank, count = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    dl_iterate_phdr(show, &count);
    printf("objects: %d\n", count);
  }
  MPI_Finalize();
  return 0;
}
