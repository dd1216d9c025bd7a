/* Programs whose payload copies are known exactly (check_copies.py holds the arithmetic):
 * each case moves data in one way and checks it arrived.
 *
 *   posted   rank 1 posts its receive first (barrier between): a detached send of 1000 B
 *            goes straight into it, 1 copy
 *   early    rank 0 sends 1000 B detached before rank 1 posts: bounce buffer, then the
 *            receive buffer, 2 copies
 *   rdv      1 MiB rendezvous: sender to receiver, 1 copy
 *   reuse    100 rounds of 4 KiB into the same posted receive buffer: 1 copy each
 *   lent     rank 0's MPI_Isend of 1000 B is unmatched until rank 1 receives, before rank 0
 *            waits: the receive takes it from rank 0's buffer, 1 copy
 *   settled  the same, but rank 0 waits, then overwrites its buffer before rank 1 receives:
 *            the wait packed it into a bounce buffer, 2 copies, and rank 1 gets the old data
 *   sendrecv 2 ranks exchange 1000 B with MPI_Sendrecv: 1 copy each way
 *   vector   1 MiB contiguous sent, received into a vector type (1 KiB blocks, stride
 *            2 KiB): unpacked straight from the sender's buffer, 1 copy
 *   vecvec   128 KiB from a vector (128 B blocks, stride 256) into 2 vectors of 256 B
 *            blocks (stride 384): run to run, no temporary buffer, 1 copy (and 1 for
 *            the MPI_Pack that checks it)
 *   bcast    MPI_Bcast of 1 MiB, binomial tree: every rank but the root receives once
 *   alltoall MPI_Alltoall of 64 KiB blocks, pairwise: each rank's own block and n - 1
 *            received ones, 1 copy each
 *   folded_scratch  every algorithm that forwards blocks through scratch (Bruck's and
 *            recursive doubling's Alltoall, Bruck's Allgather, Open MPI's Bruck and
 *            neighbour exchange and MPICH's recursive doubling Allgatherv, MPICH's recursive
 *            doubling Reduce_scatter), 1000-byte blocks, every buffer folded: no block is
 *            meaningful, so none is copied into the scratch, packed or sent for real
 *            (collectives/coll_private.h, "Blocks whose content does not matter"), 0 copies */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsmpi's: the algorithm of a collective for the calling rank (tests/mpi/coll_check.h) */
extern int smpi_coll_force(const char *coll, const char *name);

static void fail(const char *what)
{
  fprintf(stderr, "copies: wrong data in %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void p2p(int rank, int bytes, int rounds, int post_first)
{
  unsigned char *buf = malloc((size_t)bytes);
  for (int r = 0; r < rounds; r++) {
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 1 && post_first)
      MPI_Irecv(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &req);
    if (rank == 0)
      memset(buf, r + 1, (size_t)bytes);
    if (!post_first && rank == 0)
      MPI_Send(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (post_first && rank == 0)
      MPI_Send(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) {
      if (post_first)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      else
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (buf[0] != r + 1 || buf[bytes - 1] != r + 1)
        fail("p2p");
    }
  }
  free(buf);
}

static void isend(int rank, int wait_first)
{
  unsigned char buf[1000];
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank == 0) {
    memset(buf, 1, sizeof buf);
    MPI_Isend(buf, sizeof buf, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &req);
    if (wait_first) {
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      memset(buf, 2, sizeof buf); /* the send is over: the buffer is ours again */
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Recv(buf, sizeof buf, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (buf[0] != 1 || buf[sizeof buf - 1] != 1)
      fail(wait_first ? "settled" : "lent");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && !wait_first)
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static void sendrecv(int rank)
{
  unsigned char s[1000], r[1000];
  memset(s, rank + 1, sizeof s);
  MPI_Sendrecv(s, sizeof s, MPI_BYTE, 1 - rank, 0, r, sizeof r, MPI_BYTE, 1 - rank, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (r[0] != 2 - rank || r[sizeof r - 1] != 2 - rank)
    fail("sendrecv");
}

static void vector(int rank)
{
  int n = 1 << 20, blk = 1024;
  char *buf = malloc(2 * (size_t)n);
  MPI_Datatype v;
  MPI_Type_vector(n / blk, blk, 2 * blk, MPI_BYTE, &v);
  MPI_Type_commit(&v);
  if (rank == 0) {
    memset(buf, 5, (size_t)n);
    MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(buf, 0, 2 * (size_t)n);
    MPI_Recv(buf, 1, v, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (buf[0] != 5 || buf[blk] != 0 || buf[2 * (size_t)n - blk - 1] != 5)
      fail("vector");
  }
  MPI_Type_free(&v);
  free(buf);
}

static void vecvec(int rank)
{
  const int n = 128 * 1024;
  MPI_Datatype sv, inner, rv;
  MPI_Type_vector(n / 128, 128, 256, MPI_BYTE, &sv);
  MPI_Type_vector(n / 2 / 256, 256, 384, MPI_BYTE, &inner);
  MPI_Aint gap = (MPI_Aint)(n / 2 / 256) * 384 + 64;
  MPI_Type_create_hvector(2, 1, gap, inner, &rv);
  MPI_Type_commit(&sv);
  MPI_Type_commit(&rv);
  size_t span = 2 * (size_t)gap;
  unsigned char *buf = malloc(span > 2 * (size_t)n ? span : 2 * (size_t)n);
  unsigned char *packed = malloc((size_t)n);
  if (rank == 0) {
    for (int i = 0; i < 2 * n; i++)
      buf[i] = (unsigned char)(i * 7 + i / 251);
    MPI_Send(buf, 1, sv, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(buf, 0xee, span);
    MPI_Recv(buf, 1, rv, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int pos = 0;
    MPI_Pack(buf, 1, rv, packed, n, &pos, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++) { /* byte j of the stream: block j / 128 of the sender */
      int i = (j / 128) * 256 + j % 128;
      if (packed[j] != (unsigned char)(i * 7 + i / 251))
        fail("vecvec");
    }
    if (buf[256] != 0xee || buf[span - 1] != 0xee) /* gaps untouched */
      fail("vecvec gaps");
  }
  MPI_Type_free(&sv);
  MPI_Type_free(&inner);
  MPI_Type_free(&rv);
  free(buf);
  free(packed);
}

static void bcast(int rank)
{
  int n = 1 << 20;
  unsigned char *buf = malloc((size_t)n);
  memset(buf, rank == 0 ? 9 : 0, (size_t)n);
  MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (buf[0] != 9 || buf[n - 1] != 9)
    fail("bcast");
  free(buf);
}

static void alltoall(int rank, int size)
{
  int b = 64 * 1024;
  unsigned char *s = malloc((size_t)b * size), *r = malloc((size_t)b * size);
  for (int p = 0; p < size; p++)
    memset(s + (size_t)p * b, rank * 16 + p, (size_t)b);
  MPI_Alltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, MPI_COMM_WORLD);
  for (int p = 0; p < size; p++)
    if (r[(size_t)p * b] != p * 16 + rank || r[(size_t)(p + 1) * b - 1] != p * 16 + rank)
      fail("alltoall");
  free(s);
  free(r);
}

static void folded_scratch(int size)
{
  size_t bytes = (size_t)1000 * size;
  char *s = SMPI_SHARED_MALLOC(bytes), *r = SMPI_SHARED_MALLOC(bytes);
  int counts[64], displs[64], ints = 250 * (size < 64 ? size : 64);
  for (int i = 0; i < size && i < 64; i++) {
    counts[i] = 1000;
    displs[i] = 1000 * i;
  }
  static const char *const a2a[] = {"bruck", "rdb"};
  for (int k = 0; k < 2; k++) {
    smpi_coll_force("alltoall", a2a[k]);
    MPI_Alltoall(s, 1000, MPI_BYTE, r, 1000, MPI_BYTE, MPI_COMM_WORLD);
  }
  smpi_coll_force("allgather", "bruck");
  MPI_Allgather(s, 1000, MPI_BYTE, r, 1000, MPI_BYTE, MPI_COMM_WORLD);
  static const char *const agv[] = {"ompi_bruck", "ompi_neighborexchange", "mpich_rdb"};
  for (int k = 0; k < 3; k++) {
    smpi_coll_force("allgatherv", agv[k]);
    MPI_Allgatherv(s, 1000, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  }
  int rc[64];
  for (int i = 0; i < size && i < 64; i++)
    rc[i] = ints / size;
  smpi_coll_force("reduce_scatter", "mpich_rdb");
  MPI_Reduce_scatter(s, r, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  smpi_coll_force("alltoall", NULL);
  smpi_coll_force("allgather", NULL);
  smpi_coll_force("allgatherv", NULL);
  smpi_coll_force("reduce_scatter", NULL);
  SMPI_SHARED_FREE(s);
  SMPI_SHARED_FREE(r);
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "posted"))
    p2p(rank, 1000, 1, 1);
  else if (!strcmp(c, "early"))
    p2p(rank, 1000, 1, 0);
  else if (!strcmp(c, "rdv"))
    p2p(rank, 1 << 20, 1, 1);
  else if (!strcmp(c, "reuse"))
    p2p(rank, 4096, 100, 1);
  else if (!strcmp(c, "lent"))
    isend(rank, 0);
  else if (!strcmp(c, "settled"))
    isend(rank, 1);
  else if (!strcmp(c, "sendrecv"))
    sendrecv(rank);
  else if (!strcmp(c, "vector"))
    vector(rank);
  else if (!strcmp(c, "vecvec"))
    vecvec(rank);
  else if (!strcmp(c, "bcast"))
    bcast(rank);
  else if (!strcmp(c, "alltoall"))
    alltoall(rank, size);
  else if (!strcmp(c, "folded_scratch"))
    folded_scratch(size);
  else {
    fprintf(stderr, "copies: unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0)
    printf("copies: %s OK\n", c);
  MPI_Finalize();
  return 0;
}
