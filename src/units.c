/* Unit-suffixed quantities (see units.h for the accepted spellings).
 *
 * Worked example: "10Gbps" -> strtod reads 10, the rest "Gbps" is looked up in the bandwidth
 * table (exact, case-sensitive match) -> factor 1e9 / 8 -> 1.25e9 B/s. */
#include "src/units.h"

#include "src/invariant.h"
#include "src/log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_NEW_CATEGORY(units, "parsing of quantities with units (speed, bandwidth, latency, size)");
LOG_DEFAULT_CATEGORY(units);

typedef struct unit_def {
  const char *name;
  double factor; /* value of one unit in base units */
} unit_def;

#define KI 1024.0
#define MI (KI * KI)
#define GI (MI * KI)
#define TI (GI * KI)
#define PI_ (TI * KI)
#define EI (PI_ * KI)

/* The first entry of each table is the base unit (used when a unit-less value is reported). */
static const unit_def speed_units[] = {
    {"f", 1},     {"flops", 1},         {"kf", 1e3},  {"kiloflops", 1e3},
    {"Mf", 1e6},  {"megaflops", 1e6},   {"Gf", 1e9},  {"gigaflops", 1e9},
    {"Tf", 1e12}, {"teraflops", 1e12},  {"Pf", 1e15}, {"petaflops", 1e15},
    {"Ef", 1e18}, {"exaflops", 1e18},   {"Zf", 1e21}, {"zettaflops", 1e21},
    {"Yf", 1e24}, {"yottaflops", 1e24}, {NULL, 0},
};

static const unit_def bandwidth_units[] = {
    {"Bps", 1},         {"kBps", 1e3},      {"KBps", 1e3},      {"MBps", 1e6},
    {"GBps", 1e9},      {"TBps", 1e12},     {"PBps", 1e15},     {"EBps", 1e18},
    {"KiBps", KI},      {"MiBps", MI},      {"GiBps", GI},      {"TiBps", TI},
    {"PiBps", PI_},     {"EiBps", EI},      {"bps", 0.125},     {"kbps", 1e3 / 8},
    {"Kbps", 1e3 / 8},  {"Mbps", 1e6 / 8},  {"Gbps", 1e9 / 8},  {"Tbps", 1e12 / 8},
    {"Pbps", 1e15 / 8}, {"Ebps", 1e18 / 8}, {"Kibps", KI / 8},  {"Mibps", MI / 8},
    {"Gibps", GI / 8},  {"Tibps", TI / 8},  {"Pibps", PI_ / 8}, {"Eibps", EI / 8},
    {NULL, 0},
};

static const unit_def latency_units[] = {
    {"s", 1},  {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9},  {"ps", 1e-12},
    {"m", 60}, {"h", 3600},  {"d", 86400}, {"w", 604800}, {NULL, 0},
};

static const unit_def size_units[] = {
    {"B", 1},         {"kB", 1e3},      {"KB", 1e3},     {"MB", 1e6},     {"GB", 1e9},
    {"TB", 1e12},     {"PB", 1e15},     {"EB", 1e18},    {"KiB", KI},     {"MiB", MI},
    {"GiB", GI},      {"TiB", TI},      {"PiB", PI_},    {"EiB", EI},     {"b", 0.125},
    {"kb", 1e3 / 8},  {"Kb", 1e3 / 8},  {"Mb", 1e6 / 8}, {"Gb", 1e9 / 8}, {"Tb", 1e12 / 8},
    {"Pb", 1e15 / 8}, {"Eb", 1e18 / 8}, {"Kib", KI / 8}, {"Mib", MI / 8}, {"Gib", GI / 8},
    {"Tib", TI / 8},  {"Pib", PI_ / 8}, {"Eib", EI / 8}, {NULL, 0},
};

static const struct {
  const char *name;
  const char *example;
  const unit_def *units;
} kinds[] = {
    [UNITS_SPEED] = {"speed", "1Gf", speed_units},
    [UNITS_BANDWIDTH] = {"bandwidth", "10Gbps", bandwidth_units},
    [UNITS_LATENCY] = {"latency", "50us", latency_units},
    [UNITS_SIZE] = {"size", "64KiB", size_units},
};

const char *units_kind_name(units_kind kind)
{
  ASSERT(kind <= UNITS_SIZE);
  return kinds[kind].name;
}

const char *units_list(units_kind kind)
{
  /* Built once from the tables so that messages never drift from what is accepted. */
  static char lists[UNITS_SIZE + 1][512];
  ASSERT(kind <= UNITS_SIZE);
  char *buf = lists[kind];
  if (buf[0] == '\0') {
    size_t used = 0;
    for (const unit_def *u = kinds[kind].units; u->name; u++) {
      int n = snprintf(buf + used, sizeof lists[0] - used, "%s%s", used ? ", " : "", u->name);
      ASSERT(n > 0 && (size_t)n < sizeof lists[0] - used);
      used += (size_t)n;
    }
  }
  return buf;
}

int units_parse(units_kind kind, const char *s, double *out, bool *unitless, char *err,
                size_t errlen)
{
  ASSERT(kind <= UNITS_SIZE);
  const char *what = kinds[kind].name;
  if (unitless)
    *unitless = false;
  if (s == NULL)
    s = "";

  const char *start = s;
  while (isspace((unsigned char)*start))
    start++;
  size_t len = strlen(start);
  while (len > 0 && isspace((unsigned char)start[len - 1]))
    len--;
  if (len == 0) {
    snprintf(err, errlen, "empty %s (a number followed by a unit is expected, e.g. %s)", what,
             kinds[kind].example);
    return -1;
  }
  char text[128];
  if (len >= sizeof text) {
    snprintf(err, errlen, "%s value too long: '%.40s...'", what, start);
    return -1;
  }
  memcpy(text, start, len);
  text[len] = '\0';

  if (text[0] == '-') {
    snprintf(err, errlen, "negative %s '%s'", what, text);
    return -1;
  }
  /* strtod also takes "inf", "nan" and hexadecimal: only plain decimal numbers are meant. */
  bool digits = false;
  for (const char *c = text; *c && (isdigit((unsigned char)*c) || *c == '.' || *c == '+'); c++)
    digits |= isdigit((unsigned char)*c) != 0;
  if (!digits || !(isdigit((unsigned char)text[0]) || text[0] == '.' || text[0] == '+') ||
      (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))) {
    snprintf(err, errlen,
             "'%s' is not a valid %s: a number followed by a unit is expected (e.g. %s)", text,
             what, kinds[kind].example);
    return -1;
  }
  errno = 0;
  char *end;
  double value = strtod(text, &end);
  if (end == text || !isfinite(value) || errno == ERANGE) {
    snprintf(err, errlen,
             "'%s' is not a valid %s: a number followed by a unit is expected (e.g. %s)", text,
             what, kinds[kind].example);
    return -1;
  }

  if (*end == '\0') {
    if (unitless && value != 0)
      *unitless = true;
    *out = value;
    return 0;
  }
  for (const unit_def *u = kinds[kind].units; u->name; u++) {
    if (strcmp(end, u->name) == 0) {
      if (!isfinite(value * u->factor)) { /* 1e308Gf: finite number, infinite value */
        snprintf(err, errlen, "%s '%s' is too large", what, text);
        return -1;
      }
      *out = value * u->factor;
      return 0;
    }
  }
  snprintf(err, errlen, "unknown unit '%s' in %s '%s'; expected one of %s", end, what, text,
           units_list(kind));
  return -1;
}

static int parse_warn(units_kind kind, const char *s, double *out, char *err, size_t errlen)
{
  bool unitless;
  if (units_parse(kind, s, out, &unitless, err, errlen) != 0)
    return -1;
  if (unitless)
    LOG_WARN("deprecated unit-less %s '%s': taken as %g %s", kinds[kind].name, s, *out,
             kinds[kind].units[0].name);
  return 0;
}

int units_parse_speed(const char *s, double *out, char *err, size_t errlen)
{
  return parse_warn(UNITS_SPEED, s, out, err, errlen);
}

int units_parse_bandwidth(const char *s, double *out, char *err, size_t errlen)
{
  return parse_warn(UNITS_BANDWIDTH, s, out, err, errlen);
}

int units_parse_latency(const char *s, double *out, char *err, size_t errlen)
{
  return parse_warn(UNITS_LATENCY, s, out, err, errlen);
}

int units_parse_size(const char *s, double *out, char *err, size_t errlen)
{
  return parse_warn(UNITS_SIZE, s, out, err, errlen);
}
