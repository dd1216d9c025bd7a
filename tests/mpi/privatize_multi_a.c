/* privatize_multi (part a): globals defined in one object file (or in a static library built
 * from it) and used by the main program in another (privatize_multi_b.c). Each rank must see
 * its own copy of all of them, whichever object defines them. */
#include "privatize_multi.h"

int multi_counter;                     /* common symbol-like, .bss */
double multi_values[256] = {1.0, 2.0}; /* .data */
static int hidden_calls;               /* file-static */
const char *multi_label = "initial";

void multi_record(int rank)
{
  static int call_number; /* function-static */
  call_number++;
  hidden_calls++;
  multi_counter += rank;
  for (int i = 0; i < 256; i++)
    multi_values[i] = rank + i * 0.5 + call_number;
}

int multi_hidden_calls(void) { return hidden_calls; }
