/* reduce_local: MPI_Reduce_local with the predefined ops on the types of each group,
 * MAXLOC/MINLOC with ties (the lower index wins), a non-commutative user op (in is the left
 * operand) on a derived type (the function gets the caller's count and datatype handle),
 * MPI_Op_commutative/MPI_Op_free, and the error classes of ops applied to types outside
 * their group. Rank-local; any number of ranks. No mutable global variables but mpitest.h's
 * failure counter: it must pass without privatization, where all ranks share the globals. */
#define MPITEST_NAME "reduce_local"
#include "mpitest.h"

#include <complex.h>
#include <stdio.h>
#include <string.h>

static void test_arithmetic(void)
{
  int a[4] = {1, 5, -3, 7}, b[4] = {2, 4, -7, 7};
  MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM);
  CHECK(b[0] == 3 && b[1] == 9 && b[2] == -10 && b[3] == 14, "SUM int");
  MPI_Reduce_local(a, b, 4, MPI_INT, MPI_MAX);
  CHECK(b[0] == 3 && b[1] == 9 && b[2] == -3 && b[3] == 14, "MAX int");
  MPI_Reduce_local(a, b, 4, MPI_INT, MPI_MIN);
  CHECK(b[0] == 1 && b[1] == 5 && b[2] == -3 && b[3] == 7, "MIN int");

  double x[3] = {1.5, -2, 0.25}, y[3] = {2, 3, 4};
  MPI_Reduce_local(x, y, 3, MPI_DOUBLE, MPI_PROD);
  CHECK(y[0] == 3 && y[1] == -6 && y[2] == 1, "PROD double");
  float f[2] = {1, 2}, g[2] = {0.5f, 8};
  MPI_Reduce_local(f, g, 2, MPI_REAL, MPI_MAX);
  CHECK(g[0] == 1 && g[1] == 8, "MAX real");
  unsigned long long u = 1ULL << 63, v = 1;
  MPI_Reduce_local(&u, &v, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
  CHECK(v == (1ULL << 63) + 1, "SUM unsigned long long");
  signed char sc = -100, sd = 27;
  MPI_Reduce_local(&sc, &sd, 1, MPI_SIGNED_CHAR, MPI_SUM);
  CHECK(sd == -73, "SUM signed char");
  long long ll = 1LL << 40, lm = 5;
  MPI_Reduce_local(&ll, &lm, 1, MPI_INT64_T, MPI_PROD);
  CHECK(lm == 5LL << 40, "PROD int64_t");
  double complex za[2] = {1 + 2 * I, 1}, zb[2] = {3 - I, 2 * I};
  MPI_Reduce_local(za, zb, 2, MPI_C_DOUBLE_COMPLEX, MPI_PROD);
  CHECK(creal(zb[0]) == 5 && cimag(zb[0]) == 5 && creal(zb[1]) == 0 && cimag(zb[1]) == 2,
        "PROD double complex");
  float complex ca = 1 + I, cb = 2 - 3 * I;
  MPI_Reduce_local(&ca, &cb, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM);
  CHECK(crealf(cb) == 3 && cimagf(cb) == -2, "SUM float complex");
  int fi = 6, fj = 7;
  MPI_Reduce_local(&fi, &fj, 1, MPI_INTEGER, MPI_SUM);
  CHECK(fj == 13, "SUM INTEGER");
}

static void test_logical_bitwise(void)
{
  int a[3] = {0, 3, 0}, b[3] = {5, 2, 0};
  MPI_Reduce_local(a, b, 3, MPI_INT, MPI_LAND);
  CHECK(b[0] == 0 && b[1] == 1 && b[2] == 0, "LAND int");
  int c[3] = {0, 3, 0}, d[3] = {5, 2, 0};
  MPI_Reduce_local(c, d, 3, MPI_INT, MPI_LOR);
  CHECK(d[0] == 1 && d[1] == 1 && d[2] == 0, "LOR int");
  int e[3] = {0, 3, 0}, h[3] = {5, 2, 0};
  MPI_Reduce_local(e, h, 3, MPI_INT, MPI_LXOR);
  CHECK(h[0] == 1 && h[1] == 0 && h[2] == 0, "LXOR int");
  _Bool p[2] = {1, 0}, q[2] = {1, 1};
  MPI_Reduce_local(p, q, 2, MPI_C_BOOL, MPI_LAND);
  CHECK(q[0] == 1 && q[1] == 0, "LAND C_BOOL");
  unsigned char m = 0xf0, n = 0x3c;
  MPI_Reduce_local(&m, &n, 1, MPI_BYTE, MPI_BAND);
  CHECK(n == 0x30, "BAND byte");
  m = 0xf0;
  n = 0x3c;
  MPI_Reduce_local(&m, &n, 1, MPI_BYTE, MPI_BOR);
  CHECK(n == 0xfc, "BOR byte");
  unsigned r = 0xff00, s = 0x0ff0;
  MPI_Reduce_local(&r, &s, 1, MPI_UNSIGNED, MPI_BXOR);
  CHECK(s == 0xf0f0, "BXOR unsigned");
}

static void test_loc(void)
{
  struct {
    double v;
    int i;
  } a[3] = {{1, 7}, {2, 3}, {5, 1}}, b[3] = {{1, 2}, {2, 9}, {4, 0}};
  MPI_Reduce_local(a, b, 3, MPI_DOUBLE_INT, MPI_MAXLOC);
  CHECK(b[0].v == 1 && b[0].i == 2, "MAXLOC tie keeps the lower index (inout side)");
  CHECK(b[1].v == 2 && b[1].i == 3, "MAXLOC tie keeps the lower index (in side)");
  CHECK(b[2].v == 5 && b[2].i == 1, "MAXLOC larger value");
  struct {
    float v;
    int i;
  } fa = {1, 8}, fb = {1, 4};
  MPI_Reduce_local(&fa, &fb, 1, MPI_FLOAT_INT, MPI_MINLOC);
  CHECK(fb.v == 1 && fb.i == 4, "MINLOC tie");
  struct {
    short v;
    int i;
  } sa = {-4, 3}, sb = {-2, 1};
  MPI_Reduce_local(&sa, &sb, 1, MPI_SHORT_INT, MPI_MINLOC);
  CHECK(sb.v == -4 && sb.i == 3, "MINLOC short_int");
  struct {
    long v;
    int i;
  } la = {10, 3}, lb = {10, 3};
  MPI_Reduce_local(&la, &lb, 1, MPI_LONG_INT, MPI_MAXLOC);
  CHECK(lb.v == 10 && lb.i == 3, "MAXLOC long_int");
  int p[4] = {3, 10, 8, 1}, q[4] = {3, 11, 9, 0};
  MPI_Reduce_local(p, q, 2, MPI_2INT, MPI_MINLOC);
  CHECK(q[0] == 3 && q[1] == 10 && q[2] == 8 && q[3] == 1, "MINLOC 2int");
  struct {
    long double v;
    int i;
  } da = {2.5L, 4}, db = {2.5L, 6};
  MPI_Reduce_local(&da, &db, 1, MPI_LONG_DOUBLE_INT, MPI_MAXLOC);
  CHECK(db.v == 2.5L && db.i == 4, "MAXLOC long_double_int");
}

/* non-commutative: inoutvec = invec - inoutvec on the first int of each pair. It reports
 * what it was given in the second ints of inoutvec (no globals: ranks may share them):
 * element 0 gets *len, element 1 the datatype handle, element 2 counts the calls. */
static void minus(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  int *a = in, *b = inout;
  for (int k = 0; k < *len; k++)
    b[2 * k] = a[2 * k] - b[2 * k];
  b[1] = *len;
  b[3] = (int)*dt;
  b[5]++;
}

static void test_user_op(void)
{
  MPI_Op op;
  MPI_Op_create(minus, 0, &op);
  int commute = -1;
  MPI_Op_commutative(op, &commute);
  CHECK(commute == 0, "user op commutative flag %d", commute);
  MPI_Op_commutative(MPI_SUM, &commute);
  CHECK(commute == 1, "MPI_SUM commutative flag %d", commute);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  int a[6] = {10, 0, 20, 0, 30, 0}, b[6] = {1, 0, 2, 0, 3, 0};
  MPI_Reduce_local(a, b, 3, pair, op);
  CHECK(b[5] == 1 && b[1] == 3 && b[3] == (int)pair,
        "user function got %d call(s), len %d, its datatype: %d", b[5], b[1], b[3] == (int)pair);
  CHECK(b[0] == 9 && b[2] == 18 && b[4] == 27, "in is the left operand: %d %d %d", b[0], b[2],
        b[4]);
  MPI_Op_free(&op);
  CHECK(op == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
  MPI_Type_free(&pair);
}

static void test_errors(void)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls, rc;
  double x = 1, y = 2;
  rc = MPI_Reduce_local(&x, &y, 1, MPI_DOUBLE, MPI_BAND);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "BAND on MPI_DOUBLE: class %d", cls);
  CHECK(y == 2, "a refused reduction changed its buffer");
  int i = 1, j = 2;
  rc = MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_MAXLOC);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "MAXLOC on MPI_INT: class %d", cls);
  int p[2] = {1, 2}, q[2] = {3, 4};
  rc = MPI_Reduce_local(p, q, 1, MPI_2INT, MPI_SUM);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "SUM on MPI_2INT: class %d", cls);
  rc = MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_OP_NULL);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "MPI_OP_NULL: class %d", cls);
  /* (a negative count is not tried: mpich 4.0.2 crashes on it) */
  MPI_Op sum = MPI_SUM;
  rc = MPI_Op_free(&sum);
  CHECK(rc != MPI_SUCCESS, "freeing MPI_SUM succeeded");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  test_arithmetic();
  test_logical_bitwise();
  test_loc();
  test_user_op();
  test_errors();
  return mpitest_finalize();
}
