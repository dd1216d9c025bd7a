/* C++ globals per rank (emulation/ctors.c): constructors on each rank's privatized globals,
 * destructors at each rank's end. */
#ifndef SMPI_EMULATION_CTORS_H
#define SMPI_EMULATION_CTORS_H

#include <stdbool.h>

#include "smpi/emulation/privatize.h"

/* At privatization set-up, before the ranks' copies are made from the live data: if the
 * program's constructors changed its globals, puts back the image they had before, so that
 * each rank constructs its own objects. Returns whether constructors now run per rank. */
bool smpi_ctors_prepare(const smpi_priv_layout *l);
/* After privatization set-up (either way): destructors held back until the choice go to libc
 * unless constructors run per rank. */
void smpi_ctors_settle(void);
/* The program's init_array (main_wrap.c, linked into the program, passes its bounds). */
void smpi_ctors_set_init_array(void (**start)(int, char **, char **),
                               void (**end)(int, char **, char **));
/* In a rank, before its main / when it ends (main returned, or exit()). */
void smpi_ctors_rank_begin(int argc, char **argv);
void smpi_ctors_rank_end(int rank);

#endif
