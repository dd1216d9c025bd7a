/* What the rest of the simulator needs from the collectives module (the MPI entry points
 * themselves come from mpi_functions.h). */
#ifndef SMPI_COLLECTIVES_COLL_H
#define SMPI_COLLECTIVES_COLL_H

#include <stdio.h>

/* Declares smpi/coll-selector and smpi/<collective> (idempotent; smpi_declare_config). */
void coll_declare_config(void);
/* smpirun -help-coll: every collective, its algorithms and what each selector picks. */
void coll_print_help(FILE *out);
/* The same as markdown tables, for docs/collectives.md (tools/coll-doc.c). */
void coll_print_markdown(FILE *out);

#endif
