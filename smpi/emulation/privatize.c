/* Privatization of the program's global variables, and errno, per rank.
 *
 * All ranks run in one process, one at a time, on one OS thread. The program's globals live
 * in the executable's writable segment (the simulator's own state is in libsmpi.so, another
 * object). Only one rank runs at a time, so one copy in place suffices, swapped at each switch
 * (kernel/engine.h: eng_on_switch) to the rank about to run:
 *
 *   executable's writable segment, after RELRO (found with dl_iterate_phdr):
 *
 *     | .got.plt | .data ............ | .bss ....... [stdout] ....... [environ] ... |
 *       hole                                         hole (R_X86_64_COPY)  hole
 *
 *   holes stay shared by all ranks: the copy relocations are libc's own variables (stdout,
 *   environ, optind...) placed in the executable by the linker; privatizing them would give
 *   libc a different stdout depending on which rank runs. .got.plt is resolved the same for
 *   everybody, once.
 *
 *   copy mode (small data; the usual case):      remap mode (large data):
 *     switch A -> B:                               memfd = [rank 0 | rank 1 | ... | rank np-1]
 *       segment bytes   -> store[A]  (memcpy)      switch A -> B:
 *       store[B]        -> segment   (memcpy)        save holes; mmap(segment pages,
 *     mappings: the stores (one region)                MAP_SHARED|MAP_FIXED, memfd,
 *                                                      B * stride); restore holes
 *                                                    mappings: the window and one view of
 *                                                    the memfd (to reach other ranks' copies)
 *
 * Neither mechanism keeps a mapping per rank (SimGrid's dlopen of one copy of the program per
 * rank costs several, so vm.max_map_count stops it near 6 500 ranks). A rank's copy is made the
 * first time it runs, from the snapshot taken at set-up, so start-up costs O(1) per rank; in
 * remap mode only the non-zero pages of the snapshot are written into a rank's copy, so an
 * untouched .bss costs nothing per rank. Switching to the rank whose data is in place costs
 * nothing; switching to the maestro leaves the data in place (the simulator does not use it).
 *
 * The executable's thread-local variables (its PT_TLS block, in the main thread's TLS) are
 * copied in and out the same way; errno (libc's, per thread) and getopt's optind, optarg,
 * opterr and optopt (libc's, per process: copy relocations, the holes above) are saved and
 * restored, so that every rank parses its own argv. Other libc state (stdio buffers, environ,
 * rand(), strtok) stays shared, as in SimGrid (docs/porting.md says why, for each). */
#include "smpi/emulation/privatize.h"

#include "smpi/emulation/ctors.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#if defined(__SANITIZE_ADDRESS__)
#define PRIV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRIV_ASAN 1
#endif
#endif

/* Copies of the program's data segment as whole ranges: the segment's globals sit between
 * AddressSanitizer's redzones when the program is built with -fsanitize=address, and the
 * intercepted memcpy reports a range that crosses them as a global-buffer-overflow although
 * every byte belongs to the segment. Under ASan these copies go to libc's memcpy, found past
 * the interceptor; the shadow memory needs nothing, since every rank's copy has the same
 * layout. */
static void seg_copy(void *dst, const void *src, size_t n)
{
#ifdef PRIV_ASAN
  static void *(*raw)(void *, const void *, size_t);
  if (!raw) {
    raw = (void *(*)(void *, const void *, size_t))dlsym(RTLD_NEXT, "memcpy");
    ASSERT(raw);
  }
  raw(dst, src, n);
#else
  memcpy(dst, src, n);
#endif
}

LOG_NEW_SUBCATEGORY(smpi_privatize, smpi, "privatization of the program's global variables");
LOG_DEFAULT_CATEGORY(smpi_privatize);

#if defined(__x86_64__)
#define PRIV_R_COPY R_X86_64_COPY
#elif defined(__aarch64__)
#define PRIV_R_COPY R_AARCH64_COPY
#endif

/* A privatized piece: addr/len in the program, off in a rank's store. */
typedef struct priv_seg {
  uintptr_t addr;
  size_t len;
  size_t off;
} priv_seg;

static struct privatize_state {
  bool ready;
  smpi_priv_mode mode;
  int np;
  int live;    /* rank whose data is in place; -1: the initial data */
  int running; /* rank running now, -1: the maestro (for the libc state) */
  /* per rank, and the maestro's: libc's per-process variables, swapped at each switch */
  struct priv_libc {
    int err;                    /* errno */
    int optind, opterr, optopt; /* getopt's, as a new process starts them: 1, 1, '?' */
    char *optarg;
  } * libc, maestro_libc;
  unsigned char *fresh; /* per rank: its copy has not been made yet */
  size_t page;
  /* copied pieces (copy mode: the data minus holes; both modes: the TLS block) */
  priv_seg *copy;
  size_t ncopy, copy_stride;
  unsigned char *copy_store; /* np * copy_stride */
  size_t copy_store_len;
  unsigned char *copy_init;
  /* remapped windows (remap mode) */
  priv_seg *remap;
  size_t nremap, remap_stride;
  int fd;
  unsigned char *view; /* the whole memfd, once */
  size_t view_len;
  size_t *init_pages; /* offsets (in a rank's stride) of the snapshot's non-zero pages */
  size_t ninit;
  unsigned char *init_data;
  priv_seg *carry; /* holes inside the windows, carried across each remap */
  size_t ncarry, carry_len;
  unsigned char *carry_buf;
  size_t private_bytes, hole_bytes;
  unsigned long swaps;
} priv = {.live = -1, .running = -1, .fd = -1};

static const cfg_key privatize_keys[] = {
    CFG_KEY_STRING("smpi/privatization", "yes", "no|yes|copy|mmap|dlopen",
                   "Give each rank its own copy of the program's global variables: yes (copy "
                   "small data segments at each switch, remap large ones), copy, mmap, no; "
                   "dlopen is accepted for SimGrid command lines and means yes"),
    CFG_KEY_UINT("smpi/privatization-copy-max", 65536,
                 "With smpi/privatization:yes, writable globals of at most this many bytes are "
                 "copied in and out at each context switch; larger ones are remapped (one mmap "
                 "per switch)"),
    CFG_KEY_STRING("smpi/privatize-libs", "", NULL,
                   "Shared libraries whose globals each rank gets its own copy of, like the "
                   "program's (names or paths separated by ';', e.g. libfoo.so;libbar.so.2); "
                   "never libc or libsmpi"),
};

void smpi_privatize_declare_config(void)
{
  cfg_declare_keys(privatize_keys, CFG_NKEYS(privatize_keys));
}

static size_t page_up(size_t x) { return (x + priv.page - 1) & ~(priv.page - 1); }
static size_t page_down(size_t x) { return x & ~(priv.page - 1); }

static int cmp_span(const void *a, const void *b)
{
  const smpi_priv_span *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static smpi_priv_span *sorted_spans(const smpi_priv_span *s, size_t n)
{
  smpi_priv_span *c = xmalloc((n ? n : 1) * sizeof *c);
  if (n)
    memcpy(c, s, n * sizeof *c);
  qsort(c, n, sizeof *c, cmp_span);
  return c;
}

static void push_seg(priv_seg **v, size_t *n, size_t *cap, uintptr_t addr, size_t len)
{
  XGROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = (priv_seg){addr, len, 0};
}

/* data minus holes (both sorted) */
static void subtract_holes(const smpi_priv_span *data, size_t ndata, const smpi_priv_span *holes,
                           size_t nholes, priv_seg **out, size_t *nout, size_t *cap)
{
  for (size_t i = 0; i < ndata; i++) {
    uintptr_t cur = data[i].addr, end = data[i].addr + data[i].len;
    for (size_t h = 0; h < nholes && cur < end; h++) {
      uintptr_t hs = holes[h].addr, he = holes[h].addr + holes[h].len;
      if (he <= cur || hs >= end)
        continue;
      if (hs > cur)
        push_seg(out, nout, cap, cur, hs - cur);
      if (he > cur)
        cur = he;
    }
    if (cur < end)
      push_seg(out, nout, cap, cur, end - cur);
  }
}

/* ---- the switch ---- */

static void make_copy(int r)
{
  priv.fresh[r] = 0;
  if (priv.ncopy)
    memcpy(priv.copy_store + (size_t)r * priv.copy_stride, priv.copy_init, priv.copy_stride);
  for (size_t k = 0; k < priv.ninit; k++)
    memcpy(priv.view + (size_t)r * priv.remap_stride + priv.init_pages[k],
           priv.init_data + k * priv.page, priv.page);
}

static _Noreturn void remap_failed(int e, int rank)
{
  LOG_CRITICAL("privatization: cannot map the globals of rank %d in place: %s%s; the "
               "simulation cannot go on (try --cfg=smpi/privatization:no, or raise "
               "vm.max_map_count)",
               rank, strerror(e),
               e == ENOMEM ? " (vm.max_map_count reached, or out of memory)" : "");
  smpi_abort_job(1);
}

static void swap_to(int to)
{
  if (priv.fresh[to])
    make_copy(to);
  if (priv.ncopy) {
    if (priv.live >= 0) {
      unsigned char *st = priv.copy_store + (size_t)priv.live * priv.copy_stride;
      for (size_t i = 0; i < priv.ncopy; i++)
        seg_copy(st + priv.copy[i].off, (const void *)priv.copy[i].addr, priv.copy[i].len);
    }
    const unsigned char *st = priv.copy_store + (size_t)to * priv.copy_stride;
    for (size_t i = 0; i < priv.ncopy; i++)
      seg_copy((void *)priv.copy[i].addr, st + priv.copy[i].off, priv.copy[i].len);
  }
  if (priv.nremap) {
    for (size_t i = 0; i < priv.ncarry; i++)
      seg_copy(priv.carry_buf + priv.carry[i].off, (const void *)priv.carry[i].addr,
               priv.carry[i].len);
    for (size_t i = 0; i < priv.nremap; i++) {
      off_t off = (off_t)((size_t)to * priv.remap_stride + priv.remap[i].off);
      if (mmap((void *)priv.remap[i].addr, priv.remap[i].len, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED, priv.fd, off) == MAP_FAILED)
        remap_failed(errno, to);
    }
    for (size_t i = 0; i < priv.ncarry; i++)
      seg_copy((void *)priv.carry[i].addr, priv.carry_buf + priv.carry[i].off, priv.carry[i].len);
  }
  priv.live = to;
  priv.swaps++;
}

void smpi_privatize_switch_to(int rank)
{
  if (!priv.ready)
    return;
  int *e = &errno; /* one call to find it: this runs at every switch */
  struct priv_libc *out = priv.running >= 0 ? &priv.libc[priv.running] : &priv.maestro_libc;
  *out = (struct priv_libc){*e, optind, opterr, optopt, optarg};
  ASSERTF(rank < priv.np, "switch to rank %d of %d", rank, priv.np);
  priv.running = rank;
  if (rank >= 0 && rank != priv.live && priv.mode != SMPI_PRIV_OFF)
    swap_to(rank);
  const struct priv_libc *in = rank >= 0 ? &priv.libc[rank] : &priv.maestro_libc;
  *e = in->err;
  optind = in->optind;
  opterr = in->opterr;
  optopt = in->optopt;
  optarg = in->optarg;
}

void smpi_privatize_on_switch(eng_actor *to)
{
  int r = -1;
  if (to) {
    /* a rank's actor carries its smpi_rank; any other actor is treated like the maestro */
    uintptr_t d = (uintptr_t)eng_actor_data(to), lo = (uintptr_t)smpi_w.ranks;
    if (smpi_w.ranks && d >= lo && d < lo + (size_t)smpi_w.np * sizeof *smpi_w.ranks)
      r = ((const smpi_rank *)d)->rank;
  }
  smpi_privatize_switch_to(r);
}

void *smpi_privatize_translate(int rank, const void *addr)
{
  if (!priv.ready || priv.mode == SMPI_PRIV_OFF || rank < 0 || rank >= priv.np ||
      rank == priv.live)
    return (void *)addr;
  uintptr_t a = (uintptr_t)addr;
  for (size_t i = 0; i < priv.ncopy; i++)
    if (a - priv.copy[i].addr < priv.copy[i].len) {
      if (priv.fresh[rank])
        make_copy(rank);
      return priv.copy_store + (size_t)rank * priv.copy_stride + priv.copy[i].off +
             (a - priv.copy[i].addr);
    }
  for (size_t i = 0; i < priv.ncarry; i++)
    if (a - priv.carry[i].addr < priv.carry[i].len)
      return (void *)addr; /* shared */
  for (size_t i = 0; i < priv.nremap; i++)
    if (a - priv.remap[i].addr < priv.remap[i].len) {
      if (priv.fresh[rank])
        make_copy(rank);
      return priv.view + (size_t)rank * priv.remap_stride + priv.remap[i].off +
             (a - priv.remap[i].addr);
    }
  return (void *)addr;
}

/* ---- set-up ---- */

/* Reads the data segment whole, ASan's redzones between globals included: not instrumented
 * (see seg_copy). Bytes up to 8-alignment, then words, then the tail. */
__attribute__((no_sanitize_address)) bool smpi_privatize_all_zero(const void *lo, const void *hi)
{
  const unsigned char *c = lo, *end = hi;
  while (c < end && ((uintptr_t)c & 7))
    if (*c++)
      return false;
  for (; end - c >= 8; c += 8)
    if (*(const uint64_t *)(const void *)c)
      return false;
  while (c < end)
    if (*c++)
      return false;
  return true;
}

static int setup_copy(priv_seg *segs, size_t nsegs, char *err, size_t errlen)
{
  size_t stride = 0;
  for (size_t i = 0; i < nsegs; i++) {
    stride = (stride + 15) & ~(size_t)15; /* keep each piece's copy aligned like memcpy likes */
    segs[i].off = stride;
    stride += segs[i].len;
  }
  priv.copy = segs;
  priv.ncopy = nsegs;
  priv.copy_stride = stride;
  if (!nsegs)
    return 0;
  priv.copy_store_len = (size_t)priv.np * stride;
  priv.copy_store = mmap(NULL, priv.copy_store_len, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (priv.copy_store == MAP_FAILED) {
    priv.copy_store = NULL;
    snprintf(err, errlen,
             "privatization: cannot reserve %zu bytes for the private globals of %d ranks: %s "
             "(run fewer ranks, or --cfg=smpi/privatization:no if the program has no global "
             "state)",
             priv.copy_store_len, priv.np, strerror(errno));
    return -1;
  }
  priv.copy_init = xmalloc(stride);
  for (size_t i = 0; i < nsegs; i++)
    seg_copy(priv.copy_init + segs[i].off, (const void *)segs[i].addr, segs[i].len);
  return 0;
}

static int setup_remap(const smpi_priv_span *data, size_t ndata, const smpi_priv_span *holes,
                       size_t nholes, char *err, size_t errlen)
{
  /* page windows over the data, adjacent ones merged so that a switch costs one mmap each */
  size_t cap = 0;
  for (size_t i = 0; i < ndata; i++) {
    uintptr_t s = page_down(data[i].addr), e = page_up(data[i].addr + data[i].len);
    if (priv.nremap && s <= priv.remap[priv.nremap - 1].addr + priv.remap[priv.nremap - 1].len) {
      priv_seg *w = &priv.remap[priv.nremap - 1];
      if (e > w->addr + w->len)
        w->len = e - w->addr;
    } else {
      push_seg(&priv.remap, &priv.nremap, &cap, s, e - s);
    }
  }
  for (size_t i = 0; i < priv.nremap; i++) {
    priv.remap[i].off = priv.remap_stride;
    priv.remap_stride += priv.remap[i].len;
  }
  /* the holes, carried from the outgoing window to the incoming one */
  cap = 0;
  for (size_t h = 0; h < nholes; h++) {
    for (size_t i = 0; i < priv.nremap; i++) {
      uintptr_t s = holes[h].addr, e = holes[h].addr + holes[h].len;
      uintptr_t ws = priv.remap[i].addr, we = ws + priv.remap[i].len;
      if (s < ws)
        s = ws;
      if (e > we)
        e = we;
      if (s < e) {
        push_seg(&priv.carry, &priv.ncarry, &cap, s, e - s);
        priv.carry[priv.ncarry - 1].off = priv.carry_len;
        priv.carry_len += e - s;
      }
    }
  }
  priv.carry_buf = xmalloc(priv.carry_len ? priv.carry_len : 1);

  if (priv.remap_stride && (size_t)priv.np > (((size_t)1 << 46) / priv.remap_stride)) {
    snprintf(err, errlen,
             "privatization: %d copies of %zu bytes of globals exceed the address space; run "
             "fewer ranks or make the big arrays dynamic (malloc, or SMPI_SHARED_MALLOC)",
             priv.np, priv.remap_stride);
    return -1;
  }
  priv.view_len = (size_t)priv.np * priv.remap_stride;
  priv.fd = memfd_create("smpi-privatize", MFD_CLOEXEC);
  if (priv.fd < 0) {
    int e = errno;
    snprintf(err, errlen,
             "privatization: cannot create the memory file holding the ranks' "
             "globals: %s%s",
             strerror(e),
             e == EMFILE || e == ENFILE ? " (too many open files: raise the limit, e.g. ulimit "
                                          "-n 65536)"
                                        : " (or use --cfg=smpi/privatization:copy)");
    return -1;
  }
  if (ftruncate(priv.fd, (off_t)priv.view_len) != 0) {
    snprintf(err, errlen,
             "privatization: cannot size the memory file holding %d copies of %zu "
             "bytes of globals: %s",
             priv.np, priv.remap_stride, strerror(errno));
    return -1;
  }
  priv.view = mmap(NULL, priv.view_len, PROT_READ | PROT_WRITE, MAP_SHARED, priv.fd, 0);
  if (priv.view == MAP_FAILED) {
    priv.view = NULL;
    snprintf(err, errlen, "privatization: cannot map the ranks' globals (%zu bytes): %s%s",
             priv.view_len, strerror(errno),
             errno == ENOMEM ? " (out of address space or vm.max_map_count reached: sysctl -w "
                               "vm.max_map_count=262144)"
                             : "");
    return -1;
  }
  /* snapshot of the non-zero pages: a fresh memfd reads as zeros already */
  size_t icap = 0;
  for (size_t i = 0; i < priv.nremap; i++)
    for (size_t o = 0; o < priv.remap[i].len; o += priv.page) {
      const unsigned char *pg = (const unsigned char *)priv.remap[i].addr + o;
      if (smpi_privatize_all_zero(pg, pg + priv.page))
        continue;
      XGROW(priv.init_pages, icap, priv.ninit + 1);
      priv.init_pages[priv.ninit++] = priv.remap[i].off + o;
    }
  priv.init_data = xmalloc(priv.ninit ? priv.ninit * priv.page : 1);
  for (size_t k = 0, i = 0; i < priv.nremap; i++)
    for (size_t o = 0; o < priv.remap[i].len && k < priv.ninit; o += priv.page)
      if (priv.init_pages[k] == priv.remap[i].off + o)
        seg_copy(priv.init_data + priv.page * k++, (const void *)(priv.remap[i].addr + o),
                 priv.page);
  return 0;
}

int smpi_privatize_setup(const smpi_priv_layout *l, int np, smpi_priv_mode mode, size_t copy_max,
                         char *err, size_t errlen)
{
  smpi_privatize_teardown();
  ASSERT(np >= 0);
  priv.page = (size_t)sysconf(_SC_PAGESIZE);
  priv.np = np;
  priv.libc = xcalloc(np > 0 ? (size_t)np : 1, sizeof *priv.libc);
  for (int r = 0; r < np; r++)
    priv.libc[r] = (struct priv_libc){0, 1, 1, '?', NULL};
  priv.mode = SMPI_PRIV_OFF;
  priv.ready = true;
  if (!l || mode == SMPI_PRIV_OFF || np == 0)
    return 0;

  smpi_priv_span *data = sorted_spans(l->data, l->ndata);
  smpi_priv_span *holes = sorted_spans(l->holes, l->nholes);
  priv_seg *segs = NULL;
  size_t nsegs = 0, cap = 0;
  subtract_holes(data, l->ndata, holes, l->nholes, &segs, &nsegs, &cap);
  size_t bytes = 0, total = 0;
  for (size_t i = 0; i < nsegs; i++)
    bytes += segs[i].len;
  for (size_t i = 0; i < l->ndata; i++)
    total += data[i].len;
  priv.hole_bytes = total - bytes;
  priv.private_bytes = bytes + l->tls.len;
  if (priv.private_bytes == 0) {
    free(segs);
    free(data);
    free(holes);
    return 0;
  }
  if (mode == SMPI_PRIV_AUTO)
    mode = bytes <= copy_max ? SMPI_PRIV_COPY : SMPI_PRIV_REMAP;
  if (bytes == 0)
    mode = SMPI_PRIV_COPY;
  priv.fresh = xmalloc((size_t)np);
  memset(priv.fresh, 1, (size_t)np);

  int rc;
  if (mode == SMPI_PRIV_REMAP) {
    /* only the TLS block is copied */
    free(segs);
    segs = NULL;
    nsegs = cap = 0;
    rc = setup_remap(data, l->ndata, holes, l->nholes, err, errlen);
  } else {
    rc = 0;
  }
  if (rc == 0) {
    if (l->tls.len)
      push_seg(&segs, &nsegs, &cap, l->tls.addr, l->tls.len);
    rc = setup_copy(segs, nsegs, err, errlen);
  } else {
    free(segs);
  }
  free(data);
  free(holes);
  if (rc != 0) {
    smpi_privatize_teardown();
    return -1;
  }
  priv.mode = mode;
  return 0;
}

void smpi_privatize_teardown(void)
{
  if (!priv.ready)
    return;
  if (priv.nremap && priv.live >= 0) {
    /* back to ordinary private memory holding the data in place */
    for (size_t i = 0; i < priv.nremap; i++) {
      void *w = (void *)priv.remap[i].addr;
      unsigned char *keep = xmalloc(priv.remap[i].len);
      seg_copy(keep, w, priv.remap[i].len);
      if (mmap(w, priv.remap[i].len, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        DIE("cannot turn the privatized globals back into private memory: %s", strerror(errno));
      seg_copy(w, keep, priv.remap[i].len);
      free(keep);
    }
  }
  if (priv.view)
    munmap(priv.view, priv.view_len);
  if (priv.fd >= 0)
    close(priv.fd);
  if (priv.copy_store)
    munmap(priv.copy_store, priv.copy_store_len);
  free(priv.copy);
  free(priv.copy_init);
  free(priv.remap);
  free(priv.init_pages);
  free(priv.init_data);
  free(priv.carry);
  free(priv.carry_buf);
  free(priv.fresh);
  free(priv.libc);
  memset(&priv, 0, sizeof priv);
  priv.live = priv.running = priv.fd = -1;
}

void smpi_privatize_get_stats(smpi_priv_stats *out)
{
  memset(out, 0, sizeof *out);
  out->mode = priv.mode;
  out->private_bytes = priv.private_bytes;
  size_t c = 0;
  for (size_t i = 0; i < priv.ncopy; i++)
    c += priv.copy[i].len;
  out->copied_bytes = c;
  out->remapped_bytes = priv.remap_stride;
  out->hole_bytes = priv.hole_bytes;
  out->mappings = (priv.copy_store ? 1 : 0) + (priv.view ? 1 : 0) + priv.nremap;
  out->swaps = priv.swaps;
}

/* ---- what to privatize: the main executable ---- */

typedef struct exe_info {
  bool found;
  uintptr_t bias;
  const ElfW(Phdr) * phdr;
  size_t phnum;
  void *tls_data;
} exe_info;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
  exe_info *x = data;
  x->found = true;
  x->bias = info->dlpi_addr;
  x->phdr = info->dlpi_phdr;
  x->phnum = info->dlpi_phnum;
  x->tls_data = size >= offsetof(struct dl_phdr_info, dlpi_tls_data) + sizeof info->dlpi_tls_data
                    ? info->dlpi_tls_data
                    : NULL;
  return 1; /* the main program comes first: stop there */
}

static void push_span(smpi_priv_span **v, size_t *n, size_t *cap, uintptr_t addr, size_t len)
{
  if (!len)
    return;
  XGROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = (smpi_priv_span){addr, len};
}

/* The libraries of smpi/privatize-libs, once found: a copy relocation of one of their
 * variables (the program reads `extern int counter;` of libfoo.so: the linker moved counter
 * into the program's .bss) is privatized with the program's data, not left shared. */
#define PRIV_LIBS_MAX 32
static struct priv_libs {
  int n;
  void *handle[PRIV_LIBS_MAX];
  uintptr_t base[PRIV_LIBS_MAX];
} privlibs;

static bool copy_of_private_lib(const char *name)
{
  for (int i = 0; i < privlibs.n; i++) {
    void *a = dlsym(privlibs.handle[i], name);
    Dl_info di;
    if (a && dladdr(a, &di) && (uintptr_t)di.dli_fbase == privlibs.base[i])
      return true;
  }
  return false;
}

/* The dynamic section's holes: copy relocations and .got.plt. */
static void dynamic_holes(const exe_info *x, const ElfW(Dyn) * dyn, smpi_priv_layout *out,
                          size_t *cap)
{
  uintptr_t rela = 0, symtab = 0, pltgot = 0, strtab = 0;
  size_t relasz = 0, relaent = sizeof(ElfW(Rela)), syment = sizeof(ElfW(Sym)), pltrelsz = 0;
  long pltrel = DT_RELA;
  /* ld.so may have relocated these addresses in place, or not: a link-time address of a
   * position-independent executable is below its load address */
#define PRIV_FIX(v) ((uintptr_t)(v) < x->bias ? (uintptr_t)(v) + x->bias : (uintptr_t)(v))
  for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
    switch (d->d_tag) {
    case DT_RELA:
      rela = PRIV_FIX(d->d_un.d_ptr);
      break;
    case DT_RELASZ:
      relasz = d->d_un.d_val;
      break;
    case DT_RELAENT:
      relaent = d->d_un.d_val;
      break;
    case DT_SYMTAB:
      symtab = PRIV_FIX(d->d_un.d_ptr);
      break;
    case DT_STRTAB:
      strtab = PRIV_FIX(d->d_un.d_ptr);
      break;
    case DT_SYMENT:
      syment = d->d_un.d_val;
      break;
    case DT_PLTGOT:
      pltgot = PRIV_FIX(d->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      pltrelsz = d->d_un.d_val;
      break;
    case DT_PLTREL:
      pltrel = (long)d->d_un.d_val;
      break;
    default:
      break;
    }
  }
#undef PRIV_FIX
#ifdef PRIV_R_COPY
  if (rela && symtab && relaent)
    for (size_t i = 0; i < relasz / relaent; i++) {
      const ElfW(Rela) *r = (const ElfW(Rela) *)(rela + i * relaent);
      if (ELF64_R_TYPE(r->r_info) != PRIV_R_COPY)
        continue;
      const ElfW(Sym) *s = (const ElfW(Sym) *)(symtab + ELF64_R_SYM(r->r_info) * syment);
      if (privlibs.n && strtab && copy_of_private_lib((const char *)strtab + s->st_name))
        continue;
      push_span(&out->holes, &out->nholes, cap, x->bias + r->r_offset, s->st_size);
    }
#else
  (void)rela;
  (void)symtab;
  (void)relasz;
  (void)relaent;
  (void)syment;
  (void)strtab;
  LOG_WARN("privatization: copy relocations are not detected on this architecture; libc "
           "variables such as stdout may be privatized by mistake");
#endif
  if (pltgot) {
    size_t entsz = pltrel == DT_RELA ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
    push_span(&out->holes, &out->nholes, cap, pltgot, (3 + pltrelsz / entsz) * sizeof(void *));
  }
}

int smpi_privatize_discover(smpi_priv_layout *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  exe_info x = {0};
  dl_iterate_phdr(first_object, &x);
  if (!x.found) {
    snprintf(err, errlen, "privatization: cannot find the program's program headers");
    return -1;
  }
  uintptr_t relro_s = 0, relro_e = 0;
  const ElfW(Dyn) *dyn = NULL;
  size_t tls_len = 0;
  for (size_t i = 0; i < x.phnum; i++) {
    const ElfW(Phdr) *ph = &x.phdr[i];
    if (ph->p_type == PT_GNU_RELRO) {
      relro_s = x.bias + ph->p_vaddr;
      relro_e = relro_s + ph->p_memsz;
    } else if (ph->p_type == PT_DYNAMIC) {
      dyn = (const ElfW(Dyn) *)(x.bias + ph->p_vaddr);
    } else if (ph->p_type == PT_TLS) {
      tls_len = ph->p_memsz;
    }
  }
  size_t dcap = 0, hcap = 0;
  for (size_t i = 0; i < x.phnum; i++) {
    const ElfW(Phdr) *ph = &x.phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
      continue;
    uintptr_t s = x.bias + ph->p_vaddr, e = s + ph->p_memsz;
    /* RELRO is read-only once relocated: what is writable is around it */
    if (relro_e > s && relro_s < e) {
      push_span(&out->data, &out->ndata, &dcap, s, relro_s > s ? relro_s - s : 0);
      s = relro_e;
    }
    if (s < e)
      push_span(&out->data, &out->ndata, &dcap, s, e - s);
  }
  if (dyn)
    dynamic_holes(&x, dyn, out, &hcap);
  if (tls_len && x.tls_data)
    out->tls = (smpi_priv_span){(uintptr_t)x.tls_data, tls_len};
  uintptr_t self = (uintptr_t)&priv;
  for (size_t i = 0; i < out->ndata; i++)
    if (self - out->data[i].addr < out->data[i].len)
      out->simulator_inside = true;
  return 0;
}

/* smpi/privatize-libs: a loaded library whose file name is the one asked, or starts with it
 * followed by '.' (libfoo.so finds libfoo.so.1), or whose path is the one asked. */
typedef struct lib_find {
  const char *want;
  smpi_priv_layout *out;
  size_t *dcap, *hcap;
  const char *found; /* its path */
  uintptr_t base;    /* its load address */
  bool simulator;    /* the library holds this module: libsmpi */
} lib_find;

static bool lib_matches(const char *path, const char *want)
{
  if (!path || !*path)
    return false;
  if (strchr(want, '/'))
    return strcmp(path, want) == 0;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(want);
  return strncmp(base, want, n) == 0 && (base[n] == 0 || base[n] == '.');
}

static int one_lib(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  lib_find *f = data;
  if (!lib_matches(info->dlpi_name, f->want))
    return 0;
  f->found = info->dlpi_name;
  f->base = info->dlpi_addr;
  exe_info x = {.found = true,
                .bias = info->dlpi_addr,
                .phdr = info->dlpi_phdr,
                .phnum = info->dlpi_phnum};
  uintptr_t relro_s = 0, relro_e = 0;
  const ElfW(Dyn) *dyn = NULL;
  for (size_t i = 0; i < x.phnum; i++) {
    if (x.phdr[i].p_type == PT_GNU_RELRO) {
      relro_s = x.bias + x.phdr[i].p_vaddr;
      relro_e = relro_s + x.phdr[i].p_memsz;
    } else if (x.phdr[i].p_type == PT_DYNAMIC) {
      dyn = (const ElfW(Dyn) *)(x.bias + x.phdr[i].p_vaddr);
    }
  }
  uintptr_t self = (uintptr_t)&priv;
  for (size_t i = 0; i < x.phnum; i++) {
    const ElfW(Phdr) *ph = &x.phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
      continue;
    uintptr_t s = x.bias + ph->p_vaddr, e = s + ph->p_memsz;
    if (self >= s && self < e)
      f->simulator = true;
    if (relro_e > s && relro_s < e) {
      push_span(&f->out->data, &f->out->ndata, f->dcap, s, relro_s > s ? relro_s - s : 0);
      s = relro_e;
    }
    if (s < e)
      push_span(&f->out->data, &f->out->ndata, f->dcap, s, e - s);
  }
  /* its .got.plt (lazy binding) stays shared, as the executable's */
  if (dyn)
    dynamic_holes(&x, dyn, f->out, f->hcap);
  return 1;
}

/* libc's state is the process's (stdio, malloc's arenas, the dynamic linker's lists): one
 * copy per rank would hand each rank half-updated lists of the others */
static const char *const never_private[] = {"libc.so",      "ld-linux",   "libpthread.so",
                                            "libdl.so",     "libm.so",    "libsmpi",
                                            "libstdc++.so", "libgcc_s.so"};

int smpi_privatize_add_libs(smpi_priv_layout *l, const char *list, char *err, size_t errlen)
{
  char *copy = xstrdup(list), *save = NULL;
  size_t dcap = l->ndata, hcap = l->nholes;
  int rc = 0;
  for (char *w = strtok_r(copy, ";", &save); w && rc == 0; w = strtok_r(NULL, ";", &save)) {
    while (*w == ' ')
      w++;
    if (!*w)
      continue;
    const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
    for (size_t i = 0; i < sizeof never_private / sizeof *never_private; i++)
      if (!strncmp(base, never_private[i], strlen(never_private[i]))) {
        snprintf(err, errlen,
                 "smpi/privatize-libs: %s must never be privatized: its state is the "
                 "process's (libc, the dynamic linker, the C++ runtime) or the simulator's "
                 "(libsmpi); list only the program's own libraries",
                 w);
        rc = -1;
      }
    if (rc)
      break;
    lib_find f = {.want = w, .out = l, .dcap = &dcap, .hcap = &hcap};
    dl_iterate_phdr(one_lib, &f);
    if (f.found && !f.simulator && privlibs.n < PRIV_LIBS_MAX) {
      void *h = dlopen(f.found, RTLD_LAZY | RTLD_NOLOAD);
      if (h) {
        privlibs.handle[privlibs.n] = h;
        privlibs.base[privlibs.n++] = f.base;
      }
    }
    if (!f.found) {
      snprintf(err, errlen,
               "smpi/privatize-libs: %s is not among the libraries the program loaded at "
               "start-up (a library opened later with dlopen cannot be privatized; check the "
               "name with ldd)",
               w);
      rc = -1;
    } else if (f.simulator) {
      snprintf(err, errlen, "smpi/privatize-libs: %s (%s) holds the simulator itself", w,
               f.found);
      rc = -1;
    } else {
      LOG_VERB("privatization: the globals of %s are per rank", f.found);
    }
  }
  free(copy);
  return rc;
}

void smpi_privatize_layout_free(smpi_priv_layout *l)
{
  free(l->data);
  free(l->holes);
  memset(l, 0, sizeof *l);
}

int smpi_privatize_init(char *err, size_t errlen)
{
  smpi_privatize_declare_config();
  const char *v = cfg_get_string("smpi/privatization");
  /* "yes" and SimGrid's "dlopen" both mean: privatize, with the cheapest mechanism */
  smpi_priv_mode mode = !strcmp(v, "no")     ? SMPI_PRIV_OFF
                        : !strcmp(v, "mmap") ? SMPI_PRIV_REMAP
                        : !strcmp(v, "copy") ? SMPI_PRIV_COPY
                                             : SMPI_PRIV_AUTO;
  int np = smpi_w.np;
  if (mode == SMPI_PRIV_OFF && *cfg_get_string("smpi/privatize-libs"))
    LOG_WARN("smpi/privatize-libs ignored: smpi/privatization is no (the libraries' globals "
             "are privatized like the program's)");
  if (mode == SMPI_PRIV_OFF || np <= 1)
    return smpi_privatize_setup(NULL, np, SMPI_PRIV_OFF, 0, err, errlen);
  /* the libraries first: the program's copies of their variables are then not holes */
  smpi_priv_layout libl = {0};
  const char *libs = cfg_get_string("smpi/privatize-libs");
  if (libs && *libs && smpi_privatize_add_libs(&libl, libs, err, errlen) != 0) {
    smpi_privatize_layout_free(&libl);
    return -1;
  }
  smpi_priv_layout l;
  if (smpi_privatize_discover(&l, err, errlen) != 0) {
    smpi_privatize_layout_free(&libl);
    return -1;
  }
  if (l.simulator_inside) {
    /* the simulator is linked into the executable (not through libsmpi.so): its own state
     * would be swapped with the program's */
    if (!cfg_is_default("smpi/privatization"))
      LOG_WARN("smpi/privatization:%s ignored: the simulator is linked into the program "
               "statically; link the program with smpicc to privatize its globals",
               v);
    smpi_privatize_layout_free(&l);
    smpi_privatize_layout_free(&libl);
    return smpi_privatize_setup(NULL, np, SMPI_PRIV_OFF, 0, err, errlen);
  }
  smpi_ctors_prepare(&l); /* C++ globals: each rank constructs its own */
  size_t dcap = l.ndata, hcap = l.nholes;
  for (size_t i = 0; i < libl.ndata; i++)
    push_span(&l.data, &l.ndata, &dcap, libl.data[i].addr, libl.data[i].len);
  for (size_t i = 0; i < libl.nholes; i++)
    push_span(&l.holes, &l.nholes, &hcap, libl.holes[i].addr, libl.holes[i].len);
  smpi_privatize_layout_free(&libl);
  long cm = cfg_get_int("smpi/privatization-copy-max");
  int rc = smpi_privatize_setup(&l, np, mode, cm > 0 ? (size_t)cm : 0, err, errlen);
  smpi_privatize_layout_free(&l);
  if (rc == 0) {
    smpi_priv_stats st;
    smpi_privatize_get_stats(&st);
    LOG_VERB("privatization: %s, %zu bytes of globals per rank (%zu bytes shared: copy "
             "relocations, .got.plt)",
             st.mode == SMPI_PRIV_COPY    ? "copy"
             : st.mode == SMPI_PRIV_REMAP ? "remap"
                                          : "off",
             st.private_bytes, st.hole_bytes);
  }
  return rc;
}
