/* file_cost.c: the simulated time of MPI-IO accesses (the data itself moves in file.c).
 *
 * One contiguous access of n bytes by a rank of host H to a file whose name disk D serves
 * (kernel/disk.h's disk_find):
 *
 *   D on H             a disk action of n bytes (read or write, shared by max-min)
 *   D on host S != H   pieces of smpi/io-rpc-size bytes (Lustre's RPC, 1 MiB), pipelined:
 *                      a write sends piece i to S while S writes piece i - 1; a read
 *                      sends piece i - 1 back while S reads piece i. In lockstep:
 *
 *                        net   [0][1][2]...[k-1]
 *                        disk     [0][1]...[k-2][k-1]      step i waits for both pieces
 *
 *                      so a long access goes at the slower of the two, plus one piece of
 *                      the faster. The messages are the network model's: they share links
 *                      with the application's (a slow or busy link becomes the bottleneck)
 *   no disk            no time (a warning once per run, file.c)
 *
 * An independent access of several pieces (a strided view) is done as ROMIO's data sieving
 * does it: the whole span from the first byte to the last is read (and, for a write,
 * written back after the pieces were put in): span bytes read, plus span bytes written.
 * A small access of many pieces thus costs its whole extent, which is why collective
 * buffering (file_coll.c) wins on interleaved views, as on a real file system. */
#include <stdlib.h>
#include <string.h>

#include "kernel/disk.h"
#include "kernel/network.h"
#include "smpi/io/file.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(io_cost, io, "MPI-IO: simulated time of accesses");
LOG_DEFAULT_CATEGORY(io_cost);

static act_action *net_start(size_t src, size_t dst, double bytes)
{
  static bool warned;
  char err[256];
  act_action *a = net_comm_start(src, dst, bytes, NULL, NULL, err, sizeof err);
  if (!a && !warned) {
    warned = true;
    LOG_WARN("I/O traffic to a storage host takes no time: %s", err);
  }
  return a;
}

static void wait_free(act_action *a)
{
  if (!a)
    return;
  act_wait(a);
  act_action_free(a);
}

void io_cost_disk(size_t host, long disk, bool write, double bytes)
{
  if (disk < 0 || bytes <= 0)
    return;
  size_t dh = disk_host((size_t)disk);
  if (dh == host) {
    wait_free(disk_io_start((size_t)disk, write, bytes, NULL, NULL));
    return;
  }
  long rpc = cfg_get_int("smpi/io-rpc-size");
  double piece = rpc > 0 ? (double)rpc : bytes;
  act_action *second = NULL; /* the previous piece's second stage, still running */
  for (double done = 0; done < bytes; done += piece) {
    double n = bytes - done < piece ? bytes - done : piece;
    act_action *first = write ? net_start(host, dh, n)
                              : disk_io_start((size_t)disk, false, n, NULL, NULL);
    wait_free(second);
    wait_free(first);
    second = write ? disk_io_start((size_t)disk, true, n, NULL, NULL) : net_start(dh, host, n);
  }
  wait_free(second);
}

/* bytes read then bytes written for an independent access of segs */
typedef struct io_plan {
  size_t host;
  long disk;
  double rd, wr;
  smpi_req *req; /* nonblocking: completed at the end */
} io_plan;

static io_plan plan_of(const smpi_file *f, bool write, const io_segs *segs)
{
  io_plan p = {.host = f->host, .disk = f->disk};
  if (segs->n == 0)
    return p;
  double bytes = 0;
  for (size_t i = 0; i < segs->n; i++)
    bytes += (double)segs->v[i].len;
  if (segs->n == 1) {
    *(write ? &p.wr : &p.rd) = bytes;
    return p;
  }
  /* data sieving over the span (the pieces are in file order: MPI 3.1 section 13.3 wants a
   * filetype's displacements non-decreasing) */
  MPI_Offset lo = segs->v[0].off, hi = segs->v[0].off + segs->v[0].len;
  for (size_t i = 1; i < segs->n; i++) {
    if (segs->v[i].off < lo)
      lo = segs->v[i].off;
    if (segs->v[i].off + segs->v[i].len > hi)
      hi = segs->v[i].off + segs->v[i].len;
  }
  p.rd = (double)(hi - lo);
  if (write)
    p.wr = (double)(hi - lo);
  return p;
}

static void plan_run(const io_plan *p)
{
  io_cost_disk(p->host, p->disk, false, p->rd);
  io_cost_disk(p->host, p->disk, true, p->wr);
}

void io_cost_rw(const smpi_file *f, bool write, const io_segs *segs)
{
  io_plan p = plan_of(f, write, segs);
  plan_run(&p);
}

static void async_main(void *arg)
{
  io_plan *p = arg;
  plan_run(p);
  p2p_complete(p->req);
  free(p);
}

void io_cost_rw_async(const smpi_file *f, bool write, const io_segs *segs, void *req)
{
  io_plan *p = xmalloc(sizeof *p);
  *p = plan_of(f, write, segs);
  p->req = req;
  smpi_spawn_helper(write ? "MPI_File_iwrite" : "MPI_File_iread", async_main, p);
}

/* ---- collective buffering hints (ROMIO's names; the config keys give the defaults) ---- */

static bool hint(const smpi_file *f, const char *key, char *v, size_t len)
{
  if (f->info == MPI_INFO_NULL)
    return false;
  int flag = 0;
  smpi_info_value(smpi_info_get(f->info), key, (int)len - 1, v, &flag);
  return flag != 0;
}

size_t io_cb_buffer_size(const smpi_file *f)
{
  char v[64];
  long n = hint(f, "cb_buffer_size", v, sizeof v) ? atol(v) : 0;
  if (n <= 0)
    n = cfg_get_int("smpi/io-cb-buffer-size");
  return n > 0 ? (size_t)n : 16777216;
}

int io_cb_nodes(const smpi_file *f)
{
  char v[64];
  long n = hint(f, "cb_nodes", v, sizeof v) ? atol(v) : 0;
  if (n <= 0)
    n = cfg_get_int("smpi/io-cb-nodes");
  int size = smpi_comm_size(f->c);
  if (n <= 0) { /* one per host of the communicator */
    n = 0;
    for (int r = 0; r < size; r++) {
      size_t h = smpi_w.ranks[smpi_comm_world_rank(f->c, r)].host;
      bool seen = false;
      for (int q = 0; q < r && !seen; q++)
        seen = smpi_w.ranks[smpi_comm_world_rank(f->c, q)].host == h;
      n += !seen;
    }
  }
  return n > size ? size : (int)n;
}

bool io_cb_enabled(const smpi_file *f, bool write)
{
  char v[64];
  return !(hint(f, write ? "romio_cb_write" : "romio_cb_read", v, sizeof v) &&
           strcmp(v, "disable") == 0);
}
