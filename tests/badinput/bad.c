/* The misbehaving MPI program of the bad-input catalogue (tests/badinput/run.py): argv[1]
 * says how to misbehave. Modes that end the job print nothing after the fault; modes with an
 * MPI-defined outcome (errors-return, user-handler) print what they saw and "bad: OK".
 *
 *   ok              a correct ping between ranks 0 and 1 (for the option cases)
 *   deadlock        ranks 0 and 1 both receive first
 *   coll-deadlock   rank 0 skips an MPI_Barrier the others enter
 *   root-deadlock   rank 0 waits in MPI_Bcast from root 1, rank 1 in MPI_Recv from rank 0
 *   segv            rank 1 stores into page 0
 *   abort           rank 1 calls abort()
 *   stack-overflow  rank 1 recurses without end
 *   fpe             rank 1 raises SIGFPE
 *   mpi-abort       rank 1 calls MPI_Abort(MPI_COMM_WORLD, 42)
 *   exit3           rank 1 calls exit(3) without MPI_Finalize
 *   no-finalize     every rank returns 0 from main without MPI_Finalize
 *   fatal-count     MPI_Send with count -1 under MPI_ERRORS_ARE_FATAL (the default)
 *   fatal-rank      MPI_Send to rank 99 of 2
 *   fatal-comm      MPI_Send on MPI_COMM_NULL
 *   fatal-type      MPI_Send with an uncommitted datatype
 *   fatal-freed-comm  MPI_Send on a copy of a communicator handle freed by MPI_Comm_free
 *   bad-comm-handler  MPI_Send on MPI_COMM_NULL and on a freed communicator under a user
 *                   handler set on MPI_COMM_WORLD: it must be called, with MPI_COMM_WORLD
 *   errors-return   MPI_Send with count -1 and a tag of -5 under MPI_ERRORS_RETURN: prints
 *                   the error classes it gets back, then goes on
 *   user-handler    the same with a user error handler that counts its calls
 *   before-init     MPI_Send before MPI_Init
 *   double-init     MPI_Init twice
 *   leak-request    an MPI_Irecv never matched nor waited for, then MPI_Finalize
 *   recv-overrun    rank 1 receives 100 000 ints into a buffer of 10 (the rendezvous copy,
 *                   in the maestro, runs into the page after the buffer)
 *   recv-freed      rank 1 unmaps its receive buffer while the MPI_Irecv is pending (what
 *                   free() does to a large block), then waits
 *   send-overrun    rank 0 sends 100 000 ints from a buffer of 10 (rendezvous: copied in
 *                   the maestro)
 *   send-overrun-small  the same with 100 chars from 64 (detached: packed by the sender)
 *   heap-smash      rank 1 zeroes the whole heap (the area around its buffers: the
 *                   simulator's records too), then stores into page 0
 *   big-stack       rank 1 puts a 64 MiB array on its 8 MiB stack
 *   shared-double-free  rank 1 calls SMPI_SHARED_FREE twice on one block
 *   win-null-base   MPI_Win_create over NULL with size 8, then an MPI_Put into it
 *   exit0           rank 1 calls exit(0) while rank 0 waits in MPI_Barrier (exit3: exit(3))
 *   bsend-detach    rank 0's MPI_Bsend to rank 1, which never receives it, then
 *                   MPI_Buffer_detach (it waits for the message: a deadlock)
 *   thread-send     after MPI_Init_thread(MPI_THREAD_MULTIPLE), every rank asks
 *                   MPI_Is_thread_main and MPI_Query_thread, then sends to the next rank and
 *                   receives from the previous one (a ring), from a pthread it created (smpi runs ranks on one OS thread: MPI_THREAD_FUNNELED at most) */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int handler_calls, handler_code;
static MPI_Comm handler_comm = MPI_COMM_NULL;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
  handler_calls++;
  handler_code = *code;
  handler_comm = *comm;
}

/* volatile: keep the compiler from proving the recursion or the null store away; the
 * depth bound (1 TiB of frames) is never reached, it only tells GCC the recursion ends */
static volatile int max_depth = 1 << 28;
static int recurse(volatile char *prev, int depth)
{
  volatile char frame[4096];
  frame[0] = (char)depth;
  frame[4095] = prev ? prev[0] : 0;
  if (depth >= max_depth)
    return frame[4095];
  return recurse(frame, depth + 1) + frame[4095];
}

/* bytes at the very end of a fresh mapping whose next MiB is inaccessible: an access past
 * them faults at once. Under ASan too: the mapping is not ASan's, and the inaccessible part
 * covers what the overrunning copies span, so ASan's memcpy finds nothing poisoned there
 * and lets the copy fault. */
static char *end_of_mapping(size_t bytes)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (bytes + page - 1) / page * page;
  size_t after = (size_t)1 << 20;
  char *m = mmap(NULL, len + after, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect(m + len, after, PROT_NONE) != 0) {
    perror("bad: mmap");
    exit(2);
  }
  memset(m, 1, len);
  return m + len - bytes;
}

/* A frame of 64 MiB: its stack pointer lands far under the 8 MiB stack and its guard. */
__attribute__((noinline)) static int big_frame(int v)
{
  volatile char big[64 << 20];
  memset((char *)big, v, sizeof big);
  return big[v] + big[sizeof big - 1];
}

/* Zeroes the [heap] mapping (malloc's main arena) */
static void smash_heap(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  unsigned long lo = 0, hi = 0;
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, "[heap]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
      break;
  if (f)
    fclose(f);
  if (hi > lo)
    memset((void *)lo, 0, hi - lo);
}

/* thread-send: what a thread of rank `rank` does (MPI from a thread smpi does not run) */
struct thread_arg {
  int rank, size, x;
};
static void *thread_main(void *p)
{
  struct thread_arg *a = p;
  int y = 0, main_thread = -1, level = -1;
  MPI_Request r;
  /* the two calls meant for any thread answer; the first communication ends the job */
  MPI_Is_thread_main(&main_thread);
  MPI_Query_thread(&level);
  printf("bad: rank %d's thread: main %d, level %d\n", a->rank, main_thread, level);
  MPI_Isend(&a->x, 1, MPI_INT, (a->rank + 1) % a->size, 0, MPI_COMM_WORLD, &r);
  MPI_Recv(&y, 1, MPI_INT, (a->rank + a->size - 1) % a->size, 0, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return NULL;
}

static int error_class(int code)
{
  int c = -1;
  MPI_Error_class(code, &c);
  return c;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "ok";
  int rank = 0, size = 0, x = 7;
  if (!strcmp(mode, "before-init")) {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    printf("bad: MPI_Send before MPI_Init returned\n");
    return 0;
  }
  if (!strcmp(mode, "thread-send")) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else
    MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (!strcmp(mode, "ok")) {
    if (rank == 0 && size > 1)
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
      printf("bad: OK\n");
  } else if (!strcmp(mode, "deadlock")) {
    if (rank < 2)
      MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(mode, "root-deadlock")) {
    if (rank == 0)
      MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(mode, "coll-deadlock")) {
    if (rank != 0)
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "segv")) {
    if (rank == 1) {
      /* not NULL itself: UBSan would report a null store before the signal, in sanitizer
       * builds; page 0 is never mapped either */
      volatile int *volatile p = (volatile int *)(uintptr_t)16;
      *p = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "abort")) {
    if (rank == 1)
      abort();
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "stack-overflow")) {
    if (rank == 1)
      x = recurse(NULL, 0);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "fpe")) {
    if (rank == 1)
      raise(SIGFPE);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "mpi-abort")) {
    if (rank == 1)
      MPI_Abort(MPI_COMM_WORLD, 42);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "exit3") || !strcmp(mode, "exit0")) {
    if (rank == 1)
      exit(mode[4] - '0');
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "no-finalize")) {
    return 0;
  } else if (!strcmp(mode, "fatal-count")) {
    MPI_Send(&x, -1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  } else if (!strcmp(mode, "fatal-rank")) {
    MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
  } else if (!strcmp(mode, "fatal-comm")) {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
  } else if (!strcmp(mode, "fatal-type")) {
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Send(&x, 1, t, 1 - rank, 0, MPI_COMM_WORLD);
  } else if (!strcmp(mode, "fatal-freed-comm")) {
    MPI_Comm dup, stale;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    stale = dup;
    MPI_Comm_free(&dup);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, stale);
  } else if (!strcmp(mode, "bad-comm-handler")) {
    MPI_Errhandler eh;
    MPI_Comm dup, stale;
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    stale = dup;
    MPI_Comm_free(&dup);
    int rc1 = MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_NULL);
    int ok = error_class(rc1) == MPI_ERR_COMM && handler_calls == 1 &&
             handler_comm == MPI_COMM_WORLD;
    handler_comm = MPI_COMM_NULL;
    int rc2 = MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, stale);
    ok = ok && error_class(rc2) == MPI_ERR_COMM && handler_calls == 2 &&
         handler_comm == MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
      printf("bad: bad-comm-handler: handler calls %d on %s\n%s", handler_calls,
             handler_comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "another communicator",
             all ? "bad: OK\n" : "bad: FAILED\n");
    MPI_Finalize();
    return all ? 0 : 1;
  } else if (!strcmp(mode, "errors-return") || !strcmp(mode, "user-handler")) {
    MPI_Errhandler eh = MPI_ERRORS_RETURN;
    if (!strcmp(mode, "user-handler"))
      MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    int rc1 = MPI_Send(&x, -1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    int rc2 = MPI_Send(&x, 1, MPI_INT, 1 - rank, -5, MPI_COMM_WORLD);
    int rc3 = MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    int ok = error_class(rc1) == MPI_ERR_COUNT && error_class(rc2) == MPI_ERR_TAG &&
             error_class(rc3) == MPI_ERR_RANK;
    if (!strcmp(mode, "user-handler")) {
      ok = ok && handler_calls == 3 && error_class(handler_code) == MPI_ERR_RANK;
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
      MPI_Errhandler_free(&eh);
    }
    /* the communicator stays usable after returned errors */
    if (rank == 0 && size > 1)
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
      printf("bad: %s: classes count=%d tag=%d rank=%d, handler calls %d\n", mode,
             error_class(rc1), error_class(rc2), error_class(rc3), handler_calls);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
      printf(all ? "bad: OK\n" : "bad: FAILED\n");
    MPI_Finalize();
    return all ? 0 : 1;
  } else if (!strcmp(mode, "thread-send")) {
    struct thread_arg a = {rank, size, 7};
    pthread_t t;
    if (pthread_create(&t, NULL, thread_main, &a) == 0)
      pthread_join(t, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      printf("bad: OK\n");
  } else if (!strcmp(mode, "double-init")) {
    MPI_Init(&argc, &argv);
  } else if (!strcmp(mode, "leak-request")) {
    MPI_Request r;
    if (rank == 0)
      MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &r);
  } else if (!strcmp(mode, "recv-overrun") || !strcmp(mode, "send-overrun")) {
    int n = 100000, sending = !strcmp(mode, "send-overrun");
    int *small = (int *)end_of_mapping(10 * sizeof(int)), *big = calloc((size_t)n, sizeof(int));
    if (rank == 0)
      MPI_Send(sending ? small : big, n, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(sending ? big : small, n, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(mode, "send-overrun-small")) {
    char *small = end_of_mapping(64), big[100];
    if (rank == 0)
      MPI_Send(small, 100, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(big, 100, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(mode, "recv-freed")) {
    size_t n = 1 << 20;
    char *buf = end_of_mapping(n);
    if (rank == 0) {
      MPI_Send(buf, (int)n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Request r;
      MPI_Irecv(buf, (int)n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r);
      munmap(buf, n);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(mode, "heap-smash")) {
    if (rank == 1) {
      smash_heap();
      volatile int *volatile p = (volatile int *)(uintptr_t)16;
      *p = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "big-stack")) {
    if (rank == 1)
      x = big_frame(x);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "shared-double-free")) {
    if (rank == 1) {
      void *p = SMPI_SHARED_MALLOC(1 << 20);
      SMPI_SHARED_FREE(p);
      SMPI_SHARED_FREE(p);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "win-null-base")) {
    MPI_Win w;
    MPI_Win_create(NULL, 8, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    MPI_Put(&x, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
  } else if (!strcmp(mode, "bsend-detach")) {
    if (rank == 0) {
      int bsize = 64 + MPI_BSEND_OVERHEAD;
      void *b = malloc((size_t)bsize);
      MPI_Buffer_attach(b, bsize);
      MPI_Bsend(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
      MPI_Buffer_detach(&b, &bsize);
      free(b);
    }
  } else {
    fprintf(stderr, "bad: unknown mode '%s'\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return 0;
}
