/* smpi.h: smpi's own extensions to MPI (simulation control, sampling, shared malloc).
 * Included by mpi.h; may also be included alone by code that only talks to the simulator. */
#ifndef SMPI_SMPI_H
#define SMPI_SMPI_H

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
/* seconds of the simulated host's time */
SMPI_PUBLIC void smpi_execute(double seconds);
/* seconds measured on the machine running the simulation (scaled by smpi/host-speed,
 * exactly as a measured CPU burst would be) */
SMPI_PUBLIC void smpi_execute_benched(double seconds);

#ifdef __cplusplus
}
#endif
/* ==== Memory folding and shared calls (smpi/shared_malloc.c; guide: docs/emulation.md) ====
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
#define SMPI_SHARED_CALL(func, input, ...)                                    \
  (smpi_shared_known_call(#func, (input)) ? smpi_shared_get_call(#func, (input)) \
                                          : smpi_shared_set_call(#func, (input), (func)(__VA_ARGS__)))
/* ==== end of memory folding ==== */

#endif /* SMPI_SMPI_H */
