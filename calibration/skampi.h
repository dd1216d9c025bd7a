/* Reader for SKaMPI 5/6 output files (.sko), strict: every line is understood or the file is
 * rejected with file:line and the reason, so that no measurement is ever skipped silently.
 *
 *   # SKaMPI Version 5.0.4 rev. 355            any "#" line: comment (header, dates, totals)
 *   #> begin measurement "Pingpong_Send_Recv"  "#>": source echoed by `skampi -s` (ignored)
 *   # begin result "Pingpong_Send_Recv"        opens a block (no other block may be open)
 *   count= 1        1       0.3       0.0       64       0.3       0.3
 *   ^loop var ^val  ^size   ^time     ^stderr   ^reps    ^per-process times ("---": none)
 *   # end result "Pingpong_Send_Recv"          closes it (same name)
 *   # duration = 0.53 sec
 *
 * A data line is zero or more "name= value" loop-variable prefixes (outermost first), the
 * reported message size in bytes (an integer), the time in microseconds, its standard error
 * in microseconds, the number of repetitions (integer >= 1), then one time per process of
 * the measurement's communicator, each a number or "---". Every data line of a block must
 * carry the same number of per-process fields (a shorter line is a truncated one).
 * For Pingpong_* blocks the time is a round trip; this module does not interpret it.
 *
 * Errors (user input) return -1 with "file:line: reason" in err. */
#ifndef SMPI_CALIBRATION_SKAMPI_H
#define SMPI_CALIBRATION_SKAMPI_H

#include <stddef.h>
#include <stdio.h>

typedef struct skampi_point {
  double size;       /* reported message size, bytes */
  double time;       /* microseconds, as printed */
  double stderr_us;  /* standard error of time, microseconds */
  long reps;         /* repetitions measured */
  double resolution; /* printing step of the time column (0.1 for "%9.1f"), microseconds */
  size_t rank_first; /* per-process times: block->rank_times[rank_first .. + block->nranks) */
  int line;          /* line number in the file, from 1 */
} skampi_point;

typedef struct skampi_block {
  char *name;     /* measurement name from '# begin result "name"' */
  char *file;     /* path as given to skampi_read_file */
  int begin_line; /* line of '# begin result' */
  skampi_point *pts;
  size_t npts, cap;
  size_t nranks;      /* per-process fields per data line */
  double *rank_times; /* NAN where the file says "---" */
  size_t nrank_times, rank_cap;
} skampi_block;

typedef struct skampi_set {
  skampi_block *blocks;
  size_t nblocks, cap;
} skampi_set;

/* Appends the blocks of one file to set (zero-initialise set before the first call). On error
 * the set keeps the blocks of earlier files only. */
int skampi_read_file(skampi_set *set, const char *path, char *err, size_t errlen);
/* The same from an open stream; name is what messages call it. */
int skampi_read_stream(skampi_set *set, FILE *in, const char *name, char *err, size_t errlen);
void skampi_set_free(skampi_set *set);

#endif
