/* What the rest of the simulator needs from the collectives: their entry points, and help.
 *
 * coll_mpi_<name> is MPI_<Name> without the call machinery: the same argument checks,
 * MPI_IN_PLACE handling, algorithm choice and error handler (errors are reported on the
 * communicator passed, as from fname), returning what MPI_<Name> returns. The PMPI
 * functions of smpi/bindings/coll.c wrap each one in SMPI_ENTER / SMPI_RETURN; the other
 * users inside the library (smpi/rma/: a window's creation and its fences) call them
 * directly, so they neither go through the profiling interface nor count as a second MPI
 * call of the rank. */
#ifndef SMPI_COLLECTIVES_COLL_H
#define SMPI_COLLECTIVES_COLL_H

#include <stdio.h>

#include "smpi/mpi.h"

/* Declares smpi/coll-selector and smpi/<collective> (idempotent; smpi_declare_config). */
void coll_declare_config(void);
/* smpirun -help-coll: every collective, its algorithms and what each selector picks. */
void coll_print_help(FILE *out);
/* The same as markdown tables, for docs/collectives.md (tools/coll-doc.c). */
void coll_print_markdown(FILE *out);

/* ---- algorithms implemented above collectives/ ----
 * An algorithm that needs a layer above this one (alltoall pair_rma needs RMA windows,
 * smpi/rma/) has its name in coll_list.h like any other; the layer registers the
 * implementation at start-up (its declare_config, called by smpi/launch/), so that
 * collectives/ never includes it. Arguments: the call's communicator and buffers, MPI_IN_PLACE
 * resolved; the value is the call's MPI error code. */
struct smpi_comm;
struct smpi_dt;
typedef int (*coll_alltoall_rma_fn)(struct smpi_comm *c, const void *sbuf, int scount,
                                    const struct smpi_dt *sdt, void *rbuf, int rcount,
                                    const struct smpi_dt *rdt);
void coll_register_alltoall_pair_rma(coll_alltoall_rma_fn fn);

/* ---- MPI entry points (collectives/coll.c, coll_nb.c, coll_neighbor.c) ---- */
int coll_mpi_barrier(MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_ibarrier(MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   const char *smpi_fname_);
int coll_mpi_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Request *request, const char *smpi_fname_);
int coll_mpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char *smpi_fname_);
int coll_mpi_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request, const char *smpi_fname_);
int coll_mpi_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const char *smpi_fname_);
int coll_mpi_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request *request, const char *smpi_fname_);
int coll_mpi_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const char *smpi_fname_);
int coll_mpi_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                        const char *smpi_fname_);
int coll_mpi_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const char *smpi_fname_);
int coll_mpi_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                       const char *smpi_fname_);
int coll_mpi_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                       const char *smpi_fname_);
int coll_mpi_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request, const char *smpi_fname_);
int coll_mpi_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       const char *smpi_fname_);
int coll_mpi_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Request *request, const char *smpi_fname_);
int coll_mpi_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Request *request,
                     const char *smpi_fname_);
int coll_mpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            const char *smpi_fname_);
int coll_mpi_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request *request, const char *smpi_fname_);
int coll_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const char *smpi_fname_);
int coll_mpi_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *request, const char *smpi_fname_);
int coll_mpi_ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                                  const char *smpi_fname_);
int coll_mpi_ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request, const char *smpi_fname_);
int coll_mpi_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request, const char *smpi_fname_);
int coll_mpi_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request *request, const char *smpi_fname_);
int coll_mpi_neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, const char *smpi_fname_);
int coll_mpi_neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               const char *smpi_fname_);
int coll_mpi_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                const char *smpi_fname_);
int coll_mpi_neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                const char *smpi_fname_);

#endif
