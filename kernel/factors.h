/* Piecewise functions of a message size, in SimGrid's configuration syntax.
 *
 *   factor   "threshold:value;threshold:value;..."        smpi/bw-factor, smpi/lat-factor
 *   overhead "threshold:start:per_byte;..."               smpi/os, smpi/or, smpi/ois
 *
 * Sections may come in any order. The section that applies to a size is the one with the
 * LARGEST threshold STRICTLY BELOW the size (SimGrid 3.32's behaviour; its documentation
 * says ">=", the recorded dates say ">"). Worked example with "0:a;257:b;1024:c":
 *
 *   size     0    1 .. 257    258 .. 1024    1025 ..
 *   factor   1.0  a           b              c          (no threshold below 0: 1.0)
 *   overhead     -> for an overhead "0:s0:p0;..." size 0 uses the lowest section (s0 + p0 * 0)
 *
 * So with SimGrid's default smpi/bw-factor a 241-byte MPI message (payload 257 = 241 + 16
 * bytes of envelope) uses the "0:" section and a 242-byte one (payload 258) the "257:" one.
 * An overhead costs start + per_byte * size, with the lookup rule above on the bare size;
 * when no threshold is below the size, the lowest-threshold section applies (not 0).
 *
 * Parsing is strict: every section must have the expected number of fields, every field a
 * finite number, thresholds >= 0 and distinct. Errors name the key and the bad part:
 *   smpi/bw-factor: section 2 "1024" has 1 field, expected threshold:value (e.g. 65472:0.94)
 * The one leniency: an overhead section may carry extra numeric fields after per_byte,
 * ignored, because SimGrid's own default spelling of smpi/os is "0:0:0:0:0". */
#ifndef SMPI_KERNEL_FACTORS_H
#define SMPI_KERNEL_FACTORS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fac_section {
  double threshold;
  double a; /* factor: the value; overhead: start (seconds) */
  double b; /* overhead: per_byte (seconds per byte); factor: unused */
} fac_section;

/* Sections sorted by increasing threshold. A zero-initialised struct is an empty function
 * (factor 1.0 everywhere, overhead 0 everywhere). */
typedef struct fac_func {
  fac_section *sec;
  size_t count;
} fac_func;

/* Minimum a factor's values may take: FAC_POSITIVE (> 0, e.g. bandwidth factors, a 0 would
 * stall every flow) or FAC_NONNEGATIVE (>= 0, e.g. latency factors). */
typedef enum { FAC_POSITIVE, FAC_NONNEGATIVE } fac_domain;

/* Parse spec into out (replacing nothing: out is overwritten, free it with fac_free).
 * key only serves the messages. Returns 0, or -1 with one line in err and out empty. */
int fac_parse_factor(const char *key, const char *spec, fac_domain domain, fac_func *out,
                     char *err, size_t errlen);
/* start and per_byte must be >= 0. */
int fac_parse_overhead(const char *key, const char *spec, fac_func *out, char *err,
                       size_t errlen);
void fac_free(fac_func *f);

/* Value of the section with the largest threshold < size; 1.0 if none. */
double fac_factor(const fac_func *f, double size);
/* start + per_byte * size of the section with the largest threshold < size, or of the
 * lowest-threshold section if none; 0 for an empty function. */
double fac_overhead(const fac_func *f, double size);

#endif
