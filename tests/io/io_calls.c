/* Every MPI_File_* function once, on a file shared by all ranks, each result checked against
 * what the standard says (data read back byte for byte, pointers, sizes, views, hints).
 * Plain MPI: the same program passes under MPICH (ROMIO) (tests/io/io_mpich.sh).
 *   smpirun -np 4 -platform platforms/io_cluster.xml io_calls [DIR-PREFIX] */
#define MPITEST_NAME "io_calls"
#include "../mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

#define N 16 /* ints per rank per block */

static char path[512];

static void fill(int *b, int n, int rank, int salt)
{
  for (int i = 0; i < n; i++)
    b[i] = rank * 100000 + salt * 1000 + i;
}

static int same(const int *b, int n, int rank, int salt)
{
  for (int i = 0; i < n; i++)
    if (b[i] != rank * 100000 + salt * 1000 + i)
      return 0;
  return 1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  snprintf(path, sizeof path, "%sio_calls.dat", argc > 1 ? argv[1] : "");
  MPI_File fh;
  MPI_Status st;
  int buf[N], got[N], cnt;

  /* files default to MPI_ERRORS_RETURN (MPI 3.1 section 13.7) */
  MPI_Errhandler eh;
  CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &eh) == MPI_SUCCESS, "get_errhandler");
  CHECK(eh == MPI_ERRORS_RETURN, "default file handler");
  MPI_Errhandler_free(&eh);

  if (rank == 0)
    MPI_File_delete(path, MPI_INFO_NULL); /* a leftover of an earlier run; may not exist */
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cb_buffer_size", "1048576");
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh) ==
            MPI_SUCCESS,
        "open %s", path);
  MPI_Info_free(&info);
  int amode;
  MPI_File_get_amode(fh, &amode);
  CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
  MPI_Group g, wg;
  int cmp;
  MPI_File_get_group(fh, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_compare(g, wg, &cmp);
  CHECK(cmp == MPI_IDENT, "group %d", cmp);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  MPI_Info used;
  CHECK(MPI_File_get_info(fh, &used) == MPI_SUCCESS, "get_info");
  MPI_Info_free(&used);
  MPI_Info hint;
  MPI_Info_create(&hint);
  MPI_Info_set(hint, "access_style", "write_once");
  CHECK(MPI_File_set_info(fh, hint) == MPI_SUCCESS, "set_info");
  MPI_Info_free(&hint);

  /* c2f / f2c */
  CHECK(MPI_File_f2c(MPI_File_c2f(fh)) == fh, "c2f/f2c");

  /* independent, explicit offsets: block rank */
  fill(buf, N, rank, 1);
  MPI_Offset blk = (MPI_Offset)N * sizeof(int);
  CHECK(MPI_File_write_at(fh, rank * blk, buf, N, MPI_INT, &st) == MPI_SUCCESS, "write_at");
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(cnt == N, "write_at count %d", cnt);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  int peer = (rank + 1) % size;
  memset(got, 0, sizeof got);
  CHECK(MPI_File_read_at(fh, peer * blk, got, N, MPI_INT, &st) == MPI_SUCCESS, "read_at");
  CHECK(same(got, N, peer, 1), "read_at data of rank %d", peer);
  MPI_Offset sz;
  MPI_File_get_size(fh, &sz);
  CHECK(sz == size * blk, "size %lld", (long long)sz);
  MPI_Barrier(MPI_COMM_WORLD); /* everyone saw the size before it grows */

  /* individual file pointer: seek, write, get_position, read back */
  fill(buf, N, rank, 2);
  MPI_File_seek(fh, (size + rank) * blk, MPI_SEEK_SET);
  MPI_File_write(fh, buf, N, MPI_INT, &st);
  MPI_Offset pos;
  MPI_File_get_position(fh, &pos);
  CHECK(pos == (size + rank + 1) * blk, "position %lld", (long long)pos);
  MPI_File_seek(fh, -blk, MPI_SEEK_CUR);
  memset(got, 0, sizeof got);
  MPI_File_read(fh, got, N, MPI_INT, &st);
  CHECK(same(got, N, rank, 2), "read after seek");
  MPI_Offset disp;
  MPI_File_get_byte_offset(fh, 10, &disp);
  CHECK(disp == 10, "byte offset %lld (byte view)", (long long)disp);

  /* collective: _all, _at_all, split collectives, nonblocking */
  MPI_Barrier(MPI_COMM_WORLD);
  fill(buf, N, rank, 3);
  MPI_File_seek(fh, (2 * size + rank) * blk, MPI_SEEK_SET);
  CHECK(MPI_File_write_all(fh, buf, N, MPI_INT, &st) == MPI_SUCCESS, "write_all");
  MPI_File_seek(fh, (2 * size + peer) * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  CHECK(MPI_File_read_all(fh, got, N, MPI_INT, &st) == MPI_SUCCESS, "read_all");
  CHECK(same(got, N, peer, 3), "read_all data");
  fill(buf, N, rank, 4);
  MPI_File_write_at_all(fh, (3 * size + rank) * blk, buf, N, MPI_INT, &st);
  memset(got, 0, sizeof got);
  MPI_File_read_at_all(fh, (3 * size + peer) * blk, got, N, MPI_INT, &st);
  CHECK(same(got, N, peer, 4), "read_at_all data");

  fill(buf, N, rank, 5);
  MPI_File_write_at_all_begin(fh, (4 * size + rank) * blk, buf, N, MPI_INT);
  MPI_File_write_at_all_end(fh, buf, &st);
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(cnt == N, "write_at_all_end count %d", cnt);
  memset(got, 0, sizeof got);
  MPI_File_read_at_all_begin(fh, (4 * size + peer) * blk, got, N, MPI_INT);
  MPI_File_read_at_all_end(fh, got, &st);
  CHECK(same(got, N, peer, 5), "read_at_all_begin data");
  fill(buf, N, rank, 6);
  MPI_File_seek(fh, (5 * size + rank) * blk, MPI_SEEK_SET);
  MPI_File_write_all_begin(fh, buf, N, MPI_INT);
  MPI_File_write_all_end(fh, buf, &st);
  MPI_File_seek(fh, (5 * size + peer) * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  MPI_File_read_all_begin(fh, got, N, MPI_INT);
  MPI_File_read_all_end(fh, got, &st);
  CHECK(same(got, N, peer, 6), "read_all_begin data");

  MPI_Request rq[2];
  fill(buf, N, rank, 7);
  MPI_File_iwrite_at(fh, (6 * size + rank) * blk, buf, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], &st);
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(cnt == N, "iwrite_at count %d", cnt);
  MPI_Barrier(MPI_COMM_WORLD);
  memset(got, 0, sizeof got);
  MPI_File_iread_at(fh, (6 * size + peer) * blk, got, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], &st);
  CHECK(same(got, N, peer, 7), "iread_at data");
  fill(buf, N, rank, 8);
  MPI_File_seek(fh, (7 * size + rank) * blk, MPI_SEEK_SET);
  MPI_File_iwrite(fh, buf, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_seek(fh, (7 * size + peer) * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  MPI_File_iread(fh, got, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  CHECK(same(got, N, peer, 8), "iread data");
  fill(buf, N, rank, 9);
  MPI_File_iwrite_at_all(fh, (8 * size + rank) * blk, buf, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  memset(got, 0, sizeof got);
  MPI_File_iread_at_all(fh, (8 * size + peer) * blk, got, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  CHECK(same(got, N, peer, 9), "iread_at_all data");
  fill(buf, N, rank, 10);
  MPI_File_seek(fh, (9 * size + rank) * blk, MPI_SEEK_SET);
  MPI_File_iwrite_all(fh, buf, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_File_seek(fh, (9 * size + peer) * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  MPI_File_iread_all(fh, got, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  CHECK(same(got, N, peer, 10), "iread_all data");

  /* shared file pointer: ordered, then shared (any order), nonblocking shared */
  MPI_File_seek_shared(fh, 10 * size * blk, MPI_SEEK_SET);
  fill(buf, N, rank, 11);
  CHECK(MPI_File_write_ordered(fh, buf, N, MPI_INT, &st) == MPI_SUCCESS, "write_ordered");
  /* (MPICH 4.0's ROMIO: on ranks other than 0, get_position_shared still says 10 * size * blk
   * after the ordered write and a barrier: the pointer is not compared here) */
  MPI_File_seek_shared(fh, 10 * size * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  MPI_File_read_ordered(fh, got, N, MPI_INT, &st);
  CHECK(same(got, N, rank, 11), "read_ordered data");
  fill(buf, N, rank, 12);
  MPI_File_seek_shared(fh, 11 * size * blk, MPI_SEEK_SET);
  MPI_File_write_ordered_begin(fh, buf, N, MPI_INT);
  MPI_File_write_ordered_end(fh, buf, &st);
  MPI_File_seek_shared(fh, 11 * size * blk, MPI_SEEK_SET);
  memset(got, 0, sizeof got);
  MPI_File_read_ordered_begin(fh, got, N, MPI_INT);
  MPI_File_read_ordered_end(fh, got, &st);
  CHECK(same(got, N, rank, 12), "read_ordered_begin data");

  /* independent shared-pointer writes land in some order, each block whole */
  MPI_File_seek_shared(fh, 12 * size * blk, MPI_SEEK_SET);
  fill(buf, N, rank, 13);
  if (rank % 2)
    MPI_File_write_shared(fh, buf, N, MPI_INT, &st);
  else {
    MPI_File_iwrite_shared(fh, buf, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_get_position_shared(fh, &pos);
  CHECK(pos == 13 * size * blk, "shared position after write_shared %lld", (long long)pos);
  int *all = malloc((size_t)size * N * sizeof *all), *seen = calloc((size_t)size, sizeof *seen);
  MPI_File_read_at(fh, 12 * size * blk, all, size * N, MPI_INT, &st);
  for (int b = 0; b < size; b++) {
    int who = all[b * N] / 100000;
    CHECK(who >= 0 && who < size && same(all + b * N, N, who, 13), "shared block %d", b);
    if (who >= 0 && who < size)
      seen[who]++;
  }
  for (int r = 0; r < size; r++)
    CHECK(seen[r] == 1, "rank %d's shared block seen %d times", r, seen[r]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_seek_shared(fh, 12 * size * blk, MPI_SEEK_SET);
  MPI_File_iread_shared(fh, got, N, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], &st);
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(cnt == N && same(got, N, got[0] / 100000, 13), "iread_shared");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_read_shared(fh, got, 0, MPI_INT, &st); /* nothing: the pointer stays */
  free(all);
  free(seen);

  /* view: every rank sees its ints of an interleaved file */
  MPI_Datatype vec, ftype;
  MPI_Type_vector(N, 1, size, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, (MPI_Aint)size * N * sizeof(int), &ftype);
  MPI_Type_commit(&ftype);
  MPI_Type_free(&vec);
  MPI_Offset base = 14 * size * blk;
  CHECK(MPI_File_set_view(fh, base + rank * sizeof(int), MPI_INT, ftype, "native",
                          MPI_INFO_NULL) == MPI_SUCCESS,
        "set_view");
  MPI_Offset vd;
  MPI_Datatype et, ft;
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_File_get_view(fh, &vd, &et, &ft, rep);
  CHECK(vd == base + rank * (MPI_Offset)sizeof(int) && et == MPI_INT && !strcmp(rep, "native"),
        "get_view %lld %s", (long long)vd, rep);
  int tsize; /* a new handle (ROMIO's is a dup), of the same type */
  MPI_Aint tlb, text;
  MPI_Type_size(ft, &tsize);
  MPI_Type_get_extent(ft, &tlb, &text);
  CHECK(tsize == N * (int)sizeof(int) && text == (MPI_Aint)size * N * (MPI_Aint)sizeof(int),
        "filetype size %d extent %ld", tsize, (long)text);
  MPI_Type_free(&ft);
  MPI_Aint ext;
  MPI_File_get_type_extent(fh, ftype, &ext);
  CHECK(ext == (MPI_Aint)size * N * (MPI_Aint)sizeof(int), "type extent %ld", (long)ext);
  MPI_File_get_byte_offset(fh, 1, &disp);
  CHECK(disp == base + (rank + size) * (MPI_Offset)sizeof(int), "byte offset in view %lld",
        (long long)disp);
  fill(buf, N, rank, 14);
  MPI_File_write_all(fh, buf, N, MPI_INT, &st);
  MPI_File_get_position(fh, &pos);
  CHECK(pos == N, "position in etypes %lld", (long long)pos);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  int *row = malloc((size_t)size * N * sizeof *row);
  MPI_File_read_at(fh, base, row, size * N, MPI_INT, &st);
  for (int i = 0; i < size * N; i++)
    CHECK(row[i] == (i % size) * 100000 + 14 * 1000 + i / size, "interleaved int %d: %d", i,
          row[i]);
  free(row);
  MPI_Type_free(&ftype);

  /* atomicity, preallocate, set_size, seek from the end */
  int flag;
  MPI_File_set_atomicity(fh, 1);
  MPI_File_get_atomicity(fh, &flag);
  CHECK(flag == 1, "atomicity %d", flag);
  MPI_File_set_atomicity(fh, 0);
  MPI_File_preallocate(fh, 20 * size * blk);
  MPI_File_get_size(fh, &sz);
  CHECK(sz >= 20 * size * blk, "size after preallocate %lld", (long long)sz);
  MPI_File_set_size(fh, 3 * blk);
  MPI_File_get_size(fh, &sz);
  CHECK(sz == 3 * blk, "size after set_size %lld", (long long)sz);
  MPI_File_seek(fh, -blk, MPI_SEEK_END);
  MPI_File_get_position(fh, &pos);
  CHECK(pos == 2 * blk, "seek from end %lld", (long long)pos);
  /* reading past the end gets what is there */
  MPI_File_read_at(fh, 2 * blk + blk / 2, got, N, MPI_INT, &st);
  MPI_Get_count(&st, MPI_INT, &cnt);
  CHECK(cnt == N / 2, "count at the end %d", cnt);

  /* a handler of our own is called by MPI_File_call_errhandler */
  CHECK(MPI_File_call_errhandler(fh, MPI_ERR_OTHER) == MPI_SUCCESS, "call_errhandler");

  CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "close");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    CHECK(MPI_File_delete(path, MPI_INFO_NULL) == MPI_SUCCESS, "delete");
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS,
        "deleted file opens");
  return mpitest_finalize();
}
