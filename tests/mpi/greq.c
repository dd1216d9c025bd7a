/* greq: generalized requests (MPI 3.1 section 12.2) and the status setters (12.3):
 * MPI_Grequest_start / MPI_Grequest_complete with MPI_Test, MPI_Wait, MPI_Waitall mixed with
 * a receive, MPI_Request_get_status; the query callback fills the status (MPI_Status_set_
 * elements(_x), MPI_Status_set_cancelled) each time a completed request is looked at, the
 * free callback runs once when the request goes (also once both MPI_Request_free and
 * MPI_Grequest_complete were called on an incomplete one), the cancel callback gets whether it was complete; an
 * error returned by the query callback is the error of MPI_Wait. Any number of ranks (the
 * suite uses 2). Plain MPI: the test runs it under MPICH too. */
#define MPITEST_NAME "greq"
#include "mpitest.h"

typedef struct state {
  int queries, frees, cancels, last_complete;
  int elements; /* what query reports, in MPI_INT */
  int cancelled;
  int fail; /* query returns this */
} state;

static int query(void *extra, MPI_Status *st)
{
  state *s = extra;
  s->queries++;
  MPI_Status_set_elements(st, MPI_INT, s->elements);
  MPI_Status_set_cancelled(st, s->cancelled);
  st->MPI_SOURCE = MPI_UNDEFINED;
  st->MPI_TAG = MPI_UNDEFINED;
  return s->fail;
}

static int release(void *extra)
{
  ((state *)extra)->frees++;
  return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
  state *s = extra;
  s->cancels++;
  s->last_complete = complete;
  return MPI_SUCCESS;
}

static void basic(void)
{
  state s = {0, 0, 0, -1, 7, 0, MPI_SUCCESS};
  MPI_Request q;
  MPI_Status st;
  int flag = -1, count = -1;
  MPI_Grequest_start(query, release, cancel, &s, &q);
  MPI_Test(&q, &flag, &st);
  CHECK(!flag && q != MPI_REQUEST_NULL, "Test before completion: flag %d", flag);
  MPI_Grequest_complete(q);
  MPI_Request_get_status(q, &flag, &st);
  CHECK(flag && s.queries == 1, "get_status: flag %d, queries %d", flag, s.queries);
  CHECK(q != MPI_REQUEST_NULL && s.frees == 0, "get_status freed the request");
  MPI_Wait(&q, &st);
  CHECK(q == MPI_REQUEST_NULL, "Wait left the request");
  CHECK(s.queries == 2 && s.frees == 1, "after Wait: queries %d, frees %d", s.queries, s.frees);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 7, "count from the query callback: %d", count);
  MPI_Test_cancelled(&st, &flag);
  CHECK(!flag, "not cancelled");
}

static void cancelled_and_large(void)
{
  state s = {0, 0, 0, -1, 3, 1, MPI_SUCCESS};
  MPI_Request q;
  MPI_Status st;
  int flag = 0;
  MPI_Count n = -1;
  MPI_Grequest_start(query, release, cancel, &s, &q);
  MPI_Cancel(&q);
  CHECK(s.cancels == 1 && s.last_complete == 0, "cancel callback: %d calls, complete %d",
        s.cancels, s.last_complete);
  MPI_Grequest_complete(q);
  MPI_Wait(&q, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag, "Status_set_cancelled(1) in the query callback");
  /* MPI_Status_set_elements_x outside of a request */
  MPI_Status_set_elements_x(&st, MPI_DOUBLE, (MPI_Count)5);
  MPI_Get_elements_x(&st, MPI_DOUBLE, &n);
  CHECK(n == 5, "set_elements_x: %lld", (long long)n);
  MPI_Status_set_cancelled(&st, 0);
  MPI_Test_cancelled(&st, &flag);
  CHECK(!flag, "Status_set_cancelled(0)");
}

static void freed_early(void)
{
  state s = {0, 0, 0, -1, 1, 0, MPI_SUCCESS};
  MPI_Request q, keep;
  MPI_Grequest_start(query, release, cancel, &s, &q);
  keep = q;
  MPI_Request_free(&q);
  CHECK(q == MPI_REQUEST_NULL, "Request_free left the handle");
  /* the standard runs the free callback at whichever of MPI_Request_free and
   * MPI_Grequest_complete comes last (12.2); MPICH 4.0.2 runs it at MPI_Request_free */
  MPI_Grequest_complete(keep);
  CHECK(s.frees == 1, "free callback after Request_free and completion: %d calls", s.frees);
}

static void mixed_and_error(void)
{
  int me = wrank(), n = wsize(), peer = (me + 1) % n, from = (me + n - 1) % n, v = -1;
  state s = {0, 0, 0, -1, 2, 0, MPI_SUCCESS};
  MPI_Request q[2];
  MPI_Status st[2];
  MPI_Irecv(&v, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &q[0]);
  MPI_Grequest_start(query, release, cancel, &s, &q[1]);
  MPI_Send(&me, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
  MPI_Grequest_complete(q[1]);
  MPI_Waitall(2, q, st);
  CHECK(v == from && s.frees == 1, "waitall: value %d, frees %d", v, s.frees);

  /* the query callback's error is the wait's (MPI_ERRORS_RETURN on MPI_COMM_WORLD, whose
   * handler the request reports to) */
  state e = {0, 0, 0, -1, 0, 0, MPI_ERR_OTHER};
  MPI_Request r;
  MPI_Grequest_start(query, release, cancel, &e, &r);
  MPI_Grequest_complete(r);
  int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_OTHER, "error from the query callback: class %d", class_of(rc));
  CHECK(e.frees == 1, "free after a failing query: %d", e.frees);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  basic();
  cancelled_and_large();
  freed_early();
  mixed_and_error();
  return mpitest_finalize();
}
