/* Physical quantities written with a unit suffix, as in SimGrid's platform files:
 *
 *   speed      "1Gf", "1e9f", "2.5gigaflops"     -> flop/s   (f, flops, kf .. Yf, kiloflops ..)
 *   bandwidth  "10Gbps", "125MBps", "1GiBps"      -> bytes/s  (bits: 1 bps = 0.125 B/s)
 *   latency    "50us", "1.5ms", "0.1s", "2h"      -> seconds  (ps ns us ms s m h d w)
 *   size       "64KiB", "1MB", "8kb"              -> bytes
 *
 * The number is a decimal floating-point number (C strtod syntax, no hexadecimal, no
 * inf/nan) immediately followed by the unit; surrounding blanks are ignored. Units are
 * case-sensitive ("Mf" is mega, there is no "mf"). Decimal and binary prefixes follow their
 * usual meaning: k/K = 1e3, Ki = 1024, and both "kBps" and "KBps" mean 1000 B/s.
 *
 * A number without unit: SimGrid's 4.x format still accepts it (as flop/s, B/s, s, bytes)
 * but warns that it is deprecated, except for 0 whose unit does not matter. units_parse
 * reports that case through *unitless so that the platform loader can warn with file:line;
 * the units_parse_<kind> shortcuts accept it and log the warning themselves.
 *
 * Errors (user input, tier 2) return -1 with a one-line message in err, e.g.
 *   unknown unit 'Gbs' in bandwidth '10Gbs'; expected one of Bps, kBps, KBps, ...
 *   'fast' is not a valid speed: a number followed by a unit is expected (e.g. 1Gf)
 *   negative latency '-1ms' */
#ifndef SMPI_SRC_UNITS_H
#define SMPI_SRC_UNITS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { UNITS_SPEED, UNITS_BANDWIDTH, UNITS_LATENCY, UNITS_SIZE } units_kind;

/* Parses s as a quantity of the given kind into *out (in base units). *unitless (may be NULL)
 * is set when s is a non-zero number without unit. */
int units_parse(units_kind kind, const char *s, double *out, bool *unitless, char *err,
                size_t errlen);

int units_parse_speed(const char *s, double *out, char *err, size_t errlen);     /* flop/s */
int units_parse_bandwidth(const char *s, double *out, char *err, size_t errlen); /* B/s */
int units_parse_latency(const char *s, double *out, char *err, size_t errlen);   /* s */
int units_parse_size(const char *s, double *out, char *err, size_t errlen);      /* bytes */

/* "speed", "bandwidth", "latency", "size": the word used in messages */
const char *units_kind_name(units_kind kind);
/* The accepted units of a kind, comma-separated, as listed in error messages. */
const char *units_list(units_kind kind);

#endif
