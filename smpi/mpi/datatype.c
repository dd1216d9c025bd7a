/* Datatypes: the predefined ones, the objects of derived ones, their bounds and their
 * compiled typemaps (see datatype_impl.h for the program format), and pack/unpack.
 *
 * Bounds follow MPICH 4 (checked against mpich 4.0.2 on x86-64):
 *   - a replicated inner type contributes [disp + inner.lb, disp + inner.ub] per replica;
 *     true bounds come from replicas that hold data;
 *   - MPI_Type_create_struct: MPI_LB / MPI_UB markers among its own blocks set lb / ub
 *     (markers nested in inner types are not "sticky", as in MPICH 4); without an MPI_UB
 *     marker and unless all blocks have the same type, the extent is padded up to a
 *     multiple of the strictest alignment of the basic members:
 *         {double@0, char@8}  size 9, extent 16      {int@0, char@4}  extent 8
 *         {double@0, double@12} extent 20 (one type: treated as hindexed, no padding)
 *         {double@0, char@8, MPI_UB@9} extent 9       {MPI_LB@-4, double@0, char@8}
 *                                                       lb -4, ub 16 (9 padded to 16) */
#include "smpi/mpi/datatype_impl.h"

#include <limits.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/handle.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/runtime/copies.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(smpi_dt, smpi, "MPI datatypes and reduction ops");
LOG_DEFAULT_CATEGORY(smpi_dt);

/* user-input errors: say what was wrong (verbose level, since a program using
 * MPI_ERRORS_RETURN may provoke them on purpose), return the class */
#define DT_ERR(code, ...)  \
  ({                       \
    LOG_VERB(__VA_ARGS__); \
    (code);                \
  })

/* ---------------------------------------------------------------------------------------
 * predefined types
 * ------------------------------------------------------------------------------------- */

#define PAIR_T(vt) \
  struct {         \
    vt v;          \
    int i;         \
  }
#define TWIN_T(vt) \
  struct {         \
    vt a;          \
    vt b;          \
  }

/* name, handle, C type of one part, parts, representation, external32 bytes per part */
#define SCALAR(h, ct, rep, e32)                                                   \
  {                                                                               \
    h, #h, sizeof(ct), sizeof(ct), alignof(ct), rep, sizeof(ct), 1, false, 0, e32 \
  }
#define MULTI(h, ct, n, rep, e32)                                                         \
  {                                                                                       \
    h, #h, n * sizeof(ct), n * sizeof(ct), alignof(ct), rep, sizeof(ct), n, false, 0, e32 \
  }
#define PAIR(h, ct, rep, e32)                                                                  \
  {                                                                                            \
    h, #h, sizeof(ct) + sizeof(int), sizeof(PAIR_T(ct)), alignof(PAIR_T(ct)), rep, sizeof(ct), \
        1, true, offsetof(PAIR_T(ct), i), e32                                                  \
  }

#ifdef __SIZEOF_INT128__
typedef __int128 dt_int128;
#else
typedef struct {
  alignas(16) unsigned char b[16];
} dt_int128;
#endif
#ifdef __SIZEOF_FLOAT128__
typedef __float128 dt_float128;
#else
typedef struct {
  alignas(16) unsigned char b[16];
} dt_float128;
#endif
typedef struct {
  uint16_t b;
} dt_half; /* REAL2: storage only here */

static const dt_basic_info basic_infos[] = {
    SCALAR(MPI_CHAR, char, DT_REP_RAW, 1),
    SCALAR(MPI_SIGNED_CHAR, signed char, DT_REP_INT, 1),
    SCALAR(MPI_UNSIGNED_CHAR, unsigned char, DT_REP_UINT, 1),
    SCALAR(MPI_BYTE, unsigned char, DT_REP_RAW, 1),
    SCALAR(MPI_WCHAR, wchar_t, DT_REP_UINT, 2),
    SCALAR(MPI_SHORT, short, DT_REP_INT, 2),
    SCALAR(MPI_UNSIGNED_SHORT, unsigned short, DT_REP_UINT, 2),
    SCALAR(MPI_INT, int, DT_REP_INT, 4),
    SCALAR(MPI_UNSIGNED, unsigned, DT_REP_UINT, 4),
    SCALAR(MPI_LONG, long, DT_REP_INT, 4),
    SCALAR(MPI_UNSIGNED_LONG, unsigned long, DT_REP_UINT, 4),
    SCALAR(MPI_LONG_LONG_INT, long long, DT_REP_INT, 8),
    SCALAR(MPI_UNSIGNED_LONG_LONG, unsigned long long, DT_REP_UINT, 8),
    SCALAR(MPI_FLOAT, float, DT_REP_FLOAT, 4),
    SCALAR(MPI_DOUBLE, double, DT_REP_FLOAT, 8),
    SCALAR(MPI_LONG_DOUBLE, long double, DT_REP_X87, 16),
    SCALAR(MPI_C_BOOL, _Bool, DT_REP_BOOL, 1),
    SCALAR(MPI_INT8_T, int8_t, DT_REP_INT, 1),
    SCALAR(MPI_INT16_T, int16_t, DT_REP_INT, 2),
    SCALAR(MPI_INT32_T, int32_t, DT_REP_INT, 4),
    SCALAR(MPI_INT64_T, int64_t, DT_REP_INT, 8),
    SCALAR(MPI_UINT8_T, uint8_t, DT_REP_UINT, 1),
    SCALAR(MPI_UINT16_T, uint16_t, DT_REP_UINT, 2),
    SCALAR(MPI_UINT32_T, uint32_t, DT_REP_UINT, 4),
    SCALAR(MPI_UINT64_T, uint64_t, DT_REP_UINT, 8),
    /* one handle for two standard names: MPI_Type_get_name says MPI_C_COMPLEX, as MPICH */
    MULTI(MPI_C_COMPLEX, float, 2, DT_REP_FLOAT, 4),
    MULTI(MPI_C_DOUBLE_COMPLEX, double, 2, DT_REP_FLOAT, 8),
    MULTI(MPI_C_LONG_DOUBLE_COMPLEX, long double, 2, DT_REP_X87, 16),
    SCALAR(MPI_AINT, MPI_Aint, DT_REP_INT, 8),
    SCALAR(MPI_OFFSET, MPI_Offset, DT_REP_INT, 8),
    SCALAR(MPI_COUNT, MPI_Count, DT_REP_INT, 8),
    SCALAR(MPI_PACKED, unsigned char, DT_REP_RAW, 1),
    PAIR(MPI_FLOAT_INT, float, DT_REP_FLOAT, 4),
    PAIR(MPI_DOUBLE_INT, double, DT_REP_FLOAT, 8),
    PAIR(MPI_LONG_INT, long, DT_REP_INT, 4),
    MULTI(MPI_2INT, int, 2, DT_REP_INT, 4),
    PAIR(MPI_SHORT_INT, short, DT_REP_INT, 2),
    PAIR(MPI_LONG_DOUBLE_INT, long double, DT_REP_X87, 16),
    /* MPI_UB, MPI_LB: markers, see smpi_dt_init */
    SCALAR(MPI_CXX_BOOL, _Bool, DT_REP_BOOL, 1),
    MULTI(MPI_CXX_FLOAT_COMPLEX, float, 2, DT_REP_FLOAT, 4),
    MULTI(MPI_CXX_DOUBLE_COMPLEX, double, 2, DT_REP_FLOAT, 8),
    MULTI(MPI_CXX_LONG_DOUBLE_COMPLEX, long double, 2, DT_REP_X87, 16),
    SCALAR(MPI_CHARACTER, char, DT_REP_RAW, 1),
    SCALAR(MPI_LOGICAL, int, DT_REP_INT, 4),
    SCALAR(MPI_INTEGER, int, DT_REP_INT, 4),
    SCALAR(MPI_REAL, float, DT_REP_FLOAT, 4),
    SCALAR(MPI_DOUBLE_PRECISION, double, DT_REP_FLOAT, 8),
    MULTI(MPI_COMPLEX, float, 2, DT_REP_FLOAT, 4),
    MULTI(MPI_DOUBLE_COMPLEX, double, 2, DT_REP_FLOAT, 8),
    MULTI(MPI_2INTEGER, int, 2, DT_REP_INT, 4),
    MULTI(MPI_2REAL, float, 2, DT_REP_FLOAT, 4),
    MULTI(MPI_2DOUBLE_PRECISION, double, 2, DT_REP_FLOAT, 8),
    SCALAR(MPI_INTEGER1, int8_t, DT_REP_INT, 1),
    SCALAR(MPI_INTEGER2, int16_t, DT_REP_INT, 2),
    SCALAR(MPI_INTEGER4, int32_t, DT_REP_INT, 4),
    SCALAR(MPI_INTEGER8, int64_t, DT_REP_INT, 8),
    SCALAR(MPI_INTEGER16, dt_int128, DT_REP_INT, 16),
    SCALAR(MPI_REAL2, dt_half, DT_REP_FLOAT, 2),
    SCALAR(MPI_REAL4, float, DT_REP_FLOAT, 4),
    SCALAR(MPI_REAL8, double, DT_REP_FLOAT, 8),
    SCALAR(MPI_REAL16, dt_float128, DT_REP_FLOAT, 16),
    MULTI(MPI_COMPLEX4, dt_half, 2, DT_REP_FLOAT, 2),
    MULTI(MPI_COMPLEX8, float, 2, DT_REP_FLOAT, 4),
    MULTI(MPI_COMPLEX16, double, 2, DT_REP_FLOAT, 8),
    MULTI(MPI_COMPLEX32, dt_float128, 2, DT_REP_FLOAT, 16),
};
#define N_BASIC (sizeof basic_infos / sizeof basic_infos[0])

/* the twin types (MPI_2INT...) hold two basic elements, complex numbers one */
static bool is_twin(MPI_Datatype h)
{
  return h == MPI_2INT || h == MPI_2INTEGER || h == MPI_2REAL || h == MPI_2DOUBLE_PRECISION;
}

/* smpi_dt_signature of a type whose basic type is known: the types of a twin (MPI_2INT is
 * {int, int}) are those of its member */
static int signature_of(const smpi_dt *dt)
{
  MPI_Datatype b = dt->basic;
  if (b == SMPI_DT_BASIC_NONE || b == MPI_DATATYPE_NULL || b == MPI_BYTE || b == MPI_PACKED)
    return 0;
  if (b == MPI_2INT)
    return MPI_INT;
  if (b == MPI_2INTEGER)
    return MPI_INTEGER;
  if (b == MPI_2REAL)
    return MPI_REAL;
  if (b == MPI_2DOUBLE_PRECISION)
    return MPI_DOUBLE_PRECISION;
  return b;
}

int smpi_dt_signature(const smpi_dt *dt) { return dt->sig; }

static smpi_dt predefined[SMPI_DATATYPE_PREDEFINED_COUNT];
static const dt_basic_info *info_by_index[SMPI_DATATYPE_PREDEFINED_COUNT];
static bool initialized;

const dt_basic_info *smpi_dt_basic_info(MPI_Datatype h)
{
  if (SMPI_HANDLE_KIND(h) != SMPI_KIND_DATATYPE)
    return NULL;
  int i = SMPI_HANDLE_INDEX(h);
  return i > 0 && i < SMPI_DATATYPE_PREDEFINED_COUNT ? info_by_index[i] : NULL;
}

static void prog_leaf(dt_prog *p, MPI_Aint off, size_t len, size_t count, MPI_Aint stride);

void smpi_dt_init(void)
{
  if (initialized)
    return;
  initialized = true;
  for (size_t k = 0; k < N_BASIC; k++) {
    const dt_basic_info *bi = &basic_infos[k];
    int i = SMPI_HANDLE_INDEX(bi->handle);
    ASSERTF(i > 0 && i < SMPI_DATATYPE_PREDEFINED_COUNT && !info_by_index[i],
            "bad predefined datatype %s", bi->name);
    info_by_index[i] = bi;
    smpi_dt *dt = &predefined[i];
    dt->refs = 1;
    dt->predefined = dt->committed = true;
    dt->size = (MPI_Count)bi->size;
    dt->lb = 0;
    dt->ub = (MPI_Aint)bi->extent;
    dt->true_lb = 0;
    dt->true_ub = bi->pair ? (MPI_Aint)(bi->pair_int_off + sizeof(int)) : (MPI_Aint)bi->size;
    dt->align = bi->align;
    dt->nelem = bi->pair || is_twin(bi->handle) ? 2 : 1;
    dt->ext32 = (MPI_Count)(bi->parts * bi->ext32_part + (bi->pair ? 4 : 0));
    dt->basic = bi->handle;
    dt->sig = signature_of(dt);
    dt->info = bi;
    dt->combiner = MPI_COMBINER_NAMED;
    dt->shape = DT_SHAPE_BASIC;
    if (bi->pair) {
      prog_leaf(&dt->own, 0, bi->part_size, 1, 0);
      prog_leaf(&dt->own, (MPI_Aint)bi->pair_int_off, sizeof(int), 1, 0);
    } else {
      prog_leaf(&dt->own, 0, bi->size, 1, 0);
    }
    dt->prog = &dt->own;
    dt->contiguous = dt->size == dt->ub - dt->lb && dt->own.n == 1;
    smpi_handle_set_predefined(bi->handle, dt);
  }
  static const MPI_Datatype markers[] = {MPI_UB, MPI_LB};
  for (size_t k = 0; k < 2; k++) {
    smpi_dt *dt = &predefined[SMPI_HANDLE_INDEX(markers[k])];
    dt->refs = 1;
    dt->predefined = dt->committed = true;
    dt->basic = SMPI_DT_BASIC_NONE;
    dt->combiner = MPI_COMBINER_NAMED;
    dt->shape = DT_SHAPE_MARKER;
    dt->prog = &dt->own;
    dt->contiguous = true;
    smpi_handle_set_predefined(markers[k], dt);
  }
  for (int i = 1; i < SMPI_DATATYPE_PREDEFINED_COUNT; i++)
    ASSERTF(predefined[i].refs == 1, "predefined datatype index %d not registered", i);
}

/* ---------------------------------------------------------------------------------------
 * objects
 * ------------------------------------------------------------------------------------- */

smpi_dt *smpi_dt_get(MPI_Datatype h) { return smpi_handle_get(h, SMPI_KIND_DATATYPE); }

static void prog_free(dt_prog *p)
{
  free(p->nodes);
  memset(p, 0, sizeof *p);
}

void smpi_dt_ref(smpi_dt *dt)
{
  ASSERT(dt->refs > 0);
  dt->refs++;
}

void smpi_dt_unref(smpi_dt *dt)
{
  ASSERTF(dt->refs > 0, "datatype released more often than referenced");
  if (--dt->refs > 0)
    return;
  ASSERTF(!dt->predefined, "predefined datatype released");
  for (int i = 0; i < dt->nd; i++)
    smpi_dt_unref(dt->ctypes[i]);
  if (dt->inner)
    smpi_dt_unref(dt->inner);
  if (dt->inners)
    for (MPI_Count i = 0; i < dt->count; i++)
      smpi_dt_unref(dt->inners[i]);
  for (size_t i = 0; i < dt->naux; i++) {
    prog_free(dt->aux[i]);
    free(dt->aux[i]);
  }
  prog_free(&dt->own);
  free(dt->aux);
  free(dt->ints);
  free(dt->addrs);
  free(dt->ctypes);
  free(dt->blocklens);
  free(dt->disps);
  free(dt->inners);
  free(dt->name);
  free(dt);
}

bool smpi_dt_is_committed(const smpi_dt *dt) { return dt->committed; }
size_t smpi_dt_size(const smpi_dt *dt) { return (size_t)dt->size; }
MPI_Aint smpi_dt_extent(const smpi_dt *dt) { return dt->ub - dt->lb; }
MPI_Aint smpi_dt_lb(const smpi_dt *dt) { return dt->lb; }
MPI_Aint smpi_dt_true_lb(const smpi_dt *dt) { return dt->true_lb; }
MPI_Aint smpi_dt_true_extent(const smpi_dt *dt) { return dt->true_ub - dt->true_lb; }
bool smpi_dt_is_contiguous(const smpi_dt *dt) { return dt->contiguous; }

const char *smpi_dt_name(const smpi_dt *dt)
{
  if (dt->name)
    return dt->name;
  if (dt->info)
    return dt->info->name;
  if (dt == &predefined[SMPI_HANDLE_INDEX(MPI_UB)])
    return "MPI_UB";
  if (dt == &predefined[SMPI_HANDLE_INDEX(MPI_LB)])
    return "MPI_LB";
  return "derived";
}

MPI_Datatype smpi_dt_basic_type(const smpi_dt *dt)
{
  return dt->basic == SMPI_DT_BASIC_NONE ? MPI_DATATYPE_NULL : dt->basic;
}

MPI_Datatype smpi_dt_publish(smpi_dt *dt) { return smpi_handle_new(SMPI_KIND_DATATYPE, dt); }

void smpi_dt_set_contents(smpi_dt *dt, int combiner, int ni, const int *ints, int na,
                          const MPI_Aint *addrs, int nd, smpi_dt *const *types)
{
  dt->combiner = combiner;
  dt->ni = ni;
  dt->na = na;
  dt->nd = nd;
  if (ni) {
    dt->ints = xmalloc((size_t)ni * sizeof *dt->ints);
    memcpy(dt->ints, ints, (size_t)ni * sizeof *ints);
  }
  if (na) {
    dt->addrs = xmalloc((size_t)na * sizeof *dt->addrs);
    memcpy(dt->addrs, addrs, (size_t)na * sizeof *addrs);
  }
  if (nd) {
    dt->ctypes = xmalloc((size_t)nd * sizeof *dt->ctypes);
    for (int i = 0; i < nd; i++) {
      dt->ctypes[i] = types[i];
      smpi_dt_ref(types[i]);
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * programs
 * ------------------------------------------------------------------------------------- */

/* a sub-program repeated more often than this becomes a loop node instead of copies */
#define DT_INLINE_NODES 64

static void prog_push(dt_prog *p, dt_node nd)
{
  XGROW(p->nodes, p->cap, p->n + 1);
  p->nodes[p->n++] = nd;
}

/* Makes node l (runs at l->off + i * l->stride) also cover `count` more runs at
 * off + i * stride when they continue its arithmetic progression. */
static bool extend(dt_node *l, MPI_Aint off, size_t count, MPI_Aint stride)
{
  if (l->count == 1 && count == 1) {
    l->count = 2;
    l->stride = off - l->off;
    return true;
  }
  if (l->count > 1 && off == l->off + (MPI_Aint)l->count * l->stride &&
      (count == 1 || stride == l->stride)) {
    l->count += count;
    return true;
  }
  if (l->count == 1 && count > 1 && off - l->off == stride) {
    l->count = count + 1;
    l->stride = stride;
    return true;
  }
  return false;
}

/* `count` runs of len bytes at off + i * stride, merged into the last node when they
 * continue it (same order of bytes, fewer nodes) */
static void prog_leaf(dt_prog *p, MPI_Aint off, size_t len, size_t count, MPI_Aint stride)
{
  if (len == 0 || count == 0)
    return;
  if (count == 1) {
    stride = 0;
  } else if (stride == (MPI_Aint)len) {
    len *= count;
    count = 1;
    stride = 0;
  }
  p->bytes += len * count;
  if (p->n > 0) {
    dt_node *l = &p->nodes[p->n - 1];
    if (!l->sub && l->count == 1 && count == 1 && l->off + (MPI_Aint)l->len == off) {
      l->len += len;
      return;
    }
    if (!l->sub && l->len == len && extend(l, off, count, stride))
      return;
  }
  prog_push(p, (dt_node){.off = off, .stride = stride, .count = count, .len = len});
}

static void prog_loop(dt_prog *p, MPI_Aint off, size_t count, MPI_Aint stride, const dt_prog *sub)
{
  if (count == 0 || sub->bytes == 0)
    return;
  if (count == 1)
    stride = 0;
  p->bytes += count * sub->bytes;
  if (p->n > 0 && p->nodes[p->n - 1].sub == sub &&
      extend(&p->nodes[p->n - 1], off, count, stride))
    return;
  prog_push(p, (dt_node){.off = off, .stride = stride, .count = count, .sub = sub});
}

/* sub run `reps` times, the i-th at d + i * stride */
static void prog_rep(dt_prog *p, MPI_Aint d, size_t reps, MPI_Aint stride, const dt_prog *sub)
{
  if (reps == 0 || sub->bytes == 0)
    return;
  if (sub->n == 1 && !sub->nodes[0].sub) {
    const dt_node *n0 = &sub->nodes[0];
    if (n0->count == 1) {
      prog_leaf(p, d + n0->off, n0->len, reps, stride);
      return;
    }
    if (reps == 1 || stride == (MPI_Aint)n0->count * n0->stride) {
      prog_leaf(p, d + n0->off, n0->len, reps * n0->count, n0->stride);
      return;
    }
  }
  if (reps * sub->n <= DT_INLINE_NODES) {
    for (size_t i = 0; i < reps; i++) {
      MPI_Aint base = d + (MPI_Aint)i * stride;
      for (size_t k = 0; k < sub->n; k++) {
        const dt_node *nd = &sub->nodes[k];
        if (nd->sub)
          prog_loop(p, base + nd->off, nd->count, nd->stride, nd->sub);
        else
          prog_leaf(p, base + nd->off, nd->len, nd->count, nd->stride);
      }
    }
    return;
  }
  prog_loop(p, d, reps, stride, sub);
}

static bool prog_uses(const dt_prog *p, const dt_prog *sub)
{
  for (size_t k = 0; k < p->n; k++)
    if (p->nodes[k].sub == sub)
      return true;
  return false;
}

/* keeps a heap program alive with dt if dt's program runs it, else frees it */
static void keep_or_free(smpi_dt *dt, dt_prog *aux)
{
  if (prog_uses(&dt->own, aux)) {
    dt->aux = xrealloc(dt->aux, (dt->naux + 1) * sizeof *dt->aux);
    dt->aux[dt->naux++] = aux;
  } else {
    prog_free(aux);
    free(aux);
  }
}

/* ---------------------------------------------------------------------------------------
 * derived objects
 * ------------------------------------------------------------------------------------- */

typedef struct bounds {
  bool any, tany;
  MPI_Aint lb, ub, tlb, tub;
} bounds;

/* replicas of t whose displacements span [lo, hi] */
static void bounds_add(bounds *b, MPI_Aint lo, MPI_Aint hi, const smpi_dt *t)
{
  if (!b->any || lo + t->lb < b->lb)
    b->lb = lo + t->lb;
  if (!b->any || hi + t->ub > b->ub)
    b->ub = hi + t->ub;
  b->any = true;
  if (t->size > 0) {
    if (!b->tany || lo + t->true_lb < b->tlb)
      b->tlb = lo + t->true_lb;
    if (!b->tany || hi + t->true_ub > b->tub)
      b->tub = hi + t->true_ub;
    b->tany = true;
  }
}

/* displacement span of i * step for i in 0 .. n-1 (n >= 1) */
static void span(MPI_Count n, MPI_Aint step, MPI_Aint *lo, MPI_Aint *hi)
{
  MPI_Aint last = (MPI_Aint)(n - 1) * step;
  *lo = last < 0 ? last : 0;
  *hi = last > 0 ? last : 0;
}

/* blocks of bl elements of t at disp: adds their bounds */
static void bounds_block(bounds *b, MPI_Aint disp, MPI_Count bl, const smpi_dt *t)
{
  if (bl <= 0)
    return;
  MPI_Aint lo, hi;
  span(bl, t->ub - t->lb, &lo, &hi);
  bounds_add(b, disp + lo, disp + hi, t);
}

static void set_bounds(smpi_dt *dt, const bounds *b)
{
  dt->lb = b->any ? b->lb : 0;
  dt->ub = b->any ? b->ub : 0;
  dt->true_lb = b->tany ? b->tlb : 0;
  dt->true_ub = b->tany ? b->tub : 0;
}

static MPI_Datatype merge_basic(MPI_Datatype a, MPI_Datatype b)
{
  if (a == SMPI_DT_BASIC_NONE)
    return b;
  if (b == SMPI_DT_BASIC_NONE || a == b)
    return a;
  return MPI_DATATYPE_NULL; /* mixed */
}

static smpi_dt *dt_alloc(void)
{
  smpi_dt *dt = xcalloc(1, sizeof *dt);
  dt->refs = 1;
  dt->basic = SMPI_DT_BASIC_NONE;
  dt->prog = &dt->own;
  return dt;
}

static void finish(smpi_dt *dt)
{
  ASSERTF((MPI_Count)dt->prog->bytes == dt->size, "program moves %zu bytes, type size is %lld",
          dt->prog->bytes, dt->size);
  MPI_Aint extent = dt->ub - dt->lb;
  dt->contiguous = dt->size == extent &&
                   (dt->size == 0 || (dt->prog->n == 1 && !dt->prog->nodes[0].sub &&
                                      dt->prog->nodes[0].count == 1));
}

smpi_dt *smpi_dt_make_hvector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride,
                              smpi_dt *inner)
{
  smpi_dt *dt = dt_alloc();
  dt->shape = DT_SHAPE_HVECTOR;
  dt->count = count;
  dt->blocklen = blocklen;
  dt->stride = stride;
  dt->inner = inner;
  smpi_dt_ref(inner);
  dt->size = count * blocklen * inner->size;
  dt->nelem = count * blocklen * inner->nelem;
  dt->ext32 = count * blocklen * inner->ext32;
  dt->align = inner->align;
  dt->basic = inner->basic;
  bounds b = {0};
  if (count > 0 && blocklen > 0) {
    MPI_Aint lo, hi;
    span(count, stride, &lo, &hi);
    MPI_Aint elo, ehi;
    span(blocklen, inner->ub - inner->lb, &elo, &ehi);
    bounds_add(&b, lo + elo, hi + ehi, inner);
  }
  set_bounds(dt, &b);

  dt_prog *block = xcalloc(1, sizeof *block);
  prog_rep(block, 0, (size_t)blocklen, inner->ub - inner->lb, inner->prog);
  prog_rep(&dt->own, 0, (size_t)count, stride, block);
  keep_or_free(dt, block);
  finish(dt);
  return dt;
}

/* blocklens NULL: every block has `blocklen` elements */
static smpi_dt *make_hindexed(MPI_Count count, const MPI_Count *blocklens, MPI_Count blocklen,
                              const MPI_Aint *disps, smpi_dt *inner)
{
  smpi_dt *dt = dt_alloc();
  dt->shape = DT_SHAPE_HINDEXED;
  dt->count = count;
  dt->blocklen = blocklen;
  if (blocklens) {
    dt->blocklens = xmalloc((size_t)count * sizeof *dt->blocklens + 1);
    memcpy(dt->blocklens, blocklens, (size_t)count * sizeof *blocklens);
  }
  dt->disps = xmalloc((size_t)count * sizeof *dt->disps + 1);
  memcpy(dt->disps, disps, (size_t)count * sizeof *disps);
  dt->inner = inner;
  smpi_dt_ref(inner);
  dt->align = inner->align;
  dt->basic = inner->basic;
  MPI_Aint ext = inner->ub - inner->lb;
  bounds b = {0};
  MPI_Count total = 0;
  for (MPI_Count i = 0; i < count; i++) {
    MPI_Count bl = blocklens ? blocklens[i] : blocklen;
    total += bl;
    bounds_block(&b, disps[i], bl, inner);
    prog_rep(&dt->own, disps[i], (size_t)bl, ext, inner->prog);
  }
  dt->size = total * inner->size;
  dt->nelem = total * inner->nelem;
  dt->ext32 = total * inner->ext32;
  set_bounds(dt, &b);
  finish(dt);
  return dt;
}

static bool is_marker(const smpi_dt *t) { return t->shape == DT_SHAPE_MARKER; }

smpi_dt *smpi_dt_make_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps,
                             smpi_dt *const *inners, bool mpi_padding)
{
  smpi_dt *ub_marker = &predefined[SMPI_HANDLE_INDEX(MPI_UB)];
  smpi_dt *dt = dt_alloc();
  dt->shape = DT_SHAPE_STRUCT;
  dt->count = count;
  dt->blocklens = xmalloc((size_t)count * sizeof *dt->blocklens + 1);
  memcpy(dt->blocklens, blocklens, (size_t)count * sizeof *blocklens);
  dt->disps = xmalloc((size_t)count * sizeof *dt->disps + 1);
  memcpy(dt->disps, disps, (size_t)count * sizeof *disps);
  dt->inners = xmalloc((size_t)count * sizeof *dt->inners + 1);
  bounds b = {0};
  bool have_lb = false, have_ub = false, same = true;
  MPI_Aint mlb = 0, mub = 0;
  for (MPI_Count i = 0; i < count; i++) {
    smpi_dt *t = inners[i];
    dt->inners[i] = t;
    smpi_dt_ref(t);
    if (t != inners[0])
      same = false;
    if (blocklens[i] == 0) /* no entries in the typemap: no bounds, no alignment (MPICH) */
      continue;
    if (is_marker(t)) {
      if (t == ub_marker) {
        mub = have_ub && mub > disps[i] ? mub : disps[i];
        have_ub = true;
      } else {
        mlb = have_lb && mlb < disps[i] ? mlb : disps[i];
        have_lb = true;
      }
      continue;
    }
    dt->size += blocklens[i] * t->size;
    dt->nelem += blocklens[i] * t->nelem;
    dt->ext32 += blocklens[i] * t->ext32;
    if (t->align > dt->align)
      dt->align = t->align;
    dt->basic = merge_basic(dt->basic, t->basic);
    bounds_block(&b, disps[i], blocklens[i], t);
    prog_rep(&dt->own, disps[i], (size_t)blocklens[i], t->ub - t->lb, t->prog);
  }
  set_bounds(dt, &b);
  if (mpi_padding && !have_ub && !same && dt->align > 1) {
    MPI_Aint ext = dt->ub - dt->lb, a = (MPI_Aint)dt->align;
    MPI_Aint rem = ((ext % a) + a) % a;
    if (rem)
      dt->ub += a - rem;
  }
  if (have_lb)
    dt->lb = mlb;
  if (have_ub)
    dt->ub = mub;
  finish(dt);
  return dt;
}

smpi_dt *smpi_dt_make_resized(smpi_dt *inner, MPI_Aint lb, MPI_Aint extent)
{
  smpi_dt *dt = dt_alloc();
  dt->shape = DT_SHAPE_ALIAS;
  dt->inner = inner;
  smpi_dt_ref(inner);
  dt->size = inner->size;
  dt->nelem = inner->nelem;
  dt->ext32 = inner->ext32;
  dt->align = inner->align;
  dt->basic = inner->basic;
  dt->lb = lb;
  dt->ub = lb + extent;
  dt->true_lb = inner->true_lb;
  dt->true_ub = inner->true_ub;
  dt->prog = inner->prog;
  finish(dt);
  return dt;
}

/* ---------------------------------------------------------------------------------------
 * constructors (handle level)
 * ------------------------------------------------------------------------------------- */

/* a datatype argument: NULL (and *rc set) if invalid */
static smpi_dt *arg_type(MPI_Datatype h, const char *what, int *rc)
{
  smpi_dt *dt = smpi_dt_get(h);
  if (!dt)
    *rc = DT_ERR(MPI_ERR_TYPE, "%s: %#x is not a valid datatype (null, freed or not a datatype)",
                 what, (unsigned)h);
  return dt;
}

#define CHECK_OUT(p)                                                \
  do {                                                              \
    if (!(p))                                                       \
      return DT_ERR(MPI_ERR_ARG, "output argument " #p " is NULL"); \
  } while (0)
#define CHECK_COUNT(c)                                                        \
  do {                                                                        \
    if ((c) < 0)                                                              \
      return DT_ERR(MPI_ERR_COUNT, #c " is negative (%lld)", (long long)(c)); \
  } while (0)
#define CHECK_ARRAY(a, n)                                                         \
  do {                                                                            \
    if ((n) > 0 && !(a))                                                          \
      return DT_ERR(MPI_ERR_ARG, "array " #a " is NULL with count %d", (int)(n)); \
  } while (0)

/* The input and output datatypes of a constructor, checked in that order: old, or NULL with
 * *rc set. */
static smpi_dt *arg_oldtype(MPI_Datatype h, const char *what, const MPI_Datatype *newtype,
                            int *rc)
{
  smpi_dt *old = arg_type(h, what, rc);
  if (old && !newtype) {
    *rc = DT_ERR(MPI_ERR_ARG, "output argument newtype is NULL");
    return NULL;
  }
  return old;
}

static int check_blocklens(int count, const int *bl)
{
  for (int i = 0; i < count; i++)
    if (bl[i] < 0)
      return DT_ERR(MPI_ERR_COUNT, "blocklength %d (block %d) is negative", bl[i], i);
  return MPI_SUCCESS;
}

static MPI_Count *to_counts(int n, const int *v)
{
  MPI_Count *c = xmalloc((size_t)n * sizeof *c + 1);
  for (int i = 0; i < n; i++)
    c[i] = v[i];
  return c;
}

/* The checks of MPI_Type_indexed and MPI_Type_create_hindexed, in the order that decides
 * which error several bad arguments give (the names are those the messages quote). */
static int check_blocks(int count, const int *blocklengths, const void *displacements)
{
  CHECK_COUNT(count);
  CHECK_ARRAY(blocklengths, count);
  CHECK_ARRAY(displacements, count);
  return check_blocklens(count, blocklengths);
}

/* Likewise for the constant-blocklength variants. */
static int check_block(int count, int blocklength, const void *displacements)
{
  CHECK_COUNT(count);
  CHECK_COUNT(blocklength);
  CHECK_ARRAY(displacements, count);
  return MPI_SUCCESS;
}

/* make_hindexed with displacements counted in extents of old (the non-h variants) */
static smpi_dt *make_indexed(int count, const MPI_Count *blocklens, MPI_Count blocklen,
                             const int *displacements, smpi_dt *old)
{
  MPI_Aint ext = old->ub - old->lb;
  MPI_Aint *d = xmalloc((size_t)count * sizeof *d + 1);
  for (int i = 0; i < count; i++)
    d[i] = (MPI_Aint)displacements[i] * ext;
  smpi_dt *dt = make_hindexed(count, blocklens, blocklen, d, old);
  free(d);
  return dt;
}

/* The integers MPI_Type_get_contents gives back: the nhead values of head, then count
 * values from a and, if b is not NULL, count from b. Free with free(). */
static int *contents_ints(int nhead, const int *head, int count, const int *a, const int *b)
{
  size_t n = (size_t)nhead + (size_t)count * (b ? 2 : 1);
  int *ints = xmalloc(n * sizeof *ints);
  memcpy(ints, head, (size_t)nhead * sizeof *ints);
  memcpy(ints + nhead, a, (size_t)count * sizeof *ints);
  if (b)
    memcpy(ints + nhead + count, b, (size_t)count * sizeof *ints);
  return ints;
}

int smpi_type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  CHECK_COUNT(count);
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_contiguous", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = smpi_dt_make_hvector(1, count, 0, old);
  smpi_dt_set_contents(dt, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

/* MPI 4.0's MPI_Type_contiguous_c: the type machinery counts in MPI_Count, so a count
 * beyond INT_MAX is taken whole; only its decoding needs the large-count MPI_Type_get_
 * envelope_c/contents_c, which smpi lacks: such a type records no integer, and
 * MPI_Type_get_envelope/contents refuse it with MPI_ERR_COUNT. */
int smpi_type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  if (count <= INT_MAX)
    return smpi_type_contiguous((int)count, oldtype, newtype);
  int rc = MPI_SUCCESS;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_contiguous_c", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = smpi_dt_make_hvector(1, count, 0, old);
  smpi_dt_set_contents(dt, MPI_COMBINER_CONTIGUOUS, 0, NULL, 0, NULL, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

static bool large_contents(const smpi_dt *dt)
{
  return dt->combiner == MPI_COMBINER_CONTIGUOUS && dt->ni == 0;
}

int smpi_type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  CHECK_COUNT(count);
  CHECK_COUNT(blocklength);
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_vector", newtype, &rc);
  if (!old)
    return rc;
  MPI_Aint bytes = (MPI_Aint)stride * (old->ub - old->lb);
  smpi_dt *dt = smpi_dt_make_hvector(count, blocklength, bytes, old);
  int ints[3] = {count, blocklength, stride};
  smpi_dt_set_contents(dt, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  CHECK_COUNT(count);
  CHECK_COUNT(blocklength);
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_create_hvector", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = smpi_dt_make_hvector(count, blocklength, stride, old);
  int ints[2] = {count, blocklength};
  smpi_dt_set_contents(dt, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_indexed(int count, const int blocklengths[], const int displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = check_blocks(count, blocklengths, displacements);
  if (rc)
    return rc;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_indexed", newtype, &rc);
  if (!old)
    return rc;
  MPI_Count *bl = to_counts(count, blocklengths);
  smpi_dt *dt = make_indexed(count, bl, 0, displacements, old);
  free(bl);
  int *ints = contents_ints(1, &count, count, blocklengths, displacements);
  smpi_dt_set_contents(dt, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &old);
  free(ints);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = check_blocks(count, blocklengths, displacements);
  if (rc)
    return rc;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_create_hindexed", newtype, &rc);
  if (!old)
    return rc;
  MPI_Count *bl = to_counts(count, blocklengths);
  smpi_dt *dt = make_hindexed(count, bl, 0, displacements, old);
  free(bl);
  int *ints = contents_ints(1, &count, count, blocklengths, NULL);
  smpi_dt_set_contents(dt, MPI_COMBINER_HINDEXED, count + 1, ints, count, displacements, 1, &old);
  free(ints);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_indexed_block(int count, int blocklength, const int displacements[],
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = check_block(count, blocklength, displacements);
  if (rc)
    return rc;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_create_indexed_block", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = make_indexed(count, NULL, blocklength, displacements, old);
  int *ints = contents_ints(2, (const int[]){count, blocklength}, count, displacements, NULL);
  smpi_dt_set_contents(dt, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &old);
  free(ints);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = check_block(count, blocklength, displacements);
  if (rc)
    return rc;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_create_hindexed_block", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = make_hindexed(count, NULL, blocklength, displacements, old);
  int ints[2] = {count, blocklength};
  smpi_dt_set_contents(dt, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, displacements, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                     const MPI_Datatype types[], MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  CHECK_COUNT(count);
  CHECK_ARRAY(blocklengths, count);
  CHECK_ARRAY(displacements, count);
  CHECK_ARRAY(types, count);
  if ((rc = check_blocklens(count, blocklengths)))
    return rc;
  CHECK_OUT(newtype);
  smpi_dt **inners = xmalloc((size_t)count * sizeof *inners + 1);
  for (int i = 0; i < count; i++) {
    inners[i] = smpi_dt_get(types[i]);
    if (!inners[i]) {
      free(inners);
      return DT_ERR(MPI_ERR_TYPE, "MPI_Type_create_struct: type %d (%#x) is not a valid datatype",
                    i, (unsigned)types[i]);
    }
  }
  MPI_Count *bl = to_counts(count, blocklengths);
  smpi_dt *dt = smpi_dt_make_struct(count, bl, displacements, inners, true);
  free(bl);
  int *ints = contents_ints(1, &count, count, blocklengths, NULL);
  smpi_dt_set_contents(dt, MPI_COMBINER_STRUCT, count + 1, ints, count, displacements, count,
                       inners);
  free(ints);
  free(inners);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_create_resized", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = smpi_dt_make_resized(old, lb, extent);
  MPI_Aint addrs[2] = {lb, extent};
  smpi_dt_set_contents(dt, MPI_COMBINER_RESIZED, 0, NULL, 2, addrs, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  int rc = MPI_SUCCESS;
  smpi_dt *old = arg_oldtype(oldtype, "MPI_Type_dup", newtype, &rc);
  if (!old)
    return rc;
  smpi_dt *dt = smpi_dt_make_resized(old, old->lb, old->ub - old->lb);
  dt->committed = old->committed;
  dt->sig = old->sig;
  smpi_dt_set_contents(dt, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

int smpi_type_commit(MPI_Datatype *datatype)
{
  CHECK_OUT(datatype);
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(*datatype, "MPI_Type_commit", &rc);
  if (!dt)
    return rc;
  dt->committed = true;
  dt->sig = signature_of(dt);
  return MPI_SUCCESS;
}

int smpi_type_free(MPI_Datatype *datatype)
{
  CHECK_OUT(datatype);
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(*datatype, "MPI_Type_free", &rc);
  if (!dt)
    return rc;
  if (dt->predefined)
    return DT_ERR(MPI_ERR_TYPE, "MPI_Type_free: %s is predefined and cannot be freed",
                  smpi_dt_name(dt));
  smpi_handle_free(*datatype);
  smpi_dt_unref(dt);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------------------------
 * decoding, names
 * ------------------------------------------------------------------------------------- */

int smpi_type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(datatype, "MPI_Type_get_envelope", &rc);
  if (!dt)
    return rc;
  if (large_contents(dt))
    return DT_ERR(MPI_ERR_COUNT,
                  "MPI_Type_get_envelope: %s was built with a count beyond "
                  "INT_MAX (MPI_Type_contiguous_c); smpi has no MPI_Type_get_envelope_c",
                  smpi_dt_name(dt));
  CHECK_OUT(num_integers);
  CHECK_OUT(num_addresses);
  CHECK_OUT(num_datatypes);
  CHECK_OUT(combiner);
  *num_integers = dt->ni;
  *num_addresses = dt->na;
  *num_datatypes = dt->nd;
  *combiner = dt->combiner;
  return MPI_SUCCESS;
}

int smpi_type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int integers[], MPI_Aint addresses[],
                           MPI_Datatype datatypes[])
{
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(datatype, "MPI_Type_get_contents", &rc);
  if (!dt)
    return rc;
  if (large_contents(dt))
    return DT_ERR(MPI_ERR_COUNT,
                  "MPI_Type_get_contents: %s was built with a count beyond "
                  "INT_MAX (MPI_Type_contiguous_c); smpi has no MPI_Type_get_contents_c",
                  smpi_dt_name(dt));
  if (dt->combiner == MPI_COMBINER_NAMED)
    return DT_ERR(MPI_ERR_TYPE, "MPI_Type_get_contents: %s is a named type (no contents)",
                  smpi_dt_name(dt));
  if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nd)
    return DT_ERR(MPI_ERR_ARG,
                  "MPI_Type_get_contents: arrays too small (%d, %d, %d given; %d, %d, %d needed)",
                  max_integers, max_addresses, max_datatypes, dt->ni, dt->na, dt->nd);
  CHECK_ARRAY(integers, dt->ni);
  CHECK_ARRAY(addresses, dt->na);
  CHECK_ARRAY(datatypes, dt->nd);
  if (dt->ni)
    memcpy(integers, dt->ints, (size_t)dt->ni * sizeof *integers);
  if (dt->na)
    memcpy(addresses, dt->addrs, (size_t)dt->na * sizeof *addresses);
  for (int i = 0; i < dt->nd; i++) {
    smpi_dt *t = dt->ctypes[i];
    if (t->predefined) {
      datatypes[i] = (MPI_Datatype)SMPI_HANDLE_MAKE(SMPI_KIND_DATATYPE, (int)(t - predefined));
    } else {
      /* a new handle on the same object, which the caller frees */
      smpi_dt_ref(t);
      datatypes[i] = smpi_dt_publish(t);
    }
  }
  return MPI_SUCCESS;
}

int smpi_type_set_name(MPI_Datatype datatype, const char *name)
{
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(datatype, "MPI_Type_set_name", &rc);
  if (!dt)
    return rc;
  if (!name)
    return DT_ERR(MPI_ERR_ARG, "MPI_Type_set_name: name is NULL");
  free(dt->name);
  dt->name = xstrndup(name, MPI_MAX_OBJECT_NAME - 1);
  return MPI_SUCCESS;
}

int smpi_type_get_name(MPI_Datatype datatype, char *name, int *resultlen)
{
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(datatype, "MPI_Type_get_name", &rc);
  if (!dt)
    return rc;
  CHECK_OUT(name);
  CHECK_OUT(resultlen);
  const char *n = dt->name ? dt->name : dt->predefined ? smpi_dt_name(dt) : "";
  size_t len = strlen(n);
  if (len > MPI_MAX_OBJECT_NAME - 1)
    len = MPI_MAX_OBJECT_NAME - 1;
  memcpy(name, n, len);
  name[len] = '\0';
  *resultlen = (int)len;
  return MPI_SUCCESS;
}

int smpi_type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
  CHECK_OUT(datatype);
  static const struct {
    int cls, size;
    MPI_Datatype h;
  } table[] = {
      {MPI_TYPECLASS_REAL, 2, MPI_REAL2},         {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
      {MPI_TYPECLASS_REAL, 8, MPI_REAL8},         {MPI_TYPECLASS_REAL, 16, MPI_REAL16},
      {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
      {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
      {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16}, {MPI_TYPECLASS_COMPLEX, 4, MPI_COMPLEX4},
      {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},   {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
      {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
  };
  if (typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_INTEGER &&
      typeclass != MPI_TYPECLASS_COMPLEX)
    return DT_ERR(MPI_ERR_ARG, "MPI_Type_match_size: unknown type class %d", typeclass);
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].cls == typeclass && table[i].size == size) {
      *datatype = table[i].h;
      return MPI_SUCCESS;
    }
  return DT_ERR(MPI_ERR_ARG, "MPI_Type_match_size: no type of class %d has %d bytes", typeclass,
                size);
}

/* ---------------------------------------------------------------------------------------
 * pack / unpack
 * ------------------------------------------------------------------------------------- */

static inline char *at(const void *base, MPI_Aint off)
{
  /* integer arithmetic: base may be MPI_BOTTOM (NULL) with absolute displacements */
  return (char *)((uintptr_t)base + (uintptr_t)off);
}

typedef struct mover {
  char *packed;
  size_t left;  /* bytes still to move */
  size_t moved; /* bytes really copied (folded ones are skipped), for smpi_copy_note */
  bool unpack;
} mover;

/* one run: constant-size copies for the common lengths, which the compiler turns into
 * plain loads and stores instead of a libc call per basic element */
static inline void copy_run(char *dst, const char *src, size_t len)
{
  switch (len) {
  case 1:
    memcpy(dst, src, 1);
    return;
  case 2:
    memcpy(dst, src, 2);
    return;
  case 4:
    memcpy(dst, src, 4);
    return;
  case 8:
    memcpy(dst, src, 8);
    return;
  case 12:
    memcpy(dst, src, 12);
    return;
  case 16:
    memcpy(dst, src, 16);
    return;
  default:
    memcpy(dst, src, len);
    return;
  }
}

static void move(char *user, size_t len, mover *m)
{
  if (m->unpack)
    copy_run(user, m->packed, len);
  else
    copy_run(m->packed, user, len);
  m->packed += len;
  m->left -= len;
}

/* n runs of len bytes, stride apart in user memory, back to back in packed memory */
static void strided(char *first, MPI_Aint stride, size_t n, size_t len, mover *m)
{
#define STRIDED_(L)                                                        \
  do {                                                                     \
    if (m->unpack)                                                         \
      for (size_t i = 0; i < n; i++)                                       \
        memcpy(at(first, (MPI_Aint)i *stride), m->packed + i * (L), (L));  \
    else                                                                   \
      for (size_t i = 0; i < n; i++)                                       \
        memcpy(m->packed + i * (L), at(first, (MPI_Aint)i * stride), (L)); \
  } while (0)
  switch (len) {
  case 4:
    STRIDED_(4);
    break;
  case 8:
    STRIDED_(8);
    break;
  case 16:
    STRIDED_(16);
    break;
  default:
    STRIDED_(len);
    break;
  }
#undef STRIDED_
  m->packed += n * len;
  m->left -= n * len;
}

/* a short program of single runs (a struct's pieces): run inline, no recursion */
static bool is_flat(const dt_prog *p)
{
  if (p->n > 8)
    return false;
  for (size_t k = 0; k < p->n; k++)
    if (p->nodes[k].sub || p->nodes[k].count != 1)
      return false;
  return true;
}

static void run(const dt_prog *p, const char *base, mover *m)
{
  for (size_t k = 0; k < p->n && m->left > 0; k++) {
    const dt_node *nd = &p->nodes[k];
    char *first = at(base, nd->off);
    if (nd->sub) {
      const dt_prog *sub = nd->sub;
      size_t i = 0;
      if (is_flat(sub)) {
        size_t whole = m->left / sub->bytes;
        size_t n = whole < nd->count ? whole : nd->count;
        char *packed = m->packed;
        const dt_node *leaves = sub->nodes;
        size_t nl = sub->n;
        if (m->unpack) {
          for (; i < n; i++) {
            const char *b = at(first, (MPI_Aint)i * nd->stride);
            for (size_t j = 0; j < nl; packed += leaves[j].len, j++)
              copy_run(at(b, leaves[j].off), packed, leaves[j].len);
          }
        } else {
          for (; i < n; i++) {
            const char *b = at(first, (MPI_Aint)i * nd->stride);
            for (size_t j = 0; j < nl; packed += leaves[j].len, j++)
              copy_run(packed, at(b, leaves[j].off), leaves[j].len);
          }
        }
        m->left -= (size_t)(packed - m->packed);
        m->packed = packed;
      }
      for (; i < nd->count && m->left > 0; i++)
        run(sub, at(first, (MPI_Aint)i * nd->stride), m);
      continue;
    }
    size_t len = nd->len;
    if (nd->count == 1) {
      move(first, len < m->left ? len : m->left, m);
      continue;
    }
    size_t full = m->left / len;
    size_t n = full < nd->count ? full : nd->count;
    strided(first, nd->stride, n, len, m);
    if (n < nd->count && m->left > 0)
      move(at(first, (MPI_Aint)n * nd->stride), m->left, m);
  }
}

/* Elements i.. of a strided leaf whose user-side bytes all lie in folded memory move
 * nothing, whatever the packed side is: skip them at once (with one lookup) instead of one
 * lookup pair per element (the rows of a matrix folded with SMPI_SHARED_MALLOC, sent with a
 * vector type, were most of a 256-rank HPL-like run's copying). */
static bool folded_tail(const dt_node *nd, size_t i, const char *b, mover *m)
{
  size_t take = (nd->count - i) * nd->len;
  if (take > m->left)
    take = m->left;
  size_t elems = (take + nd->len - 1) / nd->len;
  MPI_Aint reach = (MPI_Aint)(elems - 1) * nd->stride;
  const char *lo = reach < 0 ? at(b, reach) : b;
  size_t span = (size_t)(reach < 0 ? -reach : reach) + nd->len;
  if (!smpi_shared_all_folded(lo, span))
    return false;
  m->packed += take;
  m->left -= take;
  return true;
}

/* Slow path for buffers in folded memory (SMPI_SHARED_MALLOC): the same walk as run(), but
 * every run goes through smpi_shared_aware_copy, which skips the bytes folded on either side
 * (see docs/emulation.md, "Messages"). Only taken when a buffer touches folded memory. */
static void run_folded(const dt_prog *p, const char *base, mover *m)
{
  for (size_t k = 0; k < p->n && m->left > 0; k++) {
    const dt_node *nd = &p->nodes[k];
    for (size_t i = 0; i < nd->count && m->left > 0; i++) {
      char *b = at(base, nd->off + (MPI_Aint)i * nd->stride);
      if (nd->sub) {
        run_folded(nd->sub, b, m);
        continue;
      }
      if (i + 1 < nd->count && nd->len > 0 && folded_tail(nd, i, b, m))
        break;
      size_t len = nd->len < m->left ? nd->len : m->left;
      if (m->unpack)
        m->moved += smpi_shared_aware_copy(b, m->packed, len);
      else
        m->moved += smpi_shared_aware_copy(m->packed, b, len);
      m->packed += len;
      m->left -= len;
    }
  }
}

/* The bytes that count (>= 1) elements of dt at buf cover, whatever the sign of the extent:
 * *lo is the lowest one; 0 when there are none. */
static size_t covered(const void *buf, size_t count, const smpi_dt *dt, const char **lo)
{
  MPI_Aint last = (MPI_Aint)(count - 1) * (dt->ub - dt->lb);
  *lo = at(buf, dt->true_lb + (last < 0 ? last : 0));
  MPI_Aint span = dt->true_ub - dt->true_lb + (last < 0 ? -last : last);
  return span > 0 ? (size_t)span : 0;
}

bool smpi_dt_all_folded(const void *buf, size_t count, const smpi_dt *dt)
{
  if (!buf || count == 0 || dt->size == 0)
    return false;
  const char *lo;
  size_t span = covered(buf, count, dt, &lo);
  return smpi_shared_all_folded(lo, span);
}

bool smpi_dt_touches_folded(const void *buf, size_t count, const smpi_dt *dt)
{
  /* buf may be MPI_BOTTOM (NULL) under a type of absolute addresses */
  if (count == 0)
    return false;
  const char *lo;
  size_t span = covered(buf, count, dt, &lo);
  return span > 0 && smpi_shared_touches(lo, span);
}

/* Whether the user side [count elements of dt at buf] or the packed side of a transfer
 * touches folded memory: two lookups, free when nothing is folded. */
static bool touches_folded(const void *buf, size_t count, const smpi_dt *dt, const char *packed,
                           size_t limit)
{
  return smpi_shared_touches(packed, limit) || smpi_dt_touches_folded(buf, count, dt);
}

static size_t transfer_folded(const void *buf, size_t count, const smpi_dt *dt, char *packed,
                              size_t limit, bool unpack)
{
  mover m = {.packed = packed, .left = limit, .unpack = unpack};
  dt_node nd = {.off = 0, .stride = dt->ub - dt->lb, .count = count, .sub = dt->prog};
  if (dt->contiguous)
    nd = (dt_node){.off = dt->true_lb, .stride = 0, .count = 1, .len = limit};
  dt_prog top = {.nodes = &nd, .n = 1};
  run_folded(&top, buf, &m);
  ASSERT(m.left == 0);
  smpi_copy_note(m.moved);
  return limit;
}

/* count elements of dt at buf <-> packed, at most limit bytes */
static size_t transfer(const void *buf, size_t count, const smpi_dt *dt, char *packed,
                       size_t limit, bool unpack)
{
  size_t total = count * (size_t)dt->size;
  if (limit > total)
    limit = total;
  if (limit == 0)
    return 0;
  if (touches_folded(buf, count, dt, packed, limit))
    return transfer_folded(buf, count, dt, packed, limit, unpack);
  smpi_copy_note(limit);
  if (dt->contiguous) {
    char *user = at(buf, dt->true_lb);
    /* smpi/display-timing: the large copies' rate checks the payload floor's (copies.h) */
    bool timed = __builtin_expect(smpi_copies.watch, 0) &&
                 smpi_copy_timed(unpack ? user : packed, limit);
    /* after the timing decision: a copy into fresh pages stays untimed */
    smpi_copy_prefault(unpack ? user : packed, limit);
    double t0 = timed ? smpi_copy_clock() : 0;
    if (unpack)
      memcpy(user, packed, limit);
    else
      memcpy(packed, user, limit);
    if (timed)
      smpi_copy_timed_note(limit, smpi_copy_clock() - t0);
    return limit;
  }
  mover m = {.packed = packed, .left = limit, .unpack = unpack};
  /* the count elements are one more loop around the type's program */
  dt_prog top = {0};
  dt_node nd;
  const dt_prog *p = dt->prog;
  if (p->n == 1 && !p->nodes[0].sub && p->nodes[0].count == 1)
    nd = (dt_node){.off = p->nodes[0].off,
                   .stride = dt->ub - dt->lb,
                   .count = count,
                   .len = p->nodes[0].len};
  else
    nd = (dt_node){.off = 0, .stride = dt->ub - dt->lb, .count = count, .sub = p};
  top.nodes = &nd;
  top.n = 1;
  run(&top, buf, &m);
  ASSERT(m.left == 0);
  return limit;
}

void smpi_dt_pack(const void *buf, size_t count, const smpi_dt *dt, void *out)
{
  transfer(buf, count, dt, out, SIZE_MAX, false);
}

size_t smpi_dt_pack_some(const void *buf, size_t count, const smpi_dt *dt, void *out,
                         size_t limit)
{
  return transfer(buf, count, dt, out, limit, false);
}

void smpi_dt_first_touch(void *buf, const smpi_dt *dt, size_t n)
{
  if (n < SMPI_TOUCH_MIN || !dt->contiguous)
    return;
  char *lo = at(buf, dt->true_lb);
  if (!smpi_shared_touches(lo, n))
    smpi_first_touch_note(lo, n);
}

void smpi_dt_prefault_whole(void *buf, size_t count, const smpi_dt *dt)
{
  size_t n = count * (size_t)dt->size;
  if (!buf || !dt->contiguous || n < SMPI_PREFAULT_MIN || (dt->size && n / dt->size != count))
    return;
  char *lo = at(buf, dt->true_lb);
  if (smpi_shared_touches(lo, n))
    return;
  if (smpi_copies.watch)
    smpi_first_touch_note(lo, n);
  smpi_copy_prefault(lo, n);
}

void smpi_dt_unpack(const void *in, size_t bytes, void *buf, size_t count, const smpi_dt *dt)
{
  transfer(buf, count, dt, (char *)in, bytes, true);
}

/* ---------------------------------------------------------------------------------------
 * direct copy between two non-contiguous layouts
 *
 * Packing the sender's layout into a temporary buffer and unpacking that into the
 * receiver's copies every byte twice. Instead, two cursors walk the runs of both layouts
 * and each byte moves once, from run to run:
 *
 *   send (vector, 3 x 4 B, stride 8):  [aaaa....bbbb....cccc]
 *   recv (vector, 2 x 6 B, stride 8):  [aaaabb..bbcccc]
 *   moves: aaaa | bb | bb | cccc  (min of the two runs at each step)
 *
 * A cursor keeps the loops it is in on a small stack. The walk costs a few nanoseconds per
 * run, more than the strided loops of pack/unpack per element: it is used when every run
 * of both layouts is at least DIRECT_MIN_RUN bytes, where the second pass costs more
 * (2 ranks, 20 sends of 8 MiB vector to vector, user CPU-s, pack+unpack -> direct: 8 B
 * runs 0.16 -> 0.22, 32 B 0.16 -> 0.15, 64 B 0.19 -> 0.14, 256 B 0.13 -> 0.09, 4 KiB
 * 0.09 -> 0.05). Folded buffers keep the pack/unpack path (smpi_shared_aware_copy).
 * ------------------------------------------------------------------------------------- */

#define CURSOR_DEPTH 16
#define DIRECT_MIN_RUN 64

typedef struct cursor_frame {
  const dt_prog *p;
  const char *base;
  size_t k; /* node of p being run */
  size_t i; /* its iteration */
} cursor_frame;

typedef struct cursor {
  cursor_frame st[CURSOR_DEPTH];
  int depth;       /* frames in use */
  const char *run; /* current run and the bytes left in it */
  size_t left;
} cursor;

/* Depth of the loops of p and the shortest run in it, false when deeper than max. */
static bool prog_shape(const dt_prog *p, int max, size_t *min_run)
{
  if (max <= 0)
    return false;
  for (size_t k = 0; k < p->n; k++) {
    const dt_node *nd = &p->nodes[k];
    if (nd->sub) {
      if (nd->count > 0 && !prog_shape(nd->sub, max - 1, min_run))
        return false;
    } else if (nd->count > 0 && nd->len > 0 && nd->len < *min_run) {
      *min_run = nd->len;
    }
  }
  return true;
}

/* Moves c to its next non-empty run; false at the end. */
static bool cursor_next(cursor *c)
{
  while (c->depth > 0) {
    cursor_frame *f = &c->st[c->depth - 1];
    if (f->k == f->p->n) { /* this loop's body is over: next iteration of the parent's node */
      c->depth--;
      if (c->depth > 0) {
        cursor_frame *up = &c->st[c->depth - 1];
        if (++up->i == up->p->nodes[up->k].count) {
          up->k++;
          up->i = 0;
        }
      }
      continue;
    }
    const dt_node *nd = &f->p->nodes[f->k];
    if (nd->count == 0) {
      f->k++;
      continue;
    }
    const char *b = at(f->base, nd->off + (MPI_Aint)f->i * nd->stride);
    if (nd->sub) {
      ASSERT(c->depth < CURSOR_DEPTH);
      c->st[c->depth].p = nd->sub;
      c->st[c->depth].base = b;
      c->st[c->depth].k = 0;
      c->st[c->depth].i = 0;
      c->depth++;
      continue;
    }
    if (++f->i == nd->count) {
      f->k++;
      f->i = 0;
    }
    if (nd->len > 0) {
      c->run = b;
      c->left = nd->len;
      return true;
    }
  }
  return false;
}

/* count elements of dt at buf, as copy_direct walks them: the top loop is one frame over
 * the type's program, as in transfer() */
static void cursor_start(cursor *c, dt_node *top, dt_prog *tp, const void *buf, size_t count,
                         const smpi_dt *dt)
{
  *top = (dt_node){.off = 0, .stride = dt->ub - dt->lb, .count = count, .sub = dt->prog};
  *tp = (dt_prog){.nodes = top, .n = 1};
  c->st[0].p = tp;
  c->st[0].base = buf;
  c->st[0].k = 0;
  c->st[0].i = 0;
  c->depth = 1;
  c->left = 0;
}

static bool direct_ok(const smpi_dt *dt)
{
  size_t min_run = SIZE_MAX;
  return prog_shape(dt->prog, CURSOR_DEPTH - 2, &min_run) && min_run >= DIRECT_MIN_RUN;
}

static void copy_direct(const void *sendbuf, size_t scount, const smpi_dt *sdt, void *recvbuf,
                        size_t rcount, const smpi_dt *rdt, size_t n)
{
  cursor s, r;
  dt_node stop, rtop;
  dt_prog sp, rp;
  cursor_start(&s, &stop, &sp, sendbuf, scount, sdt);
  cursor_start(&r, &rtop, &rp, recvbuf, rcount, rdt);
  for (size_t left = n; left > 0;) {
    if (s.left == 0 && !cursor_next(&s))
      break;
    if (r.left == 0 && !cursor_next(&r))
      break;
    size_t m = s.left < r.left ? s.left : r.left;
    if (m > left)
      m = left;
    memcpy((char *)r.run, s.run, m);
    s.run += m, s.left -= m;
    r.run += m, r.left -= m;
    left -= m;
  }
  smpi_copy_note(n);
}

size_t smpi_dt_copy(const void *sendbuf, size_t scount, const smpi_dt *sdt, void *recvbuf,
                    size_t rcount, const smpi_dt *rdt)
{
  size_t sbytes = scount * (size_t)sdt->size, rbytes = rcount * (size_t)rdt->size;
  size_t n = sbytes < rbytes ? sbytes : rbytes;
  if (n == 0)
    return 0;
  if (sdt->contiguous) {
    transfer(recvbuf, rcount, rdt, at(sendbuf, sdt->true_lb), n, true);
  } else if (rdt->contiguous) {
    transfer(sendbuf, scount, sdt, at(recvbuf, rdt->true_lb), n, false);
  } else if (direct_ok(sdt) && direct_ok(rdt) && !touches_folded(sendbuf, scount, sdt, NULL, 0) &&
             !touches_folded(recvbuf, rcount, rdt, NULL, 0)) {
    copy_direct(sendbuf, scount, sdt, recvbuf, rcount, rdt, n);
  } else {
    char *tmp = xmalloc(n);
    transfer(sendbuf, scount, sdt, tmp, n, false);
    transfer(recvbuf, rcount, rdt, tmp, n, true);
    free(tmp);
  }
  return n;
}

static int arg_committed(MPI_Datatype h, const char *fname, smpi_dt **out)
{
  int rc = MPI_SUCCESS;
  smpi_dt *dt = arg_type(h, fname, &rc);
  if (!dt)
    return rc;
  if (!dt->committed)
    return DT_ERR(MPI_ERR_TYPE, "%s: datatype %s is not committed", fname, smpi_dt_name(dt));
  *out = dt;
  return MPI_SUCCESS;
}

int smpi_type_pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                   MPI_Aint outsize, MPI_Aint *position)
{
  smpi_dt *dt;
  int rc;
  CHECK_COUNT(incount);
  if ((rc = arg_committed(datatype, "MPI_Pack", &dt)))
    return rc;
  CHECK_OUT(position);
  if (outsize < 0 || *position < 0)
    return DT_ERR(MPI_ERR_ARG, "MPI_Pack: negative outsize (%ld) or position (%ld)",
                  (long)outsize, (long)*position);
  MPI_Count bytes = (MPI_Count)incount * dt->size;
  if (*position + bytes > outsize)
    return DT_ERR(MPI_ERR_TRUNCATE,
                  "MPI_Pack: %lld bytes at position %ld do not fit in a buffer of %ld bytes",
                  bytes, (long)*position, (long)outsize);
  if (bytes > 0 && !outbuf)
    return DT_ERR(MPI_ERR_BUFFER, "MPI_Pack: outbuf is NULL");
  if (bytes > 0)
    smpi_dt_pack(inbuf, (size_t)incount, dt, at(outbuf, *position));
  *position += (MPI_Aint)bytes;
  return MPI_SUCCESS;
}

int smpi_type_unpack(const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                     int outcount, MPI_Datatype datatype)
{
  smpi_dt *dt;
  int rc;
  CHECK_COUNT(outcount);
  if ((rc = arg_committed(datatype, "MPI_Unpack", &dt)))
    return rc;
  CHECK_OUT(position);
  if (insize < 0 || *position < 0)
    return DT_ERR(MPI_ERR_ARG, "MPI_Unpack: negative insize (%ld) or position (%ld)",
                  (long)insize, (long)*position);
  MPI_Count bytes = (MPI_Count)outcount * dt->size;
  if (*position + bytes > insize)
    return DT_ERR(MPI_ERR_TRUNCATE,
                  "MPI_Unpack: %lld bytes wanted at position %ld of a %ld-byte buffer", bytes,
                  (long)*position, (long)insize);
  if (bytes > 0 && !inbuf)
    return DT_ERR(MPI_ERR_BUFFER, "MPI_Unpack: inbuf is NULL");
  if (bytes > 0)
    smpi_dt_unpack(at(inbuf, *position), (size_t)bytes, outbuf, (size_t)outcount, dt);
  *position += (MPI_Aint)bytes;
  return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------------------------
 * basic elements
 * ------------------------------------------------------------------------------------- */

static MPI_Aint extent_of(const smpi_dt *t) { return t->ub - t->lb; }

static MPI_Count block_len(const smpi_dt *dt, MPI_Count i)
{
  return dt->blocklens ? dt->blocklens[i] : dt->blocklen;
}

/* basic elements in the first `bytes` bytes of one packed element (bytes < size), or -1
 * if they end inside a basic element */
static MPI_Count prefix_elements(const smpi_dt *dt, MPI_Count bytes)
{
  if (bytes == 0)
    return 0;
  switch (dt->shape) {
  case DT_SHAPE_BASIC:
    if (dt->nelem == 2 && bytes == (MPI_Count)dt->info->part_size)
      return 1;
    return -1;
  case DT_SHAPE_MARKER:
    return -1;
  case DT_SHAPE_HVECTOR:
  case DT_SHAPE_HINDEXED:
  case DT_SHAPE_ALIAS: {
    /* the packed stream is a sequence of inner elements */
    const smpi_dt *in = dt->inner;
    if (dt->shape == DT_SHAPE_ALIAS)
      return prefix_elements(in, bytes);
    MPI_Count k = bytes / in->size, r = bytes % in->size;
    MPI_Count p = prefix_elements(in, r);
    return p < 0 ? -1 : k * in->nelem + p;
  }
  case DT_SHAPE_STRUCT: {
    MPI_Count e = 0;
    for (MPI_Count i = 0; i < dt->count; i++) {
      const smpi_dt *t = dt->inners[i];
      MPI_Count blk = dt->blocklens[i] * t->size;
      if (blk == 0)
        continue;
      if (bytes >= blk) {
        bytes -= blk;
        e += dt->blocklens[i] * t->nelem;
        if (bytes == 0)
          return e;
        continue;
      }
      MPI_Count p = prefix_elements(t, bytes % t->size);
      return p < 0 ? -1 : e + bytes / t->size * t->nelem + p;
    }
    return -1;
  }
  }
  UNREACHABLE();
}

MPI_Count smpi_dt_elements(const smpi_dt *dt, MPI_Count bytes)
{
  if (bytes == 0)
    return 0;
  if (dt->size == 0 || bytes < 0)
    return MPI_UNDEFINED;
  MPI_Count p = prefix_elements(dt, bytes % dt->size);
  return p < 0 ? MPI_UNDEFINED : bytes / dt->size * dt->nelem + p;
}

/* packed bytes of the first `n` basic elements of one element (n < nelem) */
static MPI_Count prefix_bytes(const smpi_dt *dt, MPI_Count n)
{
  if (n == 0)
    return 0;
  switch (dt->shape) {
  case DT_SHAPE_BASIC:
    return (MPI_Count)dt->info->part_size * n; /* n == 1 of a pair or twin */
  case DT_SHAPE_MARKER:
    return 0;
  case DT_SHAPE_ALIAS:
    return prefix_bytes(dt->inner, n);
  case DT_SHAPE_HVECTOR:
  case DT_SHAPE_HINDEXED:
    return n / dt->inner->nelem * dt->inner->size + prefix_bytes(dt->inner, n % dt->inner->nelem);
  case DT_SHAPE_STRUCT: {
    MPI_Count b = 0;
    for (MPI_Count i = 0; i < dt->count && n > 0; i++) {
      const smpi_dt *t = dt->inners[i];
      MPI_Count ne = dt->blocklens[i] * t->nelem;
      if (ne == 0)
        continue;
      if (n >= ne) {
        n -= ne;
        b += dt->blocklens[i] * t->size;
        continue;
      }
      return b + n / t->nelem * t->size + prefix_bytes(t, n % t->nelem);
    }
    return b;
  }
  }
  UNREACHABLE();
}

MPI_Count smpi_dt_elements_bytes(const smpi_dt *dt, MPI_Count elements)
{
  if (dt->nelem == 0)
    return 0;
  return elements / dt->nelem * dt->size + prefix_bytes(dt, elements % dt->nelem);
}

static int walk1(const smpi_dt *dt, const char *base,
                 int (*fn)(const char *, const dt_basic_info *, void *), void *data)
{
  int rc;
  switch (dt->shape) {
  case DT_SHAPE_BASIC:
    return fn(base, dt->info, data);
  case DT_SHAPE_MARKER:
    return 0;
  case DT_SHAPE_ALIAS:
    return walk1(dt->inner, base, fn, data);
  case DT_SHAPE_HVECTOR:
  case DT_SHAPE_HINDEXED: {
    MPI_Aint ext = extent_of(dt->inner);
    for (MPI_Count i = 0; i < dt->count; i++) {
      const char *blk = at(base, dt->shape == DT_SHAPE_HVECTOR ? (MPI_Aint)i * dt->stride
                                                               : dt->disps[i]);
      for (MPI_Count j = 0; j < block_len(dt, i); j++)
        if ((rc = walk1(dt->inner, at(blk, (MPI_Aint)j * ext), fn, data)))
          return rc;
    }
    return 0;
  }
  case DT_SHAPE_STRUCT:
    for (MPI_Count i = 0; i < dt->count; i++) {
      const smpi_dt *t = dt->inners[i];
      for (MPI_Count j = 0; j < dt->blocklens[i]; j++)
        if ((rc = walk1(t, at(base, dt->disps[i] + (MPI_Aint)j * extent_of(t)), fn, data)))
          return rc;
    }
    return 0;
  }
  UNREACHABLE();
}

int smpi_dt_walk(const smpi_dt *dt, const char *buf, MPI_Count count,
                 int (*fn)(const char *elem, const dt_basic_info *info, void *data), void *data)
{
  int rc;
  for (MPI_Count e = 0; e < count; e++)
    if ((rc = walk1(dt, at(buf, (MPI_Aint)e * extent_of(dt)), fn, data)))
      return rc;
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * status counts
 * ------------------------------------------------------------------------------------- */

static int arg_status(const MPI_Status *status)
{
  if (!status || status == MPI_STATUS_IGNORE || status == MPI_STATUSES_IGNORE)
    return DT_ERR(MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
  return MPI_SUCCESS;
}

int smpi_status_get_count(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
  int rc = arg_status(status);
  if (rc)
    return rc;
  smpi_dt *dt = arg_type(datatype, "MPI_Get_count", &rc);
  if (!dt)
    return rc;
  CHECK_OUT(count);
  MPI_Count bytes = status->smpi_count;
  if (dt->size == 0)
    *count = bytes == 0 ? 0 : MPI_UNDEFINED;
  else
    *count = bytes % dt->size ? MPI_UNDEFINED : bytes / dt->size;
  return MPI_SUCCESS;
}

int smpi_status_get_elements(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
  int rc = arg_status(status);
  if (rc)
    return rc;
  smpi_dt *dt = arg_type(datatype, "MPI_Get_elements", &rc);
  if (!dt)
    return rc;
  CHECK_OUT(count);
  *count = smpi_dt_elements(dt, status->smpi_count);
  return MPI_SUCCESS;
}

int smpi_status_set_elements(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
  int rc = arg_status(status);
  if (rc)
    return rc;
  CHECK_COUNT(count);
  smpi_dt *dt = arg_type(datatype, "MPI_Status_set_elements", &rc);
  if (!dt)
    return rc;
  if (count > 0 && dt->nelem == 0)
    return DT_ERR(MPI_ERR_ARG, "MPI_Status_set_elements: %s holds no basic elements",
                  smpi_dt_name(dt));
  status->smpi_count = smpi_dt_elements_bytes(dt, count);
  return MPI_SUCCESS;
}
