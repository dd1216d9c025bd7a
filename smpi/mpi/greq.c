/* greq.c: generalized requests (MPI 3.1 section 12.2). A request of kind REQ_GREQ has no
 * transfer: MPI_Grequest_start makes it active, MPI_Grequest_complete completes it (waking
 * a rank blocked on it, like any completion), and the program's callbacks give its status
 * (query, at every wait/test/get_status that finds it complete), release its state (free,
 * when the request goes: collected, or freed once complete) and react to MPI_Cancel. No
 * simulated time is spent: the operation is the program's own. */
#include <stdlib.h>

#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p.h"
#include "smpi/mpi/p2p_private.h"
#include "src/mem.h"

struct p2p_greq {
  MPI_Grequest_query_function *query;
  MPI_Grequest_free_function *free_fn;
  MPI_Grequest_cancel_function *cancel;
  void *extra;
};

int smpi_greq_start(MPI_Grequest_query_function *query, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel, void *extra, MPI_Request *request)
{
  smpi_comm *self = smpi_comm_get(MPI_COMM_SELF);
  /* peer MPI_PROC_NULL: MPI_Test does not probe the queues for it */
  smpi_req *r = p2p_req_new(REQ_GREQ, NULL, 0, NULL, MPI_PROC_NULL, MPI_ANY_TAG, self, 0,
                            "MPI_Grequest_start");
  r->greq = xmalloc(sizeof *r->greq);
  *r->greq = (p2p_greq){query, free_fn, cancel, extra};
  r->status = (MPI_Status){.MPI_SOURCE = MPI_UNDEFINED, .MPI_TAG = MPI_UNDEFINED};
  r->active = true;
  r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
  *request = r->handle;
  return MPI_SUCCESS;
}

int smpi_greq_complete(smpi_req *r)
{
  if (r->kind != REQ_GREQ || r->complete)
    return MPI_ERR_REQUEST;
  p2p_complete(r); /* may destroy r (freed by MPI_Request_free): free_fn runs then */
  return MPI_SUCCESS;
}

int p2p_greq_query(smpi_req *r)
{
  MPI_Status st = r->status;
  int rc = r->greq->query ? r->greq->query(r->greq->extra, &st) : MPI_SUCCESS;
  int keep = r->status.MPI_ERROR;
  r->status = st;
  r->status.MPI_ERROR = keep;
  return rc;
}

void p2p_greq_release(smpi_req *r)
{
  p2p_greq *g = r->greq;
  r->greq = NULL;
  if (g->free_fn)
    g->free_fn(g->extra);
  free(g);
}

int p2p_greq_cancel(smpi_req *r)
{
  return r->greq->cancel ? r->greq->cancel(r->greq->extra, r->complete) : MPI_SUCCESS;
}
