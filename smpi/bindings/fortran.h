/* What the Fortran bindings share: the sentinels' storage and the argument conversions used
 * by the generated bindings (fortran_gen.c, from smpi/bindings/fortran_gen.py) and the
 * hand-written ones (fortran.c).
 *
 * The sentinels are variables of the program, not values: mpif.h puts MPI_BOTTOM,
 * MPI_IN_PLACE, MPI_STATUS_IGNORE, ... in COMMON /SMPI_FCOM/, which gfortran names
 * `smpi_fcom_`. libsmpi defines the same symbol with default visibility and reaches it through
 * the GOT, so the executable's copy interposes and a binding recognises a sentinel by its
 * address:
 *
 *     Fortran: CALL MPI_ALLREDUCE(MPI_IN_PLACE, x, ...)  passes &smpi_fcom_.in_place
 *     binding: smpi_f_buf(&smpi_fcom_.in_place) == MPI_IN_PLACE (C's (void *)-1)
 *
 * Privatization copies the COMMON per rank at the same address, so the test still holds. */
#ifndef SMPI_BINDINGS_FORTRAN_H
#define SMPI_BINDINGS_FORTRAN_H

#include <stddef.h>
#include <string.h>

#include "smpi/bindings/call.h"
#include "src/mem.h"

#define SMPI_F_STATUS_SIZE 6 /* MPI_STATUS_SIZE of mpif.h: sizeof(MPI_Status) / sizeof(int) */
_Static_assert(sizeof(MPI_Status) == SMPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "mpif.h's MPI_STATUS_SIZE must cover the C status");

/* COMMON /SMPI_FCOM/ of mpif.h, member for member */
struct smpi_f_common {
  MPI_Fint bottom;
  MPI_Fint in_place;
  MPI_Fint status_ignore[SMPI_F_STATUS_SIZE];
  MPI_Fint statuses_ignore[SMPI_F_STATUS_SIZE];
  MPI_Fint errcodes_ignore[1];
  MPI_Fint unweighted[1];
  MPI_Fint weights_empty[1];
};
extern SMPI_PUBLIC struct smpi_f_common smpi_fcom_;

/* the caller of the binding is the program's call site (call.c) */
#define SMPI_F_ENTER() smpi_call_hint_site(__builtin_return_address(0))
#define SMPI_F_LEAVE() smpi_call_hint_site(NULL)

static inline void *smpi_f_buf(void *p)
{
  if (p == &smpi_fcom_.bottom)
    return MPI_BOTTOM;
  if (p == &smpi_fcom_.in_place)
    return MPI_IN_PLACE;
  return p;
}

static inline int *smpi_f_weights(int *w)
{
  if (w == smpi_fcom_.unweighted)
    return MPI_UNWEIGHTED;
  if (w == smpi_fcom_.weights_empty)
    return MPI_WEIGHTS_EMPTY;
  return w;
}

/* A Fortran status is INTEGER(MPI_STATUS_SIZE), only 4-byte aligned: the C status (with its
 * 8-byte count) goes through an aligned copy, in and out (MPI_Status_set_elements changes
 * one field of the program's status and keeps the others). */
static inline MPI_Status *smpi_f_status(MPI_Status *c, MPI_Fint *f)
{
  if (f == smpi_fcom_.status_ignore)
    return MPI_STATUS_IGNORE;
  memcpy(c, f, sizeof *c);
  return c;
}
static inline void smpi_f_status_out(MPI_Fint *f, const MPI_Status *c)
{
  if (f != smpi_fcom_.status_ignore)
    memcpy(f, c, sizeof *c);
}
static inline const MPI_Status *smpi_f_status_in(const MPI_Fint *f, MPI_Status *c)
{
  memcpy(c, f, sizeof *c);
  return c;
}
/* arrays of statuses: MPI_STATUSES_IGNORE, the array itself when aligned, else a copy */
MPI_Status *smpi_f_statuses_begin(MPI_Fint *f, int n);
void smpi_f_statuses_end(MPI_Fint *f, MPI_Status *c, int n);

/* CHARACTER arguments: the trimmed C copy of an input (free it), a buffer for an output of
 * at most len characters, and the copy back (blank-padded, as Fortran strings are) */
char *smpi_f_str_in(const char *s, size_t len);
char *smpi_f_str_buf(size_t len);
void smpi_f_str_out(char *f, size_t len, const char *c);
static inline int smpi_f_clamp(int v, size_t len) { return (size_t)v > len ? (int)len : v; }

#endif
