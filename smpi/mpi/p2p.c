/* What the MPI point-to-point calls (MPI 3.1 chapter 3) do once smpi/bindings/p2p.c has
 * checked their arguments: request handles, buffered-send accounting, probes and the
 * completion calls with SimGrid's injected costs. The protocol itself is in request.c, the
 * matching queues in match.c.
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

#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/observer.h"
#include "src/invariant.h"
#include "src/mem.h"

#define WHY(w, ...) snprintf((w)->s, sizeof(w)->s, __VA_ARGS__)

/* The blocking send and receive steps are inlined into the functions of the MPI calls:
 * every send and receive runs them, and the nested calls cost more than the steps
 * themselves (and each frame is one more cache line of a rank's cold stack). */
#define P2P_INLINE static inline __attribute__((always_inline))

/* Room for one more buffered message of bytes? */
static int check_bsend_room(int world, int dst, size_t bytes, smpi_p2p_why *w)
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
    return WHY(w,
               "the attached buffer has %zu of %d bytes free, the message needs %zu (%zu + "
               "MPI_BSEND_OVERHEAD)",
               (size_t)rk->bsend_size - rk->bsend_used, rk->bsend_size, need, bytes),
           MPI_ERR_BUFFER;
  return 0;
}

static smpi_req *req_get(MPI_Request h) { return smpi_handle_get(h, SMPI_KIND_REQUEST); }

smpi_req *smpi_p2p_req_get(MPI_Request h) { return req_get(h); }

static MPI_Comm req_comm_handle(const smpi_req *r)
{
  return r && r->comm ? smpi_comm_handle(r->comm) : MPI_COMM_WORLD;
}

MPI_Comm smpi_p2p_req_comm(const smpi_req *r) { return req_comm_handle(r); }

static void status_proc_null(MPI_Status *st)
{
  p2p_status_out(st, &(MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG});
}

static send_mode mode_of(unsigned m) { return (send_mode)m; }

/* The send mode the flags of an MPI send ask for. */
static send_mode mode_of_flags(unsigned flags)
{
  if (flags & SMPI_P2P_SYNC)
    return MODE_SYNC;
  if (flags & SMPI_P2P_BUFFERED)
    return MODE_BUFFERED;
  if (flags & SMPI_P2P_READY)
    return MODE_READY;
  return MODE_STANDARD;
}

/* ---- sends and receives ---- */

P2P_INLINE smpi_req *new_send(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt,
                              int dst, int tag, send_mode mode, bool blocking, const char *call)
{
  smpi_req *r = p2p_req_new(REQ_SEND, (void *)buf, count, dt, dst, tag, c,
                            blocking ? SMPI_P2P_BLOCKING : 0, call);
  r->mode = (uint8_t)mode;
  return r;
}

static void truncation_detail(const smpi_req *r, smpi_p2p_why *w)
{
  WHY(w,
      "the message from rank %d, tag %d is longer than the %zu bytes of the receive buffer "
      "(%zu x %s); the first %lld bytes were received",
      r->status.MPI_SOURCE, r->status.MPI_TAG, r->bytes, r->count, smpi_dt_name(r->dt),
      r->status.smpi_count);
}

/* Waits for r and finishes it into status; 0 or its error class, with the detail of a
 * truncation in w (w is left alone otherwise). */
P2P_INLINE int wait_finish(smpi_req *r, MPI_Status *status, const char *call, smpi_p2p_why *w)
{
  p2p_wait_complete(r, call);
  if (r->status.MPI_ERROR == MPI_ERR_TRUNCATE)
    truncation_detail(r, w);
  else if (r->status.MPI_ERROR == MPI_ERR_TYPE)
    WHY(w,
        "the message from rank %d, tag %d does not match the datatype of the receive (%zu x "
        "%s): see the report above",
        r->status.MPI_SOURCE, r->status.MPI_TAG, r->count, smpi_dt_name(r->dt));
  return p2p_req_finish(r, status);
}

int smpi_p2p_mpi_send(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt, int dst,
                      int tag, unsigned flags, const char *call, smpi_p2p_why *w)
{
  if (dst == MPI_PROC_NULL)
    return MPI_SUCCESS; /* SimGrid: no request, no cost */
  send_mode mode = mode_of_flags(flags);
  if (mode == MODE_BUFFERED) {
    int rc = check_bsend_room(p2p_my_world_rank(), dst, count * smpi_dt_size(dt), w);
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

int smpi_p2p_mpi_isend(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt, int dst,
                       int tag, unsigned flags, const char *call, MPI_Request *request,
                       smpi_p2p_why *w)
{
  send_mode mode = mode_of_flags(flags);
  if (mode == MODE_BUFFERED) {
    int rc = check_bsend_room(p2p_my_world_rank(), dst, count * smpi_dt_size(dt), w);
    if (rc)
      return rc;
  }
  smpi_req *r = new_send(c, buf, count, dt, dst, tag, mode, false, call);
  *request = give_handle(r);
  p2p_req_start(r);
  return MPI_SUCCESS;
}

int smpi_p2p_mpi_recv(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src, int tag,
                      const char *call, MPI_Status *status, smpi_p2p_why *w)
{
  if (src == MPI_PROC_NULL) {
    status_proc_null(status);
    return MPI_SUCCESS;
  }
  smpi_req *r = p2p_req_new(REQ_RECV, buf, count, dt, src, tag, c, 0, call);
  p2p_req_start(r);
  return wait_finish(r, status, call, w);
}

void smpi_p2p_mpi_irecv(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src,
                        int tag, const char *call, MPI_Request *request)
{
  smpi_req *r = p2p_req_new(REQ_RECV, buf, count, dt, src, tag, c, 0, call);
  *request = give_handle(r);
  p2p_req_start(r);
}

/* ---- persistent requests ---- */

void smpi_p2p_mpi_send_init(smpi_comm *c, const void *buf, size_t count, const smpi_dt *dt,
                            int dst, int tag, unsigned flags, const char *call,
                            MPI_Request *request)
{
  /* SimGrid starts persistent sends like blocking ones: they pay smpi/os */
  smpi_req *r = new_send(c, buf, count, dt, dst, tag, mode_of_flags(flags), true, call);
  r->persistent = true;
  *request = give_handle(r);
}

void smpi_p2p_mpi_recv_init(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt, int src,
                            int tag, const char *call, MPI_Request *request)
{
  smpi_req *r = p2p_req_new(REQ_RECV, buf, count, dt, src, tag, c, 0, call);
  r->persistent = true;
  *request = give_handle(r);
}

/* 0, or the error class of starting r */
static int check_startable(smpi_req *r, smpi_p2p_why *w)
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

int smpi_p2p_mpi_start(smpi_req *r, smpi_p2p_why *w)
{
  int rc = check_startable(r, w);
  if (rc)
    return rc;
  p2p_req_start(r);
  return MPI_SUCCESS;
}

int smpi_p2p_mpi_startall(int count, const MPI_Request *requests, MPI_Comm *err_comm,
                          smpi_p2p_why *w)
{
  /* check every request before starting any */
  size_t room = 0;
  for (int i = 0; i < count; i++) {
    smpi_req *r = req_get(requests[i]);
    int rc = check_startable(r, w);
    if (rc) {
      *err_comm = req_comm_handle(r);
      return rc;
    }
    if (r->kind == REQ_SEND && mode_of(r->mode) == MODE_BUFFERED && r->peer != MPI_PROC_NULL)
      room += r->bytes + MPI_BSEND_OVERHEAD;
  }
  if (room) {
    p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
    if (!rk->bsend_buf || rk->bsend_used + room > (size_t)rk->bsend_size) {
      WHY(w, "the buffered sends need %zu bytes of the attached buffer, %zu are free", room,
          rk->bsend_buf ? (size_t)rk->bsend_size - rk->bsend_used : (size_t)0);
      *err_comm = MPI_COMM_WORLD;
      return MPI_ERR_BUFFER;
    }
  }
  for (int i = 0; i < count; i++) {
    smpi_req *r = req_get(requests[i]);
    if (r->active) { /* the same request twice in the array */
      WHY(w, "request %d appears twice in the array", i);
      *err_comm = req_comm_handle(r);
      return MPI_ERR_REQUEST;
    }
    p2p_req_start(r);
  }
  return MPI_SUCCESS;
}

/* ---- combined send-receive ---- */

int smpi_p2p_mpi_sendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt,
                          int dst, int stag, void *rbuf, size_t rcount, const smpi_dt *rdt,
                          int src, int rtag, const char *call, MPI_Status *status)
{
  return p2p_sendrecv(c, sbuf, scount, sdt, dst, stag, rbuf, rcount, rdt, src, rtag, 0, status,
                      call);
}

int smpi_p2p_mpi_sendrecv_replace(smpi_comm *c, void *buf, size_t count, const smpi_dt *dt,
                                  int dst, int stag, int src, int rtag, const char *call,
                                  MPI_Status *status)
{
  /* the outgoing data leaves from a packed copy, so the receive can land in buf */
  size_t bytes = count * smpi_dt_size(dt);
  void *tmp = xmalloc(bytes ? bytes : 1);
  if (bytes)
    smpi_dt_pack(buf, count, dt, tmp);
  const smpi_dt *byte = smpi_dt_get(MPI_BYTE);
  ASSERT(byte);
  int rc = p2p_sendrecv(c, tmp, bytes, byte, dst, stag, buf, count, dt, src, rtag, 0, status,
                        call);
  free(tmp);
  return rc;
}

/* ---- buffered-mode buffer ---- */

int smpi_p2p_mpi_buffer_attach(void *buffer, int size)
{
  p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
  if (rk->bsend_buf) /* one buffer at a time */
    return MPI_ERR_BUFFER;
  rk->bsend_buf = buffer ? buffer : (void *)rk; /* a zero-size buffer is still attached */
  rk->bsend_size = size;
  rk->bsend_used = 0;
  rk->bsend_gen++;
  return MPI_SUCCESS;
}

static void describe_detach(eng_actor *a, void *data, char *buf, size_t len)
{
  (void)a;
  const p2p_rank *rk = data;
  snprintf(buf, len,
           "MPI_Buffer_detach, waiting for buffered messages to be sent (%zu bytes of the "
           "attached buffer; their receives are not posted)",
           rk->bsend_used);
}

/* As the standard says, detaching waits until the messages still in the buffer have been
 * transmitted: here, until each has started its transfer, which needs its receive (SimGrid
 * returns at once). */
void smpi_p2p_mpi_buffer_detach(void *buffer_addr, int *size)
{
  p2p_rank *rk = p2p_rank_of(p2p_my_world_rank());
  while (rk->bsend_buf && rk->bsend_used > 0) {
    rk->detach_actor = eng_self();
    eng_block(describe_detach, rk);
  }
  void *b = rk->bsend_buf == (void *)rk ? NULL : rk->bsend_buf;
  *(void **)buffer_addr = b;
  *size = rk->bsend_buf ? rk->bsend_size : 0;
  rk->bsend_buf = NULL;
  rk->bsend_size = 0;
  rk->bsend_used = 0;
  rk->bsend_gen++;
}

/* ---- completion ---- */

/* After a completion call: handles of the requests it destroyed become MPI_REQUEST_NULL. */
static void sync_handles(int count, MPI_Request *hs, smpi_req *const *rs)
{
  for (int i = 0; i < count; i++)
    if (!rs[i])
      hs[i] = MPI_REQUEST_NULL;
}

int smpi_p2p_mpi_wait(smpi_req *r, MPI_Request *request, const char *call, MPI_Status *status,
                      MPI_Comm *err_comm, smpi_p2p_why *w)
{
  if (!r || !r->active) {
    p2p_status_empty(status);
    return MPI_SUCCESS;
  }
  MPI_Comm ch = req_comm_handle(r);
  bool keep = r->persistent;
  int rc = wait_finish(r, status, call, w);
  if (!keep)
    *request = MPI_REQUEST_NULL;
  if (rc)
    *err_comm = ch;
  return rc;
}

int smpi_p2p_mpi_test(smpi_req *r, MPI_Request *request, int *flag, MPI_Status *status,
                      MPI_Comm *err_comm)
{
  if (!r) {
    *flag = 1;
    p2p_status_empty(status);
    return MPI_SUCCESS;
  }
  SMPI_OBSERVE(req_seen, r); /* its "test" line, complete or not */
  p2p_test_inject();         /* first: the request may complete meanwhile */
  if (!r->active) {
    *flag = 1;
    p2p_status_empty(status);
    p2p_test_outcome(true);
    return MPI_SUCCESS;
  }
  if (!r->complete) {
    *flag = 0;
    p2p_test_outcome(false);
    return MPI_SUCCESS;
  }
  p2p_test_outcome(true);
  MPI_Comm ch = req_comm_handle(r);
  bool keep = r->persistent;
  int rc = p2p_req_finish(r, status);
  if (!keep)
    *request = MPI_REQUEST_NULL;
  *flag = 1;
  if (rc)
    *err_comm = ch;
  return rc;
}

int smpi_p2p_mpi_waitall(int count, MPI_Request *hs, smpi_req **rs, const char *call,
                         MPI_Status *statuses, MPI_Comm *err_comm)
{
  MPI_Comm ch = MPI_COMM_WORLD;
  for (int i = 0; i < count; i++)
    if (rs[i]) {
      ch = req_comm_handle(rs[i]);
      break;
    }
  int rc = p2p_waitall((size_t)count, rs, statuses, call);
  sync_handles(count, hs, rs);
  if (rc)
    *err_comm = ch;
  return rc;
}

int smpi_p2p_mpi_waitany(int count, MPI_Request *hs, smpi_req **rs, const char *call, int *indx,
                         MPI_Status *status, MPI_Comm *err_comm)
{
  int err;
  long i = p2p_waitany((size_t)count, rs, status, call, &err);
  MPI_Comm ch = MPI_COMM_WORLD;
  if (i >= 0) {
    if (!rs[i])
      hs[i] = MPI_REQUEST_NULL;
    else
      ch = req_comm_handle(rs[i]);
  }
  *indx = i >= 0 ? (int)i : MPI_UNDEFINED;
  if (err)
    *err_comm = ch;
  return err;
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
 * of the first request that failed (*ch, noted at the first failure); the error goes to
 * slot k of e (the status index). */
static void collect_noting(int i, smpi_req **rs, MPI_Request *hs, MPI_Status *st, p2p_errs *e,
                           size_t k, MPI_Comm *ch)
{
  MPI_Comm c = req_comm_handle(rs[i]);
  int err = collect(i, rs, hs, st);
  if (err != MPI_SUCCESS) {
    if (!e->errs)
      *ch = c;
    p2p_errs_note(e, k, err);
  }
}

int smpi_p2p_mpi_waitsome(int incount, MPI_Request *hs, smpi_req **rs, const char *call,
                          int *outcount, int *indices, MPI_Status *statuses, MPI_Comm *err_comm)
{
  bool want = p2p_status_wanted(statuses);
  MPI_Comm ch = MPI_COMM_WORLD;
  int err;
  long first = p2p_waitany((size_t)incount, rs, want ? &statuses[0] : NULL, call, &err);
  if (first < 0) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  p2p_errs errs = {.n = (size_t)incount};
  if (err != MPI_SUCCESS && rs[first])
    ch = req_comm_handle(rs[first]);
  p2p_errs_note(&errs, 0, err);
  if (!rs[first])
    hs[first] = MPI_REQUEST_NULL;
  int k = 0;
  indices[k++] = (int)first;
  /* then SimGrid tests every other request once */
  for (int i = 0; i < incount; i++) {
    if (i == first || !rs[i] || !rs[i]->active)
      continue;
    if (!look(rs[i]))
      continue;
    collect_noting(i, rs, hs, want ? &statuses[k] : NULL, &errs, (size_t)k, &ch);
    indices[k++] = i;
  }
  *outcount = k;
  if (!p2p_errs_end(&errs, statuses, (size_t)k))
    return MPI_SUCCESS;
  *err_comm = ch;
  return MPI_ERR_IN_STATUS;
}

int smpi_p2p_mpi_testall(int count, MPI_Request *hs, smpi_req **rs, int *flag,
                         MPI_Status *statuses, MPI_Comm *err_comm)
{
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
  if (!all)
    return MPI_SUCCESS;
  bool want = p2p_status_wanted(statuses);
  p2p_errs errs = {.n = (size_t)count};
  MPI_Comm ch = MPI_COMM_WORLD;
  for (int i = 0; i < count; i++) {
    if (!rs[i] || !rs[i]->active) {
      if (want)
        p2p_status_empty(&statuses[i]);
      continue;
    }
    collect_noting(i, rs, hs, want ? &statuses[i] : NULL, &errs, (size_t)i, &ch);
  }
  if (!p2p_errs_end(&errs, statuses, (size_t)count))
    return MPI_SUCCESS;
  *err_comm = ch;
  return MPI_ERR_IN_STATUS;
}

int smpi_p2p_mpi_testany(int count, MPI_Request *hs, smpi_req **rs, int *indx, int *flag,
                         MPI_Status *status, MPI_Comm *err_comm)
{
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
    return MPI_SUCCESS;
  }
  MPI_Comm ch = req_comm_handle(rs[found]);
  int err = collect(found, rs, hs, status);
  *flag = 1;
  *indx = found;
  if (err)
    *err_comm = ch;
  return err;
}

int smpi_p2p_mpi_testsome(int incount, MPI_Request *hs, smpi_req **rs, int *outcount,
                          int *indices, MPI_Status *statuses, MPI_Comm *err_comm)
{
  bool want = p2p_status_wanted(statuses);
  bool any_active = false;
  p2p_errs errs = {.n = (size_t)incount};
  MPI_Comm ch = MPI_COMM_WORLD;
  int k = 0;
  for (int i = 0; i < incount; i++) {
    if (!rs[i] || !rs[i]->active)
      continue;
    any_active = true;
    if (!look(rs[i]))
      continue;
    collect_noting(i, rs, hs, want ? &statuses[k] : NULL, &errs, (size_t)k, &ch);
    indices[k++] = i;
  }
  *outcount = any_active ? k : MPI_UNDEFINED;
  if (!p2p_errs_end(&errs, statuses, (size_t)k))
    return MPI_SUCCESS;
  *err_comm = ch;
  return MPI_ERR_IN_STATUS;
}

void smpi_p2p_mpi_request_get_status(smpi_req *r, int *flag, MPI_Status *status)
{
  if (!r) {
    *flag = 1;
    p2p_status_empty(status);
    return;
  }
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
    if (r->kind == REQ_SEND) /* the program may now reuse the buffer */
      p2p_send_settle(r);
    if (p2p_req_greq(r)) /* MPI 3.1 section 12.2: the query callback answers here too */
      r->status.MPI_ERROR = p2p_greq_query(r);
    p2p_status_out(status, &r->status);
  } else {
    *flag = 0;
  }
}

void smpi_p2p_mpi_request_free(smpi_req *r)
{
  if (!r->active || r->complete) {
    r->active = false;
    p2p_req_destroy(r);
  } else {
    /* completes in the background; nobody will wait for it (a generalized request keeps
     * its handle for the program's MPI_Grequest_complete) */
    r->user_freed = true;
    if (r->kind != REQ_GREQ) {
      smpi_handle_free(r->handle);
      r->handle = MPI_REQUEST_NULL;
    }
  }
}

int smpi_p2p_mpi_cancel(smpi_req *r, MPI_Comm *err_comm, smpi_p2p_why *w)
{
  if (r->kind == REQ_GREQ) /* the program's cancel callback decides */
    return p2p_greq_cancel(r);
  if (r->kind == REQ_COLL) { /* MPI 3.1 section 5.12: erroneous for nonblocking collectives */
    WHY(w, "%s requests cannot be cancelled", r->call);
    *err_comm = req_comm_handle(r);
    return MPI_ERR_REQUEST;
  }
  p2p_req_cancel(r); /* too late (matched, delivered): the request completes normally */
  return MPI_SUCCESS;
}

/* ---- probes and matched receives ---- */

static void status_of_msg(const p2p_msg *m, MPI_Status *st)
{
  p2p_status_out(st, &(MPI_Status){.MPI_SOURCE = m->src,
                                   .MPI_TAG = m->tag,
                                   .MPI_ERROR = MPI_SUCCESS,
                                   .smpi_count = (long long)m->bytes});
}

/* One MPI_Iprobe: its cost, then a look at the queues. */
static p2p_msg *iprobe_ctx(uint32_t ctx, int src, int tag)
{
  p2p_iprobe_inject();
  p2p_msg *m = mq_peek(ctx, p2p_my_world_rank(), src, tag);
  p2p_iprobe_outcome(m != NULL);
  return m;
}

static p2p_msg *iprobe_once(smpi_comm *c, int src, int tag)
{
  return iprobe_ctx(smpi_comm_p2p_context(c), src, tag);
}

bool smpi_p2p_iprobe(smpi_comm *c, int src, int tag, unsigned flags)
{
  if (src == MPI_PROC_NULL)
    return true;
  uint32_t ctx = flags & SMPI_P2P_COLL ? smpi_comm_coll_context(c) : smpi_comm_p2p_context(c);
  return iprobe_ctx(ctx, src, tag) != NULL;
}

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
    if (p2p.iprobe_cost > 0 && eng_actor_count() > 1)
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
  p2p_msg_unlist(m);
  probed_msg *p = xmalloc(sizeof *p);
  p->m = m;
  p->comm = c;
  smpi_comm_ref(c);
  return smpi_handle_new(SMPI_KIND_MESSAGE, p);
}

void smpi_p2p_mpi_iprobe(smpi_comm *c, int src, int tag, int *flag, MPI_Status *status)
{
  if (src == MPI_PROC_NULL) {
    *flag = 1;
    status_proc_null(status);
    return;
  }
  p2p_msg *m = iprobe_once(c, src, tag);
  *flag = m != NULL;
  if (m)
    status_of_msg(m, status);
}

void smpi_p2p_mpi_probe(smpi_comm *c, int src, int tag, const char *call, MPI_Status *status)
{
  if (src == MPI_PROC_NULL) {
    status_proc_null(status);
    return;
  }
  status_of_msg(probe_loop(c, src, tag, call), status);
}

void smpi_p2p_mpi_improbe(smpi_comm *c, int src, int tag, int *flag, MPI_Message *message,
                          MPI_Status *status)
{
  if (src == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    status_proc_null(status);
    return;
  }
  p2p_msg *m = iprobe_once(c, src, tag);
  *flag = m != NULL;
  if (m) {
    status_of_msg(m, status);
    *message = take_message(c, m);
  }
}

void smpi_p2p_mpi_mprobe(smpi_comm *c, int src, int tag, const char *call, MPI_Message *message,
                         MPI_Status *status)
{
  if (src == MPI_PROC_NULL) {
    *message = MPI_MESSAGE_NO_PROC;
    status_proc_null(status);
    return;
  }
  p2p_msg *m = probe_loop(c, src, tag, call);
  status_of_msg(m, status);
  *message = take_message(c, m);
}

smpi_comm *smpi_p2p_message_comm(MPI_Message h)
{
  probed_msg *p = smpi_handle_get(h, SMPI_KIND_MESSAGE);
  return p ? p->comm : NULL;
}

/* The receive of a probed message (a valid one, not MPI_MESSAGE_NO_PROC), matched. */
static smpi_req *start_mrecv(void *buf, size_t count, const smpi_dt *dt, MPI_Message *message,
                             const char *call)
{
  probed_msg *p = smpi_handle_get(*message, SMPI_KIND_MESSAGE);
  ASSERT(p);
  p2p_msg *m = p->m;
  smpi_req *r = p2p_req_new(REQ_RECV, buf, count, dt, m->src, m->tag, p->comm, 0, call);
  smpi_handle_free(*message);
  smpi_comm_unref(p->comm);
  free(p);
  *message = MPI_MESSAGE_NULL;
  p2p_recv_matched(r, m);
  return r;
}

int smpi_p2p_mpi_mrecv(void *buf, size_t count, const smpi_dt *dt, MPI_Message *message,
                       const char *call, MPI_Status *status, smpi_p2p_why *w)
{
  if (*message == MPI_MESSAGE_NO_PROC) {
    *message = MPI_MESSAGE_NULL;
    status_proc_null(status);
    return MPI_SUCCESS;
  }
  smpi_req *r = start_mrecv(buf, count, dt, message, call);
  return wait_finish(r, status, call, w);
}

void smpi_p2p_mpi_imrecv(void *buf, size_t count, const smpi_dt *dt, MPI_Message *message,
                         const char *call, MPI_Request *request)
{
  if (*message == MPI_MESSAGE_NO_PROC) {
    *message = MPI_MESSAGE_NULL;
    /* a request that is complete at once with a MPI_PROC_NULL status */
    smpi_comm *world = smpi_comm_get(MPI_COMM_WORLD);
    smpi_req *r = p2p_req_new(REQ_RECV, buf, 0, NULL, MPI_PROC_NULL, MPI_ANY_TAG, world, 0, call);
    *request = give_handle(r);
    p2p_req_start(r);
    return;
  }
  *request = give_handle(start_mrecv(buf, count, dt, message, call));
}

double smpi_p2p_now(void) { return eng_now(); }
