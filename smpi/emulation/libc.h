/* The libc functions smpi gives each rank its own meaning of (emulation/libc.c: getopt's
 * parse, clocks and sleeps in simulated time). */
#ifndef SMPI_EMULATION_LIBC_H
#define SMPI_EMULATION_LIBC_H

/* Declares smpi/virtual-clocks (smpi_declare_config calls it). */
void smpi_libc_declare_config(void);
/* Reads smpi/virtual-clocks and smpi/wtime, before the ranks run. */
void smpi_libc_init(void);

#endif
