/* Reproducer (not built by meson): a false AddressSanitizer report after an actor is
 * destroyed while suspended and its stack is reused (kernel/context.c, see
 * docs/robustness.md). Actor A stops 100 frames deep and is destroyed; the redzones of
 * those frames stay poisoned in ASan's shadow; actor B gets the same stack from the cache
 * and an uninstrumented function (standing for libc or an MPI program built without ASan)
 * fills a buffer there through an intercepted memset: ASan reports a stack-buffer-overflow
 * (GCC's libasan may instead fail its own CHECK while describing the stale frame).
 *
 * From the top of the source tree, with an ASan build of it in build-asan:
 *
 *   gcc -fsanitize=address,undefined -g -O1 -I. -D_GNU_SOURCE \
 *     tests/fuzz/crashes/asan-killed-actor-stack-reuse.c build-asan/libsmpi_internal.a \
 *     -lglpk -lxml2 -lm -o /tmp/reuse && /tmp/reuse raw    # or: /tmp/reuse ucontext
 *
 * Prints "done" once kernel/context.c clears the used part of a destroyed, unfinished
 * context's stack (asan-context-fix.patch next to this file). */
#include "kernel/context.h"
#include <stdio.h>
#include <string.h>
static void *(*volatile memset_p)(void *, int, size_t) = memset;
/* like libc or an uninstrumented MPI program: writes its own stack through an intercepted call */
__attribute__((no_sanitize_address, noinline)) static void uninstrumented_fill(void)
{
  char big[16384];
  memset_p(big, 1, sizeof big);
  __asm__ volatile("" : : "r"(big) : "memory");
}
static void deep(int d)
{
  volatile char arr[64];
  arr[0] = (char)d;
  if (d < 100)
    deep(d + 1);
  else
    ctx_switch(ctx_current(), ctx_maestro());
  (void)arr[0];
}
static void fa(void *arg) { (void)arg; deep(0); }
static void fb(void *arg) { (void)arg; uninstrumented_fill(); }
int main(int argc, char **argv)
{
  char err[256];
  if (ctx_factory_init(argc > 1 ? argv[1] : "raw", 0, err, sizeof err)) { puts(err); return 1; }
  ctx *a = ctx_create(fa, NULL, "A");
  ctx_switch(ctx_maestro(), a);
  ctx_destroy(a);
  ctx *b = ctx_create(fb, NULL, "B");
  ctx_switch(ctx_maestro(), b);
  ctx_destroy(b);
  puts("done");
  return 0;
}
