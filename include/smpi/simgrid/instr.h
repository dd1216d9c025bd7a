/* simgrid/instr.h: the tracing calls of SimGrid's C interface that MPI programs written for
 * SimGrid's SMPI use, so that they compile and link unchanged (smpicc puts this directory on
 * the include path: <simgrid/instr.h> is this file, even when SimGrid is installed).
 *
 * With --cfg=tracing/categorized:yes (and -trace), the Paje trace shows, per category, the
 * flop/s used on each host and the bytes/s on each link (docs/tracing.md); otherwise these
 * calls change nothing: results and simulated times are the same with or without them. */
#ifndef SMPI_SIMGRID_INSTR_H
#define SMPI_SIMGRID_INSTR_H

#include "../smpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Declares a category (and its colour, "r g b" in [0,1]) for the tracing of categories. */
SMPI_PUBLIC void TRACE_category(const char *category);
SMPI_PUBLIC void TRACE_category_with_color(const char *category, const char *color);
/* The calling rank's MPI calls from now on belong to category (NULL or "": none). */
SMPI_PUBLIC void TRACE_smpi_set_category(const char *category);

#ifdef __cplusplus
}
#endif
#endif
