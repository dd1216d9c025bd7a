/* Nonblocking collectives: MPI_Ibcast & co.
 *
 * Each call runs the algorithm the blocking call would choose, unchanged, in a helper
 * actor of the calling rank; the request completes when the helper returns:
 *
 *   rank 3 (actor "rank 3")                    helper (actor "rank 3: MPI_Ibcast")
 *   MPI_Ibcast(buf, ..., comm, &req)
 *     checks, MPI_IN_PLACE (coll.c, shared
 *     with MPI_Bcast), copy of the arrays,
 *     private context, request, helper -----> created runnable at this date
 *   yields, then returns                       runs now (same date) until it blocks
 *   computes (smpi_execute, a measured burst)    coll_run(bcast) on the private context:
 *     = a CPU action on the host; meanwhile      the same sends, receives and overheads
 *       the helper's messages cross the          as MPI_Bcast, contending with every
 *       network                                  other flow
 *   MPI_Wait(&req) -- blocks until ------------- returns: p2p_complete(req)
 *
 * So Ibcast + compute X + Wait lasts max(X, T(Bcast)) (plus whatever the two share), and
 * Ibcast + Wait lasts T(Bcast): the blocking algorithm's timing, not SimGrid 3.32's (its
 * nonblocking collectives are linear schedules of nonblocking point-to-point operations; see
 * docs/collectives.md, "Nonblocking collectives", for why we keep the blocking algorithms).
 *
 * Identity: the helper's actor data is the rank's smpi_rank, so smpi_self() inside the
 * algorithm is the rank (its world rank addresses the messages, its host sends and
 * receives them, its privatized globals are the buffers). The helper never enters the
 * MPI call machinery (no SMPI_ENTER), so the rank's CPU-burst timer is untouched.
 *
 * Matching: the k-th nonblocking collective a rank starts on a communicator is the k-th
 * on every member (MPI 3.1 section 5.12: same order on all ranks), so (communicator, k)
 * names one instance everywhere. Each instance gets a context id of its own from a pool
 * shared by the job (the first member to start it takes an id, the others find it in a
 * table; the id goes back to the pool when the last member's helper is done, by which time
 * every message of the instance has been received). The algorithm runs on a "shadow" of
 * the communicator (same group and rank, that context), so its messages can match neither
 * another instance, nor blocking collectives, nor point-to-point traffic of the
 * communicator, whatever order the helpers run in.
 *
 * MPI_Ineighbor_* (defined here) run coll_neighbor_run (coll_neighbor.h) the same way.
 *
 * Lifetimes: arrays of counts, displacements and datatypes are copied at the call and the
 * datatypes referenced (MPI_Type_free may come before completion); the request holds the
 * communicator (MPI_Comm_free may too); in-place copies made at the call are taken over. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll_inter.h"
#include "collectives/coll_nb.h"
#include "collectives/coll_neighbor.h"
#include "collectives/coll_trace.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/op_impl.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/world.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/strmap.h"

LOG_NEW_SUBCATEGORY(smpi_coll_nb, smpi, "MPI nonblocking collectives");
LOG_DEFAULT_CATEGORY(smpi_coll_nb);

/* ---- private contexts ----
 * Communicator ids grow from 2 (np + 1) by 2 (smpi/mpi/ctx.c); ours come from the top quarter
 * of the id space and are recycled, so a job can run any number of nonblocking collectives
 * while at most 2^29 are in progress at once. */
#define NB_CTX_FIRST 0xC0000000u

typedef struct nb_slot {
  uint32_t base; /* even id: base + 1 is the collective context of the shadow */
  int members;   /* communicator size */
  int arrived;   /* members that started this instance */
  int finished;  /* members whose helper is done */
} nb_slot;

static struct nbc_state {
  smpi_u64map started; /* (communicator collective context << 32 | k) -> nb_slot, until
                          every member has started the instance */
  uint32_t *free_ids;
  size_t nfree, capfree;
  uint32_t next_id;
  unsigned long live; /* instances in progress somewhere (statistics) */
} nbc;

static uint32_t id_take(void)
{
  if (nbc.nfree)
    return nbc.free_ids[--nbc.nfree];
  if (!nbc.next_id)
    nbc.next_id = NB_CTX_FIRST;
  if (nbc.next_id >= UINT32_MAX - 1u)
    DIE("more than 2^29 nonblocking collectives in progress at once");
  uint32_t id = nbc.next_id;
  nbc.next_id += 2;
  return id;
}

static void id_give_back(uint32_t id)
{
  XGROW(nbc.free_ids, nbc.capfree, nbc.nfree + 1);
  nbc.free_ids[nbc.nfree++] = id;
}

static nb_slot *slot_join(smpi_comm *c)
{
  uint64_t key = (uint64_t)smpi_comm_coll_context(c) << 32 | smpi_comm_next_count(c, "nbc");
  nb_slot *s = smpi_u64map_get(&nbc.started, key);
  if (!s) {
    s = xcalloc(1, sizeof *s);
    s->base = id_take();
    /* intercommunicators: both groups start the instance */
    s->members = smpi_comm_size(c) + (smpi_comm_is_inter(c) ? smpi_comm_remote_size(c) : 0);
    nbc.live++;
    if (s->members > 1)
      smpi_u64map_put(&nbc.started, key, s);
  }
  if (++s->arrived == s->members && s->members > 1)
    smpi_u64map_remove(&nbc.started, key);
  return s;
}

static void slot_leave(nb_slot *s)
{
  if (++s->finished < s->members)
    return;
  ASSERT(s->arrived == s->members);
  id_give_back(s->base);
  nbc.live--;
  free(s);
}

/* The calling rank's view of c on context base + 1 for collective traffic. Internal: no
 * handle, no attributes; the name is c's, for reports. */
static smpi_comm *shadow_of(smpi_comm *c, uint32_t base)
{
  smpi_comm *s = xcalloc(1, sizeof *s);
  s->handle = c->handle;
  s->owner = c->owner;
  s->refs = 1;
  s->group = smpi_group_ref(c->group);
  s->remote = c->remote ? smpi_group_ref(c->remote) : NULL;
  s->side = c->side;
  s->rank = c->rank;
  s->ctx = base;
  s->info = MPI_INFO_NULL;
  s->eh = smpi_errhandler_ref(c->eh);
  s->topo = c->topo ? smpi_topo_ref(c->topo) : NULL;
  s->name = xstrdup(smpi_comm_display_name(c));
  snprintf(s->dname, sizeof s->dname, "%s", s->name);
  return s;
}

/* ---- one started collective ---- */

typedef struct nb_op {
  coll_id id;
  coll_args a;           /* arrays and datatypes below are owned */
  bool neighbor;         /* a neighborhood collective: na instead of id and a */
  coll_neighbor_args na; /* arrays and datatype handles owned */
  int nin, nout;         /* degrees: entries of na's receive and send arrays */
  bool inter;            /* on an intercommunicator: ic instead of id and a */
  coll_inter_call ic;    /* arrays and handles owned */
  int ns, nr;            /* entries of ic's send-side and receive-side arrays */
  coll_tmp_buf *tmps;    /* scratch taken over from the caller (in-place copies) */
  size_t ntmps;
  smpi_comm *shadow;
  nb_slot *slot;
  smpi_req *req;
} nb_op;

static int *dup_ints(const int *v, int n)
{
  if (!v)
    return NULL;
  int *d = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  memcpy(d, v, (size_t)n * sizeof *d);
  return d;
}

static void dt_hold(const smpi_dt *dt)
{
  if (dt)
    smpi_dt_ref((smpi_dt *)dt);
}

static void dt_release(const smpi_dt *dt)
{
  if (dt)
    smpi_dt_unref((smpi_dt *)dt);
}

static const smpi_dt *const *dup_dts(const smpi_dt *const *v, int n)
{
  if (!v)
    return NULL;
  const smpi_dt **d = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  for (int i = 0; i < n; i++) {
    d[i] = v[i];
    dt_hold(d[i]);
  }
  return d;
}

static void free_dts(const smpi_dt *const *v, int n)
{
  if (!v)
    return;
  for (int i = 0; i < n; i++)
    dt_release(v[i]);
  free((void *)v);
}

/* A datatype handle the helper may still use (reductions pass it to the op; neighborhood
 * collectives resolve their types late): the caller may free its handle once the call
 * returned (MPI 3.1 section 4.1.9), so a user-created one is replaced by a private handle
 * of the same type, held until completion. Predefined handles stay as they are. */
static MPI_Datatype handle_hold(MPI_Datatype h)
{
  smpi_dt *dt = smpi_dt_get(h);
  if (!dt || smpi_handle_is_predefined(h))
    return h;
  smpi_dt_ref(dt);
  return smpi_dt_publish(dt);
}

static void handle_release(MPI_Datatype h)
{
  smpi_dt *dt = smpi_dt_get(h);
  if (!dt || smpi_handle_is_predefined(h))
    return;
  smpi_handle_free(h);
  smpi_dt_unref(dt);
}

/* a's arrays have n entries (intracommunicators: one per rank). The op is held too: the
 * program may free a user op right after starting the reduction (MPI 3.1 section 5.9.5),
 * which freed it under the helper before (use after free, or MPI_ERR_OP from MPI_Wait). */
static void args_copy(coll_args *d, const coll_args *a, int n)
{
  *d = *a;
  if (d->op)
    smpi_op_ref((smpi_op *)d->op);
  d->sdt_h = handle_hold(a->sdt_h);
  d->rdt_h = a->rdt_h == a->sdt_h ? d->sdt_h : handle_hold(a->rdt_h);
  d->scounts = dup_ints(a->scounts, n);
  d->sdispls = dup_ints(a->sdispls, n);
  d->rcounts = dup_ints(a->rcounts, n);
  d->rdispls = dup_ints(a->rdispls, n);
  d->wsdispls = dup_ints(a->wsdispls, n);
  d->wrdispls = dup_ints(a->wrdispls, n);
  d->sdts = dup_dts(a->sdts, n);
  d->rdts = dup_dts(a->rdts, n);
  dt_hold(d->sdt);
  dt_hold(d->rdt);
}

static void args_free(coll_args *d, int n)
{
  free((void *)d->scounts);
  free((void *)d->sdispls);
  free((void *)d->rcounts);
  free((void *)d->rdispls);
  free((void *)d->wsdispls);
  free((void *)d->wrdispls);
  free_dts(d->sdts, n);
  free_dts(d->rdts, n);
  dt_release(d->sdt);
  dt_release(d->rdt);
  if (d->rdt_h != d->sdt_h)
    handle_release(d->rdt_h);
  handle_release(d->sdt_h);
  if (d->op)
    smpi_op_unref((smpi_op *)d->op);
}

static void nb_finish(nb_op *op, int rc);
static void *dup_mem(const void *v, int n, size_t elt);

/* A user op's handle, replaced like a datatype's (handle_hold) */
static MPI_Op op_handle_hold(MPI_Op h)
{
  smpi_op *o = smpi_op_get(h);
  if (!o || smpi_op_is_predefined(o))
    return h;
  smpi_op_ref(o);
  return smpi_handle_new(SMPI_KIND_OP, o);
}

static void op_handle_release(MPI_Op h)
{
  smpi_op *o = smpi_op_get(h);
  if (!o || smpi_op_is_predefined(o))
    return;
  smpi_handle_free(h);
  smpi_op_unref(o);
}

static void inter_call_free(coll_inter_call *k, int ns, int nr)
{
  free((void *)k->scounts);
  free((void *)k->sdispls);
  free((void *)k->rcounts);
  free((void *)k->rdispls);
  for (int i = 0; k->stypes && i < ns; i++)
    handle_release(k->stypes[i]);
  for (int i = 0; k->rtypes && i < nr; i++)
    handle_release(k->rtypes[i]);
  free((void *)k->stypes);
  free((void *)k->rtypes);
  handle_release(k->stype);
  handle_release(k->rtype);
  op_handle_release(k->op);
}

static void args_free_neighbor(coll_neighbor_args *na, int in, int out)
{
  handle_release(na->stype);
  handle_release(na->rtype);
  for (int i = 0; na->stypes && i < out; i++)
    handle_release(na->stypes[i]);
  for (int i = 0; na->rtypes && i < in; i++)
    handle_release(na->rtypes[i]);
  free((void *)na->scounts);
  free((void *)na->sdispls);
  free((void *)na->swdispls);
  free((void *)na->stypes);
  free((void *)na->rcounts);
  free((void *)na->rdispls);
  free((void *)na->rwdispls);
  free((void *)na->rtypes);
}

/* The helper's body: the collective, then the clean-up, then the request completes. */
static void nb_main(void *arg)
{
  nb_op *op = arg;
  if (op->inter) {
    int rc = coll_inter_run(op->shadow, op->shadow->handle, op->req->call, &op->ic);
    inter_call_free(&op->ic, op->ns, op->nr);
    nb_finish(op, rc);
    return;
  }
  if (op->neighbor) {
    int rc = coll_neighbor_run(op->shadow, &op->na, COLL_NEIGHBOR_TAG);
    args_free_neighbor(&op->na, op->nin, op->nout);
    nb_finish(op, rc);
    return;
  }
  coll_ctx x;
  memset(&x, 0, sizeof x);
  x.comm = op->shadow;
  x.rank = smpi_comm_rank(op->shadow);
  x.size = smpi_comm_size(op->shadow);
  x.coll = op->id;
  x.err = MPI_SUCCESS;
  coll_fold_decide(&x, op->id, &op->a);
  int rc = coll_run(&x, op->id, &op->a);
  if (rc == MPI_SUCCESS)
    rc = x.err;
  ASSERTF(x.nreqs == 0 || rc != MPI_SUCCESS,
          "%s (nonblocking): an algorithm returned with requests pending",
          coll_infos[op->id].mpi_name);
  if (x.nreqs)
    coll_wait(&x);
  coll_tmps_release(&x);
  free(x.reqs);

  int n = x.size;
  for (size_t i = 0; i < op->ntmps; i++)
    coll_tmp_free(op->tmps[i].p);
  free(op->tmps);
  args_free(&op->a, n);
  nb_finish(op, rc);
}

static void nb_finish(nb_op *op, int rc)
{
  smpi_comm_unref(op->shadow); /* messages still in flight hold it too */
  slot_leave(op->slot);
  smpi_req *r = op->req;
  free(op);
  r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG, .MPI_ERROR = rc};
  p2p_complete(r); /* may destroy r (MPI_Request_free'd) */
}

/* Gives op its context, shadow communicator, request and helper; fills *request. */
static void nb_launch(smpi_comm *c, nb_op *op, const char *fname, MPI_Request *request)
{
  smpi_rank *me = smpi_self();
  ASSERT(me);
  op->slot = slot_join(c);
  op->shadow = shadow_of(c, op->slot->base);

  /* the request the user sees: no transfer of its own; the helper completes it */
  smpi_req *r = p2p_req_new(REQ_COLL, NULL, 0, NULL, MPI_ANY_SOURCE, MPI_ANY_TAG, c,
                            SMPI_P2P_COLL, fname);
  r->ctx = op->slot->base; /* nothing is ever sent there: probes for it find nothing */
  r->active = true;
  r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
  op->req = r;
  *request = r->handle;

  char name[64];
  snprintf(name, sizeof name, "rank %d: %s", me->rank, fname);
  LOG_DEBUG("%s on %s started (context %u)", fname, smpi_comm_display_name(c),
            op->slot->base + 1);
  /* the helper starts now (same date): the algorithm is chosen and the first messages
   * posted before the rank's next call, as a real library's start would, so that what the
   * rank does next (smpi_coll_force, another collective) cannot change this one */
  smpi_spawn_helper(name, nb_main, op);
}

int coll_nb_start(smpi_comm *c, coll_id id, const coll_args *a, coll_ctx *scratch,
                  const char *fname, MPI_Request *request)
{
  if (__builtin_expect(smpi_observed, 0))
    coll_trace(c, id, a); /* records MPI_Ibcast & co. as ibcast, ... */
  nb_op *op = xcalloc(1, sizeof *op);
  op->id = id;
  args_copy(&op->a, a, smpi_comm_size(c));
  if (scratch && scratch->ntmps) {
    op->tmps = scratch->tmps;
    op->ntmps = scratch->ntmps;
    scratch->tmps = NULL;
    scratch->ntmps = scratch->captmps = 0;
  }
  nb_launch(c, op, fname, request);
  return MPI_SUCCESS;
}

/* ---- on intercommunicators: coll_inter_run (coll_inter.h) in the helper; the arguments
 * are checked there, when the helper starts (at the call's date, before the rank's next
 * call), and an error goes through the communicator's handler from the helper ---- */

int coll_nb_start_inter(smpi_comm *c, const coll_inter_call *k, const char *fname,
                        MPI_Request *request)
{
  nb_op *op = xcalloc(1, sizeof *op);
  op->inter = true;
  op->ic = *k;
  coll_inter_lengths(k, smpi_comm_size(c), smpi_comm_remote_size(c), &op->ns, &op->nr);
  op->ic.scounts = dup_ints(k->scounts, op->ns);
  op->ic.sdispls = dup_ints(k->sdispls, op->ns);
  op->ic.rcounts = dup_ints(k->rcounts, op->nr);
  op->ic.rdispls = dup_ints(k->rdispls, op->nr);
  op->ic.stypes = dup_mem(k->stypes, op->ns, sizeof(MPI_Datatype));
  op->ic.rtypes = dup_mem(k->rtypes, op->nr, sizeof(MPI_Datatype));
  for (int i = 0; op->ic.stypes && i < op->ns; i++)
    ((MPI_Datatype *)op->ic.stypes)[i] = handle_hold(k->stypes[i]);
  for (int i = 0; op->ic.rtypes && i < op->nr; i++)
    ((MPI_Datatype *)op->ic.rtypes)[i] = handle_hold(k->rtypes[i]);
  op->ic.stype = handle_hold(k->stype);
  op->ic.rtype = handle_hold(k->rtype);
  op->ic.op = op_handle_hold(k->op);
  nb_launch(c, op, fname, request);
  return MPI_SUCCESS;
}

/* ---- MPI_Ineighbor_*: coll_neighbor_run (coll_neighbor.h) in the helper ---- */

/* in- and out-degree of the calling rank in c's topology (0 without one: the checks refuse
 * such communicators before anything is copied) */
static void degrees(const smpi_comm *c, int *in, int *out)
{
  const smpi_topo *t = c->topo;
  *in = *out = 0;
  if (!t)
    return;
  if (t->kind == MPI_CART) {
    *in = *out = 2 * t->ndims;
  } else if (t->kind == MPI_GRAPH) {
    *in = *out = t->index[c->rank] - (c->rank ? t->index[c->rank - 1] : 0);
  } else if (t->kind == MPI_DIST_GRAPH) {
    *in = t->indegree;
    *out = t->outdegree;
  }
}

static void *dup_mem(const void *v, int n, size_t elt)
{
  if (!v)
    return NULL;
  void *d = xmalloc((size_t)(n > 0 ? n : 1) * elt);
  memcpy(d, v, (size_t)n * elt);
  return d;
}

static int neighbor_start(MPI_Comm comm, const coll_neighbor_args *a, const char *fname,
                          MPI_Request *request)
{
  smpi_comm *c = smpi_comm_get(comm);
  if (!c)
    return smpi_comm_error(comm, MPI_ERR_COMM, fname);
  if (!request)
    return smpi_comm_errorf(comm, MPI_ERR_ARG, fname, "request is NULL");
  char why[160] = "";
  int rc = coll_neighbor_check(c, a, why, sizeof why);
  if (rc)
    return smpi_comm_errorf(comm, rc, fname, "%s", why);
  int in, out;
  degrees(c, &in, &out);
  nb_op *op = xcalloc(1, sizeof *op);
  op->neighbor = true;
  op->na = *a;
  op->na.scounts = dup_mem(a->scounts, out, sizeof(int));
  op->na.sdispls = dup_mem(a->sdispls, out, sizeof(int));
  op->na.swdispls = dup_mem(a->swdispls, out, sizeof(MPI_Aint));
  op->na.stypes = dup_mem(a->stypes, out, sizeof(MPI_Datatype));
  op->na.rcounts = dup_mem(a->rcounts, in, sizeof(int));
  op->na.rdispls = dup_mem(a->rdispls, in, sizeof(int));
  op->na.rwdispls = dup_mem(a->rwdispls, in, sizeof(MPI_Aint));
  op->na.rtypes = dup_mem(a->rtypes, in, sizeof(MPI_Datatype));
  op->nin = in;
  op->nout = out;
  op->na.stype = handle_hold(a->stype);
  op->na.rtype = handle_hold(a->rtype);
  for (int i = 0; op->na.stypes && i < out; i++)
    ((MPI_Datatype *)op->na.stypes)[i] = handle_hold(a->stypes[i]);
  for (int i = 0; op->na.rtypes && i < in; i++)
    ((MPI_Datatype *)op->na.rtypes)[i] = handle_hold(a->rtypes[i]);
  nb_launch(c, op, fname, request);
  return MPI_SUCCESS;
}

int coll_mpi_ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLGATHER,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcount = recvcount,
                          .rtype = recvtype};
  return neighbor_start(comm, &a, smpi_fname_, request);
}

int coll_mpi_ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                                  const char *smpi_fname_)
{
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLGATHERV,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rdispls = displs,
                          .rtype = recvtype};
  return neighbor_start(comm, &a, smpi_fname_, request);
}

int coll_mpi_ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALL,
                          .sbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcount = recvcount,
                          .rtype = recvtype};
  return neighbor_start(comm, &a, smpi_fname_, request);
}

int coll_mpi_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request, const char *smpi_fname_)
{
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALLV,
                          .sbuf = sendbuf,
                          .scounts = sendcounts,
                          .sdispls = sdispls,
                          .stype = sendtype,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rdispls = rdispls,
                          .rtype = recvtype};
  return neighbor_start(comm, &a, smpi_fname_, request);
}

int coll_mpi_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request *request, const char *smpi_fname_)
{
  coll_neighbor_args a = {.kind = COLL_NEIGHBOR_ALLTOALLW,
                          .sbuf = sendbuf,
                          .scounts = sendcounts,
                          .swdispls = sdispls,
                          .stypes = sendtypes,
                          .rbuf = recvbuf,
                          .rcounts = recvcounts,
                          .rwdispls = rdispls,
                          .rtypes = recvtypes};
  return neighbor_start(comm, &a, smpi_fname_, request);
}
