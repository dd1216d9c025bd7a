/* isendrecv.c: MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0 section 3.10). The blocking
 * call's implementation (p2p.c's sendrecv, same messages, same costs) runs in a helper actor
 * of the calling rank, as nonblocking collectives do (collectives/coll_nb.c): the helper
 * starts at the call's date and posts the receive and the send before the rank's next MPI
 * call, so the send keeps its place in the non-overtaking order; the request the program
 * holds completes, with the receive's status, when the helper returns. */
#include <stdio.h>
#include <stdlib.h>

#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/world.h"
#include "src/mem.h"

typedef struct isr_op {
  smpi_req *req; /* the program's request (kind REQ_COLL: completed by the helper) */
  smpi_comm *c;  /* held by req */
  const void *sbuf;
  void *rbuf;
  size_t scount, rcount;
  const smpi_dt *sdt, *rdt; /* held until the helper is done */
  int dst, stag, src, rtag;
  bool replace; /* MPI_Isendrecv_replace: rbuf is the buffer, sdt/scount describe it */
} isr_op;

static void isr_main(void *arg)
{
  isr_op *o = arg;
  MPI_Status st = {.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};
  int rc = o->replace
               ? smpi_p2p_mpi_sendrecv_replace(o->c, o->rbuf, o->rcount, o->rdt, o->dst, o->stag,
                                               o->src, o->rtag, o->req->call, &st)
               : smpi_p2p_mpi_sendrecv(o->c, o->sbuf, o->scount, o->sdt, o->dst, o->stag, o->rbuf,
                                       o->rcount, o->rdt, o->src, o->rtag, o->req->call, &st);
  if (o->sdt)
    smpi_dt_unref((smpi_dt *)o->sdt);
  smpi_dt_unref((smpi_dt *)o->rdt);
  smpi_req *r = o->req;
  free(o);
  st.MPI_ERROR = rc;
  r->status = st;
  p2p_complete(r); /* may destroy r (MPI_Request_free'd) */
}

int smpi_p2p_mpi_isendrecv(smpi_comm *c, const void *sbuf, size_t scount, const smpi_dt *sdt,
                           int dst, int stag, void *rbuf, size_t rcount, const smpi_dt *rdt,
                           int src, int rtag, bool replace, const char *call,
                           MPI_Request *request)
{
  isr_op *o = xcalloc(1, sizeof *o);
  *o = (isr_op){.c = c,
                .sbuf = sbuf,
                .rbuf = rbuf,
                .scount = scount,
                .rcount = rcount,
                .sdt = sdt,
                .rdt = rdt,
                .dst = dst,
                .stag = stag,
                .src = src,
                .rtag = rtag,
                .replace = replace};
  if (sdt)
    smpi_dt_ref((smpi_dt *)sdt);
  smpi_dt_ref((smpi_dt *)rdt);
  /* peer MPI_PROC_NULL: MPI_Test does not probe the queues for this request */
  smpi_req *r = p2p_req_new(REQ_COLL, NULL, 0, NULL, MPI_PROC_NULL, MPI_ANY_TAG, c, 0, call);
  r->active = true;
  r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
  o->req = r;
  *request = r->handle;
  char name[64];
  snprintf(name, sizeof name, "rank %d: %s", smpi_self()->rank, call);
  smpi_spawn_helper(name, isr_main, o);
  return MPI_SUCCESS;
}
