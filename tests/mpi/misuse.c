/* misuse: programs that are wrong on purpose, for the simulator's diagnostics (misuse.py
 * runs each case under smpirun and checks the exit status and the report). Most of them
 * hang or corrupt data under a real MPI.
 *
 *   misuse ring          every rank receives from its left neighbour first: cycle 0->2->1->0
 *   misuse finished      rank 0 waits for a tag rank 1 never sends; rank 1 finishes
 *   misuse coll_root     MPI_Bcast with a different root on each rank
 *   misuse coll_count    MPI_Allreduce of 4 ints on rank 0, 8 on the others
 *   misuse coll_type     MPI_Allreduce of MPI_INT on rank 0, MPI_FLOAT on the others
 *   misuse coll_op       MPI_Allreduce with MPI_SUM on rank 0, MPI_MAX on the others
 *   misuse coll_kind     rank 0 calls MPI_Barrier, the others MPI_Bcast
 *   misuse coll_nb       rank 0 calls MPI_Ibcast, the others MPI_Bcast
 *   misuse coll_ok       a correct mix of collectives on split communicators (no report)
 *   misuse buffer        the buffer of an MPI_Isend is modified before its MPI_Wait
 *   misuse leak          an MPI_Isend and an MPI_Irecv never completed
 *   misuse before_init   MPI_Comm_rank before MPI_Init
 *   misuse after_final   MPI_Barrier after MPI_Finalize */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  int rank, size;
  if (!strcmp(what, "before_init"))
    MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* wrong: MPI is not initialized yet */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int v[8] = {0}, w[8] = {0};
  float f[8] = {0};
  if (!strcmp(what, "ring")) {
    MPI_Recv(v, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  } else if (!strcmp(what, "finished")) {
    if (rank == 0)
      MPI_Recv(v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (rank == 1)
      MPI_Send(v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_root")) {
    MPI_Bcast(v, 4, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_count")) {
    MPI_Allreduce(v, w, rank == 0 ? 4 : 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_type")) {
    if (rank == 0)
      MPI_Allreduce(v, w, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
      MPI_Allreduce(f, f + 4, 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_op")) {
    MPI_Allreduce(v, w, 4, MPI_INT, rank == 0 ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_kind")) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      MPI_Barrier(MPI_COMM_WORLD);
    else
      MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (!strcmp(what, "coll_nb")) {
    MPI_Request rq;
    if (rank == 0) {
      MPI_Ibcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
      MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
  } else if (!strcmp(what, "coll_ok")) {
    /* the same step numbers on different communicators never meet; gathers compare the
     * root's per-rank block with each rank's own block, whatever the types */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hr;
    MPI_Comm_rank(half, &hr);
    if (rank % 2)
      MPI_Bcast(v, 2, MPI_INT, 0, half);
    else
      MPI_Allreduce(v, w, 3, MPI_INT, MPI_SUM, half);
    int all[64];
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (hr == 0)
      MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, all, 2, MPI_INT, 0, half);
    else
      MPI_Gather(v, 1, pair, NULL, 0, MPI_DOUBLE, 0, half);
    MPI_Type_free(&pair);
    /* raw bytes against typed data: tolerated */
    MPI_Bcast(v, rank == 0 ? 8 : 2, rank == 0 ? MPI_BYTE : MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : v, w, 2, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Alltoall(v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Request rq;
    MPI_Iallreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&half);
    if (rank == 0)
      printf("misuse: OK\n");
  } else if (!strcmp(what, "buffer")) {
    /* 4000 bytes: above the eager size but below the detached threshold, as most sends */
    static int big[1000];
    MPI_Request rq;
    if (rank == 0) {
      MPI_Isend(big, 1000, MPI_INT, 1, 9, MPI_COMM_WORLD, &rq);
      big[500] = 42;                    /* wrong: the send is still pending */
      MPI_Wait(&rq, MPI_STATUS_IGNORE); /* noticed here */
    } else if (rank == 1) {
      MPI_Recv(big, 1000, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(what, "leak")) {
    MPI_Request rq[2];
    if (rank == 0) {
      MPI_Isend(v, 2, MPI_INT, 1, 11, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(w, 3, MPI_INT, 1, 12, MPI_COMM_WORLD, &rq[1]);
    } else if (rank == 1) {
      MPI_Recv(w, 2, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  if (!strcmp(what, "after_final"))
    MPI_Barrier(MPI_COMM_WORLD); /* wrong: MPI is finalized */
  return 0;
}
