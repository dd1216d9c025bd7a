/* Raw factory: contexts switched by ctx_raw_swap (context_raw_x86_64.S, where the diagram of
 * a context's saved frame is). Unavailable, i.e. ctx_raw_ops == NULL, off x86-64. */
#include "kernel/context_private.h"

#if defined(__x86_64__)

#include <string.h>

void ctx_raw_swap(void **from_sp, void *to_sp);
void ctx_raw_entry(void);

static void raw_prepare(ctx *c)
{
  /* stack_hi is page-aligned, so the 16 bytes of padding leave the 64-byte frame with a
   * 16-byte aligned top: rsp is 16-byte aligned when ctx_raw_entry starts. */
  uint64_t *frame = (uint64_t *)(c->stack_hi - 16 - 64);
  memset(frame, 0, 64 + 16);

  /* A new context starts with the creator's floating-point control state, as a thread
   * created by the creator would (and as glibc's makecontext does). */
  uint32_t mxcsr;
  uint16_t fpucw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(fpucw));
  memcpy((char *)frame, &mxcsr, sizeof mxcsr);
  memcpy((char *)frame + 4, &fpucw, sizeof fpucw);

  frame[3] = (uint64_t)(uintptr_t)&ctx_body;      /* r13 */
  frame[4] = (uint64_t)(uintptr_t)c;              /* r12 */
  frame[7] = (uint64_t)(uintptr_t)&ctx_raw_entry; /* return address */
  c->sp = frame;
}

static void raw_swap(ctx *from, ctx *to) { ctx_raw_swap(&from->sp, to->sp); }

static const ctx_ops raw_ops = {
    .name = "raw",
    .kind = CTX_FACTORY_RAW,
    .impl_size = 0,
    .prepare = raw_prepare,
    .swap = raw_swap,
};
const ctx_ops *const ctx_raw_ops = &raw_ops;

#else

const ctx_ops *const ctx_raw_ops = NULL;

#endif
