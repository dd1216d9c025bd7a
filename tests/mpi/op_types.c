/* op_types: every predefined reduction op on every predefined C type the standard allows it
 * on (MPI 3.1 section 5.9.2: C integer incl. the C99 fixed-width types, Fortran integer
 * = MPI_AINT/MPI_OFFSET/MPI_COUNT, floating point, logical, complex, byte, the pair types
 * with MPI_MAXLOC/MPI_MINLOC; the logical ops also on MPI_AINT/OFFSET/COUNT, as MPICH
 * allows), each through MPI_Allreduce with its value checked against the same fold over
 * the ranks computed locally in the type; then combinations the standard forbids must fail
 * with MPI_ERR_OP (MPI_REPLACE/MPI_NO_OP belong to one-sided communication). Any number of
 * ranks (the suite uses 3). Plain MPI: the test runs it under MPICH too. */
#define MPITEST_NAME "op_types"
#define MPITEST_MAX_REPORTS 40
#include "mpitest.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define N 5 /* elements */

/* small values, a zero in the last element (logical ops), products exact in every type */
static int v(int r, int k) { return ((r + 1) * (k + 1)) % 5; }

enum { MAX, MIN, SUM, PROD, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const char *op_name[NOPS] = {"MAX", "MIN",  "SUM",  "PROD", "LAND",
                                    "LOR", "LXOR", "BAND", "BOR",  "BXOR"};
static MPI_Op op_of(int o)
{
  MPI_Op ops[NOPS] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD, MPI_LAND,
                      MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR,  MPI_BXOR};
  return ops[o];
}

/* one C type: the ops of mask, each checked element by element */
#define DEF_TEST(fname, T, INTEGRAL)                                                      \
  static void fname(MPI_Datatype dt, const char *dn, unsigned mask)                       \
  {                                                                                       \
    int me = wrank(), n = wsize();                                                        \
    for (int o = 0; o < NOPS; o++) {                                                      \
      if (!(mask & (1u << o)))                                                            \
        continue;                                                                         \
      T in[N], out[N];                                                                    \
      for (int k = 0; k < N; k++)                                                         \
        in[k] = (T)v(me, k), out[k] = (T)99;                                              \
      int rc = MPI_Allreduce(in, out, N, dt, op_of(o), MPI_COMM_WORLD);                   \
      CHECK(rc == MPI_SUCCESS, "%s on %s: error class %d", op_name[o], dn, class_of(rc)); \
      if (rc != MPI_SUCCESS)                                                              \
        continue;                                                                         \
      for (int k = 0; k < N; k++) {                                                       \
        T e = (T)v(0, k);                                                                 \
        for (int r = 1; r < n; r++) {                                                     \
          T a = (T)v(r, k);                                                               \
          switch (o) {                                                                    \
          case MAX:                                                                       \
            e = a > e ? a : e;                                                            \
            break;                                                                        \
          case MIN:                                                                       \
            e = a < e ? a : e;                                                            \
            break;                                                                        \
          case SUM:                                                                       \
            e = (T)(e + a);                                                               \
            break;                                                                        \
          case PROD:                                                                      \
            e = (T)(e * a);                                                               \
            break;                                                                        \
          case LAND:                                                                      \
            e = (T)(e && a);                                                              \
            break;                                                                        \
          case LOR:                                                                       \
            e = (T)(e || a);                                                              \
            break;                                                                        \
          case LXOR:                                                                      \
            e = (T)(!e != !a);                                                            \
            break;                                                                        \
            INTEGRAL(e, a)                                                                \
          }                                                                               \
        }                                                                                 \
        CHECK(out[k] == e, "%s on %s: element %d = %g, expected %g", op_name[o], dn, k,   \
              (double)out[k], (double)e);                                                 \
      }                                                                                   \
    }                                                                                     \
  }
#define BITWISE(e, a) \
  case BAND:          \
    e = e & a;        \
    break;            \
  case BOR:           \
    e = e | a;        \
    break;            \
  case BXOR:          \
    e = e ^ a;        \
    break;
#define NO_BITS(e, a)

DEF_TEST(t_schar, signed char, BITWISE)
DEF_TEST(t_uchar, unsigned char, BITWISE)
DEF_TEST(t_short, short, BITWISE)
DEF_TEST(t_ushort, unsigned short, BITWISE)
DEF_TEST(t_int, int, BITWISE)
DEF_TEST(t_uint, unsigned, BITWISE)
DEF_TEST(t_long, long, BITWISE)
DEF_TEST(t_ulong, unsigned long, BITWISE)
DEF_TEST(t_llong, long long, BITWISE)
DEF_TEST(t_ullong, unsigned long long, BITWISE)
DEF_TEST(t_i8, int8_t, BITWISE)
DEF_TEST(t_i16, int16_t, BITWISE)
DEF_TEST(t_i32, int32_t, BITWISE)
DEF_TEST(t_i64, int64_t, BITWISE)
DEF_TEST(t_u8, uint8_t, BITWISE)
DEF_TEST(t_u16, uint16_t, BITWISE)
DEF_TEST(t_u32, uint32_t, BITWISE)
DEF_TEST(t_u64, uint64_t, BITWISE)
DEF_TEST(t_aint, MPI_Aint, BITWISE)
DEF_TEST(t_offset, MPI_Offset, BITWISE)
DEF_TEST(t_count, MPI_Count, BITWISE)
DEF_TEST(t_float, float, NO_BITS)
DEF_TEST(t_double, double, NO_BITS)
DEF_TEST(t_ldouble, long double, NO_BITS)

/* MPI_C_BOOL: the logical ops (a type of its own: arithmetic on bool draws warnings) */
static void t_bool(void)
{
  int me = wrank(), n = wsize();
  for (int o = LAND; o <= LXOR; o++) {
    bool in[N], out[N];
    for (int k = 0; k < N; k++)
      in[k] = v(me, k) % 2, out[k] = false;
    int rc = MPI_Allreduce(in, out, N, MPI_C_BOOL, op_of(o), MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "%s on MPI_C_BOOL: error class %d", op_name[o], class_of(rc));
    for (int k = 0; rc == MPI_SUCCESS && k < N; k++) {
      bool e = v(0, k) % 2;
      for (int r = 1; r < n; r++) {
        bool a = v(r, k) % 2;
        e = o == LAND ? e && a : o == LOR ? e || a : e != a;
      }
      CHECK(out[k] == e, "%s on MPI_C_BOOL: element %d = %d", op_name[o], k, out[k]);
    }
  }
}

#define ARITH ((1u << MAX) | (1u << MIN) | (1u << SUM) | (1u << PROD))
#define LOGIC ((1u << LAND) | (1u << LOR) | (1u << LXOR))
#define BITS ((1u << BAND) | (1u << BOR) | (1u << BXOR))
#define ALLINT (ARITH | LOGIC | BITS)

/* complex: SUM and PROD of (r + 1) + k i, exact in binary */
#define DEF_COMPLEX(fname, T)                                                                    \
  static void fname(MPI_Datatype dt, const char *dn)                                             \
  {                                                                                              \
    int me = wrank(), n = wsize();                                                               \
    for (int o = SUM; o <= PROD; o++) {                                                          \
      T in[N], out[N];                                                                           \
      for (int k = 0; k < N; k++)                                                                \
        in[k] = (T)(me + 1) + (T)k * I, out[k] = 0;                                              \
      int rc = MPI_Allreduce(in, out, N, dt, op_of(o), MPI_COMM_WORLD);                          \
      CHECK(rc == MPI_SUCCESS, "%s on %s: error class %d", op_name[o], dn, class_of(rc));        \
      for (int k = 0; rc == MPI_SUCCESS && k < N; k++) {                                         \
        T e = (T)1 + (T)k * I;                                                                   \
        for (int r = 1; r < n; r++)                                                              \
          e = o == SUM ? e + ((T)(r + 1) + (T)k * I) : e * ((T)(r + 1) + (T)k * I);              \
        CHECK(out[k] == e, "%s on %s: element %d = %g%+gi, expected %g%+gi", op_name[o], dn, k,  \
              (double)creal(out[k]), (double)cimag(out[k]), (double)creal(e), (double)cimag(e)); \
      }                                                                                          \
    }                                                                                            \
  }
DEF_COMPLEX(t_cfloat, float _Complex)
DEF_COMPLEX(t_cdouble, double _Complex)
DEF_COMPLEX(t_cldouble, long double _Complex)

/* pairs: value (7 r + k) % 3 (ties), index r; MAXLOC/MINLOC keep the lowest index on a tie */
#define DEF_PAIR(fname, VT)                                                                 \
  static void fname(MPI_Datatype dt, const char *dn)                                        \
  {                                                                                         \
    struct {                                                                                \
      VT val;                                                                               \
      int loc;                                                                              \
    } in[N], out[N];                                                                        \
    int me = wrank(), n = wsize();                                                          \
    for (int mx = 0; mx < 2; mx++) {                                                        \
      for (int k = 0; k < N; k++) {                                                         \
        in[k].val = (VT)((7 * me + k) % 3);                                                 \
        in[k].loc = me;                                                                     \
        out[k].val = (VT)-1, out[k].loc = -1;                                               \
      }                                                                                     \
      int rc = MPI_Allreduce(in, out, N, dt, mx ? MPI_MAXLOC : MPI_MINLOC, MPI_COMM_WORLD); \
      CHECK(rc == MPI_SUCCESS, "%s on %s: error class %d", mx ? "MAXLOC" : "MINLOC", dn,    \
            class_of(rc));                                                                  \
      for (int k = 0; rc == MPI_SUCCESS && k < N; k++) {                                    \
        VT best = (VT)(k % 3);                                                              \
        int at = 0;                                                                         \
        for (int r = 1; r < n; r++) {                                                       \
          VT x = (VT)((7 * r + k) % 3);                                                     \
          if (mx ? x > best : x < best)                                                     \
            best = x, at = r;                                                               \
        }                                                                                   \
        CHECK(out[k].val == best && out[k].loc == at, "%s on %s: element %d = (%g, %d)",    \
              mx ? "MAXLOC" : "MINLOC", dn, k, (double)out[k].val, out[k].loc);             \
      }                                                                                     \
    }                                                                                       \
  }
DEF_PAIR(t_float_int, float)
DEF_PAIR(t_double_int, double)
DEF_PAIR(t_long_int, long)
DEF_PAIR(t_2int, int)
DEF_PAIR(t_short_int, short)
DEF_PAIR(t_ldouble_int, long double)

/* MPI_BYTE: the bitwise ops */
static void t_byte(void)
{
  unsigned char in[N], out[N];
  int me = wrank(), n = wsize();
  for (int o = BAND; o <= BXOR; o++) {
    for (int k = 0; k < N; k++)
      in[k] = (unsigned char)(0x11 * v(me, k) + me), out[k] = 0;
    int rc = MPI_Allreduce(in, out, N, MPI_BYTE, op_of(o), MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "%s on MPI_BYTE: error class %d", op_name[o], class_of(rc));
    for (int k = 0; rc == MPI_SUCCESS && k < N; k++) {
      unsigned e = 0x11 * v(0, k);
      for (int r = 1; r < n; r++) {
        unsigned a = (0x11 * v(r, k) + r) & 0xff;
        e = o == BAND ? e & a : o == BOR ? e | a : e ^ a;
      }
      CHECK(out[k] == e, "%s on MPI_BYTE: element %d = %#x, expected %#x", op_name[o], k, out[k],
            e);
    }
  }
}

/* forbidden combinations: MPI_ERR_OP, the same on every rank */
static void t_forbidden(void)
{
  struct {
    MPI_Datatype t;
    MPI_Op op;
    const char *what;
  } bad[] = {
      {MPI_FLOAT, MPI_BAND, "BAND on MPI_FLOAT"},
      {MPI_DOUBLE, MPI_BXOR, "BXOR on MPI_DOUBLE"},
      {MPI_C_DOUBLE_COMPLEX, MPI_MAX, "MAX on MPI_C_DOUBLE_COMPLEX"},
      {MPI_C_FLOAT_COMPLEX, MPI_LAND, "LAND on MPI_C_FLOAT_COMPLEX"},
      {MPI_BYTE, MPI_SUM, "SUM on MPI_BYTE"},
      {MPI_C_BOOL, MPI_SUM, "SUM on MPI_C_BOOL"},
      {MPI_2INT, MPI_SUM, "SUM on MPI_2INT"},
      {MPI_INT, MPI_MAXLOC, "MAXLOC on MPI_INT"},
      {MPI_DOUBLE_INT, MPI_MAX, "MAX on MPI_DOUBLE_INT"},
      {MPI_INT, MPI_REPLACE, "MPI_REPLACE in a collective"},
      {MPI_INT, MPI_NO_OP, "MPI_NO_OP in a collective"},
  };
  char in[64] = {0}, out[64];
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK_CLASS(MPI_Allreduce(in, out, 1, bad[i].t, bad[i].op, MPI_COMM_WORLD), MPI_ERR_OP,
                bad[i].what);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  t_schar(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", ALLINT);
  t_uchar(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", ALLINT);
  t_short(MPI_SHORT, "MPI_SHORT", ALLINT);
  t_ushort(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", ALLINT);
  t_int(MPI_INT, "MPI_INT", ALLINT);
  t_uint(MPI_UNSIGNED, "MPI_UNSIGNED", ALLINT);
  t_long(MPI_LONG, "MPI_LONG", ALLINT);
  t_ulong(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", ALLINT);
  t_llong(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", ALLINT);
  t_llong(MPI_LONG_LONG, "MPI_LONG_LONG", ALLINT);
  t_ullong(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", ALLINT);
  t_i8(MPI_INT8_T, "MPI_INT8_T", ALLINT);
  t_i16(MPI_INT16_T, "MPI_INT16_T", ALLINT);
  t_i32(MPI_INT32_T, "MPI_INT32_T", ALLINT);
  t_i64(MPI_INT64_T, "MPI_INT64_T", ALLINT);
  t_u8(MPI_UINT8_T, "MPI_UINT8_T", ALLINT);
  t_u16(MPI_UINT16_T, "MPI_UINT16_T", ALLINT);
  t_u32(MPI_UINT32_T, "MPI_UINT32_T", ALLINT);
  t_u64(MPI_UINT64_T, "MPI_UINT64_T", ALLINT);
  t_aint(MPI_AINT, "MPI_AINT", ALLINT);
  t_offset(MPI_OFFSET, "MPI_OFFSET", ALLINT);
  t_count(MPI_COUNT, "MPI_COUNT", ALLINT);
  t_float(MPI_FLOAT, "MPI_FLOAT", ARITH);
  t_double(MPI_DOUBLE, "MPI_DOUBLE", ARITH);
  t_ldouble(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", ARITH);
  t_bool();
  t_cfloat(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX");
  t_cfloat(MPI_C_COMPLEX, "MPI_C_COMPLEX");
  t_cdouble(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX");
  t_cldouble(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX");
  t_float_int(MPI_FLOAT_INT, "MPI_FLOAT_INT");
  t_double_int(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
  t_long_int(MPI_LONG_INT, "MPI_LONG_INT");
  t_2int(MPI_2INT, "MPI_2INT");
  t_short_int(MPI_SHORT_INT, "MPI_SHORT_INT");
  t_ldouble_int(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT");
  t_byte();
  t_forbidden();
  return mpitest_finalize();
}
