/* io_checkpoint: an application that checkpoints through MPI-IO and proves its restart.
 *
 * A 2-D heat diffusion on a G x G grid, split in horizontal bands (one per rank, G divisible
 * by the number of ranks), halos exchanged with MPI_Sendrecv. Every `every` steps the whole
 * grid is saved in one file, the way applications do:
 *
 *   [header: magic, step, G, ranks]  (rank 0, MPI_File_write_at)
 *   [grid, row-major doubles]        (every rank its band through a subarray view,
 *                                     MPI_File_write_all: one collective call)
 *
 * At the end the run restarts from the last checkpoint (a fresh open, the header checked,
 * MPI_File_read_all into a zeroed grid), recomputes the steps since, and must land on exactly
 * the same grid as the run that did not stop (a bitwise comparison). Prints the checkpoint
 * write bandwidth and "io_checkpoint: OK".
 *
 *   io_checkpoint [-g G] [-n steps] [-e every] [-o path]   (defaults 256, 45, 10, ckpt.dat) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC 0x434b5054 /* "CKPT" */

typedef struct grid {
  int g, rows, row0; /* global size, my rows, my first global row */
  double *u, *v;     /* (rows + 2) x g: one halo row above and below */
} grid;

static void step(grid *m, int rank, int n)
{
  int g = m->g, up = rank > 0 ? rank - 1 : MPI_PROC_NULL,
      dn = rank < n - 1 ? rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(m->u + g, g, MPI_DOUBLE, up, 0, m->u + (m->rows + 1) * g, g, MPI_DOUBLE, dn, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(m->u + m->rows * g, g, MPI_DOUBLE, dn, 1, m->u, g, MPI_DOUBLE, up, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 1; i <= m->rows; i++) {
    int gi = m->row0 + i - 1;
    for (int j = 0; j < g; j++) {
      double *c = m->u + i * g + j;
      if (gi == 0 || gi == g - 1 || j == 0 || j == g - 1) {
        m->v[i * g + j] = *c; /* fixed boundary */
        continue;
      }
      m->v[i * g + j] = *c + 0.2 * (c[-g] + c[g] + c[-1] + c[1] - 4 * *c);
    }
  }
  double *t = m->u;
  m->u = m->v;
  m->v = t;
}

/* one collective write of the grid (and the header by rank 0); returns the seconds it took */
static double save(const grid *m, const char *path, int stepno, int rank, int n)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  if (rank == 0) {
    int hdr[4] = {MAGIC, stepno, m->g, n};
    MPI_File_write_at(fh, 0, hdr, 4, MPI_INT, MPI_STATUS_IGNORE);
  }
  int gs[2] = {m->g, m->g}, ls[2] = {m->rows, m->g}, st[2] = {m->row0, 0};
  MPI_Datatype ft;
  MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &ft);
  MPI_Type_commit(&ft);
  MPI_File_set_view(fh, 4 * sizeof(int), MPI_DOUBLE, ft, "native", MPI_INFO_NULL);
  MPI_File_write_all(fh, m->u + m->g, m->rows * m->g, MPI_DOUBLE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  MPI_Type_free(&ft);
  return MPI_Wtime() - t;
}

/* returns the step of the checkpoint read into m->u, or -1 if its header is wrong */
static int restore(grid *m, const char *path, int n)
{
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
    return -1;
  int hdr[4];
  MPI_File_read_at_all(fh, 0, hdr, 4, MPI_INT, MPI_STATUS_IGNORE);
  if (hdr[0] != MAGIC || hdr[2] != m->g || hdr[3] != n) {
    MPI_File_close(&fh);
    return -1;
  }
  int gs[2] = {m->g, m->g}, ls[2] = {m->rows, m->g}, st[2] = {m->row0, 0};
  MPI_Datatype ft;
  MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &ft);
  MPI_Type_commit(&ft);
  MPI_File_set_view(fh, 4 * sizeof(int), MPI_DOUBLE, ft, "native", MPI_INFO_NULL);
  memset(m->u, 0, (size_t)(m->rows + 2) * m->g * sizeof *m->u);
  MPI_Status s;
  MPI_File_read_all(fh, m->u + m->g, m->rows * m->g, MPI_DOUBLE, &s);
  int cnt;
  MPI_Get_count(&s, MPI_DOUBLE, &cnt);
  MPI_File_close(&fh);
  MPI_Type_free(&ft);
  return cnt == m->rows * m->g ? hdr[1] : -1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n, c, g = 256, steps = 45, every = 10;
  const char *path = "ckpt.dat";
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  optind = 1; /* in a simulator whose ranks share the process, another rank may have parsed */
  while ((c = getopt(argc, argv, "g:n:e:o:")) != -1) {
    if (c == 'g')
      g = atoi(optarg);
    else if (c == 'n')
      steps = atoi(optarg);
    else if (c == 'e')
      every = atoi(optarg);
    else if (c == 'o')
      path = optarg;
  }
  if (g < 3 || g % n || every <= 0 || steps < every) {
    if (rank == 0)
      fprintf(stderr, "io_checkpoint: the grid size must be a multiple of the ranks, steps >= "
                      "every > 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  grid m = {.g = g, .rows = g / n, .row0 = rank * (g / n)};
  size_t cells = (size_t)(m.rows + 2) * g;
  m.u = calloc(cells, sizeof *m.u);
  m.v = calloc(cells, sizeof *m.v);
  for (int i = 1; i <= m.rows; i++) /* a hot square in a cold plate */
    for (int j = 0; j < g; j++) {
      int gi = m.row0 + i - 1;
      m.u[i * g + j] = (gi > g / 4 && gi < g / 2 && j > g / 4 && j < g / 2) ? 100.0 : 0.0;
    }
  double tsave = 0;
  int saves = 0, last = 0;
  for (int s = 1; s <= steps; s++) {
    step(&m, rank, n);
    if (s % every == 0) {
      tsave += save(&m, path, s, rank, n);
      saves++;
      last = s;
    }
  }
  double *final = malloc(cells * sizeof *final);
  memcpy(final, m.u, cells * sizeof *final);
  /* restart from the last checkpoint, redo the steps since */
  int from = restore(&m, path, n);
  int ok = from == last;
  for (int s = from + 1; ok && s <= steps; s++)
    step(&m, rank, n);
  for (int i = 1; ok && i <= m.rows; i++)
    ok = memcmp(m.u + i * g, final + i * g, (size_t)g * sizeof *final) == 0;
  int all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) {
    double mib = (double)g * g * sizeof(double) / (1 << 20);
    printf("io_checkpoint: %d ranks, %dx%d grid (%.2f MiB), %d checkpoints in %.6f s: %.2f "
           "MiB/s; restarted from step %d\n",
           n, g, g, mib, saves, tsave, saves * mib / tsave, from);
    printf(all ? "io_checkpoint: OK\n" : "io_checkpoint: the restarted run differs\n");
    MPI_File_delete(path, MPI_INFO_NULL);
  }
  free(final);
  free(m.u);
  free(m.v);
  MPI_Finalize();
  return all ? 0 : 1;
}
