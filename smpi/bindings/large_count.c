/* large_count.c: the MPI 4.0 large-count (_c) functions whose smpi path counts in int
 * (collectives, RMA, MPI-IO, most datatype constructors, pack, buffer attach). Each narrows
 * its MPI_Count counts and MPI_Aint displacements to int and calls the MPI 3.1 function;
 * a value beyond INT_MAX is refused with MPI_ERR_COUNT through the object's error handler,
 * never truncated:
 *
 *   MPI_Bcast_c(buf, 3000000000, MPI_CHAR, 0, comm)
 *   -> smpi: rank 0: MPI_Bcast_c on MPI_COMM_WORLD: MPI_ERR_COUNT: count 3000000000 is beyond
 *      INT_MAX, and smpi's MPI_Bcast counts in int (use a derived datatype)
 *
 * The point-to-point _c functions (smpi/bindings/p2p.c), MPI_Type_contiguous_c and the
 * queries (smpi/bindings/datatype.c) take large counts whole. Negative counts pass through:
 * the MPI 3.1 function reports them as it always does. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "smpi/bindings/call.h"
#include "smpi/io/file.h"
#include "src/mem.h"

/* 0, or the error of the handler when v does not fit an int */
static int lc_fits(MPI_Comm comm, MPI_Count v, const char *what, const char *fname,
                   const char *narrow)
{
  if (v <= INT_MAX && v >= INT_MIN)
    return MPI_SUCCESS;
  return smpi_comm_errorf(comm, MPI_ERR_COUNT, fname,
                          "%s %lld is beyond INT_MAX, and smpi's %s counts in int (use a derived "
                          "datatype)",
                          what, (long long)v, narrow);
}

/* ---- scalars: NARROW(comm, var, "name") declares int i_var, or returns the error ---- */
#define NARROW_AS(comm, var, what)                                              \
  int i_##var = (int)(var);                                                     \
  do {                                                                          \
    int lc_rc_ = lc_fits((comm), (MPI_Count)(var), what, smpi_fname_, narrow_); \
    if (lc_rc_)                                                                 \
      SMPI_RETURN(lc_rc_);                                                      \
  } while (0)
#define NARROW(comm, var) NARROW_AS(comm, var, #var)

/* The _c function of name: its name for messages, and the MPI 3.1 one it narrows to. */
#define LC_ENTER(name)           \
  SMPI_ENTER("MPI_" #name "_c"); \
  static const char narrow_[] = "MPI_" #name

/* ---- arrays: one per rank of the communicator (v-collectives) or per block ---- */

/* n ints narrowed from a (MPI_Count or MPI_Aint), or NULL (error already raised in *rc);
 * a NULL a gives NULL with *rc 0 (the MPI 3.1 function checks it). */
static int *lc_array(MPI_Comm comm, const long long *a, int n, const char *what,
                     const char *fname, const char *narrow, int *rc)
{
  *rc = MPI_SUCCESS;
  if (!a || n <= 0)
    return NULL;
  int *out = xmalloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) {
    if ((*rc = lc_fits(comm, a[i], what, fname, narrow)) != MPI_SUCCESS) {
      free(out);
      return NULL;
    }
    out[i] = (int)a[i];
  }
  return out;
}

/* the number of entries of a per-rank array: the remote group of an intercommunicator */
static int lc_ranks(MPI_Comm comm)
{
  int n = 0, inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
    return 0;
  if (inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

/* whether the root's arrays of a rooted v-collective are significant here (MPI_ROOT on an
 * intercommunicator); elsewhere they may be anything, even unreadable, and are not read */
static bool lc_at_root(MPI_Comm comm, int root)
{
  int inter = 0, me = -1;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
    return true; /* the MPI 3.1 function reports the communicator */
  if (inter)
    return root == MPI_ROOT;
  PMPI_Comm_rank(comm, &me);
  return me == root;
}

#define ARRAY(comm, var, n)                                                                  \
  int lc_rc_##var;                                                                           \
  int *i_##var = lc_array((comm), (const long long *)(var), (n), #var, smpi_fname_, narrow_, \
                          &lc_rc_##var);                                                     \
  if (lc_rc_##var)                                                                           \
  SMPI_RETURN(lc_rc_##var)

_Static_assert(sizeof(MPI_Count) == sizeof(long long) && sizeof(MPI_Aint) == sizeof(long long),
               "MPI_Count and MPI_Aint arrays are read as long long");

/* ---- collectives ---- */

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  LC_ENTER(Bcast);
  NARROW(comm, count);
  SMPI_RETURN(PMPI_Bcast(buffer, i_count, datatype, root, comm));
}

#define LC_ROOTED(Name)                                                                     \
  int PMPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,      \
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,  \
                      MPI_Comm comm)                                                        \
  {                                                                                         \
    LC_ENTER(Name);                                                                         \
    NARROW(comm, sendcount);                                                                \
    NARROW(comm, recvcount);                                                                \
    SMPI_RETURN(PMPI_##Name(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcount, recvtype, \
                            root, comm));                                                   \
  }
LC_ROOTED(Gather)
LC_ROOTED(Scatter)

#define LC_ALL(Name)                                                                            \
  int PMPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,          \
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) \
  {                                                                                             \
    LC_ENTER(Name);                                                                             \
    NARROW(comm, sendcount);                                                                    \
    NARROW(comm, recvcount);                                                                    \
    SMPI_RETURN(                                                                                \
        PMPI_##Name(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcount, recvtype, comm));     \
  }
LC_ALL(Allgather)
LC_ALL(Alltoall)
LC_ALL(Neighbor_allgather)
LC_ALL(Neighbor_alltoall)

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
  LC_ENTER(Reduce);
  NARROW(comm, count);
  SMPI_RETURN(PMPI_Reduce(sendbuf, recvbuf, i_count, datatype, op, root, comm));
}

#define LC_REDUCE(Name, countname)                                                 \
  int PMPI_##Name##_c(const void *sendbuf, void *recvbuf, MPI_Count countname,     \
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)             \
  {                                                                                \
    LC_ENTER(Name);                                                                \
    NARROW(comm, countname);                                                       \
    SMPI_RETURN(PMPI_##Name(sendbuf, recvbuf, i_##countname, datatype, op, comm)); \
  }
LC_REDUCE(Allreduce, count)
LC_REDUCE(Scan, count)
LC_REDUCE(Exscan, count)
LC_REDUCE(Reduce_scatter_block, recvcount)

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op)
{
  LC_ENTER(Reduce_local);
  NARROW(MPI_COMM_WORLD, count);
  SMPI_RETURN(PMPI_Reduce_local(inbuf, inoutbuf, i_count, datatype, op));
}

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  LC_ENTER(Reduce_scatter);
  int n = lc_ranks(comm);
  ARRAY(comm, recvcounts, n);
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, i_recvcounts, datatype, op, comm);
  free(i_recvcounts);
  SMPI_RETURN(rc);
}

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
  LC_ENTER(Gatherv);
  NARROW(comm, sendcount);
  int n = lc_at_root(comm, root) ? lc_ranks(comm) : 0;
  ARRAY(comm, recvcounts, n);
  int lrc;
  int *i_displs = lc_array(comm, (const long long *)displs, n, "displs", smpi_fname_, narrow_,
                           &lrc);
  if (lrc) {
    free(i_recvcounts);
    SMPI_RETURN(lrc);
  }
  int rc = PMPI_Gatherv(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcounts, i_displs, recvtype,
                        root, comm);
  free(i_recvcounts);
  free(i_displs);
  SMPI_RETURN(rc);
}

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  LC_ENTER(Scatterv);
  NARROW(comm, recvcount);
  int n = lc_at_root(comm, root) ? lc_ranks(comm) : 0;
  ARRAY(comm, sendcounts, n);
  int lrc;
  int *i_displs = lc_array(comm, (const long long *)displs, n, "displs", smpi_fname_, narrow_,
                           &lrc);
  if (lrc) {
    free(i_sendcounts);
    SMPI_RETURN(lrc);
  }
  int rc = PMPI_Scatterv(sendbuf, i_sendcounts, i_displs, sendtype, recvbuf, i_recvcount,
                         recvtype, root, comm);
  free(i_sendcounts);
  free(i_displs);
  SMPI_RETURN(rc);
}

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
  LC_ENTER(Allgatherv);
  NARROW(comm, sendcount);
  int n = lc_ranks(comm);
  ARRAY(comm, recvcounts, n);
  int lrc;
  int *i_displs = lc_array(comm, (const long long *)displs, n, "displs", smpi_fname_, narrow_,
                           &lrc);
  if (lrc) {
    free(i_recvcounts);
    SMPI_RETURN(lrc);
  }
  int rc = PMPI_Allgatherv(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcounts, i_displs,
                           recvtype, comm);
  free(i_recvcounts);
  free(i_displs);
  SMPI_RETURN(rc);
}

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  LC_ENTER(Alltoallv);
  int n = lc_ranks(comm);
  int *a[4] = {NULL, NULL, NULL, NULL};
  const long long *in[4] = {(const long long *)sendcounts, (const long long *)sdispls,
                            (const long long *)recvcounts, (const long long *)rdispls};
  static const char *const what[4] = {"sendcounts", "sdispls", "recvcounts", "rdispls"};
  int rc = MPI_SUCCESS;
  /* MPI_IN_PLACE: the send arrays are ignored (and may be anything) */
  for (int k = sendbuf == MPI_IN_PLACE ? 2 : 0; k < 4 && rc == MPI_SUCCESS; k++)
    a[k] = lc_array(comm, in[k], n, what[k], smpi_fname_, narrow_, &rc);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Alltoallv(sendbuf, a[0], a[1], sendtype, recvbuf, a[2], a[3], recvtype, comm);
  for (int k = 0; k < 4; k++)
    free(a[k]);
  SMPI_RETURN(rc);
}

/* nonblocking ones with scalar counts only: the v-forms' arrays would have to outlive the
 * call in int form (docs/mpi4.md) */
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
  LC_ENTER(Ibcast);
  NARROW(comm, count);
  SMPI_RETURN(PMPI_Ibcast(buffer, i_count, datatype, root, comm, request));
}

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
  LC_ENTER(Ireduce);
  NARROW(comm, count);
  SMPI_RETURN(PMPI_Ireduce(sendbuf, recvbuf, i_count, datatype, op, root, comm, request));
}

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  LC_ENTER(Iallreduce);
  NARROW(comm, count);
  SMPI_RETURN(PMPI_Iallreduce(sendbuf, recvbuf, i_count, datatype, op, comm, request));
}

#define LC_IROOTED(Name)                                                                    \
  int PMPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,      \
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,  \
                      MPI_Comm comm, MPI_Request *request)                                  \
  {                                                                                         \
    LC_ENTER(Name);                                                                         \
    NARROW(comm, sendcount);                                                                \
    NARROW(comm, recvcount);                                                                \
    SMPI_RETURN(PMPI_##Name(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcount, recvtype, \
                            root, comm, request));                                          \
  }
LC_IROOTED(Igather)
LC_IROOTED(Iscatter)

#define LC_IALL(Name)                                                                           \
  int PMPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,          \
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, \
                      MPI_Request *request)                                                     \
  {                                                                                             \
    LC_ENTER(Name);                                                                             \
    NARROW(comm, sendcount);                                                                    \
    NARROW(comm, recvcount);                                                                    \
    SMPI_RETURN(PMPI_##Name(sendbuf, i_sendcount, sendtype, recvbuf, i_recvcount, recvtype,     \
                            comm, request));                                                    \
  }
LC_IALL(Iallgather)
LC_IALL(Ialltoall)

/* ---- datatypes and packing ---- */

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  LC_ENTER(Type_vector);
  NARROW(MPI_COMM_WORLD, count);
  NARROW(MPI_COMM_WORLD, blocklength);
  NARROW(MPI_COMM_WORLD, stride);
  SMPI_RETURN(PMPI_Type_vector(i_count, i_blocklength, i_stride, oldtype, newtype));
}

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  LC_ENTER(Type_create_hvector);
  NARROW(MPI_COMM_WORLD, count);
  NARROW(MPI_COMM_WORLD, blocklength);
  SMPI_RETURN(
      PMPI_Type_create_hvector(i_count, i_blocklength, (MPI_Aint)stride, oldtype, newtype));
}

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
  LC_ENTER(Type_indexed);
  NARROW(MPI_COMM_WORLD, count);
  ARRAY(MPI_COMM_WORLD, array_of_blocklengths, i_count);
  int lrc;
  int *d = lc_array(MPI_COMM_WORLD, (const long long *)array_of_displacements, i_count,
                    "array_of_displacements", smpi_fname_, narrow_, &lrc);
  if (lrc) {
    free(i_array_of_blocklengths);
    SMPI_RETURN(lrc);
  }
  int rc = PMPI_Type_indexed(i_count, i_array_of_blocklengths, d, oldtype, newtype);
  free(i_array_of_blocklengths);
  free(d);
  SMPI_RETURN(rc);
}

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
  LC_ENTER(Type_create_hindexed);
  NARROW(MPI_COMM_WORLD, count);
  ARRAY(MPI_COMM_WORLD, array_of_blocklengths, i_count);
  /* byte displacements: MPI_Count and MPI_Aint are one type here */
  int rc = PMPI_Type_create_hindexed(i_count, i_array_of_blocklengths,
                                     (const MPI_Aint *)array_of_displacements, oldtype, newtype);
  free(i_array_of_blocklengths);
  SMPI_RETURN(rc);
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  LC_ENTER(Type_create_indexed_block);
  NARROW(MPI_COMM_WORLD, count);
  NARROW(MPI_COMM_WORLD, blocklength);
  ARRAY(MPI_COMM_WORLD, array_of_displacements, i_count);
  int rc = PMPI_Type_create_indexed_block(i_count, i_blocklength, i_array_of_displacements,
                                          oldtype, newtype);
  free(i_array_of_displacements);
  SMPI_RETURN(rc);
}

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  LC_ENTER(Type_create_hindexed_block);
  NARROW(MPI_COMM_WORLD, count);
  NARROW(MPI_COMM_WORLD, blocklength);
  SMPI_RETURN(PMPI_Type_create_hindexed_block(i_count, i_blocklength,
                                              (const MPI_Aint *)array_of_displacements, oldtype,
                                              newtype));
}

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
  LC_ENTER(Type_create_struct);
  NARROW(MPI_COMM_WORLD, count);
  ARRAY(MPI_COMM_WORLD, array_of_blocklengths, i_count);
  int rc = PMPI_Type_create_struct(i_count, i_array_of_blocklengths,
                                   (const MPI_Aint *)array_of_displacements, array_of_types,
                                   newtype);
  free(i_array_of_blocklengths);
  SMPI_RETURN(rc);
}

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
  SMPI_ENTER("MPI_Type_create_resized_c");
  SMPI_RETURN(PMPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype));
}

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
  LC_ENTER(Pack);
  NARROW(comm, incount);
  NARROW(comm, outsize);
  SMPI_CHECK(position, comm, MPI_ERR_ARG);
  MPI_Count position_in = *position;
  NARROW_AS(comm, position_in, "position");
  int pos = i_position_in;
  int rc = PMPI_Pack(inbuf, i_incount, datatype, outbuf, i_outsize, &pos, comm);
  *position = pos;
  SMPI_RETURN(rc);
}

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
  LC_ENTER(Unpack);
  NARROW(comm, insize);
  NARROW(comm, outcount);
  SMPI_CHECK(position, comm, MPI_ERR_ARG);
  MPI_Count position_in = *position;
  NARROW_AS(comm, position_in, "position");
  int pos = i_position_in;
  int rc = PMPI_Unpack(inbuf, i_insize, &pos, outbuf, i_outcount, datatype, comm);
  *position = pos;
  SMPI_RETURN(rc);
}

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
  LC_ENTER(Pack_size);
  NARROW(comm, incount);
  SMPI_CHECK(size, comm, MPI_ERR_ARG);
  int s = 0;
  int rc = PMPI_Pack_size(i_incount, datatype, comm, &s);
  *size = s;
  SMPI_RETURN(rc);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
  LC_ENTER(Buffer_attach);
  NARROW(MPI_COMM_WORLD, size);
  SMPI_RETURN(PMPI_Buffer_attach(buffer, i_size));
}

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
  SMPI_ENTER("MPI_Buffer_detach_c");
  SMPI_CHECK(size, MPI_COMM_WORLD, MPI_ERR_ARG);
  int s = 0;
  int rc = PMPI_Buffer_detach(buffer_addr, &s);
  *size = s;
  SMPI_RETURN(rc);
}

/* ---- one-sided: errors through the window's handler ---- */

static int lc_win_fits(MPI_Win win, MPI_Count v, const char *what, const char *fname,
                       const char *narrow)
{
  if (v <= INT_MAX && v >= INT_MIN)
    return MPI_SUCCESS;
  fprintf(stderr,
          "smpi: %s: %s %lld is beyond INT_MAX, and smpi's %s counts in int (use a derived "
          "datatype)\n",
          fname, what, (long long)v, narrow);
  PMPI_Win_call_errhandler(win, MPI_ERR_COUNT);
  return MPI_ERR_COUNT;
}
#define WNARROW(win, var)                                                          \
  int i_##var = (int)(var);                                                        \
  do {                                                                             \
    int lc_rc_ = lc_win_fits((win), (MPI_Count)(var), #var, smpi_fname_, narrow_); \
    if (lc_rc_)                                                                    \
      SMPI_RETURN(lc_rc_);                                                         \
  } while (0)

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
  LC_ENTER(Put);
  WNARROW(win, origin_count);
  WNARROW(win, target_count);
  SMPI_RETURN(PMPI_Put(origin_addr, i_origin_count, origin_datatype, target_rank, target_disp,
                       i_target_count, target_datatype, win));
}

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
  LC_ENTER(Get);
  WNARROW(win, origin_count);
  WNARROW(win, target_count);
  SMPI_RETURN(PMPI_Get(origin_addr, i_origin_count, origin_datatype, target_rank, target_disp,
                       i_target_count, target_datatype, win));
}

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
  LC_ENTER(Accumulate);
  WNARROW(win, origin_count);
  WNARROW(win, target_count);
  SMPI_RETURN(PMPI_Accumulate(origin_addr, i_origin_count, origin_datatype, target_rank,
                              target_disp, i_target_count, target_datatype, op, win));
}

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
  LC_ENTER(Get_accumulate);
  WNARROW(win, origin_count);
  WNARROW(win, result_count);
  WNARROW(win, target_count);
  SMPI_RETURN(PMPI_Get_accumulate(origin_addr, i_origin_count, origin_datatype, result_addr,
                                  i_result_count, result_datatype, target_rank, target_disp,
                                  i_target_count, target_datatype, op, win));
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win)
{
  LC_ENTER(Win_create);
  NARROW_AS(comm, disp_unit, "disp_unit");
  SMPI_RETURN(PMPI_Win_create(base, size, i_disp_unit, info, comm, win));
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
  LC_ENTER(Win_allocate);
  NARROW_AS(comm, disp_unit, "disp_unit");
  SMPI_RETURN(PMPI_Win_allocate(size, i_disp_unit, info, comm, baseptr, win));
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win)
{
  LC_ENTER(Win_allocate_shared);
  NARROW_AS(comm, disp_unit, "disp_unit");
  SMPI_RETURN(PMPI_Win_allocate_shared(size, i_disp_unit, info, comm, baseptr, win));
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
  SMPI_ENTER("MPI_Win_shared_query_c");
  int du = 0;
  int rc = PMPI_Win_shared_query(win, rank, size, disp_unit ? &du : NULL, baseptr);
  if (rc == MPI_SUCCESS && disp_unit)
    *disp_unit = du;
  SMPI_RETURN(rc);
}

/* ---- MPI-IO: errors through the file's handler ---- */

#define FNARROW(fh, var)                                                                   \
  int i_##var = (int)(var);                                                                \
  do {                                                                                     \
    if ((var) > INT_MAX) {                                                                 \
      char lc_d_[200];                                                                     \
      snprintf(lc_d_, sizeof lc_d_,                                                        \
               #var " %lld is beyond INT_MAX, and smpi's %s counts in int (use a derived " \
                    "datatype)",                                                           \
               (long long)(var), narrow_);                                                 \
      SMPI_RETURN(smpi_file_error(smpi_file_get(fh), MPI_ERR_COUNT, smpi_fname_, lc_d_));  \
    }                                                                                      \
  } while (0)

#define LC_FILE(Name, bufq)                                                                     \
  int PMPI_File_##Name##_c(MPI_File fh, bufq void *buf, MPI_Count count, MPI_Datatype datatype, \
                           MPI_Status *status)                                                  \
  {                                                                                             \
    LC_ENTER(File_##Name);                                                                      \
    FNARROW(fh, count);                                                                         \
    SMPI_RETURN(PMPI_File_##Name(fh, buf, i_count, datatype, status));                          \
  }
LC_FILE(read, )
LC_FILE(read_all, )
LC_FILE(read_shared, )
LC_FILE(read_ordered, )
LC_FILE(write, const)
LC_FILE(write_all, const)
LC_FILE(write_shared, const)
LC_FILE(write_ordered, const)

#define LC_FILE_AT(Name, bufq)                                                              \
  int PMPI_File_##Name##_c(MPI_File fh, MPI_Offset offset, bufq void *buf, MPI_Count count, \
                           MPI_Datatype datatype, MPI_Status *status)                       \
  {                                                                                         \
    LC_ENTER(File_##Name);                                                                  \
    FNARROW(fh, count);                                                                     \
    SMPI_RETURN(PMPI_File_##Name(fh, offset, buf, i_count, datatype, status));              \
  }
LC_FILE_AT(read_at, )
LC_FILE_AT(read_at_all, )
LC_FILE_AT(write_at, const)
LC_FILE_AT(write_at_all, const)

#define LC_FILE_I(Name, bufq)                                                                   \
  int PMPI_File_##Name##_c(MPI_File fh, bufq void *buf, MPI_Count count, MPI_Datatype datatype, \
                           MPI_Request *request)                                                \
  {                                                                                             \
    LC_ENTER(File_##Name);                                                                      \
    FNARROW(fh, count);                                                                         \
    SMPI_RETURN(PMPI_File_##Name(fh, buf, i_count, datatype, request));                         \
  }
LC_FILE_I(iread, )
LC_FILE_I(iread_all, )
LC_FILE_I(iread_shared, )
LC_FILE_I(iwrite, const)
LC_FILE_I(iwrite_all, const)
LC_FILE_I(iwrite_shared, const)

#define LC_FILE_IAT(Name, bufq)                                                             \
  int PMPI_File_##Name##_c(MPI_File fh, MPI_Offset offset, bufq void *buf, MPI_Count count, \
                           MPI_Datatype datatype, MPI_Request *request)                     \
  {                                                                                         \
    LC_ENTER(File_##Name);                                                                  \
    FNARROW(fh, count);                                                                     \
    SMPI_RETURN(PMPI_File_##Name(fh, offset, buf, i_count, datatype, request));             \
  }
LC_FILE_IAT(iread_at, )
LC_FILE_IAT(iread_at_all, )
LC_FILE_IAT(iwrite_at, const)
LC_FILE_IAT(iwrite_at_all, const)

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
  SMPI_ENTER("MPI_File_get_type_extent_c");
  MPI_Aint e = 0;
  int rc = PMPI_File_get_type_extent(fh, datatype, extent ? &e : NULL);
  if (rc == MPI_SUCCESS && extent)
    *extent = e;
  SMPI_RETURN(rc);
}
