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
/* The running rank reads its clock, as MPI_Wtime and the virtual clocks do: its CPU burst
 * so far is injected, then `cost` (smpi/wtime) is paid, run ahead when smpi/wtime-ahead
 * allows. Returns the date before the cost. */
struct smpi_rank;
double smpi_clock_now(struct smpi_rank *me, double cost);
/* +1 when an RMA window is created (per member), -1 when it is freed: while any exists, polls
 * sleep at once, so that a rank watching its window memory sees a put or another rank's store
 * at the date it lands. */
void smpi_clock_ahead_hold(int delta);

#endif
