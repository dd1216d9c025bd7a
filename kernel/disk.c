/* Disk model (SimGrid's S19); see disk.h. Example on a disk of read_bw 100 MB/s and
 * write_bw 40 MB/s (readwrite capacity 100 MB/s):
 *
 *   one write of 4 MB                   40 MB/s             -> 0.1 s
 *   two writes of 4 MB together         20 MB/s each        -> 0.2 s
 *   a read and a write of 4 MB together write 40, read 60   -> write 0.1 s, read 0.0733 s
 *                                       (then the read alone at 100)
 */
#include "kernel/disk.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/engine.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(disk, kernel, "disk model (reads and writes on disks)");
LOG_DEFAULT_CATEGORY(disk);

typedef struct disk_res {
  const plat_disk *desc;
  size_t host; /* dense host index */
  char *mount; /* without a trailing '/', except "/" itself */
  lmm_constraint *rd, *wr, *rw;
} disk_res;

static struct disk_state {
  bool initialized;
  act_model model;
  disk_res *disks; /* every disk of every explicit host, document order */
  size_t ndisks;
} dk;

int disk_model_init(const plat_platform *p, const route_table *rt, char *err, size_t errlen)
{
  ASSERTF(!dk.initialized, "disk_model_init called twice without disk_model_shutdown");
  ASSERTF(eng_initialized(), "disk_model_init before eng_init");
  (void)err;
  (void)errlen;
  size_t n = 0;
  for (size_t i = 0; i < p->nhosts; i++)
    n += p->hosts[i]->ndisks;
  dk.disks = xcalloc(n ? n : 1, sizeof *dk.disks);
  dk.ndisks = 0;
  act_model_init(&dk.model, "disk", eng_work_precision());
  for (size_t i = 0; i < p->nhosts; i++) {
    const plat_host *h = p->hosts[i];
    long hi = route_host_by_name(rt, h->id);
    ASSERTF(hi >= 0, "host '%s' of the platform has no index in the routing", h->id);
    for (size_t d = 0; d < h->ndisks; d++) {
      disk_res *r = &dk.disks[dk.ndisks++];
      r->desc = &h->disks[d];
      r->host = (size_t)hi;
      const char *m = plat_props_get(&r->desc->props, "mount");
      if (!m || !*m)
        m = "/";
      r->mount = xstrdup(m);
      size_t len = strlen(r->mount);
      while (len > 1 && r->mount[len - 1] == '/')
        r->mount[--len] = '\0';
      /* the constraints' ids only name them in solver dumps */
      void *id = (void *)(uintptr_t)(dk.ndisks);
      r->rd = lmm_constraint_new(dk.model.sys, id, r->desc->read_bw, LMM_SHARED);
      r->wr = lmm_constraint_new(dk.model.sys, id, r->desc->write_bw, LMM_SHARED);
      r->rw = lmm_constraint_new(dk.model.sys, id, fmax(r->desc->read_bw, r->desc->write_bw),
                                 LMM_SHARED);
    }
  }
  dk.initialized = true;
  return 0;
}

void disk_model_shutdown(void)
{
  if (!dk.initialized)
    return;
  act_model_destroy(&dk.model); /* frees the constraints with the lmm system */
  for (size_t i = 0; i < dk.ndisks; i++)
    free(dk.disks[i].mount);
  free(dk.disks);
  dk.disks = NULL;
  dk.ndisks = 0;
  dk.initialized = false;
}

bool disk_model_initialized(void) { return dk.initialized; }
size_t disk_count(void) { return dk.initialized ? dk.ndisks : 0; }
act_model *disk_act_model(void) { return &dk.model; }

static const disk_res *disk_get(size_t disk)
{
  ASSERTF(dk.initialized && disk < dk.ndisks, "bad disk %zu (%zu disks)", disk,
          dk.initialized ? dk.ndisks : 0);
  return &dk.disks[disk];
}

size_t disk_host(size_t disk) { return disk_get(disk)->host; }
const char *disk_name(size_t disk) { return disk_get(disk)->desc->id; }
const char *disk_mount(size_t disk) { return disk_get(disk)->mount; }
double disk_read_bw(size_t disk) { return disk_get(disk)->desc->read_bw; }
double disk_write_bw(size_t disk) { return disk_get(disk)->desc->write_bw; }

/* length of the mount point if it holds path ("/scratch" holds "/scratch" and
 * "/scratch/a", not "/scratchy"), else 0; "/" holds every absolute path (length 1) */
static size_t mount_match(const char *mount, const char *path)
{
  size_t m = strlen(mount);
  if (m == 1 && mount[0] == '/')
    return path[0] == '/' ? 1 : 0;
  if (strncmp(mount, path, m) != 0 || (path[m] != '\0' && path[m] != '/'))
    return 0;
  return m;
}

long disk_find(size_t host, const char *path)
{
  if (!dk.initialized)
    return -1;
  long best = -1;
  size_t best_len = 0;
  for (int pass = 0; pass < 2 && best < 0; pass++) /* own disks first, then remote ones */
    for (size_t i = 0; i < dk.ndisks; i++) {
      if ((dk.disks[i].host == host) != (pass == 0))
        continue;
      size_t len = mount_match(dk.disks[i].mount, path);
      if (len > best_len) {
        best_len = len;
        best = (long)i;
      }
    }
  return best;
}

act_action *disk_io_start(size_t disk, bool write, double bytes, act_finish_fn fn, void *data)
{
  ASSERTF(bytes >= 0 && isfinite(bytes), "bad amount of bytes %g", bytes);
  const disk_res *r = disk_get(disk);
  act_action *a = act_action_new(&dk.model, bytes, 0.0, 1.0, -1.0, 2, fn, data);
  lmm_expand(dk.model.sys, r->rw, a->var, 1.0);
  lmm_expand(dk.model.sys, write ? r->wr : r->rd, a->var, 1.0);
  LOG_DEBUG("%s %p: %.17g bytes on disk '%s' of host %zu", write ? "write" : "read", (void *)a,
            bytes, r->desc->id, r->host);
  return a;
}
