/* How smpirun hands its options to the program it launches.
 *
 *   smpirun -np 4 -platform p.xml --cfg=a:b ./app x y
 *     = exec ./app x y  with  SMPI_LAUNCH="np=4\x1fplatform=/abs/p.xml\x1fcfg=a:b"
 *
 * The program was linked by smpicc with -Wl,--wrap=main: the C runtime's call to main lands in
 * __wrap_main (main_wrap.c, in libsmpi_main.a), which calls smpi_main() with the program's real
 * main. smpi_main reads SMPI_LAUNCH; without it (a program run directly, e.g. a configure
 * test), it simulates one rank on the built-in platform, so the program still behaves as one
 * ordinary process.
 *
 * Fields are separated by the ASCII unit separator (0x1f), which never occurs in paths or
 * options typed on a command line. Keys: np, platform, hostfile, map, cfg, log, version. */
#ifndef SMPI_SMPI_LAUNCH_H
#define SMPI_SMPI_LAUNCH_H

#define SMPI_LAUNCH_ENV "SMPI_LAUNCH"
#define SMPI_LAUNCH_SEP '\x1f'
#define SMPI_LAUNCH_VERSION "1"
/* glibc's tunable for a heap in huge pages; smpirun sets it to 1 (smpi/huge-heap) */
#define SMPI_HUGETLB_TUNABLE "glibc.malloc.hugetlb="
/* A string present in every program linked by smpicc: smpirun looks for it to refuse
 * programs that were not (they would run natively, once, and mislead the user). */
#define SMPI_PROGRAM_MARKER "smpi-program-marker:v1"

typedef int (*smpi_main_fn)(int argc, char **argv);

#include <stdbool.h>
/* Inside eng_run: the ranks run. */
bool smpi_launch_running(void);
/* Ends the calling rank as if its main had returned code; how ("exit", "_exit", "STOP")
 * names the call in reports. Between MPI_Init and MPI_Finalize with other ranks still in
 * MPI, ends the job instead (launch.c). Never returns. */
_Noreturn void smpi_launch_end_rank(int code, const char *how);
/* Fortran's STOP (fortran_rt.c): ends the calling rank as exit() does; returns 0 only when
 * no rank of a simulation is running. */
int smpi_rank_stop(int code);
#endif
