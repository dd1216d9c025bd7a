/* large_count: the MPI 4.0 large-count (_c) functions (MPI 4.0 section 3.2, 4.1, ...).
 *   - each _c function gives what its MPI 3.1 twin gives, on small counts: point-to-point
 *     (blocking, nonblocking, persistent, sendrecv, matched), datatype constructors and
 *     queries, pack/unpack, collectives (v-forms with MPI_Count counts and MPI_Aint
 *     displacements), RMA (Win_create_c, Put_c, Get_c, Accumulate_c) and MPI-IO;
 *   - counts beyond INT_MAX are taken whole: a Type_contiguous_c of 2^31 + 8 chars has that
 *     size (MPI_Type_size says MPI_UNDEFINED), a receive posted for 2^31 + 8 chars takes a
 *     short message, and under smpi a message of 2^31 + 8 chars really travels (a buffer of
 *     SMPI_SHARED_MALLOC), its MPI_Get_count_c exact;
 *   - under smpi, a collective count beyond INT_MAX is refused with MPI_ERR_COUNT.
 * 2 ranks. Plain MPI 4.0: the test runs it under MPICH 4.0.2 too. */
#define MPITEST_NAME "large_count"
#include "mpitest.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (((MPI_Count)1 << 31) + 8)

static void p2p(int me, int peer)
{
  MPI_Comm c = MPI_COMM_WORLD;
  int out[8], in[8];
  MPI_Status st;
  MPI_Count n;
  for (int i = 0; i < 8; i++)
    out[i] = 100 * me + i;
  memset(in, 0, sizeof in);
  if (me == 0) {
    MPI_Send_c(out, 8, MPI_INT, peer, 1, c);
    MPI_Ssend_c(out, 16, MPI_CHAR, peer, 2, c);
  } else {
    MPI_Recv_c(in, 8, MPI_INT, peer, 1, c, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == 8 && in[7] == 7, "Recv_c: count %lld, in[7] %d", (long long)n, in[7]);
    /* a receive posted for more than INT_MAX elements takes a short message */
    MPI_Recv_c(in, BIG, MPI_CHAR, peer, 2, c, &st);
    MPI_Get_count_c(&st, MPI_CHAR, &n);
    CHECK(n == 16 && in[3] == 3, "Recv_c of BIG chars: count %lld, in[3] %d", (long long)n,
          in[3]);
    MPI_Get_elements_c(&st, MPI_CHAR, &n);
    CHECK(n == 16, "Get_elements_c: %lld", (long long)n);
  }
  MPI_Request r[2];
  MPI_Status sts[2];
  memset(in, 0, sizeof in);
  MPI_Irecv_c(in, 8, MPI_INT, peer, 3, c, &r[0]);
  MPI_Isend_c(out, 8, MPI_INT, peer, 3, c, &r[1]);
  MPI_Waitall(2, r, sts);
  CHECK(in[5] == 100 * peer + 5, "Isend_c/Irecv_c: in[5] %d", in[5]);
  memset(in, 0, sizeof in);
  MPI_Send_init_c(out, 8, MPI_INT, peer, 4, c, &r[1]);
  MPI_Recv_init_c(in, 8, MPI_INT, peer, 4, c, &r[0]);
  MPI_Startall(2, r);
  MPI_Waitall(2, r, sts);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  CHECK(in[6] == 100 * peer + 6, "Send_init_c/Recv_init_c: in[6] %d", in[6]);
  memset(in, 0, sizeof in);
  MPI_Sendrecv_c(out, 8, MPI_INT, peer, 5, in, 8, MPI_INT, peer, 5, c, &st);
  MPI_Get_count_c(&st, MPI_INT, &n);
  CHECK(n == 8 && in[1] == 100 * peer + 1, "Sendrecv_c: count %lld in[1] %d", (long long)n,
        in[1]);
  memcpy(in, out, sizeof in);
  MPI_Sendrecv_replace_c(in, 8, MPI_INT, peer, 6, peer, 6, c, MPI_STATUS_IGNORE);
  CHECK(in[2] == 100 * peer + 2, "Sendrecv_replace_c: in[2] %d", in[2]);
  if (me == 0) {
    MPI_Send_c(out, 3, MPI_INT, peer, 7, c);
  } else {
    MPI_Message m;
    MPI_Mprobe(peer, 7, c, &m, &st);
    MPI_Mrecv_c(in, 3, MPI_INT, &m, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == 3 && in[2] == 2, "Mrecv_c: count %lld in[2] %d", (long long)n, in[2]);
  }
}

static void types(void)
{
  MPI_Datatype t, v, s;
  MPI_Count size, lb, extent;
  int isize;
  MPI_Type_contiguous_c(BIG, MPI_CHAR, &t);
  MPI_Type_size_c(t, &size);
  CHECK(size == BIG, "Type_contiguous_c(2^31+8 chars): size %lld", (long long)size);
  MPI_Type_get_extent_c(t, &lb, &extent);
  CHECK(lb == 0 && extent == BIG, "Type_get_extent_c: lb %lld extent %lld", (long long)lb,
        (long long)extent);
  MPI_Type_size(t, &isize);
  CHECK(isize == MPI_UNDEFINED, "Type_size of a 2^31+8 byte type: %d", isize);
  MPI_Type_free(&t);

  MPI_Type_vector_c(3, 2, 4, MPI_INT, &v);
  MPI_Type_size_c(v, &size);
  MPI_Type_get_extent_c(v, &lb, &extent);
  CHECK(size == 24 && extent == 40, "Type_vector_c: size %lld extent %lld", (long long)size,
        (long long)extent);
  MPI_Count bl[2] = {1, 2}, disp[2] = {0, 8};
  MPI_Datatype tt[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Type_create_struct_c(2, bl, disp, tt, &s);
  MPI_Type_commit(&s);
  MPI_Type_size_c(s, &size);
  MPI_Type_get_true_extent_c(s, &lb, &extent);
  CHECK(size == 20 && lb == 0 && extent == 24, "Type_create_struct_c: size %lld true extent %lld",
        (long long)size, (long long)extent);
  MPI_Count idisp[2] = {0, 3};
  MPI_Datatype ix;
  MPI_Type_indexed_c(2, bl, idisp, MPI_INT, &ix);
  MPI_Type_size_c(ix, &size);
  MPI_Type_get_extent_c(ix, &lb, &extent);
  CHECK(size == 12 && extent == 20, "Type_indexed_c: size %lld extent %lld", (long long)size,
        (long long)extent);

  /* pack and unpack the struct */
  struct {
    int i;
    int pad;
    double d[2];
  } a = {7, 0, {1.5, 2.5}}, b = {0, 0, {0, 0}};
  char buf[64];
  MPI_Count pos = 0, psize;
  MPI_Pack_size_c(1, s, MPI_COMM_WORLD, &psize);
  CHECK(psize >= 20 && psize <= 64, "Pack_size_c: %lld", (long long)psize);
  MPI_Pack_c(&a, 1, s, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  CHECK(pos == 20, "Pack_c: position %lld", (long long)pos);
  pos = 0;
  MPI_Unpack_c(buf, sizeof buf, &pos, &b, 1, s, MPI_COMM_WORLD);
  CHECK(pos == 20 && b.i == 7 && b.d[1] == 2.5, "Unpack_c: position %lld i %d d[1] %g",
        (long long)pos, b.i, b.d[1]);
  MPI_Type_free(&v);
  MPI_Type_free(&s);
  MPI_Type_free(&ix);
}

static void colls(int me, int n)
{
  MPI_Comm c = MPI_COMM_WORLD;
  int x[4] = {0, 0, 0, 0};
  if (me == 0)
    x[0] = 42, x[3] = 43;
  MPI_Bcast_c(x, 4, MPI_INT, 0, c);
  CHECK(x[0] == 42 && x[3] == 43, "Bcast_c: %d %d", x[0], x[3]);
  int sum = 0, one = me + 1;
  MPI_Allreduce_c(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == n * (n + 1) / 2, "Allreduce_c: %d", sum);
  /* rank i sends i + 1 ints, gathered in reverse order of ranks */
  int mine[8], all[64];
  MPI_Count counts[8], sc[8], rc[8];
  MPI_Aint displs[8], sd[8], rd[8];
  for (int i = 0; i < 8; i++)
    mine[i] = 10 * me + i;
  MPI_Aint at = 0;
  for (int i = n - 1; i >= 0; i--) {
    counts[i] = i + 1;
    displs[i] = at;
    at += i + 1;
  }
  memset(all, 0xff, sizeof all);
  /* the count arrays matter at the root only: NULL elsewhere */
  MPI_Gatherv_c(mine, me + 1, MPI_INT, all, me == 0 ? counts : NULL, me == 0 ? displs : NULL,
                MPI_INT, 0, c);
  if (me == 0)
    CHECK(all[0] == 10 * (n - 1) && all[displs[0]] == 0, "Gatherv_c: %d %d", all[0],
          all[displs[0]]);
  memset(all, 0xff, sizeof all);
  MPI_Allgatherv_c(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, c);
  CHECK(all[displs[n - 1] + n - 1] == 10 * (n - 1) + n - 1, "Allgatherv_c: %d",
        all[displs[n - 1] + n - 1]);
  /* alltoallv: one int to each, at reversed slots */
  int sbuf[8], rbuf[8];
  for (int i = 0; i < n; i++) {
    sbuf[i] = 100 * me + i;
    sc[i] = rc[i] = 1;
    sd[i] = i;
    rd[i] = n - 1 - i;
    rbuf[i] = -1;
  }
  MPI_Alltoallv_c(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, c);
  CHECK(rbuf[n - 1] == me, "Alltoallv_c: from rank 0 %d", rbuf[n - 1]);
#ifndef MPICH_VERSION
  /* smpi's collectives count in int: refused, not truncated */
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int err = MPI_Bcast_c(x, BIG, MPI_CHAR, 0, c), cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT, "Bcast_c of 2^31+8 chars: class %d", cls);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_ARE_FATAL);
#endif
}

static void rma(int me, int peer)
{
  int base[4] = {0, 0, 0, 0}, v[2] = {me + 1, me + 2}, got[2] = {0, 0};
  MPI_Win w;
  MPI_Win_create_c(base, sizeof base, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  MPI_Put_c(v, 2, MPI_INT, peer, 1, 2, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Accumulate_c(v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, w);
  MPI_Win_fence(0, w);
  MPI_Get_c(got, 2, MPI_INT, peer, 0, 2, MPI_INT, w);
  MPI_Win_fence(0, w);
  CHECK(base[1] == peer + 1 && base[2] == peer + 2 && base[0] == peer + 1,
        "Put_c/Accumulate_c: %d %d %d", base[0], base[1], base[2]);
  CHECK(got[0] == me + 1 && got[1] == me + 1, "Get_c: %d %d", got[0], got[1]);
  MPI_Win_free(&w);
}

static void io(int me)
{
  char name[64];
  snprintf(name, sizeof name, "large_count_%d.tmp", (int)getpid());
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File f;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &f);
  int v[3] = {me, me + 10, me + 20}, back[3] = {0, 0, 0};
  MPI_Status st;
  MPI_Count n;
  MPI_File_write_at_all_c(f, (MPI_Offset)(me * sizeof v), v, 3, MPI_INT, &st);
  MPI_Get_count_c(&st, MPI_INT, &n);
  CHECK(n == 3, "File_write_at_all_c: count %lld", (long long)n);
  MPI_File_read_at_c(f, (MPI_Offset)(me * sizeof v), back, 3, MPI_INT, &st);
  CHECK(back[2] == me + 20, "File_read_at_c: %d", back[2]);
  MPI_File_close(&f);
}

#ifndef MPICH_VERSION
/* a message of 2^31 + 8 chars, really sent (shared buffers: the content does not matter) */
static void big_message(int me, int peer)
{
  char *buf = SMPI_SHARED_MALLOC((size_t)BIG);
  MPI_Status st;
  if (me == 0) {
    MPI_Send_c(buf, BIG, MPI_CHAR, peer, 9, MPI_COMM_WORLD);
  } else {
    MPI_Count n = 0;
    int in = 0;
    MPI_Recv_c(buf, BIG, MPI_CHAR, peer, 9, MPI_COMM_WORLD, &st);
    MPI_Get_count_c(&st, MPI_CHAR, &n);
    CHECK(n == BIG, "Recv_c of 2^31+8 chars: count %lld", (long long)n);
    MPI_Get_count(&st, MPI_CHAR, &in);
    CHECK(in == MPI_UNDEFINED, "Get_count of 2^31+8 chars: %d", in);
  }
  SMPI_SHARED_FREE(buf);
}
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int me = wrank(), n = wsize(), peer = me ^ 1;
  if (peer < n)
    p2p(me, peer);
  types();
  colls(me, n);
  if (n == 2) {
    rma(me, peer);
    io(me);
#ifndef MPICH_VERSION
    big_message(me, peer);
#endif
  }
  return mpitest_finalize();
}
