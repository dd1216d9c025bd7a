/* Unit tests of datatypes and reduction ops (smpi/datatype*.c, smpi/mpi/op.c), through the
 * internal smpi_type_* / smpi_op_* functions (no runtime needed).
 *
 * Layouts are checked by packing a buffer whose bytes (or ints) hold their own index, so a
 * packed result lists the typemap's offsets in order; expected offsets are computed by hand
 * or, for subarray/darray, by brute force over the global array. Bounds of struct types are
 * the numbers mpich 4.0.2 gives on x86-64 (see the comment at the top of datatype.c). */
#include <check.h>
#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/datatype_impl.h"
#include "smpi/mpi/op_impl.h"

static void setup(void)
{
  smpi_dt_init();
  smpi_op_init();
}

static smpi_dt *T(MPI_Datatype h)
{
  smpi_dt *dt = smpi_dt_get(h);
  ck_assert_msg(dt != NULL, "handle %#x is not a datatype", (unsigned)h);
  return dt;
}

static MPI_Datatype committed(MPI_Datatype h)
{
  ck_assert_int_eq(smpi_type_commit(&h), MPI_SUCCESS);
  return h;
}

static void check_bounds(MPI_Datatype h, long size, long lb, long extent, long tlb, long textent)
{
  smpi_dt *dt = T(h);
  ck_assert_int_eq((long)smpi_dt_size(dt), size);
  ck_assert_int_eq(smpi_dt_lb(dt), lb);
  ck_assert_int_eq(smpi_dt_extent(dt), extent);
  ck_assert_int_eq(smpi_dt_true_lb(dt), tlb);
  ck_assert_int_eq(smpi_dt_true_extent(dt), textent);
}

/* packs count elements of h from a byte buffer whose byte i (relative to base) is
 * (i + 128) & 255, and checks that the packed bytes come from exactly `offsets` */
static unsigned char mem[4096];
static unsigned char *membase = mem + 2048;
static void fill_mem(void)
{
  for (int i = 0; i < (int)sizeof mem; i++)
    mem[i] = (unsigned char)((i - 2048 + 128) & 255);
}

static void check_offsets(MPI_Datatype h, int count, const long *offsets, size_t n)
{
  smpi_dt *dt = T(h);
  ck_assert_uint_eq(count * smpi_dt_size(dt), n);
  fill_mem();
  unsigned char *out = malloc(n + 1);
  smpi_dt_pack(membase, (size_t)count, dt, out);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(out[i] == (unsigned char)((offsets[i] + 128) & 255),
                  "packed byte %zu: got offset %d, expected %ld", i, (int)out[i] - 128,
                  offsets[i]);
  /* unpack into a zeroed buffer: exactly these bytes come back */
  unsigned char *copy = calloc(1, sizeof mem);
  smpi_dt_unpack(out, n, copy + 2048, (size_t)count, dt);
  for (size_t i = 0; i < n; i++)
    ck_assert_int_eq(copy[2048 + offsets[i]], out[i]);
  size_t nonzero = 0;
  for (size_t i = 0; i < sizeof mem; i++)
    nonzero += copy[i] != 0;
  size_t expected_nonzero = 0;
  for (size_t i = 0; i < n; i++) {
    bool dup = false;
    for (size_t j = 0; j < i; j++)
      dup |= offsets[j] == offsets[i];
    expected_nonzero += !dup && out[i] != 0;
  }
  ck_assert_uint_eq(nonzero, expected_nonzero);
  free(copy);
  free(out);
}

/* byte offsets of `len` bytes each starting at the given element offsets */
static size_t expand(const long *starts, size_t n, size_t len, long *out)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < len; j++)
      out[k++] = starts[i] + (long)j;
  return k;
}

static void free_type(MPI_Datatype *h)
{
  ck_assert_int_eq(smpi_type_free(h), MPI_SUCCESS);
  ck_assert_int_eq(*h, MPI_DATATYPE_NULL);
}

/* ======================================================================================
 * predefined
 * ====================================================================================== */

START_TEST(test_predefined_bounds)
{
  check_bounds(MPI_INT, 4, 0, 4, 0, 4);
  check_bounds(MPI_CHAR, 1, 0, 1, 0, 1);
  check_bounds(MPI_LONG_DOUBLE, 16, 0, 16, 0, 16);
  check_bounds(MPI_DOUBLE_INT, 12, 0, 16, 0, 12);
  check_bounds(MPI_FLOAT_INT, 8, 0, 8, 0, 8);
  check_bounds(MPI_LONG_INT, 12, 0, 16, 0, 12);
  check_bounds(MPI_SHORT_INT, 6, 0, 8, 0, 8);
  check_bounds(MPI_LONG_DOUBLE_INT, 20, 0, 32, 0, 20);
  check_bounds(MPI_2INT, 8, 0, 8, 0, 8);
  check_bounds(MPI_UB, 0, 0, 0, 0, 0);
  check_bounds(MPI_LB, 0, 0, 0, 0, 0);
  check_bounds(MPI_PACKED, 1, 0, 1, 0, 1);
  check_bounds(MPI_BYTE, 1, 0, 1, 0, 1);
  check_bounds(MPI_LOGICAL, 4, 0, 4, 0, 4);
  check_bounds(MPI_CHARACTER, 1, 0, 1, 0, 1);
  check_bounds(MPI_COMPLEX, 8, 0, 8, 0, 8);
  check_bounds(MPI_DOUBLE_COMPLEX, 16, 0, 16, 0, 16);
  check_bounds(MPI_C_LONG_DOUBLE_COMPLEX, 32, 0, 32, 0, 32);
  check_bounds(MPI_2DOUBLE_PRECISION, 16, 0, 16, 0, 16);
  long w = (long)sizeof(wchar_t);
  check_bounds(MPI_WCHAR, w, 0, w, 0, w);
  check_bounds(MPI_AINT, 8, 0, 8, 0, 8);
  check_bounds(MPI_INTEGER16, 16, 0, 16, 0, 16);
  check_bounds(MPI_REAL2, 2, 0, 2, 0, 2);
  check_bounds(MPI_COMPLEX32, 32, 0, 32, 0, 32);
  /* every predefined handle is registered */
  for (int i = 1; i < SMPI_DATATYPE_PREDEFINED_COUNT; i++)
    ck_assert_ptr_nonnull(smpi_dt_get(SMPI_HANDLE_MAKE(SMPI_KIND_DATATYPE, i)));
  ck_assert_ptr_null(smpi_dt_get(MPI_DATATYPE_NULL));
  ck_assert_ptr_null(smpi_dt_get(MPI_COMM_WORLD));
  ck_assert(smpi_dt_is_contiguous(T(MPI_INT)));
  ck_assert(!smpi_dt_is_contiguous(T(MPI_DOUBLE_INT)));
}
END_TEST

START_TEST(test_predefined_pair_layout)
{
  /* MPI_SHORT_INT is struct {short; int}: the int is at offset 4, after 2 bytes of padding */
  long offs[] = {0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15};
  check_offsets(MPI_SHORT_INT, 2, offs, 12);
}
END_TEST

START_TEST(test_predefined_envelope_names)
{
  int ni, na, nd, comb;
  ck_assert_int_eq(smpi_type_get_envelope(MPI_DOUBLE_INT, &ni, &na, &nd, &comb), MPI_SUCCESS);
  ck_assert_int_eq(comb, MPI_COMBINER_NAMED);
  ck_assert_int_eq(ni + na + nd, 0);
  int ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype types[1];
  ck_assert_int_eq(smpi_type_get_contents(MPI_INT, 1, 1, 1, ints, addrs, types), MPI_ERR_TYPE);
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  ck_assert_int_eq(smpi_type_get_name(MPI_LONG_LONG, name, &len), MPI_SUCCESS);
  ck_assert_str_eq(name, "MPI_LONG_LONG_INT");
  ck_assert_int_eq(len, 17);
  ck_assert_int_eq(smpi_type_get_name(MPI_UB, name, &len), MPI_SUCCESS);
  ck_assert_str_eq(name, "MPI_UB");
  ck_assert_int_eq(smpi_type_set_name(MPI_INT, "my int"), MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_get_name(MPI_INT, name, &len), MPI_SUCCESS);
  ck_assert_str_eq(name, "my int");
  MPI_Datatype v;
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_INT, &v), MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_get_name(v, name, &len), MPI_SUCCESS);
  ck_assert_str_eq(name, "");
  ck_assert_int_eq(len, 0);
  ck_assert_str_eq(smpi_dt_name(T(v)), "derived");
  char longname[300];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  ck_assert_int_eq(smpi_type_set_name(v, longname), MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_get_name(v, name, &len), MPI_SUCCESS);
  ck_assert_int_eq(len, MPI_MAX_OBJECT_NAME - 1);
  free_type(&v);
}
END_TEST

START_TEST(test_match_size)
{
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_match_size(MPI_TYPECLASS_REAL, 8, &t), MPI_SUCCESS);
  ck_assert_int_eq(t, MPI_REAL8);
  ck_assert_int_eq(smpi_type_match_size(MPI_TYPECLASS_INTEGER, 4, &t), MPI_SUCCESS);
  ck_assert_int_eq(t, MPI_INTEGER4);
  ck_assert_int_eq(smpi_type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t), MPI_SUCCESS);
  ck_assert_int_eq(t, MPI_COMPLEX16);
  ck_assert_int_eq(smpi_type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
  ck_assert_int_eq(smpi_type_match_size(99, 4, &t), MPI_ERR_ARG);
}
END_TEST

/* ======================================================================================
 * constructors
 * ====================================================================================== */

START_TEST(test_contiguous)
{
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_contiguous(3, MPI_INT, &t), MPI_SUCCESS);
  t = committed(t);
  check_bounds(t, 12, 0, 12, 0, 12);
  ck_assert(smpi_dt_is_contiguous(T(t)));
  long offs[24];
  for (int i = 0; i < 24; i++)
    offs[i] = i;
  check_offsets(t, 2, offs, 24);
  MPI_Datatype z;
  ck_assert_int_eq(smpi_type_contiguous(0, MPI_INT, &z), MPI_SUCCESS);
  check_bounds(z, 0, 0, 0, 0, 0);
  free_type(&z);
  free_type(&t);
}
END_TEST

START_TEST(test_vector)
{
  /* 3 blocks of 2 ints, 4 ints apart: ints 0 1, 4 5, 8 9 */
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_vector(3, 2, 4, MPI_INT, &t), MPI_SUCCESS);
  check_bounds(t, 24, 0, 40, 0, 40);
  ck_assert(!smpi_dt_is_contiguous(T(t)));
  ck_assert_uint_eq(T(t)->prog->n, 1); /* one strided leaf */
  long starts[] = {0,  4,  16, 20, 32, 36, /* second element at extent 40 */ 40,
                   44, 56, 60, 72, 76};
  long offs[48];
  size_t n = expand(starts, 12, 4, offs);
  check_offsets(t, 2, offs, n);
  free_type(&t);

  /* negative stride: blocks go down in memory; lb is the lowest block */
  ck_assert_int_eq(smpi_type_vector(3, 1, -2, MPI_INT, &t), MPI_SUCCESS);
  check_bounds(t, 12, -16, 20, -16, 20);
  long nstarts[] = {0, -8, -16};
  n = expand(nstarts, 3, 4, offs);
  check_offsets(t, 1, offs, n);
  free_type(&t);
}
END_TEST

START_TEST(test_hvector_of_struct)
{
  /* struct {char c@0; int i@4} (extent 8 by padding), 2 per block, blocks 20 bytes apart */
  int bl[2] = {1, 1};
  MPI_Aint d[2] = {0, 4};
  MPI_Datatype ty[2] = {MPI_CHAR, MPI_INT}, s, t;
  ck_assert_int_eq(smpi_type_struct(2, bl, d, ty, &s), MPI_SUCCESS);
  check_bounds(s, 5, 0, 8, 0, 8);
  ck_assert_int_eq(smpi_type_hvector(2, 2, 20, s, &t), MPI_SUCCESS);
  check_bounds(t, 20, 0, 36, 0, 36);
  long offs[] = {0, 4, 5, 6, 7, 8, 12, 13, 14, 15, 20, 24, 25, 26, 27, 28, 32, 33, 34, 35};
  check_offsets(t, 1, offs, 20);
  free_type(&s);
  free_type(&t);
}
END_TEST

START_TEST(test_indexed_family)
{
  int bl[3] = {2, 1, 3}, disp[3] = {5, 0, 9};
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_indexed(3, bl, disp, MPI_INT, &t), MPI_SUCCESS);
  check_bounds(t, 24, 0, 48, 0, 48);
  long starts[] = {20, 24, 0, 36, 40, 44};
  long offs[24];
  size_t n = expand(starts, 6, 4, offs);
  check_offsets(t, 1, offs, n);
  free_type(&t);

  MPI_Aint hd[3] = {10, -3, 30};
  ck_assert_int_eq(smpi_type_hindexed(3, bl, hd, MPI_SHORT, &t), MPI_SUCCESS);
  check_bounds(t, 12, -3, 39, -3, 39);
  long hoffs[] = {10, 11, 12, 13, -3, -2, 30, 31, 32, 33, 34, 35};
  check_offsets(t, 1, hoffs, 12);
  free_type(&t);

  int bd[3] = {4, 0, 2};
  ck_assert_int_eq(smpi_type_indexed_block(3, 2, bd, MPI_SHORT, &t), MPI_SUCCESS);
  check_bounds(t, 12, 0, 12, 0, 12);
  long boffs[] = {8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7};
  check_offsets(t, 1, boffs, 12);
  free_type(&t);

  MPI_Aint hbd[2] = {7, 1};
  ck_assert_int_eq(smpi_type_hindexed_block(2, 1, hbd, MPI_SHORT, &t), MPI_SUCCESS);
  check_bounds(t, 4, 1, 8, 1, 8);
  long hboffs[] = {7, 8, 1, 2};
  check_offsets(t, 1, hboffs, 4);
  free_type(&t);

  /* zero-length blocks contribute nothing */
  int zbl[2] = {0, 1}, zd[2] = {100, 1};
  ck_assert_int_eq(smpi_type_indexed(2, zbl, zd, MPI_INT, &t), MPI_SUCCESS);
  check_bounds(t, 4, 4, 4, 4, 4);
  free_type(&t);
}
END_TEST

static MPI_Datatype mkstruct(int n, const MPI_Aint *d, const MPI_Datatype *ty)
{
  int bl[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_struct(n, bl, d, ty, &t), MPI_SUCCESS);
  return t;
}

START_TEST(test_struct_padding_like_mpich)
{
  struct {
    MPI_Aint d[3];
    MPI_Datatype t[3];
    int n;
    long size, lb, extent, tlb, textent;
  } cases[] = {
      {{0, 8}, {MPI_DOUBLE, MPI_CHAR}, 2, 9, 0, 16, 0, 9},
      {{0, 4}, {MPI_INT, MPI_CHAR}, 2, 5, 0, 8, 0, 5},
      {{0, 1}, {MPI_CHAR, MPI_CHAR}, 2, 2, 0, 2, 0, 2},
      {{0, 16}, {MPI_LONG_DOUBLE, MPI_CHAR}, 2, 17, 0, 32, 0, 17},
      {{-3, 8}, {MPI_DOUBLE, MPI_CHAR}, 2, 9, -3, 16, -3, 12},
      {{0, 12}, {MPI_DOUBLE, MPI_DOUBLE}, 2, 16, 0, 20, 0, 20}, /* one type: no padding */
      {{0, 16}, {MPI_DOUBLE, MPI_INT}, 2, 12, 0, 24, 0, 20},
      {{0, 8}, {MPI_2INT, MPI_CHAR}, 2, 9, 0, 12, 0, 9},
      {{0, 16}, {MPI_C_DOUBLE_COMPLEX, MPI_CHAR}, 2, 17, 0, 24, 0, 17},
      {{0, 2}, {MPI_SHORT, MPI_CHAR}, 2, 3, 0, 4, 0, 3},
      {{0, 6, 8}, {MPI_INT, MPI_SHORT, MPI_CHAR}, 3, 7, 0, 12, 0, 9},
      /* explicit markers */
      {{0, 8, 32}, {MPI_DOUBLE, MPI_CHAR, MPI_UB}, 3, 9, 0, 32, 0, 9},
      {{0, 8, 13}, {MPI_DOUBLE, MPI_CHAR, MPI_UB}, 3, 9, 0, 13, 0, 9},
      {{-4, 0, 8}, {MPI_LB, MPI_DOUBLE, MPI_CHAR}, 3, 9, -4, 20, 0, 9},
      {{0, 0, 8}, {MPI_LB, MPI_DOUBLE, MPI_CHAR}, 3, 9, 0, 16, 0, 9},
      {{-4, 8, 0}, {MPI_UB, MPI_LB, MPI_DOUBLE}, 3, 8, 8, -12, 0, 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    MPI_Datatype t = mkstruct(cases[i].n, cases[i].d, cases[i].t);
    smpi_dt *dt = T(t);
    ck_assert_msg((long)smpi_dt_size(dt) == cases[i].size && smpi_dt_lb(dt) == cases[i].lb &&
                      smpi_dt_extent(dt) == cases[i].extent &&
                      smpi_dt_true_lb(dt) == cases[i].tlb &&
                      smpi_dt_true_extent(dt) == cases[i].textent,
                  "case %zu: size %zu lb %ld extent %ld true lb %ld true extent %ld", i,
                  smpi_dt_size(dt), (long)smpi_dt_lb(dt), (long)smpi_dt_extent(dt),
                  (long)smpi_dt_true_lb(dt), (long)smpi_dt_true_extent(dt));
    free_type(&t);
  }
  /* nested: the padded extent is used as the stride of the outer type */
  MPI_Aint d[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype s = mkstruct(2, d, ty), c;
  ck_assert_int_eq(smpi_type_contiguous(2, s, &c), MPI_SUCCESS);
  check_bounds(c, 18, 0, 32, 0, 25);
  long starts[] = {0, 16};
  long offs[18];
  expand(starts, 2, 9, offs);
  check_offsets(c, 1, offs, 18);
  /* a marker inside an inner type does not stick: the outer struct pads again (MPICH 4) */
  MPI_Aint d3[3] = {0, 8, 9};
  MPI_Datatype ty3[3] = {MPI_DOUBLE, MPI_CHAR, MPI_UB};
  MPI_Datatype s1 = mkstruct(3, d3, ty3);
  check_bounds(s1, 9, 0, 9, 0, 9);
  MPI_Aint d2[2] = {0, 9};
  MPI_Datatype ty2[2] = {s1, MPI_CHAR};
  MPI_Datatype s2 = mkstruct(2, d2, ty2);
  check_bounds(s2, 10, 0, 16, 0, 10);
  free_type(&s1);
  free_type(&s2);
  free_type(&s);
  free_type(&c);
}
END_TEST

START_TEST(test_struct_layout_real_c_struct)
{
  struct rec {
    char tag;
    double x[2];
    short s;
  };
  int bl[3] = {1, 2, 1};
  MPI_Aint d[3] = {offsetof(struct rec, tag), offsetof(struct rec, x), offsetof(struct rec, s)};
  MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, t;
  ck_assert_int_eq(smpi_type_struct(3, bl, d, ty, &t), MPI_SUCCESS);
  t = committed(t);
  ck_assert_int_eq(smpi_dt_extent(T(t)), sizeof(struct rec));
  struct rec in[3], out[3];
  memset(out, 0, sizeof out);
  for (int i = 0; i < 3; i++) {
    in[i].tag = (char)('a' + i);
    in[i].x[0] = i + 0.5;
    in[i].x[1] = -i;
    in[i].s = (short)(100 * i);
  }
  char packed[3 * 19];
  ck_assert_uint_eq(smpi_dt_size(T(t)), 19);
  smpi_dt_pack(in, 3, T(t), packed);
  smpi_dt_unpack(packed, sizeof packed, out, 3, T(t));
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(out[i].tag, in[i].tag);
    ck_assert(out[i].x[0] == in[i].x[0] && out[i].x[1] == in[i].x[1]);
    ck_assert_int_eq(out[i].s, in[i].s);
  }
  free_type(&t);
}
END_TEST

START_TEST(test_resized_and_dup)
{
  MPI_Datatype r, c, s, dup;
  ck_assert_int_eq(smpi_type_resized(MPI_INT, -2, 10, &r), MPI_SUCCESS);
  check_bounds(r, 4, -2, 10, 0, 4);
  ck_assert_int_eq(smpi_type_contiguous(2, r, &c), MPI_SUCCESS);
  check_bounds(c, 8, -2, 20, 0, 14);
  long offs[] = {0, 1, 2, 3, 10, 11, 12, 13};
  check_offsets(c, 1, offs, 8);
  /* resized keeps the struct padding rule of its user (MPICH): lb -2, ub 9 -> extent 12 */
  MPI_Aint d[2] = {0, 8};
  MPI_Datatype ty[2] = {r, MPI_CHAR};
  s = mkstruct(2, d, ty);
  check_bounds(s, 5, -2, 12, 0, 9);
  free_type(&s);

  ck_assert_int_eq(smpi_type_dup(c, &dup), MPI_SUCCESS);
  check_bounds(dup, 8, -2, 20, 0, 14);
  ck_assert(!smpi_dt_is_committed(T(dup)));
  check_offsets(dup, 1, offs, 8);
  int ni, na, nd, comb;
  ck_assert_int_eq(smpi_type_get_envelope(dup, &ni, &na, &nd, &comb), MPI_SUCCESS);
  ck_assert_int_eq(comb, MPI_COMBINER_DUP);
  ck_assert_int_eq(ni + na, 0);
  ck_assert_int_eq(nd, 1);
  free_type(&dup);
  MPI_Datatype cc = committed(c);
  ck_assert_int_eq(smpi_type_dup(cc, &dup), MPI_SUCCESS);
  ck_assert(smpi_dt_is_committed(T(dup))); /* dup keeps the committed state */
  free_type(&dup);

  /* a resized extent below the data size overlaps consecutive elements */
  MPI_Datatype o, oc;
  ck_assert_int_eq(smpi_type_resized(MPI_INT, 0, 2, &o), MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_contiguous(3, o, &oc), MPI_SUCCESS);
  check_bounds(oc, 12, 0, 6, 0, 8);
  long ooffs[] = {0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7};
  fill_mem();
  unsigned char out[12];
  smpi_dt_pack(membase, 1, T(oc), out);
  for (int i = 0; i < 12; i++)
    ck_assert_int_eq(out[i], (unsigned char)(ooffs[i] + 128));
  free_type(&o);
  free_type(&oc);
  free_type(&r);
  free_type(&cc);
}
END_TEST

/* ======================================================================================
 * envelopes and contents
 * ====================================================================================== */

static void check_envelope(MPI_Datatype t, int ni, int na, int nd, int comb)
{
  int a, b, c, d;
  ck_assert_int_eq(smpi_type_get_envelope(t, &a, &b, &c, &d), MPI_SUCCESS);
  ck_assert_int_eq(a, ni);
  ck_assert_int_eq(b, na);
  ck_assert_int_eq(c, nd);
  ck_assert_int_eq(d, comb);
}

START_TEST(test_contents)
{
  int ints[32];
  MPI_Aint addrs[8];
  MPI_Datatype types[8];
  MPI_Datatype v, h, idx, st, sub, res;
  ck_assert_int_eq(smpi_type_vector(3, 2, 4, MPI_INT, &v), MPI_SUCCESS);
  check_envelope(v, 3, 0, 1, MPI_COMBINER_VECTOR);
  ck_assert_int_eq(smpi_type_get_contents(v, 3, 0, 1, ints, addrs, types), MPI_SUCCESS);
  ck_assert(ints[0] == 3 && ints[1] == 2 && ints[2] == 4);
  ck_assert_int_eq(types[0], MPI_INT); /* predefined: the same handle */
  ck_assert_int_eq(smpi_type_get_contents(v, 2, 0, 1, ints, addrs, types), MPI_ERR_ARG);

  ck_assert_int_eq(smpi_type_hvector(2, 1, 100, v, &h), MPI_SUCCESS);
  check_envelope(h, 2, 1, 1, MPI_COMBINER_HVECTOR);
  ck_assert_int_eq(smpi_type_get_contents(h, 2, 1, 1, ints, addrs, types), MPI_SUCCESS);
  ck_assert(ints[0] == 2 && ints[1] == 1 && addrs[0] == 100);
  /* a derived inner type comes back as a new handle on an equivalent type */
  ck_assert_int_ne(types[0], v);
  ck_assert_uint_eq(smpi_dt_size(T(types[0])), 24);
  check_envelope(types[0], 3, 0, 1, MPI_COMBINER_VECTOR);
  free_type(&types[0]);
  ck_assert_ptr_nonnull(smpi_dt_get(v)); /* the original is untouched */

  int bl[2] = {1, 2}, di[2] = {7, 3};
  ck_assert_int_eq(smpi_type_indexed(2, bl, di, MPI_DOUBLE, &idx), MPI_SUCCESS);
  check_envelope(idx, 5, 0, 1, MPI_COMBINER_INDEXED);
  ck_assert_int_eq(smpi_type_get_contents(idx, 5, 0, 1, ints, addrs, types), MPI_SUCCESS);
  ck_assert(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && ints[3] == 7 && ints[4] == 3);
  MPI_Datatype tmp;
  MPI_Aint hd[2] = {8, 64};
  ck_assert_int_eq(smpi_type_hindexed(2, bl, hd, MPI_INT, &tmp), MPI_SUCCESS);
  check_envelope(tmp, 3, 2, 1, MPI_COMBINER_HINDEXED);
  free_type(&tmp);
  ck_assert_int_eq(smpi_type_indexed_block(2, 3, di, MPI_INT, &tmp), MPI_SUCCESS);
  check_envelope(tmp, 4, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
  ck_assert_int_eq(smpi_type_get_contents(tmp, 4, 0, 1, ints, addrs, types), MPI_SUCCESS);
  ck_assert(ints[0] == 2 && ints[1] == 3 && ints[2] == 7 && ints[3] == 3);
  free_type(&tmp);
  ck_assert_int_eq(smpi_type_hindexed_block(2, 3, hd, MPI_INT, &tmp), MPI_SUCCESS);
  check_envelope(tmp, 2, 2, 1, MPI_COMBINER_HINDEXED_BLOCK);
  free_type(&tmp);
  ck_assert_int_eq(smpi_type_contiguous(5, MPI_INT, &tmp), MPI_SUCCESS);
  check_envelope(tmp, 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
  free_type(&tmp);

  MPI_Aint sd[3] = {0, 8, 40};
  MPI_Datatype sty[3] = {MPI_INT, v, MPI_UB};
  int sbl[3] = {2, 1, 1};
  ck_assert_int_eq(smpi_type_struct(3, sbl, sd, sty, &st), MPI_SUCCESS);
  check_envelope(st, 4, 3, 3, MPI_COMBINER_STRUCT);
  ck_assert_int_eq(smpi_type_get_contents(st, 4, 3, 3, ints, addrs, types), MPI_SUCCESS);
  ck_assert(ints[0] == 3 && ints[1] == 2 && ints[2] == 1 && ints[3] == 1);
  ck_assert(addrs[0] == 0 && addrs[1] == 8 && addrs[2] == 40);
  ck_assert_int_eq(types[0], MPI_INT);
  ck_assert_int_eq(types[2], MPI_UB);
  ck_assert_int_ne(types[1], v);
  free_type(&types[1]);

  int sizes[2] = {4, 6}, subs[2] = {2, 3}, starts[2] = {1, 2};
  ck_assert_int_eq(smpi_type_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub),
                   MPI_SUCCESS);
  check_envelope(sub, 8, 0, 1, MPI_COMBINER_SUBARRAY);
  ck_assert_int_eq(smpi_type_get_contents(sub, 8, 0, 1, ints, addrs, types), MPI_SUCCESS);
  int esub[8] = {2, 4, 6, 2, 3, 1, 2, MPI_ORDER_C};
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(ints[i], esub[i]);
  ck_assert_int_eq(types[0], MPI_DOUBLE);

  int gs[2] = {5, 7}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
      dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 3};
  MPI_Datatype da;
  ck_assert_int_eq(smpi_type_darray(6, 4, 2, gs, dist, dargs, ps, MPI_ORDER_FORTRAN, MPI_INT,
                                    &da),
                   MPI_SUCCESS);
  check_envelope(da, 12, 0, 1, MPI_COMBINER_DARRAY);
  ck_assert_int_eq(smpi_type_get_contents(da, 12, 0, 1, ints, addrs, types), MPI_SUCCESS);
  int eda[12] = {6,
                 4,
                 2,
                 5,
                 7,
                 MPI_DISTRIBUTE_BLOCK,
                 MPI_DISTRIBUTE_CYCLIC,
                 MPI_DISTRIBUTE_DFLT_DARG,
                 2,
                 2,
                 3,
                 MPI_ORDER_FORTRAN};
  for (int i = 0; i < 12; i++)
    ck_assert_int_eq(ints[i], eda[i]);
  free_type(&da);

  ck_assert_int_eq(smpi_type_resized(v, -8, 100, &res), MPI_SUCCESS);
  check_envelope(res, 0, 2, 1, MPI_COMBINER_RESIZED);
  ck_assert_int_eq(smpi_type_get_contents(res, 0, 2, 1, ints, addrs, types), MPI_SUCCESS);
  ck_assert(addrs[0] == -8 && addrs[1] == 100);
  free_type(&types[0]);

  free_type(&v);
  free_type(&h);
  free_type(&idx);
  free_type(&st);
  free_type(&sub);
  free_type(&res);
}
END_TEST

/* ======================================================================================
 * lifetime
 * ====================================================================================== */

START_TEST(test_free_keeps_users_alive)
{
  MPI_Datatype v, c;
  ck_assert_int_eq(smpi_type_vector(2, 1, 2, MPI_INT, &v), MPI_SUCCESS);
  v = committed(v);
  ck_assert_int_eq(smpi_type_contiguous(2, v, &c), MPI_SUCCESS);
  c = committed(c);
  MPI_Datatype vh = v;
  free_type(&v);
  ck_assert_ptr_null(smpi_dt_get(vh)); /* the handle is dead... */
  long starts[] = {0, 8, 12, 20};      /* ...but c still works: extent(v) = 12 */
  long offs[16];
  expand(starts, 4, 4, offs);
  check_offsets(c, 1, offs, 16);
  ck_assert_int_eq(smpi_type_free(&vh), MPI_ERR_TYPE); /* double free is reported */

  /* a pending operation holds the type across MPI_Type_free */
  smpi_dt *held = T(c);
  smpi_dt_ref(held);
  free_type(&c);
  fill_mem();
  unsigned char out[16];
  smpi_dt_pack(membase, 1, held, out);
  for (int i = 0; i < 16; i++)
    ck_assert_int_eq(out[i], (unsigned char)(offs[i] + 128));
  smpi_dt_unref(held);

  MPI_Datatype p = MPI_INT;
  ck_assert_int_eq(smpi_type_free(&p), MPI_ERR_TYPE);
  ck_assert_int_eq(p, MPI_INT);
  p = MPI_DATATYPE_NULL;
  ck_assert_int_eq(smpi_type_free(&p), MPI_ERR_TYPE);
}
END_TEST

START_TEST(test_argument_errors)
{
  MPI_Datatype t;
  int bl[2] = {1, -1}, d[2] = {0, 1};
  MPI_Aint ad[2] = {0, 1};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DATATYPE_NULL};
  ck_assert_int_eq(smpi_type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
  ck_assert_int_eq(smpi_type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
  ck_assert_int_eq(smpi_type_contiguous(1, MPI_COMM_WORLD, &t), MPI_ERR_TYPE);
  ck_assert_int_eq(smpi_type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
  ck_assert_int_eq(smpi_type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_COUNT);
  ck_assert_int_eq(smpi_type_indexed(2, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
  ck_assert_int_eq(smpi_type_indexed(2, NULL, d, MPI_INT, &t), MPI_ERR_ARG);
  int okbl[2] = {1, 1};
  ck_assert_int_eq(smpi_type_struct(2, okbl, ad, ty, &t), MPI_ERR_TYPE);
  ck_assert_int_eq(smpi_type_resized(MPI_DATATYPE_NULL, 0, 1, &t), MPI_ERR_TYPE);
  int sz[1] = {4}, sub[1] = {3}, st[1] = {2};
  ck_assert_int_eq(smpi_type_subarray(1, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
  st[0] = 1;
  ck_assert_int_eq(smpi_type_subarray(1, sz, sub, st, 3, MPI_INT, &t), MPI_ERR_ARG);
  ck_assert_int_eq(smpi_type_subarray(0, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
  int g[1] = {10}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {2}, ps[1] = {3};
  /* blocks of 2 on 3 processes cannot cover 10 elements */
  ck_assert_int_eq(smpi_type_darray(3, 0, 1, g, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
                   MPI_ERR_ARG);
  darg[0] = MPI_DISTRIBUTE_DFLT_DARG;
  ck_assert_int_eq(smpi_type_darray(4, 0, 1, g, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
                   MPI_ERR_ARG); /* grid of 3 for size 4 */
  ck_assert_int_eq(smpi_type_darray(3, 3, 1, g, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
                   MPI_ERR_ARG); /* rank out of range */

  /* pack and unpack need committed types and enough room */
  MPI_Datatype u;
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_INT, &u), MPI_SUCCESS);
  int src[2] = {1, 2};
  char buf[16];
  MPI_Aint pos = 0;
  ck_assert_int_eq(smpi_type_pack(src, 1, u, buf, 16, &pos), MPI_ERR_TYPE);
  u = committed(u);
  ck_assert_int_eq(smpi_type_pack(src, 1, u, buf, 16, &pos), MPI_SUCCESS);
  ck_assert_int_eq(pos, 8);
  ck_assert_int_eq(smpi_type_pack(src, 2, u, buf, 16, &pos), MPI_ERR_TRUNCATE);
  ck_assert_int_eq(pos, 8);
  ck_assert_int_eq(smpi_type_pack(src, -1, u, buf, 16, &pos), MPI_ERR_COUNT);
  int dst[2] = {0, 0};
  pos = 0;
  ck_assert_int_eq(smpi_type_unpack(buf, 4, &pos, dst, 1, u), MPI_ERR_TRUNCATE);
  ck_assert_int_eq(smpi_type_unpack(buf, 8, &pos, dst, 1, u), MPI_SUCCESS);
  ck_assert(dst[0] == 1 && dst[1] == 2 && pos == 8);
  free_type(&u);
}
END_TEST

/* ======================================================================================
 * arrays
 * ====================================================================================== */

/* index of global element (i0..i{n-1}) in the array's storage order */
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

/* advances idx in storage order; false when done */
static bool next_index(int n, int *idx, const int *sizes, int order)
{
  for (int k = 0; k < n; k++) {
    int d = order == MPI_ORDER_C ? n - 1 - k : k;
    if (++idx[d] < sizes[d])
      return true;
    idx[d] = 0;
  }
  return false;
}

/* packs an int array holding its own linear indices and compares with `expect` */
static void check_int_layout(MPI_Datatype t, long total, const long *expect, size_t n)
{
  int *a = malloc((size_t)total * sizeof *a);
  for (long i = 0; i < total; i++)
    a[i] = (int)i;
  ck_assert_uint_eq(smpi_dt_size(T(t)), n * sizeof(int));
  ck_assert_int_eq(smpi_dt_lb(T(t)), 0);
  ck_assert_int_eq(smpi_dt_extent(T(t)), total * (long)sizeof(int));
  int *out = malloc(n * sizeof *out + 1);
  smpi_dt_pack(a, 1, T(t), out);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(out[i] == expect[i], "element %zu: %d, expected %ld", i, out[i], expect[i]);
  if (n > 0) {
    ck_assert_int_eq(smpi_dt_true_lb(T(t)), expect[0] * (long)sizeof(int));
  }
  free(out);
  free(a);
}

START_TEST(test_subarray)
{
  int sizes[3] = {4, 5, 6}, subs[3] = {2, 3, 4}, starts[3] = {1, 2, 1};
  for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
    MPI_Datatype t;
    ck_assert_int_eq(smpi_type_subarray(3, sizes, subs, starts, order, MPI_INT, &t), MPI_SUCCESS);
    long expect[24];
    size_t n = 0;
    int idx[3] = {0, 0, 0};
    do {
      bool in = true;
      for (int d = 0; d < 3; d++)
        in &= idx[d] >= starts[d] && idx[d] < starts[d] + subs[d];
      if (in)
        expect[n++] = linear(3, idx, sizes, order);
    } while (next_index(3, idx, sizes, order));
    ck_assert_uint_eq(n, 24);
    check_int_layout(t, 120, expect, n);
    free_type(&t);
  }
  /* the example of datatype_array.c: 4x6 doubles, 2x3 at (1,2) */
  int s2[2] = {4, 6}, b2[2] = {2, 3}, st2[2] = {1, 2};
  MPI_Datatype t;
  ck_assert_int_eq(smpi_type_subarray(2, s2, b2, st2, MPI_ORDER_C, MPI_DOUBLE, &t), MPI_SUCCESS);
  long starts8[] = {64, 72, 80, 112, 120, 128};
  long offs[48];
  expand(starts8, 6, 8, offs);
  check_offsets(t, 1, offs, 48);
  check_bounds(t, 48, 0, 192, 64, 72);
  free_type(&t);
}
END_TEST

static int owner(int distrib, int darg, int g, int p, int i)
{
  if (distrib == MPI_DISTRIBUTE_NONE)
    return 0;
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
    return i / b;
  }
  int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  return (i / b) % p;
}

static void check_darray(int ndims, const int *gs, const int *dist, const int *dargs,
                         const int *ps, int order)
{
  int size = 1;
  long total = 1;
  for (int d = 0; d < ndims; d++) {
    size *= ps[d];
    total *= gs[d];
  }
  char *seen = calloc((size_t)total, 1);
  for (int rank = 0; rank < size; rank++) {
    int coords[4];
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
      coords[d] = r % ps[d];
      r /= ps[d];
    }
    long *expect = malloc((size_t)total * sizeof *expect);
    size_t n = 0;
    int idx[4] = {0, 0, 0, 0};
    do {
      bool mine = true;
      for (int d = 0; d < ndims; d++)
        mine &= owner(dist[d], dargs[d], gs[d], ps[d], idx[d]) == coords[d];
      if (mine) {
        expect[n] = linear(ndims, idx, gs, order);
        seen[expect[n]]++;
        n++;
      }
    } while (next_index(ndims, idx, gs, order));
    MPI_Datatype t;
    ck_assert_int_eq(smpi_type_darray(size, rank, ndims, gs, dist, dargs, ps, order, MPI_INT, &t),
                     MPI_SUCCESS);
    check_int_layout(t, total, expect, n);
    free_type(&t);
    free(expect);
  }
  for (long i = 0; i < total; i++)
    ck_assert_msg(seen[i] == 1, "element %ld owned %d times", i, seen[i]);
  free(seen);
}

START_TEST(test_darray)
{
  const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE,
            D = MPI_DISTRIBUTE_DFLT_DARG;
  for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
    check_darray(2, (int[]){7, 10}, (int[]){B, C}, (int[]){D, 2}, (int[]){2, 3}, order);
    check_darray(2, (int[]){9, 4}, (int[]){C, B}, (int[]){D, 3}, (int[]){4, 2}, order);
    check_darray(1, (int[]){17}, (int[]){C}, (int[]){3}, (int[]){4}, order);
    check_darray(1, (int[]){5}, (int[]){B}, (int[]){D}, (int[]){4}, order); /* rank 3 empty */
    check_darray(3, (int[]){4, 5, 6}, (int[]){N, C, B}, (int[]){D, 2, 4}, (int[]){1, 2, 2},
                 order);
    check_darray(2, (int[]){3, 2}, (int[]){C, C}, (int[]){5, D}, (int[]){3, 2}, order);
  }
}
END_TEST

/* ======================================================================================
 * big types stay small
 * ====================================================================================== */

START_TEST(test_huge_counts_compact)
{
  MPI_Datatype v, s, c;
  ck_assert_int_eq(smpi_type_vector(100000, 1, 2, MPI_DOUBLE, &v), MPI_SUCCESS);
  v = committed(v);
  ck_assert_uint_eq(T(v)->prog->n, 1);
  double *a = malloc(200000 * sizeof *a), *out = malloc(100000 * sizeof *out);
  for (int i = 0; i < 200000; i++)
    a[i] = i;
  smpi_dt_pack(a, 1, T(v), out);
  for (int i = 0; i < 100000; i++)
    ck_assert(out[i] == 2.0 * i);
  /* a struct with two separate pieces, replicated 100000 times: one loop node */
  MPI_Aint d[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
  s = mkstruct(2, d, ty);
  ck_assert_uint_eq(T(s)->prog->n, 2);
  ck_assert_int_eq(smpi_type_contiguous(100000, s, &c), MPI_SUCCESS);
  c = committed(c);
  ck_assert_uint_le(T(c)->prog->n, 2);
  MPI_Datatype cv;
  ck_assert_int_eq(smpi_type_vector(1000, 3, 5, c, &cv), MPI_SUCCESS);
  ck_assert_uint_le(T(cv)->prog->n, 2);
  free_type(&cv);
  struct {
    int i;
    double x;
  } *recs = malloc(100000 * sizeof *recs);
  for (int i = 0; i < 100000; i++) {
    recs[i].i = i;
    recs[i].x = -i;
  }
  char *packed = malloc(100000 * 12);
  smpi_dt_pack(recs, 1, T(c), packed);
  for (int i = 0; i < 100000; i += 997) {
    int iv;
    double xv;
    memcpy(&iv, packed + 12 * i, 4);
    memcpy(&xv, packed + 12 * i + 4, 8);
    ck_assert(iv == i && xv == -i);
  }
  /* 4 elements of the vector: a count, not a bigger program; extent 199999 doubles */
  double *big = malloc(2 * 100000 * 4 * sizeof *big), *bout = malloc(4 * 100000 * sizeof *bout);
  for (int i = 0; i < 800000; i++)
    big[i] = i;
  smpi_dt_pack(big, 4, T(v), bout);
  ck_assert(bout[100000] == 199999.0 && bout[399999] == 3 * 199999.0 + 199998.0);
  free(big);
  free(bout);
  free(packed);
  free(recs);
  free(a);
  free(out);
  free_type(&v);
  free_type(&s);
  free_type(&c);
}
END_TEST

/* ======================================================================================
 * partial transfers, copies, elements
 * ====================================================================================== */

START_TEST(test_truncated_unpack_and_copy)
{
  MPI_Datatype v;
  ck_assert_int_eq(smpi_type_vector(3, 1, 2, MPI_INT, &v), MPI_SUCCESS);
  v = committed(v);
  int packed[3] = {10, 20, 30}, a[6] = {0};
  /* 2.5 ints of data: a partial int at the end is unpacked as far as the bytes go */
  smpi_dt_unpack(packed, 10, a, 1, T(v));
  ck_assert(a[0] == 10 && a[2] == 20 && a[1] == 0 && a[5] == 0);
  ck_assert_int_eq(a[4] & 0xffff, 30);

  /* typed copies between different layouts */
  int src[6] = {1, 2, 3, 4, 5, 6}, dst[6] = {0};
  size_t n = smpi_dt_copy(src, 1, T(v), dst, 3, T(MPI_INT));
  ck_assert_uint_eq(n, 12);
  ck_assert(dst[0] == 1 && dst[1] == 3 && dst[2] == 5 && dst[3] == 0);
  memset(dst, 0, sizeof dst);
  n = smpi_dt_copy(src, 3, T(MPI_INT), dst, 1, T(v));
  ck_assert(dst[0] == 1 && dst[2] == 2 && dst[4] == 3 && dst[1] == 0);
  int bl[2] = {1, 2}, di[2] = {5, 0};
  MPI_Datatype idx;
  ck_assert_int_eq(smpi_type_indexed(2, bl, di, MPI_INT, &idx), MPI_SUCCESS);
  idx = committed(idx);
  memset(dst, 0, sizeof dst);
  n = smpi_dt_copy(src, 1, T(v), dst, 1, T(idx));
  ck_assert_uint_eq(n, 12);
  ck_assert(dst[5] == 1 && dst[0] == 3 && dst[1] == 5);
  /* the smaller side bounds the copy */
  memset(dst, 0, sizeof dst);
  n = smpi_dt_copy(src, 1, T(v), dst, 2, T(MPI_INT));
  ck_assert_uint_eq(n, 8);
  ck_assert(dst[0] == 1 && dst[1] == 3 && dst[2] == 0);
  /* a partial element of a struct type (two pieces): whole elements, then byte by byte */
  MPI_Aint sd[2] = {0, 8};
  MPI_Datatype sty[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Datatype st = committed(mkstruct(2, sd, sty));
  struct {
    int i;
    double x;
  } recs[3] = {{1, 1.5}, {2, 2.5}, {3, 3.5}}, got[3];
  char packed3[36];
  smpi_dt_pack(recs, 3, T(st), packed3);
  memset(got, 0, sizeof got);
  smpi_dt_unpack(packed3, 30, got, 3, T(st));
  ck_assert(got[0].i == 1 && got[0].x == 1.5 && got[1].i == 2 && got[1].x == 2.5);
  ck_assert_int_eq(got[2].i, 3);
  ck_assert_mem_eq(&got[2].x, &recs[2].x, 2);
  ck_assert_int_eq(((unsigned char *)&got[2].x)[2], 0);
  free_type(&st);
  free_type(&v);
  free_type(&idx);
}
END_TEST

START_TEST(test_elements_and_count)
{
  MPI_Aint d[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Datatype s = committed(mkstruct(2, d, ty));
  smpi_dt *dt = T(s);
  ck_assert_int_eq(smpi_dt_elements(dt, 0), 0);
  ck_assert_int_eq(smpi_dt_elements(dt, 4), 1);
  ck_assert_int_eq(smpi_dt_elements(dt, 12), 2);
  ck_assert_int_eq(smpi_dt_elements(dt, 16), 3);
  ck_assert_int_eq(smpi_dt_elements(dt, 36), 6);
  ck_assert_int_eq(smpi_dt_elements(dt, 6), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_dt_elements(dt, 14), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_DOUBLE_INT), 8), 1);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_DOUBLE_INT), 12), 2);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_2INT), 8), 2);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_2INT), 4), 1);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_C_DOUBLE_COMPLEX), 16), 1);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_C_DOUBLE_COMPLEX), 8), MPI_UNDEFINED);
  ck_assert_int_eq(smpi_dt_elements(T(MPI_UB), 0), 0);
  /* a vector of the struct: the stream is struct after struct */
  MPI_Datatype v;
  ck_assert_int_eq(smpi_type_vector(2, 2, 3, s, &v), MPI_SUCCESS);
  ck_assert_int_eq(smpi_dt_elements(T(v), 28), 5);
  ck_assert_int_eq(smpi_dt_elements(T(v), 48 + 4), 9);

  MPI_Status st;
  memset(&st, 0, sizeof st);
  MPI_Count c;
  ck_assert_int_eq(smpi_status_set_elements(&st, s, 3), MPI_SUCCESS);
  ck_assert_int_eq(st.smpi_count, 16);
  ck_assert_int_eq(smpi_status_get_elements(&st, s, &c), MPI_SUCCESS);
  ck_assert_int_eq(c, 3);
  ck_assert_int_eq(smpi_status_get_count(&st, s, &c), MPI_SUCCESS);
  ck_assert_int_eq(c, MPI_UNDEFINED);
  ck_assert_int_eq(smpi_status_set_elements(&st, s, 4), MPI_SUCCESS);
  ck_assert_int_eq(smpi_status_get_count(&st, s, &c), MPI_SUCCESS);
  ck_assert_int_eq(c, 2);
  ck_assert_int_eq(smpi_status_get_count(&st, MPI_BYTE, &c), MPI_SUCCESS);
  ck_assert_int_eq(c, 24);
  ck_assert_int_eq(smpi_status_set_elements(&st, MPI_INT, 7), MPI_SUCCESS);
  ck_assert_int_eq(st.smpi_count, 28);
  ck_assert_int_eq(smpi_status_get_count(&st, MPI_DOUBLE, &c), MPI_SUCCESS);
  ck_assert_int_eq(c, MPI_UNDEFINED);
  ck_assert_int_eq(smpi_status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT);
  ck_assert_int_eq(smpi_status_get_count(MPI_STATUS_IGNORE, MPI_INT, &c), MPI_ERR_ARG);
  free_type(&s);
  free_type(&v);
}
END_TEST

START_TEST(test_basic_type)
{
  MPI_Datatype v, s, c;
  ck_assert_int_eq(smpi_type_vector(3, 1, 2, MPI_DOUBLE, &v), MPI_SUCCESS);
  ck_assert_int_eq(smpi_dt_basic_type(T(v)), MPI_DOUBLE);
  ck_assert_int_eq(smpi_dt_basic_type(T(MPI_2INT)), MPI_2INT);
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_DOUBLE_INT, &c), MPI_SUCCESS);
  ck_assert_int_eq(smpi_dt_basic_type(T(c)), MPI_DOUBLE_INT);
  MPI_Aint d[3] = {0, 8, 64};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_UB};
  s = mkstruct(3, d, ty);
  ck_assert_int_eq(smpi_dt_basic_type(T(s)), MPI_DATATYPE_NULL);
  free_type(&s);
  MPI_Datatype ty2[3] = {MPI_DOUBLE, v, MPI_UB};
  s = mkstruct(3, d, ty2); /* markers do not count */
  ck_assert_int_eq(smpi_dt_basic_type(T(s)), MPI_DOUBLE);
  free_type(&s);
  free_type(&v);
  free_type(&c);
}
END_TEST

/* ======================================================================================
 * external32
 * ====================================================================================== */

START_TEST(test_external32)
{
  unsigned char buf[64];
  MPI_Aint pos = 0, sz;
  int i = 258;
  ck_assert_int_eq(smpi_type_pack_external("external32", &i, 1, MPI_INT, buf, 64, &pos),
                   MPI_SUCCESS);
  ck_assert_int_eq(pos, 4);
  ck_assert(buf[0] == 0 && buf[1] == 0 && buf[2] == 1 && buf[3] == 2);
  long l = -2;
  ck_assert_int_eq(smpi_type_pack_external("external32", &l, 1, MPI_LONG, buf, 64, &pos),
                   MPI_SUCCESS);
  ck_assert_int_eq(pos, 8);
  ck_assert(buf[4] == 0xff && buf[5] == 0xff && buf[6] == 0xff && buf[7] == 0xfe);
  long double ld = 1.5L;
  ck_assert_int_eq(smpi_type_pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, buf, 64, &pos),
                   MPI_SUCCESS);
  ck_assert_int_eq(pos, 24);
  unsigned char e15[16] = {0x3f, 0xff, 0x80};
  ck_assert_mem_eq(buf + 8, e15, 16);
  double x = 1.0;
  ck_assert_int_eq(smpi_type_pack_external("external32", &x, 1, MPI_DOUBLE, buf, 64, &pos),
                   MPI_SUCCESS);
  unsigned char e1[8] = {0x3f, 0xf0};
  ck_assert_mem_eq(buf + 24, e1, 8);
  ck_assert_int_eq(smpi_type_pack_external("external32", &x, 5, MPI_DOUBLE, buf, 64, &pos),
                   MPI_ERR_TRUNCATE);
  ck_assert_int_eq(smpi_type_pack_external("native", &x, 1, MPI_DOUBLE, buf, 64, &pos),
                   MPI_ERR_UNSUPPORTED_DATAREP);

  /* unpack reverses: long narrowed to 4 bytes comes back sign-extended */
  pos = 0;
  int i2 = 0;
  long l2 = 0;
  long double ld2 = 0;
  ck_assert_int_eq(smpi_type_unpack_external("external32", buf, 64, &pos, &i2, 1, MPI_INT),
                   MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_unpack_external("external32", buf, 64, &pos, &l2, 1, MPI_LONG),
                   MPI_SUCCESS);
  ck_assert_int_eq(smpi_type_unpack_external("external32", buf, 64, &pos, &ld2, 1,
                                             MPI_LONG_DOUBLE),
                   MPI_SUCCESS);
  ck_assert(i2 == 258 && l2 == -2 && ld2 == 1.5L);

  ck_assert_int_eq(smpi_type_pack_external_size("external32", 3, MPI_DOUBLE_INT, &sz),
                   MPI_SUCCESS);
  ck_assert_int_eq(sz, 36);
  ck_assert_int_eq(smpi_type_pack_external_size("external32", 2, MPI_WCHAR, &sz), MPI_SUCCESS);
  ck_assert_int_eq(sz, 4);

  /* a struct round trip: {short, long double, unsigned long} in a vector */
  struct s3 {
    short s;
    long double v;
    unsigned long u;
  } in[2] = {{-5, -3.25L, 7}, {300, 1e-300L, 4000000000UL}}, out[2];
  memset(out, 0, sizeof out);
  int bl[3] = {1, 1, 1};
  MPI_Aint d[3] = {offsetof(struct s3, s), offsetof(struct s3, v), offsetof(struct s3, u)};
  MPI_Datatype ty[3] = {MPI_SHORT, MPI_LONG_DOUBLE, MPI_UNSIGNED_LONG}, t;
  ck_assert_int_eq(smpi_type_struct(3, bl, d, ty, &t), MPI_SUCCESS);
  t = committed(t);
  ck_assert_int_eq(smpi_type_pack_external_size("external32", 2, t, &sz), MPI_SUCCESS);
  ck_assert_int_eq(sz, 2 * (2 + 16 + 4));
  unsigned char ext[44];
  pos = 0;
  ck_assert_int_eq(smpi_type_pack_external("external32", in, 2, t, ext, 44, &pos), MPI_SUCCESS);
  ck_assert_int_eq(pos, 44);
  ck_assert(ext[0] == 0xff && ext[1] == 0xfb); /* -5 */
  pos = 0;
  ck_assert_int_eq(smpi_type_unpack_external("external32", ext, 44, &pos, out, 2, t),
                   MPI_SUCCESS);
  for (int k = 0; k < 2; k++)
    ck_assert(out[k].s == in[k].s && out[k].v == in[k].v && out[k].u == in[k].u);
  free_type(&t);

  /* pairs: value then a 4-byte int */
  struct {
    short v;
    int i;
  } si = {-3, 7};
  pos = 0;
  ck_assert_int_eq(smpi_type_pack_external("external32", &si, 1, MPI_SHORT_INT, buf, 64, &pos),
                   MPI_SUCCESS);
  unsigned char esi[6] = {0xff, 0xfd, 0, 0, 0, 7};
  ck_assert_int_eq(pos, 6);
  ck_assert_mem_eq(buf, esi, 6);
}
END_TEST

/* ======================================================================================
 * reduction ops
 * ====================================================================================== */

static int apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype dt)
{
  return smpi_op_apply(smpi_op_get(op), in, inout, count, dt);
}

START_TEST(test_op_basic)
{
  int a[3] = {1, 5, -3}, b[3] = {2, 4, -7};
  ck_assert_int_eq(apply(MPI_SUM, a, b, 3, MPI_INT), MPI_SUCCESS);
  ck_assert(b[0] == 3 && b[1] == 9 && b[2] == -10);
  ck_assert_int_eq(apply(MPI_MAX, a, b, 3, MPI_INT), MPI_SUCCESS);
  ck_assert(b[0] == 3 && b[1] == 9 && b[2] == -3);
  float fa[2] = {1.5f, -2}, fb[2] = {1, -1};
  ck_assert_int_eq(apply(MPI_MIN, fa, fb, 2, MPI_FLOAT), MPI_SUCCESS);
  ck_assert(fb[0] == 1 && fb[1] == -2);
  ck_assert_int_eq(apply(MPI_PROD, fa, fb, 2, MPI_REAL), MPI_SUCCESS);
  ck_assert(fb[0] == 1.5f && fb[1] == 4);
  unsigned char ba = 0xf0, bb = 0x3c;
  ck_assert_int_eq(apply(MPI_BXOR, &ba, &bb, 1, MPI_BYTE), MPI_SUCCESS);
  ck_assert_int_eq(bb, 0xcc);
  _Bool la[2] = {1, 0}, lb[2] = {1, 1};
  ck_assert_int_eq(apply(MPI_LAND, la, lb, 2, MPI_C_BOOL), MPI_SUCCESS);
  ck_assert(lb[0] == 1 && lb[1] == 0);
  int fl[2] = {1, 0}, fl2[2] = {0, 0};
  ck_assert_int_eq(apply(MPI_LOR, fl, fl2, 2, MPI_LOGICAL), MPI_SUCCESS);
  ck_assert(fl2[0] == 1 && fl2[1] == 0);
  int xa[2] = {5, 0}, xb[2] = {3, 2};
  ck_assert_int_eq(apply(MPI_LXOR, xa, xb, 2, MPI_INT), MPI_SUCCESS);
  ck_assert(xb[0] == 0 && xb[1] == 1);
  double complex za = 1 + 2 * I, zb = 3 - 1 * I;
  ck_assert_int_eq(apply(MPI_PROD, &za, &zb, 1, MPI_C_DOUBLE_COMPLEX), MPI_SUCCESS);
  ck_assert(creal(zb) == 5 && cimag(zb) == 5);
  long long ia = 1LL << 40, ib = 3;
  ck_assert_int_eq(apply(MPI_SUM, &ia, &ib, 1, MPI_COUNT), MPI_SUCCESS);
  ck_assert(ib == (1LL << 40) + 3);
  __float128 qa = 2, qb = 0.5;
  ck_assert_int_eq(apply(MPI_PROD, &qa, &qb, 1, MPI_REAL16), MPI_SUCCESS);
  ck_assert(qb == 1);
  /* the buffers need no alignment */
  char ua[1 + 2 * sizeof(double)], ub[1 + 2 * sizeof(double)];
  double d1[2] = {1, 2}, d2[2] = {10, 20};
  memcpy(ua + 1, d1, sizeof d1);
  memcpy(ub + 1, d2, sizeof d2);
  ck_assert_int_eq(apply(MPI_SUM, ua + 1, ub + 1, 2, MPI_DOUBLE), MPI_SUCCESS);
  memcpy(d2, ub + 1, sizeof d2);
  ck_assert(d2[0] == 11 && d2[1] == 22);
}
END_TEST

START_TEST(test_op_type_rules)
{
  double da = 1, db = 2;
  ck_assert(!smpi_op_allows(MPI_BAND, MPI_DOUBLE));
  ck_assert_int_eq(apply(MPI_BAND, &da, &db, 1, MPI_DOUBLE), MPI_ERR_OP);
  ck_assert(db == 2); /* untouched */
  ck_assert_int_eq(apply(MPI_LAND, &da, &db, 1, MPI_DOUBLE), MPI_ERR_OP);
  int ia = 1, ib = 2;
  /* Fortran integers take the logical ops too, as in MPICH (MPI_AINT, MPI_OFFSET, ...) */
  ck_assert_int_eq(apply(MPI_LAND, &ia, &ib, 1, MPI_INTEGER), MPI_SUCCESS);
  ck_assert_int_eq(ib, 1);
  ck_assert_int_eq(apply(MPI_BAND, &ia, &ib, 1, MPI_INTEGER), MPI_SUCCESS);
  ck_assert_int_eq(apply(MPI_SUM, &ia, &ib, 1, MPI_LOGICAL), MPI_ERR_OP);
  ck_assert_int_eq(apply(MPI_MAX, &ia, &ib, 1, MPI_2INT), MPI_ERR_OP);
  ck_assert_int_eq(apply(MPI_MAXLOC, &ia, &ib, 1, MPI_INT), MPI_ERR_OP);
  ck_assert(!smpi_op_allows(MPI_MAX, MPI_C_DOUBLE_COMPLEX));
  ck_assert(smpi_op_allows(MPI_SUM, MPI_C_DOUBLE_COMPLEX));
  ck_assert(!smpi_op_allows(MPI_MAX, MPI_C_BOOL));
  ck_assert(!smpi_op_allows(MPI_BOR, MPI_C_BOOL));
  ck_assert(smpi_op_allows(MPI_LOR, MPI_C_BOOL));
  ck_assert(!smpi_op_allows(MPI_SUM, MPI_BYTE));
  ck_assert(smpi_op_allows(MPI_BOR, MPI_BYTE));
  ck_assert(!smpi_op_allows(MPI_SUM, MPI_PACKED));
  ck_assert(!smpi_op_allows(MPI_SUM, MPI_WCHAR));
  ck_assert(smpi_op_allows(MPI_SUM, MPI_CHAR)); /* MPICH's extension */
  ck_assert(smpi_op_allows(MPI_BAND, MPI_AINT));
  ck_assert(smpi_op_allows(MPI_LAND, MPI_AINT)); /* as MPICH: tests/mpi/op_types.c */
  ck_assert(smpi_op_allows(MPI_MINLOC, MPI_2DOUBLE_PRECISION));
  ck_assert(smpi_op_allows(MPI_REPLACE, MPI_PACKED));
  /* mixed basic types: refused */
  MPI_Aint d[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Datatype s = committed(mkstruct(2, d, ty));
  char x[16] = {0}, y[16] = {0};
  ck_assert_int_eq(apply(MPI_SUM, x, y, 1, s), MPI_ERR_OP);
  free_type(&s);
}
END_TEST

START_TEST(test_op_loc)
{
  struct {
    double v;
    int i;
  } a[3] = {{1, 7}, {2, 3}, {5, 1}}, b[3] = {{1, 2}, {2, 9}, {4, 0}};
  ck_assert_int_eq(apply(MPI_MAXLOC, a, b, 3, MPI_DOUBLE_INT), MPI_SUCCESS);
  /* ties keep the lower index, whichever side it comes from */
  ck_assert(b[0].v == 1 && b[0].i == 2);
  ck_assert(b[1].v == 2 && b[1].i == 3);
  ck_assert(b[2].v == 5 && b[2].i == 1);
  struct {
    float v;
    int i;
  } fa = {1, 8}, fb = {1, 4};
  ck_assert_int_eq(apply(MPI_MINLOC, &fa, &fb, 1, MPI_FLOAT_INT), MPI_SUCCESS);
  ck_assert(fb.i == 4);
  fb.v = 0.5f;
  ck_assert_int_eq(apply(MPI_MINLOC, &fa, &fb, 1, MPI_FLOAT_INT), MPI_SUCCESS);
  ck_assert(fb.v == 0.5f && fb.i == 4);
  int p[2] = {3, 10}, q[2] = {3, 11};
  ck_assert_int_eq(apply(MPI_MINLOC, p, q, 1, MPI_2INT), MPI_SUCCESS);
  ck_assert(q[0] == 3 && q[1] == 10);
  double r[2] = {2.5, 1}, t[2] = {2.0, 0};
  ck_assert_int_eq(apply(MPI_MAXLOC, r, t, 1, MPI_2DOUBLE_PRECISION), MPI_SUCCESS);
  ck_assert(t[0] == 2.5 && t[1] == 1);

  /* MPI_SHORT_INT (value, padding, int) in a non-contiguous vector: every other element */
  struct si {
    short v;
    int i;
  } sa[4] = {{1, 1}, {9, 9}, {5, 2}, {9, 9}}, sb[4] = {{3, 4}, {0, 0}, {5, 1}, {0, 0}};
  MPI_Datatype v;
  ck_assert_int_eq(smpi_type_vector(2, 1, 2, MPI_SHORT_INT, &v), MPI_SUCCESS);
  v = committed(v);
  ck_assert_int_eq(apply(MPI_MAXLOC, sa, sb, 1, v), MPI_SUCCESS);
  ck_assert(sb[0].v == 3 && sb[0].i == 4);
  ck_assert(sb[2].v == 5 && sb[2].i == 1);
  ck_assert(sb[1].v == 0 && sb[1].i == 0 && sb[3].v == 0); /* gaps untouched */
  free_type(&v);
}
END_TEST

START_TEST(test_op_derived)
{
  /* SUM over every other double: the gaps of inout stay as they were */
  double a[6] = {1, 100, 2, 100, 3, 100}, b[6] = {10, -1, 20, -1, 30, -1};
  MPI_Datatype v;
  ck_assert_int_eq(smpi_type_vector(3, 1, 2, MPI_DOUBLE, &v), MPI_SUCCESS);
  v = committed(v);
  ck_assert_int_eq(apply(MPI_SUM, a, b, 1, v), MPI_SUCCESS);
  ck_assert(b[0] == 11 && b[2] == 22 && b[4] == 33);
  ck_assert(b[1] == -1 && b[3] == -1 && b[5] == -1);
  /* contiguous derived: in place */
  MPI_Datatype c;
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_INT, &c), MPI_SUCCESS);
  c = committed(c);
  int x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
  ck_assert_int_eq(apply(MPI_PROD, x, y, 2, c), MPI_SUCCESS);
  ck_assert(y[0] == 10 && y[1] == 40 && y[2] == 90 && y[3] == 160);
  /* MPI_REPLACE copies, NO_OP does nothing */
  ck_assert_int_eq(apply(MPI_REPLACE, a, b, 1, v), MPI_SUCCESS);
  ck_assert(b[0] == 1 && b[2] == 2 && b[4] == 3 && b[1] == -1);
  ck_assert_int_eq(apply(MPI_NO_OP, x, y, 2, c), MPI_SUCCESS);
  ck_assert(y[0] == 10);
  free_type(&v);
  free_type(&c);
}
END_TEST

static int seen_len;
static MPI_Datatype seen_type;
static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  seen_len = *len;
  seen_type = *dt;
  /* non-commutative: inout = in - inout on the first int of each element */
  int *a = in, *b = inout;
  for (int k = 0; k < *len; k++)
    b[2 * k] = a[2 * k] - b[2 * k];
}

START_TEST(test_op_user)
{
  MPI_Op op;
  ck_assert_int_eq(smpi_op_create(user_fn, 0, &op), MPI_SUCCESS);
  smpi_op *o = smpi_op_get(op);
  ck_assert_ptr_nonnull(o);
  ck_assert(!smpi_op_is_commutative(o));
  ck_assert(!smpi_op_is_predefined(o));
  MPI_Datatype c;
  ck_assert_int_eq(smpi_type_contiguous(2, MPI_INT, &c), MPI_SUCCESS);
  c = committed(c);
  int a[4] = {10, 0, 20, 0}, b[4] = {1, 0, 2, 0};
  ck_assert_int_eq(smpi_op_apply(o, a, b, 2, c), MPI_SUCCESS);
  ck_assert_int_eq(seen_len, 2); /* the user's count and handle, not basic elements */
  ck_assert_int_eq(seen_type, c);
  ck_assert(b[0] == 9 && b[2] == 18);
  ck_assert(smpi_op_is_commutative(smpi_op_get(MPI_SUM)));
  ck_assert(!smpi_op_is_commutative(smpi_op_get(MPI_REPLACE)));
  MPI_Op sum = MPI_SUM;
  ck_assert_int_eq(smpi_op_free(&sum), MPI_ERR_OP);
  MPI_Op keep = op;
  ck_assert_int_eq(smpi_op_free(&op), MPI_SUCCESS);
  ck_assert_int_eq(op, MPI_OP_NULL);
  ck_assert_ptr_null(smpi_op_get(keep));
  ck_assert_ptr_null(smpi_op_get(MPI_OP_NULL));
  free_type(&c);
}
END_TEST

static Suite *datatype_suite(void)
{
  Suite *s = suite_create("datatype");
  TCase *tc = tcase_create("types");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_predefined_bounds);
  tcase_add_test(tc, test_predefined_pair_layout);
  tcase_add_test(tc, test_predefined_envelope_names);
  tcase_add_test(tc, test_match_size);
  tcase_add_test(tc, test_contiguous);
  tcase_add_test(tc, test_vector);
  tcase_add_test(tc, test_hvector_of_struct);
  tcase_add_test(tc, test_indexed_family);
  tcase_add_test(tc, test_struct_padding_like_mpich);
  tcase_add_test(tc, test_struct_layout_real_c_struct);
  tcase_add_test(tc, test_resized_and_dup);
  tcase_add_test(tc, test_contents);
  tcase_add_test(tc, test_free_keeps_users_alive);
  tcase_add_test(tc, test_argument_errors);
  tcase_add_test(tc, test_subarray);
  tcase_add_test(tc, test_darray);
  tcase_add_test(tc, test_huge_counts_compact);
  tcase_add_test(tc, test_truncated_unpack_and_copy);
  tcase_add_test(tc, test_elements_and_count);
  tcase_add_test(tc, test_basic_type);
  tcase_add_test(tc, test_external32);
  suite_add_tcase(s, tc);
  TCase *ops = tcase_create("ops");
  tcase_add_checked_fixture(ops, setup, NULL);
  tcase_add_test(ops, test_op_basic);
  tcase_add_test(ops, test_op_type_rules);
  tcase_add_test(ops, test_op_loc);
  tcase_add_test(ops, test_op_derived);
  tcase_add_test(ops, test_op_user);
  suite_add_tcase(s, ops);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(datatype_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
