/* ucontext factory: the portable one, built on getcontext/makecontext/swapcontext. Slower
 * than raw mostly because glibc's swapcontext also saves and restores the signal mask (one
 * system call per switch) and the whole FPU environment. */
#include "kernel/context_private.h"

#include "src/invariant.h"

#include <errno.h>
#include <string.h>
#include <ucontext.h>

static ucontext_t *uc_of(ctx *c) { return (ucontext_t *)(void *)c->impl; }

/* makecontext passes only int arguments: the context pointer travels in two halves. */
/* Not instrumented: ASan would call __asan_handle_no_return before the call to the noreturn
 * ctx_body, i.e. on the new stack before ctx_body has told ASan about it (a warning, "false
 * positive error reports may follow"); this function has no local data to check anyway. */
__attribute__((no_sanitize_address)) static void uc_entry(unsigned int lo, unsigned int hi)
{
  uintptr_t p = (uintptr_t)(((uint64_t)hi << 32) | (uint64_t)lo);
  ctx_body((ctx *)p);
}

static void uc_prepare(ctx *c)
{
  ucontext_t *uc = uc_of(c);
  ASSERTF(getcontext(uc) == 0, "getcontext: %s", strerror(errno));
  uc->uc_stack.ss_sp = (void *)c->stack_lo;
  uc->uc_stack.ss_size = c->stack_hi - c->stack_lo;
  uc->uc_stack.ss_flags = 0;
  uc->uc_link = NULL; /* ctx_body never returns */
  uint64_t p = (uint64_t)(uintptr_t)c;
  makecontext(uc, (void (*)(void))uc_entry, 2, (unsigned int)(p & 0xffffffffu),
              (unsigned int)(p >> 32));
}

static void uc_swap(ctx *from, ctx *to)
{
  ASSERTF(swapcontext(uc_of(from), uc_of(to)) == 0, "swapcontext: %s", strerror(errno));
}

const ctx_ops ctx_ucontext_ops = {
    .name = "ucontext",
    .kind = CTX_FACTORY_UCONTEXT,
    .impl_size = sizeof(ucontext_t),
    .prepare = uc_prepare,
    .swap = uc_swap,
};
