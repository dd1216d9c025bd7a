/* coll_check.h: data correctness of the blocking collectives, for every algorithm.
 *
 * Included by the coll_data_*.c programs, each of which defines COLL_CHECK_NAME and lists
 * the collectives it covers in COLL_CHECK_LIST. Run with 64 ranks: for every communicator
 * size n in 1..17, 31, 32, 33, 64 the first n ranks of MPI_COMM_WORLD form a communicator
 * (MPI_Comm_split), and on it every collective of the list runs with every algorithm (under
 * smpi: smpi_coll_algorithm_name enumerates them and smpi_coll_force picks each in turn;
 * under another MPI these hooks are absent and the library's choice runs once), for
 * counts of 0, 1, 7, 1000 and 100000 bytes, in up to four variants:
 *
 *   plain      contiguous MPI_CHAR (data movement) or MPI_INT with MPI_SUM (reductions)
 *   strided    a non-contiguous type on one side (an int every 8 bytes, MPI_Type_create_
 *              resized), contiguous ints on the other, so pack and unpack are exercised;
 *              the bytes in the gaps must stay untouched; reductions use it on both sides
 *              with a commutative user op (predefined ops are only defined on predefined
 *              types)
 *   in place   MPI_IN_PLACE wherever the standard allows it
 *   noncomm    reductions only: 2x2 matrix product mod 2^32 as a user op declared
 *              non-commutative, so operands must be combined in rank order
 *
 * Every result is compared with a reference the test computes itself. Blocks of the
 * collectives that move n blocks per rank (allgather, alltoall, reduce_scatter, ...) are
 * capped at 256 KiB / n bytes so that 64 ranks fit in memory and the run stays short; v variants use uneven counts and
 * displacements in reverse order with gaps. Sizes up to 17 run every count in every
 * variant; 31, 32, 33 and 64 run every count plain and the other variants at 1000 bytes
 * (the cost of a run grows with the number of messages, not with their size).
 *
 * No mutable global variables: the program must pass without privatization. Prints
 * "<name>: OK" on success; otherwise the first failures (rank, collective, algorithm,
 * size, count, variant) and exits non-zero. */
#ifndef COLL_CHECK_H
#define COLL_CHECK_H

#include <mpi.h>
#if defined(__GLIBC__) && !defined(malloc) /* SimGrid's smpicc makes malloc a macro */
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hooks of smpi's collective layer (weak: absent under another MPI) */
extern const char *smpi_coll_algorithm_name(const char *coll, int i) __attribute__((weak));
extern int smpi_coll_force(const char *coll, const char *name) __attribute__((weak));

enum { V_PLAIN, V_STRIDED, V_INPLACE, V_NONCOMM, V_COUNT };
static const char *const variant_name[V_COUNT] = {"plain", "strided", "in place", "noncomm"};

typedef struct T {
  MPI_Comm comm;
  int rank, n, wrank;
  const char *coll, *algo;
  int count; /* bytes asked for */
  int variant;
  long failures;
  long calls;
  MPI_Datatype strided; /* one int, extent 8 */
  MPI_Datatype mat;     /* 2x2 unsigned matrix, contiguous */
  MPI_Op matmul;        /* non-commutative */
  MPI_Op ssum;          /* commutative sum over strided ints */
} T;

#define FAIL(t, ...)                                                                       \
  do {                                                                                     \
    if ((t)->failures++ < 10) {                                                            \
      fprintf(stderr, "%s: rank %d: %s/%s n=%d count=%d %s: ", COLL_CHECK_NAME, (t)->rank, \
              (t)->coll, (t)->algo, (t)->n, (t)->count, variant_name[(t)->variant]);       \
      fprintf(stderr, __VA_ARGS__);                                                        \
      fputc('\n', stderr);                                                                 \
    }                                                                                      \
  } while (0)

/* every collective returns its code (the communicator has MPI_ERRORS_RETURN) */
#define RC(t, call)                           \
  do {                                        \
    int rc_ = (call);                         \
    if (rc_ != MPI_SUCCESS) {                 \
      char msg_[MPI_MAX_ERROR_STRING];        \
      int len_ = 0;                           \
      MPI_Error_string(rc_, msg_, &len_);     \
      FAIL(t, "%s returned %s", #call, msg_); \
    }                                         \
  } while (0)

/* ---- values ---- */
static char cval(int r, int i) { return (char)(r * 31 + i * 7 + 1); }
static int ival(int r, int i) { return r * 1000 + i * 3 + 1; }
typedef struct mat2 {
  uint32_t a, b, c, d;
} mat2;
/* depends on i only through i % 4, so a reference costs 4 products per call */
static mat2 mval(int r, int i)
{
  int j = i % 4;
  mat2 m = {(uint32_t)r + 1, (uint32_t)j + 2, (uint32_t)((r * 7 + j) % 5) + 1, 2};
  return m;
}
static mat2 mmul(mat2 x, mat2 y)
{
  mat2 m = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  return m;
}
/* inout = in x inout: in is the left operand (the lower ranks) */
static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)dt;
  mat2 *a = in, *b = inout;
  for (int i = 0; i < *len; i++)
    b[i] = mmul(a[i], b[i]);
}

/* inout += in on ints spaced by the datatype's extent: a commutative user op, because
 * MPI (and MPICH) define the predefined ops on predefined datatypes only */
static void strided_sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  MPI_Aint lb, ext;
  MPI_Type_get_extent(*dt, &lb, &ext);
  int step = (int)(ext / (MPI_Aint)sizeof(int));
  int *a = in, *b = inout;
  for (int i = 0; i < *len; i++)
    b[i * step] += a[i * step];
}

/* ---- buffers: strided ints live every 8 bytes; the other 4 hold a sentinel ---- */
#define GAP 0x5a5a5a5a
static int *ints_alloc(size_t count, int strided)
{
  size_t n = strided ? 2 * count : count;
  int *p = malloc((n ? n : 1) * sizeof(int));
  if (strided) /* contiguous buffers are fully written by the test or the collective */
    for (size_t i = 0; i < n; i++)
      p[i] = GAP;
  return p;
}
static int *int_at(int *p, size_t i, int strided) { return strided ? p + 2 * i : p + i; }
/* checks ints [from, from+count) of p against ival(r, base + k); and the gaps */
static void check_ints(T *t, int *p, size_t from, size_t count, int strided, int r, int base,
                       const char *what)
{
  for (size_t k = 0; k < count; k++) {
    int *v = int_at(p, from + k, strided);
    if (*v != ival(r, base + (int)k)) {
      FAIL(t, "%s: element %zu is %d, expected %d (from rank %d)", what, k, *v,
           ival(r, base + (int)k), r);
      return;
    }
    if (strided && v[1] != GAP) {
      FAIL(t, "%s: gap after element %zu overwritten", what, k);
      return;
    }
  }
}

static int count_of(T *t, int bytes, int is_int)
{
  (void)t;
  if (!is_int)
    return bytes;
  static const int map[][2] = {{0, 0}, {1, 1}, {7, 7}, {1000, 250}, {100000, 25000}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (map[i][0] == bytes)
      return map[i][1];
  return bytes / 4;
}
/* blocks of n-block collectives: at most 256 KiB per rank overall */
static int capped(T *t, int count, int elt)
{
  long cap = (256L << 10) / elt / t->n;
  return count > cap ? (int)cap : count;
}
/* uneven counts for v variants: rank i's block */
static int vcount(int count, int i) { return count == 0 ? 0 : count - (i % 3) * count / 3; }

/* ---- the tests ---- */

static void t_barrier(T *t)
{
  if (t->count || t->variant)
    return;
  RC(t, MPI_Barrier(t->comm));
  t->calls++;
}

static void t_bcast(T *t)
{
  int root = t->n / 3, v = t->variant;
  if (v == V_PLAIN) {
    int cnt = t->count;
    char *b = malloc(cnt ? cnt : 1);
    for (int i = 0; i < cnt; i++)
      b[i] = t->rank == root ? cval(root, i) : 0;
    RC(t, MPI_Bcast(b, cnt, MPI_CHAR, root, t->comm));
    for (int i = 0; i < cnt; i++)
      if (b[i] != cval(root, i)) {
        FAIL(t, "byte %d wrong", i);
        break;
      }
    free(b);
  } else if (v == V_STRIDED) {
    /* the root sends strided ints, the others receive contiguous ints */
    int cnt = count_of(t, t->count, 1), s = t->rank == root;
    int *b = ints_alloc(cnt, s);
    for (int i = 0; s && i < cnt; i++)
      *int_at(b, i, 1) = ival(root, i);
    RC(t, MPI_Bcast(b, cnt, s ? t->strided : MPI_INT, root, t->comm));
    check_ints(t, b, 0, cnt, s, root, 0, "bcast");
    free(b);
  } else {
    return;
  }
  t->calls++;
}

static void t_gather(T *t, int v_variant)
{
  int root = (t->n * 2) / 3, n = t->n, me = t->rank, v = t->variant;
  if (v == V_NONCOMM)
    return;
  int cnt = capped(t, count_of(t, t->count, 1), 8);
  int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
  size_t total = 0;
  for (int i = n - 1; i >= 0; i--) { /* reverse order, with a gap of 1 */
    counts[i] = v_variant ? vcount(cnt, i) : cnt;
    displs[i] = v_variant ? (int)total : i * cnt;
    total += (size_t)counts[i] + (v_variant ? 1 : 0);
  }
  if (!v_variant)
    total = (size_t)n * cnt;
  int mycnt = counts[me];
  int rs = v == V_STRIDED; /* the root receives strided */
  int *s = ints_alloc(mycnt, 0), *r = ints_alloc(total, rs);
  for (int i = 0; i < mycnt; i++)
    s[i] = ival(me, i);
  const void *sb = s;
  if (v == V_INPLACE && me == root) {
    for (int i = 0; i < mycnt; i++)
      *int_at(r, displs[me] + i, rs) = ival(me, i);
    sb = MPI_IN_PLACE;
  }
  MPI_Datatype rt = rs ? t->strided : MPI_INT;
  if (v_variant)
    RC(t, MPI_Gatherv(sb, mycnt, MPI_INT, r, counts, displs, rt, root, t->comm));
  else
    RC(t, MPI_Gather(sb, mycnt, MPI_INT, r, cnt, rt, root, t->comm));
  if (me == root)
    for (int i = 0; i < n; i++)
      check_ints(t, r, displs[i], counts[i], rs, i, 0, "gathered block");
  free(s);
  free(r);
  free(counts);
  free(displs);
  t->calls++;
}

static void t_scatter(T *t, int v_variant)
{
  int root = t->n - 1, n = t->n, me = t->rank, v = t->variant;
  if (v == V_NONCOMM)
    return;
  int cnt = capped(t, count_of(t, t->count, 1), 8);
  int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
  size_t total = 0;
  for (int i = n - 1; i >= 0; i--) {
    counts[i] = v_variant ? vcount(cnt, i) : cnt;
    displs[i] = v_variant ? (int)total : i * cnt;
    total += (size_t)counts[i] + (v_variant ? 1 : 0);
  }
  if (!v_variant)
    total = (size_t)n * cnt;
  int ss = v == V_STRIDED; /* the root sends strided */
  int *s = ints_alloc(total, ss), *r = ints_alloc(counts[me], 0);
  if (me == root)
    for (int i = 0; i < n; i++)
      for (int k = 0; k < counts[i]; k++)
        *int_at(s, displs[i] + k, ss) = ival(i, k);
  void *rb = r;
  if (v == V_INPLACE && me == root)
    rb = MPI_IN_PLACE;
  MPI_Datatype st = ss ? t->strided : MPI_INT;
  if (v_variant)
    RC(t, MPI_Scatterv(s, counts, displs, st, rb, counts[me], MPI_INT, root, t->comm));
  else
    RC(t, MPI_Scatter(s, cnt, st, rb, cnt, MPI_INT, root, t->comm));
  if (rb == MPI_IN_PLACE)
    check_ints(t, s, displs[me], counts[me], ss, me, 0, "root's own block");
  else
    check_ints(t, r, 0, counts[me], 0, me, 0, "scattered block");
  free(s);
  free(r);
  free(counts);
  free(displs);
  t->calls++;
}

static void t_allgather(T *t, int v_variant)
{
  int n = t->n, me = t->rank, v = t->variant;
  if (v == V_NONCOMM)
    return;
  int cnt = capped(t, count_of(t, t->count, 1), 8);
  int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
  size_t total = 0;
  for (int i = n - 1; i >= 0; i--) {
    counts[i] = v_variant ? vcount(cnt, i) : cnt;
    displs[i] = v_variant ? (int)total : i * cnt;
    total += (size_t)counts[i] + (v_variant ? 1 : 0);
  }
  if (!v_variant)
    total = (size_t)n * cnt;
  int rs = v == V_STRIDED;
  int *s = ints_alloc(counts[me], 0), *r = ints_alloc(total, rs);
  for (int i = 0; i < counts[me]; i++)
    s[i] = ival(me, i);
  const void *sb = s;
  if (v == V_INPLACE) {
    for (int i = 0; i < counts[me]; i++)
      *int_at(r, displs[me] + i, rs) = ival(me, i);
    sb = MPI_IN_PLACE;
  }
  MPI_Datatype rt = rs ? t->strided : MPI_INT;
  if (v_variant)
    RC(t, MPI_Allgatherv(sb, counts[me], MPI_INT, r, counts, displs, rt, t->comm));
  else
    RC(t, MPI_Allgather(sb, cnt, MPI_INT, r, cnt, rt, t->comm));
  for (int i = 0; i < n; i++)
    check_ints(t, r, displs[i], counts[i], rs, i, 0, "gathered block");
  free(s);
  free(r);
  free(counts);
  free(displs);
  t->calls++;
}

/* alltoall(v,w): the block from i to j holds ival(i, j * 1000 + k) */
static int a2a_count(int cnt, int from, int to, int v_variant)
{
  return v_variant ? vcount(cnt, from + 2 * to) : cnt;
}

static void t_alltoall(T *t, int kind) /* 0: alltoall, 1: v, 2: w */
{
  int n = t->n, me = t->rank, v = t->variant;
  if (v == V_NONCOMM)
    return;
  int cnt = capped(t, count_of(t, t->count, 1), 8);
  if (cnt > 999)
    cnt = 999; /* keeps the per-block value bases distinct */
  int vv = kind > 0;
  int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int));
  int *rc = malloc(n * sizeof(int)), *rd = malloc(n * sizeof(int));
  int *swd = malloc(n * sizeof(int)), *rwd = malloc(n * sizeof(int));
  MPI_Datatype *st = malloc(n * sizeof(MPI_Datatype)), *rt = malloc(n * sizeof(MPI_Datatype));
  size_t stot = 0, rtot = 0;
  for (int i = n - 1; i >= 0; i--) {
    sc[i] = a2a_count(cnt, me, i, vv);
    rc[i] = a2a_count(cnt, i, me, vv);
    sd[i] = vv ? (int)stot : i * cnt;
    rd[i] = vv ? (int)rtot : i * cnt;
    stot += (size_t)sc[i] + (vv ? 1 : 0);
    rtot += (size_t)rc[i] + (vv ? 1 : 0);
  }
  if (!vv)
    stot = rtot = (size_t)n * cnt;
  int inplace = v == V_INPLACE;
  if (inplace) { /* in place, the send layout is the receive layout */
    for (int i = 0; i < n; i++) {
      sc[i] = rc[i];
      sd[i] = rd[i];
    }
    if (vv) { /* which needs symmetric counts */
      for (int i = 0; i < n; i++)
        sc[i] = rc[i] = a2a_count(cnt, i < me ? i : me, i < me ? me : i, 1);
      rtot = 0;
      for (int i = n - 1; i >= 0; i--) {
        sd[i] = rd[i] = (int)rtot;
        rtot += (size_t)rc[i] + 1;
      }
      stot = rtot;
    }
  }
  /* strided: the sender uses the strided type for even peers in the w variant, everywhere
   * otherwise; the receiver contiguous ints */
  int ss = v == V_STRIDED;
  int *s = ints_alloc(stot, ss), *r = ints_alloc(rtot, 0);
  for (int i = 0; i < n; i++) {
    int sstr = ss && (kind != 2 || i % 2 == 0);
    st[i] = sstr ? t->strided : MPI_INT;
    rt[i] = MPI_INT;
    swd[i] = sd[i] * (int)(ss ? 8 : 4);
    rwd[i] = rd[i] * 4;
    for (int k = 0; k < sc[i]; k++)
      *int_at(inplace ? r : s, sd[i] + k, ss) = ival(me, i * 1000 + k);
  }
  if (kind == 2 && ss) /* a strided block every 8 bytes, contiguous ones too */
    for (int i = 0; i < n; i++)
      if (i % 2)
        for (int k = 0; k < sc[i]; k++) { /* contiguous ints at the same byte offset */
          int *base = (int *)((char *)s + swd[i]);
          base[k] = ival(me, i * 1000 + k);
        }
  const void *sb = inplace ? MPI_IN_PLACE : s;
  if (kind == 0)
    RC(t, MPI_Alltoall(sb, cnt, ss ? t->strided : MPI_INT, r, cnt, MPI_INT, t->comm));
  else if (kind == 1)
    RC(t, MPI_Alltoallv(sb, sc, sd, ss ? t->strided : MPI_INT, r, rc, rd, MPI_INT, t->comm));
  else
    RC(t, MPI_Alltoallw(sb, sc, swd, st, r, rc, rwd, rt, t->comm));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < rc[i]; k++)
      if (r[rd[i] + k] != ival(i, me * 1000 + k)) {
        FAIL(t, "block from rank %d, element %d is %d, expected %d", i, k, r[rd[i] + k],
             ival(i, me * 1000 + k));
        i = n;
        break;
      }
  free(s);
  free(r);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(swd);
  free(rwd);
  free(st);
  free(rt);
  t->calls++;
}

/* ---- reductions ---- */
/* rank r's vector: element i (a form whose sum over ranks has a closed form) */
static int red_ival(int r, int i) { return 3 * (r + 1) + i % 1000; }

/* reference: sum / product over ranks [lo, hi] of element i */
static int ref_sum(int lo, int hi, int i)
{
  int k = hi - lo + 1; /* 3 * sum(r + 1) + k * (i % 1000) */
  return 3 * (hi + 1 + lo + 1) * k / 2 + k * (i % 1000);
}
static mat2 ref_prod(int lo, int hi, int i)
{
  mat2 m = mval(lo, i);
  for (int r = lo + 1; r <= hi; r++)
    m = mmul(m, mval(r, i));
  return m;
}

/* kind: 0 reduce, 1 allreduce, 2 scan, 3 exscan, 4 reduce_scatter, 5 reduce_scatter_block */
static void t_reduce(T *t, int kind)
{
  int n = t->n, me = t->rank, v = t->variant, root = n / 2;
  int nb = kind >= 4; /* n blocks */
  int cnt = count_of(t, t->count, 1);
  if (v == V_NONCOMM)
    cnt = t->count == 100000 ? 6250 : t->count / 16 > 0 ? t->count / 16 : t->count;
  if (nb)
    cnt = capped(t, cnt, v == V_NONCOMM ? 16 : 8);
  int *counts = malloc(n * sizeof(int));
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    counts[i] = kind == 4 ? vcount(cnt, i) : cnt;
    total += (size_t)counts[i];
  }
  if (!nb)
    total = (size_t)cnt;
  size_t myoff = 0;
  for (int i = 0; i < me; i++)
    myoff += (size_t)counts[i];
  size_t rcnt = nb ? (size_t)counts[me] : total; /* result elements */
  int inplace = v == V_INPLACE && (kind != 0 || me == root);
#ifdef MPICH_VERSION
  /* Debian's MPICH 4.0.2 (ch4:ucx) dereferences MPI_IN_PLACE in an in-place MPI_Reduce of
   * 64 KiB or more at a non-zero root (segmentation fault at 0xffffffffffffffff) */
  if (v == V_INPLACE && kind == 0 && root != 0 && total * 4 >= 65536)
    return;
#endif
  int is_mat = v == V_NONCOMM, str = v == V_STRIDED;
  size_t esz = is_mat ? sizeof(mat2) : str ? 8 : 4;
  char *s = malloc(total * esz + 1), *r = malloc((inplace ? total : rcnt) * esz + 1);
  memset(r, 0x5a, (inplace ? total : rcnt) * esz + 1);
  char *in = inplace ? r : s;
  for (size_t i = 0; i < total; i++) {
    if (is_mat)
      ((mat2 *)in)[i] = mval(me, (int)i);
    else if (str)
      ((int *)in)[2 * i] = red_ival(me, (int)i);
    else
      ((int *)in)[i] = red_ival(me, (int)i);
  }
  MPI_Datatype dt = is_mat ? t->mat : str ? t->strided : MPI_INT;
  MPI_Op op = is_mat ? t->matmul : str ? t->ssum : MPI_SUM;
  const void *sb = inplace ? MPI_IN_PLACE : s;
  switch (kind) {
  case 0:
    RC(t, MPI_Reduce(sb, r, (int)total, dt, op, root, t->comm));
    break;
  case 1:
    RC(t, MPI_Allreduce(sb, r, (int)total, dt, op, t->comm));
    break;
  case 2:
    RC(t, MPI_Scan(sb, r, (int)total, dt, op, t->comm));
    break;
  case 3:
    RC(t, MPI_Exscan(sb, r, (int)total, dt, op, t->comm));
    break;
  case 4:
    RC(t, MPI_Reduce_scatter(sb, r, counts, dt, op, t->comm));
    break;
  default:
    RC(t, MPI_Reduce_scatter_block(sb, r, cnt, dt, op, t->comm));
    break;
  }
  int lo = 0, hi = n - 1;
  if (kind == 2)
    hi = me;
  if (kind == 3)
    hi = me - 1;
  int check = (kind != 0 || me == root) && hi >= lo;
  mat2 prods[4];
  if (is_mat && check)
    for (int j = 0; j < 4; j++)
      prods[j] = ref_prod(lo, hi, j);
  for (size_t k = 0; check && k < rcnt; k++) {
    int i = (int)(nb ? myoff + k : k);
    if (is_mat) {
      mat2 got = ((mat2 *)r)[k], want = prods[i % 4];
      if (memcmp(&got, &want, sizeof got)) {
        FAIL(t, "element %d: matrix product out of order or wrong", i);
        break;
      }
    } else {
      int got = str ? ((int *)r)[2 * k] : ((int *)r)[k], want = ref_sum(lo, hi, i);
      if (got != want) {
        FAIL(t, "element %d is %d, expected %d", i, got, want);
        break;
      }
      if (str && !inplace && ((int *)r)[2 * k + 1] != GAP) {
        FAIL(t, "gap after element %zu overwritten", k);
        break;
      }
    }
  }
  free(s);
  free(r);
  free(counts);
  t->calls++;
}

static void run_one(T *t)
{
  const char *c = t->coll;
  if (!strcmp(c, "barrier"))
    t_barrier(t);
  else if (!strcmp(c, "bcast"))
    t_bcast(t);
  else if (!strcmp(c, "gather"))
    t_gather(t, 0);
  else if (!strcmp(c, "gatherv"))
    t_gather(t, 1);
  else if (!strcmp(c, "scatter"))
    t_scatter(t, 0);
  else if (!strcmp(c, "scatterv"))
    t_scatter(t, 1);
  else if (!strcmp(c, "allgather"))
    t_allgather(t, 0);
  else if (!strcmp(c, "allgatherv"))
    t_allgather(t, 1);
  else if (!strcmp(c, "alltoall"))
    t_alltoall(t, 0);
  else if (!strcmp(c, "alltoallv"))
    t_alltoall(t, 1);
  else if (!strcmp(c, "alltoallw"))
    t_alltoall(t, 2);
  else if (!strcmp(c, "reduce"))
    t_reduce(t, 0);
  else if (!strcmp(c, "allreduce"))
    t_reduce(t, 1);
  else if (!strcmp(c, "scan"))
    t_reduce(t, 2);
  else if (!strcmp(c, "exscan"))
    t_reduce(t, 3);
  else if (!strcmp(c, "reduce_scatter"))
    t_reduce(t, 4);
  else if (!strcmp(c, "reduce_scatter_block"))
    t_reduce(t, 5);
  else {
    fprintf(stderr, "%s: unknown collective %s\n", COLL_CHECK_NAME, c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

static const int comm_sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                 12, 13, 14, 15, 16, 17, 31, 32, 33, 64};
static const int byte_counts[] = {0, 1, 7, 1000, 100000};

static int coll_check_main(int argc, char **argv)
{
  static const char *const colls[] = {COLL_CHECK_LIST};
  int ncolls = (int)(sizeof colls / sizeof colls[0]);
#if defined(__GLIBC__) && !defined(malloc) /* SimGrid's smpicc makes malloc a macro */
  /* the large buffers come and go at every call: keep them in the heap instead of
   * mapping fresh zeroed pages each time (most of the run time otherwise) */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  MPI_Init(&argc, &argv);
  T t;
  memset(&t, 0, sizeof t);
  int wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &t.wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  MPI_Type_create_resized(MPI_INT, 0, 8, &t.strided);
  MPI_Type_commit(&t.strided);
  MPI_Type_contiguous(4, MPI_UNSIGNED, &t.mat);
  MPI_Type_commit(&t.mat);
  MPI_Op_create(matmul_fn, 0, &t.matmul);
  MPI_Op_create(strided_sum_fn, 1, &t.ssum);
  /* MAXN=<n> on the command line limits the sizes (quick runs by hand) */
  int maxn = wsize;
  for (int a = 1; a < argc; a++)
    if (!strncmp(argv[a], "MAXN=", 5))
      maxn = atoi(argv[a] + 5);
  for (size_t si = 0; si < sizeof comm_sizes / sizeof comm_sizes[0]; si++) {
    int n = comm_sizes[si];
    if (n > wsize || n > maxn)
      break;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, t.wrank < n ? 0 : MPI_UNDEFINED, t.wrank, &comm);
    if (comm == MPI_COMM_NULL)
      continue;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    t.comm = comm;
    t.n = n;
    MPI_Comm_rank(comm, &t.rank);
    for (int ci = 0; ci < ncolls; ci++) {
      t.coll = colls[ci];
      /* every algorithm, then what each selector picks (with the segment sizes it asks
       * for) */
      static const char *const selectors[] = {"default", "mpich", "ompi", "mvapich2", NULL};
      int nalgos = -1;
      for (int ai = 0;; ai++) {
        const char *algo = smpi_coll_algorithm_name ? smpi_coll_algorithm_name(t.coll, ai)
                                                    : (ai == 0 ? "native" : NULL);
        if (!algo && smpi_coll_algorithm_name) {
          if (nalgos < 0)
            nalgos = ai;
          algo = selectors[ai - nalgos];
        }
        if (!algo)
          break;
#ifdef COLL_CHECK_ONLY_PREFIX /* a program that only checks some algorithms */
        if (strncmp(algo, COLL_CHECK_ONLY_PREFIX, strlen(COLL_CHECK_ONLY_PREFIX)))
          continue;
#endif
#ifdef COLL_CHECK_ONLY /* the same, by a predicate on the name */
        if (!COLL_CHECK_ONLY(algo))
          continue;
#endif
        t.algo = algo;
        if (smpi_coll_force)
          smpi_coll_force(t.coll, algo);
        for (size_t bi = 0; bi < sizeof byte_counts / sizeof byte_counts[0]; bi++) {
          t.count = byte_counts[bi];
          for (t.variant = 0; t.variant < V_COUNT; t.variant++)
            if (n <= 17 || t.variant == V_PLAIN || t.count == 1000)
              run_one(&t);
        }
        if (smpi_coll_force)
          smpi_coll_force(t.coll, NULL);
      }
    }
    MPI_Comm_free(&comm);
  }
  long fails = 0, calls = 0;
  MPI_Allreduce(&t.failures, &fails, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(&t.calls, &calls, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Op_free(&t.matmul);
  MPI_Op_free(&t.ssum);
  MPI_Type_free(&t.mat);
  MPI_Type_free(&t.strided);
  if (t.wrank == 0) {
    if (fails)
      fprintf(stderr, "%s: %ld failed checks\n", COLL_CHECK_NAME, fails);
    else
      printf("%s: OK\n", COLL_CHECK_NAME);
  }
  MPI_Finalize();
  return fails ? 1 : 0;
}

#endif
