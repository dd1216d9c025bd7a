/* p2p_timing: simulated dates of point-to-point protocol paths, to compare with SimGrid 3.32
 * (tests/mpi/p2p_timing_simgrid.txt holds its output; p2p_timing.py runs the comparison).
 *
 * Usage: p2p_timing SCENARIO     (one scenario per run, so each starts at date 0)
 * Every line printed is "<label> <simulated date>", labels unique within a scenario.
 * Delays are smpi_execute_flops on 1 Gflop/s hosts (1e6 flops = 1 ms); run with
 * smpi/simulate-computation:no, smpi/wtime:0 and non-zero smpi/os, or, ois so that every
 * overhead shows.
 *
 * Scenarios:
 *   modeS_N_late   rank 0 sends N bytes with mode S (send ssend rsend bsend isend issend
 *                  irsend ibsend send_init ssend_init bsend_init rsend_init); rank 1 posts
 *                  its receive at once, or 1 ms late (_late)
 *   sendrecv_N     ranks 0 and 1 exchange N bytes with MPI_Sendrecv; also _replace
 *   selfsendrecv   MPI_Sendrecv with oneself
 *   test, iprobe, testany, testall, testsome, waitsome, probe
 *                  polling on ranks 1 and 2 while rank 0 sends 1.05 ms later (counters are
 *                  shared by all ranks in SimGrid); getstatus: MPI_Request_get_status (not
 *                  compared: SimGrid 3.32 reports flag 1 for requests still in progress)
 *   waitall_or     4 receives from detached senders completing while smpi/or is paid
 *   mixed          rank 0 Isends small and large messages to 1 and 2, who receive them
 *                  with wildcards
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(const char *label, int rank)
{
  printf("%s.r%d %.17g\n", label, rank, MPI_Wtime());
  fflush(stdout);
}

static void modes(const char *sc, int rank)
{
  char mode[32];
  int n = 0;
  const char *u = strchr(sc + 4, '_');
  size_t ml = (size_t)(u - (sc + 4));
  memcpy(mode, sc + 4, ml);
  mode[ml] = 0;
  n = atoi(u + 1);
  int late = strstr(u + 1, "_late") != NULL;
  char *buf = calloc((size_t)n + 1, 1);
  MPI_Request rq;
  if (rank == 0) {
    if (!strncmp(mode, "b", 1) || !strncmp(mode, "ib", 2)) {
      int bs = n + MPI_BSEND_OVERHEAD;
      MPI_Buffer_attach(malloc((size_t)bs), bs);
    }
    if (!strcmp(mode, "send"))
      MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (!strcmp(mode, "ssend"))
      MPI_Ssend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (!strcmp(mode, "rsend"))
      MPI_Rsend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (!strcmp(mode, "bsend"))
      MPI_Bsend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else {
      if (!strcmp(mode, "isend"))
        MPI_Isend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
      else if (!strcmp(mode, "issend"))
        MPI_Issend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
      else if (!strcmp(mode, "irsend"))
        MPI_Irsend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
      else if (!strcmp(mode, "ibsend"))
        MPI_Ibsend(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
      else {
        if (!strcmp(mode, "send_init"))
          MPI_Send_init(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
        else if (!strcmp(mode, "ssend_init"))
          MPI_Ssend_init(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
        else if (!strcmp(mode, "bsend_init"))
          MPI_Bsend_init(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
        else
          MPI_Rsend_init(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &rq);
        MPI_Start(&rq);
      }
      say("posted", rank);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
      if (strstr(mode, "_init"))
        MPI_Request_free(&rq);
    }
    say("done", rank);
  } else if (rank == 1) {
    if (late)
      smpi_execute_flops(1e6);
    MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("done", rank);
  }
  free(buf);
}

static void sendrecv(const char *sc, int rank)
{
  int n = atoi(strrchr(sc, '_') + 1);
  int replace = strstr(sc, "replace") != NULL;
  if (rank > 1)
    return;
  char *a = calloc((size_t)n + 1, 1), *b = calloc((size_t)n + 1, 1);
  if (rank == 1)
    smpi_execute_flops(1e5);
  if (replace)
    MPI_Sendrecv_replace(a, n, MPI_BYTE, 1 - rank, 0, 1 - rank, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
  else
    MPI_Sendrecv(a, n, MPI_BYTE, 1 - rank, 0, b, n, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  say("done", rank);
  free(a);
  free(b);
}

/* Ranks 1 and 2 poll for rank 0's messages, which it sends after 1.05 ms. Rank 2 starts
 * 30 us late: simultaneous wake-ups would run in an order that depends on each simulator's
 * event heap, and the polling counters are shared. */
static void polling(const char *sc, int rank)
{
  char b[8] = {0};
  if (rank == 0) {
    smpi_execute_flops(1.05e6);
    say("send", rank);
    for (int t = 0; t < 2; t++)
      for (int k = 1; k <= 2; k++)
        MPI_Send(b, 1, MPI_BYTE, k, t, MPI_COMM_WORLD);
    return;
  }
  if (rank > 2)
    return;
  if (rank == 2)
    smpi_execute_flops(3e4);
  MPI_Request q[2];
  int flag = 0, it = 0, idx, out, ind[2];
  char label[64];
  if (!strcmp(sc, "probe")) {
    MPI_Probe(0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("probe", rank);
    MPI_Recv(b, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("recv", rank);
    return;
  }
  if (!strcmp(sc, "iprobe")) {
    while (!flag) {
      MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      snprintf(label, sizeof label, "iprobe%d", it++);
      say(label, rank);
    }
    MPI_Recv(b, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("recv", rank);
    return;
  }
  MPI_Irecv(b, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(b + 1, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &q[1]);
  int done = 0;
  while (done < 2 && it < 100) {
    if (!strcmp(sc, "test")) {
      MPI_Test(&q[done], &flag, MPI_STATUS_IGNORE);
      done += flag;
    } else if (!strcmp(sc, "testany")) {
      MPI_Testany(2, q, &idx, &flag, MPI_STATUS_IGNORE);
      done += flag && idx != MPI_UNDEFINED;
    } else if (!strcmp(sc, "testall")) {
      MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
      if (flag)
        done = 2;
    } else if (!strcmp(sc, "testsome")) {
      MPI_Testsome(2, q, &out, ind, MPI_STATUSES_IGNORE);
      done += out;
    } else if (!strcmp(sc, "waitsome")) {
      MPI_Waitsome(2, q, &out, ind, MPI_STATUSES_IGNORE);
      done += out;
    } else if (!strcmp(sc, "getstatus")) {
      MPI_Request_get_status(q[0], &flag, MPI_STATUS_IGNORE);
      if (flag) {
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        done = 2;
      }
    }
    snprintf(label, sizeof label, "%s%d", sc, it++);
    say(label, rank);
  }
}

static void waitall_or(int rank, int size)
{
  char b[8] = {0};
  if (rank == 0) {
    MPI_Request q[8];
    for (int i = 1; i < size; i++)
      MPI_Irecv(b + i, 1, MPI_BYTE, i, 0, MPI_COMM_WORLD, &q[i - 1]);
    MPI_Waitall(size - 1, q, MPI_STATUSES_IGNORE);
    say("waitall", rank);
    for (int i = 1; i < size; i++)
      MPI_Irecv(b + i, 1, MPI_BYTE, i, 1, MPI_COMM_WORLD, &q[i - 1]);
    int idx;
    MPI_Waitany(size - 1, q, &idx, MPI_STATUS_IGNORE);
    say("waitany", rank);
    MPI_Waitall(size - 1, q, MPI_STATUSES_IGNORE);
    say("waitall2", rank);
  } else {
    smpi_execute_flops(1e5 * rank); /* 0.1 ms apart: arrivals overlap the or sleeps */
    MPI_Send(b, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    MPI_Send(b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    say("sent", rank);
  }
}

static void mixed(int rank)
{
  const int sizes[4] = {10, 100000, 20, 200000};
  if (rank == 0) {
    MPI_Request q[8];
    char *bufs[8];
    for (int i = 0; i < 8; i++) {
      bufs[i] = calloc((size_t)sizes[i % 4], 1);
      MPI_Isend(bufs[i], sizes[i % 4], MPI_BYTE, 1 + i % 2, i, MPI_COMM_WORLD, &q[i]);
    }
    MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
    say("sent", rank);
    for (int i = 0; i < 8; i++)
      free(bufs[i]);
  } else if (rank <= 2) {
    char *b = malloc(200000);
    for (int i = 0; i < 4; i++) {
      MPI_Status st;
      char label[32];
      MPI_Recv(b, 200000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      snprintf(label, sizeof label, "recv%d", st.MPI_TAG);
      say(label, rank);
    }
    free(b);
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *sc = argc > 1 ? argv[1] : "";
  if (!strncmp(sc, "mode", 4))
    modes(sc, rank);
  else if (!strncmp(sc, "sendrecv_", 9))
    sendrecv(sc, rank);
  else if (!strcmp(sc, "selfsendrecv")) {
    char a[4] = {1, 2, 3, 4}, b[4];
    MPI_Sendrecv(a, 4, MPI_BYTE, rank, 0, b, 4, MPI_BYTE, rank, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    say("done", rank);
  } else if (!strcmp(sc, "waitall_or"))
    waitall_or(rank, size);
  else if (!strcmp(sc, "mixed"))
    mixed(rank);
  else if (*sc)
    polling(sc, rank);
  else if (rank == 0)
    fprintf(stderr, "p2p_timing: name a scenario\n");
  MPI_Finalize();
  return 0;
}
