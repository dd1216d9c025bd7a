/* datatypes: derived datatypes through the MPI API, rank-local (no communication):
 * bounds of predefined and struct types (the numbers MPICH gives on x86-64), pack/unpack of
 * every constructor against hand-computed layouts, resized/dup, envelopes and contents,
 * subarray and darray against a brute-force reference (this rank's darray in a grid of all
 * ranks), addresses of separate variables, Get_elements/Get_count, external32, names,
 * and the error classes of bad arguments under MPI_ERRORS_RETURN. Any number of ranks.
 * No mutable global variables but mpitest.h's failure counter: it must pass without
 * privatization (smpi/privatization:no), where all ranks share the program's globals. */
#define MPITEST_NAME "datatypes"
#include "mpitest.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
  int rank, size;
} ctx;

static void bounds(ctx *C, MPI_Datatype t, const char *what, long size_, long lb, long extent,
                   long tlb, long textent)
{
  int s;
  MPI_Aint l, e, tl, te;
  MPI_Count sx, lx, ex, tlx, tex;
  MPI_Type_size(t, &s);
  MPI_Type_get_extent(t, &l, &e);
  MPI_Type_get_true_extent(t, &tl, &te);
  CHECK(s == size_ && l == lb && e == extent && tl == tlb && te == textent,
        "%s: size %d lb %ld extent %ld true lb %ld true extent %ld; expected %ld %ld %ld %ld %ld",
        what, s, (long)l, (long)e, (long)tl, (long)te, size_, lb, extent, tlb, textent);
  MPI_Type_size_x(t, &sx);
  MPI_Type_get_extent_x(t, &lx, &ex);
  MPI_Type_get_true_extent_x(t, &tlx, &tex);
  CHECK(sx == s && lx == l && ex == e && tlx == tl && tex == te, "%s: _x variants differ", what);
}

/* packs one element of t from a byte array whose byte i (from base) holds i + 64, then
 * checks the packed bytes name exactly `offs`, and that MPI_Unpack puts them back there */
static void layout(ctx *C, MPI_Datatype t, int count, const char *what, const int *offs, int n)
{
  unsigned char arena[1024];
  for (int i = 0; i < (int)sizeof arena; i++)
    arena[i] = (unsigned char)(i - 512 + 64);
  int psize;
  MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize);
  CHECK(psize >= n, "%s: MPI_Pack_size %d < %d", what, psize, n);
  unsigned char packed[512];
  int pos = 0;
  MPI_Pack(arena + 512, count, t, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD);
  CHECK(pos == n, "%s: packed %d bytes, expected %d", what, pos, n);
  for (int i = 0; i < n && i < pos; i++)
    CHECK(packed[i] == (unsigned char)(offs[i] + 64),
          "%s: packed byte %d is from offset %d, "
          "expected %d",
          what, i, (int)packed[i] - 64, offs[i]);
  unsigned char back[1024];
  memset(back, 0, sizeof back);
  pos = 0;
  MPI_Unpack(packed, n, &pos, back + 512, count, t, MPI_COMM_WORLD);
  CHECK(pos == n, "%s: unpacked %d bytes", what, pos);
  for (int i = 0; i < n; i++)
    CHECK(back[512 + offs[i]] == packed[i], "%s: byte %d not unpacked at offset %d", what, i,
          offs[i]);
}

/* offsets of n runs of len bytes */
static int runs(int *out, int len, int n, const int *starts)
{
  int k = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < len; j++)
      out[k++] = starts[i] + j;
  return k;
}

static void test_predefined(ctx *C)
{
  bounds(C, MPI_INT, "MPI_INT", 4, 0, 4, 0, 4);
  bounds(C, MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 0, 16, 0, 12);
  bounds(C, MPI_SHORT_INT, "MPI_SHORT_INT", 6, 0, 8, 0, 8);
  bounds(C, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 20, 0, 32, 0, 20);
  bounds(C, MPI_2INT, "MPI_2INT", 8, 0, 8, 0, 8);
  bounds(C, MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 0, 8, 0, 8);
  bounds(C, MPI_LONG_INT, "MPI_LONG_INT", 12, 0, 16, 0, 12);
  bounds(C, MPI_LOGICAL, "MPI_LOGICAL", 4, 0, 4, 0, 4);
  bounds(C, MPI_COMPLEX, "MPI_COMPLEX", 8, 0, 8, 0, 8);
  bounds(C, MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 0, 8, 0, 8);
  bounds(C, MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 0, 16, 0, 16);
  bounds(C, MPI_PACKED, "MPI_PACKED", 1, 0, 1, 0, 1);
  bounds(C, MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32, 0, 32, 0, 32);
  int ni, na, nd, comb;
  MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_NAMED && ni + na + nd == 0, "MPI_DOUBLE envelope %d", comb);
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Type_get_name(MPI_DOUBLE, name, &len);
  CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE: '%s'", name);
  MPI_Datatype m;
  MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
  CHECK(m == MPI_REAL8, "match_size(real, 8)");
  MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &m);
  CHECK(m == MPI_INTEGER4, "match_size(integer, 4)");
}

static void test_constructors(ctx *C)
{
  int offs[256], n;
  MPI_Datatype t;

  MPI_Type_contiguous(3, MPI_SHORT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "contiguous", 6, 0, 6, 0, 6);
  for (int i = 0; i < 12; i++)
    offs[i] = i;
  layout(C, t, 2, "contiguous x2", offs, 12);
  MPI_Type_free(&t);
  CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not reset the handle");

  MPI_Type_vector(3, 2, 4, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "vector(3,2,4,int)", 24, 0, 40, 0, 40);
  n = runs(offs, 4, 12, (int[]){0, 4, 16, 20, 32, 36, 40, 44, 56, 60, 72, 76});
  layout(C, t, 2, "vector x2", offs, n);
  MPI_Type_free(&t);

  MPI_Type_vector(3, 1, -2, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "vector stride -2", 12, -16, 20, -16, 20);
  n = runs(offs, 4, 3, (int[]){0, -8, -16});
  layout(C, t, 1, "vector stride -2", offs, n);
  MPI_Type_free(&t);

  MPI_Type_create_hvector(2, 3, 11, MPI_CHAR, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "hvector", 6, 0, 14, 0, 14);
  layout(C, t, 1, "hvector", (int[]){0, 1, 2, 11, 12, 13}, 6);
  MPI_Type_free(&t);

  MPI_Type_indexed(3, (int[]){2, 1, 3}, (int[]){5, 0, 9}, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "indexed", 24, 0, 48, 0, 48);
  n = runs(offs, 4, 6, (int[]){20, 24, 0, 36, 40, 44});
  layout(C, t, 1, "indexed", offs, n);
  MPI_Type_free(&t);

  MPI_Type_create_hindexed(3, (int[]){2, 1, 3}, (MPI_Aint[]){10, -3, 30}, MPI_SHORT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "hindexed", 12, -3, 39, -3, 39);
  layout(C, t, 1, "hindexed", (int[]){10, 11, 12, 13, -3, -2, 30, 31, 32, 33, 34, 35}, 12);
  MPI_Type_free(&t);

  MPI_Type_create_indexed_block(3, 2, (int[]){4, 0, 2}, MPI_SHORT, &t);
  MPI_Type_commit(&t);
  layout(C, t, 1, "indexed_block", (int[]){8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7}, 12);
  MPI_Type_free(&t);

  MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]){7, 1}, MPI_SHORT, &t);
  MPI_Type_commit(&t);
  bounds(C, t, "hindexed_block", 4, 1, 8, 1, 8);
  layout(C, t, 1, "hindexed_block", (int[]){7, 8, 1, 2}, 4);
  MPI_Type_free(&t);
}

static MPI_Datatype mkstruct(int n, const MPI_Aint *d, const MPI_Datatype *ty)
{
  int bl[4] = {1, 1, 1, 1};
  MPI_Datatype t;
  MPI_Type_create_struct(n, bl, d, ty, &t);
  return t;
}

static void test_structs(ctx *C)
{
  MPI_Datatype t, c;
  t = mkstruct(2, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR});
  bounds(C, t, "struct {double, char}", 9, 0, 16, 0, 9);
  MPI_Type_contiguous(2, t, &c);
  MPI_Type_commit(&c);
  bounds(C, c, "contiguous(2, struct)", 18, 0, 32, 0, 25);
  int offs[32];
  int n = runs(offs, 9, 2, (int[]){0, 16});
  layout(C, c, 1, "contiguous(2, struct)", offs, n);
  MPI_Type_free(&c);
  MPI_Type_free(&t);

  t = mkstruct(2, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_INT, MPI_CHAR});
  bounds(C, t, "struct {int, char}", 5, 0, 8, 0, 5);
  MPI_Type_free(&t);
  t = mkstruct(2, (MPI_Aint[]){-3, 8}, (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR});
  bounds(C, t, "struct {double@-3, char@8}", 9, -3, 16, -3, 12);
  MPI_Type_free(&t);
  t = mkstruct(2, (MPI_Aint[]){0, 16}, (MPI_Datatype[]){MPI_LONG_DOUBLE, MPI_CHAR});
  bounds(C, t, "struct {long double, char}", 17, 0, 32, 0, 17);
  MPI_Type_free(&t);
  t = mkstruct(2, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_2INT, MPI_CHAR});
  bounds(C, t, "struct {2int, char}", 9, 0, 12, 0, 9);
  MPI_Type_free(&t);
  t = mkstruct(3, (MPI_Aint[]){0, 8, 13}, (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR, MPI_UB});
  bounds(C, t, "struct with MPI_UB", 9, 0, 13, 0, 9);
  MPI_Type_free(&t);
  t = mkstruct(3, (MPI_Aint[]){-4, 0, 8}, (MPI_Datatype[]){MPI_LB, MPI_DOUBLE, MPI_CHAR});
  bounds(C, t, "struct with MPI_LB", 9, -4, 20, 0, 9);
  MPI_Type_free(&t);

  /* a real C struct round trip, 3 elements */
  struct rec {
    char tag;
    double x[2];
    short s;
  } in[3], out[3];
  int bl[3] = {1, 2, 1};
  MPI_Aint d[3] = {offsetof(struct rec, tag), offsetof(struct rec, x), offsetof(struct rec, s)};
  MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
  MPI_Type_create_struct(3, bl, d, ty, &t);
  MPI_Type_commit(&t);
  MPI_Aint lb, ext;
  MPI_Type_get_extent(t, &lb, &ext);
  CHECK(lb == 0 && ext == sizeof(struct rec), "struct rec extent %ld", (long)ext);
  for (int i = 0; i < 3; i++) {
    in[i].tag = (char)('a' + i);
    in[i].x[0] = i + 0.25;
    in[i].x[1] = -i;
    in[i].s = (short)(7 * i);
  }
  memset(out, 0, sizeof out);
  char packed[64];
  int pos = 0;
  MPI_Pack(in, 3, t, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD);
  CHECK(pos == 57, "struct rec packs to %d bytes", pos);
  pos = 0;
  MPI_Unpack(packed, 57, &pos, out, 3, t, MPI_COMM_WORLD);
  for (int i = 0; i < 3; i++)
    CHECK(out[i].tag == in[i].tag && out[i].x[0] == in[i].x[0] && out[i].x[1] == in[i].x[1] &&
              out[i].s == in[i].s,
          "struct rec %d", i);
  MPI_Type_free(&t);

  /* addresses: a struct of two separate variables, displacements from the first one
   * (MPICH refuses MPI_BOTTOM as a pack buffer, so the test does not use it) */
  int a = 11;
  double b = 2.5;
  MPI_Aint aa, ab;
  MPI_Get_address(&a, &aa);
  MPI_Get_address(&b, &ab);
  CHECK(MPI_Aint_diff(ab, aa) == (char *)&b - (char *)&a, "MPI_Aint_diff");
  CHECK(MPI_Aint_add(aa, 8) == aa + 8, "MPI_Aint_add");
  MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, MPI_Aint_diff(ab, aa)},
                         (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
  MPI_Type_commit(&t);
  pos = 0;
  MPI_Pack(&a, 1, t, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD);
  int av;
  double bv;
  memcpy(&av, packed, 4);
  memcpy(&bv, packed + 4, 8);
  CHECK(pos == 12 && av == 11 && bv == 2.5, "pack of separate variables: %d %g", av, bv);
  a = 0;
  b = 0;
  pos = 0;
  MPI_Unpack(packed, 12, &pos, &a, 1, t, MPI_COMM_WORLD);
  CHECK(a == 11 && b == 2.5, "unpack into separate variables");
  MPI_Type_free(&t);
}

static void test_resized_dup_free(ctx *C)
{
  MPI_Datatype r, c, d, v;
  MPI_Type_create_resized(MPI_INT, -2, 10, &r);
  bounds(C, r, "resized int", 4, -2, 10, 0, 4);
  MPI_Type_contiguous(2, r, &c);
  MPI_Type_commit(&c);
  bounds(C, c, "contiguous(2, resized)", 8, -2, 20, 0, 14);
  layout(C, c, 1, "contiguous(2, resized)", (int[]){0, 1, 2, 3, 10, 11, 12, 13}, 8);
  MPI_Type_dup(c, &d);
  bounds(C, d, "dup", 8, -2, 20, 0, 14);
  layout(C, d, 1, "dup (committed like its original)", (int[]){0, 1, 2, 3, 10, 11, 12, 13}, 8);
  int ni, na, nd, comb;
  MPI_Type_get_envelope(d, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1, "dup envelope");
  MPI_Type_free(&d);

  /* freeing a type used by another does not break the other */
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  MPI_Type_contiguous(2, v, &d);
  MPI_Type_free(&v);
  MPI_Type_commit(&d);
  int offs[16];
  int n = runs(offs, 4, 4, (int[]){0, 8, 12, 20});
  layout(C, d, 1, "contiguous of a freed vector", offs, n);
  MPI_Type_free(&d);
  MPI_Type_free(&c);
  MPI_Type_free(&r);
}

static void test_contents(ctx *C)
{
  int ints[16];
  MPI_Aint addrs[4];
  MPI_Datatype types[4], v, h, s;
  int ni, na, nd, comb;
  MPI_Type_vector(3, 2, 4, MPI_INT, &v);
  MPI_Type_get_envelope(v, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "vector envelope");
  MPI_Type_get_contents(v, 3, 0, 1, ints, addrs, types);
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && types[0] == MPI_INT, "vector contents");

  MPI_Type_create_hvector(2, 1, 100, v, &h);
  MPI_Type_get_envelope(h, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1, "hvector envelope");
  MPI_Type_get_contents(h, 2, 1, 1, ints, addrs, types);
  CHECK(ints[0] == 2 && ints[1] == 1 && addrs[0] == 100, "hvector contents");
  /* a derived inner type comes back as a type the caller must free */
  int sz;
  MPI_Type_size(types[0], &sz);
  CHECK(sz == 24, "inner type size %d", sz);
  MPI_Type_get_envelope(types[0], &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_VECTOR, "inner type combiner %d", comb);
  MPI_Type_free(&types[0]);

  MPI_Type_create_struct(3, (int[]){2, 1, 1}, (MPI_Aint[]){0, 8, 40},
                         (MPI_Datatype[]){MPI_INT, v, MPI_UB}, &s);
  MPI_Type_get_envelope(s, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3, "struct envelope");
  MPI_Type_get_contents(s, 4, 3, 3, ints, addrs, types);
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 1 && ints[3] == 1 && addrs[1] == 8 &&
            addrs[2] == 40 && types[0] == MPI_INT && types[2] == MPI_UB,
        "struct contents");
  MPI_Type_free(&types[1]);

  MPI_Datatype sub;
  MPI_Type_create_subarray(2, (int[]){4, 6}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_C,
                           MPI_DOUBLE, &sub);
  MPI_Type_get_envelope(sub, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nd == 1, "subarray envelope");
  MPI_Type_get_contents(sub, 8, 0, 1, ints, addrs, types);
  CHECK(ints[0] == 2 && ints[1] == 4 && ints[2] == 6 && ints[3] == 2 && ints[4] == 3 &&
            ints[5] == 1 && ints[6] == 2 && ints[7] == MPI_ORDER_C && types[0] == MPI_DOUBLE,
        "subarray contents");

  MPI_Datatype r;
  MPI_Type_create_resized(v, -8, 100, &r);
  MPI_Type_get_envelope(r, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized envelope");
  MPI_Type_get_contents(r, 0, 2, 1, ints, addrs, types);
  CHECK(addrs[0] == -8 && addrs[1] == 100, "resized contents");
  MPI_Type_free(&types[0]);

  MPI_Type_free(&r);
  MPI_Type_free(&sub);
  MPI_Type_free(&s);
  MPI_Type_free(&h);
  MPI_Type_free(&v);
}

/* ---- arrays: brute force references ---- */

static long linear(int n, const int *idx, const int *sizes, int order)
{
  long l = 0;
  if (order == MPI_ORDER_C)
    for (int d = 0; d < n; d++)
      l = l * sizes[d] + idx[d];
  else
    for (int d = n - 1; d >= 0; d--)
      l = l * sizes[d] + idx[d];
  return l;
}

static int next_index(int n, int *idx, const int *sizes, int order)
{
  for (int k = 0; k < n; k++) {
    int d = order == MPI_ORDER_C ? n - 1 - k : k;
    if (++idx[d] < sizes[d])
      return 1;
    idx[d] = 0;
  }
  return 0;
}

static void check_int_layout(ctx *C, MPI_Datatype t, const char *what, long total,
                             const long *expect, int n)
{
  int *a = malloc(total * sizeof *a), *out = malloc((n + 1) * sizeof *out);
  for (long i = 0; i < total; i++)
    a[i] = (int)i;
  MPI_Type_commit(&t);
  int sz;
  MPI_Aint lb, ext;
  MPI_Type_size(t, &sz);
  MPI_Type_get_extent(t, &lb, &ext);
  CHECK(sz == n * 4 && lb == 0 && ext == total * 4, "%s: size %d lb %ld extent %ld", what, sz,
        (long)lb, (long)ext);
  int pos = 0;
  MPI_Pack(a, 1, t, out, (n + 1) * 4, &pos, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    CHECK(out[i] == expect[i], "%s: element %d is %d, expected %ld", what, i, out[i], expect[i]);
  free(a);
  free(out);
}

static void test_subarray(ctx *C)
{
  int sizes[3] = {4, 5, 6}, subs[3] = {2, 3, 4}, starts[3] = {1, 2, 1};
  for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
    long expect[24];
    int n = 0, idx[3] = {0, 0, 0};
    do {
      int in = 1;
      for (int d = 0; d < 3; d++)
        in &= idx[d] >= starts[d] && idx[d] < starts[d] + subs[d];
      if (in)
        expect[n++] = linear(3, idx, sizes, order);
    } while (next_index(3, idx, sizes, order));
    MPI_Datatype t;
    MPI_Type_create_subarray(3, sizes, subs, starts, order, MPI_INT, &t);
    const char *what = order == MPI_ORDER_C ? "subarray C" : "subarray Fortran";
    check_int_layout(C, t, what, 120, expect, n);
    MPI_Type_free(&t);
  }
}

static int owner(int distrib, int darg, int g, int p, int i)
{
  if (distrib == MPI_DISTRIBUTE_NONE)
    return 0;
  if (distrib == MPI_DISTRIBUTE_BLOCK)
    return i / (darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg);
  return (i / (darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg)) % p;
}

static void darray_case(ctx *C, int nprocs, int r, int ndims, const int *gs, const int *dist,
                        const int *dargs, const int *ps, int order, const char *what)
{
  long total = 1;
  for (int d = 0; d < ndims; d++)
    total *= gs[d];
  int coords[3];
  for (int d = ndims - 1, x = r; d >= 0; d--) {
    coords[d] = x % ps[d];
    x /= ps[d];
  }
  long *expect = malloc(total * sizeof *expect);
  int n = 0, idx[3] = {0, 0, 0};
  do {
    int mine = 1;
    for (int d = 0; d < ndims; d++)
      mine &= owner(dist[d], dargs[d], gs[d], ps[d], idx[d]) == coords[d];
    if (mine)
      expect[n++] = linear(ndims, idx, gs, order);
  } while (next_index(ndims, idx, gs, order));
  MPI_Datatype t;
  MPI_Type_create_darray(nprocs, r, ndims, gs, dist, dargs, ps, order, MPI_INT, &t);
  check_int_layout(C, t, what, total, expect, n);
  MPI_Type_free(&t);
  free(expect);
}

static void test_darray(ctx *C)
{
  const int B = MPI_DISTRIBUTE_BLOCK, CY = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE,
            D = MPI_DISTRIBUTE_DFLT_DARG;
  /* this rank's piece of a grid of all ranks */
  int dims[2] = {0, 0};
  MPI_Dims_create(C->size, 2, dims);
  for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
    darray_case(C, C->size, C->rank, 2, (int[]){11, 7}, (int[]){B, CY}, (int[]){D, 2}, dims,
                order, "darray of the world");
    /* and every rank of a few fixed grids */
    for (int r = 0; r < 6; r++) {
      darray_case(C, 6, r, 2, (int[]){7, 10}, (int[]){B, CY}, (int[]){D, 2}, (int[]){2, 3}, order,
                  "darray block x cyclic(2)");
      darray_case(C, 6, r, 3, (int[]){4, 5, 6}, (int[]){N, CY, B}, (int[]){D, 2, 4},
                  (int[]){1, 2, 3}, order, "darray none x cyclic x block");
      darray_case(C, 6, r, 1, (int[]){17}, (int[]){CY}, (int[]){3}, (int[]){6}, order,
                  "darray cyclic(3)");
    }
  }
}

static void test_elements(ctx *C)
{
  MPI_Status st;
  int n;
  MPI_Count nx;
  MPI_Status_set_elements(&st, MPI_INT, 5);
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == 5, "Get_count %d", n);
  MPI_Get_count(&st, MPI_BYTE, &n);
  CHECK(n == 20, "Get_count(MPI_BYTE) %d", n);
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(n == MPI_UNDEFINED, "Get_count of 20 bytes as doubles: %d", n);
  MPI_Get_elements(&st, MPI_INT, &n);
  CHECK(n == 5, "Get_elements %d", n);
  MPI_Status_set_elements(&st, MPI_BYTE, 8);
  MPI_Get_elements(&st, MPI_2INT, &n);
  CHECK(n == 2, "MPI_2INT elements of 8 bytes: %d", n);
  MPI_Get_count(&st, MPI_2INT, &n);
  CHECK(n == 1, "MPI_2INT count of 8 bytes: %d", n);
  MPI_Status_set_elements_x(&st, MPI_BYTE, 12);
  MPI_Get_elements_x(&st, MPI_DOUBLE_INT, &nx);
  CHECK(nx == 2, "MPI_DOUBLE_INT elements of 12 bytes: %lld", (long long)nx);
  /* a derived type: elements count basic elements, count whole ones */
  MPI_Datatype t = mkstruct(2, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE});
  MPI_Type_commit(&t);
  MPI_Status_set_elements(&st, MPI_BYTE, 28); /* two structs and an int */
  MPI_Get_elements(&st, t, &n);
  CHECK(n == 5, "elements of 28 bytes of {int, double}: %d", n);
  MPI_Get_count(&st, t, &n);
  CHECK(n == MPI_UNDEFINED, "count of 28 bytes of {int, double}: %d", n);
  MPI_Status_set_elements(&st, MPI_BYTE, 24);
  MPI_Get_count(&st, t, &n);
  CHECK(n == 2, "count of 24 bytes of {int, double}: %d", n);
  MPI_Type_free(&t);
}

static void test_external32(ctx *C)
{
  unsigned char buf[64];
  MPI_Aint pos = 0, sz;
  int i = 258;
  long l = -2;
  double x = 1.0;
  MPI_Pack_external("external32", &i, 1, MPI_INT, buf, 64, &pos);
  MPI_Pack_external("external32", &l, 1, MPI_LONG, buf, 64, &pos);
  MPI_Pack_external("external32", &x, 1, MPI_DOUBLE, buf, 64, &pos);
  CHECK(pos == 16, "external32 position %ld", (long)pos);
  unsigned char e[16] = {0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
  CHECK(memcmp(buf, e, 16) == 0, "external32 bytes");
  int i2;
  long l2;
  double x2;
  pos = 0;
  MPI_Unpack_external("external32", buf, 16, &pos, &i2, 1, MPI_INT);
  MPI_Unpack_external("external32", buf, 16, &pos, &l2, 1, MPI_LONG);
  MPI_Unpack_external("external32", buf, 16, &pos, &x2, 1, MPI_DOUBLE);
  CHECK(i2 == 258 && l2 == -2 && x2 == 1.0, "external32 round trip");
  MPI_Pack_external_size("external32", 3, MPI_LONG, &sz);
  CHECK(sz == 12, "external32 size of 3 longs: %ld", (long)sz);
}

static void test_errors(ctx *C)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  int cls, rc;
  rc = MPI_Type_contiguous(-1, MPI_INT, &t);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT, "negative count: class %d", cls);
  rc = MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &t);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "null oldtype: class %d", cls);
  MPI_Datatype p = MPI_INT;
  rc = MPI_Type_free(&p);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "freeing MPI_INT: class %d", cls);
  MPI_Type_contiguous(2, MPI_INT, &t);
  int src[2] = {1, 2}, pos = 0;
  char buf[16];
  rc = MPI_Pack(src, 1, t, buf, 16, &pos, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "packing an uncommitted type: class %d", cls);
  MPI_Type_free(&t);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
  ctx c = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  test_predefined(&c);
  test_constructors(&c);
  test_structs(&c);
  test_resized_dup_free(&c);
  test_contents(&c);
  test_subarray(&c);
  test_darray(&c);
  test_elements(&c);
  test_external32(&c);
  test_errors(&c);
  return mpitest_finalize();
}
