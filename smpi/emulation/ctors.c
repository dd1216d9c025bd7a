/* C++ globals per rank: constructors run on each rank's privatized copy, destructors at the
 * rank's end.
 *
 * A global `std::string s(100, 'x')` is built before main, once: its heap block is pointed
 * at by the data segment, and privatization then copies that pointer into every rank's
 * globals. Rank 0 appending to s frees the block that rank 1 still uses: "double free or
 * corruption". Real ranks are processes, each running the constructors on its own globals.
 *
 *   libsmpi.so loaded      ctors_capture: the executable's writable data before its own
 *   (before the program's    constructors ran (the pristine image; pages all zero are not kept)
 *    constructors)
 *   program's constructors  run as usual; the destructors they register for objects in the
 *                           program's globals are held back (__cxa_atexit, interposed)
 *   privatization set-up    if the constructors changed the globals: the pristine image is put
 *                           back before the ranks' copies are made (smpi_ctors_prepare), and
 *                           the held-back destructors are dropped (their objects are gone)
 *   each rank starts        the program's init_array runs on the rank's own globals
 *   the rank ends           (main returns, or exit()) the destructors its constructors and
 *                           static locals registered run, last registered first
 *
 * Only registrations for objects in the program's own writable data (or its thread-local
 * block) are per rank: libstdc++'s own statics are shared by all ranks and stay with libc.
 * Nothing changes for a program whose constructors write no global (any C program: the images
 * are equal), without privatization, with one rank, or under AddressSanitizer (its module
 * constructors would register the globals twice). */
#include "smpi/emulation/ctors.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smpi/runtime/world.h"
#include "smpi/smpi.h"
#include "src/log.h"
#include "src/mem.h"

LOG_EXTERNAL_CATEGORY(smpi_runtime);
LOG_DEFAULT_CATEGORY(smpi_runtime);

typedef struct ctors_dtor {
  void (*fn)(void *);
  void *arg, *dso;
} ctors_dtor;

typedef struct ctors_list {
  ctors_dtor *v;
  size_t n, cap;
} ctors_list;

static struct ctors_state {
  bool captured;            /* the pristine image was taken */
  bool settled;             /* the simulation decided: per_rank or not */
  bool per_rank;            /* constructors run per rank, destructors at each rank's end */
  uintptr_t tls_lo, tls_hi; /* the program's thread-local block */
  smpi_priv_span *data;     /* the program's writable data */
  size_t ndata;
  /* the pristine image: pages that were not all zero, each page-aligned and inside data */
  uintptr_t *page_addr;
  unsigned char *page_data;
  size_t npages, cap_pages, page;
  ctors_list premain; /* destructors registered before the simulation started */
  ctors_list *rank;   /* per rank */
  int np;
  void (**init_start)(int, char **, char **);
  void (**init_end)(int, char **, char **);
} ctors;

static bool in_program_data(const void *p)
{
  uintptr_t a = (uintptr_t)p;
  if (a >= ctors.tls_lo && a < ctors.tls_hi)
    return true;
  for (size_t i = 0; i < ctors.ndata; i++)
    if (a - ctors.data[i].addr < ctors.data[i].len)
      return true;
  return false;
}

/* no ASan instrumentation: the data segment holds redzones between globals */
__attribute__((no_sanitize_address)) static void raw_copy(void *d, const void *s, size_t n)
{
  unsigned char *dc = d;
  const unsigned char *sc = s;
  for (size_t i = 0; i < n; i++)
    dc[i] = sc[i];
}

__attribute__((no_sanitize_address)) static bool raw_differ(const void *a, const void *b,
                                                            size_t n)
{
  const unsigned char *ac = a, *bc = b;
  for (size_t i = 0; i < n; i++)
    if (ac[i] != bc[i])
      return true;
  return false;
}

/* page [pg, pg + page) clipped to span i */
static void clip(size_t i, uintptr_t pg, uintptr_t *lo, uintptr_t *hi)
{
  uintptr_t s = ctors.data[i].addr, e = s + ctors.data[i].len;
  *lo = pg < s ? s : pg;
  *hi = pg + ctors.page > e ? e : pg + ctors.page;
}

__attribute__((constructor)) static void ctors_capture(void)
{
  smpi_priv_layout l;
  char err[256];
  if (smpi_privatize_discover(&l, err, sizeof err) != 0)
    return;
  if (l.simulator_inside) {
    smpi_privatize_layout_free(&l);
    return;
  }
  ctors.page = (size_t)sysconf(_SC_PAGESIZE);
  ctors.data = xmalloc((l.ndata ? l.ndata : 1) * sizeof *ctors.data);
  memcpy(ctors.data, l.data, l.ndata * sizeof *l.data);
  ctors.ndata = l.ndata;
  ctors.tls_lo = l.tls.addr;
  ctors.tls_hi = l.tls.addr + l.tls.len;
  smpi_privatize_layout_free(&l);
  for (size_t i = 0; i < ctors.ndata; i++) {
    uintptr_t first = ctors.data[i].addr & ~(uintptr_t)(ctors.page - 1);
    for (uintptr_t pg = first; pg < ctors.data[i].addr + ctors.data[i].len; pg += ctors.page) {
      uintptr_t lo, hi;
      clip(i, pg, &lo, &hi);
      if (smpi_privatize_all_zero((const void *)lo, (const void *)hi))
        continue;
      XGROW(ctors.page_addr, ctors.cap_pages, ctors.npages + 1);
      ctors.page_addr[ctors.npages++] = pg;
    }
  }
  ctors.page_data = xmalloc(ctors.npages ? ctors.npages * ctors.page : 1);
  for (size_t k = 0, i = 0; i < ctors.ndata; i++)
    for (; k < ctors.npages && ctors.page_addr[k] < ctors.data[i].addr + ctors.data[i].len; k++) {
      uintptr_t lo, hi;
      clip(i, ctors.page_addr[k], &lo, &hi);
      raw_copy(ctors.page_data + k * ctors.page + (lo - ctors.page_addr[k]), (const void *)lo,
               hi - lo);
    }
  ctors.captured = true;
}

/* Compares the live data with the pristine image (apply = false), or puts the image back
 * (apply = true). Returns whether they differ. */
__attribute__((no_sanitize_address)) static bool pristine_pass(bool apply)
{
  bool differ = false;
  size_t k = 0;
  for (size_t i = 0; i < ctors.ndata; i++) {
    uintptr_t first = ctors.data[i].addr & ~(uintptr_t)(ctors.page - 1);
    for (uintptr_t pg = first; pg < ctors.data[i].addr + ctors.data[i].len; pg += ctors.page) {
      uintptr_t lo, hi;
      clip(i, pg, &lo, &hi);
      while (k < ctors.npages && ctors.page_addr[k] < pg)
        k++;
      bool kept = k < ctors.npages && ctors.page_addr[k] == pg;
      if (kept) {
        const unsigned char *src = ctors.page_data + k * ctors.page + (lo - pg);
        if (raw_differ((const void *)lo, src, hi - lo)) {
          differ = true;
          if (apply)
            raw_copy((void *)lo, src, hi - lo);
        }
      } else if (!smpi_privatize_all_zero((const void *)lo, (const void *)hi)) {
        differ = true;
        if (apply)
          memset((void *)lo, 0, hi - lo);
      }
      if (differ && !apply)
        return true;
    }
  }
  return differ;
}

static int (*real_cxa_atexit)(void (*)(void *), void *, void *);
static int (*real_thread_atexit)(void (*)(void *), void *, void *);

static void list_push(ctors_list *l, void (*fn)(void *), void *arg, void *dso)
{
  XGROW(l->v, l->cap, l->n + 1);
  l->v[l->n++] = (ctors_dtor){fn, arg, dso};
}

bool smpi_ctors_prepare(const smpi_priv_layout *l)
{
  ctors.settled = true;
  if (!ctors.captured)
    return false;
  if (dlsym(RTLD_DEFAULT, "__asan_init")) {
    LOG_VERB("C++ globals: not constructed per rank under AddressSanitizer");
    return false;
  }
  if (!pristine_pass(false))
    return false;
  /* the holes in the data (libc's stdout, environ... copied into the program) keep their
   * values; those in RELRO (.got.plt) are not written anyway */
  size_t hole_bytes = 0;
  for (size_t h = 0; h < l->nholes; h++)
    hole_bytes += l->holes[h].len;
  unsigned char *keep = xmalloc(hole_bytes ? hole_bytes : 1);
  size_t off = 0;
  for (size_t h = 0; h < l->nholes; off += l->holes[h++].len)
    if (in_program_data((const void *)l->holes[h].addr))
      raw_copy(keep + off, (const void *)l->holes[h].addr, l->holes[h].len);
  pristine_pass(true);
  off = 0;
  for (size_t h = 0; h < l->nholes; off += l->holes[h++].len)
    if (in_program_data((const void *)l->holes[h].addr))
      raw_copy((void *)l->holes[h].addr, keep + off, l->holes[h].len);
  free(keep);
  ctors.per_rank = true;
  ctors.np = smpi_w.np;
  ctors.rank = xcalloc((size_t)ctors.np, sizeof *ctors.rank);
  /* the objects built before main are gone: so are their destructors */
  ctors.premain.n = 0;
  LOG_VERB("C++ globals: the program's constructors run once per rank");
  return true;
}

void smpi_ctors_settle(void)
{
  ctors.settled = true;
  if (ctors.per_rank)
    return;
  /* not per rank: the destructors held back go to libc, in their order */
  for (size_t i = 0; i < ctors.premain.n; i++)
    if (real_cxa_atexit)
      real_cxa_atexit(ctors.premain.v[i].fn, ctors.premain.v[i].arg, ctors.premain.v[i].dso);
  ctors.premain.n = 0;
}

SMPI_PUBLIC void smpi_ctors_set_init_array(void (**start)(int, char **, char **),
                                           void (**end)(int, char **, char **));
void smpi_ctors_set_init_array(void (**start)(int, char **, char **),
                               void (**end)(int, char **, char **))
{
  ctors.init_start = start;
  ctors.init_end = end;
}

void smpi_ctors_rank_begin(int argc, char **argv)
{
  if (!ctors.per_rank || !ctors.init_start)
    return;
  extern char **environ;
  for (void (**f)(int, char **, char **) = ctors.init_start; f < ctors.init_end; f++)
    (*f)(argc, argv, environ);
}

void smpi_ctors_rank_end(int rank)
{
  if (!ctors.per_rank || rank < 0 || rank >= ctors.np)
    return;
  ctors_list *l = &ctors.rank[rank];
  while (l->n > 0) {
    ctors_dtor d = l->v[--l->n]; /* a destructor may register another */
    d.fn(d.arg);
  }
}

SMPI_PUBLIC int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
SMPI_PUBLIC int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
  if (!real_cxa_atexit)
    *(void **)&real_cxa_atexit = dlsym(RTLD_NEXT, "__cxa_atexit");
  smpi_rank *me = smpi_self();
  if (!ctors.settled && ctors.captured && in_program_data(arg)) {
    list_push(&ctors.premain, fn, arg, dso); /* decided at set-up */
    return 0;
  }
  if (ctors.per_rank && me && in_program_data(arg)) {
    list_push(&ctors.rank[me->rank], fn, arg, dso);
    return 0;
  }
  return real_cxa_atexit(fn, arg, dso);
}

int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso)
{
  if (!real_thread_atexit)
    *(void **)&real_thread_atexit = dlsym(RTLD_NEXT, "__cxa_thread_atexit_impl");
  smpi_rank *me = smpi_self();
  if (ctors.per_rank && me && in_program_data(obj)) {
    list_push(&ctors.rank[me->rank], fn, obj, dso);
    return 0;
  }
  return real_thread_atexit(fn, obj, dso);
}
