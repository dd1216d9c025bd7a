/* Diagnostics of wrong MPI programs; the design is in check.h.
 *
 * Deadlock report, worked example (p2p_deadlock recv: both ranks receive first):
 *
 *   wait-for graph   rank 0 --MPI_Recv(from 1, tag 5)--> rank 1
 *                    rank 1 --MPI_Recv(from 0, tag 5)--> rank 0
 *   printed          smpi: deadlock cycle: rank 0 -> rank 1 -> rank 0
 *                      rank 0 waits in MPI_Recv at p2p_deadlock.c:26 for rank 1: ...
 *
 * Edges come from the requests each blocked rank's wait still needs (a receive from
 * MPI_ANY_SOURCE has no single target and gives no edge); a rank whose main returned has
 * no out-edge, and waiting for it is reported on its own ("rank 1 has already finished").
 * Cycles are found by one depth-first search over the ranks: O(ranks + edges). */
#include "smpi/mpi/check.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/engine.h"
#include "smpi/mpi/comm_impl.h" /* smpi_u64map */
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/emulation/privatize.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/sigsafe.h"

LOG_NEW_SUBCATEGORY(smpi_check, smpi, "diagnostics of wrong MPI programs");
LOG_DEFAULT_CATEGORY(smpi_check);

extern char **environ;

const void **smpi_check_sites;
const char **smpi_check_calls;
bool smpi_check_buffers;

static struct check_state {
  bool config_read;
  bool coll_on;
  bool types_on;
  smpi_u64map comms; /* (coll context, world rank of local rank 0) -> comm_chk */
  smpi_u64map where; /* call site -> " at file:line" or "" */
  struct a2l *a2l;   /* addr2line coprocesses, one per object file */
  size_t n_a2l, cap_a2l;
  bool a2l_missing;          /* addr2line could not be started: no more tries */
  struct inflight *inflight; /* smpi/check-buffers: per world rank, its requests in flight */
  size_t n_inflight;
} checker;

static const cfg_key check_keys[] = {
    CFG_KEY_BOOL("smpi/check-collectives", true,
                 "Check that the members of each collective call agree on the collective, "
                 "root, amount of data, datatype and operation; a mismatch ends the job "
                 "with a report (no simulated cost)"),
    CFG_KEY_BOOL("smpi/check-types", true,
                 "Check that the datatypes of each point-to-point message and of the receive "
                 "that takes it match (MPI_BYTE and MPI_PACKED match anything): a mismatch "
                 "is reported and the receive fails with MPI_ERR_TYPE (no simulated cost)"),
    CFG_KEY_BOOL("smpi/check-buffers", false,
                 "Checksum the buffer of every nonblocking send and receive when it starts and "
                 "verify it when the request completes (and when a receive's message "
                 "arrives), and check that no receive buffer overlaps another buffer in "
                 "flight: modifying a pending buffer or overlapping ones ends the job with a "
                 "report"),
};

void smpi_check_declare_config(void) { cfg_declare_keys(check_keys, CFG_NKEYS(check_keys)); }

static void read_config(void)
{
  if (checker.config_read)
    return;
  checker.config_read = true;
  smpi_check_declare_config();
  checker.coll_on = cfg_get_bool("smpi/check-collectives");
  checker.types_on = cfg_get_bool("smpi/check-types");
  smpi_check_buffers = cfg_get_bool("smpi/check-buffers");
}

void smpi_check_alloc_sites(void)
{
  int n = smpi_w.np > 0 ? smpi_w.np : 1;
  smpi_check_sites = xcalloc((size_t)n, sizeof *smpi_check_sites);
  smpi_check_calls = xcalloc((size_t)n, sizeof *smpi_check_calls);
  read_config();
}

const void *smpi_check_site_of(int world_rank)
{
  return smpi_check_sites && world_rank >= 0 ? smpi_check_sites[world_rank] : NULL;
}

bool smpi_check_collectives_enabled(void)
{
  read_config();
  return checker.coll_on;
}

/* ---- call sites -> "file:line" ---- */

struct a2l {
  char *path;
  pid_t pid;
  int to;     /* its stdin */
  FILE *from; /* its stdout */
};

struct find_obj {
  uintptr_t addr;
  uintptr_t base;
  const char *name;
  bool found;
};

static int find_obj_cb(struct dl_phdr_info *info, size_t size, void *data)
{
  struct find_obj *f = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (f->addr >= lo && f->addr < lo + ph->p_memsz) {
      f->base = info->dlpi_addr;
      f->name = info->dlpi_name;
      f->found = true;
      return 1;
    }
  }
  return 0;
}

static bool find_object(const void *addr, struct find_obj *f)
{
  memset(f, 0, sizeof *f);
  f->addr = (uintptr_t)addr;
  dl_iterate_phdr(find_obj_cb, f);
  return f->found;
}

static struct a2l *a2l_for(const char *path)
{
  for (size_t i = 0; i < checker.n_a2l; i++)
    if (!strcmp(checker.a2l[i].path, path))
      return checker.a2l[i].pid > 0 ? &checker.a2l[i] : NULL;
  XGROW(checker.a2l, checker.cap_a2l, checker.n_a2l + 1);
  struct a2l *a = &checker.a2l[checker.n_a2l++];
  memset(a, 0, sizeof *a);
  a->path = xstrdup(path);
  if (checker.a2l_missing)
    return NULL;
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0)
    return NULL;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return NULL;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {"addr2line", "-e", a->path, NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    checker.a2l_missing = true;
    fprintf(stderr,
            "smpi: cannot run addr2line (%s): reports show no source lines; install "
            "binutils to get them\n",
            strerror(rc));
    return NULL;
  }
  a->pid = pid;
  a->to = in[1];
  a->from = fdopen(out[0], "r");
  return a;
}

/* "file:line" of an address in an object, or false */
static bool a2l_query(struct a2l *a, uintptr_t off, char *buf, size_t len)
{
  char q[32];
  int n = snprintf(q, sizeof q, "%#" PRIxPTR "\n", off);
  /* a dead addr2line must not kill the simulation with SIGPIPE */
  struct sigaction ign = {.sa_handler = SIG_IGN}, old;
  sigaction(SIGPIPE, &ign, &old);
  ssize_t w = write(a->to, q, (size_t)n);
  sigaction(SIGPIPE, &old, NULL);
  if (w != n || !fgets(buf, (int)len, a->from)) {
    a->pid = 0;
    return false;
  }
  buf[strcspn(buf, "\n")] = 0;
  char *disc = strstr(buf, " (discriminator");
  if (disc)
    *disc = 0;
  const char *colon = strrchr(buf, ':');
  if (!strncmp(buf, "??", 2) || !colon || colon[1] == '?' || !strcmp(colon, ":0"))
    return false;
  return true;
}

const char *smpi_check_where(const void *site)
{
  if (!site)
    return "";
  char *s = smpi_u64map_get(&checker.where, (uintptr_t)site);
  if (s)
    return s;
  s = "";
  struct find_obj f, self;
  /* an address inside the simulator itself (a non-tail-called MPI_ wrapper) says nothing */
  if (find_object(site, &f) &&
      !(find_object((const void *)smpi_check_where, &self) && self.base == f.base)) {
    char exe[4096];
    const char *path = f.name;
    if (!path || !*path) {
      ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
      exe[n > 0 ? n : 0] = 0;
      path = exe;
    }
    struct a2l *a = *path ? a2l_for(path) : NULL;
    char line[1024];
    /* the return address is the instruction after the call: step back into it */
    if (a && a2l_query(a, (uintptr_t)site - f.base - 1, line, sizeof line)) {
      /* "build/../src/x.c" reads better as "src/x.c" (relative to where we run) */
      char *colon = strrchr(line, ':'), *real;
      *colon = 0;
      const char *file = line;
      char cwd[4096];
      if ((real = realpath(line, NULL)) != NULL) {
        size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
        file = n && !strncmp(real, cwd, n) && real[n] == '/' ? real + n + 1 : real;
      }
      size_t len = strlen(file) + strlen(colon + 1) + 6;
      s = xmalloc(len);
      snprintf(s, len, " at %s:%s", file, colon + 1);
      free(real);
    }
  }
  smpi_u64map_put(&checker.where, (uintptr_t)site, s);
  return s;
}

/* ---- collectives ---- */

typedef struct coll_rec {
  smpi_check_coll k;
  int rank; /* first member that got there */
  const void *site;
  int arrived;
} coll_rec;

typedef struct comm_chk {
  smpi_u64map seq;  /* rank in the communicator -> its next step + 1 */
  smpi_u64map recs; /* step -> coll_rec */
  int freed;        /* members that have called MPI_Comm_free on it */
} comm_chk;

static const char *op_name(MPI_Op op)
{
  static const struct {
    MPI_Op h;
    const char *name;
  } ops[] = {{MPI_MAX, "MPI_MAX"},        {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
             {MPI_PROD, "MPI_PROD"},      {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
             {MPI_LOR, "MPI_LOR"},        {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
             {MPI_BXOR, "MPI_BXOR"},      {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"},
             {MPI_REPLACE, "MPI_REPLACE"}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (ops[i].h == op)
      return ops[i].name;
  return "a user-defined operation";
}

static const char *type_name(MPI_Datatype h)
{
  const smpi_dt *dt = smpi_dt_get(h);
  return dt ? smpi_dt_name(dt) : "?";
}

static void describe_coll(const smpi_check_coll *k, char *buf, size_t len)
{
  int n = snprintf(buf, len, "%s", k->call);
  if (k->root >= 0 && n < (int)len)
    n += snprintf(buf + n, len - (size_t)n, ", root %d", k->root);
  if (k->bytes >= 0 && n < (int)len)
    n += snprintf(buf + n, len - (size_t)n, ", %lld bytes", k->bytes);
  if (k->basic != MPI_DATATYPE_NULL && n < (int)len)
    n += snprintf(buf + n, len - (size_t)n, " of %s", type_name(k->basic));
  if (k->op != MPI_OP_NULL && n < (int)len)
    snprintf(buf + n, len - (size_t)n, ", op %s", op_name(k->op));
}

/* MPI_BYTE and MPI_PACKED against typed data is common practice (and what MPI_PACKED is
 * for): only typed data against other typed data is compared */
static bool typed(MPI_Datatype t)
{
  return t != MPI_DATATYPE_NULL && t != MPI_BYTE && t != MPI_PACKED;
}

/* what differs between a and b, or NULL if they match */
static const char *coll_diff(const smpi_check_coll *a, const smpi_check_coll *b, char *buf,
                             size_t len)
{
  if (strcmp(a->call, b->call))
    snprintf(buf, len, "different collectives (%s and %s)", a->call, b->call);
  else if (a->root != b->root)
    snprintf(buf, len, "different roots (%d and %d)", a->root, b->root);
  else if (a->bytes >= 0 && b->bytes >= 0 && a->bytes != b->bytes)
    snprintf(buf, len,
             "different amounts of data (%lld and %lld bytes: the counts or the "
             "datatypes do not match)",
             a->bytes, b->bytes);
  else if (typed(a->basic) && typed(b->basic) && a->basic != b->basic)
    snprintf(buf, len, "different datatypes (%s and %s)", type_name(a->basic),
             type_name(b->basic));
  /* user-defined ops are not compared: two ranks' handles of "the same" op differ */
  else if (a->op != b->op && a->op != MPI_OP_NULL && b->op != MPI_OP_NULL &&
           a->op != SMPI_CHECK_OP_USER && b->op != SMPI_CHECK_OP_USER)
    snprintf(buf, len, "different reduction operations (%s and %s)", op_name(a->op),
             op_name(b->op));
  else
    return NULL;
  return buf;
}

static void rank_label(smpi_comm *c, int r, char *buf, size_t len)
{
  int w = smpi_comm_local_world_rank(c, r);
  if (w == r)
    snprintf(buf, len, "rank %d", r);
  else
    snprintf(buf, len, "rank %d (world rank %d)", r, w);
}

static uint64_t comm_key(smpi_comm *c)
{
  return ((uint64_t)smpi_comm_coll_context(c) << 32) | (uint32_t)smpi_comm_local_world_rank(c, 0);
}

void smpi_check_comm_freed(smpi_comm *c)
{
  read_config();
  if (!checker.coll_on || smpi_comm_is_inter(c) || smpi_comm_size(c) < 2)
    return;
  uint64_t key = comm_key(c);
  comm_chk *cc = smpi_u64map_get(&checker.comms, key);
  /* no state: nobody called a collective on c (every member calls them before its free) */
  if (!cc || ++cc->freed < smpi_comm_size(c))
    return;
  /* every member freed c: none can call a collective on it any more (context ids are
   * never reused, so the key cannot come back either) */
  for (size_t i = 0; i < cc->recs.cap; i++)
    if (cc->recs.used[i])
      free(cc->recs.vals[i]);
  smpi_u64map_destroy(&cc->recs);
  smpi_u64map_destroy(&cc->seq);
  smpi_u64map_remove(&checker.comms, key);
  free(cc);
}

void smpi_check_collective(smpi_comm *c, const smpi_check_coll *k)
{
  read_config();
  if (!checker.coll_on || smpi_comm_is_inter(c))
    return;
  int size = smpi_comm_size(c);
  if (size < 2)
    return;
  uint64_t key = comm_key(c);
  comm_chk *cc = smpi_u64map_get(&checker.comms, key);
  if (!cc) {
    cc = xcalloc(1, sizeof *cc);
    smpi_u64map_init(&cc->seq);
    smpi_u64map_init(&cc->recs);
    smpi_u64map_put(&checker.comms, key, cc);
  }
  int me = smpi_comm_rank(c);
  uint64_t step = (uint64_t)(uintptr_t)smpi_u64map_get(&cc->seq, (uint64_t)me);
  smpi_u64map_put(&cc->seq, (uint64_t)me, (void *)(uintptr_t)(step + 1));
  coll_rec *r = smpi_u64map_get(&cc->recs, step);
  smpi_rank *self = smpi_self();
  const void *site = self ? smpi_check_site_of(self->rank) : NULL;
  if (!r) {
    r = xmalloc(sizeof *r);
    r->k = *k;
    r->rank = me;
    r->site = site;
    r->arrived = 1;
    smpi_u64map_put(&cc->recs, step, r);
    return;
  }
  char why[256];
  if (coll_diff(&r->k, k, why, sizeof why)) {
    /* lower rank first: arrival order depends on measured CPU bursts, the report must not */
    const smpi_check_coll *k1 = &r->k, *k2 = k;
    int r1 = r->rank, r2 = me;
    const void *s1 = r->site, *s2 = site;
    if (r1 > r2) {
      k1 = k, k2 = &r->k, r1 = me, r2 = r->rank, s1 = site, s2 = r->site;
      coll_diff(k1, k2, why, sizeof why);
    }
    char a[160], b[160], la[64], lb[64];
    describe_coll(k1, a, sizeof a);
    describe_coll(k2, b, sizeof b);
    rank_label(c, r1, la, sizeof la);
    rank_label(c, r2, lb, sizeof lb);
    fflush(stdout);
    fprintf(stderr,
            "smpi: mismatched collective calls on %s (collective call #%" PRIu64 " on this "
            "communicator): %s\n  %s called %s%s\n  %s called %s%s\n",
            smpi_comm_display_name(c), step + 1, why, la, a, smpi_check_where(s1), lb, b,
            smpi_check_where(s2));
    fprintf(stderr, "smpi: every member of a communicator must make the same collective calls "
                    "in the same order with matching arguments; the job stops here\n");
    smpi_abort_job(1);
  }
  if (++r->arrived == size) {
    smpi_u64map_remove(&cc->recs, step);
    free(r);
  }
}

/* ---- point-to-point type matching ---- */

int smpi_check_types(const p2p_msg *m, const smpi_req *r, int err)
{
  read_config();
  int rsig = smpi_dt_signature(r->dt);
  if (!checker.types_on || !m->sig || !rsig || !m->bytes || r->coll)
    return err;
  int dst = smpi_comm_rank(r->comm);
  fflush(stdout);
  fprintf(stderr,
          "smpi: mismatched datatypes: rank %d received a message of %s from rank %d (tag %d, "
          "%zu bytes, on %s) into a receive of %s\n  rank %d sent it with %s%s\n  rank %d "
          "received it with %s%s\n",
          dst, type_name(m->sig), m->src, m->tag, m->bytes, smpi_comm_display_name(r->comm),
          type_name(rsig), m->src, m->call ? m->call : "a send", smpi_check_where(m->site), dst,
          r->call ? r->call : "a receive", smpi_check_where(r->site));
  return MPI_ERR_TYPE;
}

/* ---- send buffers ---- */

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t buffer_sum(const smpi_req *r)
{
  const void *buf = smpi_privatize_translate(r->owner, r->buf);
  uint64_t h = 0xcbf29ce484222325ull;
  if (!r->bytes)
    return h;
  if (smpi_dt_is_contiguous(r->dt))
    return fnv1a((const unsigned char *)buf + smpi_dt_true_lb(r->dt), r->bytes, h);
  unsigned char *tmp = xmalloc(r->bytes);
  smpi_dt_pack(buf, r->count, r->dt, tmp);
  h = fnv1a(tmp, r->bytes, h);
  free(tmp);
  return h;
}

/* the requests in flight of each world rank that smpi/check-buffers watches */
/* the checksum lives here rather than in the request: only this checker needs it, and a
 * request is one per operation in flight (smpi/mpi/p2p_private.h) */
typedef struct inflight_req {
  smpi_req *r;
  uint64_t sum; /* r->check_set: the checksum of r's buffer (buffer_sum) */
} inflight_req;
typedef struct inflight {
  inflight_req *v;
  size_t n, cap;
} inflight;

static inflight *inflight_of(int w)
{
  if (!checker.inflight) {
    checker.n_inflight = smpi_w.np > 0 ? (size_t)smpi_w.np : 1;
    checker.inflight = xcalloc(checker.n_inflight, sizeof *checker.inflight);
  }
  ASSERT(w >= 0 && (size_t)w < checker.n_inflight);
  return &checker.inflight[w];
}

/* the bytes r's buffer may touch, [*lo, *hi); false if none */
static bool req_span(const smpi_req *r, uintptr_t *lo, uintptr_t *hi)
{
  if (!r->bytes)
    return false;
  uintptr_t first = (uintptr_t)r->buf + (uintptr_t)smpi_dt_true_lb(r->dt);
  intptr_t step = (intptr_t)smpi_dt_extent(r->dt) * (intptr_t)(r->count - 1);
  uintptr_t last = first + (uintptr_t)step; /* where the last element starts */
  *lo = step < 0 ? last : first;
  *hi = (step < 0 ? first : last) + (uintptr_t)smpi_dt_true_extent(r->dt);
  return true;
}

/* Whether a and b touch a common byte. Their spans first; derived types whose spans meet may
 * still interleave (two columns of one matrix): their bytes are marked in a map of the spans
 * (up to 16 MiB; beyond it they are taken as disjoint, never a false report). */
static bool overlap(const smpi_req *a, const smpi_req *b)
{
  uintptr_t alo, ahi, blo, bhi;
  if (!req_span(a, &alo, &ahi) || !req_span(b, &blo, &bhi) || ahi <= blo || bhi <= alo)
    return false;
  if (smpi_dt_is_contiguous(a->dt) && smpi_dt_is_contiguous(b->dt))
    return true;
  uintptr_t lo = alo < blo ? alo : blo, hi = ahi > bhi ? ahi : bhi;
  if (hi - lo > (16u << 20))
    return false;
  size_t big = a->bytes > b->bytes ? a->bytes : b->bytes;
  unsigned char *map = xcalloc(hi - lo, 1), *data = xmalloc(big);
  memset(data, 0xff, a->bytes);
  /* the map stands for the memory [lo, hi): a's buffer is at map + (a->buf - lo), which is
   * before map when a's data starts after its buffer (true lower bound > 0) */
  smpi_dt_unpack(data, a->bytes, map + (intptr_t)((uintptr_t)a->buf - lo), a->count, a->dt);
  smpi_dt_pack(map + (intptr_t)((uintptr_t)b->buf - lo), b->count, b->dt, data);
  bool common = false;
  for (size_t i = 0; i < b->bytes && !common; i++)
    common = data[i] != 0;
  free(map);
  free(data);
  return common;
}

static void describe_req(const smpi_req *r, char *buf, size_t len)
{
  char peer[32] = "any source";
  if (r->peer >= 0)
    snprintf(peer, sizeof peer, "rank %d", r->peer);
  char tag[32] = "any tag";
  if (r->tag != MPI_ANY_TAG)
    snprintf(tag, sizeof tag, "tag %d", r->tag);
  snprintf(buf, len, "%s %s %s, %s, %zu bytes, on %s%s%s",
           r->call ? r->call : (r->kind == REQ_SEND ? "send" : "receive"),
           r->kind == REQ_SEND ? "to" : "from", peer, tag, r->bytes,
           smpi_comm_display_name(r->comm), *smpi_check_where(r->site) ? ", posted" : "",
           smpi_check_where(r->site));
}

void smpi_check_req_posted(smpi_req *r)
{
  if (r->peer == MPI_PROC_NULL) /* no data moves */
    return;
  inflight *f = inflight_of(r->owner);
  for (size_t i = 0; i < f->n; i++) {
    const smpi_req *o = f->v[i].r;
    /* two sends may read the same memory (MPI 3.0 and later) */
    if ((r->kind == REQ_SEND && o->kind == REQ_SEND) || !overlap(o, r))
      continue;
    char a[320], b[320];
    describe_req(o, a, sizeof a);
    describe_req(r, b, sizeof b);
    fflush(stdout);
    fprintf(stderr,
            "smpi: rank %d started a request whose buffer overlaps the buffer of one still in "
            "flight:\n  in flight: %s\n  started:   %s\nMPI forbids a receive buffer to "
            "overlap any other buffer of a pending request: the data it ends with is "
            "undefined\n",
            r->owner, a, b);
    smpi_abort_job(1);
  }
  XGROW(f->v, f->cap, f->n + 1);
  f->v[f->n++] = (inflight_req){r, 0};
  r->check_listed = true;
  /* a blocking call's buffer cannot be touched by its program before it returns */
  if (r->handle != MPI_REQUEST_NULL) {
    f->v[f->n - 1].sum = buffer_sum(r);
    r->check_set = true;
  }
}

/* r's entry in its owner's list (r->check_listed) */
static inflight_req *entry_of(const smpi_req *r)
{
  inflight *f = inflight_of(r->owner);
  for (size_t i = 0; i < f->n; i++)
    if (f->v[i].r == r)
      return &f->v[i];
  DIE("request of rank %d not in its list of requests in flight", r->owner);
}

static void unlist(smpi_req *r)
{
  inflight *f = inflight_of(r->owner);
  inflight_req *e = entry_of(r);
  *e = f->v[--f->n];
  r->check_listed = false;
}

/* r's buffer changed when it must not have: when is "before ...", noticed "in MPI_Wait at
 * x.c:12" */
static void modified(const smpi_req *r, const char *when, const char *noticed)
{
  char d[320];
  describe_req(r, d, sizeof d);
  fflush(stdout);
  fprintf(stderr,
          "smpi: rank %d modified the buffer of a pending %s: %s; its data changed %s "
          "(noticed %s). MPI forbids writing to the buffer of a %s until it completes\n",
          r->owner, r->kind == REQ_SEND ? "send" : "receive", d, when, noticed,
          r->kind == REQ_SEND ? "send" : "receive");
  smpi_abort_job(1);
}

void smpi_check_recv_arrives(smpi_req *r, const p2p_msg *m)
{
  if (buffer_sum(r) == entry_of(r)->sum)
    return;
  char noticed[256];
  snprintf(noticed, sizeof noticed, "when the message arrived, sent by rank %d with %s%s", m->src,
           m->call ? m->call : "a send", smpi_check_where(m->site));
  modified(r, "before the message arrived", noticed);
}

void smpi_check_recv_filled(smpi_req *r) { entry_of(r)->sum = buffer_sum(r); }

void smpi_check_req_finished(smpi_req *r)
{
  uint64_t sum = entry_of(r)->sum;
  unlist(r);
  if (!r->check_set)
    return;
  r->check_set = false;
  if (r->cancelled || buffer_sum(r) == sum)
    return;
  const char *now = smpi_check_calls ? smpi_check_calls[r->owner] : NULL;
  char noticed[256];
  snprintf(noticed, sizeof noticed, "in %s%s", now ? now : "a wait",
           smpi_check_where(smpi_check_site_of(r->owner)));
  modified(r,
           r->kind == REQ_SEND ? "before the request completed"
                               : "after the message arrived, before the request completed",
           noticed);
}

void smpi_check_req_forget(smpi_req *r)
{
  unlist(r);
  r->check_set = false;
}

/* ---- deadlock report ---- */

/* world rank a request waits for, -1 for any */
static int req_target(const smpi_req *r)
{
  if (r->kind == REQ_SEND)
    return r->peer_world;
  if (r->peer < 0)
    return -1;
  return smpi_comm_world_rank(r->comm, r->peer);
}

static void describe_wait(const smpi_req *r, char *buf, size_t len)
{
  char peer[32] = "any source", tag[32] = "any tag";
  if (r->peer >= 0)
    snprintf(peer, sizeof peer, "rank %d", r->peer);
  if (r->tag != MPI_ANY_TAG)
    snprintf(tag, sizeof tag, "tag %d", r->tag);
  snprintf(buf, len, "%s %s %s, %s, %zu bytes, on %s%s", r->kind == REQ_SEND ? "send" : "receive",
           r->kind == REQ_SEND ? "to" : "from", peer, tag, r->bytes,
           smpi_comm_display_name(r->comm), r->coll ? " (collective traffic)" : "");
}

static p2p_waiter *waiter_of(int w)
{
  if (w >= p2p.nranks || !p2p.ranks[w])
    return NULL;
  return p2p.ranks[w]->waiting;
}

/* the first pending request of w's wait that targets rank t (any target if t < -1) */
static const smpi_req *pending_to(const p2p_waiter *w, int t)
{
  for (size_t i = 0; i < w->n; i++) {
    const smpi_req *r = w->reqs[i];
    if (r && r->waiter == w && !r->complete && (t < -1 || req_target(r) == t))
      return r;
  }
  return NULL;
}

/* A receive that waits forever while a message from the same peer sits unreceived: most
 * often a tag (or communicator) mistake. Looks at the first 1000 such messages at most. */
static void hint_unreceived(int w, const smpi_req *r)
{
  p2p_msg **inbox;
  size_t ninbox = mq_unexpected_to(w, &inbox);
  for (size_t i = 0; i < ninbox && i < 1000; i++) {
    const p2p_msg *m = inbox[i];
    if ((r->peer >= 0 && m->src != r->peer) || m->comm == NULL)
      continue;
    const char *what = m->ctx != r->ctx ? "on another communicator" : "with another tag";
    fprintf(stderr,
            "    note: a message from rank %d, tag %d, %zu bytes, on %s, sent%s, "
            "is waiting unreceived (%s)\n",
            m->src, m->tag, m->bytes, smpi_comm_display_name(m->comm), smpi_check_where(m->site),
            what);
    break;
  }
  free(inbox);
}

/* extra (may be NULL): a line printed between the wait and the hint */
static void print_rank_wait(int w, int target, const char *extra)
{
  if (w < smpi_w.np && smpi_w.ranks[w].killed) {
    /* its host went down (state profile): whoever waits for it waits forever */
    fprintf(stderr, "  rank %d was killed at simulated date %.17g: its host went down\n", w,
            smpi_w.ranks[w].killed_at);
    return;
  }
  const p2p_waiter *pw = waiter_of(w);
  const smpi_req *r = pw ? pending_to(pw, target) : NULL;
  const char *call = smpi_check_calls && smpi_check_calls[w] ? smpi_check_calls[w] : "?";
  char d[256] = "";
  if (r)
    describe_wait(r, d, sizeof d);
  fprintf(stderr, "  rank %d waits in %s%s", w, call, smpi_check_where(smpi_check_site_of(w)));
  if (target >= 0)
    fprintf(stderr, " for rank %d", target);
  if (r)
    fprintf(stderr, ": %s", d);
  if (r && r->site != smpi_check_site_of(w) && *smpi_check_where(r->site))
    fprintf(stderr, ", posted%s", smpi_check_where(r->site));
  fputc('\n', stderr);
  if (extra)
    fputs(extra, stderr);
  if (r && r->kind == REQ_RECV)
    hint_unreceived(w, r);
}

void smpi_check_report_deadlock(void)
{
  int np = smpi_w.np;
  if (np <= 0 || !smpi_w.ranks)
    return;
  /* the graph in compressed rows: out-edges of rank i are edges[start[i] .. start[i+1]) */
  size_t *start = xcalloc((size_t)np + 1, sizeof *start);
  int *edges = NULL;
  size_t ne = 0, cap = 0;
  for (int i = 0; i < np; i++) {
    start[i] = ne;
    const p2p_waiter *w = smpi_w.ranks[i].returned ? NULL : waiter_of(i);
    if (!w)
      continue;
    for (size_t k = 0; k < w->n; k++) {
      const smpi_req *r = w->reqs[k];
      if (!r || r->waiter != w || r->complete)
        continue;
      int t = req_target(r);
      if (t < 0 || t >= np)
        continue;
      bool dup = false;
      for (size_t e = start[i]; e < ne && !dup; e++)
        dup = edges[e] == t;
      if (dup)
        continue;
      XGROW(edges, cap, ne + 1);
      edges[ne++] = t;
    }
  }
  start[np] = ne;
  /* waits for ranks that are gone can never end */
  int shown = 0;
  for (int i = 0; i < np; i++)
    for (size_t e = start[i]; e < start[i + 1]; e++) {
      int t = edges[e];
      if (!smpi_w.ranks[t].returned)
        continue;
      if (shown++ == 0)
        fprintf(stderr, "smpi: ranks waiting for a rank that has finished:\n");
      if (shown <= 20) {
        char gone[160];
        snprintf(gone, sizeof gone,
                 "    but rank %d has already finished (%s): it will never "
                 "answer\n",
                 t,
                 smpi_w.ranks[t].phase == SMPI_RANK_FINALIZED ? "it called MPI_Finalize"
                                                              : "its main returned");
        print_rank_wait(i, t, gone);
      }
    }
  /* cycles: iterative depth-first search; color 0 new, 1 on the stack, 2 done */
  unsigned char *color = xcalloc((size_t)np, 1);
  int *stack = xmalloc((size_t)np * sizeof *stack);
  size_t *next = xmalloc((size_t)np * sizeof *next);
  int cycles = 0;
  for (int s = 0; s < np && cycles < 3; s++) {
    if (color[s])
      continue;
    int sp = 0;
    stack[sp++] = s;
    color[s] = 1;
    next[s] = start[s];
    while (sp > 0 && cycles < 3) {
      int u = stack[sp - 1];
      if (next[u] == start[u + 1]) {
        color[u] = 2;
        sp--;
        continue;
      }
      int v = edges[next[u]++];
      if (color[v] == 0) {
        color[v] = 1;
        next[v] = start[v];
        stack[sp++] = v;
      } else if (color[v] == 1) {
        int from = sp - 1;
        while (stack[from] != v)
          from--;
        cycles++;
        int len = sp - from;
        fprintf(stderr, "smpi: deadlock cycle:");
        for (int j = from; j < sp; j++)
          if (j - from < 16 || j == sp - 1)
            fprintf(stderr, " rank %d ->", stack[j]);
          else if (j - from == 16)
            fprintf(stderr, " ... (%d more) ->", len - 17);
        fprintf(stderr, " rank %d\n", v);
        for (int j = from; j < sp && j - from < 16; j++)
          print_rank_wait(stack[j], j + 1 < sp ? stack[j + 1] : v, NULL);
        if (len > 16)
          fprintf(stderr, "  ... (%d ranks in the cycle)\n", len);
      }
    }
  }
  if (!cycles && !shown) {
    /* no cycle through specific ranks: wildcards, probes or collectives of other shapes */
    int listed = 0;
    fprintf(stderr, "smpi: no cycle between specific ranks (wildcard receives, probes); where "
                    "the blocked ranks wait:\n");
    for (int i = 0; i < np && listed < 20; i++)
      if (!smpi_w.ranks[i].returned) {
        print_rank_wait(i, -2, NULL);
        listed++;
      }
  }
  fflush(stderr);
  free(color);
  free(stack);
  free(next);
  free(start);
  free(edges);
}

/* ---- a rank calls exit() ---- */

int smpi_check_report_exit(int rank, int code, const char *how)
{
  int np = smpi_w.np, waiting = 0;
  for (int i = 0; i < np; i++)
    if (i != rank && !smpi_w.ranks[i].returned && smpi_w.ranks[i].phase != SMPI_RANK_FINALIZED)
      waiting++;
  if (!waiting)
    return 0;
  const char *call = smpi_check_calls ? smpi_check_calls[rank] : NULL;
  fflush(stdout);
  fprintf(stderr, "smpi: rank %d called %s(%d) at simulated time %.9f s", rank, how, code,
          eng_now());
  if (call)
    fprintf(stderr, " (its last MPI call: %s%s)", call,
            smpi_check_where(smpi_check_site_of(rank)));
  fprintf(stderr, " before MPI_Finalize: that ends the whole job, as under mpiexec; ");
  {
    fprintf(stderr, "%d rank%s still in MPI %s left waiting:\n", waiting, waiting == 1 ? "" : "s",
            waiting == 1 ? "is" : "are");
    int listed = 0;
    for (int i = 0; i < np && listed < 20; i++) {
      if (i == rank || smpi_w.ranks[i].returned || smpi_w.ranks[i].phase == SMPI_RANK_FINALIZED)
        continue;
      listed++;
      if (waiter_of(i))
        print_rank_wait(i, -2, NULL);
      else if (smpi_w.ranks[i].call_depth > 0 && smpi_check_calls && smpi_check_calls[i])
        fprintf(stderr, "  rank %d is in %s%s (not waiting for a message)\n", i,
                smpi_check_calls[i], smpi_check_where(smpi_check_site_of(i)));
      else if (smpi_w.ranks[i].phase == SMPI_RANK_CREATED)
        fprintf(stderr, "  rank %d had not returned from MPI_Init yet\n", i);
      else
        fprintf(stderr, "  rank %d is running its own code, between MPI calls\n", i);
    }
    if (waiting > listed)
      fprintf(stderr, "  ... (%d more)\n", waiting - listed);
  }
  fflush(stderr);
  return waiting;
}

/* ---- requests never completed ---- */

struct req_walk {
  size_t n;
};

static void report_req(int handle, void *obj, void *data)
{
  struct req_walk *rw = data;
  smpi_req *r = obj;
  /* request handles of other kinds (nonblocking collectives, generalized) are not ours */
  if (!r || (r->kind != REQ_SEND && r->kind != REQ_RECV) || r->handle != handle || !r->active)
    return;
  if (rw->n++ >= 50)
    return;
  char peer[32] = "any source", tag[32] = "any tag";
  if (r->peer >= 0)
    snprintf(peer, sizeof peer, "rank %d", r->peer);
  if (r->tag != MPI_ANY_TAG)
    snprintf(tag, sizeof tag, "tag %d", r->tag);
  LOG_WARN("rank %d never completed a request (no MPI_Wait, MPI_Test or MPI_Request_free "
           "saw it end): %s %s %s, %s, %zu bytes, on %s%s%s",
           r->owner, r->call ? r->call : (r->kind == REQ_SEND ? "send" : "receive"),
           r->kind == REQ_SEND ? "to" : "from", peer, tag, r->bytes,
           smpi_comm_display_name(r->comm), *smpi_check_where(r->site) ? ", posted" : "",
           smpi_check_where(r->site));
}

size_t smpi_check_report_requests(void)
{
  /* what tests/mpi/check_usage.py's comm_churn reads: freed communicators leave nothing */
  LOG_DEBUG("collective checks: %zu communicator state%s live at the end", checker.comms.count,
            checker.comms.count == 1 ? "" : "s");
  struct req_walk rw = {0};
  smpi_handle_foreach_live(SMPI_KIND_REQUEST, report_req, &rw);
  if (rw.n > 50)
    LOG_WARN("... and %zu more requests never completed", rw.n - 50);
  return rw.n;
}

/* ---- crashes ---- */

/* A world rank as read from possibly corrupted memory: printed only if it can be one. */
static void sig_rank(sig_buf *b, int world)
{
  if (world >= 0 && world < smpi_w.np)
    sig_num(b, world);
  else
    sig_str(b, "?");
}

/* [lo, hi) of the bytes count x dt at buf touches, as the program sees them (0, 0 if none) */
static void copy_range(const smpi_req *r, uintptr_t *lo, uintptr_t *hi)
{
  *lo = *hi = 0;
  if (!r->dt || r->count == 0)
    return;
  MPI_Aint ext = smpi_dt_extent(r->dt), tlb = smpi_dt_true_lb(r->dt);
  MPI_Aint text = smpi_dt_true_extent(r->dt);
  *lo = (uintptr_t)r->buf + (uintptr_t)tlb;
  *hi = *lo + (uintptr_t)((MPI_Aint)(r->count - 1) * ext + text);
}

static void describe_side(sig_buf *b, int world, const smpi_req *r, const char *call)
{
  sig_str(b, " rank ");
  sig_rank(b, world);
  sig_str(b, " (");
  sig_strn(b, r ? r->call : call, 40);
  if (r) {
    uintptr_t lo, hi;
    copy_range(r, &lo, &hi);
    sig_str(b, ", count ");
    sig_unum(b, r->count);
    sig_str(b, " x ");
    sig_strn(b, r->dt ? smpi_dt_name(r->dt) : "(no datatype)", 64);
    sig_str(b, " = ");
    sig_unum(b, r->bytes);
    sig_str(b, " bytes, buffer ");
    sig_hex(b, (uintptr_t)r->buf);
    if (hi > lo) {
      sig_str(b, " [");
      sig_hex(b, lo);
      sig_str(b, ", ");
      sig_hex(b, hi);
      sig_str(b, ")");
    }
  }
  sig_str(b, ")");
}

static bool in_range(const smpi_req *r, uintptr_t a)
{
  uintptr_t lo, hi;
  if (!r)
    return false;
  copy_range(r, &lo, &hi);
  return a >= lo && a < hi;
}

bool smpi_check_describe_copy(sig_buf *b, const void *addr)
{
  const p2p_msg *m = p2p.copying;
  const smpi_req *s, *r;
  size_t bytes;
  int tag, src, dst;
  const char *call;
  if (m) {
    r = m->rreq;
    s = m->data ? NULL : m->sreq; /* a packed payload no longer reads the sender's buffer */
    bytes = m->bytes, tag = m->tag, src = m->src_world, dst = m->dst_world, call = m->call;
  } else if ((s = p2p.packing) != NULL) {
    r = NULL;
    bytes = s->bytes, tag = s->tag, src = s->owner, dst = s->peer_world, call = s->call;
  } else {
    return false;
  }
  uintptr_t a = (uintptr_t)addr;
  sig_str(b, "while copying a message (");
  sig_unum(b, bytes);
  sig_str(b, " bytes, tag ");
  sig_num(b, tag);
  sig_str(b, ") from");
  describe_side(b, src, s, call);
  sig_str(b, " to");
  describe_side(b, dst, r, "not received yet");
  sig_str(b, ": the fault at ");
  sig_hex(b, a);
  if (in_range(r, a)) {
    sig_str(b, " lies in the receive buffer: is it smaller than its count says, or was it "
               "freed before the receive completed?");
  } else if (in_range(s, a)) {
    sig_str(b, " lies in the send buffer: is it smaller than its count says, or was it "
               "freed before the send completed?");
  } else {
    sig_str(b, " is in neither buffer's range");
  }
  return true;
}
