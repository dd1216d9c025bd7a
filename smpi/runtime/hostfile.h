/* Hostfiles (smpirun -hostfile FILE): which hosts the ranks go to, round-robin.
 *
 *   # comment                 blank lines and '#' to the end of a line are ignored
 *   node-0                    one slot on node-0
 *   node-1:4                  four slots on node-1 (slots: 1 .. SMPI_HOSTFILE_MAX_SLOTS)
 *     node-2 : 2   # spaces   around the name and the ':' are ignored
 *   Cpu A:1                   a name with spaces inside (SimGrid's syntax: the line is the name)
 *
 * gives the slot list node-0, node-1, node-1, node-1, node-1, node-2, node-2, Cpu A; rank r
 * runs on slot r mod 8. The parser only reads text: whether a name is a host of the platform is the
 * runtime's question (smpi/launch/launch.c), so the parser can be fuzzed alone
 * (tests/fuzz/fuzz_hostfile.c). */
#ifndef SMPI_SMPI_HOSTFILE_H
#define SMPI_SMPI_HOSTFILE_H

#include <stddef.h>

/* A line's slot count above this is a typo, not a machine: refused. */
#define SMPI_HOSTFILE_MAX_SLOTS 1000000L
/* Total slots of a file, also refused above this (the runtime allocates one entry each). */
#define SMPI_HOSTFILE_MAX_TOTAL (1L << 24)
/* Files larger than this are refused before reading (a hostfile is a list of names). */
#define SMPI_HOSTFILE_MAX_BYTES (64L << 20)

typedef struct smpi_hostfile_entry {
  char *name; /* NUL-terminated, non-empty, no whitespace at either end (maybe
                inside), no ':' or '#' */
  long slots; /* 1 .. SMPI_HOSTFILE_MAX_SLOTS */
  int line;   /* 1-based line of the file, for messages */
} smpi_hostfile_entry;

typedef struct smpi_hostfile {
  smpi_hostfile_entry *entries; /* in file order; one per non-empty line */
  size_t count;
  long total_slots; /* sum of the entries' slots, >= 1 after a successful parse */
} smpi_hostfile;

/* Parses len bytes of text (need not be NUL-terminated; "name" is the file name used in
 * messages). Returns 0 with *out filled (at least one entry), or -1 with *out empty and a
 * message "name:line: what is wrong" in err. Never reads outside text[0..len). */
int smpi_hostfile_parse(const char *text, size_t len, const char *name, smpi_hostfile *out,
                        char *err, size_t errlen);

/* Reads and parses the file at path: a missing, unreadable, non-regular or oversized file is
 * an error with a message saying which. */
int smpi_hostfile_read(const char *path, smpi_hostfile *out, char *err, size_t errlen);

/* Frees what a parse filled in and empties *hf (safe on an empty one). */
void smpi_hostfile_free(smpi_hostfile *hf);

#endif
