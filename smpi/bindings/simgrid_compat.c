/* What SimGrid's SMPI offers programs besides MPI and that smpi accepts without acting on it
 * yet: the tracing-category calls of <simgrid/instr.h> (include/smpi/simgrid/instr.h).
 *
 * They are weak: the tracing module that records categories defines them for real, and its
 * definitions take precedence at link time without touching this file. */
#include "smpi/simgrid/instr.h"

__attribute__((weak)) void TRACE_category(const char *category) { (void)category; }

__attribute__((weak)) void TRACE_category_with_color(const char *category, const char *color)
{
  (void)category;
  (void)color;
}

__attribute__((weak)) void TRACE_smpi_set_category(const char *category) { (void)category; }
