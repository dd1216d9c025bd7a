/* p2p_globals: send and receive buffers that are global variables, under
 * smpi/privatization (each rank has its own copy): the data must come from the sender's copy
 * and land in the receiver's, for detached and rendezvous messages, contiguous and strided,
 * whichever rank runs when the transfer ends. Any even number of ranks; under a real MPI it
 * is an ordinary exchange. */
#include <mpi.h>
#include <stdio.h>

#define BIG 30000 /* doubles: rendezvous */
static double out_big[BIG], in_big[BIG];
static int out_small[8], in_small[8];
static double strided[2 * 100];

int main(int argc, char **argv)
{
  int rank, size, failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = rank ^ 1;
  if (peer >= size) {
    MPI_Finalize();
    return 0;
  }
  for (int i = 0; i < BIG; i++)
    out_big[i] = rank * 1e6 + i;
  for (int i = 0; i < 8; i++)
    out_small[i] = rank * 100 + i;
  for (int i = 0; i < 200; i++)
    strided[i] = i % 2 ? -1 : rank + i / 2;
  MPI_Datatype vec;
  MPI_Type_vector(100, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  MPI_Request rq[6];
  double got_strided[100];
  MPI_Irecv(in_big, BIG, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(in_small, 8, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
  MPI_Irecv(got_strided, 100, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(out_big, BIG, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &rq[3]);
  MPI_Isend(out_small, 8, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[4]);
  MPI_Isend(strided, 1, vec, peer, 3, MPI_COMM_WORLD, &rq[5]);
  MPI_Waitall(6, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < BIG; i++)
    if (in_big[i] != peer * 1e6 + i) {
      fprintf(stderr, "p2p_globals: rank %d: in_big[%d] = %g\n", rank, i, in_big[i]);
      failures++;
      break;
    }
  for (int i = 0; i < 8; i++)
    if (in_small[i] != peer * 100 + i) {
      fprintf(stderr, "p2p_globals: rank %d: in_small[%d] = %d\n", rank, i, in_small[i]);
      failures++;
      break;
    }
  for (int i = 0; i < 100; i++)
    if (got_strided[i] != peer + i) {
      fprintf(stderr, "p2p_globals: rank %d: strided[%d] = %g\n", rank, i, got_strided[i]);
      failures++;
      break;
    }
  /* the other direction of the vector: contiguous into the global strided array */
  double flat[100];
  for (int i = 0; i < 100; i++)
    flat[i] = 1000 + rank * 100 + i;
  MPI_Sendrecv(flat, 100, MPI_DOUBLE, peer, 4, strided, 1, vec, peer, 4, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int i = 0; i < 200; i++) {
    double want = i % 2 ? -1 : 1000 + peer * 100 + i / 2;
    if (strided[i] != want) {
      fprintf(stderr, "p2p_globals: rank %d: strided[%d] = %g, expected %g\n", rank, i,
              strided[i], want);
      failures++;
      break;
    }
  }
  MPI_Type_free(&vec);
  int total = failures;
  if (rank > 0)
    MPI_Send(&failures, 1, MPI_INT, 0, 1000, MPI_COMM_WORLD);
  else
    for (int r = 1; r < size; r++) {
      int f;
      MPI_Recv(&f, 1, MPI_INT, r, 1000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += f;
    }
  MPI_Finalize();
  if (rank == 0 && total == 0)
    printf("p2p_globals: OK\n");
  return failures ? 1 : 0;
}
