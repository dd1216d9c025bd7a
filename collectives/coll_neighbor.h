/* coll_neighbor.h: neighborhood collectives (MPI 3.1 section 7.6) on a communicator object,
 * shared by the blocking MPI_Neighbor_* entry points (coll_neighbor.c) and the nonblocking
 * MPI_Ineighbor_* ones (coll_nb.c runs the same function in a background actor).
 *
 * Entry point, in two steps:
 *
 *   coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALL,
 *                           .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
 *                           .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype};
 *   char why[160];
 *   int rc = coll_neighbor_check(c, &a, why, sizeof why);  // MPI_SUCCESS or an error class
 *   if (rc) report rc with `why` through the communicator's error handler
 *   rc = coll_neighbor_run(c, &a, COLL_NEIGHBOR_TAG);       // blocks until all is done
 *
 * coll_neighbor_run posts a receive from every in-neighbour and a send to every
 * out-neighbour (nonblocking, on the communicator's collective context) and waits for all
 * of them, as MPICH and Open MPI do (SimGrid 3.32 has no neighborhood collectives: its
 * MPI_Neighbor_* abort with "Not yet implemented", so there is no timing reference). It returns MPI_SUCCESS or an error class
 * (MPI_ERR_TRUNCATE), and reports nothing itself. The arrays of `a` (counts, displacements,
 * datatypes) are read while it runs, so they must stay valid until it returns (the standard
 * asks the same of the user's arrays for the nonblocking forms).
 *
 * Neighbours, in the standard's order (block i of the buffers goes to / comes from the i-th):
 *   Cartesian: for each dimension d, the -1 then the +1 neighbour (MPI_Cart_shift(d, 1)'s
 *     source then destination); at a border of a non-periodic dimension it is
 *     MPI_PROC_NULL, and that block of the receive buffer is left untouched;
 *   graph: MPI_Graph_neighbors' order, the same list for sending and receiving;
 *   distributed graph: receive from the sources, send to the destinations, in the order
 *     given at creation.
 * Tags: messages carry `tag` or `tag + 1` (Cartesian: sent to a -1 neighbour, sent to a +1
 * neighbour, so that a rank that is both neighbours of another, in a periodic dimension of
 * size 2, still gets each block in its place). A nonblocking caller that can have several
 * operations in flight on one communicator passes tags of its own. */
#ifndef SMPI_COLLECTIVES_COLL_NEIGHBOR_H
#define SMPI_COLLECTIVES_COLL_NEIGHBOR_H

#include <stddef.h>

#include "smpi/mpi/comm.h"
#include "smpi/mpi.h"

/* the tags the blocking calls use (and tag + 1) */
#define COLL_NEIGHBOR_TAG 64

typedef enum {
  COLL_NEIGHBOR_ALLGATHER,  /* sbuf/scount/stype to all; rbuf/rcount/rtype */
  COLL_NEIGHBOR_ALLGATHERV, /* sbuf/scount/stype to all; rbuf/rcounts/rdispls/rtype */
  COLL_NEIGHBOR_ALLTOALL,   /* sbuf/scount/stype; rbuf/rcount/rtype */
  COLL_NEIGHBOR_ALLTOALLV,  /* sbuf/scounts/sdispls/stype; rbuf/rcounts/rdispls/rtype */
  COLL_NEIGHBOR_ALLTOALLW,  /* sbuf/scounts/swdispls/stypes; rbuf/rcounts/rwdispls/rtypes */
} coll_neighbor_kind;

/* The MPI arguments as the user gave them (fields a kind does not use are ignored). */
typedef struct coll_neighbor_args {
  coll_neighbor_kind kind;
  const void *sbuf;
  int scount;
  MPI_Datatype stype;
  const int *scounts, *sdispls; /* v: displacements in extents of stype */
  const MPI_Aint *swdispls;     /* w: byte displacements */
  const MPI_Datatype *stypes;   /* w */
  void *rbuf;
  int rcount;
  MPI_Datatype rtype;
  const int *rcounts, *rdispls;
  const MPI_Aint *rwdispls;
  const MPI_Datatype *rtypes;
} coll_neighbor_args;

/* The MPI function's name for kind ("MPI_Neighbor_alltoall"). */
const char *coll_neighbor_name(coll_neighbor_kind kind);

/* Argument checks of the MPI call (communicator with a topology, counts, datatypes,
 * buffers, arrays): MPI_SUCCESS, or an error class with a detail in why. */
int coll_neighbor_check(smpi_comm *c, const coll_neighbor_args *a, char *why, size_t whylen);

/* Runs the collective on the calling rank's object c (checked). */
int coll_neighbor_run(smpi_comm *c, const coll_neighbor_args *a, int tag);

#endif
