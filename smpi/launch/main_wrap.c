/* Linked into every program built by smpicc (libsmpi_main.a) together with -Wl,--wrap=main:
 * the C runtime calls __wrap_main instead of the program's main, which stays reachable as
 * __real_main. Nothing else lives here: this object is part of the user's executable, whose
 * writable data is privatized per rank. */
#include "smpi/launch/launch.h"

int smpi_main(int argc, char **argv, smpi_main_fn real_main);
int __real_main(int argc, char **argv);
int __wrap_main(int argc, char **argv);

__attribute__((used)) const char smpi_program_marker[] = SMPI_PROGRAM_MARKER;

/* the program's constructors, run again by each rank when they build C++ globals
 * (smpi/emulation/ctors.c); provided by the linker */
extern void (*__init_array_start[])(int, char **, char **) __attribute__((weak));
extern void (*__init_array_end[])(int, char **, char **) __attribute__((weak));
void smpi_ctors_set_init_array(void (**start)(int, char **, char **),
                               void (**end)(int, char **, char **));

int __wrap_main(int argc, char **argv)
{
  smpi_ctors_set_init_array(__init_array_start, __init_array_end);
  return smpi_main(argc, argv, __real_main);
}
