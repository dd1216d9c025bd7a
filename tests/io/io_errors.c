/* MPI-IO errors and their classes (ROMIO's, checked by running this program under MPICH):
 * access modes, missing and existing files, read-only and write-only files, bad offsets,
 * counts, types and data representations, sequential files, split collectives, bad
 * handles; and who handles them: files default to MPI_ERRORS_RETURN even when
 * MPI_COMM_WORLD's handler is fatal, a file's own handler gets the file and the code,
 * MPI_FILE_NULL's handler gets the errors of MPI_File_open.
 *   smpirun -np 2 -platform platforms/io_cluster.xml io_errors */
#define MPITEST_NAME "io_errors"
#include "../mpi/mpitest.h"

#include <string.h>

static int calls;     /* the user handler's calls (shared by the ranks: each counts its own */
static MPI_File seen; /* before looking, the program's ranks agree through barriers) */
static int seen_code;

static void handler(MPI_File *f, int *code, ...)
{
  calls++;
  seen = *f;
  seen_code = *code;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank();
  const char *pre = argc > 1 ? argv[1] : "";
  char path[512], missing[512];
  snprintf(path, sizeof path, "%sio_errors.dat", pre);
  snprintf(missing, sizeof missing, "%sio_errors_missing.dat", pre);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL); /* files keep returning */
  MPI_File fh = MPI_FILE_NULL, f2;
  int buf[8] = {0};
  MPI_Status st;

  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL);
    MPI_File_delete(missing, MPI_INFO_NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* access modes */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, 0, MPI_INFO_NULL, &f2), MPI_ERR_AMODE,
              "no access mode");
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &f2),
              MPI_ERR_AMODE, "RDONLY|WRONLY");
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                            MPI_INFO_NULL, &f2),
              MPI_ERR_AMODE, "RDONLY|CREATE");
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_INFO_NULL,
                            &f2),
              MPI_ERR_AMODE, "RDONLY|EXCL");
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                            MPI_INFO_NULL, &f2),
              MPI_ERR_AMODE, "RDWR|SEQUENTIAL");
  /* missing and existing files */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &f2),
              MPI_ERR_NO_SUCH_FILE, "open a missing file");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    CHECK_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE,
                "delete a missing file");
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh),
              MPI_SUCCESS, "create");
  CHECK_CLASS(MPI_File_write_at_all(fh, 0, buf, 8, MPI_INT, &st), MPI_SUCCESS, "write");
  /* write-only: no reading */
  CHECK_CLASS(MPI_File_read_at(fh, 0, buf, 8, MPI_INT, &st), MPI_ERR_ACCESS, "read WRONLY");
  /* bad arguments of data calls */
  CHECK_CLASS(MPI_File_write_at(fh, -1, buf, 8, MPI_INT, &st), MPI_ERR_ARG, "offset -1");
  CHECK_CLASS(MPI_File_write_at(fh, 0, buf, -1, MPI_INT, &st), MPI_ERR_COUNT, "count -1");
  CHECK_CLASS(MPI_File_write_at(fh, 0, buf, 1, MPI_DATATYPE_NULL, &st), MPI_ERR_TYPE,
              "MPI_DATATYPE_NULL");
  MPI_Datatype unc;
  MPI_Type_contiguous(2, MPI_INT, &unc);
  CHECK_CLASS(MPI_File_write_at(fh, 0, buf, 1, unc, &st), MPI_ERR_TYPE, "uncommitted type");
  MPI_Type_free(&unc);
  CHECK_CLASS(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG, "whence");
  CHECK_CLASS(MPI_File_seek(fh, -8, MPI_SEEK_SET), MPI_ERR_ARG, "seek before the start");
  CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "datarep");
  /* split collectives: one at a time, and an end needs its begin */
  CHECK_CLASS(MPI_File_write_all_end(fh, buf, &st), MPI_ERR_IO, "end without begin");
  CHECK_CLASS(MPI_File_write_at_all_begin(fh, 0, buf, 8, MPI_INT), MPI_SUCCESS, "begin");
  CHECK_CLASS(MPI_File_write_at_all_begin(fh, 0, buf, 8, MPI_INT), MPI_ERR_IO, "second begin");
  CHECK_CLASS(MPI_File_write_at_all_end(fh, buf, &st), MPI_SUCCESS, "end");
  /* the file's own handler: called with the file and the code */
  MPI_Errhandler eh;
  MPI_File_create_errhandler(handler, &eh);
  MPI_File_set_errhandler(fh, eh);
  int code = MPI_File_write_at(fh, 0, buf, -1, MPI_INT, &st);
  CHECK(calls == 1 && seen == fh && seen_code == code && class_of(code) == MPI_ERR_COUNT,
        "user handler: calls %d, code %d", calls, seen_code);
  MPI_Errhandler got;
  MPI_File_get_errhandler(fh, &got);
  CHECK(got == eh, "get_errhandler");
  MPI_Errhandler_free(&got);
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  MPI_File_close(&fh);
  /* bad handles: MPI_FILE_NULL's handler */
  CHECK_CLASS(MPI_File_write(MPI_FILE_NULL, buf, 1, MPI_INT, &st), MPI_ERR_FILE, "FILE_NULL");
  CHECK_CLASS(MPI_File_close(&fh), MPI_ERR_FILE, "closed file");
  /* MPI_FILE_NULL's handler takes the errors of MPI_File_open */
  calls = 0;
  MPI_File_set_errhandler(MPI_FILE_NULL, eh);
  code = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &f2);
  CHECK(calls == 1 && seen == MPI_FILE_NULL && class_of(code) == MPI_ERR_NO_SUCH_FILE,
        "open error to MPI_FILE_NULL's handler: calls %d", calls);
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);
  MPI_Barrier(MPI_COMM_WORLD);
  /* existing file with EXCL */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL,
                            &f2),
              MPI_ERR_FILE_EXISTS, "EXCL on an existing file");
  /* read-only: no writing, no resizing */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
              MPI_SUCCESS, "open read-only");
  CHECK_CLASS(MPI_File_write_at(fh, 0, buf, 8, MPI_INT, &st), MPI_ERR_READ_ONLY, "write RDONLY");
  CHECK_CLASS(MPI_File_read_at(fh, 0, buf, 8, MPI_INT, &st), MPI_SUCCESS, "read RDONLY");
  MPI_File_close(&fh);
  /* append: both pointers start at the end */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND,
                            MPI_INFO_NULL, &fh),
              MPI_SUCCESS, "open append");
  MPI_Offset pos, shpos, size;
  MPI_File_get_size(fh, &size);
  MPI_File_get_position(fh, &pos);
  MPI_File_get_position_shared(fh, &shpos);
  CHECK(size == 8 * (MPI_Offset)sizeof(int) && pos == size && shpos == size,
        "append: size %lld, position %lld, shared %lld", (long long)size, (long long)pos,
        (long long)shpos);
  MPI_File_close(&fh);
  /* sequential: shared pointer only */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                            MPI_INFO_NULL, &fh),
              MPI_SUCCESS, "open sequential");
  CHECK_CLASS(MPI_File_write_at(fh, 0, buf, 8, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION,
              "write_at on a sequential file");
  CHECK_CLASS(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION,
              "seek on a sequential file");
  CHECK_CLASS(MPI_File_write_ordered(fh, buf, 8, MPI_INT, &st), MPI_SUCCESS,
              "write_ordered on a sequential file");
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    CHECK_CLASS(MPI_File_delete(path, MPI_INFO_NULL), MPI_SUCCESS, "delete");
  return mpitest_finalize();
}
