/* hpl_lu: tools/bench/programs/hpl_like.c as a test. Without arguments: a 100 x 100 LU on a
 * 2 x 2 grid with NB = 8, real arithmetic on ordinary memory, pivoting, row swaps between
 * processes; passes when max |P A - L U| / (N max |A|) < 1e-12 (prints "hpl_lu: OK").
 * With arguments (N NB P Q): the modelled, folded run, used by hpl_fold.py to check that
 * folding does not change the simulated time. */
#define HPL_TEST_DEFAULTS 1
#include "../../tools/bench/programs/hpl_like.c"
