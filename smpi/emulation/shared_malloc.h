/* Memory folding (SMPI_SHARED_MALLOC & co.), internal side: configuration, the lookup from
 * an address to the folded allocation holding it, and the "shared-aware" copy the message
 * layer uses so that payloads lying in folded memory are not copied.
 *
 * The public entry points (smpi_shared_malloc, smpi_shared_malloc_partial, smpi_shared_free,
 * smpi_shared_*_call) are declared in include/smpi/smpi.h. See smpi/emulation/shared_malloc.c for the
 * mapping diagram and docs/emulation.md for the user's view. */
#ifndef SMPI_SMPI_SHARED_MALLOC_H
#define SMPI_SMPI_SHARED_MALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Declares smpi/shared-malloc, smpi/shared-malloc-blocksize, smpi/shared-malloc-hugepage
 * (idempotent). Must run before the command line is parsed: smpi_declare_config calls it. */
void smpi_shared_declare_config(void);

/* Reads the configuration and checks it against the system (the hugepage path must be a
 * mounted hugetlbfs, the block size a multiple of the page size). Idempotent; called lazily by
 * the first allocation, and by the runtime at start-up so that a bad option is reported before
 * any rank runs. Returns 0, or -1 with a message saying how to fix it. */
int smpi_shared_init(char *err, size_t errlen);

/* The allocation itself, with its error: `site` is "file:line" (used by :local), `offsets`
 * the 2*nblocks [start, end) byte ranges that are shared (NULL: all of it). On failure *out is
 * NULL and err says why and what to do. */
int smpi_shared_alloc(size_t size, const char *site, const size_t *offsets, int nblocks,
                      void **out, char *err, size_t errlen);

/* Whether any byte of [buf, buf + len) lies in folded memory. O(log allocations); O(1) when
 * nothing is folded. */
bool smpi_shared_touches(const void *buf, size_t len);

/* memcpy(dst, src, len), except that bytes which are folded on either side are not copied
 * (a folded byte holds no meaningful data, and writing into one would clobber the block all
 * ranks share). What the point-to-point layer uses to move payloads. Falls back to one memcpy
 * when neither buffer touches folded memory. Returns the bytes really copied. */
size_t smpi_shared_aware_copy(void *dst, const void *src, size_t len);

/* Whether p is the start of a live folded allocation; if so, *size is what was asked for.
 * O(1) when nothing is folded. */
bool smpi_shared_block(const void *p, size_t *size);

/* Whether every byte of [buf, buf + len) lies in folded memory (false for len 0). */
bool smpi_shared_all_folded(const void *buf, size_t len);

/* Folded scratch memory of at least `bytes` bytes, for data that is known to be meaningless
 * (a collective's intermediate results on a rank whose contribution is folded, see
 * docs/emulation.md, "Collectives on folded data"): every caller may get the same region, so
 * it must never hold anything the program relies on (pointers, counts). Valid until
 * smpi_shared_reset; not to be freed. NULL when memory is not folded
 * (smpi/shared-malloc:no) or the mapping failed: the caller uses private memory. */
void *smpi_shared_scratch(size_t bytes);

/* The private (not folded) byte runs of [buf, buf + len), as offsets from buf, in increasing
 * order, adjacent runs merged. Fills at most max entries of out and returns the total number
 * of runs (so a caller can size its array with a first call with max = 0). */
typedef struct smpi_byte_range {
  size_t off;
  size_t len;
} smpi_byte_range;
size_t smpi_shared_private_ranges(const void *buf, size_t len, smpi_byte_range *out, size_t max);

/* Accounting, for tests, benchmarks and the end-of-run summary. */
typedef struct smpi_shared_stats {
  size_t allocations;    /* live folded allocations (malloc'ed ones in mode :no excluded) */
  size_t mappings;       /* memory mappings they cost (each one a line of /proc/self/maps) */
  size_t virtual_bytes;  /* address space they cover */
  size_t physical_bytes; /* memory the backing blocks really hold (fstat st_blocks) */
  size_t block_size;     /* smpi/shared-malloc-blocksize as used (rounded to huge pages) */
  size_t largest_block;  /* bytes of the block file: the largest chunk mapped (budget) */
} smpi_shared_stats;
void smpi_shared_get_stats(smpi_shared_stats *out);
/* Tests: count against a vm.max_map_count of n instead of the kernel's (n <= 0: the kernel's
 * again), to reach the limit without using up the process's mappings. */
void smpi_shared_set_max_map_count(long n);
/* Tests: act as if folded memory were backed by pages of g bytes (a huge page size) while the
 * block stays in ordinary pages, so that the huge-page layout (whole granules folded, private
 * bytes at ordinary pages) is checked on machines without huge pages; 0: the real page size.
 * Resets the module (smpi_shared_reset). */
void smpi_shared_test_granularity(size_t g);

/* Forgets the configuration and the backing blocks so that the next allocation reads the
 * options again. Only with no live allocation (tests). Shared-call results are kept. */
void smpi_shared_reset(void);

#endif
