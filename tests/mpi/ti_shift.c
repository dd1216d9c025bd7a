/* A non-periodic Cartesian shift, traced with -trace-ti and replayed (replay_test.py own):
 * on a 2-D grid with periods 0, MPI_Cart_shift gives MPI_PROC_NULL beyond the edges, and
 * the halo exchange passes it on unchanged, as stencil codes do: MPI_Sendrecv in both
 * directions of each dimension, then the same with Irecv/Isend + Waitall and with blocking
 * Send/Recv. A send to or a receive from MPI_PROC_NULL does nothing and takes no time; its
 * trace line must replay the same way (SimGrid writes MPI_PROC_NULL as -666).
 *
 * MPI_Cart_create costs a 4-byte broadcast that no TI line records (SimGrid records none
 * either), so the replay is that much shorter than the program. `ti_shift by-hand` computes
 * the same neighbours on MPI_COMM_WORLD without it: its simulated time is the replay's, to
 * the last bit. */
#define MPITEST_NAME "ti_shift"
#include <smpi.h>
#include <string.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size = wsize(), dims[2] = {0, 0}, periods[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int by_hand = argc > 1 && !strcmp(argv[1], "by-hand");
  MPI_Comm cart = MPI_COMM_WORLD;
  if (!by_hand)
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  int me;
  MPI_Comm_rank(cart, &me);
  int edges = 0;
  for (int it = 0; it < 10; it++) {
    for (int d = 0; d < 2; d++) {
      int lo, hi;
      if (by_hand) { /* row-major coordinates, as MPI_Cart_create numbers the grid */
        int c = d == 0 ? me / dims[1] : me % dims[1], stride = d == 0 ? dims[1] : 1;
        lo = c > 0 ? me - stride : MPI_PROC_NULL;
        hi = c < dims[d] - 1 ? me + stride : MPI_PROC_NULL;
      } else {
        MPI_Cart_shift(cart, d, 1, &lo, &hi);
      }
      edges += (lo == MPI_PROC_NULL) + (hi == MPI_PROC_NULL);
      int out[64], in[64];
      for (int i = 0; i < 64; i++)
        out[i] = me, in[i] = -7;
      /* upwards: send to hi, receive from lo */
      MPI_Sendrecv(out, 64, MPI_INT, hi, d, in, 64, MPI_INT, lo, d, cart, MPI_STATUS_IGNORE);
      CHECK(in[63] == (lo == MPI_PROC_NULL ? -7 : lo), "dim %d: got %d from %d", d, in[63], lo);
      smpi_execute_flops(1e5 * (1 + me % 3));
      /* downwards, nonblocking */
      MPI_Request rq[2];
      MPI_Irecv(in, 32, MPI_INT, hi, 10 + d, cart, &rq[0]);
      MPI_Isend(out, 32, MPI_INT, lo, 10 + d, cart, &rq[1]);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      /* and blocking, one request at a time: the edge ranks' Wait on MPI_PROC_NULL */
      MPI_Request r;
      MPI_Irecv(in, 16, MPI_INT, lo, 20 + d, cart, &r);
      MPI_Send(out, 16, MPI_INT, hi, 20 + d, cart);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      MPI_Recv(in, 8, MPI_INT, hi, 30 + d, cart, MPI_STATUS_IGNORE);
      MPI_Send(out, 8, MPI_INT, lo, 30 + d, cart);
    }
  }
  CHECK(size < 2 || edges > 0, "no edge on a %dx%d grid", dims[0], dims[1]);
  if (!by_hand)
    MPI_Comm_free(&cart);
  return mpitest_finalize();
}
