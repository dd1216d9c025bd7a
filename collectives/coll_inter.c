/* Collectives on intercommunicators: groups A and B, each with a leader (local rank 0).
 * The algorithms are the usual ones (MPICH's): work inside each group with the ordinary
 * intracommunicator algorithms (on the intercommunicator's hidden local communicator, so
 * smpi/<collective> and the selectors apply), and cross between the groups through the
 * leaders or directly rank to rank.
 *
 *   Allreduce (each group gets the reduction of the OTHER group's data):
 *     A: reduce to a0 ----+            +---- B: reduce to b0
 *                          a0 <-> b0        (leaders swap their partial results)
 *     A: bcast from a0 <---+            +---> B: bcast from b0
 *
 *   Bcast from root r of A:  r (MPI_ROOT) --> b0 (root = r) --> bcast within B; the other
 *     members of A pass MPI_PROC_NULL and do nothing.
 *   Reduce to r of A: B reduces to b0, b0 --> r.   Gather / Scatter: likewise through b0.
 *   Barrier: barrier in each group, leaders swap an empty message, bcast in each group.
 *   Allgather: gather to the leaders, leaders swap, bcast.   Allgatherv: every rank sends
 *     straight to the remote leader, which bcasts the packed blocks in its group.
 *   Alltoall(v): every rank exchanges with every remote rank directly (linear).
 *   Reduce_scatter_block: reduce to the leader, leaders swap, scatter in each group.
 *
 * Messages between the groups use the intercommunicator's collective context; the groups'
 * own phases use the hidden local communicator's. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll_inter.h"
#include "collectives/coll_private.h"
#include "smpi/mpi/comm_impl.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- per-call state: one context for the local group, one for the intercommunicator ---- */

typedef struct inter {
  smpi_comm *c;
  coll_ctx loc, rem;
  int lrank, lsize, rsize;
  MPI_Comm comm;
  const char *fname;
  char why[160];
} inter;

static void begin(inter *s, smpi_comm *c, MPI_Comm comm, const char *fname, coll_id id)
{
  s->c = c;
  s->comm = comm;
  s->fname = fname;
  s->lrank = smpi_comm_rank(c);
  s->lsize = smpi_comm_size(c);
  s->rsize = smpi_comm_remote_size(c);
  s->why[0] = 0;
  coll_ctx_init(&s->rem, c, id);
  coll_ctx_init(&s->loc, smpi_comm_local(c), id);
}

/* waits for what is left, frees the scratch memory, reports the first error */
static int end(inter *s, int rc)
{
  coll_ctx_done(&s->loc);
  coll_ctx_done(&s->rem);
  if (rc == MPI_SUCCESS)
    rc = s->loc.err != MPI_SUCCESS ? s->loc.err : s->rem.err;
  return rc == MPI_SUCCESS ? MPI_SUCCESS : smpi_comm_error(s->comm, rc, s->fname);
}

/* an argument error: reported with its detail, nothing was sent */
static int fail(inter *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(inter *s, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->why, sizeof s->why, fmt, ap);
  va_end(ap);
  coll_ctx_done(&s->loc);
  coll_ctx_done(&s->rem);
  return smpi_comm_errorf(s->comm, code, s->fname, "%s", s->why);
}

/* ---- argument checks: 0 or an error class, detail in s->why ---- */

static int why(inter *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why(inter *s, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->why, sizeof s->why, fmt, ap);
  va_end(ap);
  return code;
}

static int check_type(inter *s, const char *what, MPI_Datatype h, const smpi_dt **out)
{
  const smpi_dt *dt = smpi_dt_get(h);
  if (!dt)
    return why(s, MPI_ERR_TYPE, "%s datatype is not a valid datatype", what);
  if (!smpi_dt_is_committed(dt))
    return why(s, MPI_ERR_TYPE, "%s datatype is not committed", what);
  *out = dt;
  return 0;
}

static int check_buf(inter *s, const char *what, const void *buf, size_t count, MPI_Datatype h,
                     const smpi_dt **out)
{
  int rc = check_type(s, what, h, out);
  if (rc)
    return rc;
  if (buf == MPI_IN_PLACE)
    return why(s, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  if (!buf && count > 0 && smpi_dt_size(*out) > 0 && smpi_dt_true_lb(*out) == 0)
    return why(s, MPI_ERR_BUFFER, "%s buffer is NULL", what);
  return 0;
}

static int check_count(inter *s, const char *what, int count)
{
  return count < 0 ? why(s, MPI_ERR_COUNT, "%s count %d is negative", what, count) : 0;
}

/* n blocks of count: the total must stay an MPI count */
static int check_total(inter *s, int count, int n)
{
  return (long long)count * n > INT_MAX
             ? why(s, MPI_ERR_COUNT, "count %d x %d ranks is more than INT_MAX", count, n)
             : 0;
}

static int check_counts(inter *s, const char *what, const int *counts, const int *displs, int n)
{
  if (!counts || !displs)
    return why(s, MPI_ERR_ARG, "%s counts or displacements array is NULL", what);
  for (int i = 0; i < n; i++)
    if (counts[i] < 0)
      return why(s, MPI_ERR_COUNT, "%s count [%d] = %d is negative", what, i, counts[i]);
  return 0;
}

/* root of a rooted collective on an intercommunicator: MPI_ROOT (the root itself),
 * MPI_PROC_NULL (the other members of its group) or a rank of the remote group */
static int check_root(inter *s, int root)
{
  if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < s->rsize))
    return 0;
  return why(s, MPI_ERR_ROOT,
             "root %d on an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank of the "
             "remote group (%d ranks)",
             root, s->rsize);
}

static int check_op(inter *s, MPI_Op h, const smpi_dt *dt, MPI_Datatype dth, const smpi_op **out)
{
  const smpi_op *op = smpi_op_get(h);
  if (!op)
    return why(s, MPI_ERR_OP, "not a valid reduction operation");
  if (h == MPI_REPLACE || h == MPI_NO_OP) /* MPI 3.1 section 11.3.4: one-sided only */
    return why(s, MPI_ERR_OP, "MPI_REPLACE and MPI_NO_OP are for one-sided communication");
  if (smpi_op_is_predefined(op) && smpi_op_apply(op, NULL, NULL, 0, dth) != MPI_SUCCESS)
    return why(s, MPI_ERR_OP, "the operation is not defined on datatype %s", smpi_dt_name(dt));
  *out = op;
  return 0;
}

#define CHECK(expr)                      \
  do {                                   \
    int rc_ = (expr);                    \
    if (rc_)                             \
      return fail(&s, rc_, "%s", s.why); \
  } while (0)

/* ---- the collectives ---- */

int coll_inter_barrier(smpi_comm *c, MPI_Comm comm, const char *fname)
{
  inter s;
  begin(&s, c, comm, fname, COLL_barrier);
  coll_args none = {0};
  int rc = coll_run(&s.loc, COLL_barrier, &none);
  if (s.lrank == 0)
    coll_sendrecv(&s.rem, NULL, 0, coll_byte(), 0, NULL, 0, coll_byte(), 0, COLL_TAG_BARRIER);
  char token = 0;
  coll_args b = {.sbuf = &token,
                 .rbuf = &token,
                 .scount = 1,
                 .rcount = 1,
                 .sdt = coll_byte(),
                 .rdt = coll_byte(),
                 .sdt_h = MPI_BYTE,
                 .rdt_h = MPI_BYTE,
                 .root = 0};
  if (rc == MPI_SUCCESS)
    rc = coll_run(&s.loc, COLL_bcast, &b);
  return end(&s, rc);
}

int coll_inter_bcast(smpi_comm *c, MPI_Comm comm, const char *fname, void *buf, int count,
                     MPI_Datatype type, int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_bcast);
  const smpi_dt *dt;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  CHECK(check_count(&s, "broadcast", count));
  CHECK(check_buf(&s, "broadcast", buf, (size_t)count, type, &dt));
  if (root == MPI_ROOT) {
    coll_send(&s.rem, buf, (size_t)count, dt, 0, COLL_TAG_BCAST);
    return end(&s, MPI_SUCCESS);
  }
  if (s.lrank == 0)
    coll_recv(&s.rem, buf, (size_t)count, dt, root, COLL_TAG_BCAST);
  coll_args b = {.sbuf = buf,
                 .rbuf = buf,
                 .scount = count,
                 .rcount = count,
                 .sdt = dt,
                 .rdt = dt,
                 .sdt_h = type,
                 .rdt_h = type,
                 .root = 0};
  return end(&s, coll_run(&s.loc, COLL_bcast, &b));
}

int coll_inter_gather(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                      int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                      int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_gather);
  const smpi_dt *sdt, *rdt;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  if (root == MPI_ROOT) {
    CHECK(check_count(&s, "receive", rcount));
    CHECK(check_total(&s, rcount, s.rsize));
    CHECK(check_buf(&s, "receive", rbuf, (size_t)rcount * (size_t)s.rsize, rtype, &rdt));
    coll_recv(&s.rem, rbuf, (size_t)rcount * (size_t)s.rsize, rdt, 0, COLL_TAG_GATHER);
    return end(&s, MPI_SUCCESS);
  }
  CHECK(check_count(&s, "send", scount));
  CHECK(check_total(&s, scount, s.lsize));
  CHECK(check_buf(&s, "send", sbuf, (size_t)scount, stype, &sdt));
  size_t all = (size_t)scount * (size_t)s.lsize;
  void *tmp = s.lrank == 0 ? coll_tmp_dt(&s.loc, all, sdt) : NULL;
  coll_args g = {.sbuf = sbuf,
                 .scount = scount,
                 .sdt = sdt,
                 .sdt_h = stype,
                 .rbuf = tmp,
                 .rcount = scount,
                 .rdt = sdt,
                 .rdt_h = stype,
                 .root = 0};
  int rc = coll_run(&s.loc, COLL_gather, &g);
  if (s.lrank == 0)
    coll_send(&s.rem, tmp, all, sdt, root, COLL_TAG_GATHER);
  return end(&s, rc);
}

int coll_inter_scatter(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                       int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_scatter);
  const smpi_dt *sdt, *rdt;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  if (root == MPI_ROOT) {
    CHECK(check_count(&s, "send", scount));
    CHECK(check_total(&s, scount, s.rsize));
    CHECK(check_buf(&s, "send", sbuf, (size_t)scount * (size_t)s.rsize, stype, &sdt));
    coll_send(&s.rem, sbuf, (size_t)scount * (size_t)s.rsize, sdt, 0, COLL_TAG_SCATTER);
    return end(&s, MPI_SUCCESS);
  }
  CHECK(check_count(&s, "receive", rcount));
  CHECK(check_total(&s, rcount, s.lsize));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)rcount, rtype, &rdt));
  size_t all = (size_t)rcount * (size_t)s.lsize;
  void *tmp = NULL;
  if (s.lrank == 0) {
    tmp = coll_tmp_dt(&s.loc, all, rdt);
    coll_recv(&s.rem, tmp, all, rdt, root, COLL_TAG_SCATTER);
  }
  coll_args g = {.sbuf = tmp,
                 .scount = rcount,
                 .sdt = rdt,
                 .sdt_h = rtype,
                 .rbuf = rbuf,
                 .rcount = rcount,
                 .rdt = rdt,
                 .rdt_h = rtype,
                 .root = 0};
  return end(&s, coll_run(&s.loc, COLL_scatter, &g));
}

/* reduce of the local group's sbuf to the leader's tmp (count elements of dt) */
static int local_reduce(inter *s, const void *sbuf, void *tmp, int count, const smpi_dt *dt,
                        MPI_Datatype type, const smpi_op *op)
{
  coll_args r = {.sbuf = sbuf,
                 .rbuf = tmp,
                 .scount = count,
                 .rcount = count,
                 .sdt = dt,
                 .rdt = dt,
                 .sdt_h = type,
                 .rdt_h = type,
                 .op = op,
                 .root = 0};
  return coll_run(&s->loc, COLL_reduce, &r);
}

int coll_inter_reduce(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                      void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_reduce);
  const smpi_dt *dt;
  const smpi_op *o;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  CHECK(check_count(&s, "send", count));
  CHECK(check_buf(&s, root == MPI_ROOT ? "receive" : "send", root == MPI_ROOT ? rbuf : sbuf,
                  (size_t)count, type, &dt));
  CHECK(check_op(&s, op, dt, type, &o));
  if (root == MPI_ROOT) {
    coll_recv(&s.rem, rbuf, (size_t)count, dt, 0, COLL_TAG_REDUCE);
    return end(&s, MPI_SUCCESS);
  }
  void *tmp = s.lrank == 0 ? coll_tmp_dt(&s.loc, (size_t)count, dt) : NULL;
  int rc = local_reduce(&s, sbuf, tmp, count, dt, type, o);
  if (s.lrank == 0)
    coll_send(&s.rem, tmp, (size_t)count, dt, root, COLL_TAG_REDUCE);
  return end(&s, rc);
}

int coll_inter_allreduce(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         void *rbuf, int count, MPI_Datatype type, MPI_Op op)
{
  inter s;
  begin(&s, c, comm, fname, COLL_allreduce);
  const smpi_dt *dt;
  const smpi_op *o;
  CHECK(check_count(&s, "send", count));
  CHECK(check_buf(&s, "send", sbuf, (size_t)count, type, &dt));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)count, type, &dt));
  CHECK(check_op(&s, op, dt, type, &o));
  void *tmp = s.lrank == 0 ? coll_tmp_dt(&s.loc, (size_t)count, dt) : NULL;
  int rc = local_reduce(&s, sbuf, tmp, count, dt, type, o);
  if (s.lrank == 0)
    coll_sendrecv(&s.rem, tmp, (size_t)count, dt, 0, rbuf, (size_t)count, dt, 0,
                  COLL_TAG_ALLREDUCE);
  coll_args b = {.sbuf = rbuf,
                 .rbuf = rbuf,
                 .scount = count,
                 .rcount = count,
                 .sdt = dt,
                 .rdt = dt,
                 .sdt_h = type,
                 .rdt_h = type,
                 .root = 0};
  if (rc == MPI_SUCCESS)
    rc = coll_run(&s.loc, COLL_bcast, &b);
  return end(&s, rc);
}

int coll_inter_allgather(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
  inter s;
  begin(&s, c, comm, fname, COLL_allgather);
  const smpi_dt *sdt, *rdt;
  CHECK(check_count(&s, "send", scount));
  CHECK(check_count(&s, "receive", rcount));
  CHECK(check_total(&s, scount, s.lsize));
  CHECK(check_total(&s, rcount, s.rsize));
  CHECK(check_buf(&s, "send", sbuf, (size_t)scount, stype, &sdt));
  size_t rall = (size_t)rcount * (size_t)s.rsize, sall = (size_t)scount * (size_t)s.lsize;
  CHECK(check_buf(&s, "receive", rbuf, rall, rtype, &rdt));
  void *tmp = s.lrank == 0 ? coll_tmp_dt(&s.loc, sall, sdt) : NULL;
  coll_args g = {.sbuf = sbuf,
                 .scount = scount,
                 .sdt = sdt,
                 .sdt_h = stype,
                 .rbuf = tmp,
                 .rcount = scount,
                 .rdt = sdt,
                 .rdt_h = stype,
                 .root = 0};
  int rc = coll_run(&s.loc, COLL_gather, &g);
  if (s.lrank == 0)
    coll_sendrecv(&s.rem, tmp, sall, sdt, 0, rbuf, rall, rdt, 0, COLL_TAG_ALLGATHER);
  coll_args b = {.sbuf = rbuf,
                 .rbuf = rbuf,
                 .scount = (int)rall,
                 .rcount = (int)rall,
                 .sdt = rdt,
                 .rdt = rdt,
                 .sdt_h = rtype,
                 .rdt_h = rtype,
                 .root = 0};
  if (rc == MPI_SUCCESS)
    rc = coll_run(&s.loc, COLL_bcast, &b);
  return end(&s, rc);
}

int coll_inter_allgatherv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                          int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                          const int *displs, MPI_Datatype rtype)
{
  inter s;
  begin(&s, c, comm, fname, COLL_allgatherv);
  const smpi_dt *sdt, *rdt;
  CHECK(check_count(&s, "send", scount));
  CHECK(check_buf(&s, "send", sbuf, (size_t)scount, stype, &sdt));
  CHECK(check_counts(&s, "receive", rcounts, displs, s.rsize));
  CHECK(check_type(&s, "receive", rtype, &rdt));
  size_t bytes = 0;
  for (int i = 0; i < s.rsize; i++)
    bytes += (size_t)rcounts[i] * smpi_dt_size(rdt);
  CHECK(check_buf(&s, "receive", rbuf, bytes, rtype, &rdt));
  if (bytes > INT_MAX)
    return fail(&s, MPI_ERR_COUNT, "the receive counts add up to more than INT_MAX bytes");
  /* every rank sends straight to the remote leader; the leader receives the remote
   * group's blocks in place */
  if (s.lrank == 0)
    for (int i = 0; i < s.rsize; i++)
      coll_irecv(&s.rem, coll_at(rbuf, (size_t)displs[i], rdt), (size_t)rcounts[i], rdt, i,
                 COLL_TAG_ALLGATHERV);
  coll_isend(&s.rem, sbuf, (size_t)scount, sdt, 0, COLL_TAG_ALLGATHERV);
  coll_wait(&s.rem);
  /* then broadcasts them packed in its group */
  char *packed = coll_tmp(&s.loc, bytes);
  if (s.lrank == 0)
    for (size_t i = 0, off = 0; i < (size_t)s.rsize;
         off += (size_t)rcounts[i] * smpi_dt_size(rdt), i++)
      coll_pack(&s.loc, coll_at(rbuf, (size_t)displs[i], rdt), (size_t)rcounts[i], rdt,
                packed + off);
  coll_args b = {.sbuf = packed,
                 .rbuf = packed,
                 .scount = (int)bytes,
                 .rcount = (int)bytes,
                 .sdt = coll_byte(),
                 .rdt = coll_byte(),
                 .sdt_h = MPI_BYTE,
                 .rdt_h = MPI_BYTE,
                 .root = 0};
  int rc = coll_run(&s.loc, COLL_bcast, &b);
  if (s.lrank != 0)
    for (size_t i = 0, off = 0; i < (size_t)s.rsize;
         off += (size_t)rcounts[i] * smpi_dt_size(rdt), i++)
      coll_unpack(&s.loc, packed + off, (size_t)rcounts[i], rdt,
                  coll_at(rbuf, (size_t)displs[i], rdt));
  return end(&s, rc);
}

int coll_inter_alltoall(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                        int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype)
{
  inter s;
  begin(&s, c, comm, fname, COLL_alltoall);
  const smpi_dt *sdt, *rdt;
  CHECK(check_count(&s, "send", scount));
  CHECK(check_count(&s, "receive", rcount));
  CHECK(check_buf(&s, "send", sbuf, (size_t)scount * (size_t)s.rsize, stype, &sdt));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)rcount * (size_t)s.rsize, rtype, &rdt));
  /* linear: everything posted, starting with the remote rank of my number, so that the
   * ranks do not all queue on remote rank 0 first */
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_irecv(&s.rem, coll_at(rbuf, (size_t)i * (size_t)rcount, rdt), (size_t)rcount, rdt, i,
               COLL_TAG_ALLTOALL);
  }
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_isend(&s.rem, coll_at(sbuf, (size_t)i * (size_t)scount, sdt), (size_t)scount, sdt, i,
               COLL_TAG_ALLTOALL);
  }
  coll_wait(&s.rem);
  return end(&s, MPI_SUCCESS);
}

int coll_inter_alltoallv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         const int *scounts, const int *sdispls, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *rdispls, MPI_Datatype rtype)
{
  inter s;
  begin(&s, c, comm, fname, COLL_alltoallv);
  const smpi_dt *sdt, *rdt;
  CHECK(sbuf == MPI_IN_PLACE
            ? why(&s, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator")
            : 0);
  CHECK(check_counts(&s, "send", scounts, sdispls, s.rsize));
  CHECK(check_counts(&s, "receive", rcounts, rdispls, s.rsize));
  CHECK(check_type(&s, "send", stype, &sdt));
  CHECK(check_type(&s, "receive", rtype, &rdt));
  for (int i = 0; i < s.rsize; i++) {
    CHECK(check_buf(&s, "send", sbuf, (size_t)scounts[i], stype, &sdt));
    CHECK(check_buf(&s, "receive", rbuf, (size_t)rcounts[i], rtype, &rdt));
  }
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_irecv(&s.rem, coll_at(rbuf, (size_t)rdispls[i], rdt), (size_t)rcounts[i], rdt, i,
               COLL_TAG_ALLTOALLV);
  }
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_isend(&s.rem, coll_at(sbuf, (size_t)sdispls[i], sdt), (size_t)scounts[i], sdt, i,
               COLL_TAG_ALLTOALLV);
  }
  coll_wait(&s.rem);
  return end(&s, MPI_SUCCESS);
}

/* MPI 3.1 section 5.10.2: the reduction of group A's vectors is scattered over group B and
 * vice versa; each vector has local size x recvcount elements (MPICH's reading, which
 * needs size(A) x recvcount(A) == size(B) x recvcount(B)). */
int coll_inter_reduce_scatter_block(smpi_comm *c, MPI_Comm comm, const char *fname,
                                    const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                    MPI_Op op)
{
  inter s;
  begin(&s, c, comm, fname, COLL_reduce_scatter_block);
  const smpi_dt *dt;
  const smpi_op *o;
  CHECK(check_count(&s, "receive", rcount));
  CHECK(check_total(&s, rcount, s.lsize));
  int total = rcount * s.lsize;
  CHECK(check_buf(&s, "send", sbuf, (size_t)total, type, &dt));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)rcount, type, &dt));
  CHECK(check_op(&s, op, dt, type, &o));
  void *mine = NULL, *theirs = NULL;
  if (s.lrank == 0) {
    mine = coll_tmp_dt(&s.loc, (size_t)total, dt);
    theirs = coll_tmp_dt(&s.loc, (size_t)total, dt);
  }
  int rc = local_reduce(&s, sbuf, mine, total, dt, type, o);
  if (s.lrank == 0)
    coll_sendrecv(&s.rem, mine, (size_t)total, dt, 0, theirs, (size_t)total, dt, 0,
                  COLL_TAG_REDUCE_SCATTER);
  coll_args g = {.sbuf = theirs,
                 .scount = rcount,
                 .sdt = dt,
                 .sdt_h = type,
                 .rbuf = rbuf,
                 .rcount = rcount,
                 .rdt = dt,
                 .rdt_h = type,
                 .root = 0};
  if (rc == MPI_SUCCESS)
    rc = coll_run(&s.loc, COLL_scatter, &g);
  return end(&s, rc);
}

/* ---- the v and w variants: linear between the groups (MPICH's intercommunicator
 * Gatherv/Scatterv/Alltoallw), Reduce_scatter through the leaders ---- */

/* Gatherv to root r of A: each member of B sends its block straight to r, which receives
 * block i at displs[i] (MPI 3.1 section 5.5). */
int coll_inter_gatherv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                       const int *displs, MPI_Datatype rtype, int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_gatherv);
  const smpi_dt *sdt, *rdt;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  if (root == MPI_ROOT) {
    CHECK(check_counts(&s, "receive", rcounts, displs, s.rsize));
    CHECK(check_type(&s, "receive", rtype, &rdt));
    for (int i = 0; i < s.rsize; i++)
      CHECK(check_buf(&s, "receive", rbuf, (size_t)rcounts[i], rtype, &rdt));
    for (int i = 0; i < s.rsize; i++)
      coll_irecv(&s.rem, coll_at(rbuf, (size_t)displs[i], rdt), (size_t)rcounts[i], rdt, i,
                 COLL_TAG_GATHERV);
    coll_wait(&s.rem);
    return end(&s, MPI_SUCCESS);
  }
  CHECK(check_count(&s, "send", scount));
  CHECK(check_buf(&s, "send", sbuf, (size_t)scount, stype, &sdt));
  coll_send(&s.rem, sbuf, (size_t)scount, sdt, root, COLL_TAG_GATHERV);
  return end(&s, MPI_SUCCESS);
}

/* Scatterv from root r of A: r sends block i (scounts[i] at displs[i]) to member i of B. */
int coll_inter_scatterv(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                        const int *scounts, const int *displs, MPI_Datatype stype, void *rbuf,
                        int rcount, MPI_Datatype rtype, int root)
{
  inter s;
  begin(&s, c, comm, fname, COLL_scatterv);
  const smpi_dt *sdt, *rdt;
  CHECK(check_root(&s, root));
  if (root == MPI_PROC_NULL)
    return end(&s, MPI_SUCCESS);
  if (root == MPI_ROOT) {
    CHECK(check_counts(&s, "send", scounts, displs, s.rsize));
    CHECK(check_type(&s, "send", stype, &sdt));
    for (int i = 0; i < s.rsize; i++)
      CHECK(check_buf(&s, "send", sbuf, (size_t)scounts[i], stype, &sdt));
    for (int i = 0; i < s.rsize; i++)
      coll_isend(&s.rem, coll_at(sbuf, (size_t)displs[i], sdt), (size_t)scounts[i], sdt, i,
                 COLL_TAG_SCATTERV);
    coll_wait(&s.rem);
    return end(&s, MPI_SUCCESS);
  }
  CHECK(check_count(&s, "receive", rcount));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)rcount, rtype, &rdt));
  coll_recv(&s.rem, rbuf, (size_t)rcount, rdt, root, COLL_TAG_SCATTERV);
  return end(&s, MPI_SUCCESS);
}

/* Alltoallw: every member exchanges with every remote member directly, byte displacements
 * and one datatype per remote member (MPI 3.1 section 5.8). */
int coll_inter_alltoallw(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                         const int *scounts, const int *sdispls, const MPI_Datatype *stypes,
                         void *rbuf, const int *rcounts, const int *rdispls,
                         const MPI_Datatype *rtypes)
{
  inter s;
  begin(&s, c, comm, fname, COLL_alltoallw);
  CHECK(sbuf == MPI_IN_PLACE
            ? why(&s, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator")
            : 0);
  CHECK(check_counts(&s, "send", scounts, sdispls, s.rsize));
  CHECK(check_counts(&s, "receive", rcounts, rdispls, s.rsize));
  if (s.rsize > 0 && (!stypes || !rtypes))
    return fail(&s, MPI_ERR_ARG, "datatypes array is NULL");
  const smpi_dt **sdt = coll_tmp(&s.rem, (size_t)s.rsize * sizeof *sdt);
  const smpi_dt **rdt = coll_tmp(&s.rem, (size_t)s.rsize * sizeof *rdt);
  for (int i = 0; i < s.rsize; i++) {
    CHECK(check_buf(&s, "send", sbuf, (size_t)scounts[i], stypes[i], &sdt[i]));
    CHECK(check_buf(&s, "receive", rbuf, (size_t)rcounts[i], rtypes[i], &rdt[i]));
  }
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_irecv(&s.rem, (char *)rbuf + rdispls[i], (size_t)rcounts[i], rdt[i], i,
               COLL_TAG_ALLTOALLW);
  }
  for (int k = 0; k < s.rsize; k++) {
    int i = (s.lrank + k) % s.rsize;
    coll_isend(&s.rem, (const char *)sbuf + sdispls[i], (size_t)scounts[i], sdt[i], i,
               COLL_TAG_ALLTOALLW);
  }
  coll_wait(&s.rem);
  return end(&s, MPI_SUCCESS);
}

/* Reduce_scatter (MPI 3.1 section 5.10.1): the reduction of group B's vectors is scattered
 * over group A by A's rcounts, and vice versa: each group reduces to its leader, the
 * leaders swap, each scatters what it got (MPICH's remote-reduce-local-scatter; both
 * groups' counts must add up to the same total). */
int coll_inter_reduce_scatter(smpi_comm *c, MPI_Comm comm, const char *fname, const void *sbuf,
                              void *rbuf, const int *rcounts, MPI_Datatype type, MPI_Op op)
{
  inter s;
  begin(&s, c, comm, fname, COLL_reduce_scatter);
  const smpi_dt *dt;
  const smpi_op *o;
  if (!rcounts)
    return fail(&s, MPI_ERR_ARG, "receive counts array is NULL");
  long long total = 0;
  for (int i = 0; i < s.lsize; i++) {
    CHECK(check_count(&s, "receive", rcounts[i]));
    total += rcounts[i];
  }
  if (total > INT_MAX)
    return fail(&s, MPI_ERR_COUNT, "the receive counts add up to more than INT_MAX");
  CHECK(check_buf(&s, "send", sbuf, (size_t)total, type, &dt));
  CHECK(check_buf(&s, "receive", rbuf, (size_t)rcounts[s.lrank], type, &dt));
  CHECK(check_op(&s, op, dt, type, &o));
  void *mine = NULL, *theirs = NULL;
  int *displs = coll_tmp(&s.loc, (size_t)s.lsize * sizeof *displs);
  for (int i = 0, off = 0; i < s.lsize; off += rcounts[i], i++)
    displs[i] = off;
  if (s.lrank == 0) {
    mine = coll_tmp_dt(&s.loc, (size_t)total, dt);
    theirs = coll_tmp_dt(&s.loc, (size_t)total, dt);
  }
  int rc = local_reduce(&s, sbuf, mine, (int)total, dt, type, o);
  if (s.lrank == 0)
    coll_sendrecv(&s.rem, mine, (size_t)total, dt, 0, theirs, (size_t)total, dt, 0,
                  COLL_TAG_REDUCE_SCATTER);
  coll_args g = {.sbuf = theirs,
                 .scounts = rcounts,
                 .sdispls = displs,
                 .sdt = dt,
                 .sdt_h = type,
                 .rbuf = rbuf,
                 .rcount = rcounts[s.lrank],
                 .rdt = dt,
                 .rdt_h = type,
                 .root = 0};
  if (rc == MPI_SUCCESS)
    rc = coll_run(&s.loc, COLL_scatterv, &g);
  return end(&s, rc);
}

/* ---- the nonblocking forms' entry: one blocking call, run by coll_nb.c's helper ---- */

int coll_inter_run(smpi_comm *c, MPI_Comm comm, const char *fname, const coll_inter_call *k)
{
  switch (k->id) {
  case COLL_barrier:
    return coll_inter_barrier(c, comm, fname);
  case COLL_bcast:
    return coll_inter_bcast(c, comm, fname, k->rbuf, k->rcount, k->rtype, k->root);
  case COLL_gather:
    return coll_inter_gather(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf, k->rcount,
                             k->rtype, k->root);
  case COLL_gatherv:
    return coll_inter_gatherv(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf, k->rcounts,
                              k->rdispls, k->rtype, k->root);
  case COLL_scatter:
    return coll_inter_scatter(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf, k->rcount,
                              k->rtype, k->root);
  case COLL_scatterv:
    return coll_inter_scatterv(c, comm, fname, k->sbuf, k->scounts, k->sdispls, k->stype, k->rbuf,
                               k->rcount, k->rtype, k->root);
  case COLL_allgather:
    return coll_inter_allgather(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf, k->rcount,
                                k->rtype);
  case COLL_allgatherv:
    return coll_inter_allgatherv(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf,
                                 k->rcounts, k->rdispls, k->rtype);
  case COLL_alltoall:
    return coll_inter_alltoall(c, comm, fname, k->sbuf, k->scount, k->stype, k->rbuf, k->rcount,
                               k->rtype);
  case COLL_alltoallv:
    return coll_inter_alltoallv(c, comm, fname, k->sbuf, k->scounts, k->sdispls, k->stype,
                                k->rbuf, k->rcounts, k->rdispls, k->rtype);
  case COLL_alltoallw:
    return coll_inter_alltoallw(c, comm, fname, k->sbuf, k->scounts, k->sdispls, k->stypes,
                                k->rbuf, k->rcounts, k->rdispls, k->rtypes);
  case COLL_reduce:
    return coll_inter_reduce(c, comm, fname, k->sbuf, k->rbuf, k->rcount, k->rtype, k->op,
                             k->root);
  case COLL_allreduce:
    return coll_inter_allreduce(c, comm, fname, k->sbuf, k->rbuf, k->rcount, k->rtype, k->op);
  case COLL_reduce_scatter:
    return coll_inter_reduce_scatter(c, comm, fname, k->sbuf, k->rbuf, k->rcounts, k->rtype,
                                     k->op);
  case COLL_reduce_scatter_block:
    return coll_inter_reduce_scatter_block(c, comm, fname, k->sbuf, k->rbuf, k->rcount, k->rtype,
                                           k->op);
  default:
    return smpi_comm_errorf(comm, MPI_ERR_COMM, fname,
                            "this collective is not defined on intercommunicators");
  }
}

void coll_inter_lengths(const coll_inter_call *k, int lsize, int rsize, int *ns, int *nr)
{
  *ns = *nr = 0;
  switch (k->id) {
  case COLL_gatherv:
    *nr = k->root == MPI_ROOT ? rsize : 0;
    break;
  case COLL_scatterv:
    *ns = k->root == MPI_ROOT ? rsize : 0;
    break;
  case COLL_allgatherv:
    *nr = rsize;
    break;
  case COLL_alltoallv:
  case COLL_alltoallw:
    *ns = *nr = rsize;
    break;
  case COLL_reduce_scatter:
    *nr = lsize;
    break;
  default:
    break;
  }
}
