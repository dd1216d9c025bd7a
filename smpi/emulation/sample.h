/* CPU sampling and compute variability, internal side (public macros: include/smpi/smpi.h,
 * section "CPU sampling"; user guide: docs/emulation.md). */
#ifndef SMPI_SMPI_SAMPLE_H
#define SMPI_SMPI_SAMPLE_H

#include <stddef.h>

#include "smpi/runtime/world.h"

/* Declares smpi/sample-mode, smpi/seed, smpi/compute-noise, smpi/sample-file (idempotent).
 * smpi_declare_config calls it. */
void smpi_sample_declare_config(void);

/* Reads those options and the sample file. Idempotent; called lazily by the first sampling
 * macro. Returns 0, or -1 with a message saying what is wrong with which option. */
int smpi_sample_init(char *err, size_t errlen);

/* The multiplier smpi/compute-noise draws for one computation of the calling rank (1 when
 * the noise is "none"); deterministic given smpi/seed and the rank's history of draws. */
double smpi_sample_noise_factor(void);

/* The engine switches from rank `from` to rank `to` (either NULL: the maestro, or another
 * actor), one of which has an open sample (smpi_rank.sampling): the sample's CPU clock stops
 * while its rank is switched out, so that it never counts another rank's CPU time (an MPI call
 * inside a sampled block that waits lets the others run; SimGrid's EP counted theirs: 4.8x too
 * long at 64 ranks). */
void smpi_sample_switch(const smpi_rank *from, const smpi_rank *to);

#endif
