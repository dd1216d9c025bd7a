/* Leaves "/sub/keep.dat" (every rank its int, rank r at byte 4r) for io_dir.py, which checks
 * where the file lands: smpi/io-dir, or the run's temporary directory (kept with
 * smpi/io-keep, removed otherwise, even when the job ends with MPI_Abort: argument "abort"). */
#include <string.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, v;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  v = 1000 + rank;
  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, "/sub/keep.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    printf("io_keep: open failed: %s\n", msg);
    MPI_Finalize();
    return 1;
  }
  MPI_File_write_at_all(fh, 4 * rank, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
  if (argc > 1 && !strcmp(argv[1], "abort"))
    MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
