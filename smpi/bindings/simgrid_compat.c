/* What SimGrid's SMPI offers programs besides MPI: the tracing-category calls of
 * <simgrid/instr.h> (include/smpi/simgrid/instr.h). They feed the categorized Paje trace
 * (smpi/observe/trace_platform.c; tracing/categorized) and do nothing otherwise. */
#include "smpi/observe/trace.h"
#include "smpi/simgrid/instr.h"

void TRACE_category(const char *category) { smpi_trace_category(category, NULL); }

void TRACE_category_with_color(const char *category, const char *color)
{
  smpi_trace_category(category, color);
}

void TRACE_smpi_set_category(const char *category) { smpi_trace_set_category(category); }
