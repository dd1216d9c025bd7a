/* The Fortran bindings the generic rules of fortran_gen.py cannot write, and their helpers.
 *
 * Written here: MPI_INIT and MPI_INIT_THREAD (no argc/argv), MPI_WTIME/MPI_WTICK and
 * MPI_AINT_ADD/DIFF (functions), MPI_PCONTROL (no IERROR), the 0-based indices of
 * WAITANY/TESTANY/WAITSOME/TESTSOME made 1-based, attribute values (INTEGER(KIND=
 * MPI_ADDRESS_KIND) values, not C pointers; the predefined attributes are pointers to int in
 * C and values in Fortran), keyval callbacks written in Fortran (called through
 * trampolines), MPI-1's INTEGER addresses (MPI_ADDRESS, MPI_TYPE_STRUCT, _HINDEXED, _HVECTOR,
 * _EXTENT, _LB, _UB), the predefined copy/delete callbacks as Fortran procedures, the stubs
 * the rules cannot bind (spawn, generalized requests, datareps), MPI_F_SYNC_REG, the
 * specifics of the mpi module's MPI_SIZEOF, and smpi's extensions (smpi_execute*, sampling,
 * shared allocation) for Fortran.
 *
 * Callbacks that need no translation go to C as they are: a Fortran user op
 * SUBROUTINE F(INVEC, INOUTVEC, LEN, TYPE) and an error handler SUBROUTINE H(COMM, CODE)
 * already take every argument by reference, as MPI_User_function and
 * MPI_Comm_errhandler_function do. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/bindings/fortran.h"
#include "src/strmap.h"

SMPI_PUBLIC struct smpi_f_common smpi_fcom_;

/* ---- helpers (fortran.h) ---- */

MPI_Status *smpi_f_statuses_begin(MPI_Fint *f, int n)
{
  if (f == smpi_fcom_.statuses_ignore)
    return MPI_STATUSES_IGNORE;
  if ((uintptr_t)f % _Alignof(MPI_Status) == 0 || n <= 0)
    return (MPI_Status *)(void *)f;
  MPI_Status *c = xmalloc((size_t)n * sizeof *c);
  memcpy(c, f, (size_t)n * sizeof *c);
  return c;
}

void smpi_f_statuses_end(MPI_Fint *f, MPI_Status *c, int n)
{
  if (c == MPI_STATUSES_IGNORE || (void *)c == (void *)f)
    return;
  memcpy(f, c, (size_t)n * sizeof *c);
  free(c);
}

char *smpi_f_str_in(const char *s, size_t len)
{
  while (len > 0 && s[len - 1] == ' ')
    len--;
  char *c = xmalloc(len + 1);
  memcpy(c, s, len);
  c[len] = '\0';
  return c;
}

/* room for the longest string any call writes (MPI_Get_library_version) whatever the
 * Fortran variable's length: the copy back cuts to that length */
char *smpi_f_str_buf(size_t len)
{
  size_t n = len > MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING;
  return xcalloc(n + 1, 1);
}

void smpi_f_str_out(char *f, size_t len, const char *c)
{
  size_t n = strlen(c);
  if (n > len)
    n = len;
  memcpy(f, c, n);
  memset(f + n, ' ', len - n);
}

/* ---- defining a binding by hand: the pmpi_ name and its weak mpi_ alias ---- */
#define F_DEFINE(ret, lname, params)                                                      \
  SMPI_PUBLIC ret pmpi_##lname##_ params;                                                 \
  SMPI_PUBLIC ret mpi_##lname##_ params __attribute__((weak, alias("pmpi_" #lname "_"))); \
  ret pmpi_##lname##_ params

F_DEFINE(void, init, (MPI_Fint * ierr))
{
  SMPI_F_ENTER();
  *ierr = PMPI_Init(NULL, NULL);
  SMPI_F_LEAVE();
}

F_DEFINE(void, init_thread, (MPI_Fint * required, MPI_Fint *provided, MPI_Fint *ierr))
{
  SMPI_F_ENTER();
  *ierr = PMPI_Init_thread(NULL, NULL, *required, provided);
  SMPI_F_LEAVE();
}

F_DEFINE(double, wtime, (void)) { return PMPI_Wtime(); }
F_DEFINE(double, wtick, (void)) { return PMPI_Wtick(); }
F_DEFINE(MPI_Aint, aint_add, (MPI_Aint * base, MPI_Aint *disp))
{
  return PMPI_Aint_add(*base, *disp);
}
F_DEFINE(MPI_Aint, aint_diff, (MPI_Aint * a, MPI_Aint *b)) { return PMPI_Aint_diff(*a, *b); }
F_DEFINE(void, pcontrol, (MPI_Fint * level)) { (void)PMPI_Pcontrol(*level); }

/* ---- 1-based indices ---- */

F_DEFINE(void, waitany,
         (MPI_Fint * count, MPI_Fint *reqs, MPI_Fint *indx, MPI_Fint *status, MPI_Fint *ierr))
{
  MPI_Status c;
  SMPI_F_ENTER();
  int rc = PMPI_Waitany(*count, reqs, indx, smpi_f_status(&c, status));
  SMPI_F_LEAVE();
  smpi_f_status_out(status, &c);
  if (rc == MPI_SUCCESS && *indx != MPI_UNDEFINED)
    (*indx)++;
  *ierr = rc;
}

F_DEFINE(void, testany,
         (MPI_Fint * count, MPI_Fint *reqs, MPI_Fint *indx, MPI_Fint *flag, MPI_Fint *status,
          MPI_Fint *ierr))
{
  MPI_Status c;
  SMPI_F_ENTER();
  int rc = PMPI_Testany(*count, reqs, indx, flag, smpi_f_status(&c, status));
  SMPI_F_LEAVE();
  smpi_f_status_out(status, &c);
  if (rc == MPI_SUCCESS && *indx != MPI_UNDEFINED)
    (*indx)++;
  *flag = *flag != 0;
  *ierr = rc;
}

static void some_to_fortran(int rc, const MPI_Fint *outcount, MPI_Fint *indices)
{
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++)
      indices[i]++;
}

F_DEFINE(void, waitsome,
         (MPI_Fint * incount, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
          MPI_Fint *statuses, MPI_Fint *ierr))
{
  MPI_Status *c = smpi_f_statuses_begin(statuses, *incount);
  SMPI_F_ENTER();
  int rc = PMPI_Waitsome(*incount, reqs, outcount, indices, c);
  SMPI_F_LEAVE();
  smpi_f_statuses_end(statuses, c, *incount);
  some_to_fortran(rc, outcount, indices);
  *ierr = rc;
}

F_DEFINE(void, testsome,
         (MPI_Fint * incount, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
          MPI_Fint *statuses, MPI_Fint *ierr))
{
  MPI_Status *c = smpi_f_statuses_begin(statuses, *incount);
  SMPI_F_ENTER();
  int rc = PMPI_Testsome(*incount, reqs, outcount, indices, c);
  SMPI_F_LEAVE();
  smpi_f_statuses_end(statuses, c, *incount);
  some_to_fortran(rc, outcount, indices);
  *ierr = rc;
}

/* ---- MPI-1 addresses and displacements as default INTEGERs ---- */

/* absolute addresses do not fit a 4-byte INTEGER on 64-bit machines: MPI_ADDRESS keeps the
 * low 32 bits, so differences of nearby addresses (what MPI-1 codes compute) stay right */
F_DEFINE(void, address, (void *location, MPI_Fint *address, MPI_Fint *ierr))
{
  MPI_Aint a = 0;
  SMPI_F_ENTER();
  *ierr = PMPI_Get_address(smpi_f_buf(location), &a);
  SMPI_F_LEAVE();
  *address = (MPI_Fint)(uint32_t)(uintptr_t)a;
}

static MPI_Aint *widen(const MPI_Fint *v, MPI_Fint n)
{
  MPI_Aint *w = xmalloc((n > 0 ? (size_t)n : 1) * sizeof *w);
  for (MPI_Fint i = 0; i < n; i++)
    w[i] = v[i];
  return w;
}

F_DEFINE(void, type_struct,
         (MPI_Fint * count, MPI_Fint *blocklens, MPI_Fint *displs, MPI_Fint *types,
          MPI_Fint *newtype, MPI_Fint *ierr))
{
  MPI_Aint *d = widen(displs, *count);
  SMPI_F_ENTER();
  *ierr = PMPI_Type_struct(*count, blocklens, d, types, newtype);
  SMPI_F_LEAVE();
  free(d);
}

F_DEFINE(void, type_hindexed,
         (MPI_Fint * count, MPI_Fint *blocklens, MPI_Fint *displs, MPI_Fint *oldtype,
          MPI_Fint *newtype, MPI_Fint *ierr))
{
  MPI_Aint *d = widen(displs, *count);
  SMPI_F_ENTER();
  *ierr = PMPI_Type_hindexed(*count, blocklens, d, *oldtype, newtype);
  SMPI_F_LEAVE();
  free(d);
}

F_DEFINE(void, type_hvector,
         (MPI_Fint * count, MPI_Fint *blocklen, MPI_Fint *stride, MPI_Fint *oldtype,
          MPI_Fint *newtype, MPI_Fint *ierr))
{
  SMPI_F_ENTER();
  *ierr = PMPI_Type_hvector(*count, *blocklen, (MPI_Aint)*stride, *oldtype, newtype);
  SMPI_F_LEAVE();
}

#define F_NARROW_AINT(lname, Cname)                                           \
  F_DEFINE(void, lname, (MPI_Fint * datatype, MPI_Fint * v, MPI_Fint * ierr)) \
  {                                                                           \
    MPI_Aint a = 0;                                                           \
    SMPI_F_ENTER();                                                           \
    *ierr = PMPI_##Cname(*datatype, &a);                                      \
    SMPI_F_LEAVE();                                                           \
    *v = (MPI_Fint)a;                                                         \
  }
F_NARROW_AINT(type_extent, Type_extent)
F_NARROW_AINT(type_lb, Type_lb)
F_NARROW_AINT(type_ub, Type_ub)

/* ---- attributes ---- */

/* What a Fortran program reads for an attribute: the value it stored itself, or for a
 * predefined attribute (a pointer in C) the value pointed to. */
static MPI_Aint attr_value(int keyval, void *p, bool is_win)
{
  int index = SMPI_HANDLE_INDEX(keyval);
  if (SMPI_HANDLE_KIND(keyval) != SMPI_KIND_KEYVAL || index >= SMPI_KEYVAL_PREDEFINED_COUNT)
    return (MPI_Aint)p;
  if (is_win && keyval == MPI_WIN_BASE)
    return (MPI_Aint)p;
  if (is_win && keyval == MPI_WIN_SIZE)
    return *(MPI_Aint *)p;
  return *(int *)p;
}

#define F_ATTR_AINT(kind, Kind, is_win)                                          \
  F_DEFINE(void, kind##_set_attr,                                                \
           (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * ierr)) \
  {                                                                              \
    SMPI_F_ENTER();                                                              \
    *ierr = PMPI_##Kind##_set_attr(*obj, *keyval, (void *)*val);                 \
    SMPI_F_LEAVE();                                                              \
  }                                                                              \
  F_DEFINE(void, kind##_get_attr,                                                \
           (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * flag,  \
            MPI_Fint * ierr))                                                    \
  {                                                                              \
    void *p = NULL;                                                              \
    SMPI_F_ENTER();                                                              \
    *ierr = PMPI_##Kind##_get_attr(*obj, *keyval, &p, flag);                     \
    SMPI_F_LEAVE();                                                              \
    if (*ierr == MPI_SUCCESS && *flag)                                           \
      *val = attr_value(*keyval, p, is_win);                                     \
    *flag = *flag != 0;                                                          \
  }
F_ATTR_AINT(comm, Comm, false)
F_ATTR_AINT(type, Type, false)
F_ATTR_AINT(win, Win, true)

F_DEFINE(void, attr_put, (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr))
{
  SMPI_F_ENTER();
  *ierr = PMPI_Attr_put(*comm, *keyval, (void *)(MPI_Aint)*val);
  SMPI_F_LEAVE();
}

F_DEFINE(void, attr_get,
         (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierr))
{
  void *p = NULL;
  SMPI_F_ENTER();
  *ierr = PMPI_Attr_get(*comm, *keyval, &p, flag);
  SMPI_F_LEAVE();
  if (*ierr == MPI_SUCCESS && *flag)
    *val = (MPI_Fint)attr_value(*keyval, p, false);
  *flag = *flag != 0;
}

/* Keyvals whose callbacks are Fortran procedures: the C keyval gets trampolines, and as its
 * extra_state this record of the Fortran procedures and the program's own extra state.
 *   SUBROUTINE COPY(OLDOBJ, KEYVAL, EXTRA_STATE, VAL_IN, VAL_OUT, FLAG, IERROR)
 *   SUBROUTINE DELETE(OBJ, KEYVAL, VAL, EXTRA_STATE, IERROR)
 * with INTEGER(KIND=MPI_ADDRESS_KIND) values, or default INTEGERs for MPI_KEYVAL_CREATE
 * (mpi1). The record lives as long as the program (a keyval is a handful per program). */
typedef void f_copy_fn(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void f_delete_fn(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);
typedef struct f_keyval {
  f_copy_fn *copy;
  f_delete_fn *del;
  MPI_Aint extra; /* the program's extra state (low 32 bits for mpi1) */
  bool mpi1;      /* default INTEGER values */
} f_keyval;

/* The value through an 8-byte slot: an MPI-1 callback writes the low 4 bytes of it
 * (little-endian), the predefined MPI_DUP_FN all 8; both read back right. */
static MPI_Aint slot_read(const f_keyval *k, MPI_Aint slot)
{
  if (!k->mpi1)
    return slot;
  MPI_Fint v;
  memcpy(&v, &slot, sizeof v);
  return v;
}

static int f_copy_tramp(int oldobj, int keyval, void *extra, void *in, void *out, int *flag)
{
  f_keyval *k = extra;
  MPI_Fint fobj = oldobj, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
  MPI_Aint vin = k->mpi1 ? (MPI_Aint)(MPI_Fint)(MPI_Aint)in : (MPI_Aint)in, vout = 0;
  k->copy(&fobj, &fkey, &k->extra, &vin, &vout, &fflag, &ierr);
  *flag = fflag != 0;
  if (*flag)
    *(void **)out = (void *)slot_read(k, vout);
  return ierr;
}

static int f_delete_tramp(int obj, int keyval, void *val, void *extra)
{
  f_keyval *k = extra;
  MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
  MPI_Aint v = k->mpi1 ? (MPI_Aint)(MPI_Fint)(MPI_Aint)val : (MPI_Aint)val;
  k->del(&fobj, &fkey, &v, &k->extra, &ierr);
  return ierr;
}

static f_keyval *keyval_record(void (*copy)(void), void (*del)(void), MPI_Aint extra, bool mpi1)
{
  f_keyval *k = xmalloc(sizeof *k);
  k->copy = (f_copy_fn *)copy;
  k->del = (f_delete_fn *)del;
  k->extra = extra;
  k->mpi1 = mpi1;
  return k;
}

#define F_KEYVAL(lname, Cname, Copy, Delete)                                          \
  F_DEFINE(void, lname,                                                               \
           (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, MPI_Aint *extra, \
            MPI_Fint *ierr))                                                          \
  {                                                                                   \
    f_keyval *k = keyval_record(copy, del, *extra, false);                            \
    SMPI_F_ENTER();                                                                   \
    *ierr = PMPI_##Cname((Copy *)f_copy_tramp, (Delete *)f_delete_tramp, keyval, k);  \
    SMPI_F_LEAVE();                                                                   \
  }
F_KEYVAL(comm_create_keyval, Comm_create_keyval, MPI_Comm_copy_attr_function,
         MPI_Comm_delete_attr_function)
F_KEYVAL(type_create_keyval, Type_create_keyval, MPI_Type_copy_attr_function,
         MPI_Type_delete_attr_function)
F_KEYVAL(win_create_keyval, Win_create_keyval, MPI_Win_copy_attr_function,
         MPI_Win_delete_attr_function)

F_DEFINE(void, keyval_create,
         (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, MPI_Fint *extra,
          MPI_Fint *ierr))
{
  f_keyval *k = keyval_record(copy, del, *extra, true);
  SMPI_F_ENTER();
  *ierr = PMPI_Keyval_create(f_copy_tramp, f_delete_tramp, keyval, k);
  SMPI_F_LEAVE();
}

/* The predefined callbacks as Fortran procedures (mpif.h declares them EXTERNAL). The value
 * slots are 8 bytes wide: see slot_read. */
#define F_NULL_COPY(lname)                                                                    \
  F_DEFINE(void, lname,                                                                       \
           (MPI_Fint * o, MPI_Fint * k, void *e, MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, \
            MPI_Fint *ierr))                                                                  \
  {                                                                                           \
    (void)o, (void)k, (void)e, (void)in, (void)out;                                           \
    *flag = 0;                                                                                \
    *ierr = MPI_SUCCESS;                                                                      \
  }
#define F_DUP(lname)                                                                          \
  F_DEFINE(void, lname,                                                                       \
           (MPI_Fint * o, MPI_Fint * k, void *e, MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, \
            MPI_Fint *ierr))                                                                  \
  {                                                                                           \
    (void)o, (void)k, (void)e;                                                                \
    *out = *in;                                                                               \
    *flag = 1;                                                                                \
    *ierr = MPI_SUCCESS;                                                                      \
  }
#define F_NULL_DELETE(lname)                                                            \
  F_DEFINE(void, lname, (MPI_Fint * o, MPI_Fint * k, void *v, void *e, MPI_Fint *ierr)) \
  {                                                                                     \
    (void)o, (void)k, (void)v, (void)e;                                                 \
    *ierr = MPI_SUCCESS;                                                                \
  }
F_NULL_COPY(null_copy_fn)
F_NULL_COPY(comm_null_copy_fn)
F_NULL_COPY(type_null_copy_fn)
F_NULL_COPY(win_null_copy_fn)
F_DUP(dup_fn)
F_DUP(comm_dup_fn)
F_DUP(type_dup_fn)
F_DUP(win_dup_fn)
F_NULL_DELETE(null_delete_fn)
F_NULL_DELETE(comm_null_delete_fn)
F_NULL_DELETE(type_null_delete_fn)
F_NULL_DELETE(win_null_delete_fn)

/* ---- what the generator leaves out but a program may still call ---- */

/* C callbacks the generator cannot bind. (The stubs of include/smpi/mpi_functions.h, such as
 * MPI_Comm_spawn, have no Fortran binding at all, as they have no exported C function: a
 * Fortran configure probe answers no, as a C one does; tests/porting, link_probes.) */
F_DEFINE(void, grequest_start,
         (void (*query)(void), void (*free_fn)(void), void (*cancel)(void), MPI_Aint *extra,
          MPI_Fint *request, MPI_Fint *ierr))
{
  (void)query, (void)free_fn, (void)cancel, (void)extra, (void)request;
  *ierr = smpi_unsupported("MPI_Grequest_start");
}

/* MPI_F_SYNC_REG (MPI-3, Fortran only): a call the compiler cannot see through is all it
 * takes to make it reload buf from memory */
F_DEFINE(void, f_sync_reg, (void *buf)) { (void)buf; }

/* MPI_SIZEOF: the specifics of the mpi module's generic (tools/fortran/mpi.f90) are bound to
 * these by size; x is the array descriptor of an assumed-rank dummy, of no use here */
#define F_SIZEOF(n)                                                            \
  SMPI_PUBLIC void smpi_f_sizeof_##n(void *x, MPI_Fint *size, MPI_Fint *ierr); \
  void smpi_f_sizeof_##n(void *x, MPI_Fint *size, MPI_Fint *ierr)              \
  {                                                                            \
    (void)x;                                                                   \
    *size = n;                                                                 \
    *ierr = MPI_SUCCESS;                                                       \
  }
F_SIZEOF(1)
F_SIZEOF(2)
F_SIZEOF(4)
F_SIZEOF(8)
F_SIZEOF(16)
F_SIZEOF(32)

/* ---- smpi's extensions (docs/fortran.md) ---- */

SMPI_PUBLIC void smpi_execute_flops_(double *flops);
void smpi_execute_flops_(double *flops) { smpi_execute_flops(*flops); }
SMPI_PUBLIC void smpi_execute_flops_benched_(double *flops);
void smpi_execute_flops_benched_(double *flops) { smpi_execute_flops_benched(*flops); }
SMPI_PUBLIC void smpi_execute_(double *seconds);
void smpi_execute_(double *seconds) { smpi_execute(*seconds); }
SMPI_PUBLIC void smpi_execute_benched_(double *seconds);
void smpi_execute_benched_(double *seconds) { smpi_execute_benched(*seconds); }

/* Sampling from Fortran:
 *     INTEGER*8 ST(4)
 *     CALL SMPI_SAMPLE_LOCAL(ST, 'kernel', 3, 0D0)     ! or SMPI_SAMPLE_GLOBAL
 *     DO WHILE (SMPI_SAMPLE_NEXT(ST))
 *       ... the block ...
 *     END DO
 * ST holds the C smpi_sample_state. A sample site is named by its key: the C macros key a
 * site by the address of their string literal, so a Fortran key is interned once per text. */
_Static_assert(sizeof(smpi_sample_state) <= 4 * sizeof(long long),
               "INTEGER*8 ST(4) must hold smpi_sample_state");
static struct f_interned {
  strmap *keys; /* key text -> its interned copy (lives as long as the process) */
} f_strings;

/* one copy per text, kept for the process: C code keys sample sites, and names shared blocks,
 * by such pointers */
static const char *intern(char *k)
{
  if (!f_strings.keys)
    f_strings.keys = strmap_new();
  char *known = strmap_get(f_strings.keys, k);
  if (known) {
    free(k);
    return known;
  }
  strmap_insert(f_strings.keys, k, k);
  return k;
}

static void sample_begin(void *st, const char *key, size_t len, int global, MPI_Fint n,
                         double threshold)
{
  smpi_sample_state s = smpi_sample_block_begin(intern(smpi_f_str_in(key, len)), global, n,
                                                threshold);
  memcpy(st, &s, sizeof s);
}

SMPI_PUBLIC void smpi_sample_local_(void *st, const char *key, MPI_Fint *n, double *threshold,
                                    size_t len);
void smpi_sample_local_(void *st, const char *key, MPI_Fint *n, double *threshold, size_t len)
{
  sample_begin(st, key, len, 0, *n, *threshold);
}
SMPI_PUBLIC void smpi_sample_global_(void *st, const char *key, MPI_Fint *n, double *threshold,
                                     size_t len);
void smpi_sample_global_(void *st, const char *key, MPI_Fint *n, double *threshold, size_t len)
{
  sample_begin(st, key, len, 1, *n, *threshold);
}
SMPI_PUBLIC MPI_Fint smpi_sample_next_(void *st);
MPI_Fint smpi_sample_next_(void *st)
{
  smpi_sample_state s;
  memcpy(&s, st, sizeof s);
  int more = smpi_sample_block_next(&s);
  memcpy(st, &s, sizeof s);
  return more != 0;
}

/* Shared allocation from Fortran (module smpi: SMPI_SHARED_MALLOC(SIZE) returns a
 * TYPE(C_PTR) for C_F_POINTER). The C macro keys a shared block by file:line; here the
 * caller's return address, the same in every rank, names the call site. */
SMPI_PUBLIC void *smpi_f_shared_malloc(size_t size);
void *smpi_f_shared_malloc(size_t size)
{
  char key[40];
  snprintf(key, sizeof key, "fortran@%p", __builtin_return_address(0));
  return smpi_shared_malloc(size, intern(xstrdup(key)), 0);
}

/* ---- the generated bindings: every other function of THE list ---- */
#include "smpi/fortran_gen.h"
