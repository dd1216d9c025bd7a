/* The collective operations of MPI (blocking, nonblocking, neighborhood): each PMPI
 * function brackets the entry point of collectives/ that does the work (coll_mpi_*, see
 * collectives/coll.h: argument checks, MPI_IN_PLACE, algorithm choice, error handler)
 * with the call machinery of call.h. */
#include "collectives/coll.h"
#include "smpi/bindings/call.h"

int PMPI_Barrier(MPI_Comm comm)
{
  SMPI_ENTER("MPI_Barrier");
  SMPI_RETURN(coll_mpi_barrier(comm, smpi_fname_));
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ibarrier");
  SMPI_RETURN(coll_mpi_ibarrier(comm, request, smpi_fname_));
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Bcast");
  SMPI_RETURN(coll_mpi_bcast(buffer, count, datatype, root, comm, smpi_fname_));
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
  SMPI_ENTER("MPI_Ibcast");
  SMPI_RETURN(coll_mpi_ibcast(buffer, count, datatype, root, comm, request, smpi_fname_));
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Gather");
  SMPI_RETURN(coll_mpi_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, smpi_fname_));
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
  SMPI_ENTER("MPI_Igather");
  SMPI_RETURN(coll_mpi_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, request, smpi_fname_));
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
  SMPI_ENTER("MPI_Gatherv");
  SMPI_RETURN(coll_mpi_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, root, comm, smpi_fname_));
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Igatherv");
  SMPI_RETURN(coll_mpi_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root, comm, request, smpi_fname_));
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Scatter");
  SMPI_RETURN(coll_mpi_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, smpi_fname_));
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
  SMPI_ENTER("MPI_Iscatter");
  SMPI_RETURN(coll_mpi_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, request, smpi_fname_));
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Scatterv");
  SMPI_RETURN(coll_mpi_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                recvtype, root, comm, smpi_fname_));
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iscatterv");
  SMPI_RETURN(coll_mpi_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, comm, request, smpi_fname_));
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Allgather");
  SMPI_RETURN(coll_mpi_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 smpi_fname_));
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iallgather");
  SMPI_RETURN(coll_mpi_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, request, smpi_fname_));
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
  SMPI_ENTER("MPI_Allgatherv");
  SMPI_RETURN(coll_mpi_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, smpi_fname_));
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iallgatherv");
  SMPI_RETURN(coll_mpi_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, comm, request, smpi_fname_));
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Alltoall");
  SMPI_RETURN(coll_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                smpi_fname_));
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ialltoall");
  SMPI_RETURN(coll_mpi_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request, smpi_fname_));
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Alltoallv");
  SMPI_RETURN(coll_mpi_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm, smpi_fname_));
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
  SMPI_ENTER("MPI_Ialltoallv");
  SMPI_RETURN(coll_mpi_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, comm, request, smpi_fname_));
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  SMPI_ENTER("MPI_Alltoallw");
  SMPI_RETURN(coll_mpi_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm, smpi_fname_));
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
  SMPI_ENTER("MPI_Ialltoallw");
  SMPI_RETURN(coll_mpi_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                  rdispls, recvtypes, comm, request, smpi_fname_));
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Reduce");
  SMPI_RETURN(coll_mpi_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, smpi_fname_));
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ireduce");
  SMPI_RETURN(
      coll_mpi_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request, smpi_fname_));
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Allreduce");
  SMPI_RETURN(coll_mpi_allreduce(sendbuf, recvbuf, count, datatype, op, comm, smpi_fname_));
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iallreduce");
  SMPI_RETURN(
      coll_mpi_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_));
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
  SMPI_ENTER("MPI_Scan");
  SMPI_RETURN(coll_mpi_scan(sendbuf, recvbuf, count, datatype, op, comm, smpi_fname_));
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iscan");
  SMPI_RETURN(coll_mpi_iscan(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_));
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
  SMPI_ENTER("MPI_Exscan");
  SMPI_RETURN(coll_mpi_exscan(sendbuf, recvbuf, count, datatype, op, comm, smpi_fname_));
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Iexscan");
  SMPI_RETURN(
      coll_mpi_iexscan(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_));
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Reduce_scatter");
  SMPI_RETURN(
      coll_mpi_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, smpi_fname_));
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ireduce_scatter");
  SMPI_RETURN(coll_mpi_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                                       smpi_fname_));
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Reduce_scatter_block");
  SMPI_RETURN(coll_mpi_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                            smpi_fname_));
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
  SMPI_ENTER("MPI_Ireduce_scatter_block");
  SMPI_RETURN(coll_mpi_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                             request, smpi_fname_));
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
  SMPI_ENTER("MPI_Ineighbor_allgather");
  SMPI_RETURN(coll_mpi_ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, comm, request, smpi_fname_));
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ineighbor_allgatherv");
  SMPI_RETURN(coll_mpi_ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                            displs, recvtype, comm, request, smpi_fname_));
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
  SMPI_ENTER("MPI_Ineighbor_alltoall");
  SMPI_RETURN(coll_mpi_ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, request, smpi_fname_));
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
  SMPI_ENTER("MPI_Ineighbor_alltoallv");
  SMPI_RETURN(coll_mpi_ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                           recvcounts, rdispls, recvtype, comm, request,
                                           smpi_fname_));
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ineighbor_alltoallw");
  SMPI_RETURN(coll_mpi_ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                           recvcounts, rdispls, recvtypes, comm, request,
                                           smpi_fname_));
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Neighbor_allgather");
  SMPI_RETURN(coll_mpi_neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, smpi_fname_));
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Neighbor_allgatherv");
  SMPI_RETURN(coll_mpi_neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                           displs, recvtype, comm, smpi_fname_));
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Neighbor_alltoall");
  SMPI_RETURN(coll_mpi_neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, comm, smpi_fname_));
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Neighbor_alltoallv");
  SMPI_RETURN(coll_mpi_neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                          recvcounts, rdispls, recvtype, comm, smpi_fname_));
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm)
{
  SMPI_ENTER("MPI_Neighbor_alltoallw");
  SMPI_RETURN(coll_mpi_neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                          recvcounts, rdispls, recvtypes, comm, smpi_fname_));
}
