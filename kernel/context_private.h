/* Internals shared by the context front end (context.c) and the two factories
 * (context_raw.c, context_ucontext.c). Nothing outside kernel/context*.c includes this.
 *
 * context.c owns everything that does not depend on how registers are swapped: stacks and
 * their guard pages, the list of live contexts, the current context, the signal handler,
 * the "function returned" logic. A factory only knows how to
 *   - lay out a fresh context on its stack so that the first switch lands in ctx_body(),
 *   - swap the machine state of two contexts.
 * Factory-specific state lives in ctx.impl[] (ctx_ops.impl_size bytes), except the raw
 * factory's saved stack pointer, which is the first member of struct ctx so that the
 * assembly can address it as *(void **)c. */
#ifndef SMPI_KERNEL_CONTEXT_PRIVATE_H
#define SMPI_KERNEL_CONTEXT_PRIVATE_H

#include "kernel/context.h"
#include "src/list.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* Built with AddressSanitizer? GCC says so with __SANITIZE_ADDRESS__, clang 14 (Debian
 * bookworm's) only through __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
#define CTX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CTX_ASAN 1
#endif
#endif

struct ctx {
  void *sp; /* raw factory: stack pointer saved while the context is switched out */
  ctx_fn fn;
  void *arg;
  ctx *next; /* where control goes when fn returns; NULL = the maestro */
  char *name;
  bool finished;
  bool maestro;
  /* The stack: the guard [map, stack_lo) under the usable part [stack_lo, stack_hi). Zero
   * for the maestro (it runs on the thread's own stack). A stack with a mapping of its own
   * (fallback layout, see context.c) has map_len = the mapping's length. An arena slot has
   * map_len = 0 and, with guard markers, map = its own 64 KiB guard; without, map =
   * stack_lo (no guard) or the arena's guard page for its lowest slot. */
  char *map;
  size_t map_len;
  bool arena; /* the stack is a slot of a stack arena (freed to a list, not unmapped) */
  uintptr_t stack_lo;
  uintptr_t stack_hi;
  uintptr_t window_lo;  /* overflow window [window_lo, stack_lo), see context.c */
  unsigned valgrind_id; /* stack registration, when built with valgrind's header */
  list_node live; /* on ctx_live while created and not destroyed (signal handler walks it) */
#if defined(CTX_ASAN)
  void *asan_fake_stack;
  const void *asan_bottom;
  size_t asan_size;
  uintptr_t asan_low; /* frame address of ctx_transfer when the context last switched away */
#endif
  alignas(max_align_t) unsigned char impl[]; /* factory-specific, ops->impl_size bytes */
};

typedef struct ctx_ops {
  const char *name;
  ctx_factory_kind kind;
  size_t impl_size;
  /* Set up c (stack already mapped, fields filled) so that switching to it calls ctx_body(c). */
  void (*prepare)(ctx *c);
  /* Save the current machine state into from, resume to. */
  void (*swap)(ctx *from, ctx *to);
} ctx_ops;

/* NULL where the factory cannot run (raw on a machine other than x86-64). */
extern const ctx_ops *const ctx_raw_ops;
extern const ctx_ops ctx_ucontext_ops;

/* First C code a fresh context runs, on its own stack: calls fn(arg), marks the context
 * finished and switches to its next context. Never returns. */
noreturn void ctx_body(ctx *c);

#endif
