/* Execution contexts: user-level threads on which simulated actors (MPI ranks) run.
 *
 * One context runs at a time. The maestro (the engine's main loop) is the context of the
 * thread that called ctx_factory_init(); every other context has its own stack with a guard
 * below it (a guard marker in a shared arena on Linux >= 6.13, else a PROT_NONE page: see
 * context.c). Control moves only by explicit ctx_switch(from, to): the
 * scheduler may hand control from one actor straight to the next without passing through
 * the maestro.
 *
 * Factories ("contexts/factory"): "raw" (hand-written x86-64 switch saving only the
 * callee-saved registers; default on x86-64) and "ucontext" (portable, libc's swapcontext).
 *
 * When a context's function returns, the context is finished: control goes to the context
 * set with ctx_set_next() (the maestro by default) and the context must not be switched to
 * again; ctx_destroy() it.
 *
 * Stack overflow: a fault in a guard page, or an access near the stack pointer of an actor
 * whose stack pointer went under its stack (a frame bigger than the guard, such as a 64 MiB
 * local array), is caught on an alternate signal stack and the process exits with status 139
 * after printing, on stderr:
 *   smpi: stack overflow in actor 'rank 3' (stack: 128 KiB); raise it, e.g. --cfg=contexts/stack-size:512
 *   (the suggestion is four times the current size, or room for twice the frame's depth)
 * Other fatal signals (SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT) raised while an actor runs go
 * to the crash hook (the MPI layer names the rank, host and simulated time there), then the
 * process dies with the signal's default action. */
#ifndef SMPI_KERNEL_CONTEXT_H
#define SMPI_KERNEL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ctx ctx;
typedef void (*ctx_fn)(void *arg);
/* Called from the signal handler (async-signal-safe code only: no malloc, no stdio, no
 * ASSERT) with the faulting context (NULL when the maestro faulted), the signal number and
 * the faulting address (si_addr: the memory accessed for SIGSEGV/SIGBUS). The hook may read
 * corrupted state: a fault inside it comes back to the handler, which then prints a plain
 * line instead and ends the process with the first signal. */
typedef void (*ctx_crash_hook)(ctx *c, int sig, const void *addr, void *data);

typedef enum { CTX_FACTORY_RAW, CTX_FACTORY_UCONTEXT } ctx_factory_kind;

/* Reads contexts/factory and contexts/stack-size (KiB) unless overridden by arguments:
 * factory NULL = from config; stack_kib 0 = from config. Returns 0, or -1 with err filled
 * (unknown factory, raw not available on this architecture, bad size). Installs the
 * signal handlers. May be called again after ctx_factory_shutdown(). */
int ctx_factory_init(const char *factory, size_t stack_kib, char *err, size_t errlen);
void ctx_factory_shutdown(void);
ctx_factory_kind ctx_factory_current(void);
const char *ctx_factory_name(void);
size_t ctx_stack_size(void); /* bytes, usable part (guard page excluded) */
/* guard markers installed so far, in slots (0 without markers): tests/check_context.c */
size_t ctx_guarded_slots(void);

/* Declares "contexts/factory", "contexts/stack-size", "contexts/guard-stacks" and
 * "contexts/guard-markers"; called by ctx_factory_init too. */
void ctx_declare_config(void);

ctx *ctx_maestro(void);
ctx *ctx_current(void);
/* name is copied; it is what the overflow message prints ("rank 3") */
ctx *ctx_create(ctx_fn fn, void *arg, const char *name);
void ctx_destroy(ctx *c);             /* not the current one; the maestro is never destroyed */
void ctx_switch(ctx *from, ctx *to);  /* from must be the current context */
void ctx_set_next(ctx *c, ctx *next); /* where control goes when c's function returns */
bool ctx_finished(const ctx *c);
/* Hint that the switched-out context whose frames hold p (an address a little above its
 * saved stack pointer) will run soon: starts loading those frames into the cache, without
 * faulting and without leaving p's page (the next page up may be another stack's guard). */
void ctx_prefetch_frames(const void *p);
const char *ctx_name(const ctx *c);
void *ctx_arg(const ctx *c);

void ctx_set_crash_hook(ctx_crash_hook hook, void *data);
/* For the crash hook: runs fn(arg), and returns false instead of giving up the report if it
 * faults (it read corrupted memory); true when it returned. Outside the handler it just
 * calls fn. */
bool ctx_crash_probe(void (*fn)(void *arg), void *arg);

#endif
