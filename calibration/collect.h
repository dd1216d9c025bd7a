/* From parsed SKaMPI blocks to the one-way observations the fits use: picks the blocks whose
 * name matches one of the patterns (shell globs, e.g. "Pingpong_Send_Recv*"), and halves the
 * round-trip times of ping-pong blocks (time, standard error and printing step alike). */
#ifndef SMPI_CALIBRATION_COLLECT_H
#define SMPI_CALIBRATION_COLLECT_H

#include <stdbool.h>
#include <stddef.h>

#include "calibration/fit.h"
#include "calibration/skampi.h"

#define COLLECT_DEFAULT_BLOCK "Pingpong_Send_Recv"

typedef struct collect {
  fit_obs *obs;
  size_t nobs;
  char **srcs;       /* the obs' "file:line" strings (owned) */
  size_t nblocks;    /* blocks used */
  char *description; /* 'file "block", ...' of the blocks used */
} collect;

/* round_trip: times are round trips (ping-pong), halve them. Returns -1 with a message that
 * lists the blocks present when no block matches. */
int collect_blocks(const skampi_set *set, const char *const *patterns, size_t npatterns,
                   bool round_trip, collect *out, char *err, size_t errlen);
void collect_free(collect *c);

#endif
