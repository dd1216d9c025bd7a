/* The MPI point-to-point functions (MPI 3.1 chapter 3): argument checks, request handles,
 * buffered-send accounting, probes and the completion calls with SimGrid's injected costs.
 * The protocol itself is in request.c, the matching queues in match.c.
 *
 * Costs of the polling calls, as SimGrid 3.32 charges them (all counters shared by every
 * rank of the job, as SimGrid's function-static ones are):
 *
 *   MPI_Test                sleep test_n x smpi/test before looking (any non-null request);
 *                           test_n := 1 on success, += 1 on failure (smpi/grow-injected-times)
 *   MPI_Testall/Testsome    one MPI_Test-like sleep per active request they look at
 *   MPI_Waitsome            MPI_Waitany, then one MPI_Test-like look at each other request
 *   MPI_Testany             one sleep testany_n x smpi/test (its own counter, always grows)
 *   MPI_Iprobe/Improbe      a computation of iprobe_n x smpi/iprobe seconds on the host
 *   MPI_Probe/Mprobe        MPI_Iprobe in a loop until it succeeds
 *   MPI_Request_get_status  an MPI_Iprobe's cost (and counter) on an active request */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/observer.h"
#include "smpi/mpi/smpi_internal.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- argument checks: 0 or an MPI error class, with a detail for the fatal message ---- */

/* Not zero-initialized (why w = {{0}} would clear 160 bytes of stack, three cache lines, in
 * every call): WHY writes it, and only the error paths read it. */
typedef struct why {
  char s[160];
} why;

#define WHY(w, ...) snprintf((w)->s, sizeof (w)->s, __VA_ARGS__)
/* fail through the communicator's error handler with the detail */
#define SMPI_FAILW(comm, code, w) SMPI_RETURN(smpi_comm_errorf((comm), (code), smpi_fname_, "%s", (w)->s))

static int peer_count(const smpi_comm *c)
{
  return smpi_comm_is_inter(c) ? smpi_comm_remote_size(c) : smpi_comm_size(c);
}

/* The argument checks and the blocking send and receive steps are inlined into the MPI
 * functions: every send and receive runs them, and the nested calls cost more than the
 * tests themselves (and each frame is one more cache line of a rank's cold stack). */
#define P2P_INLINE static inline __attribute__((always_inline))

P2P_INLINE int check_buffer(const void *buf, int count, MPI_Datatype type, const smpi_dt **out,
                            why *w)
{
  if (count < 0)
    return WHY(w, "count %d", count), MPI_ERR_COUNT;
  const smpi_dt *dt = smpi_dt_get(type);
  if (!dt)
    return WHY(w, "datatype %#x is not a valid datatype", (unsigned)type), MPI_ERR_TYPE;
  if (!smpi_dt_is_committed(dt))
    return WHY(w, "datatype %s is not committed (MPI_Type_commit)", smpi_dt_name(dt)), MPI_ERR_TYPE;
  /* MPI_BOTTOM (NULL) is legitimate with a datatype of absolute addresses (true lb != 0) */
  if (!buf && count > 0 && smpi_dt_size(dt) > 0 && smpi_dt_true_lb(dt) == 0)
    return WHY(w, "NULL buffer for %d elements of %s", count, smpi_dt_name(dt)), MPI_ERR_BUFFER;
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

P2P_INLINE int check_send(const smpi_comm *c, const void *buf, int count, MPI_Datatype type,
                          int dst, int tag, const smpi_dt **dt, why *w)
{
  int rc = check_buffer(buf, count, type, dt, w);
  if (!rc)
    rc = check_rank(c, dst, false, "destination", w);
  if (!rc)
    rc = check_tag(tag, false, w);
  return rc;
}

P2P_INLINE int check_recv(const smpi_comm *c, const void *buf, int count, MPI_Datatype type,
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

/* Room for one more buffered message of bytes? */
static int check_bsend_room(int world, int dst, size_t bytes, why *w)
{
  if (dst == MPI_PROC_NULL)
    return 0;
  p2p_rank *rk = p2p_rank_of(world);
  if (!rk->bsend_buf)
    return WHY(w, "no buffer attached (MPI_Buffer_attach) for a buffered send of %zu bytes",
               bytes),
           MPI_ERR_BUFFER;
  size_t need = bytes + MPI_BSEND_OVERHEAD;
  if (rk->bsend_used + need > (size_t)rk->bsend_size)
    return WHY(w, "the attached buffer has %zu of %d bytes free, the message needs %zu (%zu + "
                  "MPI_BSEND_OVERHEAD)",
               (size_t)rk->bsend_size - rk->bsend_used, rk->bsend_size, need, bytes),
           MPI_ERR_BUFFER;
  return 0;
}

static smpi_req *req_get(MPI_Request h) { return smpi_handle_get(h, SMPI_KIND_REQUEST); }

static MPI_Comm req_comm_handle(const smpi_req *r)
{
  return r && r->comm ? smpi_comm_handle(r->comm) : MPI_COMM_WORLD;
}

static void status_proc_null(MPI_Status *st)
{
  if (p2p_status_wanted(st))
    *st = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
}

static send_mode mode_of(unsigned m) { return (send_mode)m; }

/* ---- sends and receives ---- */

P2P_INLINE smpi_req *new_send(smpi_comm *c, const void *buf, int count, const smpi_dt *dt,
                              int dst, int tag, send_mode mode, bool blocking, const char *call)
{
  smpi_req *r = p2p_req_new(REQ_SEND, (void *)buf, (size_t)count, dt, dst, tag, c,
                            blocking ? SMPI_P2P_BLOCKING : 0, call);
  r->mode = (uint8_t)mode;
  return r;
}

static void truncation_detail(const smpi_req *r, why *w)
{
  WHY(w, "the message from rank %d, tag %d is longer than the %zu bytes of the receive buffer "
         "(%zu x %s); the first %lld bytes were received",
      r->status.MPI_SOURCE, r->status.MPI_TAG, r->bytes, r->count, smpi_dt_name(r->dt),
      r->status.smpi_count);
}

/* Waits for r and finishes it into status; 0 or its error class, with the detail of a
 * truncation in w (w is left alone otherwise). */
P2P_INLINE int wait_finish(smpi_req *r, MPI_Status *status, const char *call, why *w)
{
  p2p_wait_complete(r, call);
  if (r->status.MPI_ERROR == MPI_ERR_TRUNCATE)
    truncation_detail(r, w);
  return p2p_req_finish(r, status);
}

/* Blocking send of any mode; 0 or an error class. */
P2P_INLINE int blocking_send(smpi_comm *c, const void *buf, int count, const smpi_dt *dt,
                             int dst, int tag, send_mode mode, const char *call, why *w)
{
  if (dst == MPI_PROC_NULL)
    return MPI_SUCCESS; /* SimGrid: no request, no cost */
  if (mode == MODE_BUFFERED) {
    int rc = check_bsend_room(p2p_my_world_rank(), dst, (size_t)count * smpi_dt_size(dt), w);
    if (rc)
      return rc;
  }
  smpi_req *r = new_send(c, buf, count, dt, dst, tag, mode, true, call);
  p2p_req_start(r);
  p2p_wait_complete(r, call);
  int rc = p2p_req_finish(r, NULL);
  if (rc)
    WHY(w, "send to rank %d, tag %d", dst, tag);
  return rc;
}

static MPI_Request give_handle(smpi_req *r)
{
  r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
  return r->handle;
}

static int nonblocking_send(smpi_comm *c, const void *buf, int count, const smpi_dt *dt, int dst,
                            int tag, send_mode mode, const char *call, MPI_Request *request,
                            why *w)
{
  if (mode == MODE_BUFFERED) {
    int rc = check_bsend_room(p2p_my_world_rank(), dst, (size_t)count * smpi_dt_size(dt), w);
    if (rc)
      return rc;
  }
  smpi_req *r = new_send(c, buf, count, dt, dst, tag, mode, false, call);
  *request = give_handle(r);
  p2p_req_start(r);
  return MPI_SUCCESS;
}

/* The checks every send and receive starts with, in the order that decides which error a
 * call with several bad arguments reports: communicator, then the output handle (request_ok),
 * then buffer, peer and tag (check is check_send or check_recv). Declares c, dt, w and rc. */
#define P2P_ARGS(check, peer, request_ok)                                                \
  smpi_comm *c = SMPI_CHECK_COMM(comm);                                                  \
  SMPI_CHECK(request_ok, comm, MPI_ERR_ARG);                                             \
  const smpi_dt *dt = NULL;                                                              \
  why w; w.s[0] = '\0';                                                                \
  int rc = check(c, buf, count, datatype, peer, tag, &dt, &w);                           \
  if (rc)                                                                                \
    SMPI_FAILW(comm, rc, &w)

#define SEND_BODY(mode)                                                                  \
  P2P_ARGS(check_send, dest, true);                                                      \
  rc = blocking_send(c, buf, count, dt, dest, tag, mode, smpi_fname_, &w);               \
  if (rc)                                                                                \
    SMPI_FAILW(comm, rc, &w);                                                            \
  SMPI_RETURN(MPI_SUCCESS)

#define ISEND_BODY(mode)                                                                 \
  P2P_ARGS(check_send, dest, request);                                                   \
  rc = nonblocking_send(c, buf, count, dt, dest, tag, mode, smpi_fname_, request, &w);   \
  if (rc)                                                                                \
    SMPI_FAILW(comm, rc, &w);                                                            \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Send");
  SEND_BODY(MODE_STANDARD);
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Ssend");
  SEND_BODY(MODE_SYNC);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Rsend");
  SEND_BODY(MODE_READY);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Bsend");
  SEND_BODY(MODE_BUFFERED);
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Isend");
  ISEND_BODY(MODE_STANDARD);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Issend");
  ISEND_BODY(MODE_SYNC);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Irsend");
  ISEND_BODY(MODE_READY);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ibsend");
  ISEND_BODY(MODE_BUFFERED);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
  SMPI_ENTER("MPI_Recv");
  P2P_ARGS(check_recv, source, true);
  if (source == MPI_PROC_NULL) {
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  smpi_req *r = p2p_req_new(REQ_RECV, buf, (size_t)count, dt, source, tag, c, 0, smpi_fname_);
  p2p_req_start(r);
  rc = wait_finish(r, status, smpi_fname_, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
  SMPI_ENTER("MPI_Irecv");
  P2P_ARGS(check_recv, source, request);
  smpi_req *r = p2p_req_new(REQ_RECV, buf, (size_t)count, dt, source, tag, c, 0, smpi_fname_);
  *request = give_handle(r);
  p2p_req_start(r);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- persistent requests ---- */

#define SEND_INIT_BODY(mode)                                                             \
  P2P_ARGS(check_send, dest, request);                                                   \
  /* SimGrid starts persistent sends like blocking ones: they pay smpi/os */             \
  smpi_req *r = new_send(c, buf, count, dt, dest, tag, mode, true, smpi_fname_);         \
  r->persistent = true;                                                                  \
  *request = give_handle(r);                                                             \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Send_init");
  SEND_INIT_BODY(MODE_STANDARD);
}

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Ssend_init");
  SEND_INIT_BODY(MODE_SYNC);
}

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Rsend_init");
  SEND_INIT_BODY(MODE_READY);
}

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Bsend_init");
  SEND_INIT_BODY(MODE_BUFFERED);
}

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Recv_init");
  P2P_ARGS(check_recv, source, request);
  smpi_req *r = p2p_req_new(REQ_RECV, buf, (size_t)count, dt, source, tag, c, 0, smpi_fname_);
  r->persistent = true;
  *request = give_handle(r);
  SMPI_RETURN(MPI_SUCCESS);
}

/* 0, or the error class of starting r */
static int check_startable(smpi_req *r, why *w)
{
  if (!r)
    return WHY(w, "invalid request"), MPI_ERR_REQUEST;
  if (!r->persistent)
    return WHY(w, "not a persistent request (made by %s)", r->call ? r->call : "?"),
           MPI_ERR_REQUEST;
  if (r->active)
    return WHY(w, "the request is already active"), MPI_ERR_REQUEST;
  if (r->kind == REQ_SEND && mode_of(r->mode) == MODE_BUFFERED)
    return check_bsend_room(r->owner, r->peer, r->bytes, w);
  return 0;
}

int PMPI_Start(MPI_Request *request)
{
  SMPI_ENTER("MPI_Start");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = req_get(*request);
  why w; w.s[0] = '\0';
  int rc = check_startable(r, &w);
  if (rc)
    SMPI_FAILW(req_comm_handle(r), rc, &w);
  p2p_req_start(r);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
  SMPI_ENTER("MPI_Startall");
  SMPI_CHECK(count >= 0, MPI_COMM_WORLD, MPI_ERR_COUNT);
  SMPI_CHECK(count == 0 || array_of_requests, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  /* check every request before starting any */
  size_t room = 0;
  why w; w.s[0] = '\0';
  for (int i = 0; i < count; i++) {
    smpi_req *r = req_get(array_of_requests[i]);
    int rc = check_startable(r, &w);
    if (rc)
      SMPI_FAILW(req_comm_handle(r), rc, &w);
    if (r->kind == REQ_SEND && mode_of(r->mode) == MODE_BUFFERED && r->peer != MPI_PROC_NULL)
      room += r->bytes + MPI_BSEND_OVERHEAD;
  }
  if (room) {
    p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
    if (!rk->bsend_buf || rk->bsend_used + room > (size_t)rk->bsend_size) {
      WHY(&w, "the buffered sends need %zu bytes of the attached buffer, %zu are free", room,
          rk->bsend_buf ? (size_t)rk->bsend_size - rk->bsend_used : (size_t)0);
      SMPI_FAILW(MPI_COMM_WORLD, MPI_ERR_BUFFER, &w);
    }
  }
  for (int i = 0; i < count; i++) {
    smpi_req *r = req_get(array_of_requests[i]);
    if (r->active) { /* the same request twice in the array */
      WHY(&w, "request %d appears twice in the array", i);
      SMPI_FAILW(req_comm_handle(r), MPI_ERR_REQUEST, &w);
    }
    p2p_req_start(r);
  }
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
  why w; w.s[0] = '\0';
  int rc = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, &sdt, &w);
  if (!rc)
    rc = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, &rdt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  rc = p2p_sendrecv(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                    (size_t)recvcount, rdt, source, recvtag, 0, status, smpi_fname_);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Sendrecv_replace");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  const smpi_dt *dt = NULL;
  why w; w.s[0] = '\0';
  int rc = check_send(c, buf, count, datatype, dest, sendtag, &dt, &w);
  if (!rc)
    rc = check_recv(c, buf, count, datatype, source, recvtag, &dt, &w);
  if (rc)
    SMPI_FAILW(comm, rc, &w);
  /* the outgoing data leaves from a packed copy, so the receive can land in buf */
  size_t bytes = (size_t)count * smpi_dt_size(dt);
  void *tmp = xmalloc(bytes ? bytes : 1);
  if (bytes)
    smpi_dt_pack(buf, (size_t)count, dt, tmp);
  const smpi_dt *byte = smpi_dt_get(MPI_BYTE);
  ASSERT(byte);
  rc = p2p_sendrecv(c, tmp, bytes, byte, dest, sendtag, buf, (size_t)count, dt, source, recvtag,
                    0, status, smpi_fname_);
  free(tmp);
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
  p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
  SMPI_CHECK(!rk->bsend_buf, MPI_COMM_WORLD, MPI_ERR_BUFFER); /* one buffer at a time */
  rk->bsend_buf = buffer ? buffer : (void *)rk; /* a zero-size buffer is still attached */
  rk->bsend_size = size;
  rk->bsend_used = 0;
  rk->bsend_gen++;
  SMPI_RETURN(MPI_SUCCESS);
}

/* SimGrid returns at once (it keeps its own copies of the messages); so do we: messages
 * are copied out of the user's buffer when sent, detaching only ends the accounting. */
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
  SMPI_ENTER("MPI_Buffer_detach");
  SMPI_CHECK(buffer_addr && size, MPI_COMM_WORLD, MPI_ERR_ARG);
  p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
  void *b = rk->bsend_buf == (void *)rk ? NULL : rk->bsend_buf;
  *(void **)buffer_addr = b;
  *size = rk->bsend_buf ? rk->bsend_size : 0;
  rk->bsend_buf = NULL;
  rk->bsend_size = 0;
  rk->bsend_used = 0;
  rk->bsend_gen++;
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
    out[i] = req_get(hs[i]);
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

/* After a completion call: handles of the requests it destroyed become MPI_REQUEST_NULL. */
static void sync_handles(int count, MPI_Request *hs, smpi_req *const *rs)
{
  for (int i = 0; i < count; i++)
    if (!rs[i])
      hs[i] = MPI_REQUEST_NULL;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
  SMPI_ENTER("MPI_Wait");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  if (*request == MPI_REQUEST_NULL) {
    p2p_status_empty(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  smpi_req *r = req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  if (!r->active) {
    p2p_status_empty(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  MPI_Comm ch = req_comm_handle(r);
  bool keep = r->persistent;
  why w; w.s[0] = '\0';
  int rc = wait_finish(r, status, smpi_fname_, &w);
  if (!keep)
    *request = MPI_REQUEST_NULL;
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Test");
  SMPI_CHECK(request && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    p2p_status_empty(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  smpi_req *r = req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  SMPI_OBSERVE(req_seen, r); /* its "test" line, complete or not */
  p2p_test_inject(); /* first: the request may complete meanwhile */
  if (!r->active) {
    *flag = 1;
    p2p_status_empty(status);
    p2p_test_outcome(true);
    SMPI_RETURN(MPI_SUCCESS);
  }
  if (!r->complete) {
    *flag = 0;
    p2p_test_outcome(false);
    SMPI_RETURN(MPI_SUCCESS);
  }
  p2p_test_outcome(true);
  MPI_Comm ch = req_comm_handle(r);
  bool keep = r->persistent;
  int rc = p2p_req_finish(r, status);
  if (!keep)
    *request = MPI_REQUEST_NULL;
  *flag = 1;
  if (rc)
    SMPI_FAIL(ch, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Waitall");
  req_array ra;
  int rc = req_array_open(&ra, count, array_of_requests, true);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  MPI_Comm ch = MPI_COMM_WORLD;
  for (int i = 0; i < count; i++)
    if (rs[i]) {
      ch = req_comm_handle(rs[i]);
      break;
    }
  rc = p2p_waitall((size_t)count, rs, array_of_statuses, smpi_fname_);
  sync_handles(count, array_of_requests, rs);
  req_array_close(&ra);
  if (rc)
    SMPI_FAIL(ch, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status)
{
  SMPI_ENTER("MPI_Waitany");
  req_array ra;
  int rc = req_array_open(&ra, count, array_of_requests, indx != NULL);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  int err;
  long i = p2p_waitany((size_t)count, rs, status, smpi_fname_, &err);
  MPI_Comm ch = MPI_COMM_WORLD;
  if (i >= 0) {
    if (!rs[i])
      array_of_requests[i] = MPI_REQUEST_NULL;
    else
      ch = req_comm_handle(rs[i]);
  }
  *indx = i >= 0 ? (int)i : MPI_UNDEFINED;
  req_array_close(&ra);
  if (err)
    SMPI_FAIL(ch, err);
  SMPI_RETURN(MPI_SUCCESS);
}

/* One MPI_Test-like look at r inside Testall/Testsome/Waitsome: the injected sleep and the
 * counter; true if it is complete. */
static bool look(smpi_req *r)
{
  p2p_test_inject();
  p2p_test_outcome(r->complete);
  return r->complete;
}

/* Finishes rs[i] into *st (may be NULL); returns its error code. */
static int collect(int i, smpi_req **rs, MPI_Request *hs, MPI_Status *st)
{
  bool keep = rs[i]->persistent;
  int err = p2p_req_finish(rs[i], st);
  if (!keep) {
    rs[i] = NULL;
    hs[i] = MPI_REQUEST_NULL;
  }
  return err;
}

/* collect() inside a loop that reports MPI_ERR_IN_STATUS at the end, on the communicator
 * of the first request that failed (*ch, noted once *failed turns true). */
static void collect_noting(int i, smpi_req **rs, MPI_Request *hs, MPI_Status *st, bool *failed,
                           MPI_Comm *ch)
{
  MPI_Comm c = req_comm_handle(rs[i]);
  if (collect(i, rs, hs, st) != MPI_SUCCESS) {
    if (!*failed)
      *ch = c;
    *failed = true;
  }
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Waitsome");
  req_array ra;
  int rc = req_array_open(&ra, incount, array_of_requests,
                          outcount && (incount <= 0 || array_of_indices));
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  bool want = p2p_status_wanted(array_of_statuses);
  MPI_Comm ch = MPI_COMM_WORLD;
  int err;
  long first = p2p_waitany((size_t)incount, rs, want ? &array_of_statuses[0] : NULL,
                           smpi_fname_, &err);
  if (first < 0) {
    *outcount = MPI_UNDEFINED;
    req_array_close(&ra);
    SMPI_RETURN(MPI_SUCCESS);
  }
  bool failed = err != MPI_SUCCESS;
  if (failed && rs[first])
    ch = req_comm_handle(rs[first]);
  if (!rs[first])
    array_of_requests[first] = MPI_REQUEST_NULL;
  int k = 0;
  array_of_indices[k++] = (int)first;
  /* then SimGrid tests every other request once */
  for (int i = 0; i < incount; i++) {
    if (i == first || !rs[i] || !rs[i]->active)
      continue;
    if (!look(rs[i]))
      continue;
    collect_noting(i, rs, array_of_requests, want ? &array_of_statuses[k] : NULL, &failed, &ch);
    array_of_indices[k++] = i;
  }
  *outcount = k;
  req_array_close(&ra);
  if (failed)
    SMPI_FAIL(ch, MPI_ERR_IN_STATUS);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Testall");
  req_array ra;
  int rc = req_array_open(&ra, count, array_of_requests, flag != NULL);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  bool all = true;
  for (int i = 0; i < count; i++) {
    smpi_req *r = rs[i];
    if (!r || !r->active || r->reported)
      continue;
    if (look(r)) {
      /* SimGrid collects it right away (paying or) and forgets it; MPI keeps it until all
       * are done, so only the cost is paid now */
      r->reported = true;
      p2p_pay_or(r);
    } else {
      all = false;
    }
  }
  /* a request may have completed during a later look */
  for (int i = 0; all && i < count; i++)
    if (rs[i] && rs[i]->active && !rs[i]->complete)
      all = false;
  *flag = all;
  if (!all) {
    req_array_close(&ra);
    SMPI_RETURN(MPI_SUCCESS);
  }
  bool want = p2p_status_wanted(array_of_statuses);
  bool failed = false;
  MPI_Comm ch = MPI_COMM_WORLD;
  for (int i = 0; i < count; i++) {
    if (!rs[i] || !rs[i]->active) {
      if (want)
        p2p_status_empty(&array_of_statuses[i]);
      continue;
    }
    collect_noting(i, rs, array_of_requests, want ? &array_of_statuses[i] : NULL, &failed, &ch);
  }
  req_array_close(&ra);
  if (failed)
    SMPI_FAIL(ch, MPI_ERR_IN_STATUS);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *indx, int *flag,
                 MPI_Status *status)
{
  SMPI_ENTER("MPI_Testany");
  req_array ra;
  int rc = req_array_open(&ra, count, array_of_requests, indx && flag);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  /* SimGrid only looks (and sleeps) when some request has a transfer of its own: detached
   * sends and MPI_PROC_NULL requests do not count */
  bool any_active = false, eligible = false;
  for (int i = 0; i < count; i++) {
    smpi_req *r = rs[i];
    if (!r || !r->active)
      continue;
    any_active = true;
    if (!(r->kind == REQ_SEND && r->detached) && r->peer != MPI_PROC_NULL)
      eligible = true;
  }
  if (eligible)
    p2p_testany_inject();
  int found = -1;
  for (int i = 0; i < count && found < 0; i++)
    if (rs[i] && rs[i]->active && rs[i]->complete)
      found = i;
  if (eligible) {
    bool counted = found >= 0 && !(rs[found]->kind == REQ_SEND && rs[found]->detached) &&
                   rs[found]->peer != MPI_PROC_NULL;
    p2p_testany_outcome(counted);
  }
  if (found < 0) {
    *flag = any_active ? 0 : 1;
    *indx = MPI_UNDEFINED;
    if (!any_active)
      p2p_status_empty(status);
    req_array_close(&ra);
    SMPI_RETURN(MPI_SUCCESS);
  }
  MPI_Comm ch = req_comm_handle(rs[found]);
  int err = collect(found, rs, array_of_requests, status);
  *flag = 1;
  *indx = found;
  req_array_close(&ra);
  if (err)
    SMPI_FAIL(ch, err);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
  SMPI_ENTER("MPI_Testsome");
  req_array ra;
  int rc = req_array_open(&ra, incount, array_of_requests,
                          outcount && (incount <= 0 || array_of_indices));
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  smpi_req **rs = ra.v;
  bool want = p2p_status_wanted(array_of_statuses);
  bool any_active = false, failed = false;
  MPI_Comm ch = MPI_COMM_WORLD;
  int k = 0;
  for (int i = 0; i < incount; i++) {
    if (!rs[i] || !rs[i]->active)
      continue;
    any_active = true;
    if (!look(rs[i]))
      continue;
    collect_noting(i, rs, array_of_requests, want ? &array_of_statuses[k] : NULL, &failed, &ch);
    array_of_indices[k++] = i;
  }
  *outcount = any_active ? k : MPI_UNDEFINED;
  req_array_close(&ra);
  if (failed)
    SMPI_FAIL(ch, MPI_ERR_IN_STATUS);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Request_get_status");
  SMPI_CHECK(flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  if (request == MPI_REQUEST_NULL) {
    *flag = 1;
    p2p_status_empty(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  smpi_req *r = req_get(request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  /* SimGrid runs an MPI_Iprobe for the request's (source, tag) here, cost included; a send
   * probes for messages from itself */
  if (r->active && !(r->kind == REQ_SEND && r->detached) && r->peer != MPI_PROC_NULL) {
    p2p_iprobe_inject();
    int src = r->kind == REQ_RECV ? r->peer : smpi_comm_rank(r->comm);
    p2p_iprobe_outcome(mq_peek(r->ctx, r->owner, src, r->tag) != NULL);
  }
  if (!r->active) {
    *flag = 1;
    p2p_status_empty(status);
  } else if (r->complete) {
    *flag = 1;
    if (p2p_status_wanted(status))
      *status = r->status;
  } else {
    *flag = 0;
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Request_free(MPI_Request *request)
{
  SMPI_ENTER("MPI_Request_free");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  if (!r->active || r->complete) {
    r->active = false;
    p2p_req_destroy(r);
  } else {
    /* completes in the background; nobody will wait for it */
    r->user_freed = true;
    smpi_handle_free(r->handle);
    r->handle = MPI_REQUEST_NULL;
  }
  *request = MPI_REQUEST_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Cancel(MPI_Request *request)
{
  SMPI_ENTER("MPI_Cancel");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  smpi_req *r = req_get(*request);
  SMPI_CHECK(r, MPI_COMM_WORLD, MPI_ERR_REQUEST);
  if (r->kind == REQ_COLL) /* MPI 3.1 section 5.12: erroneous for nonblocking collectives */
    SMPI_RETURN(smpi_comm_errorf(req_comm_handle(r), MPI_ERR_REQUEST, smpi_fname_,
                                 "%s requests cannot be cancelled", r->call));
  p2p_req_cancel(r); /* too late (matched, delivered): the request completes normally */
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
  SMPI_ENTER("MPI_Test_cancelled");
  SMPI_CHECK(status && flag && p2p_status_wanted(status), MPI_COMM_WORLD, MPI_ERR_ARG);
  *flag = status->smpi_cancelled != 0;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- probes and matched receives ---- */

static void status_of_msg(const p2p_msg *m, MPI_Status *st)
{
  if (p2p_status_wanted(st))
    *st = (MPI_Status){.MPI_SOURCE = m->src, .MPI_TAG = m->tag, .MPI_ERROR = MPI_SUCCESS,
                       .smpi_count = (long long)m->bytes};
}

/* One MPI_Iprobe: its cost, then a look at the queues. */
static p2p_msg *iprobe_once(smpi_comm *c, int src, int tag)
{
  p2p_iprobe_inject();
  p2p_msg *m = mq_peek(smpi_comm_p2p_context(c), p2p_my_world_rank(), src, tag);
  p2p_iprobe_outcome(m != NULL);
  return m;
}

/* The checks every probe starts with: communicator, then its outputs (out_ok), then source
 * and tag. Declares c. */
#define PROBE_ARGS(out_ok)                                                               \
  smpi_comm *c = SMPI_CHECK_COMM(comm);                                                  \
  SMPI_CHECK(out_ok, comm, MPI_ERR_ARG);                                                 \
  do {                                                                                   \
    why w; w.s[0] = '\0';                                                              \
    int rc = check_probe(c, source, tag, &w);                                            \
    if (rc)                                                                              \
      SMPI_FAILW(comm, rc, &w);                                                          \
  } while (0)

typedef struct probe_desc {
  const char *call;
  smpi_comm *comm;
  int src, tag;
} probe_desc;

static void describe_probe(eng_actor *a, void *data, char *buf, size_t len)
{
  (void)a;
  const probe_desc *p = data;
  char src[32] = "any source", tag[32] = "any tag";
  if (p->src != MPI_ANY_SOURCE)
    snprintf(src, sizeof src, "rank %d", p->src);
  if (p->tag != MPI_ANY_TAG)
    snprintf(tag, sizeof tag, "tag %d", p->tag);
  snprintf(buf, len, "%s from %s, %s, on %s", p->call, src, tag, smpi_comm_display_name(p->comm));
}

/* MPI_Probe as SimGrid does it: MPI_Iprobe until it succeeds. With smpi/iprobe at 0 that
 * loop would never let time advance: the rank sleeps until some message reaches it. */
static p2p_msg *probe_loop(smpi_comm *c, int src, int tag, const char *call)
{
  p2p_msg *m;
  probe_desc d = {call, c, src, tag};
  while (!(m = iprobe_once(c, src, tag))) {
    /* alone, nobody can ever send: block, so that the engine reports the deadlock instead
     * of the loop spinning forever (other livelocks of this loop are SimGrid's too) */
    if (P2P.iprobe_cost > 0 && eng_actor_count() > 1)
      continue;
    p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
    rk->probe_actor = eng_self();
    eng_block(describe_probe, &d);
  }
  return m;
}

/* A message taken by MPI_(I)mprobe: off the queues, waiting for its MPI_(I)mrecv. */
typedef struct probed_msg {
  p2p_msg *m;
  smpi_comm *comm; /* the receiver's */
} probed_msg;

static MPI_Message take_message(smpi_comm *c, p2p_msg *m)
{
  mq_remove_msg(m);
  if (list_linked(&m->olink))
    list_remove(&m->olink);
  if (list_linked(&m->ilink))
    list_remove(&m->ilink);
  probed_msg *p = xmalloc(sizeof *p);
  p->m = m;
  p->comm = c;
  smpi_comm_ref(c);
  return smpi_handle_new(SMPI_KIND_MESSAGE, p);
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  SMPI_ENTER("MPI_Iprobe");
  PROBE_ARGS(flag);
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  p2p_msg *m = iprobe_once(c, source, tag);
  *flag = m != NULL;
  if (m)
    status_of_msg(m, status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  SMPI_ENTER("MPI_Probe");
  PROBE_ARGS(true);
  if (source == MPI_PROC_NULL) {
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  status_of_msg(probe_loop(c, source, tag, smpi_fname_), status);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
  SMPI_ENTER("MPI_Improbe");
  PROBE_ARGS(flag && message);
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  p2p_msg *m = iprobe_once(c, source, tag);
  *flag = m != NULL;
  if (m) {
    status_of_msg(m, status);
    *message = take_message(c, m);
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
  SMPI_ENTER("MPI_Mprobe");
  PROBE_ARGS(message);
  if (source == MPI_PROC_NULL) {
    *message = MPI_MESSAGE_NO_PROC;
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  p2p_msg *m = probe_loop(c, source, tag, smpi_fname_);
  status_of_msg(m, status);
  *message = take_message(c, m);
  SMPI_RETURN(MPI_SUCCESS);
}

/* Starts the receive of a probed message; NULL for MPI_MESSAGE_NO_PROC. *rc on error. */
static smpi_req *start_mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                             const char *call, int *rc, MPI_Comm *err_comm)
{
  *err_comm = MPI_COMM_WORLD;
  *rc = 0;
  if (!message) {
    *rc = MPI_ERR_ARG;
    return NULL;
  }
  if (*message == MPI_MESSAGE_NO_PROC) {
    const smpi_dt *dt;
    why w; w.s[0] = '\0';
    *rc = check_buffer(buf, count, datatype, &dt, &w);
    if (!*rc)
      *message = MPI_MESSAGE_NULL;
    return NULL;
  }
  probed_msg *p = smpi_handle_get(*message, SMPI_KIND_MESSAGE);
  if (!p) {
    *rc = MPI_ERR_REQUEST;
    return NULL;
  }
  *err_comm = smpi_comm_handle(p->comm);
  const smpi_dt *dt = NULL;
  why w; w.s[0] = '\0';
  *rc = check_buffer(buf, count, datatype, &dt, &w);
  if (*rc)
    return NULL;
  p2p_msg *m = p->m;
  smpi_req *r = p2p_req_new(REQ_RECV, buf, (size_t)count, dt, m->src, m->tag, p->comm, 0, call);
  smpi_handle_free(*message);
  smpi_comm_unref(p->comm);
  free(p);
  *message = MPI_MESSAGE_NULL;
  p2p_recv_matched(r, m);
  return r;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
  SMPI_ENTER("MPI_Mrecv");
  int rc;
  MPI_Comm ch;
  bool no_proc = message && *message == MPI_MESSAGE_NO_PROC;
  smpi_req *r = start_mrecv(buf, count, datatype, message, smpi_fname_, &rc, &ch);
  if (rc)
    SMPI_FAIL(ch, rc);
  if (no_proc) {
    status_proc_null(status);
    SMPI_RETURN(MPI_SUCCESS);
  }
  why w; w.s[0] = '\0';
  rc = wait_finish(r, status, smpi_fname_, &w);
  if (rc)
    SMPI_FAILW(ch, rc, &w);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
  SMPI_ENTER("MPI_Imrecv");
  SMPI_CHECK(request, MPI_COMM_WORLD, MPI_ERR_ARG);
  int rc;
  MPI_Comm ch;
  bool no_proc = message && *message == MPI_MESSAGE_NO_PROC;
  smpi_req *r = start_mrecv(buf, count, datatype, message, smpi_fname_, &rc, &ch);
  if (rc)
    SMPI_FAIL(ch, rc);
  if (no_proc) {
    /* a request that is complete at once with a MPI_PROC_NULL status */
    smpi_comm *world = smpi_comm_get(MPI_COMM_WORLD);
    r = p2p_req_new(REQ_RECV, buf, 0, NULL, MPI_PROC_NULL, MPI_ANY_TAG, world, 0, smpi_fname_);
    *request = give_handle(r);
    p2p_req_start(r);
    SMPI_RETURN(MPI_SUCCESS);
  }
  *request = give_handle(r);
  SMPI_RETURN(MPI_SUCCESS);
}
