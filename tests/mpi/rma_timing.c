/* rma_timing: simulated times of one-sided operations, for tests/mpi/rma_timing.py (our
 * times against the analytic expectations of the platform) and for the SimGrid comparison
 * of docs/rma.md. Plain MPI: builds with our smpicc, SimGrid's and MPICH's.
 *
 * Usage: rma_timing SCENARIO   (each line printed: "<label> <size> <seconds>")
 *   sweep    ranks 0 -> 1, sizes 8 B .. 4 MiB (x 8): put_fence / get_fence (one operation
 *            between two MPI_Win_fence(0), timed on rank 0), put_flush_local, put_flush,
 *            get_flush (one operation in a shared-lock epoch, from the operation to the
 *            flush's return)
 *   contend  ranks 0 and 2 put SIZE bytes into rank 1 at the same time (flush_local): they
 *            share rank 1's link; sizes 64 KiB and 4 MiB; also a lone put for reference
 *   halo     1-D halo exchange, every rank puts H doubles into each neighbour's ghost
 *            cells between fences, 10 iterations; H = 1, 128, 8192 (time per iteration)
 *   locks    ranks 0 and 2 lock rank 1 at once (exclusive, then shared) and put 1 MiB each
 *            under the lock: dates each lock was granted and each unlock returned
 *   land     when does the data appear? rank 0 puts 256 KiB into rank 1 (lock with
 *            MPI_MODE_NOCHECK) and prints the date it started; rank 1 watches the last byte
 *            of its window, calling MPI_Wtime between looks (run with smpi/wtime > 0 so
 *            the clock moves), and prints the date it changed. Simulators only: under a
 *            real MPI the unified model does not promise when a store becomes visible. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSZ (4 << 20)

static void sweep(int rank, char *buf, MPI_Win win)
{
  for (long s = 8; s <= MAXSZ; s *= 8) {
    long sz = s > MAXSZ ? MAXSZ : s;
    double t0 = 0, dt;
    /* fence-based */
    MPI_Win_fence(0, win);
    t0 = MPI_Wtime();
    if (rank == 0)
      MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    dt = MPI_Wtime() - t0;
    if (rank == 0)
      printf("put_fence %ld %.12g\n", sz, dt);
    MPI_Win_fence(0, win);
    t0 = MPI_Wtime();
    if (rank == 0)
      MPI_Get(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    dt = MPI_Wtime() - t0;
    if (rank == 0)
      printf("get_fence %ld %.12g\n", sz, dt);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    /* passive target */
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
      t0 = MPI_Wtime();
      MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
      MPI_Win_flush_local(1, win);
      printf("put_flush_local %ld %.12g\n", sz, MPI_Wtime() - t0);
      MPI_Win_flush(1, win);
      t0 = MPI_Wtime();
      MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
      MPI_Win_flush(1, win);
      printf("put_flush %ld %.12g\n", sz, MPI_Wtime() - t0);
      t0 = MPI_Wtime();
      MPI_Get(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
      MPI_Win_flush(1, win);
      printf("get_flush %ld %.12g\n", sz, MPI_Wtime() - t0);
      MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (s == MAXSZ)
      break;
    if (s * 8 > MAXSZ && s < MAXSZ)
      s = MAXSZ / 8;
  }
}

static void contend(int rank, char *buf, MPI_Win win)
{
  long sizes[2] = {65536, MAXSZ};
  for (int i = 0; i < 2; i++) {
    long sz = sizes[i];
    /* alone */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
      double t0 = MPI_Wtime();
      MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
      MPI_Win_flush_local(1, win);
      printf("alone %ld %.12g\n", sz, MPI_Wtime() - t0);
      MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* together: both lock first, then a barrier, then both put */
    if (rank == 0 || rank == 2)
      MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 || rank == 2) {
      double t0 = MPI_Wtime();
      MPI_Put(buf, (int)sz, MPI_BYTE, 1, rank == 0 ? 0 : MAXSZ, (int)sz, MPI_BYTE, win);
      MPI_Win_flush_local(1, win);
      printf("together.r%d %ld %.12g\n", rank, sz, MPI_Wtime() - t0);
      MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

static void halo(int rank, int size)
{
  int hs[3] = {1, 128, 8192};
  for (int k = 0; k < 3; k++) {
    int h = hs[k], n = 4 * h;
    double *u = calloc((size_t)(n + 2 * h), sizeof *u);
    MPI_Win win;
    MPI_Win_create(u, (MPI_Aint)((n + 2 * h) * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    double t0 = MPI_Wtime();
    for (int it = 0; it < 10; it++) {
      /* my first h cells -> left's right ghosts; my last h -> right's left ghosts */
      MPI_Put(u + h, h, MPI_DOUBLE, left, h + n, h, MPI_DOUBLE, win);
      MPI_Put(u + n, h, MPI_DOUBLE, right, 0, h, MPI_DOUBLE, win);
      MPI_Win_fence(0, win);
    }
    double dt = (MPI_Wtime() - t0) / 10;
    if (rank == 0)
      printf("halo %ld %.12g\n", (long)h * 8, dt);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    free(u);
  }
}

/* Ranks 0 and 2 take a lock on rank 1 at the same time and put 1 MiB under it: with
 * MPI_LOCK_EXCLUSIVE the holding intervals [lock returned, unlock returned] must not
 * overlap; with MPI_LOCK_SHARED they do. */
static void locks(int rank, char *buf, MPI_Win win)
{
  int types[2] = {MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED};
  const char *names[2] = {"excl", "shared"};
  for (int k = 0; k < 2; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 || rank == 2) {
      MPI_Win_lock(types[k], 1, 0, win);
      double got = MPI_Wtime();
      MPI_Put(buf, 1 << 20, MPI_BYTE, 1, rank == 0 ? 0 : MAXSZ, 1 << 20, MPI_BYTE, win);
      MPI_Win_unlock(1, win);
      printf("%s_locked.r%d %d %.12g\n", names[k], rank, 1 << 20, got);
      printf("%s_unlocked.r%d %d %.12g\n", names[k], rank, 1 << 20, MPI_Wtime());
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void land(int rank, char *buf, char *mem, MPI_Win win)
{
  long sz = 256 << 10;
  memset(buf, 1, (size_t)sz);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, MPI_MODE_NOCHECK, win);
    printf("land_start %ld %.12g\n", sz, MPI_Wtime());
    MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
    MPI_Win_unlock(1, win);
  } else if (rank == 1) {
    volatile char *last = mem + sz - 1;
    double t = MPI_Wtime();
    while (!*last && t < 1.0)
      t = MPI_Wtime();
    printf("land_seen %ld %.12g\n", sz, t);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *sc = argc > 1 ? argv[1] : "sweep";
  if (!strcmp(sc, "halo")) {
    halo(rank, size);
  } else {
    char *buf = calloc(MAXSZ, 1);
    char *mem = calloc(2 * MAXSZ, 1);
    MPI_Win win;
    MPI_Win_create(mem, 2 * MAXSZ, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (!strcmp(sc, "contend"))
      contend(rank, buf, win);
    else if (!strcmp(sc, "locks"))
      locks(rank, buf, win);
    else if (!strcmp(sc, "land"))
      land(rank, buf, mem, win);
    else
      sweep(rank, buf, win);
    MPI_Win_free(&win);
    free(mem);
    free(buf);
  }
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
