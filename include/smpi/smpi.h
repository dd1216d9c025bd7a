/* smpi.h: smpi's own extensions to MPI (simulation control, sampling, shared malloc).
 * Included by mpi.h; may also be included alone by code that only talks to the simulator. */
#ifndef SMPI_SMPI_H
#define SMPI_SMPI_H

/* SimGrid's header guard, which programs test to know that they run in a simulator
 * (`#ifdef SMPI_H`: skip the real computation, fold memory...): defined with the same meaning.
 * SMPI_NO_OVERRIDE_MALLOC, which such programs define to keep SimGrid's smpicc from redirecting
 * malloc, may be defined too: smpi never redirects malloc through this header (docs/porting.md). */
#ifndef SMPI_H
#define SMPI_H
#endif

#if defined(SMPI_BUILDING) && defined(__GNUC__)
#define SMPI_PUBLIC __attribute__((visibility("default")))
#else
#define SMPI_PUBLIC
#endif

#define SMPI_VERSION_MAJOR 0
#define SMPI_VERSION_MINOR 1
#define SMPI_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0": the version of the library actually linked. */
SMPI_PUBLIC const char *smpi_version_string(void);

/* ---- explicit computation (instead of, or on top of, the measured CPU bursts) ----
 * The calling rank computes on its simulated host and its simulated clock advances. */
/* flops on the rank's host: takes flops / (host speed) seconds when the host is idle */
SMPI_PUBLIC void smpi_execute_flops(double flops);
/* the same (SimGrid 3.32's name for it: the computation measured so far ends first, which
 * every call of ours does) */
SMPI_PUBLIC void smpi_execute_flops_benched(double flops);
/* seconds measured on the machine running the simulation, as in SimGrid 3.32: seconds x
 * smpi/host-speed flops, like a measured CPU burst; nothing when seconds <
 * smpi/cpu-threshold (a negative threshold drops nothing here) */
SMPI_PUBLIC void smpi_execute(double seconds);
/* seconds of the simulated host's time (seconds x its speed flops) */
SMPI_PUBLIC void smpi_execute_benched(double seconds);

#ifdef __cplusplus
}
#endif
/* ==== Memory folding and shared calls (smpi/emulation/shared_malloc.c; guide: docs/emulation.md) ====
 *
 * SMPI_SHARED_MALLOC(size): memory whose content does not matter to the simulation (a
 *   matrix only computed on) folded onto one small physical block shared by all ranks
 *   (smpi/shared-malloc:global, block smpi/shared-malloc-blocksize), one buffer per call site
 *   (:local), or plain malloc (:no). Writes through one address show at others: the values
 *   are garbage by design. Returns NULL, after printing why, when the system limits it.
 * SMPI_PARTIAL_SHARED_MALLOC(size, offsets, n): offsets holds n pairs start,end (end
 *   excluded, bytes from the start): those ranges are folded, the rest is private memory;
 *   e.g. offsets = {27,42, 100,200}, n = 2 folds [27,42) and [100,200) (whole pages only:
 *   a page partly outside a range stays private).
 * SMPI_SHARED_FREE(ptr): releases either kind (and plain malloc'ed memory, with free).
 * SMPI_SHARED_CALL(func, input, args...): the first call with this (func, input) anywhere
 *   in the job evaluates func(args...), which must return a pointer, and records it; later
 *   calls, from any rank, return the recorded pointer without calling func. input is a
 *   string naming the arguments' values. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

SMPI_PUBLIC void *smpi_shared_malloc(size_t size, const char *file, int line);
SMPI_PUBLIC void *smpi_shared_malloc_partial(size_t size, const size_t *shared_block_offsets,
                                             int nb_shared_blocks);
SMPI_PUBLIC void smpi_shared_free(void *ptr);
SMPI_PUBLIC int smpi_shared_known_call(const char *func, const char *input);
SMPI_PUBLIC void *smpi_shared_get_call(const char *func, const char *input);
SMPI_PUBLIC void *smpi_shared_set_call(const char *func, const char *input, void *data);

#ifdef __cplusplus
}
#endif

#define SMPI_SHARED_MALLOC(size) smpi_shared_malloc((size), __FILE__, __LINE__)
#define SMPI_PARTIAL_SHARED_MALLOC(size, shared_block_offsets, nb_shared_blocks) \
  smpi_shared_malloc_partial((size), (shared_block_offsets), (nb_shared_blocks))
#define SMPI_SHARED_FREE(ptr) smpi_shared_free(ptr)
#define SMPI_SHARED_CALL(func, input, ...)    \
  (smpi_shared_known_call(#func, (input))     \
       ? smpi_shared_get_call(#func, (input)) \
       : smpi_shared_set_call(#func, (input), (func)(__VA_ARGS__)))
/* ==== end of memory folding ==== */

/* ==== CPU sampling and compute variability (smpi/emulation/sample.c; guide: docs/emulation.md) ====
 *
 * Block form (the SMPI paper's):
 *   SMPI_SAMPLE_LOCAL(n) { ... }    the first n executions of the block by each rank run and
 *                                   are timed; later ones are skipped and their cost injected
 *   SMPI_SAMPLE_GLOBAL(n) { ... }   same, n executions in total over all ranks
 *   SMPI_SAMPLE_LOCAL(n, threshold) (and _GLOBAL) stop sampling early, after 2 samples or more,
 *                                   once the relative standard error of the mean is below
 *                                   threshold
 * Loop form (SimGrid 3.32's), one sample = one iteration:
 *   SMPI_SAMPLE_LOCAL(init, cond, inc, iters, threshold) { body }
 *     is `for (init; cond; inc) { body }` where only the first iters iterations (per rank;
 *     over all ranks for _GLOBAL, counted over every execution of the loop) run, fewer if the
 *     relative standard error falls below threshold first; then the loop ends early and the
 *     estimated cost of the iterations left is injected. init, cond and inc are evaluated
 *     once more beforehand, to count the iterations: they must have no other side effects.
 *   SMPI_SAMPLE_LOCAL_TAG / SMPI_SAMPLE_GLOBAL_TAG(init, cond, inc, iters, threshold, tag)
 *     the same; tag (a string) only names the sample in messages.
 * SMPI_SAMPLE_DELAY(seconds) { ... } / SMPI_SAMPLE_FLOPS(flops) { ... }: the block never
 *   runs; the rank computes smpi_execute(seconds) (seconds of the machine running the
 *   simulation, as SimGrid 3.32 reads them) / flops on its host instead.
 * Blocks must not call MPI nor leave by break, goto or return. Each use is a distinct sample,
 * even several on one source line. Options: smpi/sample-mode, smpi/seed,
 * smpi/compute-noise, smpi/sample-file. */
#ifdef __cplusplus
extern "C" {
#endif

/* State of one execution of a sampling macro: lives in the macro's for statement. */
typedef struct smpi_sample_state {
  void *site;
  int phase;
  int run;
  long total; /* loop form: iterations counted */
  long done;  /* loop form: iterations gone through */
} smpi_sample_state;

SMPI_PUBLIC smpi_sample_state smpi_sample_block_begin(const char *key, int global, long n,
                                                      double threshold);
SMPI_PUBLIC int smpi_sample_block_next(smpi_sample_state *s);
SMPI_PUBLIC smpi_sample_state smpi_sample_loop_begin(const char *key, int global, long iters,
                                                     double threshold, const char *tag);
SMPI_PUBLIC int smpi_sample_loop_pass(smpi_sample_state *s);
SMPI_PUBLIC int smpi_sample_loop_cond(smpi_sample_state *s, int cond);
SMPI_PUBLIC void smpi_sample_delay(double seconds);
SMPI_PUBLIC void smpi_sample_flops(double flops);

#ifdef __cplusplus
}
#endif

#define SMPI__SAMPLE_STR_(x) #x
#define SMPI__SAMPLE_STR(x) SMPI__SAMPLE_STR_(x)
#define SMPI__SAMPLE_CAT_(a, b) a##b
#define SMPI__SAMPLE_CAT(a, b) SMPI__SAMPLE_CAT_(a, b)
#ifdef __COUNTER__
#define SMPI__SAMPLE_ID __COUNTER__
#else
#define SMPI__SAMPLE_ID 0
#endif
/* "file:line:id": unique per use, stable from one run of a binary to the next */
#define SMPI__SAMPLE_KEY(id) __FILE__ ":" SMPI__SAMPLE_STR(__LINE__) ":" SMPI__SAMPLE_STR(id)
#define SMPI__SAMPLE_NARG(...) SMPI__SAMPLE_NARG_(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define SMPI__SAMPLE_NARG_(a, b, c, d, e, f, N, ...) N

#define SMPI__SAMPLE_BLOCK(id, global, n, thres)                                  \
  for (smpi_sample_state SMPI__SAMPLE_CAT(smpi__sample_, id) =                    \
           smpi_sample_block_begin(SMPI__SAMPLE_KEY(id), (global), (n), (thres)); \
       smpi_sample_block_next(&SMPI__SAMPLE_CAT(smpi__sample_, id));)
/* pass 0 counts the iterations (the body is the empty if branch), pass 1 runs them */
#define SMPI__SAMPLE_LOOP(id, global, init, cond, inc, iters, thres, tag)                   \
  for (smpi_sample_state SMPI__SAMPLE_CAT(smpi__sample_, id) =                              \
           smpi_sample_loop_begin(SMPI__SAMPLE_KEY(id), (global), (iters), (thres), (tag)); \
       smpi_sample_loop_pass(&SMPI__SAMPLE_CAT(smpi__sample_, id));)                        \
    for (init; smpi_sample_loop_cond(&SMPI__SAMPLE_CAT(smpi__sample_, id), (cond) ? 1 : 0); \
         (void)(inc))                                                                       \
      if (SMPI__SAMPLE_CAT(smpi__sample_, id).phase == 0) {                                 \
      } else

#define SMPI__SAMPLE_1(id, g, n) SMPI__SAMPLE_BLOCK(id, g, n, 0.0)
#define SMPI__SAMPLE_2(id, g, n, thres) SMPI__SAMPLE_BLOCK(id, g, n, thres)
#define SMPI__SAMPLE_5(id, g, init, cond, inc, iters, thres) \
  SMPI__SAMPLE_LOOP(id, g, init, cond, inc, iters, thres, "")
#define SMPI__SAMPLE_6(id, g, init, cond, inc, iters, thres, tag) \
  SMPI__SAMPLE_LOOP(id, g, init, cond, inc, iters, thres, tag)
#define SMPI__SAMPLE_DISPATCH(id, g, nargs, ...) \
  SMPI__SAMPLE_CAT(SMPI__SAMPLE_, nargs)(id, g, __VA_ARGS__)

#define SMPI_SAMPLE_LOCAL(...) \
  SMPI__SAMPLE_DISPATCH(SMPI__SAMPLE_ID, 0, SMPI__SAMPLE_NARG(__VA_ARGS__), __VA_ARGS__)
#define SMPI_SAMPLE_GLOBAL(...) \
  SMPI__SAMPLE_DISPATCH(SMPI__SAMPLE_ID, 1, SMPI__SAMPLE_NARG(__VA_ARGS__), __VA_ARGS__)
#define SMPI_SAMPLE_LOCAL_TAG(init, cond, inc, iters, thres, tag) \
  SMPI__SAMPLE_LOOP(SMPI__SAMPLE_ID, 0, init, cond, inc, iters, thres, tag)
#define SMPI_SAMPLE_GLOBAL_TAG(init, cond, inc, iters, thres, tag) \
  SMPI__SAMPLE_LOOP(SMPI__SAMPLE_ID, 1, init, cond, inc, iters, thres, tag)
#define SMPI_SAMPLE_DELAY(seconds) for (smpi_sample_delay(seconds); 0;)
#define SMPI_SAMPLE_FLOPS(flops) for (smpi_sample_flops(flops); 0;)
/* ==== end of CPU sampling ==== */

#endif /* SMPI_SMPI_H */
