/* rma_fence: active-target communication with MPI_Win_fence, every operation:
 * Put and Get around a ring (contiguous, then a vector on the origin side into an indexed
 * type on the target side and back), Accumulate with every predefined op (MPI_REPLACE
 * included), Get_accumulate (MPI_NO_OP included), Fetch_and_op, Compare_and_swap, the
 * fence assertions, MPI_PROC_NULL targets, and the window attributes. Any number of ranks
 * (run with 4). */
#define MPITEST_NAME "rma_fence"
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define N 16

static void test_put_get(int rank, int size)
{
  int *mem;
  MPI_Win win;
  MPI_Alloc_mem(4 * N * sizeof(int), MPI_INFO_NULL, &mem);
  for (int i = 0; i < 4 * N; i++)
    mem[i] = -1;
  MPI_Win_create(mem, 4 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int src[N];
  for (int i = 0; i < N; i++)
    src[i] = 1000 * rank + i;

  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  /* contiguous: my values into the right neighbour's first N ints */
  MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, win);
  /* the next epoch only reads: MPI_MODE_NOPUT (a rank may enter this fence while another
   * still issues its Puts of the epoch it closes) */
  MPI_Win_fence(MPI_MODE_NOPUT, win);
  for (int i = 0; i < N; i++)
    CHECK(mem[i] == 1000 * left + i, "put: mem[%d] = %d, expected %d", i, mem[i],
          1000 * left + i);

  /* get the right neighbour's first N (which hold my values) into a strided buffer */
  int got[2 * N];
  for (int i = 0; i < 2 * N; i++)
    got[i] = -7;
  MPI_Datatype every_other;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Get(got, 1, every_other, right, 0, N, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < N; i++) {
    CHECK(got[2 * i] == 1000 * rank + i, "get: got[%d] = %d", 2 * i, got[2 * i]);
    CHECK(got[2 * i + 1] == -7, "get: gap got[%d] = %d", 2 * i + 1, got[2 * i + 1]);
  }

  /* vector on the origin, indexed on the target: blocks of 2 at target displacements
   * N + {0, 5, 11, 20} (a non-contiguous type on both sides), placed at disp 0 */
  int blens[4] = {2, 2, 2, 2}, displs[4] = {N + 0, N + 5, N + 11, N + 20};
  MPI_Datatype tidx;
  MPI_Type_indexed(4, blens, displs, MPI_INT, &tidx);
  MPI_Type_commit(&tidx);
  MPI_Datatype ovec;
  MPI_Type_vector(8, 1, 2, MPI_INT, &ovec); /* src[0], src[2], ..., src[14] */
  MPI_Type_commit(&ovec);
  MPI_Put(src, 1, ovec, right, 0, 1, tidx, win);
  MPI_Win_fence(0, win);
  int k = 0;
  for (int b = 0; b < 4; b++)
    for (int j = 0; j < 2; j++, k++) {
      int want = 1000 * left + 2 * k;
      CHECK(mem[displs[b] + j] == want, "indexed put: mem[%d] = %d, expected %d", displs[b] + j,
            mem[displs[b] + j], want);
    }
  CHECK(mem[N + 2] == -1, "indexed put wrote a gap: %d", mem[N + 2]);
  /* and read it back through the same two types, from the left neighbour's side */
  int back[N];
  for (int i = 0; i < N; i++)
    back[i] = -3;
  MPI_Get(back, 1, ovec, right, 0, 1, tidx, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 8; i++)
    CHECK(back[2 * i] == 1000 * rank + 2 * i, "indexed get: back[%d] = %d", 2 * i, back[2 * i]);
  CHECK(back[1] == -3, "indexed get wrote a gap");

  /* MPI_PROC_NULL targets are no-ops */
  MPI_Put(src, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win);
  MPI_Get(got, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

  MPI_Type_free(&every_other);
  MPI_Type_free(&tidx);
  MPI_Type_free(&ovec);
  MPI_Win_free(&win);
  CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");
  MPI_Free_mem(mem);
}

/* every rank accumulates into rank 0 with op; want: the expected result */
static void acc_int(int rank, int size, MPI_Win win, int *mem, MPI_Op op, int init,
                    int (*val)(int r), int want, const char *name)
{
  if (rank == 0)
    mem[0] = init;
  MPI_Win_fence(0, win);
  int v = val(rank);
  MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win);
  MPI_Win_fence(0, win);
  if (rank == 0)
    CHECK(mem[0] == want, "accumulate %s: %d, expected %d", name, mem[0], want);
  (void)size;
}

static int v_rank1(int r) { return r + 1; }
static int v_bits(int r) { return 1 << (r % 30); }
static int v_one(int r) { return r == 1; }
static int v_zero(int r)
{
  (void)r;
  return 0;
}

static void test_accumulate(int rank, int size)
{
  int mem[64];
  MPI_Win win;
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  int sum = size * (size + 1) / 2, prod = 1, bits = 0, maxv = size;
  for (int r = 0; r < size; r++) {
    prod *= r + 1;
    bits |= 1 << (r % 30);
  }
  acc_int(rank, size, win, mem, MPI_SUM, 0, v_rank1, sum, "MPI_SUM");
  acc_int(rank, size, win, mem, MPI_PROD, 1, v_rank1, prod, "MPI_PROD");
  acc_int(rank, size, win, mem, MPI_MAX, -5, v_rank1, maxv, "MPI_MAX");
  acc_int(rank, size, win, mem, MPI_MIN, 99, v_rank1, 1, "MPI_MIN");
  acc_int(rank, size, win, mem, MPI_BOR, 0, v_bits, bits, "MPI_BOR");
  acc_int(rank, size, win, mem, MPI_BAND, -1, v_bits, size > 1 ? 0 : 1, "MPI_BAND");
  acc_int(rank, size, win, mem, MPI_BXOR, 0, v_bits, bits, "MPI_BXOR");
  acc_int(rank, size, win, mem, MPI_LOR, 0, v_one, size > 1, "MPI_LOR");
  acc_int(rank, size, win, mem, MPI_LAND, 1, v_one, size == 1 ? 0 : 0, "MPI_LAND");
  acc_int(rank, size, win, mem, MPI_LXOR, 0, v_one, size > 1, "MPI_LXOR");
  acc_int(rank, size, win, mem, MPI_LAND, 1, v_rank1, 1, "MPI_LAND (all true)");
  acc_int(rank, size, win, mem, MPI_SUM, 5, v_zero, 5, "MPI_SUM of zeros");

  /* MPI_REPLACE from one rank */
  if (rank == 0)
    mem[1] = 0;
  MPI_Win_fence(0, win);
  if (rank == size - 1) {
    int v = 4242;
    MPI_Accumulate(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_REPLACE, win);
  }
  MPI_Win_fence(0, win);
  if (rank == 0)
    CHECK(mem[1] == 4242, "MPI_REPLACE: %d", mem[1]);

  /* MPI_MAXLOC / MPI_MINLOC on MPI_2INT pairs at rank 0's mem[2..3] */
  if (rank == 0) {
    mem[2] = -1;
    mem[3] = -1;
  }
  MPI_Win_fence(0, win);
  int pair[2] = {(rank * 7) % size, rank};
  MPI_Accumulate(pair, 1, MPI_2INT, 0, 2, 1, MPI_2INT, MPI_MAXLOC, win);
  MPI_Win_fence(0, win);
  if (rank == 0) {
    int best = -1, at = -1;
    for (int r = 0; r < size; r++)
      if ((r * 7) % size > best)
        best = (r * 7) % size, at = r;
    CHECK(mem[2] == best && mem[3] == at, "MPI_MAXLOC: (%d, %d), expected (%d, %d)", mem[2],
          mem[3], best, at);
  }

  /* doubles, strided on the target (a vector of 4 doubles every other slot) */
  double dmem[8];
  MPI_Win dwin;
  for (int i = 0; i < 8; i++)
    dmem[i] = 0.5;
  MPI_Win_create(dmem, sizeof dmem, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dwin);
  MPI_Datatype dvec;
  MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &dvec);
  MPI_Type_commit(&dvec);
  MPI_Win_fence(0, dwin);
  double dv[4] = {1.0 * rank, 2.0, 0.25, -1.0};
  MPI_Accumulate(dv, 4, MPI_DOUBLE, 0, 0, 1, dvec, MPI_SUM, dwin);
  MPI_Win_fence(0, dwin);
  if (rank == 0) {
    double s = 0.5;
    for (int r = 0; r < size; r++)
      s += r;
    CHECK(dmem[0] == s, "double sum: %g, expected %g", dmem[0], s);
    CHECK(dmem[2] == 0.5 + 2.0 * size, "double sum[2]: %g", dmem[2]);
    CHECK(dmem[4] == 0.5 + 0.25 * size, "double sum[4]: %g", dmem[4]);
    CHECK(dmem[6] == 0.5 - size, "double sum[6]: %g", dmem[6]);
    CHECK(dmem[1] == 0.5 && dmem[7] == 0.5, "gaps changed");
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, dwin);
  MPI_Type_free(&dvec);
  MPI_Win_free(&dwin);

  /* Get_accumulate, Fetch_and_op, Compare_and_swap in fence epochs: a fetch from rank 0
   * sees some partial sum; the final value is the total; NO_OP reads */
  if (rank == 0)
    mem[4] = 0;
  MPI_Win_fence(0, win);
  int one = 1, old = -1;
  MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 4, MPI_SUM, win);
  MPI_Win_fence(0, win);
  CHECK(old >= 0 && old < size, "fetch_and_op: old %d", old);
  int readv = -1;
  MPI_Fetch_and_op(NULL, &readv, MPI_INT, 0, 4, MPI_NO_OP, win);
  int res2[2] = {-1, -1}, add2[2] = {10, 20};
  if (rank == 0) {
    mem[5] = 1;
    mem[6] = 2;
  }
  MPI_Win_fence(0, win);
  CHECK(readv == size, "fetch_and_op MPI_NO_OP read %d, expected %d", readv, size);
  if (rank == size - 1)
    MPI_Get_accumulate(add2, 2, MPI_INT, res2, 2, MPI_INT, 0, 5, 2, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  if (rank == size - 1)
    CHECK(res2[0] == 1 && res2[1] == 2, "get_accumulate result (%d, %d)", res2[0], res2[1]);
  if (rank == 0)
    CHECK(mem[5] == 11 && mem[6] == 22, "get_accumulate target (%d, %d)", mem[5], mem[6]);
  int r2[2];
  MPI_Get_accumulate(NULL, 0, MPI_INT, r2, 2, MPI_INT, 0, 5, 2, MPI_INT, MPI_NO_OP, win);
  MPI_Win_fence(0, win);
  CHECK(r2[0] == 11 && r2[1] == 22, "get_accumulate MPI_NO_OP read (%d, %d)", r2[0], r2[1]);

  /* CAS: everybody tries to swap 0 -> rank+1 at rank 0's mem[7]; exactly one wins */
  if (rank == 0)
    mem[7] = 0;
  MPI_Win_fence(0, win);
  int mine = rank + 1, cmp = 0, was = -1;
  MPI_Compare_and_swap(&mine, &cmp, &was, MPI_INT, 0, 7, win);
  MPI_Win_fence(0, win);
  int won = was == 0;
  int winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(winners == 1, "compare_and_swap: %d winners", winners);
  if (rank == 0)
    CHECK(mem[7] >= 1 && mem[7] <= size, "compare_and_swap value %d", mem[7]);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_free(&win);
}

static void test_attributes(int rank)
{
  char buf[40];
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  void *base;
  MPI_Aint *sz;
  int *du, *flavor, *model, flag;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
  CHECK(flag && base == buf, "MPI_WIN_BASE %p, expected %p", base, (void *)buf);
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag);
  CHECK(flag && *sz == (MPI_Aint)sizeof buf, "MPI_WIN_SIZE %ld", (long)*sz);
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
  CHECK(flag && *du == 4, "MPI_WIN_DISP_UNIT %d", *du);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "MPI_WIN_CREATE_FLAVOR %d", *flavor);
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  CHECK(flag && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE), "MPI_WIN_MODEL %d",
        *model);
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Win_set_name(win, "halo window");
  MPI_Win_get_name(win, name, &len);
  CHECK(len == 11 && !strcmp(name, "halo window"), "name \"%s\" (%d)", name, len);
  MPI_Group g, wg;
  int cmp;
  MPI_Win_get_group(win, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_compare(g, wg, &cmp);
  CHECK(cmp == MPI_IDENT, "window group compares %d", cmp);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  MPI_Info info;
  MPI_Win_get_info(win, &info);
  CHECK(info != MPI_INFO_NULL, "MPI_Win_get_info gave MPI_INFO_NULL");
  MPI_Info_free(&info);
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "false");
  MPI_Win_set_info(win, info);
  MPI_Info_free(&info);
  (void)rank;
  MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  test_put_get(rank, size);
  test_accumulate(rank, size);
  test_attributes(rank);
  return mpitest_finalize();
}
