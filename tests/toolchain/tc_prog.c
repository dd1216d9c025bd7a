/* One MPI program, many behaviours, for the smpirun tests of run.sh (argv[1] picks one):
 *
 *   args A B ...   rank 0 prints "arg[i]=<A>" for every argument, byte for byte
 *   exit N         every rank finalizes, then rank 0 returns N (others 0)
 *   abort N        rank 1 calls MPI_Abort(MPI_COMM_WORLD, N) while rank 0 waits for it
 *   segv           rank 1 dereferences NULL after 1 s of simulated computation
 *   deadlock       every rank receives from its right neighbour, nobody sends
 *   hosts          every rank prints "rank R on HOST" (in rank order, through rank 0)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* not NULL itself: UBSan would report a null store before the crash the test is about */
static volatile int *volatile bad_ptr = (volatile int *)16;

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "";

  if (!strcmp(mode, "args")) {
    if (rank == 0)
      for (int i = 2; i < argc; i++)
        printf("arg[%d]=<%s>\n", i - 2, argv[i]);
  } else if (!strcmp(mode, "exit")) {
    MPI_Finalize();
    return rank == 0 && argc > 2 ? atoi(argv[2]) : 0;
  } else if (!strcmp(mode, "abort")) {
    if (rank == 1)
      MPI_Abort(MPI_COMM_WORLD, argc > 2 ? atoi(argv[2]) : 1);
    else
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "segv")) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      smpi_execute_benched(1.0);
      *bad_ptr = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "leak")) {
    MPI_Datatype t; /* never freed, on purpose */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
  } else if (!strcmp(mode, "deadlock")) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(mode, "hosts")) {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    if (rank == 0) {
      printf("rank 0 on %s\n", name);
      for (int r = 1; r < size; r++) {
        MPI_Recv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d on %s\n", r, name);
      }
    } else {
      MPI_Send(name, len + 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  } else {
    if (rank == 0)
      fprintf(stderr, "tc_prog: unknown mode '%s'\n", mode);
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
