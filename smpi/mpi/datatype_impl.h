/* Inside the datatype module (smpi/mpi/datatype*.c): the object layout shared by its files,
 * and the builders on objects (the MPI functions without their bindings, smpi_type_*, are
 * in datatype.h). smpi_dt_ref/unref let layers that keep a datatype past the call (pending
 * requests) hold it alive across MPI_Type_free. */
#ifndef SMPI_SMPI_DATATYPE_IMPL_H
#define SMPI_SMPI_DATATYPE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi/datatype.h"

/* ---- compiled typemap -------------------------------------------------------------------
 * A program is a list of nodes run in order; each node is `count` runs, the i-th at
 * `off + i * stride` from the element's origin, of either `len` contiguous bytes (a leaf) or
 * a whole sub-program (a loop). Worked example, MPI_Type_vector(3, 2, 4, MPI_INT):
 *
 *     memory:  [0 1 . .|4 5 . .|8 9]        (ints; '.' skipped)
 *     program: leaf {off 0, len 8, count 3, stride 16}
 *
 * and a contiguous(1000) of a struct whose data is two separate pieces is one loop node
 * {off 0, count 1000, stride extent, sub = the struct's two leaves}: the size of a program
 * never grows with the replication counts of vector/contiguous constructors. */
typedef struct dt_prog dt_prog;
typedef struct dt_node {
  MPI_Aint off;
  MPI_Aint stride;
  size_t count;
  size_t len;         /* leaf: bytes per run; 0 for a loop */
  const dt_prog *sub; /* loop: the body; NULL for a leaf */
} dt_node;

struct dt_prog {
  dt_node *nodes;
  size_t n, cap;
  size_t bytes; /* data bytes one run of the whole program moves */
};

/* How a type is built, for walks that need basic-element boundaries (elements, external32)
 * rather than merged bytes. */
typedef enum {
  DT_SHAPE_BASIC,    /* predefined with data */
  DT_SHAPE_MARKER,   /* MPI_LB, MPI_UB: bounds only */
  DT_SHAPE_HVECTOR,  /* count blocks of blocklen inner elements, block i at i * stride */
  DT_SHAPE_HINDEXED, /* count blocks of blocklens[i] (or blocklen) inner elements at disps[i] */
  DT_SHAPE_STRUCT,   /* count blocks of blocklens[i] inners[i] at disps[i] */
  DT_SHAPE_ALIAS,    /* the typemap of inner, with other bounds (dup, resized, subarray...) */
} dt_shape;

/* what a predefined type is, for reductions and external32 */
typedef enum {
  DT_REP_RAW,   /* bytes: no conversion (MPI_BYTE, MPI_PACKED, characters) */
  DT_REP_INT,   /* two's complement integer of size bytes (signed or not: same bits) */
  DT_REP_UINT,  /* unsigned integer (external32 narrowing: no sign extension) */
  DT_REP_FLOAT, /* IEEE binary float of size bytes */
  DT_REP_X87,   /* long double: x87 80-bit extended in 16 bytes */
  DT_REP_BOOL,  /* 1-byte boolean */
} dt_rep;

typedef struct dt_basic_info {
  MPI_Datatype handle;
  const char *name;
  size_t size;   /* bytes of data (pairs: value + int) */
  size_t extent; /* sizeof the C type (pairs: of the struct) */
  size_t align;
  /* a value is `parts` scalars of part_size bytes (complex: 2); pairs: one value of
   * part_size bytes then an int at pair_int_off (in memory) */
  dt_rep rep;
  size_t part_size;
  int parts;
  bool pair;
  size_t pair_int_off;
  size_t ext32_part; /* external32 bytes of one scalar part */
} dt_basic_info;

struct smpi_dt {
  int refs; /* handles naming it + types built on it + pending users */
  bool predefined;
  bool committed;
  char *name; /* user-set name (any type), or NULL */

  MPI_Count size;
  MPI_Aint lb, ub;           /* extent = ub - lb */
  MPI_Aint true_lb, true_ub; /* 0, 0 without data */
  size_t align;              /* strictest alignment of its basic members (struct padding) */
  MPI_Count nelem;           /* basic elements in one element */
  MPI_Count ext32;           /* bytes of one element in the external32 representation */
  MPI_Datatype basic;        /* smpi_dt_basic_type; SMPI_DT_BASIC_NONE if no data yet */
  int sig;                   /* smpi_dt_signature (set when committed) */
  bool contiguous;
  const dt_basic_info *info; /* predefined only */

  /* envelope / contents, exactly as the constructor got them */
  int combiner;
  int ni, na, nd;
  int *ints;
  MPI_Aint *addrs;
  smpi_dt **ctypes; /* nd types (one reference each) */

  /* shape */
  dt_shape shape;
  MPI_Count count;
  MPI_Count blocklen;   /* HVECTOR, and HINDEXED when blocklens is NULL */
  MPI_Count *blocklens; /* HINDEXED, STRUCT */
  MPI_Aint stride;      /* HVECTOR, bytes */
  MPI_Aint *disps;      /* HINDEXED, STRUCT, bytes */
  smpi_dt *inner;       /* HVECTOR, HINDEXED, ALIAS (one reference) */
  smpi_dt **inners;     /* STRUCT (one reference each) */

  /* compiled typemap */
  dt_prog own;         /* this type's own program (empty for an ALIAS) */
  const dt_prog *prog; /* what pack runs: &own, or the program of the aliased type */
  dt_prog **aux;       /* programs owned by this type that its loop nodes run */
  size_t naux;
};

/* smpi_dt.basic before any data was seen (e.g. the empty struct), merged away by the first
 * member with a basic type */
#define SMPI_DT_BASIC_NONE (-1)

/* ---- objects ---- */
void smpi_dt_ref(smpi_dt *dt);
void smpi_dt_unref(smpi_dt *dt);
const dt_basic_info *smpi_dt_basic_info(MPI_Datatype h); /* NULL if not a predefined type */
/* builders on objects (no handle, no contents: the caller sets combiner and contents) */
smpi_dt *smpi_dt_make_hvector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride,
                              smpi_dt *inner);
smpi_dt *smpi_dt_make_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps,
                             smpi_dt *const *inners, bool mpi_padding);
smpi_dt *smpi_dt_make_resized(smpi_dt *inner, MPI_Aint lb, MPI_Aint extent);
/* takes over the object's creation reference; returns the new handle */
MPI_Datatype smpi_dt_publish(smpi_dt *dt);
/* contents: copies of the arrays, one reference taken on each type */
void smpi_dt_set_contents(smpi_dt *dt, int combiner, int ni, const int *ints, int na,
                          const MPI_Aint *addrs, int nd, smpi_dt *const *types);
/* Walks the basic elements of count elements of dt at buf in typemap order: calls fn with
 * each basic element's address and description; stops early when fn returns non-zero. */
int smpi_dt_walk(const smpi_dt *dt, const char *buf, MPI_Count count,
                 int (*fn)(const char *elem, const dt_basic_info *info, void *data), void *data);
/* inverse of smpi_dt_elements: packed bytes that hold the first `elements` basic elements
 * of a stream of dt (MPI_Status_set_elements) */
MPI_Count smpi_dt_elements_bytes(const smpi_dt *dt, MPI_Count elements);
/* Pack with a byte limit: moves min(limit, count * size) bytes; returns that number. */
size_t smpi_dt_pack_some(const void *buf, size_t count, const smpi_dt *dt, void *out,
                         size_t limit);

#endif
