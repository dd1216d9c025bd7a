/* File views with derived filetypes: a strided (vector) view where each rank owns every n-th
 * block, and a 2-D subarray view (a block decomposition of a global array), written and read
 * collectively and independently; the file is checked byte for byte through a plain byte view.
 * Plain MPI: the same program passes under MPICH (ROMIO).
 *   smpirun -np 4 -platform platforms/io_cluster.xml io_views */
#define MPITEST_NAME "io_views"
#include "../mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

#define B 3   /* doubles per block of the strided view */
#define NB 50 /* blocks per rank */
#define G 24  /* the global array is G x G ints */

static double val(int rank, int i) { return rank * 1e6 + i + 0.25; }

/* the strided view, written with write_all (collective) or write (independent) */
static void strided(MPI_File fh, int rank, int size, int coll, MPI_Offset disp)
{
  MPI_Datatype blk, ft;
  MPI_Type_contiguous(B, MPI_DOUBLE, &blk);
  MPI_Type_create_resized(blk, 0, (MPI_Aint)size * B * sizeof(double), &ft);
  MPI_Type_commit(&ft);
  MPI_Type_free(&blk);
  MPI_File_set_view(fh, disp + (MPI_Offset)rank * B * sizeof(double), MPI_DOUBLE, ft, "native",
                    MPI_INFO_NULL);
  double *buf = malloc(NB * B * sizeof *buf);
  for (int i = 0; i < NB * B; i++)
    buf[i] = val(rank, i);
  MPI_Status st;
  int rc = coll ? MPI_File_write_all(fh, buf, NB * B, MPI_DOUBLE, &st)
                : MPI_File_write(fh, buf, NB * B, MPI_DOUBLE, &st);
  CHECK(rc == MPI_SUCCESS, "strided write (coll %d)", coll);
  int cnt;
  MPI_Get_count(&st, MPI_DOUBLE, &cnt);
  CHECK(cnt == NB * B, "strided count %d", cnt);
  MPI_Barrier(MPI_COMM_WORLD);
  /* read back the neighbour's part through its view (a view of our own at its offset) */
  int peer = (rank + 1) % size;
  MPI_File_set_view(fh, disp + (MPI_Offset)peer * B * sizeof(double), MPI_DOUBLE, ft, "native",
                    MPI_INFO_NULL);
  memset(buf, 0, NB * B * sizeof *buf);
  rc = coll ? MPI_File_read_all(fh, buf, NB * B, MPI_DOUBLE, &st)
            : MPI_File_read(fh, buf, NB * B, MPI_DOUBLE, &st);
  CHECK(rc == MPI_SUCCESS, "strided read (coll %d)", coll);
  int bad = 0;
  for (int i = 0; i < NB * B; i++)
    bad += buf[i] != val(peer, i);
  CHECK(bad == 0, "strided read of rank %d (coll %d): %d wrong", peer, coll, bad);
  free(buf);
  MPI_Type_free(&ft);
  /* the whole region through bytes */
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  if (rank == 0) {
    double *all = malloc((size_t)size * NB * B * sizeof *all);
    MPI_File_read_at(fh, disp, all, size * NB * B, MPI_DOUBLE, &st);
    bad = 0;
    for (int k = 0; k < size * NB * B; k++) {
      int block = k / B, owner = block % size, idx = (block / size) * B + k % B;
      bad += all[k] != val(owner, idx);
    }
    CHECK(bad == 0, "strided file layout (coll %d): %d wrong", coll, bad);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* a px x py decomposition of a G x G int array, each rank's tile a subarray filetype; the
 * memory buffer has a halo of 1 (a subarray of memory too) */
static void tiles(MPI_File fh, int rank, int size, int coll, MPI_Offset disp)
{
  int px = 1;
  while (px * px < size)
    px *= 2;
  if (size % px)
    px = 1;
  int py = size / px;
  int gs[2] = {G, G}, ls[2] = {G / px, G / py},
      st0[2] = {(rank / py) * ls[0], (rank % py) * ls[1]};
  MPI_Datatype ft, mt;
  MPI_Type_create_subarray(2, gs, ls, st0, MPI_ORDER_C, MPI_INT, &ft);
  MPI_Type_commit(&ft);
  int ms[2] = {ls[0] + 2, ls[1] + 2}, mst[2] = {1, 1};
  MPI_Type_create_subarray(2, ms, ls, mst, MPI_ORDER_C, MPI_INT, &mt);
  MPI_Type_commit(&mt);
  int *mem = calloc((size_t)ms[0] * ms[1], sizeof *mem);
  for (int i = 0; i < ls[0]; i++)
    for (int j = 0; j < ls[1]; j++)
      mem[(i + 1) * ms[1] + j + 1] = (st0[0] + i) * G + st0[1] + j + 7;
  MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL);
  MPI_Status st;
  int rc = coll ? MPI_File_write_all(fh, mem, 1, mt, &st) : MPI_File_write(fh, mem, 1, mt, &st);
  CHECK(rc == MPI_SUCCESS, "tile write (coll %d)", coll);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  int *all = malloc(G * G * sizeof *all);
  MPI_File_read_at_all(fh, disp, all, G * G, MPI_INT, &st);
  int bad = 0;
  for (int k = 0; k < G * G; k++)
    bad += all[k] != k + 7;
  CHECK(bad == 0, "global array from tiles (coll %d): %d wrong", coll, bad);
  free(all);
  /* and each tile read back through the view into the halo buffer */
  memset(mem, 0xff, (size_t)ms[0] * ms[1] * sizeof *mem);
  MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL);
  rc = coll ? MPI_File_read_all(fh, mem, 1, mt, &st) : MPI_File_read(fh, mem, 1, mt, &st);
  bad = 0;
  for (int i = 0; i < ms[0]; i++)
    for (int j = 0; j < ms[1]; j++) {
      int inner = i > 0 && j > 0 && i <= ls[0] && j <= ls[1];
      int want = inner ? (st0[0] + i - 1) * G + st0[1] + j - 1 + 7 : -1;
      bad += mem[i * ms[1] + j] != want;
    }
  CHECK(rc == MPI_SUCCESS && bad == 0, "tile read (coll %d): %d wrong", coll, bad);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  free(mem);
  MPI_Type_free(&ft);
  MPI_Type_free(&mt);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  char path[512];
  snprintf(path, sizeof path, "%sio_views.dat", argc > 1 ? argv[1] : "");
  MPI_File fh;
  CHECK(MPI_File_open(MPI_COMM_WORLD, path,
                      MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                      &fh) == MPI_SUCCESS,
        "open");
  MPI_Offset region = (MPI_Offset)size * NB * B * sizeof(double) + 64;
  strided(fh, rank, size, 1, 0);
  strided(fh, rank, size, 0, region);
  tiles(fh, rank, size, 1, 2 * region);
  tiles(fh, rank, size, 0, 2 * region + G * G * sizeof(int) + 8);
  MPI_File_close(&fh);
  /* MPI_MODE_DELETE_ON_CLOSE: gone */
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS,
        "file deleted on close");
  return mpitest_finalize();
}
