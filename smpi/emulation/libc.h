/* The libc functions smpi gives each rank its own meaning of (emulation/libc.c: getopt's
 * parse, clocks and sleeps in simulated time). */
#ifndef SMPI_EMULATION_LIBC_H
#define SMPI_EMULATION_LIBC_H

/* Declares smpi/virtual-clocks (smpi_declare_config calls it). */
void smpi_libc_declare_config(void);
/* Reads smpi/virtual-clocks and smpi/wtime, before the ranks run. */
void smpi_libc_init(void);
/* smpi/wtime as smpi_libc_init read it: what MPI_Wtime injects (a polling loop calls it
 * millions of times; a configuration lookup per call was a tenth of such a run). */
double smpi_libc_wtime_cost(void);

#endif
