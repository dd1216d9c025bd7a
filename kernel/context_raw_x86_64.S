/* Raw context switch for x86-64 System V (GNU as, AT&T syntax).
 *
 * Only what the ABI says a callee must preserve is saved: rbx, rbp, r12-r15, the stack
 * pointer, the x87 control word and MXCSR (whole register: its control bits are what the ABI
 * asks for, its sticky exception flags come along). Everything else (rax, rcx, rdx, rsi,
 * rdi, r8-r11, xmm0-15, x87 status, rflags) is caller-saved, so the C caller of
 * ctx_raw_swap has already given up on it. The state lives on the stack being left; only
 * rsp is stored in the context (struct ctx's first member).
 *
 * Frame of a context that is switched out (also the frame that raw_prepare(), in
 * context_raw.c, builds for a fresh context, with the values given on the right):
 *
 *   higher addresses                                  fresh context
 *   stack_hi ->  +--------------------------------+
 *                | 16 bytes of padding            |  zero
 *                +--------------------------------+  <- rsp in ctx_raw_entry: 16-byte
 *   sp + 56      | return address                 |  ctx_raw_entry    aligned, so its `call`
 *   sp + 48      | rbp                            |  0                gives ctx_body the
 *   sp + 40      | rbx                            |  0                ABI's alignment
 *   sp + 32      | r12                            |  struct ctx * (argument of ctx_body)
 *   sp + 24      | r13                            |  &ctx_body
 *   sp + 16      | r14                            |  0
 *   sp +  8      | r15                            |  0
 *   sp +  0      | MXCSR (4) | x87 CW (2) | pad   |  the creator's MXCSR and x87 CW
 *   saved sp ->  +--------------------------------+
 *   lower addresses ... usable stack ... stack_lo, then the PROT_NONE guard page
 *
 * The switch pushes the six registers and the 8-byte control-word slot, stores rsp into
 * *from_sp, loads to's rsp and unwinds the same frame in reverse. A fresh context's `ret`
 * lands in ctx_raw_entry with r12 = the context and r13 = ctx_body; it calls ctx_body(r12),
 * which never returns (it switches away for good when the actor's function is done).
 * Passing ctx_body in a register keeps this file free of relocations.
 */
#if defined(__x86_64__)

        .text

/* void ctx_raw_swap(void **from_sp, void *to_sp) */
        .globl  ctx_raw_swap
        .hidden ctx_raw_swap
        .type   ctx_raw_swap, @function
        .p2align 4
ctx_raw_swap:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        /* From here on we are on the other context's stack. Its frame has the same shape,
         * so the CFI stays right: unwinding goes to where that context left off (or to
         * ctx_raw_entry, the outermost frame, for a fresh one). */
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %r15
        .cfi_adjust_cfa_offset -8
        popq    %r14
        .cfi_adjust_cfa_offset -8
        popq    %r13
        .cfi_adjust_cfa_offset -8
        popq    %r12
        .cfi_adjust_cfa_offset -8
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   ctx_raw_swap, .-ctx_raw_swap

/* First instructions of a fresh context, reached by ctx_raw_swap's `ret`. */
        .globl  ctx_raw_entry
        .hidden ctx_raw_entry
        .type   ctx_raw_entry, @function
        .p2align 4
ctx_raw_entry:
        .cfi_startproc
        /* Outermost frame: tell unwinders (gdb, backtrace()) to stop here. */
        .cfi_undefined rip
        xorl    %ebp, %ebp
        movq    %r12, %rdi
        call    *%r13
        ud2     /* ctx_body never returns */
        .cfi_endproc
        .size   ctx_raw_entry, .-ctx_raw_entry

        .section .note.GNU-stack,"",@progbits
#else
/* Other architectures: nothing to assemble, but still say the stack is not executable. */
        .section .note.GNU-stack,"",%progbits
#endif
