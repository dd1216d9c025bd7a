/* smpi-replay: the program `smpirun -replay TRACE` runs (like SimGrid's smpireplaymain).
 * Each rank replays its actions of the time-independent trace given as argv[1]; see
 * smpi/replay/replay.h for the format and docs/replay.md for the workflow. It is linked like any
 * smpicc program (wrapped main, libsmpi), so every smpirun option applies. */
#include "smpi/replay/replay.h"

int main(int argc, char **argv) { return smpi_replay_main(argc, argv); }
