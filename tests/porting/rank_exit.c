/* Ranks that end with exit(), _exit() or abort() after MPI_Finalize, at different simulated
 * times, with output after (HPL's and miniAMR's last lines: MPI_Finalize(); exit(0);).
 *
 *   rank_exit MODE     MODE = return | exit | _exit | code3 | abort
 *
 A token goes 0 -> 1 -> ... -> n-1 and an acknowledgement comes back, so rank r finalizes
 * after rank r+1: the last rank ends first, while the others are still in MPI. Every rank
 * then prints "rank R after MPI_Finalize" and ends the way MODE says (code3: rank 1 calls
 * exit(3), the others exit(0); abort: rank 1 calls abort(), the others exit(0)). Rank 0,
 * the last to end, prints "rank_exit: OK" last. Under MPICH every line appears; here too, and the job ends
 * when the last rank has ended: simulated time and traces as with `return` (porting.py). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "exit";
  int rank, size, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char buf[1 << 16];
  memset(buf, rank, sizeof buf);
  if (rank > 0)
    MPI_Recv(buf, (int)sizeof buf, MPI_CHAR, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank < size - 1) {
    MPI_Send(buf, (int)sizeof buf, MPI_CHAR, rank + 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, rank + 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  token += buf[0];
  if (rank > 0)
    MPI_Send(&token, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD);
  MPI_Finalize();
  printf("rank %d after MPI_Finalize (token %d)\n", rank, token);
  if (rank == 0)
    printf("rank_exit: OK\n");
  if (!strcmp(mode, "return"))
    return 0;
  if (!strcmp(mode, "_exit")) {
    fflush(stdout); /* _exit does not flush */
    _exit(0);
  }
  if (!strcmp(mode, "code3"))
    exit(rank == 1 ? 3 : 0);
  if (!strcmp(mode, "abort") && rank == 1)
    abort();
  exit(0);
}
