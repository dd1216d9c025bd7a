/* MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size with "external32"
 * (MPI 3.1, 13.5.2): every basic element big-endian, at the sizes of the standard's table
 * (MPI_LONG and MPI_UNSIGNED_LONG: 4 bytes, MPI_WCHAR: 2, MPI_LONG_DOUBLE: IEEE binary128),
 * in typemap order without padding. Pair types are their value then a 4-byte int.
 *
 *     int 258            -> 00 00 01 02
 *     long -2            -> ff ff ff fe          (narrowed; sign-extended back)
 *     long double 1.5    -> 3f ff 80 00 ... 00   (16 bytes; x87's explicit integer bit
 *                                                dropped, fraction shifted into 112 bits)
 * Unlike the native pack, this walks basic elements one by one (smpi_dt_walk): merged
 * byte runs would hide the element boundaries the conversion needs. */
#include <stdint.h>
#include <string.h>

#include "smpi/mpi/datatype_impl.h"
#include "smpi/runtime/copies.h"
#include "src/log.h"

LOG_EXTERNAL_CATEGORY(smpi_dt);
LOG_DEFAULT_CATEGORY(smpi_dt);

#define DT_ERR(code, ...)  \
  ({                       \
    LOG_VERB(__VA_ARGS__); \
    (code);                \
  })

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "external32 conversion is written for little-endian hosts"
#endif

/* native little-endian integer of n bytes -> big-endian of e bytes (e <= n: low bytes) */
static void int_out(const unsigned char *in, size_t n, unsigned char *out, size_t e)
{
  (void)n;
  for (size_t k = 0; k < e; k++)
    out[k] = in[e - 1 - k];
}

/* big-endian of e bytes -> native of n bytes (n >= e), sign- or zero-extended */
static void int_in(const unsigned char *in, size_t e, unsigned char *out, size_t n, bool sign)
{
  for (size_t k = 0; k < e; k++)
    out[k] = in[e - 1 - k];
  unsigned char fill = sign && (in[0] & 0x80) ? 0xff : 0;
  for (size_t k = e; k < n; k++)
    out[k] = fill;
}

/* x87 80-bit extended (in 16 bytes) <-> binary128 big-endian */
static void x87_out(const unsigned char *in, unsigned char *out)
{
  uint64_t mant;
  uint16_t se;
  memcpy(&mant, in, 8);
  memcpy(&se, in + 8, 2);
  /* binary128: sign+exponent (16 bits, same bias), then 112 fraction bits: the 63 bits
   * after x87's explicit integer bit, followed by zeros */
  uint64_t frac = mant & 0x7fffffffffffffffULL;
  uint64_t hi = ((uint64_t)se << 48) | (frac >> 15);
  uint64_t lo = frac << 49;
  for (int k = 0; k < 8; k++) {
    out[k] = (unsigned char)(hi >> (56 - 8 * k));
    out[8 + k] = (unsigned char)(lo >> (56 - 8 * k));
  }
}

static void x87_in(const unsigned char *in, unsigned char *out)
{
  uint64_t hi = 0, lo = 0;
  for (int k = 0; k < 8; k++) {
    hi = hi << 8 | in[k];
    lo = lo << 8 | in[8 + k];
  }
  uint16_t se = (uint16_t)(hi >> 48);
  uint64_t frac = (hi & 0xffffffffffffULL) << 15 | lo >> 49; /* truncated to 63 bits */
  uint64_t mant = frac | ((se & 0x7fff) ? 1ULL << 63 : 0);
  memset(out, 0, 16);
  memcpy(out, &mant, 8);
  memcpy(out + 8, &se, 2);
}

/* one scalar part of a basic element */
static void part_out(const dt_basic_info *bi, const unsigned char *in, unsigned char *out)
{
  switch (bi->rep) {
  case DT_REP_RAW:
  case DT_REP_BOOL:
    memcpy(out, in, bi->ext32_part);
    break;
  case DT_REP_INT:
  case DT_REP_UINT:
  case DT_REP_FLOAT:
    int_out(in, bi->part_size, out, bi->ext32_part);
    break;
  case DT_REP_X87:
    x87_out(in, out);
    break;
  }
}

static void part_in(const dt_basic_info *bi, const unsigned char *in, unsigned char *out)
{
  switch (bi->rep) {
  case DT_REP_RAW:
  case DT_REP_BOOL:
    memcpy(out, in, bi->ext32_part);
    break;
  case DT_REP_INT:
  case DT_REP_UINT:
  case DT_REP_FLOAT:
    int_in(in, bi->ext32_part, out, bi->part_size, bi->rep == DT_REP_INT);
    break;
  case DT_REP_X87:
    x87_in(in, out);
    break;
  }
}

typedef struct ext_cursor {
  unsigned char *ext;
  bool unpack;
} ext_cursor;

static int convert(const char *elem, const dt_basic_info *bi, void *data)
{
  ext_cursor *c = data;
  unsigned char *mem = (unsigned char *)elem;
  for (int k = 0; k < bi->parts; k++) {
    if (c->unpack)
      part_in(bi, c->ext, mem + (size_t)k * bi->part_size);
    else
      part_out(bi, mem + (size_t)k * bi->part_size, c->ext);
    c->ext += bi->ext32_part;
  }
  if (bi->pair) {
    if (c->unpack)
      int_in(c->ext, 4, mem + bi->pair_int_off, sizeof(int), true);
    else
      int_out(mem + bi->pair_int_off, sizeof(int), c->ext, 4);
    c->ext += 4;
  }
  return 0;
}

static int check_datarep(const char *datarep, const char *fname)
{
  if (!datarep)
    return DT_ERR(MPI_ERR_ARG, "%s: datarep is NULL", fname);
  if (strcmp(datarep, "external32") != 0)
    return DT_ERR(MPI_ERR_UNSUPPORTED_DATAREP,
                  "%s: data representation \"%s\" is not "
                  "supported (only \"external32\")",
                  fname, datarep);
  return MPI_SUCCESS;
}

static int check_type(MPI_Datatype h, bool need_commit, const char *fname, smpi_dt **out)
{
  smpi_dt *dt = smpi_dt_get(h);
  if (!dt)
    return DT_ERR(MPI_ERR_TYPE, "%s: %#x is not a valid datatype", fname, (unsigned)h);
  if (need_commit && !smpi_dt_is_committed(dt))
    return DT_ERR(MPI_ERR_TYPE, "%s: datatype %s is not committed", fname, smpi_dt_name(dt));
  *out = dt;
  return MPI_SUCCESS;
}

int smpi_type_pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                                 MPI_Aint *size)
{
  static const char fname[] = "MPI_Pack_external_size";
  smpi_dt *dt;
  int rc;
  if ((rc = check_datarep(datarep, fname)) || (rc = check_type(datatype, false, fname, &dt)))
    return rc;
  if (incount < 0)
    return DT_ERR(MPI_ERR_COUNT, "%s: incount %d is negative", fname, incount);
  if (!size)
    return DT_ERR(MPI_ERR_ARG, "%s: size is NULL", fname);
  *size = (MPI_Aint)(incount * dt->ext32);
  return MPI_SUCCESS;
}

static int external(const char *datarep, char *user, int count, MPI_Datatype datatype, char *ext,
                    MPI_Aint extsize, MPI_Aint *position, bool unpack, const char *fname)
{
  smpi_dt *dt;
  int rc;
  if ((rc = check_datarep(datarep, fname)) || (rc = check_type(datatype, true, fname, &dt)))
    return rc;
  if (count < 0)
    return DT_ERR(MPI_ERR_COUNT, "%s: count %d is negative", fname, count);
  if (!position || *position < 0 || extsize < 0)
    return DT_ERR(MPI_ERR_ARG, "%s: position NULL or negative, or negative buffer size", fname);
  MPI_Count bytes = count * dt->ext32;
  if (*position + bytes > extsize)
    return DT_ERR(MPI_ERR_TRUNCATE, "%s: %lld bytes at position %ld exceed the %ld-byte buffer",
                  fname, bytes, (long)*position, (long)extsize);
  if (bytes == 0)
    return MPI_SUCCESS;
  ext_cursor c = {.ext = (unsigned char *)ext + *position, .unpack = unpack};
  smpi_dt_walk(dt, user, count, convert, &c);
  smpi_copy_note((size_t)bytes);
  *position += (MPI_Aint)bytes;
  return MPI_SUCCESS;
}

int smpi_type_pack_external(const char *datarep, const void *inbuf, int incount,
                            MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                            MPI_Aint *position)
{
  return external(datarep, (char *)inbuf, incount, datatype, outbuf, outsize, position, false,
                  "MPI_Pack_external");
}

int smpi_type_unpack_external(const char *datarep, const void *inbuf, MPI_Aint insize,
                              MPI_Aint *position, void *outbuf, int outcount,
                              MPI_Datatype datatype)
{
  return external(datarep, outbuf, outcount, datatype, (char *)inbuf, insize, position, true,
                  "MPI_Unpack_external");
}
