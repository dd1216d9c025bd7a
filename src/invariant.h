/* Always-on invariant checks (never compiled out: a simulator that silently continues from a
 * broken invariant produces wrong numbers, which is worse than stopping).
 *
 *   ASSERT(cond)                 abort with file:line and the condition text
 *   ASSERTF(cond, fmt, ...)      the same with an explanation
 *   DIE(fmt, ...)                unconditional abort with file:line
 *   UNREACHABLE()                marks code that must never run
 *
 * These are for broken invariants only (tier 3). User mistakes and environment failures are
 * reported through return codes and error messages, never through these macros. */
#ifndef SMPI_SRC_INVARIANT_H
#define SMPI_SRC_INVARIANT_H

#include <stdnoreturn.h>

noreturn void inv_fail(const char *file, int line, const char *func, const char *cond,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6), cold));

#define ASSERT(cond) \
  (__builtin_expect(!!(cond), 1) ? (void)0 : inv_fail(__FILE__, __LINE__, __func__, #cond, NULL))
#define ASSERTF(cond, ...)                 \
  (__builtin_expect(!!(cond), 1) ? (void)0 \
                                 : inv_fail(__FILE__, __LINE__, __func__, #cond, __VA_ARGS__))
#define DIE(...) inv_fail(__FILE__, __LINE__, __func__, NULL, __VA_ARGS__)
#define UNREACHABLE() inv_fail(__FILE__, __LINE__, __func__, "unreachable code", NULL)

#endif
