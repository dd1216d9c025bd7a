/* ring_scale: a token ring, the smallest MPI program that still needs every rank alive at
 * once. Rank 0 sends an 8-byte token to rank 1, which passes it on, ... back to rank 0, for
 * `rounds` laps (argument 1, default 1). Rank 0 then prints the simulated time and what the
 * process uses: memory mappings (lines of /proc/self/maps, counted by rank 0 before the ring
 * starts, when every rank exists: ranks that finished the ring are gone by the end), max RSS.
 * No collective: a barrier of 131 072 ranks costs the flow solver far more than the ring. Used by
 * tools/bench/ring_scale to show what one rank costs at 1 024 to 131 072 ranks. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static long count_maps(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -1;
  long n = 0;
  for (int c; (c = getc(f)) != EOF;)
    n += c == '\n';
  fclose(f);
  return n;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  int allreduce = argc > 2 && !strcmp(argv[2], "allreduce"); /* then one MPI_Allreduce */
  uint64_t token = 0;
  long maps = rank == 0 ? count_maps() : 0;
  for (int r = 0; r < rounds; r++) {
    if (rank == 0) {
      token++;
      MPI_Send(&token, 1, MPI_UINT64_T, 1 % size, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_UINT64_T, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_UINT64_T, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token++;
      MPI_Send(&token, 1, MPI_UINT64_T, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
  }
  int sum_ok = 1;
  if (allreduce) { /* the sum of the ranks, 8 bytes, default algorithm */
    double mine = rank, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum_ok = sum == (double)size * (size - 1) / 2;
  }
  if (rank == 0) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    int ok = token == (uint64_t)rounds * (uint64_t)size && sum_ok;
    printf("ring_scale: ranks %d rounds %d token %llu (%s) simulated %.6f s maps %ld "
           "maxrss_kib %ld\n",
           size, rounds, (unsigned long long)token, ok ? "ok" : "WRONG", MPI_Wtime(), maps,
           ru.ru_maxrss);
  }
  MPI_Finalize();
  return 0;
}
