/* MPI-IO (MPI 3.1 chapter 13): file objects, views, and what the MPI_File_* calls do once
 * smpi/bindings/file.c has checked their arguments.
 *
 * Data is real: a file named "/scratch/out.dat" by the program is the host file
 * <smpi/io-dir>/scratch/out.dat (a per-run temporary directory unless set; removed at the end
 * unless smpi/io-keep), read and written with pread/pwrite at the call, byte for byte.
 * Simulated time comes from the models: the disk that holds the name for the rank's host
 * (kernel/disk.h: mount points, local disks first, then a storage host over the network),
 * see file_cost.c; collective calls add ROMIO's two-phase exchange (file_coll.c).
 *
 *   rank r: MPI_File_open(comm, "/scratch/f", ...)   collective
 *     smpi_file {view, individual pointer, error handler, info}   one per rank, a handle
 *       -> io_shared {fd, name, amode, shared pointer, size}       one per open, all ranks
 *
 * Positions are counted in etypes of the current view, offsets in MPI_Offset of the view
 * (MPI 3.1 section 13.4); io_view_map turns (position, bytes) into file byte ranges. */
#ifndef SMPI_SMPI_IO_FILE_H
#define SMPI_SMPI_IO_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"

typedef struct io_shared io_shared;

/* one contiguous piece of a file: bytes [off, off + len) */
typedef struct io_seg {
  MPI_Offset off;
  MPI_Offset len;
} io_seg;

typedef struct io_segs {
  io_seg *v;
  size_t n, cap;
} io_segs;

typedef struct smpi_file {
  int handle;
  io_shared *sh;
  smpi_comm *c;  /* a dup of the communicator opened on (the collective calls' messages) */
  MPI_Comm comm; /* its handle */
  int rank;      /* in c */
  size_t host;   /* the rank's host */
  long disk;     /* kernel/disk.h's disk serving the name for this host, -1: none */
  int amode;
  smpi_errhandler *eh;
  MPI_Info info; /* the hints as set (MPI_INFO_NULL: none) */
  /* view */
  MPI_Offset disp;
  smpi_dt *etype, *filetype; /* one reference each */
  char datarep[MPI_MAX_DATAREP_STRING];
  io_seg *ft_blocks; /* the filetype's data pieces in one extent, typemap order, merged */
  size_t ft_nblocks;
  MPI_Offset ft_size, ft_extent;
  MPI_Offset pos; /* individual file pointer, etypes */
  /* a split collective in progress (MPI_File_*_begin .. _end) */
  int split; /* 0: none, else 1 read / 2 write */
  MPI_Status split_status;
  int ordered_seq; /* MPI_File_*_ordered calls made on this file */
} smpi_file;

void smpi_io_declare_config(void);

smpi_file *smpi_file_get(MPI_File h); /* NULL: null, closed, another rank's or junk */
/* Runs f's error handler (NULL f: MPI_FILE_NULL's, the default for files); returns code. */
int smpi_file_error(smpi_file *f, int code, const char *fname, const char *detail);

/* ---- the calls (comm, amode and info checked by the binding) ---- */
int smpi_file_open(smpi_comm *c, const char *name, int amode, MPI_Info info, MPI_File *out,
                   const char *fname, char *detail, size_t dlen);
int smpi_file_close(smpi_file *f, const char *fname);
int smpi_file_delete(const char *name, char *detail, size_t dlen);
int smpi_file_set_size(smpi_file *f, MPI_Offset size, bool preallocate, const char *fname);
MPI_Offset smpi_file_size(const smpi_file *f);
int smpi_file_set_info(smpi_file *f, MPI_Info info);
MPI_Info smpi_file_get_info(const smpi_file *f);
int smpi_file_set_view(smpi_file *f, MPI_Offset disp, smpi_dt *etype, smpi_dt *filetype,
                       const char *datarep, MPI_Info info, const char *fname);
int smpi_file_seek(smpi_file *f, MPI_Offset offset, int whence, bool shared);
MPI_Offset smpi_file_position(const smpi_file *f, bool shared);
MPI_Offset smpi_file_byte_offset(const smpi_file *f, MPI_Offset offset);
void smpi_file_set_atomicity(smpi_file *f, bool flag);
bool smpi_file_get_atomicity(const smpi_file *f);
int smpi_file_sync(smpi_file *f, const char *fname);

/* What a data call does; MPI_File_<what>[_at][_all|_shared|_ordered]. */
typedef enum { IO_INDIV, IO_AT, IO_SHARED, IO_ALL, IO_AT_ALL, IO_ORDERED } io_where;
/* Reads (write false) or writes count x dt at the position `where` says (offset: IO_AT and
 * IO_AT_ALL only), moves the pointer it uses, sets status. request != NULL: the nonblocking
 * form (MPI_File_i*), *request is set. */
int smpi_file_rw(smpi_file *f, bool write, io_where where, MPI_Offset offset, void *buf,
                 int count, smpi_dt *dt, MPI_Status *status, MPI_Request *request,
                 const char *fname);

/* ---- inside the module ---- */
/* The file byte ranges (appended to out) of bytes data bytes from data byte `start` of f's
 * view (start = position x etype size). */
void io_view_map(const smpi_file *f, MPI_Offset start, MPI_Offset bytes, io_segs *out);
void io_segs_push(io_segs *s, MPI_Offset off, MPI_Offset len);
void io_segs_free(io_segs *s);

/* file_cost.c: simulated time of moving bytes between a host and the disk serving a file.
 * io_cost_rw: the independent access of segs (data sieving when there are several); blocks
 * the calling rank. io_cost_disk: one contiguous access of bytes by `host`. */
void io_cost_rw(const smpi_file *f, bool write, const io_segs *segs);
void io_cost_disk(size_t host, long disk, bool write, double bytes);
/* The nonblocking form: a helper actor pays it and completes r. */
void io_cost_rw_async(const smpi_file *f, bool write, const io_segs *segs, void *req);
size_t io_cb_buffer_size(const smpi_file *f);
int io_cb_nodes(const smpi_file *f);
bool io_cb_enabled(const smpi_file *f, bool write);

/* file_coll.c: the collective timing of a two-phase access (every rank of f calls it with
 * its own segments). */
void io_coll_cost(smpi_file *f, bool write, const io_segs *segs, const char *fname);

#endif
