/* check_usage: programs for the usage checker's cases (smpi/mpi/check.c), each run by
 * check_usage.py under smpirun, which checks the exit status and the report. Some are
 * correct programs the checker must leave alone, some are wrong on purpose.
 *
 *   check_usage scan_userop   MPI_Scan with a user op that rank 0 frees before the others
 *                             even enter the scan (correct; the checker used to read it)
 *   check_usage comm_churn    50 rounds of MPI_Comm_dup + MPI_Comm_split + collectives +
 *                             MPI_Comm_free (correct; the checker's state must go with them)
 *   check_usage type_mismatch 4 MPI_INT sent, received as 2 MPI_DOUBLE (wrong: MPI_ERR_TYPE)
 *   check_usage type_return   the same with MPI_ERRORS_RETURN: the class comes back
 *   check_usage type_ok       matching signatures written differently: derived types against
 *                             their contiguous equivalent, twins, prefixes, MPI_BYTE,
 *                             MPI_PACKED, empty messages (correct: no report)
 * With --cfg=smpi/check-buffers:yes (MPI Bugs Initiative's "LocalConcurrency" kind):
 *   check_usage recv_before   the buffer of an MPI_Irecv written before the message arrives
 *   check_usage recv_after    ... written after it arrived, before MPI_Wait
 *   check_usage overlap_sr    an MPI_Irecv into the buffer of a pending MPI_Isend
 *   check_usage overlap_rr    two MPI_Irecv on overlapping memory
 *   check_usage overlap_sendrecv  MPI_Sendrecv with overlapping send and receive buffers
 *   check_usage buffers_ok    interleaved columns, shared send buffers, MPI_Sendrecv_replace,
 *                             MPI_Request_free (correct: no report) */
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
  } else if (!strcmp(what, "type_mismatch") || !strcmp(what, "type_return")) {
    int v[4] = {1, 2, 3, 4};
    double d[2];
    if (!strcmp(what, "type_return"))
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
      MPI_Send(v, 4, MPI_INT, 1, 7, MPI_COMM_WORLD); /* sent as ints */
    } else if (rank == 1) {
      int rc = MPI_Recv(d, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* doubles */
      int cls = -1;
      MPI_Error_class(rc, &cls);
      ok = cls == MPI_ERR_TYPE;
    }
  } else if (!strcmp(what, "type_ok") && size >= 2) {
    int v[16], w[16];
    double d[4] = {1, 2, 3, 4}, e[4];
    for (int i = 0; i < 16; i++)
      v[i] = i;
    MPI_Datatype vec, pair, st;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* ints 0 1, 4 5, 8 9 */
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    struct {
      int i;
      double x;
    } s = {3, 2.5}, t = {0, 0};
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, (char *)&s.x - (char *)&s};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &st);
    MPI_Type_commit(&st);
    char packed[64];
    int pos = 0;
    if (rank == 0) {
      MPI_Send(v, 1, vec, 1, 1, MPI_COMM_WORLD);       /* -> 6 MPI_INT */
      MPI_Send(v, 6, MPI_INT, 1, 2, MPI_COMM_WORLD);   /* -> 1 vec */
      MPI_Send(d, 2, pair, 1, 3, MPI_COMM_WORLD);      /* -> 4 MPI_DOUBLE */
      MPI_Send(v, 2, MPI_2INT, 1, 4, MPI_COMM_WORLD);  /* -> 4 MPI_INT */
      MPI_Send(v, 4, MPI_INT, 1, 5, MPI_COMM_WORLD);   /* -> a prefix of 8 MPI_INT */
      MPI_Send(v, 4, MPI_INT, 1, 6, MPI_COMM_WORLD);   /* -> 16 MPI_BYTE */
      MPI_Send(d, 32, MPI_BYTE, 1, 7, MPI_COMM_WORLD); /* -> 4 MPI_DOUBLE */
      MPI_Pack(v, 3, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
      MPI_Send(packed, pos, MPI_PACKED, 1, 8, MPI_COMM_WORLD); /* -> 3 MPI_INT */
      MPI_Send(v, 0, MPI_INT, 1, 9, MPI_COMM_WORLD);           /* empty -> MPI_DOUBLE */
      MPI_Send(&s, 1, st, 1, 10, MPI_COMM_WORLD);              /* struct -> struct */
      MPI_Request rq;
      MPI_Isend(d, 4, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD, &rq); /* nonblocking both sides */
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(w, 6, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[0] == 0 && w[1] == 1 && w[2] == 4 && w[5] == 9;
      memset(w, 0, sizeof w);
      MPI_Recv(w, 1, vec, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[4] == 2 && w[9] == 5;
      MPI_Recv(e, 4, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= e[3] == 4;
      MPI_Recv(w, 4, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[3] == 3;
      MPI_Recv(w, 8, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[3] == 3;
      MPI_Recv(w, 16, MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[3] == 3;
      MPI_Recv(e, 4, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= e[3] == 4;
      MPI_Recv(w, 3, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= w[2] == 2;
      MPI_Recv(e, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&t, 1, st, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok &= t.i == 3 && t.x == 2.5;
      MPI_Request rq;
      MPI_Irecv(e, 4, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, &rq);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
      ok &= e[0] == 1;
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&pair);
    MPI_Type_free(&st);
  } else if (!strcmp(what, "recv_before") && size >= 2) {
    int buf[4] = {0}, token = 0;
    MPI_Request rq;
    if (rank == 1) {
      MPI_Irecv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &rq); /* pending receive */
      buf[3] = 42;                                           /* wrong: not received yet */
      MPI_Send(&token, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);    /* only now rank 0 sends */
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
      MPI_Recv(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD); /* arrival */
    }
  } else if (!strcmp(what, "recv_after") && size >= 2) {
    static int buf[4], token[1000];
    MPI_Request rq;
    if (rank == 1) {
      MPI_Irecv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &rq);
      /* the data was sent before the (longer) token: it is in buf once the token is here */
      MPI_Recv(token, 1000, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      buf[3] = 42;                      /* wrong: the receive is not complete */
      MPI_Wait(&rq, MPI_STATUS_IGNORE); /* noticed here */
    } else if (rank == 0) {
      MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
      MPI_Send(token, 1000, MPI_INT, 1, 2, MPI_COMM_WORLD);
    }
  } else if (!strncmp(what, "overlap_", 8) && size >= 2) {
    int buf[8] = {0}, other = 1 - rank % 2;
    MPI_Request rq[2];
    if (rank < 2 && !strcmp(what, "overlap_sr")) {
      MPI_Isend(buf, 4, MPI_INT, other, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(buf + 2, 4, MPI_INT, other, 1, MPI_COMM_WORLD, &rq[1]); /* overlaps */
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else if (rank < 2 && !strcmp(what, "overlap_rr")) {
      MPI_Irecv(buf, 4, MPI_INT, other, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(buf + 3, 4, MPI_INT, other, 2, MPI_COMM_WORLD, &rq[1]); /* overlaps */
      MPI_Send(buf, 4, MPI_INT, other, 1, MPI_COMM_WORLD);
      MPI_Send(buf, 4, MPI_INT, other, 2, MPI_COMM_WORLD);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else if (rank < 2 && !strcmp(what, "overlap_sendrecv")) {
      MPI_Sendrecv(buf, 4, MPI_INT, other, 1, buf + 1, 4, MPI_INT, other, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE); /* overlaps */
    }
  } else if (!strcmp(what, "buffers_ok") && size >= 2) {
    /* a 4 x 4 matrix: rank 0 sends its columns 0 and 1 as two messages, rank 1 receives them
     * in flight together, interleaved in its matrix; a row is sent twice at once */
    int m[16], token = 7;
    for (int i = 0; i < 16; i++)
      m[i] = rank == 0 ? i : -1;
    MPI_Datatype col;
    MPI_Type_vector(4, 1, 4, MPI_INT, &col);
    MPI_Type_commit(&col);
    MPI_Request rq[3];
    if (rank == 0) {
      MPI_Isend(m, 1, col, 1, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(m + 1, 1, col, 1, 2, MPI_COMM_WORLD, &rq[1]);
      MPI_Isend(m, 4, MPI_INT, 1, 3, MPI_COMM_WORLD, &rq[2]); /* shares m with both */
      MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      MPI_Irecv(m, 1, col, 0, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(m + 1, 1, col, 0, 2, MPI_COMM_WORLD, &rq[1]);
      int row[4] = {0};
      MPI_Irecv(row, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, &rq[2]);
      MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
      ok &= m[0] == 0 && m[4] == 4 && m[13] == 13 && m[2] == -1 && row[3] == 3;
    }
    if (rank < 2) {
      int peer = 1 - rank;
      MPI_Sendrecv_replace(m, 4, MPI_INT, peer, 4, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Request fr;
      MPI_Isend(&token, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &fr);
      MPI_Request_free(&fr); /* leaves the requests in flight without a wait */
      int got = 0;
      MPI_Recv(&got, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Irecv(&token, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[0]); /* token reused */
      MPI_Send(&got, 1, MPI_INT, peer, 6, MPI_COMM_WORLD);
      MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      ok &= got == 7 && token == 7;
    }
    /* ints 0 and 2, ints 1 and 3 (its data starts 4 bytes after the buffer): spans meet,
     * bytes do not */
    MPI_Datatype even, odd;
    int de[2] = {0, 2}, dodd[2] = {1, 3}, q[4] = {0};
    MPI_Type_create_indexed_block(2, 1, de, MPI_INT, &even);
    MPI_Type_create_indexed_block(2, 1, dodd, MPI_INT, &odd);
    MPI_Type_commit(&even);
    MPI_Type_commit(&odd);
    if (rank < 2) {
      int peer = 1 - rank, src[2] = {rank + 10, rank + 20};
      MPI_Irecv(q, 1, even, peer, 7, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(q, 1, odd, peer, 8, MPI_COMM_WORLD, &rq[1]);
      MPI_Send(src, 2, MPI_INT, peer, 7, MPI_COMM_WORLD);
      MPI_Send(src, 2, MPI_INT, peer, 8, MPI_COMM_WORLD);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      ok &= q[0] == peer + 10 && q[1] == peer + 10 && q[2] == peer + 20 && q[3] == peer + 20;
    }
    MPI_Type_free(&even);
    MPI_Type_free(&odd);
    MPI_Type_free(&col);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf(all ? "check_usage %s: OK\n" : "check_usage %s: WRONG RESULT\n", what);
  MPI_Finalize();
  return all ? 0 : 1;
}
