/* smpi/privatize-libs (docs/porting.md): the globals of a listed shared library are per rank.
 * Each rank bumps libprivlib.so's counter rank+1 times, one MPI call between two bumps, and
 * writes its rank into the library's string. Run as "privlib private" with
 * --cfg=smpi/privatize-libs:libprivlib.so (each rank must read its own count and name), and
 * as "privlib shared" without it (the library's globals are the process's: every rank reads
 * the total, and the last name written). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

extern int privlib_counter;
extern char privlib_owner[16];
int privlib_bump(void);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, fails = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int private = argc > 1 && strcmp(argv[1], "private") == 0;
  for (int i = 0; i <= rank; i++) {
    privlib_bump();
    MPI_Barrier(MPI_COMM_WORLD); /* the other ranks run between two bumps */
  }
  snprintf(privlib_owner, sizeof privlib_owner, "rank %d", rank % 1000);
  for (int i = rank + 1; i < size; i++)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  char mine[32];
  snprintf(mine, sizeof mine, "rank %d", rank);
  int want = private ? rank + 1 : size * (size + 1) / 2;
  if (privlib_counter != want) {
    printf("rank %d: FAIL: the library's counter is %d, %d expected\n", rank, privlib_counter,
           want);
    fails++;
  }
  if (private && strcmp(privlib_owner, mine) != 0) {
    printf("rank %d: FAIL: the library's string is \"%s\"\n", rank, privlib_owner);
    fails++;
  }
  int all;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf("privlib %s: OK\n", private ? "private" : "shared");
  MPI_Finalize();
  return all != 0;
}
