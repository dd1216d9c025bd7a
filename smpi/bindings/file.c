/* file.c: the MPI-IO functions (MPI 3.1 chapter 13): each checks its arguments, resolves the
 * file and calls smpi_file_* (smpi/io/file.h). Errors go through the file's error handler,
 * MPI_ERRORS_RETURN unless the program set another (files differ from communicators there,
 * MPI 3.1 section 13.7); those of MPI_File_open and MPI_File_delete, and of a bad file
 * handle, through MPI_FILE_NULL's:
 *
 *   smpi: rank 0: MPI_File_write on file 'out.dat': MPI_ERR_READ_ONLY: ... (if fatal)
 *
 * Error classes are ROMIO's (MPICH's MPI-IO), checked on the same programs run with MPICH
 * (tests/io/). */
#include <string.h>

#include "collectives/coll.h"
#include "smpi/bindings/call.h"
#include "smpi/io/file.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype_impl.h"
#include "src/mem.h"

#define FILE_FAIL(f, code) SMPI_RETURN(smpi_file_error((f), (code), smpi_fname_, NULL))
#define FILE_CHECK(f, cond, code) \
  do {                            \
    if (!(cond))                  \
      FILE_FAIL(f, code);         \
  } while (0)
#define FILE_GET(fh)                        \
  ({                                        \
    smpi_file *smpi_f_ = smpi_file_get(fh); \
    if (!smpi_f_)                           \
      FILE_FAIL(NULL, MPI_ERR_FILE);        \
    smpi_f_;                                \
  })

/* ---- open, close, delete ---- */

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
  SMPI_ENTER("MPI_File_open");
  smpi_comm *c = smpi_comm_get(comm);
  FILE_CHECK(NULL, c && !smpi_comm_is_inter(c), MPI_ERR_COMM);
  FILE_CHECK(NULL, filename && fh, MPI_ERR_ARG);
  FILE_CHECK(NULL, info == MPI_INFO_NULL || smpi_info_valid(info), MPI_ERR_INFO);
  int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) + !!(amode & MPI_MODE_RDWR);
  /* exactly one access mode; nothing to create in a read-only open; a sequential file is
   * read or written, not both (MPI 3.1 section 13.2.1) */
  FILE_CHECK(NULL, rw == 1, MPI_ERR_AMODE);
  FILE_CHECK(NULL, !((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))),
             MPI_ERR_AMODE);
  FILE_CHECK(NULL, !((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)), MPI_ERR_AMODE);
  char detail[512] = "";
  int rc = smpi_file_open(c, filename, amode, info, fh, smpi_fname_, detail, sizeof detail);
  if (rc != MPI_SUCCESS) {
    *fh = MPI_FILE_NULL;
    SMPI_RETURN(smpi_file_error(NULL, rc, smpi_fname_, *detail ? detail : NULL));
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_close(MPI_File *fh)
{
  SMPI_ENTER("MPI_File_close");
  FILE_CHECK(NULL, fh, MPI_ERR_ARG);
  smpi_file *f = FILE_GET(*fh);
  FILE_CHECK(f, !f->split, MPI_ERR_IO);
  smpi_file_close(f, smpi_fname_);
  *fh = MPI_FILE_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_delete(const char *filename, MPI_Info info)
{
  SMPI_ENTER("MPI_File_delete");
  FILE_CHECK(NULL, filename, MPI_ERR_ARG);
  FILE_CHECK(NULL, info == MPI_INFO_NULL || smpi_info_valid(info), MPI_ERR_INFO);
  char detail[512] = "";
  int rc = smpi_file_delete(filename, detail, sizeof detail);
  SMPI_RETURN(smpi_file_error(NULL, rc, smpi_fname_, *detail ? detail : NULL));
}

/* ---- size, amode, group, info ---- */

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
  SMPI_ENTER("MPI_File_set_size");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, size >= 0, MPI_ERR_ARG);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, !(f->amode & MPI_MODE_RDONLY), MPI_ERR_READ_ONLY);
  FILE_FAIL(f, smpi_file_set_size(f, size, false, smpi_fname_));
}

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
  SMPI_ENTER("MPI_File_preallocate");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, size >= 0, MPI_ERR_ARG);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, !(f->amode & MPI_MODE_RDONLY), MPI_ERR_READ_ONLY);
  FILE_FAIL(f, smpi_file_set_size(f, size, true, smpi_fname_));
}

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
  SMPI_ENTER("MPI_File_get_size");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, size, MPI_ERR_ARG);
  *size = smpi_file_size(f);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
  SMPI_ENTER("MPI_File_get_amode");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, amode, MPI_ERR_ARG);
  *amode = f->amode;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
  SMPI_ENTER("MPI_File_get_group");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, group, MPI_ERR_ARG);
  *group = smpi_group_handle_new(smpi_group_ref(f->c->group));
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
  SMPI_ENTER("MPI_File_set_info");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, info == MPI_INFO_NULL || smpi_info_valid(info), MPI_ERR_INFO);
  FILE_FAIL(f, smpi_file_set_info(f, info));
}

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
  SMPI_ENTER("MPI_File_get_info");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, info_used, MPI_ERR_ARG);
  *info_used = smpi_file_get_info(f);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- views ---- */

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
  SMPI_ENTER("MPI_File_set_view");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !f->split, MPI_ERR_IO);
  FILE_CHECK(f, disp >= 0 || disp == MPI_DISPLACEMENT_CURRENT, MPI_ERR_ARG);
  FILE_CHECK(f, disp != MPI_DISPLACEMENT_CURRENT || (f->amode & MPI_MODE_SEQUENTIAL),
             MPI_ERR_ARG);
  smpi_dt *et = smpi_dt_get(etype), *ft = smpi_dt_get(filetype);
  FILE_CHECK(f, et && ft && smpi_dt_is_committed(et) && smpi_dt_is_committed(ft), MPI_ERR_TYPE);
  /* the filetype is made of etypes, and moves forward */
  FILE_CHECK(f, smpi_dt_size(et) > 0 && smpi_dt_size(ft) % smpi_dt_size(et) == 0, MPI_ERR_TYPE);
  FILE_CHECK(f, smpi_dt_lb(ft) >= 0 && smpi_dt_true_lb(ft) >= 0, MPI_ERR_TYPE);
  FILE_CHECK(f, datarep, MPI_ERR_ARG);
  FILE_CHECK(f, !strcmp(datarep, "native") || !strcmp(datarep, "internal"),
             MPI_ERR_UNSUPPORTED_DATAREP);
  FILE_CHECK(f, info == MPI_INFO_NULL || smpi_info_valid(info), MPI_ERR_INFO);
  FILE_FAIL(f, smpi_file_set_view(f, disp, et, ft, datarep, info, smpi_fname_));
}

/* a handle the program may free: a new one for a derived type (MPI 3.1 section 13.3.1) */
static MPI_Datatype view_type(smpi_dt *dt)
{
  if (dt->predefined)
    return dt->info ? dt->info->handle : MPI_DATATYPE_NULL;
  smpi_dt_ref(dt);
  return smpi_dt_publish(dt);
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                       char *datarep)
{
  SMPI_ENTER("MPI_File_get_view");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, disp && etype && filetype && datarep, MPI_ERR_ARG);
  *disp = f->disp;
  *etype = view_type(f->etype);
  *filetype = view_type(f->filetype);
  strcpy(datarep, f->datarep);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
  SMPI_ENTER("MPI_File_get_type_extent");
  smpi_file *f = FILE_GET(fh);
  smpi_dt *dt = smpi_dt_get(datatype);
  FILE_CHECK(f, dt, MPI_ERR_TYPE);
  FILE_CHECK(f, extent, MPI_ERR_ARG);
  *extent = smpi_dt_extent(dt); /* "native": the file's extent is the memory one */
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- data ---- */

/* The checks of every data call, in ROMIO's order; MPI_SUCCESS or the class to raise. */
static int check_rw(const smpi_file *f, bool write, io_where where, MPI_Offset offset,
                    const void *buf, int count, MPI_Datatype datatype, smpi_dt **dt)
{
  bool explicit = where == IO_AT || where == IO_AT_ALL;
  if (explicit && offset < 0)
    return MPI_ERR_ARG;
  if (count < 0)
    return MPI_ERR_COUNT;
  *dt = smpi_dt_get(datatype);
  if (!*dt || !smpi_dt_is_committed(*dt))
    return MPI_ERR_TYPE;
  if (!buf && count > 0 && smpi_dt_size(*dt) > 0)
    return MPI_ERR_BUFFER;
  if (smpi_dt_size(*dt) * (size_t)count % smpi_dt_size(f->etype) != 0)
    return MPI_ERR_IO; /* ROMIO: "only an integral number of etypes can be accessed" */
  if ((f->amode & MPI_MODE_SEQUENTIAL) && where != IO_SHARED && where != IO_ORDERED)
    return MPI_ERR_UNSUPPORTED_OPERATION;
  if (write && (f->amode & MPI_MODE_RDONLY))
    return MPI_ERR_READ_ONLY;
  if (!write && (f->amode & MPI_MODE_WRONLY))
    return MPI_ERR_ACCESS;
  return MPI_SUCCESS;
}

static int do_rw(MPI_File fh, bool write, io_where where, MPI_Offset offset, void *buf, int count,
                 MPI_Datatype datatype, MPI_Status *status, MPI_Request *request,
                 const char *fname)
{
  smpi_file *f = smpi_file_get(fh);
  if (!f)
    return smpi_file_error(NULL, MPI_ERR_FILE, fname, NULL);
  smpi_dt *dt = NULL;
  int rc = check_rw(f, write, where, offset, buf, count, datatype, &dt);
  if (rc == MPI_SUCCESS && request == NULL && status == NULL)
    rc = MPI_ERR_ARG;
  if (rc == MPI_SUCCESS && (where == IO_ALL || where == IO_AT_ALL || where == IO_ORDERED) &&
      f->split)
    rc = MPI_ERR_IO; /* a split collective is in progress on this file */
  if (rc == MPI_SUCCESS)
    rc = smpi_file_rw(f, write, where, offset, buf, count, dt, status, request, fname);
  return smpi_file_error(f, rc, fname, NULL);
}

#define FILE_RW(Name, write, where, ...)                            \
  {                                                                 \
    SMPI_ENTER(Name);                                               \
    SMPI_RETURN(do_rw(fh, write, where, __VA_ARGS__, smpi_fname_)); \
  }

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                   MPI_Status *status) FILE_RW("MPI_File_read", false, IO_INDIV, 0, buf, count,
                                               datatype, status,
                                               NULL) int PMPI_File_write(MPI_File fh,
                                                                         const void *buf,
                                                                         int count,
                                                                         MPI_Datatype datatype,
                                                                         MPI_Status *status)
    FILE_RW("MPI_File_write", true, IO_INDIV, 0, (void *)buf, count, datatype, status,
            NULL) int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                        MPI_Datatype datatype, MPI_Status *status)
        FILE_RW("MPI_File_read_at", false, IO_AT, offset, buf, count, datatype, status,
                NULL) int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                                             int count, MPI_Datatype datatype, MPI_Status *status)
            FILE_RW("MPI_File_write_at", true, IO_AT, offset, (void *)buf, count, datatype,
                    status, NULL) int PMPI_File_read_all(MPI_File fh, void *buf, int count,
                                                         MPI_Datatype datatype,
                                                         MPI_Status *status)
                FILE_RW("MPI_File_read_all", false, IO_ALL, 0, buf, count, datatype, status,
                        NULL) int PMPI_File_write_all(MPI_File fh, const void *buf, int count,
                                                      MPI_Datatype datatype, MPI_Status *status)
                    FILE_RW("MPI_File_write_all", true, IO_ALL, 0, (void *)buf, count, datatype,
                            status, NULL) int PMPI_File_read_at_all(MPI_File fh,
                                                                    MPI_Offset offset, void *buf,
                                                                    int count,
                                                                    MPI_Datatype datatype,
                                                                    MPI_Status *status)
                        FILE_RW("MPI_File_read_at_all", false, IO_AT_ALL, offset, buf, count,
                                datatype, status,
                                NULL) int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset,
                                                                 const void *buf, int count,
                                                                 MPI_Datatype datatype,
                                                                 MPI_Status *status)
                            FILE_RW("MPI_File_write_at_all", true, IO_AT_ALL, offset, (void *)buf,
                                    count, datatype, status,
                                    NULL) int PMPI_File_read_shared(MPI_File fh, void *buf,
                                                                    int count,
                                                                    MPI_Datatype datatype,
                                                                    MPI_Status *status)
                                FILE_RW("MPI_File_read_shared", false, IO_SHARED, 0, buf, count,
                                        datatype, status,
                                        NULL) int PMPI_File_write_shared(MPI_File fh,
                                                                         const void *buf,
                                                                         int count,
                                                                         MPI_Datatype datatype,
                                                                         MPI_Status *status)
                                    FILE_RW(
                                        "MPI_File_write_shared", true, IO_SHARED, 0, (void *)buf,
                                        count, datatype, status,
                                        NULL) int PMPI_File_read_ordered(MPI_File fh, void *buf,
                                                                         int count,
                                                                         MPI_Datatype datatype,
                                                                         MPI_Status *status)
                                        FILE_RW(
                                            "MPI_File_read_ordered", false, IO_ORDERED, 0, buf,
                                            count, datatype, status,
                                            NULL) int PMPI_File_write_ordered(MPI_File fh,
                                                                              const void *buf,
                                                                              int count,
                                                                              MPI_Datatype
                                                                                  datatype,
                                                                              MPI_Status *status)
                                            FILE_RW("MPI_File_write_ordered", true, IO_ORDERED, 0,
                                                    (void *)buf, count, datatype, status, NULL)

    /* nonblocking: independent ones overlap with computation (file_cost.c's helper); collective
 * ones are done when the call returns, and so is their request */
    int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
        FILE_RW("MPI_File_iread", false, IO_INDIV, 0, buf, count, datatype, NULL,
                request) int PMPI_File_iwrite(MPI_File fh, const void *buf, int count,
                                              MPI_Datatype datatype, MPI_Request *request)
            FILE_RW("MPI_File_iwrite", true, IO_INDIV, 0, (void *)buf, count, datatype, NULL,
                    request) int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf,
                                                    int count, MPI_Datatype datatype,
                                                    MPI_Request *request)
                FILE_RW("MPI_File_iread_at", false, IO_AT, offset, buf, count, datatype, NULL,
                        request) int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset,
                                                         const void *buf, int count,
                                                         MPI_Datatype datatype,
                                                         MPI_Request *request)
                    FILE_RW("MPI_File_iwrite_at", true, IO_AT, offset, (void *)buf, count,
                            datatype, NULL,
                            request) int PMPI_File_iread_shared(MPI_File fh, void *buf, int count,
                                                                MPI_Datatype datatype,
                                                                MPI_Request *request)
                        FILE_RW("MPI_File_iread_shared", false, IO_SHARED, 0, buf, count,
                                datatype, NULL,
                                request) int PMPI_File_iwrite_shared(MPI_File fh, const void *buf,
                                                                     int count,
                                                                     MPI_Datatype datatype,
                                                                     MPI_Request *request)
                            FILE_RW("MPI_File_iwrite_shared", true, IO_SHARED, 0, (void *)buf,
                                    count, datatype, NULL,
                                    request) int PMPI_File_iread_all(MPI_File fh, void *buf,
                                                                     int count,
                                                                     MPI_Datatype datatype,
                                                                     MPI_Request *request)
                                FILE_RW("MPI_File_iread_all", false, IO_ALL, 0, buf, count,
                                        datatype, NULL,
                                        request) int PMPI_File_iwrite_all(MPI_File fh,
                                                                          const void *buf,
                                                                          int count,
                                                                          MPI_Datatype datatype,
                                                                          MPI_Request *request)
                                    FILE_RW(
                                        "MPI_File_iwrite_all", true, IO_ALL, 0, (void *)buf,
                                        count, datatype, NULL,
                                        request) int PMPI_File_iread_at_all(MPI_File fh,
                                                                            MPI_Offset offset,
                                                                            void *buf, int count,
                                                                            MPI_Datatype datatype,
                                                                            MPI_Request *request)
                                        FILE_RW(
                                            "MPI_File_iread_at_all", false, IO_AT_ALL, offset,
                                            buf, count, datatype, NULL,
                                            request) int PMPI_File_iwrite_at_all(MPI_File fh,
                                                                                 MPI_Offset
                                                                                     offset,
                                                                                 const void *buf,
                                                                                 int count,
                                                                                 MPI_Datatype
                                                                                     datatype,
                                                                                 MPI_Request
                                                                                     *request)
                                            FILE_RW("MPI_File_iwrite_at_all", true, IO_AT_ALL,
                                                    offset, (void *)buf, count, datatype, NULL,
                                                    request)

    /* ---- split collectives: the whole access at _begin, its status kept for _end ---- */

    static int split_begin(MPI_File fh, bool write, io_where where, MPI_Offset offset, void *buf,
                           int count, MPI_Datatype datatype, const char *fname)
{
  smpi_file *f = smpi_file_get(fh);
  if (!f)
    return smpi_file_error(NULL, MPI_ERR_FILE, fname, NULL);
  if (f->split)
    return smpi_file_error(f, MPI_ERR_IO, fname, "a split collective is already active");
  smpi_dt *dt = NULL;
  int rc = check_rw(f, write, where, offset, buf, count, datatype, &dt);
  if (rc == MPI_SUCCESS)
    rc = smpi_file_rw(f, write, where, offset, buf, count, dt, &f->split_status, NULL, fname);
  if (rc == MPI_SUCCESS)
    f->split = write ? 2 : 1;
  return smpi_file_error(f, rc, fname, NULL);
}

static int split_end(MPI_File fh, bool write, MPI_Status *status, const char *fname)
{
  smpi_file *f = smpi_file_get(fh);
  if (!f)
    return smpi_file_error(NULL, MPI_ERR_FILE, fname, NULL);
  if (f->split != (write ? 2 : 1))
    return smpi_file_error(f, MPI_ERR_IO, fname, "no matching split collective is active");
  f->split = 0;
  if (status && status != MPI_STATUS_IGNORE)
    *status = f->split_status;
  return MPI_SUCCESS;
}

#define FILE_BEGIN(Name, write, where, offset)                                             \
  {                                                                                        \
    SMPI_ENTER(Name);                                                                      \
    SMPI_RETURN(                                                                           \
        split_begin(fh, write, where, offset, (void *)buf, count, datatype, smpi_fname_)); \
  }
#define FILE_END(Name, write)                               \
  {                                                         \
    SMPI_ENTER(Name);                                       \
    (void)buf;                                              \
    SMPI_RETURN(split_end(fh, write, status, smpi_fname_)); \
  }

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) FILE_BEGIN(
    "MPI_File_read_all_begin", false, IO_ALL,
    0) int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                                     MPI_Datatype datatype)
    FILE_BEGIN("MPI_File_write_all_begin", true, IO_ALL, 0) int PMPI_File_read_at_all_begin(
        MPI_File fh, MPI_Offset offset, void *buf, int count,
        MPI_Datatype
            datatype) FILE_BEGIN("MPI_File_read_at_all_begin", false, IO_AT_ALL,
                                 offset) int PMPI_File_write_at_all_begin(MPI_File fh,
                                                                          MPI_Offset offset,
                                                                          const void *buf,
                                                                          int count,
                                                                          MPI_Datatype datatype)
        FILE_BEGIN("MPI_File_write_at_all_begin", true, IO_AT_ALL,
                   offset) int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                                            MPI_Datatype datatype)
            FILE_BEGIN("MPI_File_read_ordered_begin", false, IO_ORDERED,
                       0) int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf,
                                                            int count, MPI_Datatype datatype)
                FILE_BEGIN("MPI_File_write_ordered_begin", true, IO_ORDERED,
                           0) int PMPI_File_read_all_end(MPI_File fh, void *buf,
                                                         MPI_Status *status)
                    FILE_END("MPI_File_read_all_end",
                             false) int PMPI_File_write_all_end(MPI_File fh, const void *buf,
                                                                MPI_Status *status)
                        FILE_END("MPI_File_write_all_end",
                                 true) int PMPI_File_read_at_all_end(MPI_File fh, void *buf,
                                                                     MPI_Status *status)
                            FILE_END("MPI_File_read_at_all_end",
                                     false) int PMPI_File_write_at_all_end(MPI_File fh,
                                                                           const void *buf,
                                                                           MPI_Status *status)
                                FILE_END("MPI_File_write_at_all_end",
                                         true) int PMPI_File_read_ordered_end(MPI_File fh,
                                                                              void *buf,
                                                                              MPI_Status *status)
                                    FILE_END(
                                        "MPI_File_read_ordered_end",
                                        false) int PMPI_File_write_ordered_end(MPI_File fh,
                                                                               const void *buf,
                                                                               MPI_Status *status)
                                        FILE_END("MPI_File_write_ordered_end", true)

    /* ---- file pointers ---- */

    static int check_whence(int whence)
{
  return whence == MPI_SEEK_SET || whence == MPI_SEEK_CUR || whence == MPI_SEEK_END;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
  SMPI_ENTER("MPI_File_seek");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, check_whence(whence), MPI_ERR_ARG);
  FILE_FAIL(f, smpi_file_seek(f, offset, whence, false));
}

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
  SMPI_ENTER("MPI_File_seek_shared");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, check_whence(whence), MPI_ERR_ARG);
  /* collective: every rank passes the same arguments, and none moves on before all did */
  coll_mpi_barrier(f->comm, smpi_fname_);
  int rc = f->rank == 0 ? smpi_file_seek(f, offset, whence, true) : MPI_SUCCESS;
  coll_mpi_bcast(&rc, 1, MPI_INT, 0, f->comm, smpi_fname_);
  FILE_FAIL(f, rc);
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
  SMPI_ENTER("MPI_File_get_position");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, offset, MPI_ERR_ARG);
  *offset = smpi_file_position(f, false);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
  SMPI_ENTER("MPI_File_get_position_shared");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, offset, MPI_ERR_ARG);
  *offset = smpi_file_position(f, true);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
  SMPI_ENTER("MPI_File_get_byte_offset");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !(f->amode & MPI_MODE_SEQUENTIAL), MPI_ERR_UNSUPPORTED_OPERATION);
  FILE_CHECK(f, offset >= 0, MPI_ERR_ARG);
  FILE_CHECK(f, disp, MPI_ERR_ARG);
  *disp = smpi_file_byte_offset(f, offset);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- consistency ---- */

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
  SMPI_ENTER("MPI_File_set_atomicity");
  smpi_file *f = FILE_GET(fh);
  coll_mpi_barrier(f->comm, smpi_fname_);
  smpi_file_set_atomicity(f, flag != 0);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
  SMPI_ENTER("MPI_File_get_atomicity");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, flag, MPI_ERR_ARG);
  *flag = smpi_file_get_atomicity(f);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_sync(MPI_File fh)
{
  SMPI_ENTER("MPI_File_sync");
  smpi_file *f = FILE_GET(fh);
  FILE_CHECK(f, !f->split, MPI_ERR_IO);
  FILE_FAIL(f, smpi_file_sync(f, smpi_fname_));
}

/* ---- error handlers (MPI_File_create_errhandler is in errhandler.c) ---- */

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
  SMPI_ENTER("MPI_File_call_errhandler");
  smpi_file *f = fh == MPI_FILE_NULL ? NULL : FILE_GET(fh);
  smpi_file_error(f, errorcode, smpi_fname_, NULL);
  SMPI_RETURN(MPI_SUCCESS);
}
