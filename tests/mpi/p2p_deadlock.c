/* p2p_deadlock: programs that are wrong on purpose, for the simulator's diagnostics
 * (p2p_deadlock.py runs them and checks what smpirun reports). Not for a real MPI: most
 * of them hang there.
 *
 *   p2p_deadlock recv      both ranks receive first: deadlock
 *   p2p_deadlock ssend     both ranks Ssend first: deadlock
 *   p2p_deadlock waitall   rank 0 waits for two receives, only one is sent
 *   p2p_deadlock probe     rank 0 probes for a message rank 1 never sends
 *   p2p_deadlock pending   no deadlock, but MPI_Finalize with a posted receive and a message
 *                          nobody received (warnings, exit status 0)
 *   p2p_deadlock late      a message sent to a rank that already reached MPI_Finalize
 *                          (warning, exit status 0) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank, v = 0, w = 0;
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "recv")) {
    MPI_Recv(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
  } else if (!strcmp(what, "ssend")) {
    MPI_Ssend(&v, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(what, "waitall")) {
    if (rank == 0) {
      MPI_Request rq[2];
      MPI_Irecv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[1]);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else {
      MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(what, "probe")) {
    if (rank == 0)
      MPI_Probe(1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(what, "late")) {
    /* rank 0 finalizes at once; rank 1 sends to it some simulated time later */
    if (rank == 1) {
      double t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < 1e-4)
        ;
      MPI_Send(&v, 1, MPI_INT, 0, 44, MPI_COMM_WORLD);
    }
  } else if (!strcmp(what, "pending")) {
    MPI_Request rq;
    if (rank == 0) {
      MPI_Irecv(&v, 1, MPI_INT, 1, 42, MPI_COMM_WORLD, &rq);
      /* the tag-43 message must have arrived (unreceived) before MPI_Finalize, whatever the
       * measured CPU bursts of either rank: without this, the warning depended on them */
      int arrived = 0;
      while (!arrived)
        MPI_Iprobe(1, 43, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    } else
      MPI_Send(&v, 1, MPI_INT, 0, 43, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
