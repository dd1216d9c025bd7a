/* status_error: who writes the MPI_ERROR field of a status (MPI 3.1 section 3.2.5: "message-
 * passing calls do not modify the value of the error code field of status variables. This
 * field may be updated only by the functions in Section 3.7.5 which return multiple statuses
 * ... if and only if such function returns with an error code of MPI_ERR_IN_STATUS").
 * Every status below starts with a sentinel in MPI_ERROR; single-completion calls (Recv,
 * Probe, Iprobe, Mprobe/Mrecv, Improbe/Imrecv, Wait, Test, Waitany, Testany, Sendrecv,
 * Request_get_status, a receive from MPI_PROC_NULL) and successful multiple-completion calls
 * (Waitall, Testall, Waitsome, Testsome) must leave it; a Waitall/Waitsome with a truncated
 * receive returns MPI_ERR_IN_STATUS with MPI_SUCCESS in the good slots and MPI_ERR_TRUNCATE in
 * the bad one (MPI_ERR_PENDING allowed after it). 2 ranks. Plain MPI: the test runs it under MPICH too. */
#define MPITEST_NAME "status_error"
#include "mpitest.h"

#define SENTINEL MPI_ERR_DIMS

static void fresh(MPI_Status *st, int n)
{
  for (int i = 0; i < n; i++) {
    st[i].MPI_ERROR = SENTINEL;
    st[i].MPI_SOURCE = -7;
  }
}

/* MPICH 4.0.2 writes MPI_SUCCESS there after MPI_Probe, MPI_Iprobe and a successful
 * MPI_Waitall, against the rule: those three are checked under smpi only. */
#ifdef MPICH_VERSION
#define KEPT_STRICT(st, what) ((void)0)
#else
#define KEPT_STRICT(st, what) KEPT(st, what)
#endif

#define KEPT(st, what) \
  CHECK((st).MPI_ERROR == SENTINEL, "%s: MPI_ERROR %d, not left alone", what, (st).MPI_ERROR)

static void receiver(void)
{
  MPI_Comm c = MPI_COMM_WORLD;
  MPI_Status st[3];
  MPI_Request r[3];
  MPI_Message m;
  int x[4], flag, idx, outc, ids[3];

  fresh(st, 1);
  MPI_Probe(0, 1, c, st);
  KEPT_STRICT(st[0], "Probe");
  fresh(st, 1);
  do
    MPI_Iprobe(0, 1, c, &flag, st);
  while (!flag);
  KEPT_STRICT(st[0], "Iprobe");
  fresh(st, 1);
  MPI_Recv(x, 1, MPI_INT, 0, 1, c, st);
  KEPT(st[0], "Recv");
  CHECK(st[0].MPI_SOURCE == 0, "Recv source %d", st[0].MPI_SOURCE);

  fresh(st, 1);
  MPI_Mprobe(0, 2, c, &m, st);
  KEPT(st[0], "Mprobe");
  fresh(st, 1);
  MPI_Mrecv(x, 1, MPI_INT, &m, st);
  KEPT(st[0], "Mrecv");
  CHECK(st[0].MPI_SOURCE == 0 && x[0] == 2, "Mrecv source %d value %d", st[0].MPI_SOURCE, x[0]);

  fresh(st, 1);
  do
    MPI_Improbe(0, 3, c, &flag, &m, st);
  while (!flag);
  KEPT(st[0], "Improbe");
  MPI_Imrecv(x, 1, MPI_INT, &m, r);
  fresh(st, 1);
  MPI_Wait(r, st);
  KEPT(st[0], "Wait of Imrecv");

  MPI_Irecv(x, 1, MPI_INT, 0, 4, c, r);
  fresh(st, 1);
  do
    MPI_Test(r, &flag, st);
  while (!flag);
  KEPT(st[0], "Test");

  MPI_Irecv(x, 1, MPI_INT, 0, 5, c, r);
  fresh(st, 1);
  do
    MPI_Request_get_status(r[0], &flag, st);
  while (!flag);
  KEPT(st[0], "Request_get_status");
  MPI_Wait(r, MPI_STATUS_IGNORE);

  MPI_Irecv(x, 1, MPI_INT, 0, 6, c, &r[0]);
  MPI_Irecv(x + 1, 1, MPI_INT, 0, 7, c, &r[1]);
  fresh(st, 1);
  MPI_Waitany(2, r, &idx, st);
  KEPT(st[0], "Waitany");
  fresh(st, 1);
  do
    MPI_Testany(2, r, &idx, &flag, st);
  while (!flag);
  KEPT(st[0], "Testany");

  fresh(st, 1);
  MPI_Sendrecv(x, 1, MPI_INT, 0, 8, x + 1, 1, MPI_INT, 0, 8, c, st);
  KEPT(st[0], "Sendrecv");
  fresh(st, 1);
  MPI_Recv(x, 1, MPI_INT, MPI_PROC_NULL, 0, c, st);
  KEPT(st[0], "Recv from MPI_PROC_NULL");

  /* successful multiple completions */
  for (int i = 0; i < 3; i++)
    MPI_Irecv(x + i, 1, MPI_INT, 0, 10 + i, c, &r[i]);
  fresh(st, 3);
  int rc = MPI_Waitall(3, r, st);
  CHECK(rc == MPI_SUCCESS, "Waitall rc %d", rc);
  for (int i = 0; i < 3; i++)
    KEPT_STRICT(st[i], "Waitall");
  for (int i = 0; i < 3; i++)
    MPI_Irecv(x + i, 1, MPI_INT, 0, 20 + i, c, &r[i]);
  fresh(st, 3);
  do
    MPI_Testall(3, r, &flag, st);
  while (!flag);
  for (int i = 0; i < 3; i++)
    KEPT(st[i], "Testall");
  for (int i = 0; i < 2; i++)
    MPI_Irecv(x + i, 1, MPI_INT, 0, 30 + i, c, &r[i]);
  int got = 0;
  while (got < 2) {
    fresh(st, 2);
    MPI_Waitsome(2, r, &outc, ids, st);
    for (int i = 0; i < outc; i++)
      KEPT(st[i], "Waitsome");
    got += outc;
  }
  for (int i = 0; i < 2; i++)
    MPI_Irecv(x + i, 1, MPI_INT, 0, 40 + i, c, &r[i]);
  got = 0;
  while (got < 2) {
    fresh(st, 2);
    MPI_Testsome(2, r, &outc, ids, st);
    for (int i = 0; i < outc; i++)
      KEPT(st[i], "Testsome");
    got += outc;
  }

  /* a failed one: MPI_ERR_IN_STATUS, and every slot says how its request ended */
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Irecv(x, 1, MPI_INT, 0, 50, c, &r[0]);
  MPI_Irecv(x + 1, 1, MPI_INT, 0, 51, c, &r[1]); /* 2 ints arrive: truncated */
  MPI_Irecv(x + 3, 1, MPI_INT, 0, 52, c, &r[2]);
  fresh(st, 3);
  rc = MPI_Waitall(3, r, st);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_IN_STATUS, "Waitall with a truncation: class %d", cls);
  CHECK(st[0].MPI_ERROR == MPI_SUCCESS, "Waitall slot 0: %d", st[0].MPI_ERROR);
  MPI_Error_class(st[1].MPI_ERROR, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE, "Waitall slot 1: class %d", cls);
  /* complete, or MPI_ERR_PENDING where the implementation stopped at the failure (MPICH) */
  MPI_Error_class(st[2].MPI_ERROR, &cls);
  CHECK(cls == MPI_SUCCESS || cls == MPI_ERR_PENDING, "Waitall slot 2: class %d", cls);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_ARE_FATAL);
}

static void sender(void)
{
  MPI_Comm c = MPI_COMM_WORLD;
  int v[2] = {0, 0};
  for (int t = 1; t <= 7; t++) {
    v[0] = t;
    MPI_Send(v, 1, MPI_INT, 1, t, c);
  }
  MPI_Sendrecv(v, 1, MPI_INT, 1, 8, v + 1, 1, MPI_INT, 1, 8, c, MPI_STATUS_IGNORE);
  for (int t = 10; t < 13; t++)
    MPI_Send(v, 1, MPI_INT, 1, t, c);
  for (int t = 20; t < 23; t++)
    MPI_Send(v, 1, MPI_INT, 1, t, c);
  for (int t = 30; t < 32; t++)
    MPI_Send(v, 1, MPI_INT, 1, t, c);
  for (int t = 40; t < 42; t++)
    MPI_Send(v, 1, MPI_INT, 1, t, c);
  MPI_Send(v, 1, MPI_INT, 1, 50, c);
  MPI_Send(v, 2, MPI_INT, 1, 51, c);
  MPI_Send(v, 1, MPI_INT, 1, 52, c);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (wrank() == 0)
    sender();
  else if (wrank() == 1)
    receiver();
  return mpitest_finalize();
}
