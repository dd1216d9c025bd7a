/* Platform overrides: `--platform-set ELEMENT[ID]/ATTRIBUTE=VALUE` (smpirun, smpi-sweep).
 *
 * An override changes one attribute of named elements of the platform file before the
 * loader reads it, so that "this platform with 25 GB/s links" needs no copy of the XML:
 *
 *   cluster[c1]/bw=25GBps        attribute bw of <cluster id="c1">
 *   link[backbone]/latency=2us   attribute latency of <link id="backbone">
 *   host/speed=2Gf               attribute speed of every <host> (no [ID]: all of them)
 *   cluster[*]/lat=500ns         the same, spelt out
 *
 * ELEMENT and ATTRIBUTE must be declared by the platform DTD (platforms/smpi.dtd): an
 * unknown one is refused with the list of the known ones. The edited text is then loaded
 * as usual, so a bad VALUE is reported by the loader at the element's file:line. Overrides
 * apply in order (the last one on an attribute wins) to the file given to -platform (or the
 * built-in platform), not to the files it <include>s.
 */
#ifndef SMPI_SRC_PLATFORM_SET_H
#define SMPI_SRC_PLATFORM_SET_H

#include <stddef.h>

#include "src/platform.h"

typedef struct plat_set {
  char *element;   /* XML element name, e.g. "cluster" */
  char *id;        /* value of its id attribute, or NULL: every element of that name */
  char *attribute; /* attribute to set */
  char *value;     /* its new value (any text; the loader checks it) */
} plat_set;

/* Parses one override. Returns 0, or -1 with a message naming the spec and what is wrong
 * (syntax, unknown element, unknown attribute). Free with plat_set_clear. */
int plat_set_parse(const char *spec, plat_set *out, char *err, size_t errlen);
void plat_set_clear(plat_set *s);

/* Applies overrides to a platform text; *out is a new NUL-terminated text (free()). Returns
 * -1 with "NAME: ..." in err when an override names an element that is not in the text. */
int plat_set_apply(const char *xml, size_t len, const char *name, const plat_set *sets,
                   size_t nsets, char **out, char *err, size_t errlen);

/* plat_load_file, with the overrides applied to the file's text first. */
int plat_load_file_set(const char *path, const plat_set *sets, size_t nsets, plat_platform **out,
                       char *err, size_t errlen);

/* plat_load_file from a text already read: path names it in messages and is where its
 * <include>s are looked for (defined in platform_load.c). */
int plat_load_buffer(const char *xml, size_t len, const char *path, plat_platform **out,
                     char *err, size_t errlen);

#endif
