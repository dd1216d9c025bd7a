/* Execution contexts: factory selection, stacks, guard pages, crash and overflow handling,
 * and the logic shared by both factories (what happens when an actor's function returns).
 *
 * Stacks come in two layouts, chosen once per factory by contexts/guard-markers.
 *
 * 1. Guard markers (Linux >= 6.13, the default where the kernel has them). Every stack is a
 *    slot of an arena: one mmap (MAP_NORESERVE) of CTX_ARENA_SLOTS slots, each slot a guard
 *    region of CTX_OVERFLOW_WINDOW bytes (64 KiB) plus a page under its usable stack (the
 *    page staggers the stack tops across cache sets, see ctx_factory_init). The guards are
 *    madvise(MADV_GUARD_INSTALL) markers: page-table entries that fault with SIGSEGV on any
 *    access, without splitting the mapping (the arena stays one mapping whatever its
 *    guards) and without using memory beyond the page table they sit in.
 *
 *     arena (one mmap, MAP_NORESERVE)                                            arena + len
 *      | guard | slot 0 stack   | guard | slot 1 stack   |  ...  | guard | slot 63 stack  |
 *      | 68KiB | <- grows down  | 68KiB | <- grows down  |       | 68KiB | <- grows down  |
 *        ^ slot 0 overflows here  ^ slot 1 overflows here           ^ slot 63 overflows here
 *
 *    The guards of a whole arena go in with one process_madvise(2) on ourselves (an iovec
 *    per slot; Linux >= 6.13 accepts any advice for the calling process, and 6.15 added the
 *    PIDFD_SELF_THREAD sentinel, so no pidfd needs opening): an arena of 64 stacks costs
 *    two system calls, where the per-stack layout below costs two per stack (the first
 *    arena's guards go in by batches of 8, 8, 16 and 32 slots as they are handed out, so
 *    that a small job does not install 64 slots' guards: ctx_arena_guard_more). Where
 *    process_madvise refuses, one madvise per slot installs them. Measured on Linux 6.18:
 *    markers fault on read and write (SIGSEGV, SEGV_MAPERR, si_addr exact), survive
 *    MADV_DONTNEED and MADV_FREE over them, are inherited by fork, and a guarded arena is
 *    one line of /proc/self/maps. The guard spans 64 KiB rather than a page because it costs
 *    nothing more: a frame up to 64 KiB deep that skips the first page still faults in the
 *    guard instead of landing in the neighbouring slot's stack. A 4 096-rank start-up went
 *    from 8 192 system calls and 8 298 mappings to 128 and 107 (131 with the batches).
 *
 * 2. Fallback (older kernels, or contexts/guard-markers:no). One mmap per context with a
 *    PROT_NONE guard page under the usable stack (mprotect), i.e. two mappings per stack:
 *
 *     map                stack_lo                                       stack_hi
 *      |  guard page      |  usable stack (contexts/stack-size KiB)       |
 *      |  PROT_NONE       |  <- grows down                 initial frame  |
 *   ---+------------------+-----------------------------------------------+---
 *   ^ overflow window: [stack_lo - 64 KiB, stack_lo)
 *
 *    Linux allows vm.max_map_count mappings per process (65 530 by default): one stack per
 *    mapping pair would stop the simulation near 32 000 actors, and the rest of the
 *    simulator needs mappings too. So only the first contexts/guard-stacks stacks alive at
 *    once (default: a quarter of vm.max_map_count, i.e. 16 382, which spends at most half of
 *    the limit on stacks) get their own guard page. Further stacks are slots carved from
 *    arenas of CTX_ARENA_SLOTS stacks, one mapping each with a single guard page under its
 *    lowest slot:
 *
 *     arena (one mmap, MAP_NORESERVE)                                        arena + len
 *      | guard |  slot 0   |  slot 1   |  ...                  |  slot 63         |
 *      | NONE  | <- grows  | <- grows  |                       | <- grows         |
 *        ^ slot 0 overflows here: reported      slot k >= 1 overflows into slot k-1: NOT
 *                                               detected (it corrupts that actor's stack)
 *
 *    131 072 actors then need 2 048 arenas (4 096 mappings) plus the 16 382 guarded stacks.
 *    The price is that an overflow of most arena stacks goes unnoticed; a warning says so
 *    once, with the fix (raise vm.max_map_count: the default budget follows it). Stacks of
 *    destroyed guarded contexts are kept in a small cache (CTX_CACHE_MAX) to spare the
 *    mmap/mprotect/munmap system calls when actors come and go.
 *
 * Overflow detection. A SIGSEGV/SIGBUS handler runs on an alternate signal stack (the
 * faulting stack is unusable). It calls the fault an overflow of the running context when
 * si_addr lies in that context's overflow window [window_lo, stack_lo): with guard markers
 * that is exactly the guard; in the fallback it is the 64 KiB under the stack: the guard
 * page and, below it, a heuristic for big frames (a function with a 20 KiB local array)
 * whose first access skips over the one-page guard; a wild pointer that happens to land
 * there would be misreported as an overflow, which is an acceptable error in the message of
 * a dying process. The running context's window is kept in two globals, so the common case
 * is two compares; if they do not match, the guards of all live contexts, [map, stack_lo),
 * are checked (that covers a fault inside ctx_switch after the globals were moved to the
 * next context but before the old stack was left, e.g. the switch pushing its registers
 * into the old context's guard).
 * A frame bigger than the guard can still jump over it into a neighbouring stack, which is
 * writable: nothing faults then, and nothing here can see it.
 *
 * Slots of destroyed contexts (arenas of either layout) go back to a free list. In the
 * fallback their pages are given back at once with MADV_DONTNEED; with markers up to
 * CTX_CACHE_MAX freed slots keep their pages and are handed out first (like the fallback's
 * stack cache: an actor that comes and goes costs no system call), and the others are given
 * back. MADV_DONTNEED covers only the usable part, and would leave the markers in place
 * anyway. Arenas are unmapped with the factory. Untouched stack pages cost nothing in
 * either layout: a rank that never goes deeper than a few frames costs the few pages it
 * touched (and one page-table page, since 8 MiB stacks put every stack top in its own 2 MiB
 * region; a slot's guard shares the page table of the stack top right under it). */
#include "kernel/context_private.h"

#include "src/cfg.h"
#include "src/invariant.h"
#include "src/mem.h"
#include "src/sigsafe.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(CTX_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CTX_VALGRIND 1
#endif
#endif

#if defined(__x86_64__)
#define CTX_DEFAULT_FACTORY "raw"
#define CTX_DEFAULT_KIND CTX_FACTORY_RAW
#else
#define CTX_DEFAULT_FACTORY "ucontext"
#define CTX_DEFAULT_KIND CTX_FACTORY_UCONTEXT
#endif

#define CTX_DEFAULT_STACK_KIB 8192
#define CTX_MIN_STACK_KIB 16            /* room for the initial frame and a few calls */
#define CTX_MAX_STACK_KIB (1L << 30)    /* 1 TiB: beyond that it is a typo */
#define CTX_OVERFLOW_WINDOW (64 * 1024) /* see the comment at the top */
#define CTX_ALTSTACK_SIZE (64 * 1024)
#define CTX_CACHE_MAX 16
#define CTX_ARENA_SLOTS 64                     /* stacks per arena (at most UIO_MAXIOV = 1024) */
#define CTX_ARENA_MAX_BYTES ((size_t)16 << 30) /* markers: fewer slots for bigger stacks */
#define CTX_DEFAULT_MAX_MAP_COUNT 65530        /* Linux's default, when /proc cannot be read */

/* Linux 6.13's guard markers and 6.15's pidfd of the calling thread; Debian bookworm's
 * headers (6.1) have neither. */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD (-10000)
#endif

/* Free-list entries are stack_lo (page-aligned), with this flag in the low bit. */
#define CTX_SLOT_LOWEST ((uintptr_t)1) /* fallback: the arena's slot right over its guard */

static const ctx_ops *ctx_ops_cur; /* NULL while no factory is initialized */
static ctx *ctx_maestro_p;
static ctx *ctx_cur;
static size_t ctx_page;
static size_t ctx_stack_bytes; /* usable part, page multiple */
static size_t ctx_map_len;     /* guard + usable */
static list_node ctx_live = {&ctx_live, &ctx_live};

/* Overflow window of the running context, [lo, hi); empty for the maestro. Written before
 * each switch, read by the signal handler. */
static volatile uintptr_t ctx_cur_window_lo;
static volatile uintptr_t ctx_cur_window_hi;

/* Stacks of destroyed contexts kept with their pages, handed out first: the map of a
 * guarded stack (fallback), or the stack_lo of an arena slot (markers). */
static char *ctx_cache[CTX_CACHE_MAX];
static size_t ctx_cache_n;

/* Guarded stacks (one mapping each, live or cached) and how many may exist. */
static size_t ctx_guarded_n;
static size_t ctx_guard_budget;
static bool ctx_guard_auto; /* budget from vm.max_map_count: warn when it runs out */
static bool ctx_arena_warned;
static long ctx_max_map_count;

/* Arenas: all of them (for shutdown), slots not yet handed out in the newest one, and the
 * slots of destroyed contexts. */
static char **ctx_arenas;
static size_t ctx_narenas, ctx_arenas_cap;
static size_t ctx_arena_slots;    /* stacks per arena: CTX_ARENA_SLOTS, fewer for huge stacks */
static size_t ctx_arena_len;      /* markers: ctx_arena_slots slots; fallback: guard + slots */
static size_t ctx_arena_next;     /* next slot of ctx_arenas[ctx_narenas - 1] to carve */
static size_t ctx_arena_guarded;  /* markers: slots of the newest arena with their guard */
static uintptr_t *ctx_free_slots; /* stack_lo of free slots | CTX_SLOT_* flags */
static size_t ctx_nfree, ctx_free_cap;

/* Guard markers (see the top): whether this factory uses them, and what the kernel was
 * found to accept (-1 = not asked yet). Asked again by each factory: it costs a system call
 * or three, and a process may change what it is allowed in between (seccomp). */
static bool ctx_markers;
static size_t ctx_guard_len;       /* markers: the guard under each slot */
static size_t ctx_slot_len;        /* markers: guard + usable stack */
static int ctx_batch_self_ok = -1; /* process_madvise(PIDFD_SELF_THREAD, ...) works */
static int ctx_batch_ok = -1;      /* process_madvise of MADV_GUARD_INSTALL works at all */

/* volatile: ctx_set_crash_hook's stores must happen in program order (see there) */
static volatile ctx_crash_hook ctx_hook;
static void *volatile ctx_hook_data;

static const int ctx_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define CTX_NSIGNALS (sizeof ctx_signals / sizeof ctx_signals[0])
static struct sigaction ctx_old_actions[CTX_NSIGNALS];
static void *ctx_altstack;
static stack_t ctx_old_altstack;

#if defined(CTX_ASAN)
static ctx *ctx_asan_from; /* the context that switched to the one now resuming */
#endif

/* ---------------------------------------------------------------------------------------
 * Configuration */

void ctx_declare_config(void)
{
  static const cfg_key keys[] = {
      CFG_KEY_STRING("contexts/factory", CTX_DEFAULT_FACTORY, "raw|ucontext",
                     "How actors' execution contexts are switched: raw (hand-written "
                     "x86-64 switch, fastest; x86-64 only) or ucontext (portable, libc's "
                     "swapcontext)"),
      CFG_KEY_UINT("contexts/stack-size", CTX_DEFAULT_STACK_KIB,
                   "Stack size of each actor, in KiB (reserved, not committed: untouched "
                   "pages cost no memory)"),
      CFG_KEY_INT("contexts/guard-stacks", -1,
                  "How many actor stacks (alive at once) get a guard page of their own, "
                  "which costs two memory mappings each; further stacks come from arenas "
                  "with one guard page per 64 stacks, where an overflow can go unnoticed. "
                  "-1: a quarter of vm.max_map_count. Only without guard markers (see "
                  "contexts/guard-markers)"),
      CFG_KEY_STRING("contexts/guard-markers", "auto", "auto|yes|no",
                     "Guard every actor stack with Linux's lightweight guard markers "
                     "(madvise MADV_GUARD_INSTALL, Linux >= 6.13: no extra memory mapping "
                     "per stack, fewer system calls at start-up): auto (when the kernel has "
                     "them), yes (fail if it has not), no (one mapping + a PROT_NONE page per "
                     "stack, see contexts/guard-stacks)"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
}

/* Does the kernel have guard markers? One page mapped, marked and unmapped (old kernels
 * answer EINVAL, as for any unknown advice). */
static bool ctx_markers_supported(void)
{
  void *p = mmap(NULL, ctx_page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return false;
  bool ok = madvise(p, ctx_page, MADV_GUARD_INSTALL) == 0;
  munmap(p, ctx_page);
  return ok;
}

static long ctx_read_max_map_count(void)
{
  long v = 0;
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f) {
    if (fscanf(f, "%ld", &v) != 1)
      v = 0;
    fclose(f);
  }
  return v > 0 ? v : CTX_DEFAULT_MAX_MAP_COUNT;
}

ctx_factory_kind ctx_factory_current(void)
{
  return ctx_ops_cur ? ctx_ops_cur->kind : CTX_DEFAULT_KIND;
}

const char *ctx_factory_name(void)
{
  return ctx_ops_cur ? ctx_ops_cur->name : CTX_DEFAULT_FACTORY;
}

size_t ctx_stack_size(void) { return ctx_stack_bytes; }

/* ---------------------------------------------------------------------------------------
 * Signal handling (async-signal-safe code only down to ctx_install_signals) */

/* The signal being handled (0: none), and the guard of the risky parts of the report: the
 * handler runs with SA_NODEFER, so a fault while it reads corrupted state (a rank that wrote
 * over the heap also wrote over the contexts, or over the MPI layer's records the crash hook
 * reads) comes back here, nested. Inside a guarded part it jumps back out of that part;
 * anywhere else it ends the process with a plain line instead of recursing. */
static volatile sig_atomic_t ctx_handling;
static volatile sig_atomic_t ctx_guard_armed;
static sigjmp_buf ctx_guard_env;
static size_t ctx_live_n; /* contexts on ctx_live: bounds the handler's walk of a torn list */

static const char *ctx_signal_name(int sig)
{
  return sig == SIGSEGV   ? "SIGSEGV"
         : sig == SIGBUS  ? "SIGBUS"
         : sig == SIGFPE  ? "SIGFPE"
         : sig == SIGILL  ? "SIGILL"
         : sig == SIGABRT ? "SIGABRT"
                          : "a fatal signal";
}

/* Dies of sig, as if it had not been caught: the parent (smpirun, a shell, a debugger) sees
 * the signal, and a core is dumped when enabled. */
static noreturn void ctx_die_of(int sig)
{
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  /* a signal that could not kill us (ignored by a tracer): still fail (not _exit: that ends
   * only the calling rank, smpi/launch/rank_exit.c) */
  syscall(SYS_exit_group, 128 + sig);
  __builtin_unreachable();
}

/* overflow: how far under the stack the faulting frame went, 0 if it faulted in the guard */
static void ctx_report_overflow(const ctx *c, uintptr_t lowest)
{
  char line[512];
  sig_buf b = SIG_BUF(line);
  sig_str(&b, "smpi: stack overflow in actor '");
  sig_strn(&b, c->name, 128);
  sig_str(&b, "' (stack: ");
  unsigned long kib = (unsigned long)((c->stack_hi - c->stack_lo) / 1024);
  sig_unum(&b, kib);
  sig_str(&b, " KiB");
  unsigned long suggest = kib * 4;
  if (lowest && lowest < c->stack_lo) {
    /* a frame bigger than the guard jumped over it: suggest room for twice the depth */
    unsigned long need = (unsigned long)((c->stack_hi - lowest) / 1024);
    sig_str(&b, "; a frame reached ");
    sig_unum(&b, (c->stack_lo - lowest + 1023) / 1024);
    sig_str(&b, " KiB under it");
    while (suggest < 2 * need)
      suggest *= 2;
  }
  sig_str(&b, "); raise it, e.g. --cfg=contexts/stack-size:");
  sig_unum(&b, suggest);
  sig_flush_line(&b, STDERR_FILENO);
}

/* The stack pointer at the fault, 0 where this architecture's is not known here. */
static uintptr_t ctx_fault_sp(const void *ucontext)
{
#if defined(__x86_64__) && defined(REG_RSP)
  return ucontext ? (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RSP] : 0;
#elif defined(__aarch64__)
  return ucontext ? (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.sp : 0;
#else
  (void)ucontext;
  return 0;
#endif
}

/* The context whose stack overflowed, if the fault at addr (stack pointer sp) is one; sets
 * *lowest to the lowest address the frame reached when it went past the overflow window. */
static const ctx *ctx_overflowed(uintptr_t addr, uintptr_t sp, uintptr_t *lowest)
{
  *lowest = 0;
  if (addr >= ctx_cur_window_lo && addr < ctx_cur_window_hi)
    return ctx_cur;
  size_t steps = 0;
  for (const list_node *n = ctx_live.next; n != &ctx_live && steps <= ctx_live_n;
       n = n->next, steps++) {
    const ctx *c = list_entry(n, const ctx, live);
    if (addr >= (uintptr_t)c->map && addr < c->stack_lo)
      return c;
  }
  /* A frame bigger than the whole window (a 64 MiB local array) jumps far under the guard:
   * the running actor's stack pointer is then under its stack, and the fault is an access
   * near it (a function cannot reach under its stack pointer by more than the red zone; the
   * 64 KiB margin covers the probes some compilers make ahead of the frame). */
  const ctx *c = ctx_cur;
  if (sp && c && !c->maestro && sp < c->stack_lo && addr < c->stack_lo &&
      addr + CTX_OVERFLOW_WINDOW >= sp) {
    *lowest = addr < sp ? addr : sp;
    return c;
  }
  return NULL;
}

bool ctx_crash_probe(void (*fn)(void *arg), void *arg)
{
  if (!ctx_handling) {
    fn(arg); /* not in the handler: nothing to guard */
    return true;
  }
  /* nested in a guarded part (the hook): keep the outer guard's landing place */
  sigjmp_buf outer;
  memcpy(&outer, &ctx_guard_env, sizeof outer);
  sig_atomic_t was_armed = ctx_guard_armed;
  volatile bool ok = false;
  if (sigsetjmp(ctx_guard_env, 1) == 0) {
    ctx_guard_armed = 1;
    fn(arg);
    ok = true;
  }
  memcpy(&ctx_guard_env, &outer, sizeof outer);
  ctx_guard_armed = was_armed;
  return ok;
}

static void ctx_on_signal(int sig, siginfo_t *si, void *ucontext)
{
  if (ctx_handling) {
    if (ctx_guard_armed) {
      ctx_guard_armed = 0;
      siglongjmp(ctx_guard_env, 1);
    }
    int first = ctx_handling;
    char line[256];
    sig_buf b = SIG_BUF(line);
    sig_str(&b, "smpi: ");
    sig_str(&b, ctx_signal_name(sig));
    sig_str(&b, " while reporting a ");
    sig_str(&b, ctx_signal_name(first));
    sig_str(&b, ": the process's memory is corrupted (did the program write out of bounds?)");
    sig_flush_line(&b, STDERR_FILENO);
    ctx_die_of(first);
  }
  ctx_handling = sig;
  if (sig == SIGSEGV || sig == SIGBUS) {
    /* volatile: set between sigsetjmp and a possible siglongjmp */
    const ctx *volatile victim = NULL;
    volatile uintptr_t lowest = 0;
    if (sigsetjmp(ctx_guard_env, 1) == 0) {
      ctx_guard_armed = 1;
      uintptr_t low;
      victim = ctx_overflowed((uintptr_t)si->si_addr, ctx_fault_sp(ucontext), &low);
      lowest = low;
    }
    ctx_guard_armed = 0;
    if (victim) {
      if (sigsetjmp(ctx_guard_env, 1) == 0) {
        ctx_guard_armed = 1;
        ctx_report_overflow(victim, lowest);
      } else {
        static const char msg[] = "smpi: stack overflow in an actor (its name is unreadable: "
                                  "memory is corrupted); raise --cfg=contexts/stack-size\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
      }
      ctx_guard_armed = 0;
      syscall(SYS_exit_group, 139); /* not _exit (smpi/launch/rank_exit.c) */
    }
  }
  ctx_crash_hook hook = ctx_hook;
  if (hook) {
    if (sigsetjmp(ctx_guard_env, 1) == 0) {
      ctx_guard_armed = 1;
      hook(ctx_cur == ctx_maestro_p ? NULL : ctx_cur, sig, si ? si->si_addr : NULL,
           ctx_hook_data);
    } else {
      char line[256];
      sig_buf b = SIG_BUF(line);
      sig_str(&b, "smpi: crashed with ");
      sig_str(&b, ctx_signal_name(sig));
      sig_str(&b, "; describing the crash faulted too: the process's memory is corrupted (did "
                  "the program write out of bounds?)");
      sig_flush_line(&b, STDERR_FILENO);
    }
    ctx_guard_armed = 0;
  }
  /* The raised signal stays pending until this handler returns; a hardware fault would also
   * simply happen again on return: die of it now. */
  ctx_die_of(sig);
}

static int ctx_install_signals(char *err, size_t errlen)
{
  ctx_altstack = mmap(NULL, CTX_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (ctx_altstack == MAP_FAILED) {
    ctx_altstack = NULL;
    snprintf(err, errlen, "cannot map the signal stack (%d KiB): %s (check `ulimit -v`)",
             CTX_ALTSTACK_SIZE / 1024, strerror(errno));
    return -1;
  }
  stack_t ss;
  ss.ss_sp = ctx_altstack;
  ss.ss_size = CTX_ALTSTACK_SIZE;
  ss.ss_flags = 0;
  if (sigaltstack(&ss, &ctx_old_altstack) != 0) {
    snprintf(err, errlen, "cannot install the alternate signal stack: %s", strerror(errno));
    munmap(ctx_altstack, CTX_ALTSTACK_SIZE);
    ctx_altstack = NULL;
    return -1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = ctx_on_signal;
  /* SA_NODEFER: a fault inside the handler comes back to it (see ctx_handling) instead of
   * killing the process without a word */
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < CTX_NSIGNALS; i++)
    ASSERTF(sigaction(ctx_signals[i], &sa, &ctx_old_actions[i]) == 0, "sigaction(%d): %s",
            ctx_signals[i], strerror(errno));
  return 0;
}

static void ctx_uninstall_signals(void)
{
  for (size_t i = 0; i < CTX_NSIGNALS; i++)
    sigaction(ctx_signals[i], &ctx_old_actions[i], NULL);
  if (ctx_altstack) {
    sigaltstack(&ctx_old_altstack, NULL);
    munmap(ctx_altstack, CTX_ALTSTACK_SIZE);
    ctx_altstack = NULL;
  }
}

void ctx_set_crash_hook(ctx_crash_hook hook, void *data)
{
  ctx_hook = NULL; /* never let the handler see a hook with the wrong data */
  ctx_hook_data = data;
  ctx_hook = hook;
}

/* ---------------------------------------------------------------------------------------
 * Factory life cycle */

static int ctx_select_factory(const char *name, const ctx_ops **ops, char *err, size_t errlen)
{
  if (strcmp(name, "raw") == 0) {
    if (!ctx_raw_ops) {
      snprintf(err, errlen,
               "the raw context factory is only available on x86-64; "
               "use --cfg=contexts/factory:ucontext");
      return -1;
    }
    *ops = ctx_raw_ops;
    return 0;
  }
  if (strcmp(name, "ucontext") == 0) {
    *ops = &ctx_ucontext_ops;
    return 0;
  }
  snprintf(err, errlen,
           "unknown context factory '%s' for 'contexts/factory' (one of: raw, ucontext)", name);
  return -1;
}

#if defined(CTX_ASAN)
/* Lowest address of c's frames when its stack pointer was at sp: less a margin for the
 * factory's swap frames, never under the stack (ctx_lsan_roots, ctx_destroy). */
static uintptr_t ctx_used_lo(const ctx *c, uintptr_t sp)
{
  return sp - c->stack_lo > 4096 ? sp - 4096 : c->stack_lo;
}

/* LeakSanitizer's scan at exit knows the thread's own stack, not the contexts': memory that
 * only a context's frames point to (a rank's collective in progress when another rank calls
 * exit()) would be reported as leaked. Run at exit before LSan's own handler (registered
 * earlier, so it runs later): the part of each live context's stack in use becomes a root
 * region (from where it last switched away, less the margin ctx_destroy also uses for the
 * swap frames; for the running one, from here). */
static void ctx_lsan_roots(void)
{
  list_foreach (n, &ctx_live) {
    const ctx *c = list_entry(n, ctx, live);
    uintptr_t sp = c == ctx_cur ? (uintptr_t)__builtin_frame_address(0) : c->asan_low;
    if (c->maestro || sp < c->stack_lo || sp >= c->stack_hi)
      continue;
    uintptr_t lo = ctx_used_lo(c, sp);
    __lsan_register_root_region((const void *)lo, c->stack_hi - lo);
  }
}
#endif

int ctx_factory_init(const char *factory, size_t stack_kib, char *err, size_t errlen)
{
  ASSERTF(!ctx_ops_cur, "ctx_factory_init() called twice without ctx_factory_shutdown()");
  ctx_declare_config();
#if defined(CTX_ASAN)
  static bool lsan_hooked;
  if (!lsan_hooked)
    lsan_hooked = atexit(ctx_lsan_roots) == 0;
#endif

  const ctx_ops *ops;
  if (ctx_select_factory(factory ? factory : cfg_get_string("contexts/factory"), &ops, err,
                         errlen) != 0)
    return -1;

  long kib = stack_kib ? (stack_kib > (size_t)CTX_MAX_STACK_KIB ? CTX_MAX_STACK_KIB + 1
                                                                : (long)stack_kib)
                       : cfg_get_int("contexts/stack-size");
  if (kib < CTX_MIN_STACK_KIB || kib > CTX_MAX_STACK_KIB) {
    if (stack_kib)
      snprintf(err, errlen,
               "invalid stack size %zu KiB for 'contexts/stack-size' (between %d and %ld KiB "
               "is expected)",
               stack_kib, CTX_MIN_STACK_KIB, CTX_MAX_STACK_KIB);
    else
      snprintf(err, errlen,
               "invalid value %ld for 'contexts/stack-size' (a stack size between %d and %ld "
               "KiB is expected)",
               kib, CTX_MIN_STACK_KIB, CTX_MAX_STACK_KIB);
    return -1;
  }

  long page = sysconf(_SC_PAGESIZE);
  ctx_page = page > 0 ? (size_t)page : 4096;
  ctx_stack_bytes = ((size_t)kib * 1024 + ctx_page - 1) / ctx_page * ctx_page;
  ctx_map_len = ctx_stack_bytes + ctx_page;

  const char *markers = cfg_get_string("contexts/guard-markers");
  if (strcmp(markers, "no") == 0) {
    ctx_markers = false;
  } else if (ctx_markers_supported()) {
    ctx_markers = true;
  } else if (strcmp(markers, "yes") == 0) {
    snprintf(err, errlen,
             "contexts/guard-markers:yes, but this kernel has no guard markers "
             "(madvise MADV_GUARD_INSTALL needs Linux 6.13 or later); use "
             "--cfg=contexts/guard-markers:auto to fall back to guard pages");
    return -1;
  } else {
    ctx_markers = false;
  }
  /* The guard covers the whole overflow window, plus a page so that slots are not 64 KiB
   * multiples apart: otherwise the tops of all stacks, where actors keep their hottest
   * frames, share the same cache sets (a 1000-actor round-robin switched 2x slower). */
  ctx_guard_len = (CTX_OVERFLOW_WINDOW + ctx_page - 1) / ctx_page * ctx_page + ctx_page;
  ctx_slot_len = ctx_guard_len + ctx_stack_bytes;
  /* Every stack is an arena slot with markers: huge stacks come in smaller arenas, so that
   * an arena stays within what one stack of the fallback could reserve alone. */
  ctx_arena_slots = CTX_ARENA_SLOTS;
  if (ctx_markers) {
    size_t fit = CTX_ARENA_MAX_BYTES / ctx_slot_len;
    ctx_arena_slots = fit < 1 ? 1 : fit < CTX_ARENA_SLOTS ? fit : CTX_ARENA_SLOTS;
  }
  ctx_arena_len = ctx_markers ? ctx_arena_slots * ctx_slot_len
                              : ctx_page + ctx_arena_slots * ctx_stack_bytes;
  ctx_batch_self_ok = ctx_batch_ok = -1;

  long guards = cfg_get_int("contexts/guard-stacks");
  if (guards < -1) {
    snprintf(err, errlen,
             "invalid value %ld for 'contexts/guard-stacks' (a number of stacks, or -1 for a "
             "quarter of vm.max_map_count)",
             guards);
    return -1;
  }
  ctx_max_map_count = ctx_read_max_map_count();
  ctx_guard_auto = guards == -1;
  ctx_guard_budget = ctx_guard_auto ? (size_t)ctx_max_map_count / 4 : (size_t)guards;
  ctx_arena_warned = false;

  if (ctx_install_signals(err, errlen) != 0)
    return -1;

  ctx_maestro_p = xcalloc(1, sizeof(ctx) + ops->impl_size);
  ctx_maestro_p->name = xstrdup("maestro");
  ctx_maestro_p->maestro = true;
  ctx_cur = ctx_maestro_p;
  ctx_cur_window_lo = ctx_cur_window_hi = 0;
  ctx_ops_cur = ops;
  return 0;
}

void ctx_factory_shutdown(void)
{
  if (!ctx_ops_cur)
    return;
  ASSERTF(ctx_cur == ctx_maestro_p, "ctx_factory_shutdown() called from actor '%s'",
          ctx_cur->name);
  /* Contexts still alive (actors killed with the simulation) go with the factory. */
  while (!list_empty(&ctx_live))
    ctx_destroy(list_entry(ctx_live.next, ctx, live));
  while (ctx_cache_n) {
    char *kept = ctx_cache[--ctx_cache_n];
    if (!ctx_markers) /* slots go with their arenas */
      munmap(kept, ctx_map_len);
  }
  ctx_guarded_n = 0;
  while (ctx_narenas)
    munmap(ctx_arenas[--ctx_narenas], ctx_arena_len);
  free(ctx_arenas);
  free(ctx_free_slots);
  ctx_arenas = NULL;
  ctx_free_slots = NULL;
  ctx_arenas_cap = ctx_free_cap = ctx_nfree = ctx_arena_next = ctx_arena_guarded = 0;
  ctx_markers = false;
  ctx_uninstall_signals();
  free(ctx_maestro_p->name);
  free(ctx_maestro_p);
  ctx_maestro_p = ctx_cur = NULL;
  ctx_ops_cur = NULL;
  ctx_stack_bytes = ctx_map_len = 0;
}

/* ---------------------------------------------------------------------------------------
 * Stacks */

/* Out of address space or of mappings, or the kernel refused the guards: fatal like any
 * out-of-memory. */
static noreturn void ctx_arena_failed(const ctx *c, const char *call, int e)
{
  fprintf(stderr,
          "smpi: cannot reserve a stack arena of %zu MiB (%zu stacks of %zu KiB) for actor "
          "'%s': %s: %s\nsmpi: check `ulimit -v` and the sysctl vm.max_map_count, or lower "
          "--cfg=contexts/stack-size\n",
          ctx_arena_len >> 20, ctx_arena_slots, ctx_stack_bytes / 1024, c->name, call,
          strerror(e));
  abort();
}

/* Maps a new arena (either layout) and makes it the newest. */
static char *ctx_arena_map(const ctx *c)
{
  char *a = mmap(NULL, ctx_arena_len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (a == MAP_FAILED)
    ctx_arena_failed(c, "mmap", errno);
  XGROW(ctx_arenas, ctx_arenas_cap, ctx_narenas + 1);
  ctx_arenas[ctx_narenas++] = a;
  return a;
}

/* process_madvise(2) on ourselves: PIDFD_SELF_THREAD where the kernel knows it (6.15),
 * else a pidfd opened for the call (not kept: a forked child would inherit a pidfd of its
 * parent, and mark the parent's memory). Returns what the system call returns. */
static long ctx_madvise_self(const struct iovec *iov, size_t n, int advice)
{
#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
  if (ctx_batch_self_ok != 0) {
    long r = syscall(SYS_process_madvise, PIDFD_SELF_THREAD, iov, n, advice, 0u);
    if (r >= 0 || errno != EBADF) {
      ctx_batch_self_ok = 1;
      return r;
    }
    ctx_batch_self_ok = 0;
  }
  long fd = syscall(SYS_pidfd_open, (long)getpid(), 0u);
  if (fd < 0)
    return -1;
  long r = syscall(SYS_process_madvise, (int)fd, iov, n, advice, 0u);
  int e = errno;
  close((int)fd);
  errno = e;
  return r;
#else
  (void)iov;
  (void)n;
  (void)advice;
  errno = ENOSYS;
  return -1;
#endif
}

/* Guard markers under slots [from, to) of arena a: one process_madvise for all of them, or
 * where the kernel refuses it (no process_madvise, or one that takes only the advice that
 * can target other processes, as before 6.13), one madvise per slot. */
static void ctx_arena_guard(const ctx *c, char *a, size_t from, size_t to)
{
  struct iovec iov[CTX_ARENA_SLOTS];
  size_t done = from;
  if (ctx_batch_ok != 0) {
    for (size_t k = from; k < to; k++) {
      iov[k - from].iov_base = a + k * ctx_slot_len;
      iov[k - from].iov_len = ctx_guard_len;
    }
    long r = ctx_madvise_self(iov, to - from, MADV_GUARD_INSTALL);
    if (r == (long)((to - from) * ctx_guard_len)) {
      ctx_batch_ok = 1;
      return;
    }
    if (r > 0)
      done += (size_t)r / ctx_guard_len; /* a partial success: the slots it covered */
    else if (ctx_batch_ok < 0)
      ctx_batch_ok = 0; /* refused at the first try: never again */
  }
  for (size_t k = done; k < to; k++)
    if (madvise(a + k * ctx_slot_len, ctx_guard_len, MADV_GUARD_INSTALL) != 0)
      ctx_arena_failed(c, "madvise(MADV_GUARD_INSTALL)", errno);
}

/* The guards of the newest arena's next slots, before the first of them is handed out.
 * The first arena gets them CTX_GUARD_FIRST slots at a time, then doubling (8, 16, 32, 64),
 * so that a 16-rank job installs 16 slots' guards (272 page-table entries) rather than 64
 * (1 088: ~0.065 ms of a 2.2 ms start-up); later arenas, past 64 actors, get all at once
 * (one system call per arena, as a 4 096-rank start-up had). */
#define CTX_GUARD_FIRST 8
static void ctx_arena_guard_more(const ctx *c)
{
  size_t from = ctx_arena_guarded, to = ctx_arena_slots;
  if (ctx_narenas == 1) {
    size_t want = from ? 2 * from : CTX_GUARD_FIRST;
    if (want < to)
      to = want;
  }
  ctx_arena_guard(c, ctx_arenas[ctx_narenas - 1], from, to);
  ctx_arena_guarded = to;
}

size_t ctx_guarded_slots(void)
{
  return ctx_markers && ctx_narenas ? (ctx_narenas - 1) * ctx_arena_slots + ctx_arena_guarded : 0;
}

/* With guard markers: a slot that kept its pages, a free slot, or the next slot of the
 * newest arena. Fills c like ctx_stack_acquire. */
static void ctx_marked_acquire(ctx *c)
{
  char *lo;
  if (ctx_cache_n) {
    lo = ctx_cache[--ctx_cache_n];
  } else if (ctx_nfree) {
    lo = (char *)ctx_free_slots[--ctx_nfree];
  } else {
    if (ctx_narenas == 0 || ctx_arena_next == ctx_arena_slots) {
      ctx_arena_map(c);
      ctx_arena_next = ctx_arena_guarded = 0;
    }
    if (ctx_arena_next == ctx_arena_guarded)
      ctx_arena_guard_more(c);
    lo = ctx_arenas[ctx_narenas - 1] + ctx_arena_next++ * ctx_slot_len + ctx_guard_len;
  }
  c->arena = true;
  c->map = lo - ctx_guard_len;
  c->map_len = 0;
  c->stack_lo = (uintptr_t)lo;
  c->stack_hi = (uintptr_t)lo + ctx_stack_bytes;
}

/* A stack without a guard page of its own: a free slot, or the next slot of the newest
 * arena (a new arena when it is used up). Fills c like ctx_stack_acquire. */
static void ctx_arena_acquire(ctx *c)
{
  if (ctx_guard_auto && !ctx_arena_warned) {
    ctx_arena_warned = true;
    fprintf(stderr,
            "smpi: more than %zu actors alive: the stacks of further actors have no guard page "
            "of their own (guarded stacks cost 2 memory mappings each and vm.max_map_count is "
            "%ld), so a stack overflow there may corrupt another actor's stack instead of "
            "being reported; to guard every stack, raise the limit to 4 mappings per actor "
            "(e.g. sysctl -w vm.max_map_count=%ld for 131072 actors)\n",
            ctx_guard_budget, ctx_max_map_count, 4L * 131072);
  }
  char *lo;
  bool lowest = false;
  if (ctx_nfree) {
    uintptr_t f = ctx_free_slots[--ctx_nfree];
    lo = (char *)(f & ~CTX_SLOT_LOWEST);
    lowest = f & CTX_SLOT_LOWEST;
  } else {
    if (ctx_narenas == 0 || ctx_arena_next == ctx_arena_slots) {
      char *a = ctx_arena_map(c);
      if (mprotect(a, ctx_page, PROT_NONE) != 0)
        ctx_arena_failed(c, "mprotect", errno);
      ctx_arena_next = 0;
    }
    lowest = ctx_arena_next == 0;
    lo = ctx_arenas[ctx_narenas - 1] + ctx_page + ctx_arena_next++ * ctx_stack_bytes;
  }
  /* the lowest slot of an arena is the one stack there whose overflow faults */
  c->arena = true;
  c->map = lowest ? lo - ctx_page : lo;
  c->map_len = 0;
  c->stack_lo = (uintptr_t)lo;
  c->stack_hi = (uintptr_t)lo + ctx_stack_bytes;
}

static void ctx_stack_acquire(ctx *c)
{
  char *map;
  if (ctx_markers) {
    ctx_marked_acquire(c);
    goto registered;
  } else if (ctx_cache_n) {
    map = ctx_cache[--ctx_cache_n];
  } else if (ctx_guarded_n >= ctx_guard_budget) {
    ctx_arena_acquire(c);
    goto registered;
  } else {
    map = mmap(NULL, ctx_map_len, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED || mprotect(map, ctx_page, PROT_NONE) != 0) {
      /* Out of address space or of mappings: fatal like any out-of-memory. */
      fprintf(stderr,
              "smpi: cannot reserve a %zu KiB stack for actor '%s': %s\n"
              "smpi: each actor needs two memory mappings; check `ulimit -v` and the sysctl "
              "vm.max_map_count, or lower --cfg=contexts/stack-size\n",
              ctx_stack_bytes / 1024, c->name, strerror(errno));
      abort();
    }
    ctx_guarded_n++;
  }
  c->map = map;
  c->map_len = ctx_map_len;
  c->stack_lo = (uintptr_t)map + ctx_page;
  c->stack_hi = (uintptr_t)map + ctx_map_len;
registered:
#if defined(CTX_VALGRIND)
  c->valgrind_id = VALGRIND_STACK_REGISTER(c->stack_lo, c->stack_hi);
#endif
#if defined(CTX_ASAN)
  c->asan_bottom = (const void *)c->stack_lo;
  c->asan_size = ctx_stack_bytes;
#endif
}

static void ctx_stack_release(ctx *c)
{
#if defined(CTX_VALGRIND)
  VALGRIND_STACK_DEREGISTER(c->valgrind_id);
#endif
  if (c->arena && ctx_markers) {
    /* a few keep their pages (a stack cache without system calls), the others give them
     * back; the guard under the slot stays either way */
    if (ctx_cache_n < CTX_CACHE_MAX) {
      ctx_cache[ctx_cache_n++] = (char *)c->stack_lo;
    } else {
      madvise((void *)c->stack_lo, ctx_stack_bytes, MADV_DONTNEED);
      XGROW(ctx_free_slots, ctx_free_cap, ctx_nfree + 1);
      ctx_free_slots[ctx_nfree++] = c->stack_lo;
    }
  } else if (c->arena) {
    /* give the pages back (and hand the next actor a zeroed stack, as a fresh mmap would) */
    madvise((void *)c->stack_lo, ctx_stack_bytes, MADV_DONTNEED);
    XGROW(ctx_free_slots, ctx_free_cap, ctx_nfree + 1);
    ctx_free_slots[ctx_nfree++] = c->stack_lo |
                                  (c->map != (char *)c->stack_lo ? CTX_SLOT_LOWEST : 0);
  } else if (c->map_len == ctx_map_len && ctx_cache_n < CTX_CACHE_MAX) {
    ctx_cache[ctx_cache_n++] = c->map;
  } else {
    munmap(c->map, c->map_len);
    ctx_guarded_n--;
  }
  c->map = NULL;
}

/* ---------------------------------------------------------------------------------------
 * Contexts */

ctx *ctx_maestro(void) { return ctx_maestro_p; }

ctx *ctx_current(void) { return ctx_cur; }

ctx *ctx_create(ctx_fn fn, void *arg, const char *name)
{
  ASSERTF(ctx_ops_cur, "ctx_create() before ctx_factory_init()");
  ASSERT(fn != NULL);
  ctx *c = xcalloc(1, sizeof(ctx) + ctx_ops_cur->impl_size);
  c->fn = fn;
  c->arg = arg;
  c->name = xstrdup(name ? name : "(unnamed)");
  ctx_stack_acquire(c);
  uintptr_t window = c->stack_lo > CTX_OVERFLOW_WINDOW ? c->stack_lo - CTX_OVERFLOW_WINDOW : 0;
  c->window_lo = c->arena && ctx_markers ? (uintptr_t)c->map : window; /* the whole guard */
  ctx_ops_cur->prepare(c);
  /* Linked last: the signal handler may walk the list at any time, and the node's own
   * links are set before it becomes reachable. */
  list_insert_before(&ctx_live, &c->live);
  ctx_live_n++;
  return c;
}

void ctx_destroy(ctx *c)
{
  if (!c)
    return;
  ASSERTF(!c->maestro, "the maestro context is never destroyed");
  ASSERTF(c != ctx_cur, "actor '%s' cannot destroy its own running context", c->name);
  list_remove(&c->live);
  ctx_live_n--;
#if defined(CTX_ASAN)
  /* A context destroyed before its function returned (a killed actor) leaves the shadow
   * poisoning of its frames; the stack may be reused by another context, whose frames
   * would then trip over it (tests/fuzz/crashes/asan-killed-actor-stack-reuse.c). Only the
   * part it used is cleared, from where it last switched away (less a margin for the
   * factory's swap frames) to the top: clearing whole stacks would write, and commit, 1/8
   * of every stack's size in shadow memory (10 GB for test_lazy_stacks' 10 000 8 MiB
   * stacks). A finished context needs nothing: its functions returned, which unpoisoned
   * their frames, and the next context rebuilds the same top frames. */
  if (!c->finished && c->asan_low) {
    uintptr_t lo = ctx_used_lo(c, c->asan_low);
    __asan_unpoison_memory_region((void *)lo, c->stack_hi - lo);
  }
#endif
  ctx_stack_release(c);
  free(c->name);
  free(c);
}

/* Moves the CPU from `from` (the running context) to `to`. A finishing context never comes
 * back, which AddressSanitizer must be told so that it frees its fake stack. */
static inline void ctx_transfer(ctx *from, ctx *to, bool finishing)
{
  ASSERTF(!to->finished, "switching to context '%s', whose function has returned", to->name);
  ctx_cur = to;
  ctx_cur_window_lo = to->window_lo;
  ctx_cur_window_hi = to->stack_lo;
#if defined(CTX_ASAN)
  ctx_asan_from = from;
  from->asan_low = (uintptr_t)__builtin_frame_address(0);
  __sanitizer_start_switch_fiber(finishing ? NULL : &from->asan_fake_stack, to->asan_bottom,
                                 to->asan_size);
#else
  (void)finishing;
#endif
  ctx_ops_cur->swap(from, to);
#if defined(CTX_ASAN)
  __sanitizer_finish_switch_fiber(from->asan_fake_stack, &ctx_asan_from->asan_bottom,
                                  &ctx_asan_from->asan_size);
#endif
}

void ctx_switch(ctx *from, ctx *to)
{
  ASSERTF(from && from == ctx_cur, "ctx_switch() from '%s', but '%s' is the running context",
          from ? from->name : "(null)", ctx_cur ? ctx_cur->name : "(none)");
  ASSERT(to != NULL);
  if (from == to)
    return;
  ctx_transfer(from, to, false);
}

noreturn void ctx_body(ctx *c)
{
#if defined(CTX_ASAN)
  __sanitizer_finish_switch_fiber(NULL, &ctx_asan_from->asan_bottom, &ctx_asan_from->asan_size);
#endif
  c->fn(c->arg);
  ASSERTF(ctx_cur == c, "actor '%s' returned while '%s' is the running context", c->name,
          ctx_cur->name);
  c->finished = true;
  ctx_transfer(c, c->next ? c->next : ctx_maestro_p, true);
  UNREACHABLE();
}

void ctx_set_next(ctx *c, ctx *next)
{
  ASSERTF(!c->maestro, "the maestro has no function that returns");
  c->next = next;
}

/* A blocked context's frames run from its saved registers to its stack's top: the blocking
 * path (a few hundred bytes) under p, the program's own frames above it. With thousands of
 * contexts they have left the caches and the TLB by the time the context runs again, and
 * resuming it then costs a page walk and a dozen misses in series (each return needs the
 * frame above). A prefetch never faults, but one into a page with no mapping (another
 * stack's guard) costs a walk that stalls, so the range stays in p's page. */
void ctx_prefetch_frames(const void *p)
{
  uintptr_t a = (uintptr_t)p & ~(uintptr_t)63;
  uintptr_t end = (a | (ctx_page - 1)) + 1;
  if (end > a + 768)
    end = a + 768;
  for (uintptr_t q = a - 256; q < end; q += 64)
    __builtin_prefetch((const void *)q, 1, 3);
}

bool ctx_finished(const ctx *c) { return c->finished; }

const char *ctx_name(const ctx *c) { return c->name; }

void *ctx_arg(const ctx *c) { return c->arg; }
