/* Availability profiles of SimGrid's platform format: how a host's speed or a link's
 * bandwidth changes over time (speed_file, availability_file, bandwidth_file, or a <trace>
 * joined by <trace_connect>). One event per line, "DATE VALUE", dates in seconds and not
 * decreasing; "LOOPAFTER D" (or the older "PERIODICITY D") repeats the whole list D seconds
 * after its last event; '#' and '%' start comments. Example (SimGrid's jupiter_speed.profile):
 *
 *   0 1.0          at 0 s, full speed           dates:  0    1    2 | 2.5  3.5  4.5 | 5 ...
 *   1 0.5          at 1 s, half speed           values: 1.0  0.5  1.0 | 1.0  0.5  1.0 | ...
 *   2 1.0          at 2 s, full speed again     (period = last date + LOOPAFTER = 2.5 s)
 *   LOOPAFTER 0.5
 *
 * So event i happens at date[i] + k * period, k = 0, 1, ... (forever with LOOPAFTER, else
 * k = 0 only). What a value means is the user's business: a speed scale (fraction of the
 * peak speed) for hosts, bytes/s for links. */
#ifndef SMPI_SRC_PLAT_PROFILE_H
#define SMPI_SRC_PLAT_PROFILE_H

#include <stddef.h>

typedef struct plat_profile {
  char *name;    /* file name or trace id, for messages */
  double *date;  /* [n] seconds, non-decreasing, >= 0 */
  double *value; /* [n] */
  size_t n;
  double period; /* date[n-1] + LOOPAFTER, or 0 when the profile does not loop */
} plat_profile;

/* Parses text (len bytes). Returns 0 and fills *out, or -1 with "name:line: what" in err. */
int plat_profile_parse(const char *text, size_t len, const char *name, plat_profile *out,
                       char *err, size_t errlen);
/* Reads and parses a file. */
int plat_profile_read(const char *path, plat_profile *out, char *err, size_t errlen);
void plat_profile_free(plat_profile *p); /* NULL is fine */

#endif
