/* The disk model (SimGrid's S19 disk model): reads and writes as max-min actions on a disk's
 * three constraints.
 *
 * A disk (<disk id read_bw write_bw> inside a <host>) has three SHARED constraints:
 *
 *   read       capacity read_bw        crossed by every read
 *   write      capacity write_bw       crossed by every write
 *   readwrite  capacity max(read_bw, write_bw)   crossed by every read and every write
 *
 * and an I/O of n bytes is one variable (penalty 1, no bound, no latency) on readwrite and on
 * read or write. So a lone read of n bytes takes n / read_bw; two concurrent writes share
 * write_bw equally (each takes twice as long); a read and a write together are each limited
 * by their own constraint and both by the readwrite one (read_bw 100, write_bw 40: the write
 * gets 40 and the read min(100, 100 - 40) = 60).
 *
 * Mount points: a disk's <prop id="mount" value="/scratch"/> says which file names it holds
 * (SimGrid's file-system plugin spelling); a disk without one is mounted at "/". disk_find
 * picks, for a host and a path, the disk whose mount point is the longest prefix of the path
 * (at a '/' boundary) among the host's own disks, else among every other host's (a storage
 * host reached over the network: the caller moves the bytes there as a message). The kernel
 * knows nothing of files: the MPI layer (smpi/io/) asks for a disk and starts actions.
 *
 * One disk model per simulated world (a singleton, like the engine). */
#ifndef SMPI_KERNEL_DISK_H
#define SMPI_KERNEL_DISK_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/activity.h"
#include "kernel/routing.h"
#include "src/platform.h"

/* After eng_init. p and rt must outlive the model. Returns 0, or -1 with a message in err. */
int disk_model_init(const plat_platform *p, const route_table *rt, char *err, size_t errlen);
void disk_model_shutdown(void); /* running actions are dropped */
bool disk_model_initialized(void);

size_t disk_count(void);
/* The disk serving path for a rank on host (see "Mount points"), or -1 if none does. */
long disk_find(size_t host, const char *path);
size_t disk_host(size_t disk);       /* dense host index of the host holding it */
const char *disk_name(size_t disk);  /* its id */
const char *disk_mount(size_t disk); /* "/scratch", or "/" */
double disk_read_bw(size_t disk);    /* B/s */
double disk_write_bw(size_t disk);   /* B/s */

/* Starts a read (write false) or a write of bytes (>= 0) on disk. fn (may be NULL, e.g. to
 * act_wait the action) runs when it ends. Free the returned action with act_action_free. */
act_action *disk_io_start(size_t disk, bool write, double bytes, act_finish_fn fn, void *data);

act_model *disk_act_model(void); /* for tests */

#endif
