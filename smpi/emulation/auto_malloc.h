/* The program's plain malloc, calloc and realloc: folded at or above a size
 * (smpi/auto-shared-malloc-thresh) and accounted by call site (smpi/display-allocs).
 * See smpi/emulation/auto_malloc.c. */
#ifndef SMPI_EMULATION_AUTO_MALLOC_H
#define SMPI_EMULATION_AUTO_MALLOC_H

/* Reads both keys; after the command line, before the ranks run. */
void smpi_auto_malloc_init(void);
/* smpi/display-allocs: what the ranks allocated and where (stderr); nothing when off. */
void smpi_auto_malloc_report(void);

#endif
