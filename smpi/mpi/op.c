/* Reduction operations: the predefined ops with the type groups of MPI 3.1 (5.9.2), user
 * ops (MPI_Op_create), and MPI_Reduce_local.
 *
 *   op                    types
 *   MAX MIN               C integer, Fortran integer, floating point
 *   SUM PROD              C integer, Fortran integer, floating point, complex
 *   LAND LOR LXOR         C integer, logical
 *   BAND BOR BXOR         C integer, Fortran integer, byte
 *   MAXLOC MINLOC         pair types (MPI_DOUBLE_INT, MPI_2INT, MPI_2REAL, ...)
 *   REPLACE NO_OP         any type, one-sided operations only (refused by MPI_Reduce_local)
 * As in MPICH, MPI_CHAR and MPI_CHARACTER count as C integers (the standard leaves them out).
 * MPI_AINT, MPI_OFFSET and MPI_COUNT are Fortran integers in MPI 3.1's table.
 *
 * A predefined op on a derived type applies to its basic elements when they are all the
 * same basic type. Kernels read and write through memcpy, so buffers need no alignment,
 * and see a pair either in memory layout (struct {double v; int i;}: index at offset 8,
 * 16 bytes apart) or packed (index right after the value, 12 bytes apart).
 * The MPI functions (MPI_Op_create, MPI_Reduce_local...) are in smpi/bindings/op.c, so this file
 * links without the runtime. */
#include "smpi/mpi/op_impl.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/datatype.h"
#include "smpi/mpi/handle.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/runtime/copies.h"
#include "src/invariant.h"
#include "src/mem.h"

struct smpi_op {
  int refs;
  bool predefined;
  bool commute;
  int code; /* predefined: OPC_* */
  MPI_User_function *fn;
};

enum {
  OPC_MAX = 1,
  OPC_MIN,
  OPC_SUM,
  OPC_PROD,
  OPC_LAND,
  OPC_BAND,
  OPC_LOR,
  OPC_BOR,
  OPC_LXOR,
  OPC_BXOR,
  OPC_MINLOC,
  OPC_MAXLOC,
  OPC_REPLACE,
  OPC_NO_OP,
};
_Static_assert(OPC_NO_OP == SMPI_HANDLE_INDEX(MPI_NO_OP) && OPC_MAX == SMPI_HANDLE_INDEX(MPI_MAX),
               "op codes are the handle indices");

/* ---- C representations of the predefined types ---- */
typedef enum {
  CT_NONE,
  CT_CHAR,
  CT_SCHAR,
  CT_UCHAR,
  CT_SHORT,
  CT_USHORT,
  CT_INT,
  CT_UINT,
  CT_LONG,
  CT_ULONG,
  CT_LLONG,
  CT_ULLONG,
  CT_I8,
  CT_I16,
  CT_I32,
  CT_I64,
  CT_U8,
  CT_U16,
  CT_U32,
  CT_U64,
  CT_I128,
  CT_BOOL,
  CT_FLOAT,
  CT_DOUBLE,
  CT_LDOUBLE,
  CT_F16,
  CT_F128,
  CT_CFLOAT,
  CT_CDOUBLE,
  CT_CLDOUBLE,
  CT_CF16,
  CT_CF128,
  CT_FLOAT_INT,
  CT_DOUBLE_INT,
  CT_LONG_INT,
  CT_SHORT_INT,
  CT_LDOUBLE_INT,
  CT_2INT,
  CT_2FLOAT,
  CT_2DOUBLE,
} ctype;

/* type groups of the standard's table */
enum {
  G_CINT = 1,
  G_FINT = 2,
  G_FLOAT = 4,
  G_LOGICAL = 8,
  G_COMPLEX = 16,
  G_BYTE = 32,
  G_PAIR = 64,
};

typedef struct {
  MPI_Datatype h;
  ctype ct;
  int groups;
} type_entry;

#ifdef __FLT16_MAX__
#define HAVE_F16 1
typedef _Float16 op_f16;
#define G_F16 G_FLOAT
#define G_CF16 G_COMPLEX
#else
#define G_F16 0
#define G_CF16 0
#endif

static const type_entry type_table[] = {
    {MPI_CHAR, CT_CHAR, G_CINT},
    {MPI_SIGNED_CHAR, CT_SCHAR, G_CINT},
    {MPI_UNSIGNED_CHAR, CT_UCHAR, G_CINT},
    {MPI_BYTE, CT_UCHAR, G_BYTE},
    {MPI_SHORT, CT_SHORT, G_CINT},
    {MPI_UNSIGNED_SHORT, CT_USHORT, G_CINT},
    {MPI_INT, CT_INT, G_CINT},
    {MPI_UNSIGNED, CT_UINT, G_CINT},
    {MPI_LONG, CT_LONG, G_CINT},
    {MPI_UNSIGNED_LONG, CT_ULONG, G_CINT},
    {MPI_LONG_LONG_INT, CT_LLONG, G_CINT},
    {MPI_UNSIGNED_LONG_LONG, CT_ULLONG, G_CINT},
    {MPI_FLOAT, CT_FLOAT, G_FLOAT},
    {MPI_DOUBLE, CT_DOUBLE, G_FLOAT},
    {MPI_LONG_DOUBLE, CT_LDOUBLE, G_FLOAT},
    {MPI_C_BOOL, CT_BOOL, G_LOGICAL},
    {MPI_INT8_T, CT_I8, G_CINT},
    {MPI_INT16_T, CT_I16, G_CINT},
    {MPI_INT32_T, CT_I32, G_CINT},
    {MPI_INT64_T, CT_I64, G_CINT},
    {MPI_UINT8_T, CT_U8, G_CINT},
    {MPI_UINT16_T, CT_U16, G_CINT},
    {MPI_UINT32_T, CT_U32, G_CINT},
    {MPI_UINT64_T, CT_U64, G_CINT},
    {MPI_C_FLOAT_COMPLEX, CT_CFLOAT, G_COMPLEX},
    {MPI_C_DOUBLE_COMPLEX, CT_CDOUBLE, G_COMPLEX},
    {MPI_C_LONG_DOUBLE_COMPLEX, CT_CLDOUBLE, G_COMPLEX},
    {MPI_AINT, CT_I64, G_FINT},
    {MPI_OFFSET, CT_LLONG, G_FINT},
    {MPI_COUNT, CT_LLONG, G_FINT},
    {MPI_FLOAT_INT, CT_FLOAT_INT, G_PAIR},
    {MPI_DOUBLE_INT, CT_DOUBLE_INT, G_PAIR},
    {MPI_LONG_INT, CT_LONG_INT, G_PAIR},
    {MPI_2INT, CT_2INT, G_PAIR},
    {MPI_SHORT_INT, CT_SHORT_INT, G_PAIR},
    {MPI_LONG_DOUBLE_INT, CT_LDOUBLE_INT, G_PAIR},
    {MPI_CXX_BOOL, CT_BOOL, G_LOGICAL},
    {MPI_CXX_FLOAT_COMPLEX, CT_CFLOAT, G_COMPLEX},
    {MPI_CXX_DOUBLE_COMPLEX, CT_CDOUBLE, G_COMPLEX},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, CT_CLDOUBLE, G_COMPLEX},
    {MPI_CHARACTER, CT_CHAR, G_CINT},
    {MPI_LOGICAL, CT_INT, G_LOGICAL},
    {MPI_INTEGER, CT_INT, G_FINT},
    {MPI_REAL, CT_FLOAT, G_FLOAT},
    {MPI_DOUBLE_PRECISION, CT_DOUBLE, G_FLOAT},
    {MPI_COMPLEX, CT_CFLOAT, G_COMPLEX},
    {MPI_DOUBLE_COMPLEX, CT_CDOUBLE, G_COMPLEX},
    {MPI_2INTEGER, CT_2INT, G_PAIR},
    {MPI_2REAL, CT_2FLOAT, G_PAIR},
    {MPI_2DOUBLE_PRECISION, CT_2DOUBLE, G_PAIR},
    {MPI_INTEGER1, CT_I8, G_FINT},
    {MPI_INTEGER2, CT_I16, G_FINT},
    {MPI_INTEGER4, CT_I32, G_FINT},
    {MPI_INTEGER8, CT_I64, G_FINT},
    {MPI_INTEGER16, CT_I128, G_FINT},
    {MPI_REAL2, CT_F16, G_F16},
    {MPI_REAL4, CT_FLOAT, G_FLOAT},
    {MPI_REAL8, CT_DOUBLE, G_FLOAT},
    {MPI_REAL16, CT_F128, G_FLOAT},
    {MPI_COMPLEX4, CT_CF16, G_CF16},
    {MPI_COMPLEX8, CT_CFLOAT, G_COMPLEX},
    {MPI_COMPLEX16, CT_CDOUBLE, G_COMPLEX},
    {MPI_COMPLEX32, CT_CF128, G_COMPLEX},
    /* MPI_WCHAR, MPI_PACKED, MPI_UB, MPI_LB: no reduction */
};

static const int op_groups[SMPI_OP_PREDEFINED_COUNT] = {
    [OPC_MAX] = G_CINT | G_FINT | G_FLOAT,
    [OPC_MIN] = G_CINT | G_FINT | G_FLOAT,
    [OPC_SUM] = G_CINT | G_FINT | G_FLOAT | G_COMPLEX,
    [OPC_PROD] = G_CINT | G_FINT | G_FLOAT | G_COMPLEX,
    /* the standard's table has C integer and Logical; MPICH also takes the Fortran integer
     * group (MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER*), which its test suite and
     * programs use */
    [OPC_LAND] = G_CINT | G_FINT | G_LOGICAL,
    [OPC_LOR] = G_CINT | G_FINT | G_LOGICAL,
    [OPC_LXOR] = G_CINT | G_FINT | G_LOGICAL,
    [OPC_BAND] = G_CINT | G_FINT | G_BYTE,
    [OPC_BOR] = G_CINT | G_FINT | G_BYTE,
    [OPC_BXOR] = G_CINT | G_FINT | G_BYTE,
    [OPC_MINLOC] = G_PAIR,
    [OPC_MAXLOC] = G_PAIR,
    [OPC_REPLACE] = -1,
    [OPC_NO_OP] = -1,
};

static const type_entry *entries[SMPI_DATATYPE_PREDEFINED_COUNT];

static const type_entry *entry_of(MPI_Datatype basic)
{
  if (SMPI_HANDLE_KIND(basic) != SMPI_KIND_DATATYPE)
    return NULL;
  int i = SMPI_HANDLE_INDEX(basic);
  return i > 0 && i < SMPI_DATATYPE_PREDEFINED_COUNT ? entries[i] : NULL;
}

/* ---- kernels: inout[k] = in[k] op inout[k]; a is in[k], b is inout[k] ---- */
/* an X-macro list, laid out by hand: clang-format 14 indents each of its lines further */
/* clang-format off */
#define FOR_INTS(X)                                                                      \
  X(CT_CHAR, char) X(CT_SCHAR, signed char) X(CT_UCHAR, unsigned char) X(CT_SHORT, short)  \
  X(CT_USHORT, unsigned short) X(CT_INT, int) X(CT_UINT, unsigned) X(CT_LONG, long)        \
  X(CT_ULONG, unsigned long) X(CT_LLONG, long long) X(CT_ULLONG, unsigned long long)       \
  X(CT_I8, int8_t) X(CT_I16, int16_t) X(CT_I32, int32_t) X(CT_I64, int64_t)                \
  X(CT_U8, uint8_t) X(CT_U16, uint16_t) X(CT_U32, uint32_t) X(CT_U64, uint64_t)            \
  X(CT_I128, __int128)
/* clang-format on */
#ifdef HAVE_F16
#define FOR_F16(X) X(CT_F16, op_f16)
#define FOR_CF16(X) X(CT_CF16, op_f16)
#else
#define FOR_F16(X)
#define FOR_CF16(X)
#endif
#define FOR_FLOATS(X) \
  X(CT_FLOAT, float)  \
  X(CT_DOUBLE, double) X(CT_LDOUBLE, long double) X(CT_F128, __float128) FOR_F16(X)
#define FOR_COMPLEX(X) /* by the type of one part */ \
  X(CT_CFLOAT, float)                                \
  X(CT_CDOUBLE, double) X(CT_CLDOUBLE, long double) X(CT_CF128, __float128) FOR_CF16(X)

/* Element by element, through memcpy: no assumption about the buffers' alignment or overlap.
 * GCC -O2 keeps this scalar (it cannot tell the operands apart); MPI_SUM, the common case,
 * has a vectorized path below (sum_fast). */
#define ELEMWISE(T, EXPR)                                                   \
  do {                                                                      \
    const char *pi_ = in;                                                   \
    char *po_ = inout;                                                      \
    for (size_t k_ = 0; k_ < n; k_++, pi_ += sizeof(T), po_ += sizeof(T)) { \
      T a, b;                                                               \
      memcpy(&a, pi_, sizeof a);                                            \
      memcpy(&b, po_, sizeof b);                                            \
      b = (T)(EXPR);                                                        \
      memcpy(po_, &b, sizeof b);                                            \
    }                                                                       \
  } while (0)

#define COMPLEXWISE(T, STMT)                                                        \
  do {                                                                              \
    const char *pi_ = in;                                                           \
    char *po_ = inout;                                                              \
    for (size_t k_ = 0; k_ < n; k_++, pi_ += 2 * sizeof(T), po_ += 2 * sizeof(T)) { \
      T a[2], b[2];                                                                 \
      memcpy(a, pi_, sizeof a);                                                     \
      memcpy(b, po_, sizeof b);                                                     \
      STMT;                                                                         \
      memcpy(po_, b, sizeof b);                                                     \
    }                                                                               \
  } while (0)

/* as MPICH: MAX keeps inout unless in is strictly greater (NaN handling follows) */
static void k_max(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)                 \
  case c:                       \
    ELEMWISE(T, b > a ? b : a); \
    break;
    FOR_INTS(X)
    FOR_FLOATS(X)
#undef X
  default:
    UNREACHABLE();
  }
}

static void k_min(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)                 \
  case c:                       \
    ELEMWISE(T, b < a ? b : a); \
    break;
    FOR_INTS(X)
    FOR_FLOATS(X)
#undef X
  default:
    UNREACHABLE();
  }
}

/* MPI_SUM on operands aligned for their type that do not overlap (what MPI asks of a
 * reduction's buffers; the simulator's scratch is malloc'd): restrict parameters and blocks
 * of 8 let GCC's cheap vectorizer (-O2) use packed adds, as the payload floor's reference
 * reduction does (copies.c's sum_ref). Each element gets exactly the same addition, so the
 * results are the same bits. Measured on doubles, a 1 MiB result combined with 15 vectors of
 * 1 MiB (the linear Reduce's root): 27.7 -> 47.4 GB/s in the cache, 20.5 -> 25.7 GB/s over
 * 64 MiB; the scalar loop ran at half the floor's reference rate in the 16-rank Allreduce
 * cells. may_alias: the program wrote its buffers as whatever type it liked. Where both
 * operands are NaNs the result keeps one of their payloads, and which one is the compiler's
 * choice of operand order, in this loop as in the scalar one: the plain build's packed
 * doubles keep the scalar loop's (in's), its packed floats did not (so floats stay scalar),
 * and the sanitized build's scalar loop keeps the other. Neither MPI nor IEEE 754 says which
 * (tests/cuts compares both paths' bits on random values, but for that payload). */
#define SUM_FAST_TYPES(X) X(CT_DOUBLE, double) X(CT_INT, int) X(CT_LONG, long)
#define X(c, T)                                                                                \
  typedef T sum_##T##_t __attribute__((may_alias));                                            \
  static void sum_fast_##T(sum_##T##_t *restrict io, const sum_##T##_t *restrict in, size_t n) \
  {                                                                                            \
    size_t k = 0;                                                                              \
    for (; k + 8 <= n; k += 8)                                                                 \
      for (int j = 0; j < 8; j++)                                                              \
        io[k + j] = io[k + j] + in[k + j];                                                     \
    for (; k < n; k++)                                                                         \
      io[k] = io[k] + in[k];                                                                   \
  }
SUM_FAST_TYPES(X)
#undef X

static bool sum_fast(ctype ct, const void *in, void *inout, size_t n)
{
  uintptr_t a = (uintptr_t)in, b = (uintptr_t)inout;
  switch (ct) {
#define X(c, T)                                                                    \
  case c:                                                                          \
    if ((a | b) % _Alignof(T) || (a < b + n * sizeof(T) && b < a + n * sizeof(T))) \
      return false;                                                                \
    sum_fast_##T(inout, in, n);                                                    \
    return true;
    SUM_FAST_TYPES(X)
#undef X
  default:
    return false;
  }
}

static void k_sum(ctype ct, const void *in, void *inout, size_t n)
{
  if (sum_fast(ct, in, inout, n))
    return;
  switch (ct) {
#define X(c, T)         \
  case c:               \
    ELEMWISE(T, a + b); \
    break;
    FOR_INTS(X)
    FOR_FLOATS(X)
#undef X
#define X(c, T)                                               \
  case c:                                                     \
    COMPLEXWISE(T, (b[0] = a[0] + b[0], b[1] = a[1] + b[1])); \
    break;
    FOR_COMPLEX(X)
#undef X
  default:
    UNREACHABLE();
  }
}

static void k_prod(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)        \
  case c:              \
    ELEMWISE(T, a *b); \
    break;
    FOR_INTS(X)
    FOR_FLOATS(X)
#undef X
    /* the textbook product, as MPICH computes it */
#define X(c, T)                                                                        \
  case c:                                                                              \
    COMPLEXWISE(T, T re = a[0] * b[0] - a[1] * b[1]; T im = a[0] * b[1] + a[1] * b[0]; \
                b[0] = re; b[1] = im);                                                 \
    break;
    FOR_COMPLEX(X)
#undef X
  default:
    UNREACHABLE();
  }
}

#define LOGICAL_KERNEL(name, EXPR)                                  \
  static void name(ctype ct, const void *in, void *inout, size_t n) \
  {                                                                 \
    switch (ct) {                                                   \
      FOR_INTS(LOGICAL_CASE_)                                       \
    case CT_BOOL:                                                   \
      ELEMWISE(_Bool, EXPR);                                        \
      break;                                                        \
    default:                                                        \
      UNREACHABLE();                                                \
    }                                                               \
  }
#define LOGICAL_CASE_(c, T)     \
  case c:                       \
    ELEMWISE(T, LOGICAL_EXPR_); \
    break;
#define LOGICAL_EXPR_ a &&b
LOGICAL_KERNEL(k_land, a &&b)
#undef LOGICAL_EXPR_
#define LOGICAL_EXPR_ a || b
LOGICAL_KERNEL(k_lor, a || b)
#undef LOGICAL_EXPR_
#define LOGICAL_EXPR_ !a != !b
LOGICAL_KERNEL(k_lxor, !a != !b)
#undef LOGICAL_EXPR_

static void k_band(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)        \
  case c:              \
    ELEMWISE(T, a &b); \
    break;
    FOR_INTS(X)
#undef X
  default:
    UNREACHABLE();
  }
}

static void k_bor(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)         \
  case c:               \
    ELEMWISE(T, a | b); \
    break;
    FOR_INTS(X)
#undef X
  default:
    UNREACHABLE();
  }
}

static void k_bxor(ctype ct, const void *in, void *inout, size_t n)
{
  switch (ct) {
#define X(c, T)         \
  case c:               \
    ELEMWISE(T, a ^ b); \
    break;
    FOR_INTS(X)
#undef X
  default:
    UNREACHABLE();
  }
}

/* MAXLOC / MINLOC: the better value wins; on a tie, the lower index */
#define LOC(V, I)                                               \
  do {                                                          \
    typedef struct {                                            \
      V v;                                                      \
      I i;                                                      \
    } pair_;                                                    \
    size_t io_ = mem ? offsetof(pair_, i) : sizeof(V);          \
    size_t es_ = mem ? sizeof(pair_) : sizeof(V) + sizeof(I);   \
    const char *pi_ = in;                                       \
    char *po_ = inout;                                          \
    for (size_t k_ = 0; k_ < n; k_++, pi_ += es_, po_ += es_) { \
      V u, v;                                                   \
      I i, j;                                                   \
      memcpy(&u, pi_, sizeof u);                                \
      memcpy(&i, pi_ + io_, sizeof i);                          \
      memcpy(&v, po_, sizeof v);                                \
      memcpy(&j, po_ + io_, sizeof j);                          \
      if (max ? u > v : u < v) {                                \
        v = u;                                                  \
        j = i;                                                  \
      } else if (u == v && i < j) {                             \
        j = i;                                                  \
      }                                                         \
      memcpy(po_, &v, sizeof v);                                \
      memcpy(po_ + io_, &j, sizeof j);                          \
    }                                                           \
  } while (0)

static void k_loc(bool max, ctype ct, const void *in, void *inout, size_t n, bool mem)
{
  switch (ct) {
  case CT_FLOAT_INT:
    LOC(float, int);
    break;
  case CT_DOUBLE_INT:
    LOC(double, int);
    break;
  case CT_LONG_INT:
    LOC(long, int);
    break;
  case CT_SHORT_INT:
    LOC(short, int);
    break;
  case CT_LDOUBLE_INT:
    LOC(long double, int);
    break;
  case CT_2INT:
    LOC(int, int);
    break;
  case CT_2FLOAT:
    LOC(float, float);
    break;
  case CT_2DOUBLE:
    LOC(double, double);
    break;
  default:
    UNREACHABLE();
  }
}

/* n basic elements; mem: pairs in their struct layout (else packed) */
static void apply_kernel(int code, ctype ct, const void *in, void *inout, size_t n, bool mem)
{
  switch (code) {
  case OPC_MAX:
    k_max(ct, in, inout, n);
    break;
  case OPC_MIN:
    k_min(ct, in, inout, n);
    break;
  case OPC_SUM:
    k_sum(ct, in, inout, n);
    break;
  case OPC_PROD:
    k_prod(ct, in, inout, n);
    break;
  case OPC_LAND:
    k_land(ct, in, inout, n);
    break;
  case OPC_LOR:
    k_lor(ct, in, inout, n);
    break;
  case OPC_LXOR:
    k_lxor(ct, in, inout, n);
    break;
  case OPC_BAND:
    k_band(ct, in, inout, n);
    break;
  case OPC_BOR:
    k_bor(ct, in, inout, n);
    break;
  case OPC_BXOR:
    k_bxor(ct, in, inout, n);
    break;
  case OPC_MAXLOC:
    k_loc(true, ct, in, inout, n, mem);
    break;
  case OPC_MINLOC:
    k_loc(false, ct, in, inout, n, mem);
    break;
  default:
    UNREACHABLE();
  }
}

/* The kernel on n elements `stride` bytes apart, except on those whose result would land
 * entirely in folded memory (SMPI_SHARED_MALLOC): a folded byte holds no meaningful value and
 * is shared with other allocations, so computing into it only costs time (and a page fault
 * per page on first touch). An element straddling private and folded bytes is computed.
 * This is the rule of docs/emulation.md ("Reductions"); user ops are never skipped (they are
 * the user's code and may have side effects). */
static void apply_private(int code, ctype ct, const char *in, char *inout, size_t n,
                          size_t stride, bool mem)
{
  size_t bytes = n * stride;
  if (!smpi_shared_touches(inout, bytes)) {
    bool timed = __builtin_expect(smpi_copies.watch, 0) && bytes >= SMPI_COPY_TIMED_MIN;
    double t0 = timed ? smpi_copy_clock() : 0;
    apply_kernel(code, ct, in, inout, n, mem);
    if (timed)
      smpi_reduce_timed_note(bytes, smpi_copy_clock() - t0);
    smpi_reduce_note(bytes);
    return;
  }
  smpi_byte_range local[8], *r = local;
  size_t nr = smpi_shared_private_ranges(inout, bytes, local, 8);
  if (nr > 8) {
    r = xmalloc(nr * sizeof *r);
    smpi_shared_private_ranges(inout, bytes, r, nr);
  }
  size_t done = 0; /* elements [0, done) handled: ranges rounded out may share one */
  for (size_t k = 0; k < nr; k++) {
    size_t lo = r[k].off / stride, hi = (r[k].off + r[k].len + stride - 1) / stride;
    if (lo < done)
      lo = done;
    if (hi > lo) {
      apply_kernel(code, ct, in + lo * stride, inout + lo * stride, hi - lo, mem);
      smpi_reduce_note((hi - lo) * stride);
    }
    if (hi > done)
      done = hi;
  }
  if (r != local)
    free(r);
}

/* ---- objects ---- */
static smpi_op predefined_ops[SMPI_OP_PREDEFINED_COUNT];
static bool initialized;

void smpi_op_init(void)
{
  if (initialized)
    return;
  initialized = true;
  for (size_t k = 0; k < sizeof type_table / sizeof type_table[0]; k++) {
    int i = SMPI_HANDLE_INDEX(type_table[k].h);
    ASSERT(i > 0 && i < SMPI_DATATYPE_PREDEFINED_COUNT && !entries[i]);
    entries[i] = &type_table[k];
  }
  for (int code = 1; code < SMPI_OP_PREDEFINED_COUNT; code++) {
    smpi_op *op = &predefined_ops[code];
    op->refs = 1;
    op->predefined = true;
    /* MPI_REPLACE and MPI_NO_OP are not commutative (MPICH says so too) */
    op->commute = code != OPC_REPLACE && code != OPC_NO_OP;
    op->code = code;
    smpi_handle_set_predefined(SMPI_HANDLE_MAKE(SMPI_KIND_OP, code), op);
  }
}

smpi_op *smpi_op_get(MPI_Op h) { return smpi_handle_get(h, SMPI_KIND_OP); }

bool smpi_op_is_commutative(const smpi_op *op) { return op->commute; }
bool smpi_op_is_predefined(const smpi_op *op) { return op->predefined; }
MPI_Op smpi_op_predefined_handle(const smpi_op *op)
{
  return op->predefined ? SMPI_HANDLE_MAKE(SMPI_KIND_OP, op->code) : MPI_OP_NULL;
}

void smpi_op_ref(smpi_op *op)
{
  ASSERT(op->refs > 0);
  op->refs++;
}

void smpi_op_unref(smpi_op *op)
{
  ASSERTF(op->refs > 0, "op released more often than referenced");
  if (--op->refs == 0) {
    ASSERT(!op->predefined);
    free(op);
  }
}

int smpi_op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
  if (!fn || !op)
    return MPI_ERR_ARG;
  smpi_op *o = xcalloc(1, sizeof *o);
  o->refs = 1;
  o->commute = commute != 0;
  o->fn = fn;
  *op = smpi_handle_new(SMPI_KIND_OP, o);
  return MPI_SUCCESS;
}

int smpi_op_free(MPI_Op *op)
{
  if (!op)
    return MPI_ERR_ARG;
  smpi_op *o = smpi_op_get(*op);
  if (!o || o->predefined)
    return MPI_ERR_OP;
  smpi_handle_free(*op);
  smpi_op_unref(o);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

bool smpi_op_allows(MPI_Op h, MPI_Datatype basic)
{
  smpi_op *op = smpi_op_get(h);
  if (!op || !op->predefined)
    return false;
  if (op->code == OPC_REPLACE || op->code == OPC_NO_OP)
    return smpi_dt_get(basic) != NULL;
  const type_entry *e = entry_of(basic);
  return e && (e->groups & op_groups[op->code]);
}

int smpi_op_apply(const smpi_op *op, const void *in, void *inout, int count, MPI_Datatype dt)
{
  if (!op->predefined) {
    /* the user's function gets the caller's handle and count, even for derived types */
    int len = count;
    MPI_Datatype h = dt;
    op->fn((void *)in, inout, &len, &h);
    return MPI_SUCCESS;
  }
  smpi_dt *d = smpi_dt_get(dt);
  if (!d)
    return MPI_ERR_TYPE;
  size_t bytes = (size_t)count * smpi_dt_size(d);
  MPI_Datatype basic = smpi_dt_basic_type(d);
  if (op->code == OPC_NO_OP)
    return MPI_SUCCESS;
  if (op->code == OPC_REPLACE) {
    smpi_dt_copy(in, (size_t)count, d, inout, (size_t)count, d);
    return MPI_SUCCESS;
  }
  const type_entry *e = entry_of(basic);
  if (!e || !(e->groups & op_groups[op->code]))
    return bytes == 0 && basic == MPI_DATATYPE_NULL ? MPI_SUCCESS : MPI_ERR_OP;
  if (bytes == 0)
    return MPI_SUCCESS;
  smpi_dt *b = smpi_dt_get(basic);
  size_t n = bytes / smpi_dt_size(b); /* basic elements */
  if (dt == basic) {
    apply_private(op->code, e->ct, in, inout, n, (size_t)smpi_dt_extent(b), true);
  } else if (smpi_dt_is_contiguous(d)) {
    /* the data is the packed stream, in place */
    MPI_Aint off = smpi_dt_true_lb(d);
    apply_private(op->code, e->ct, (const char *)in + off, (char *)inout + off, n,
                  smpi_dt_size(b), false);
  } else if (smpi_dt_all_folded(inout, (size_t)count, d)) {
    /* every result would land in folded memory (see apply_private) */
  } else {
    char *tin = xmalloc(bytes), *tio = xmalloc(bytes);
    smpi_dt_pack(in, (size_t)count, d, tin);
    smpi_dt_pack(inout, (size_t)count, d, tio);
    apply_kernel(op->code, e->ct, tin, tio, n, false);
    smpi_reduce_note(bytes);
    smpi_dt_unpack(tio, bytes, inout, (size_t)count, d);
    free(tin);
    free(tio);
  }
  return MPI_SUCCESS;
}
