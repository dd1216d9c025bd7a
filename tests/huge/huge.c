/* smpi/huge-heap's test program: rank 0 mallocs 16 MiB, writes it, and prints how much of
 * the heap's mapping is in huge pages and how many page faults writing it took:
 *
 *   huge: heap-huge-kib=K faults=F
 *
 * (/proc/self/smaps' [heap] entry and getrusage's minor faults). Then every rank receives
 * 8 MiB from its left neighbour into a fresh malloc'd buffer, so that display-timing counts
 * first touches and prints the cost it charged per page. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static long heap_huge_kib(void)
{
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[256];
  int in_heap = 0;
  long kib = -1;
  while (f && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's first line */
      in_heap = strstr(line, "[heap]") != NULL;
    else if (in_heap && !strncmp(line, "AnonHugePages:", 14))
      kib = (kib < 0 ? 0 : kib) + strtol(line + 14, NULL, 10);
  }
  if (f)
    fclose(f);
  return kib;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* before rank 0's test, so that the receive buffer is not memory it freed (resident) */
  size_t m = (size_t)8 << 20;
  char *s = malloc(m), *r = malloc(m);
  if (rank == 0) {
    struct rusage a, b;
    getrusage(RUSAGE_SELF, &a);
    size_t n = (size_t)16 << 20;
    char *p = malloc(n);
    memset(p, 1, n);
    getrusage(RUSAGE_SELF, &b);
    printf("huge: heap-huge-kib=%ld faults=%ld\n", heap_huge_kib(), b.ru_minflt - a.ru_minflt);
    fflush(stdout);
    free(p);
  }
  memset(s, rank, m);
  MPI_Sendrecv(s, (int)m, MPI_CHAR, (rank + 1) % size, 0, r, (int)m, MPI_CHAR,
               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int ok = r[m - 1] == (char)((rank + size - 1) % size);
  free(s);
  free(r);
  MPI_Finalize();
  return ok ? 0 : 1;
}
