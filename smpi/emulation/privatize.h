/* Privatization of the program's global variables: every rank sees its own copy of every
 * global and static variable of the MPI program, as separate processes would, although all
 * ranks run in one address space. Also keeps errno per rank.
 *
 * Use (the runtime):
 *   smpi_privatize_declare_config();               // with the other keys, before --cfg
 *   ... ranks created (smpi_w.np known), before eng_run:
 *   if (smpi_privatize_init(err, sizeof err)) fail  // snapshot: every rank starts from it
 *   eng_on_switch(smpi_privatize_on_switch);        // swaps data and errno at each switch
 *
 * Anyone touching a rank's memory while another rank may be running (the message layer
 * copying a payload into a receiver's buffer, from the sender's context or the maestro) must
 * go through smpi_privatize_translate: a buffer that is a global variable has one copy per
 * rank, and only the copy of the rank whose data is in place lives at its own address.
 *
 * Mechanisms (smpi/privatization; details and measured costs in smpi/emulation/privatize.c and
 * docs/emulation.md): copy in/out of the writable data at each switch when it is small,
 * remapping one memfd window over it when it is large. Neither keeps a mapping per rank. */
#ifndef SMPI_SMPI_PRIVATIZE_H
#define SMPI_SMPI_PRIVATIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/engine.h"

/* Declares smpi/privatization and smpi/privatization-copy-max (idempotent; smpi_declare_config
 * and smpi_privatize_init call it). */
void smpi_privatize_declare_config(void);

/* Reads smpi/privatization, finds the program's writable data and prepares every rank's copy
 * (lazily: a rank's copy is made the first time it runs). Needs smpi_w.np. Returns 0, or -1
 * with a message naming the system limit and its fix. Calling it again starts over. */
int smpi_privatize_init(char *err, size_t errlen);

/* The engine's switch hook (eng_on_switch): to = the actor about to run, NULL = the maestro. */
void smpi_privatize_on_switch(eng_actor *to);

/* The same with a rank number (-1: the maestro, or an actor that is no rank). Puts rank's
 * data in place unless it is there already (switching to the maestro leaves the last rank's
 * data in place), and saves/restores errno. */
void smpi_privatize_switch_to(int rank);

/* Where rank's copy of the byte at addr can be read or written right now: addr itself when
 * addr is not privatized data or when rank's data is in place, else the address of rank's
 * copy in its private store. A buffer does not straddle two variables, so the translation of
 * its first byte holds for all of it. */
void *smpi_privatize_translate(int rank, const void *addr);

/* ---- lower level: what is privatized, for tests and benchmarks ---- */

typedef struct smpi_priv_span {
  uintptr_t addr;
  size_t len;
} smpi_priv_span;

/* What to privatize. data: writable ranges; whatever else shares their pages must be unused
 * or constant (true of an executable's data segment: RELRO before it, nothing after .bss).
 * holes: byte ranges inside data that stay shared by all ranks (the executable's copy
 * relocations such as stdout, environ, optind; its .got.plt). tls: a block copied per rank
 * (the executable's thread-local variables). */
typedef struct smpi_priv_layout {
  smpi_priv_span *data;
  size_t ndata;
  smpi_priv_span *holes;
  size_t nholes;
  smpi_priv_span tls;
  bool simulator_inside; /* this module's own state lies in data: privatizing is impossible */
} smpi_priv_layout;

/* The main executable's layout (dl_iterate_phdr, its program headers and dynamic section). */
int smpi_privatize_discover(smpi_priv_layout *out, char *err, size_t errlen);
void smpi_privatize_layout_free(smpi_priv_layout *l);
/* Adds the writable data of the shared libraries named in list ("libfoo.so;libbar.so.2",
 * smpi/privatize-libs) to l; -1 with a message if one is not loaded, or must never be
 * privatized (libc, the dynamic linker, the C++ runtime, libsmpi). */
int smpi_privatize_add_libs(smpi_priv_layout *l, const char *list, char *err, size_t errlen);
/* Whether the program's memory in [lo, hi) is all zero (read without ASan instrumentation:
 * the data segment holds redzones between globals). */
bool smpi_privatize_all_zero(const void *lo, const void *hi);

typedef enum {
  SMPI_PRIV_OFF,   /* only errno is kept per rank */
  SMPI_PRIV_COPY,  /* copy in/out at each switch */
  SMPI_PRIV_REMAP, /* one mmap per switch */
  SMPI_PRIV_AUTO,  /* copy up to copy_max bytes, remap above */
} smpi_priv_mode;

/* Prepares np ranks over layout l (copied). The data currently in place is every rank's
 * initial copy. */
int smpi_privatize_setup(const smpi_priv_layout *l, int np, smpi_priv_mode mode, size_t copy_max,
                         char *err, size_t errlen);
/* Leaves the data of the rank in place as the only copy (ordinary memory again), frees the
 * stores. */
void smpi_privatize_teardown(void);

typedef struct smpi_priv_stats {
  smpi_priv_mode mode;   /* COPY or REMAP once set up (OFF otherwise) */
  size_t private_bytes;  /* bytes each rank owns (data minus holes, plus tls) */
  size_t copied_bytes;   /* moved by each copy-in or copy-out */
  size_t remapped_bytes; /* covered by the remapped window */
  size_t hole_bytes;     /* shared bytes carried across each remap */
  size_t mappings;       /* mappings the mechanism keeps (independent of the rank count) */
  unsigned long swaps;   /* switches that changed the data in place */
} smpi_priv_stats;
void smpi_privatize_get_stats(smpi_priv_stats *out);

#endif
