/* check_usage: programs for the usage checker's cases (smpi/mpi/check.c), each run by
 * check_usage.py under smpirun, which checks the exit status and the report. Some are
 * correct programs the checker must leave alone, some are wrong on purpose.
 *
 *   check_usage scan_userop   MPI_Scan with a user op that rank 0 frees before the others
 *                             even enter the scan (correct; the checker used to read it)
 *   check_usage comm_churn    50 rounds of MPI_Comm_dup + MPI_Comm_split + collectives +
 *                             MPI_Comm_free (correct; the checker's state must go with them) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  for (int i = 0; i < *len; i++)
    ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  int rank, size, ok = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!strcmp(what, "scan_userop")) {
    /* rank 0's scan needs nobody: it returns, frees its op, and only then lets the others
     * (waiting for its token) start theirs */
    MPI_Op op;
    MPI_Op_create(sum_ints, 1, &op);
    int v = rank + 1, s = 0, token = 0;
    if (rank > 0)
      MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Scan(&v, &s, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    if (rank == 0)
      for (int r = 1; r < size; r++)
        MPI_Send(&token, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
    ok = s == (rank + 1) * (rank + 2) / 2;
  } else if (!strcmp(what, "comm_churn")) {
    for (int round = 0; round < 50; round++) {
      MPI_Comm dup, half;
      MPI_Comm_dup(MPI_COMM_WORLD, &dup);
      MPI_Comm_split(dup, rank % 2, rank, &half);
      int v = 1, s = 0, t = 0;
      MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, dup);
      MPI_Allreduce(&v, &t, 1, MPI_INT, MPI_SUM, half);
      MPI_Barrier(half);
      ok &= s == size && t == (size + 1 - rank % 2) / 2;
      MPI_Comm_free(&half);
      MPI_Comm_free(&dup);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf(all ? "check_usage %s: OK\n" : "check_usage %s: WRONG RESULT\n", what);
  MPI_Finalize();
  return all ? 0 : 1;
}
