/* The MPI point-to-point functions (MPI 3.1 chapter 3): each checks its arguments, in the
 * order that decides which error a call with several bad ones reports, resolves its handles
 * and calls smpi_p2p_mpi_* (smpi/mpi/p2p.h) for the rest; errors go through the error
 * handler of the call's communicator (of the request's, for completion calls), with a
 * detail for the fatal message:
 *
 *   smpi: rank 3: MPI_Send on MPI_COMM_WORLD: MPI_ERR_RANK: invalid rank (destination 7
 *   with 4 ranks)
 *
 * Every send and receive goes through here: the checks are inlined, and the detail is
 * formatted only on the error paths. */
#include <stdio.h>
#include <stdlib.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/p2p.h"
#include "src/mem.h"

/* ---- argument checks: 0 or an MPI error class, with a detail for the fatal message ---- */

/* Not zero-initialized (why w = {{0}} would clear 160 bytes of stack, three cache lines, in
 * every call): WHY writes it, and only the error paths read it. */
typedef smpi_p2p_why why;

#define WHY(w, ...) snprintf((w)->s, sizeof(w)->s, __VA_ARGS__)
/* fail through the communicator's error handler with the detail */
#define SMPI_FAILW(comm, code, w) \
  SMPI_RETURN(smpi_comm_errorf((comm), (code), smpi_fname_, "%s", (w)->s))

static int peer_count(const smpi_comm *c)
{
  return smpi_comm_is_inter(c) ? smpi_comm_remote_size(c) : smpi_comm_size(c);
}

/* The argument checks are inlined into the MPI functions: every send and receive runs them,
 * and the nested calls cost more than the tests themselves. */
#define P2P_INLINE static inline __attribute__((always_inline))

/* count: an int, or the MPI_Count of a large-count (_c) function (MPI 4.0), which the
 * internals take whole (size_t counts) */
P2P_INLINE int check_buffer(const void *buf, MPI_Count count, MPI_Datatype type,
                            const smpi_dt **out, why *w)
{
  if (count < 0)
    return WHY(w, "count %lld", count), MPI_ERR_COUNT;
  const smpi_dt *dt = smpi_dt_get(type);
  if (!dt)
    return WHY(w, "datatype %#x is not a valid datatype", (unsigned)type), MPI_ERR_TYPE;
  if (!smpi_dt_is_committed(dt))
    return WHY(w, "datatype %s is not committed (MPI_Type_commit)", smpi_dt_name(dt)),
           MPI_ERR_TYPE;
  /* MPI_BOTTOM (NULL) is legitimate with a datatype of absolute addresses (true lb != 0) */
  if (!buf && count > 0 && smpi_dt_size(dt) > 0 && smpi_dt_true_lb(dt) == 0)
    return WHY(w, "NULL buffer for %lld elements of %s", count, smpi_dt_name(dt)), MPI_ERR_BUFFER;
  if (buf == MPI_IN_PLACE)
    return WHY(w, "MPI_IN_PLACE is not a buffer for point-to-point calls"), MPI_ERR_BUFFER;
  *out = dt;
  return 0;
}

P2P_INLINE int check_rank(const smpi_comm *c, int r, bool any_ok, const char *what, why *w)
{
  if (r == MPI_PROC_NULL || (any_ok && r == MPI_ANY_SOURCE))
    return 0;
  int n = peer_count(c);
  if (r < 0 || r >= n)
    return WHY(w, "%s %d with %d %sranks", what, r, n, smpi_comm_is_inter(c) ? "remote " : ""),
           MPI_ERR_RANK;
  return 0;
}

P2P_INLINE int check_tag(int tag, bool any_ok, why *w)
{
  if (any_ok && tag == MPI_ANY_TAG)
    return 0;
  if (tag < 0 || tag > SMPI_TAG_UB)
    return WHY(w, "tag %d (valid tags: 0 .. MPI_TAG_UB = %d%s)", tag, SMPI_TAG_UB,
               any_ok ? ", or MPI_ANY_TAG" : ""),
           MPI_ERR_TAG;
  return 0;
}

P2P_INLINE int check_send(const smpi_comm *c, const void *buf, MPI_Count count, MPI_Datatype type,
                          int dst, int tag, const smpi_dt **dt, why *w)
{
  int rc = check_buffer(buf, count, type, dt, w);
  if (!rc)
    rc = check_rank(c, dst, false, "destination", w);
  if (!rc)
    rc = check_tag(tag, false, w);
  return rc;
}

P2P_INLINE int check_recv(const smpi_comm *c, const void *buf, MPI_Count count, MPI_Datatype type,
                          int src, int tag, const smpi_dt **dt, why *w)
{
  int rc = check_buffer(buf, count, type, dt, w);
  if (!rc)
    rc = check_rank(c, src, true, "source", w);
  if (!rc)
    rc = check_tag(tag, true, w);
  return rc;
}

static int check_probe(const smpi_comm *c, int src, int tag, why *w)
{
  int rc = check_rank(c, src, true, "source", w);
  if (!rc)
    rc = check_tag(tag, true, w);
  return rc;
}

/* ---- sends and receives ---- */

/* The checks every send and receive starts with, in the order that decides which error a
 * call with several bad arguments reports: communicator, then the output handle (request_ok),
 * then buffer, peer and tag (check is check_send or check_recv). Declares c, dt, w and rc. */
#define P2P_ARGS(check, peer, request_ok)                      \
  smpi_comm *c = SMPI_CHECK_COMM(comm);                        \
  SMPI_CHECK(request_ok, comm, MPI_ERR_ARG);                   \
  const smpi_dt *dt = NULL;                                    \
  why w;                                                       \
  w.s[0] = '\0';                                               \
  int rc = check(c, buf, count, datatype, peer, tag, &dt, &w); \
  if (rc)                                                      \
  SMPI_FAILW(comm, rc, &w)

#define SEND_BODY(mode)                                                                \
  P2P_ARGS(check_send, dest, true);                                                    \
  rc = smpi_p2p_mpi_send(c, buf, (size_t)count, dt, dest, tag, mode, smpi_fname_, &w); \
  if (rc)                                                                              \
    SMPI_FAILW(comm, rc, &w);                                                          \
  SMPI_RETURN(MPI_SUCCESS)

#define ISEND_BODY(mode)                                                                         \
  P2P_ARGS(check_send, dest, request);                                                           \
  rc = smpi_p2p_mpi_isend(c, buf, (size_t)count, dt, dest, tag, mode, smpi_fname_, request, &w); \
  if (rc)                                                                                        \
    SMPI_FAILW(comm, rc, &w);                                                                    \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Send");
  SEND_BODY(0);
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
  SMPI_ENTER("MPI_Ssend");
  SEND_BODY(SMPI_P2P_SYNC);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
  SMPI_ENTER("MPI_Rsend");
  SEND_BODY(SMPI_P2P_READY);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
  SMPI_ENTER("MPI_Bsend");
  SEND_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isend");
  ISEND_BODY(0);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Issend");
  ISEND_BODY(SMPI_P2P_SYNC);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Irsend");
  ISEND_BODY(SMPI_P2P_READY);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ibsend");
  ISEND_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
  SMPI_ENTER("MPI_Recv");
  P2P_ARGS(check_recv, source, true);
  rc = smpi_p2p_mpi_recv(c, buf, (size_t)count, dt, source, tag, smpi_fname_, status, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
  SMPI_ENTER("MPI_Irecv");
  P2P_ARGS(check_recv, source, request);
  smpi_p2p_mpi_irecv(c, buf, (size_t)count, dt, source, tag, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- persistent requests ---- */

#define SEND_INIT_BODY(mode)                                                                \
  P2P_ARGS(check_send, dest, request);                                                      \
  smpi_p2p_mpi_send_init(c, buf, (size_t)count, dt, dest, tag, mode, smpi_fname_, request); \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Send_init");
  SEND_INIT_BODY(0);
}

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ssend_init");
  SEND_INIT_BODY(SMPI_P2P_SYNC);
}

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Rsend_init");
  SEND_INIT_BODY(SMPI_P2P_READY);
}

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Bsend_init");
  SEND_INIT_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Recv_init");
  P2P_ARGS(check_recv, source, request);
  smpi_p2p_mpi_recv_init(c, buf, (size_t)count, dt, source, tag, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Start(MPI_Request *request)
{
  SMPI_ENTER("MPI_Start");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = smpi_p2p_req_get(*request);
  why w;
  w.s[0] = '\0';
  int rc = smpi_p2p_mpi_start(r, &w);
  if (rc)
    SMPI_FAILW(smpi_p2p_req_comm(r), rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
  SMPI_ENTER("MPI_Startall");
  SMPI_CHECK(count >= 0, MPI_COMM_WORLD, MPI_ERR_COUNT);
  SMPI_CHECK(count == 0 || array_of_requests, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  why w;
  w.s[0] = '\0';
  MPI_Comm ch = MPI_COMM_WORLD;
  int rc = smpi_p2p_mpi_startall(count, array_of_requests, &ch, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- combined send-receive ---- */

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Sendrecv");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  const smpi_dt *sdt = NULL, *rdt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, &sdt, &w);
  if (!rc)
    rc = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, &rdt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  rc = smpi_p2p_mpi_sendrecv(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                             (size_t)recvcount, rdt, source, recvtag, smpi_fname_, status);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isendrecv");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(request, comm, MPI_ERR_ARG);
  const smpi_dt *sdt = NULL, *rdt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, &sdt, &w);
  if (!rc)
    rc = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, &rdt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(smpi_p2p_mpi_isendrecv(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                                     (size_t)recvcount, rdt, source, recvtag, false, smpi_fname_,
                                     request));
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isendrecv_replace");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(request, comm, MPI_ERR_ARG);
  const smpi_dt *dt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, buf, count, datatype, dest, sendtag, &dt, &w);
  if (!rc)
    rc = check_recv(c, buf, count, datatype, source, recvtag, &dt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(smpi_p2p_mpi_isendrecv(c, NULL, 0, NULL, dest, sendtag, buf, (size_t)count, dt,
                                     source, recvtag, true, smpi_fname_, request));
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Sendrecv_replace");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  const smpi_dt *dt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, buf, count, datatype, dest, sendtag, &dt, &w);
  if (!rc)
    rc = check_recv(c, buf, count, datatype, source, recvtag, &dt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  rc = smpi_p2p_mpi_sendrecv_replace(c, buf, (size_t)count, dt, dest, sendtag, source, recvtag,
                                     smpi_fname_, status);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- buffered-mode buffer ---- */

int PMPI_Buffer_attach(void *buffer, int size)
{
  SMPI_ENTER("MPI_Buffer_attach");
  SMPI_CHECK(size >= 0, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_CHECK(buffer || size == 0, MPI_COMM_WORLD, MPI_ERR_BUFFER);
  int rc = smpi_p2p_mpi_buffer_attach(buffer, size);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
  SMPI_ENTER("MPI_Buffer_detach");
  SMPI_CHECK(buffer_addr && size, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_p2p_mpi_buffer_detach(buffer_addr, size);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- completion ---- */

/* Handles -> objects; MPI_ERR_REQUEST if a non-null one is invalid. */
static int resolve(int count, const MPI_Request *hs, smpi_req **out)
{
  for (int i = 0; i < count; i++) {
    if (hs[i] == MPI_REQUEST_NULL) {
      out[i] = NULL;
      continue;
    }
    out[i] = smpi_p2p_req_get(hs[i]);
    if (!out[i])
      return MPI_ERR_REQUEST;
  }
  return 0;
}

static int check_array(int count, const MPI_Request *hs)
{
  if (count < 0)
    return MPI_ERR_COUNT;
  if (count > 0 && !hs)
    return MPI_ERR_REQUEST;
  return 0;
}

/* The requests of a completion call, on the stack when they are few. */
typedef struct req_array {
  smpi_req *small[16];
  smpi_req **v;
} req_array;

static void req_array_close(req_array *a)
{
  if (a->v != a->small)
    free(a->v);
}

/* What every array completion call starts with: the array, then the call's other outputs
 * (args_ok), then every handle; 0 with a->v holding the requests (req_array_close it), or the
 * error class with nothing to close. */
static int req_array_open(req_array *a, int count, const MPI_Request *hs, bool args_ok)
{
  int rc = check_array(count, hs);
  if (!rc && !args_ok)
    rc = MPI_ERR_ARG;
  if (rc)
    return rc;
  a->v = count <= 16 ? a->small : xmalloc((size_t)count * sizeof *a->v);
  rc = resolve(count, hs, a->v);
  if (rc)
    req_array_close(a);
  return rc;
}

/* The request of *request for Wait, Test, Request_get_status: NULL for MPI_REQUEST_NULL,
 * MPI_ERR_REQUEST through MPI_COMM_WORLD's handler for an invalid one. Declares r. */
#define REQ_OR_NULL(h)                              \
  smpi_req *r = NULL;                               \
  if ((h) != MPI_REQUEST_NULL) {                    \
    r = smpi_p2p_req_get(h);                        \
    SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST); \
  }

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
  SMPI_ENTER("MPI_Wait");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  REQ_OR_NULL(*request);
  MPI_Comm ch = MPI_COMM_WORLD;
  why w;
  w.s[0] = '\0';
  int rc = smpi_p2p_mpi_wait(r, request, smpi_fname_, status, &ch, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Test");
  SMPI_CHECK(request && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  REQ_OR_NULL(*request);
  MPI_Comm ch = MPI_COMM_WORLD;
  int rc = smpi_p2p_mpi_test(r, request, flag, status, &ch);
  if (rc)
    SMPI_FAIL(ch, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* Body of the array completion calls: open the array (args_ok: the call's other outputs),
 * run `call` (an smpi_p2p_mpi_* taking count, hs, rs and &ch), close, raise its error. */
#define ARRAY_BODY(count, hs, args_ok, call)              \
  req_array ra;                                           \
  int rc = req_array_open(&ra, (count), (hs), (args_ok)); \
  if (rc)                                                 \
    SMPI_FAIL(MPI_COMM_WORLD, rc);                        \
  smpi_req **rs = ra.v;                                   \
  MPI_Comm ch = MPI_COMM_WORLD;                           \
  rc = (call);                                            \
  req_array_close(&ra);                                   \
  if (rc)                                                 \
    SMPI_FAIL(ch, rc);                                    \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Waitall");
  ARRAY_BODY(count, array_of_requests, true,
             smpi_p2p_mpi_waitall(count, array_of_requests, rs, smpi_fname_, array_of_statuses,
                                  &ch));
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status)
{
  SMPI_ENTER("MPI_Waitany");
  ARRAY_BODY(count, array_of_requests, indx != NULL,
             smpi_p2p_mpi_waitany(count, array_of_requests, rs, smpi_fname_, indx, status, &ch));
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Waitsome");
  ARRAY_BODY(incount, array_of_requests, outcount && (incount <= 0 || array_of_indices),
             smpi_p2p_mpi_waitsome(incount, array_of_requests, rs, smpi_fname_, outcount,
                                   array_of_indices, array_of_statuses, &ch));
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Testall");
  ARRAY_BODY(count, array_of_requests, flag != NULL,
             smpi_p2p_mpi_testall(count, array_of_requests, rs, flag, array_of_statuses, &ch));
}

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *indx, int *flag,
                 MPI_Status *status)
{
  SMPI_ENTER("MPI_Testany");
  ARRAY_BODY(count, array_of_requests, indx && flag,
             smpi_p2p_mpi_testany(count, array_of_requests, rs, indx, flag, status, &ch));
}

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Testsome");
  ARRAY_BODY(incount, array_of_requests, outcount && (incount <= 0 || array_of_indices),
             smpi_p2p_mpi_testsome(incount, array_of_requests, rs, outcount, array_of_indices,
                                   array_of_statuses, &ch));
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Request_get_status");
  SMPI_CHECK(flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  REQ_OR_NULL(request);
  smpi_p2p_mpi_request_get_status(r, flag, status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Request_free(MPI_Request *request)
{
  SMPI_ENTER("MPI_Request_free");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = smpi_p2p_req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_p2p_mpi_request_free(r);
  *request = MPI_REQUEST_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cancel(MPI_Request *request)
{
  SMPI_ENTER("MPI_Cancel");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = smpi_p2p_req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  MPI_Comm ch = MPI_COMM_WORLD;
  why w;
  w.s[0] = '\0';
  int rc = smpi_p2p_mpi_cancel(r, &ch, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
  SMPI_ENTER("MPI_Test_cancelled");
  SMPI_CHECK(status && flag && status != MPI_STATUS_IGNORE && status != MPI_STATUSES_IGNORE,
             MPI_COMM_WORLD, MPI_ERR_ARG);
  *flag = (status->smpi_cancelled & SMPI_STATUS_CANCELLED) != 0;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
  SMPI_ENTER("MPI_Status_set_cancelled");
  SMPI_CHECK(status && status != MPI_STATUS_IGNORE && status != MPI_STATUSES_IGNORE,
             MPI_COMM_WORLD, MPI_ERR_ARG);
  status->smpi_cancelled = flag ? SMPI_STATUS_CANCELLED : 0;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- generalized requests (smpi/mpi/greq.c) ---- */

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
  SMPI_ENTER("MPI_Grequest_start");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_greq_start(query_fn, free_fn, cancel_fn, extra_state, request));
}

int PMPI_Grequest_complete(MPI_Request request)
{
  SMPI_ENTER("MPI_Grequest_complete");
  smpi_req *r = smpi_p2p_req_get(request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  int rc = smpi_greq_complete(r);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- probes and matched receives ---- */

/* The checks every probe starts with: communicator, then its outputs (out_ok), then source
 * and tag. Declares c. */
#define PROBE_ARGS(out_ok)                    \
  smpi_comm *c = SMPI_CHECK_COMM(comm);       \
  SMPI_CHECK(out_ok, comm, MPI_ERR_ARG);      \
  do {                                        \
    why w;                                    \
    w.s[0] = '\0';                            \
    int rc = check_probe(c, source, tag, &w); \
    if (rc)                                   \
      SMPI_FAILW(comm, rc, &w);               \
  } while (0)

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Iprobe");
  PROBE_ARGS(flag);
  smpi_p2p_mpi_iprobe(c, source, tag, flag, status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Probe");
  PROBE_ARGS(true);
  smpi_p2p_mpi_probe(c, source, tag, smpi_fname_, status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
  SMPI_ENTER("MPI_Improbe");
  PROBE_ARGS(flag && message);
  smpi_p2p_mpi_improbe(c, source, tag, flag, message, status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
  SMPI_ENTER("MPI_Mprobe");
  PROBE_ARGS(message);
  smpi_p2p_mpi_mprobe(c, source, tag, smpi_fname_, message, status);
  SMPI_RETURN(MPI_SUCCESS);
}

/* The checks of MPI_(I)mrecv: the message (MPI_MESSAGE_NO_PROC, or one a probe took: its
 * errors then go to the receiver's communicator), then the buffer. Declares ch and dt. */
#define MRECV_ARGS()                                      \
  SMPI_CHECK(message, MPI_COMM_WORLD, MPI_ERR_ARG);       \
  MPI_Comm ch = MPI_COMM_WORLD;                           \
  if (*message != MPI_MESSAGE_NO_PROC) {                  \
    smpi_comm *mc = smpi_p2p_message_comm(*message);      \
    SMPI_CHECK(mc, MPI_COMM_WORLD, MPI_ERR_REQUEST);      \
    ch = smpi_comm_handle(mc);                            \
  }                                                       \
  const smpi_dt *dt = NULL;                               \
  do {                                                    \
    why w;                                                \
    w.s[0] = '\0';                                        \
    int rc = check_buffer(buf, count, datatype, &dt, &w); \
    if (rc)                                               \
      SMPI_FAIL(ch, rc);                                  \
  } while (0)

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
  SMPI_ENTER("MPI_Mrecv");
  MRECV_ARGS();
  why w;
  w.s[0] = '\0';
  int rc = smpi_p2p_mpi_mrecv(buf, (size_t)count, dt, message, smpi_fname_, status, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
  SMPI_ENTER("MPI_Imrecv");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_ARG);
  MRECV_ARGS();
  smpi_p2p_mpi_imrecv(buf, (size_t)count, dt, message, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- MPI 4.0 large-count forms: the same calls with MPI_Count counts, taken whole ---- */

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
  SMPI_ENTER("MPI_Send_c");
  SEND_BODY(0);
}

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
  SMPI_ENTER("MPI_Ssend_c");
  SEND_BODY(SMPI_P2P_SYNC);
}

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
  SMPI_ENTER("MPI_Rsend_c");
  SEND_BODY(SMPI_P2P_READY);
}

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
  SMPI_ENTER("MPI_Bsend_c");
  SEND_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isend_c");
  ISEND_BODY(0);
}

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Issend_c");
  ISEND_BODY(SMPI_P2P_SYNC);
}

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Irsend_c");
  ISEND_BODY(SMPI_P2P_READY);
}

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ibsend_c");
  ISEND_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Recv_c");
  P2P_ARGS(check_recv, source, true);
  rc = smpi_p2p_mpi_recv(c, buf, (size_t)count, dt, source, tag, smpi_fname_, status, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Irecv_c");
  P2P_ARGS(check_recv, source, request);
  smpi_p2p_mpi_irecv(c, buf, (size_t)count, dt, source, tag, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Send_init_c");
  SEND_INIT_BODY(0);
}

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ssend_init_c");
  SEND_INIT_BODY(SMPI_P2P_SYNC);
}

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Rsend_init_c");
  SEND_INIT_BODY(SMPI_P2P_READY);
}

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Bsend_init_c");
  SEND_INIT_BODY(SMPI_P2P_BUFFERED);
}

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Recv_init_c");
  P2P_ARGS(check_recv, source, request);
  smpi_p2p_mpi_recv_init(c, buf, (size_t)count, dt, source, tag, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Sendrecv_c");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  const smpi_dt *sdt = NULL, *rdt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, &sdt, &w);
  if (!rc)
    rc = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, &rdt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  rc = smpi_p2p_mpi_sendrecv(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                             (size_t)recvcount, rdt, source, recvtag, smpi_fname_, status);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isendrecv_c");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(request, comm, MPI_ERR_ARG);
  const smpi_dt *sdt = NULL, *rdt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, &sdt, &w);
  if (!rc)
    rc = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, &rdt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(smpi_p2p_mpi_isendrecv(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                                     (size_t)recvcount, rdt, source, recvtag, false, smpi_fname_,
                                     request));
}

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
  SMPI_ENTER("MPI_Isendrecv_replace_c");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(request, comm, MPI_ERR_ARG);
  const smpi_dt *dt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, buf, count, datatype, dest, sendtag, &dt, &w);
  if (!rc)
    rc = check_recv(c, buf, count, datatype, source, recvtag, &dt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(smpi_p2p_mpi_isendrecv(c, NULL, 0, NULL, dest, sendtag, buf, (size_t)count, dt,
                                     source, recvtag, true, smpi_fname_, request));
}

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status)
{
  SMPI_ENTER("MPI_Sendrecv_replace_c");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  const smpi_dt *dt = NULL;
  why w;
  w.s[0] = '\0';
  int rc = check_send(c, buf, count, datatype, dest, sendtag, &dt, &w);
  if (!rc)
    rc = check_recv(c, buf, count, datatype, source, recvtag, &dt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  rc = smpi_p2p_mpi_sendrecv_replace(c, buf, (size_t)count, dt, dest, sendtag, source, recvtag,
                                     smpi_fname_, status);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
  SMPI_ENTER("MPI_Mrecv_c");
  MRECV_ARGS();
  why w;
  w.s[0] = '\0';
  int rc = smpi_p2p_mpi_mrecv(buf, (size_t)count, dt, message, smpi_fname_, status, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
  SMPI_ENTER("MPI_Imrecv_c");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_ARG);
  MRECV_ARGS();
  smpi_p2p_mpi_imrecv(buf, (size_t)count, dt, message, smpi_fname_, request);
  SMPI_RETURN(MPI_SUCCESS);
}
