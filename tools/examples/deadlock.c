/* A deliberately deadlocking program (unless the messages are small).
 *
 *   smpirun -np 2 build/tools/examples/deadlock 1000        works
 *   smpirun -np 2 build/tools/examples/deadlock 1000000     deadlocks: read the report
 *
 * Both ranks send first and receive afterwards. MPI_Send may return before the message is
 * received (the library copies small messages: "eager" or, in SMPI's words, "detached"), but
 * it does not have to: for large messages it waits until the receiver is there
 * ("rendezvous"). Here both ranks wait in MPI_Send for the other to reach MPI_Recv: a cycle,
 * rank 0 -> rank 1 -> rank 0, which the simulator reports with the source line of each
 * blocked call (build with -g). The program is wrong at every size; only its symptom depends
 * on the size (the threshold is --cfg=smpi/send-is-detached-thresh; --cfg=help shows its
 * default).
 * Fixes: MPI_Sendrecv, or MPI_Isend + MPI_Recv + MPI_Wait, or even ranks send first. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bytes = argc > 1 ? atoi(argv[1]) : 1000000;
  char *out = calloc((size_t)bytes, 1), *in = calloc((size_t)bytes, 1);
  int peer = 1 - rank;
  MPI_Send(out, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(in, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0)
    printf("deadlock: %d bytes exchanged without deadlock (this time)\n", bytes);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
