/* Payload copies and reductions of one simulation, and the CPU floor they imply.
 *
 * Copies: every byte of message data, datatype pack/unpack, collective or one-sided buffer
 * and file data that the MPI layer moves with memcpy.
 *
 *   MPI_Send(1 MiB) detached, receive not yet posted:   sender -> bounce -> receiver: 2 MiB
 *   MPI_Send(1 MiB) detached, receive already posted:   sender -> receiver:           1 MiB
 *   MPI_Send(1 MiB) rendezvous:                         sender -> receiver:           1 MiB
 *
 * Reductions: every byte a predefined MPI_Op combines (inout = in op inout: the bytes of
 * inout), in collectives, MPI_Reduce_local and accumulates.
 *
 * smpi/display-timing prints, after the simulated time:
 *
 *   smpi: bytes copied: 3145728 in 3 copies (floor 0.000214 s at 14.7 GB/s memcpy)
 *   smpi: bytes reduced: 2097152 in 4 reductions
 *   smpi: payload floor: 0.053825 s = program 0.050000 s + copies 0.000926 s at 3.4 GB/s
 *         + reductions 0.001261 s at 1.7 GB/s (working set 6 MiB)
 *         + first touches 0.001638 s (1024 pages at 1.60 us)
 *
 * (the last one on one line). The first line's floor is the copies alone at the cache-hot
 * rate (8 MiB copies; the figure issue 27 started from, kept so that both can be compared).
 * The payload floor is the least CPU time any simulator running this program spends:
 *
 *   program     CPU time of the ranks' own code between MPI calls (the measured bursts,
 *               smpi/simulate-computation; "not measured" without it), the injected
 *               ones and those under smpi/cpu-threshold (a polling loop's kernels; bursts
 *               after clock polls counted from a sample, emulation/burst.c)
 *   copies      bytes copied / memcpy rate at the run's working set
 *   reductions  bytes reduced / reduction rate (sum of doubles) at the run's working set
 *   working set min(peak RSS of the process, 2 x (bytes copied + bytes reduced)): the memory
 *               the copies can have touched; the rates are those measured with the smallest
 *               working set at least as large (a curve of 4 MiB .. 512 MiB, copies.c), or
 *               the run's own where its large copies (into resident pages) or reductions,
 *               timed, went faster (16 MiB timed at least; the line "timed in the run")
 *   first       pages of the program's receive buffers that a received payload wrote first
 *   touches     (not resident just before the copy: mincore), at the cost of a first touch
 *               measured on this host (a fresh page faulted in by memcpy, copies.c): a
 *               program that receives into memory it never wrote makes any MPI take these
 *               faults. The simulator's own scratch buffers are not the program's and are
 *               not counted (their faults are overhead, above the floor).
 *
 * Bytes of folded memory (SMPI_SHARED_MALLOC) are not moved and not counted. */
#ifndef SMPI_RUNTIME_COPIES_H
#define SMPI_RUNTIME_COPIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct smpi_copy_stats {
  unsigned long long bytes;            /* payload bytes moved with memcpy */
  unsigned long long copies;           /* calls that moved at least one byte */
  unsigned long long reduced;          /* bytes combined by predefined ops */
  unsigned long long reductions;       /* op applications that combined at least one byte */
  unsigned long long touched;          /* first touches: program pages a receive wrote first */
  unsigned long long residency_checks; /* mincore scans (copies.c spares those it can) */
  /* smpi/display-timing: copies of at least SMPI_COPY_TIMED_MIN bytes into resident pages,
   * and reductions as large, timed in the run (their rates check the curve's) */
  unsigned long long timed_copied, timed_reduced; /* bytes */
  double copy_s, reduce_s;                        /* seconds they took */
  /* smpi/display-timing: first touches that smpi_copy_prefault populated, and the thread CPU
   * time of those populate calls (the floor charges them at that time, copies.c) */
  unsigned long long populated;
  double populate_s;
  bool watch;     /* smpi/display-timing: count first touches (one mincore per receive of
                 SMPI_TOUCH_MIN bytes or more) and time the large copies and reductions */
  bool huge_heap; /* the program's heap is advised huge pages (smpi/huge-heap): first
                     touches there may cost the huge-page rate */
} smpi_copy_stats;

#define SMPI_COPY_TIMED_MIN ((size_t)256 << 10)

extern smpi_copy_stats smpi_copies;

/* n payload bytes were just copied (one copy, however many runs it had) */
static inline void smpi_copy_note(size_t n)
{
  if (n > 0) {
    smpi_copies.bytes += n;
    smpi_copies.copies++;
  }
}

/* n bytes were just combined by a predefined op */
static inline void smpi_reduce_note(size_t n)
{
  if (n > 0) {
    smpi_copies.reduced += n;
    smpi_copies.reductions++;
  }
}

/* With smpi/display-timing, a copy of n bytes into dst that is timed (large, and every page
 * of dst resident: a first touch would time the fault, not the copy) */
bool smpi_copy_timed(const void *dst, size_t n);
double smpi_copy_clock(void); /* the thread's CPU seconds */

static inline void smpi_copy_timed_note(size_t n, double seconds)
{
  smpi_copies.timed_copied += n;
  smpi_copies.copy_s += seconds;
}

static inline void smpi_reduce_timed_note(size_t n, double seconds)
{
  smpi_copies.timed_reduced += n;
  smpi_copies.reduce_s += seconds;
}

/* A payload of n bytes is about to be copied into the program's memory at dst (a receive
 * buffer, contiguous, not folded): count its pages that are not resident yet. Call it only
 * when smpi_copies.watch is set, and only for payloads of SMPI_TOUCH_MIN bytes or more: the
 * check is a system call (mincore), and one per small message made a 256-rank stencil of
 * 512-byte halos 10 % slower with display-timing on. What a smaller receive faults in first
 * (two pages at most each) is left out: the floor stays below the cost. */
#define SMPI_TOUCH_MIN 4096
void smpi_first_touch_note(const void *dst, size_t n);

/* A copy of n bytes is about to land at dst: where a good part of dst's pages is not
 * resident yet (a buffer the program never wrote), fault them in with one system call
 * (MADV_POPULATE_WRITE) rather than one trap per page inside memcpy. The bytes are the same
 * and so are the pages; the cost is not: on this VM a trap costs ~0.6 us more per page than
 * the same page populated (copies.c). Copies of SMPI_PREFAULT_MIN bytes or more only (four
 * pages: an Alltoall's 16 KiB blocks at 64 ranks). Ranges copied into are remembered
 * (copies.c: up to 4 096, sorted, merged), so that a reused buffer costs no mincore per
 * message, neither here nor in smpi_first_touch_note and smpi_copy_timed. */
#define SMPI_PREFAULT_MIN ((size_t)16 << 10)
void smpi_copy_prefault(void *dst, size_t n);

/* Seconds a first touch adds to a copy, per 4 KiB page: configured (> 0,
 * smpi/first-touch-cost), or measured on the first run on this host and cached in
 * ~/.cache/smpi/first-touch (copies.c says how). */
double smpi_first_touch_cost(double configured);

/* This machine's cache-hot memcpy bandwidth in bytes/s: configured (> 0,
 * smpi/memcpy-bandwidth), or the best of five copies of 8 MiB, measured on the first run on
 * this host and cached in ~/.cache/smpi/memcpy-bandwidth (copies.c says why 8 MiB). */
double smpi_memcpy_bandwidth(double configured);

/* Copy and reduction rates (bytes/s) for a run whose payload touches working_set bytes:
 * from the curve measured on the first run on this host and cached in
 * ~/.cache/smpi/memcpy-rates; a configured rate (> 0) replaces the curve's. */
typedef struct smpi_floor_rates {
  double copy, reduce;
} smpi_floor_rates;
smpi_floor_rates smpi_floor_rates_for(double working_set, double copy_configured,
                                      double reduce_configured);

/* The display-timing lines above, on f. program: the ranks' measured CPU seconds, < 0 when
 * not measured. Rates configured in bytes/s, the first-touch cost in s per page (0:
 * measured). */
void smpi_copies_report(FILE *f, double copy_configured, double reduce_configured,
                        double touch_configured, double program);

#endif
