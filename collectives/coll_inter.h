/* coll_inter.h: collectives on intercommunicators (MPI 3.1 sections 5.2.2 and 5.3-5.10).
 * The PMPI entry points of coll.c hand intercommunicator calls to these functions with the
 * user's raw arguments; each checks them (intercommunicator rules: root is MPI_ROOT,
 * MPI_PROC_NULL or a rank of the remote group; no MPI_IN_PLACE), runs the collective, and
 * returns what the MPI function must return (errors already went through the
 * communicator's error handler, comm being the user's handle and fname the MPI name). */
#ifndef SMPI_COLLECTIVES_COLL_INTER_H
#define SMPI_COLLECTIVES_COLL_INTER_H

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

#endif
