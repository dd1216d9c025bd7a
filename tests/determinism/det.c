/* The determinism workload (tests/determinism/run.py runs it 10 times and compares the
 * outputs byte for byte). Everything whose order or timing a simulator could let slip:
 *
 *   - wildcard receives: rank 0 takes messages from every rank with MPI_ANY_SOURCE and
 *     MPI_ANY_TAG, in arrival order, which depends on simulated times only;
 *   - MPI_Waitany, then MPI_Test polling, over requests completing at close simulated times;
 *   - polling loops (MPI_Iprobe, MPI_Test), whose injected costs count calls;
 *   - collectives: Bcast, Allreduce, Alltoall, Reduce, Barrier;
 *   - computation as flops only (SMPI_SAMPLE_FLOPS, smpi_execute_flops), so no measured
 *     CPU time enters the simulation (run with smpi/simulate-computation:no as well).
 *
 * Rank 0 prints each event with MPI_Wtime in hexadecimal floating point (exact), then the
 * final time. Needs >= 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 3

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *buf = calloc(64 * 1024, 1);
  /* the fan-in's MPI_ANY_TAG must not catch the ring's messages of a rank already ahead */
  MPI_Comm fan;
  MPI_Comm_dup(MPI_COMM_WORLD, &fan);
  for (int round = 0; round < ROUNDS; round++) {
    /* 1. fan-in with wildcards: sizes differ by rank so arrivals interleave */
    if (rank == 0) {
      for (int k = 1; k < size; k++) {
        MPI_Status st;
        MPI_Recv(buf, 64 * 1024, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, fan, &st);
        int n;
        MPI_Get_count(&st, MPI_CHAR, &n);
        printf("r%d fanin from %d tag %d bytes %d at %a\n", round, st.MPI_SOURCE, st.MPI_TAG, n,
               MPI_Wtime());
      }
    } else {
      SMPI_SAMPLE_FLOPS(1e6 * ((rank * 7 + round) % 5)) {}
      int bytes = 1024 * ((rank * 13 + round * 5) % 17) + rank;
      MPI_Send(buf, bytes, MPI_CHAR, 0, 100 + rank % 3, fan);
    }

    /* 2. ring of nonblocking exchanges completed with Waitany then Testsome polling */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Request rq[4];
    char *s1 = buf + 16384, *s2 = buf + 32768, *r1 = buf + 40960, *r2 = buf + 49152;
    MPI_Irecv(r1, 4096, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(r2, 4096, MPI_CHAR, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(s1, 1000 + 100 * rank, MPI_CHAR, next, 1, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(s2, 3000 - 100 * rank, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &rq[3]);
    int idx;
    MPI_Status st;
    MPI_Waitany(4, rq, &idx, &st);
    int done = 1, polls = 0;
    while (done < 4) {
      for (int k = 0; k < 4; k++) {
        int flag = 0;
        if (rq[k] == MPI_REQUEST_NULL)
          continue;
        MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE);
        done += flag;
        polls++;
      }
    }
    int first[2] = {idx, polls}, all[2 * 64] = {0};
    MPI_Gather(first, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("r%d ring: first completions / polls:", round);
      for (int k = 0; k < size && k < 64; k++)
        printf(" %d/%d", all[2 * k], all[2 * k + 1]);
      printf(" at %a\n", MPI_Wtime());
    }

    /* 3. probe loop: rank 1 waits, polling, for a late message from the last rank */
    if (rank == size - 1) {
      smpi_execute_flops(5e5);
      MPI_Send(buf, 10, MPI_CHAR, 1, 9, MPI_COMM_WORLD);
    } else if (rank == 1) {
      int flag = 0, probes = 0;
      while (!flag) {
        MPI_Iprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, &st);
        probes++;
      }
      MPI_Recv(buf, 10, MPI_CHAR, st.MPI_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&probes, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
    }
    if (rank == 0) {
      int probes;
      MPI_Recv(&probes, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("r%d probe loop: %d probes at %a\n", round, probes, MPI_Wtime());
    }

    /* 4. collectives */
    double v = rank + 0.25 * round, sum = 0;
    MPI_Bcast(buf, 8192 * (round + 1), MPI_CHAR, round % size, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Alltoall(buf, 512, MPI_CHAR, buf + 32768, 512, MPI_CHAR, MPI_COMM_WORLD);
    double mx = 0;
    MPI_Reduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    SMPI_SAMPLE_FLOPS(2e6 * (rank % 3)) {}
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      printf("r%d collectives: sum %a max %a at %a\n", round, sum, mx, MPI_Wtime());
  }
  MPI_Comm_free(&fan);
  free(buf);
  if (rank == 0)
    printf("det: final simulated time %a\n", MPI_Wtime());
  MPI_Finalize();
  return 0;
}
