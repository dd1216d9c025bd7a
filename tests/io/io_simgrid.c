/* MPI-IO times to compare with SimGrid 3.32 (tools/simgrid-ref/record_io.sh records them,
 * io_simgrid.py compares): 4 ranks on tests/data/simgrid-ref/platforms/io_disks.xml, ranks 0
 * and 2 on n1, 1 and 3 on n2 (round-robin), one disk per host (read 200 MB/s, write 80 MB/s),
 * the file "/scratch/io_simgrid.dat". Each phase starts after a barrier and prints
 * "io <phase> <rank> <seconds the call took>" (%.17g); a rank that sits a phase out prints
 * nothing for it.
 *
 *   alone_w    rank 0 writes 4 MB alone                    4e6 / 80e6        = 0.05 s
 *   alone_r    rank 0 reads 4 MB alone                     4e6 / 200e6       = 0.02 s
 *   big_w      rank 1 writes 16 MB                         16e6 / 80e6       = 0.2 s
 *   shared_w   every rank writes 4 MB: two per disk        2 x 4e6 / 80e6    = 0.1 s
 *   shared_r   every rank reads 4 MB: two per disk         2 x 4e6 / 200e6   = 0.04 s
 *   seq_w      rank 0: seek, then 2 MB with MPI_File_write                   = 0.025 s
 *   all_w      write_at_all, 4 MB each, contiguous blocks (SimGrid's and ROMIO's
 *              collective algorithms differ: compared loosely, see io_simgrid.py)
 *   all_r      read_at_all, the same blocks */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MB 1000000

static void phase(const char *name, int me, int who, MPI_File fh, int write, MPI_Offset off,
                  int n, char *buf, int coll)
{
  MPI_Barrier(MPI_COMM_WORLD);
  if (who >= 0 && me != who)
    return;
  double t = MPI_Wtime();
  MPI_Status st;
  if (coll)
    write ? MPI_File_write_at_all(fh, off, buf, n, MPI_BYTE, &st)
          : MPI_File_read_at_all(fh, off, buf, n, MPI_BYTE, &st);
  else
    write ? MPI_File_write_at(fh, off, buf, n, MPI_BYTE, &st)
          : MPI_File_read_at(fh, off, buf, n, MPI_BYTE, &st);
  t = MPI_Wtime() - t;
  printf("io %s %d %.17g\n", name, me, t);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  char *buf = calloc(16 * MB, 1);
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, "/scratch/io_simgrid.dat", MPI_MODE_CREATE | MPI_MODE_RDWR,
                    MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
    fprintf(stderr, "io_simgrid: cannot open /scratch/io_simgrid.dat\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  phase("alone_w", me, 0, fh, 1, 0, 4 * MB, buf, 0);
  phase("alone_r", me, 0, fh, 0, 0, 4 * MB, buf, 0);
  phase("big_w", me, 1, fh, 1, 0, 16 * MB, buf, 0);
  phase("shared_w", me, -1, fh, 1, (MPI_Offset)me * 4 * MB, 4 * MB, buf, 0);
  phase("shared_r", me, -1, fh, 0, (MPI_Offset)me * 4 * MB, 4 * MB, buf, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    MPI_File_seek(fh, 8 * MB, MPI_SEEK_SET);
    double t = MPI_Wtime();
    MPI_File_write(fh, buf, 2 * MB, MPI_BYTE, MPI_STATUS_IGNORE);
    printf("io seq_w 0 %.17g\n", MPI_Wtime() - t);
    fflush(stdout);
  }
  phase("all_w", me, -1, fh, 1, (MPI_Offset)me * 4 * MB, 4 * MB, buf, 1);
  phase("all_r", me, -1, fh, 0, (MPI_Offset)me * 4 * MB, 4 * MB, buf, 1);
  MPI_File_close(&fh);
  free(buf);
  MPI_Finalize();
  return 0;
}
