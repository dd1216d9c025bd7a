/* coll_inter.h: collectives on intercommunicators (MPI 3.1 sections 5.2.2 and 5.3-5.10).
 * The PMPI entry points of coll.c hand intercommunicator calls to these functions with the
 * user's raw arguments; each checks them (intercommunicator rules: root is MPI_ROOT,
 * MPI_PROC_NULL or a rank of the remote group; no MPI_IN_PLACE), runs the collective, and
 * returns what the MPI function must return (errors already went through the
 * communicator's error handler, comm being the user's handle and fname the MPI name). */
#ifndef SMPI_COLLECTIVES_COLL_INTER_H
#define SMPI_COLLECTIVES_COLL_INTER_H

#include "collectives/coll_private.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi.h"

int coll_inter_barrier(smpi_comm *c, MPI_Comm comm, const char *fname);
int coll_inter_bcast(smpi_comm *c, MPI_Comm comm, const char *fname, void *buf, int count,
                     MPI_Datatype type, int root);
int coll_inter_gather(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                      int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                      int root);
int coll_inter_scatter(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                       int root);
int coll_inter_reduce(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                      void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root);
int coll_inter_allreduce(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         void *rbuf, int count, MPI_Datatype type, MPI_Op op);
int coll_inter_allgather(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype);
int coll_inter_allgatherv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                          int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                          const int *displs, MPI_Datatype rtype);
int coll_inter_alltoall(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                        int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype);
int coll_inter_alltoallv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         const int *scounts, const int *sdispls, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *rdispls, MPI_Datatype rtype);
int coll_inter_reduce_scatter_block(smpi_comm *c, MPI_Comm comm, const char *fname,
                                    const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                    MPI_Op op);
int coll_inter_gatherv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                       const int *displs, MPI_Datatype rtype, int root);
int coll_inter_scatterv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                        const int *scounts, const int *displs, MPI_Datatype stype, void *rbuf,
                        int rcount, MPI_Datatype rtype, int root);
int coll_inter_alltoallw(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         const int *scounts, const int *sdispls, const MPI_Datatype *stypes,
                         void *rbuf, const int *rcounts, const int *rdispls,
                         const MPI_Datatype *rtypes);
int coll_inter_reduce_scatter(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                              void *rbuf, const int *rcounts, MPI_Datatype type, MPI_Op op);

/* One collective call on an intercommunicator, as its arguments (those of the MPI function
 * named by id; unused fields zero), so that a nonblocking one can be run later by a helper
 * (collectives/coll_nb.c) through coll_inter_run. */
typedef struct coll_inter_call {
  coll_id id;
  const void *sbuf;
  void *rbuf;
  int scount, rcount;
  MPI_Datatype stype, rtype;
  const int *scounts, *sdispls, *rcounts, *rdispls;
  const MPI_Datatype *stypes, *rtypes;
  MPI_Op op;
  int root;
} coll_inter_call;
/* The blocking collective k on c (errors through comm's handler, as the functions above). */
int coll_inter_run(smpi_comm *c, MPI_Comm comm, const char *fname, const coll_inter_call *k);
/* How many entries k's send-side and receive-side arrays have (counts, displacements,
 * datatypes) on a member of a group of lsize whose remote group has rsize members. */
void coll_inter_lengths(const coll_inter_call *k, int lsize, int rsize, int *ns, int *nr);

#endif
