/* errhandler.c: error handler objects and the dispatch of errors to them.
 *
 * Every failing MPI call ends in smpi_comm_error(comm, code, "MPI_Xxx"), which runs the
 * handler attached to the calling rank's communicator object:
 *
 *     MPI_ERRORS_ARE_FATAL  one line on stderr (rank, call, object, error, and the call's
 *                           file:line in a -g program), the job ends with the error class as
 *                           exit code (as MPICH's); the default, unless smpi/errors-are-fatal:no
 *     MPI_ERRORS_RETURN     the call returns the code
 *     user handler          called with (&comm, &code); then the call returns the code
 *
 * Handlers are refcounted: a communicator holds one reference, so MPI_Errhandler_free on a
 * handler still attached somewhere only drops the user's reference (MPI 3.1 section 8.3.4). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/check.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/mem.h"

static smpi_errhandler fatal_eh = {.refs = 1,
                                   .kinds = SMPI_EH_COMM | SMPI_EH_WIN | SMPI_EH_FILE,
                                   .handle = MPI_ERRORS_ARE_FATAL,
                                   .fatal = true};
static smpi_errhandler return_eh = {.refs = 1,
                                    .kinds = SMPI_EH_COMM | SMPI_EH_WIN | SMPI_EH_FILE,
                                    .handle = MPI_ERRORS_RETURN,
                                    .ret = true};

static bool is_predefined(const smpi_errhandler *e) { return e == &fatal_eh || e == &return_eh; }

void smpi_errhandler_setup_predefined(void)
{
  smpi_handle_set_predefined(MPI_ERRORS_ARE_FATAL, &fatal_eh);
  smpi_handle_set_predefined(MPI_ERRORS_RETURN, &return_eh);
}

smpi_errhandler *smpi_errhandler_get(MPI_Errhandler h)
{
  return smpi_handle_get(h, SMPI_KIND_ERRHANDLER);
}

static const cfg_key errhandler_keys[] = {
    CFG_KEY_BOOL("smpi/errors-are-fatal", true,
                 "Errors in MPI calls end the job (MPI_ERRORS_ARE_FATAL is the default handler "
                 "of MPI_COMM_WORLD); no: MPI_ERRORS_RETURN, the calls return the error code"),
};

void smpi_errhandler_declare_config(void)
{
  cfg_declare_keys(errhandler_keys, CFG_NKEYS(errhandler_keys));
}

smpi_errhandler *smpi_errhandler_default(void)
{
  smpi_errhandler_declare_config(); /* unit tests make communicators without the runtime */
  return cfg_get_bool("smpi/errors-are-fatal") ? &fatal_eh : &return_eh;
}

smpi_errhandler *smpi_errhandler_ref(smpi_errhandler *e)
{
  e->refs++;
  return e;
}

void smpi_errhandler_unref(smpi_errhandler *e)
{
  if (!e || is_predefined(e))
    return;
  ASSERT(e->refs > 0);
  if (--e->refs == 0) {
    smpi_handle_free(e->handle);
    free(e);
  }
}

/* ---- dispatch ---- */

/* " at file.c:12" for the program's line that made the failing call (programs built with -g,
 * smpi/mpi/check.h), or "". Only when fname is the rank's current outermost call: an error
 * of a call nested in a user callback, or of a stub (no SMPI_ENTER, so no site recorded),
 * would otherwise be given the line of another call. */
static const char *error_site(const smpi_rank *me, const char *fname)
{
  if (!me || !smpi_check_calls || !smpi_check_calls[me->rank] || !fname ||
      strcmp(smpi_check_calls[me->rank], fname) != 0)
    return "";
  return smpi_check_where(smpi_check_site_of(me->rank));
}

int smpi_errhandler_run(smpi_errhandler *eh, int handle, const char *on, int code,
                        const char *fname, const char *detail)
{
  if (eh->ret)
    return code;
  if (eh->fatal) {
    smpi_rank *me = smpi_self();
    const char *s = smpi_error_string(code);
    char unknown[48];
    if (!s || !*s) {
      snprintf(unknown, sizeof unknown, "error code %d", code);
      s = unknown;
    }
    fflush(stdout);
    if (me)
      fprintf(stderr, "smpi: rank %d: %s%s%s: %s%s%s%s%s\n", me->rank, fname, on ? " on " : "",
              on ? on : "", s, detail ? " (" : "", detail ? detail : "", detail ? ")" : "",
              error_site(me, fname));
    else
      fprintf(stderr, "smpi: %s: %s%s%s%s\n", fname, s, detail ? " (" : "", detail ? detail : "",
              detail ? ")" : "");
    int klass = smpi_error_class(code);
    smpi_abort_job(klass > 0 && klass < 256 ? klass : 1);
  }
  int e = code;
  eh->fn(&handle, &e);
  return code;
}

static int run_handler(smpi_comm *c, smpi_errhandler *eh, int code, const char *fname,
                       const char *detail)
{
  return smpi_errhandler_run(eh, c ? smpi_comm_handle(c) : MPI_COMM_WORLD,
                             c ? smpi_comm_display_name(c) : "MPI_COMM_WORLD", code, fname,
                             detail);
}

/* h did not resolve to a communicator of the calling rank: what was passed, for the message */
static void describe_bad_comm(MPI_Comm h, char *buf, size_t len)
{
  const smpi_comm *c = smpi_handle_get(h, SMPI_KIND_COMM);
  if (c) /* live, but smpi_comm_get refused it: another rank's (smpi/mpi/comm.c) */
    snprintf(buf, len, "handle %#x, a communicator of rank %d", (unsigned)h, c->owner);
  else
    smpi_handle_describe(h, SMPI_KIND_COMM, buf, len);
}

static int comm_error_detail(MPI_Comm h, int code, const char *fname, const char *detail)
{
  if (code == MPI_SUCCESS)
    return code;
  smpi_comm *c = smpi_comm_get(h);
  if (!c && h != MPI_COMM_WORLD) {
    /* Not a communicator (MPI_COMM_NULL, freed, junk): MPI_COMM_WORLD's handler runs (MPI
     * 3.1 section 8.3), but the message names the argument, not MPI_COMM_WORLD. */
    char bad[96], both[384];
    describe_bad_comm(h, bad, sizeof bad);
    if (detail)
      snprintf(both, sizeof both, "%s; communicator %s", detail, bad);
    smpi_comm *w = smpi_comm_get(MPI_COMM_WORLD); /* NULL outside of a rank */
    return smpi_errhandler_run(w ? w->eh : smpi_errhandler_default(), MPI_COMM_WORLD, NULL, code,
                               fname, detail ? both : bad);
  }
  smpi_errhandler *eh = c ? c->eh : smpi_errhandler_default(); /* NULL: before MPI_Init */
  return run_handler(c, eh, code, fname, detail);
}

int smpi_comm_error(MPI_Comm h, int code, const char *fname)
{
  return comm_error_detail(h, code, fname, NULL);
}

int smpi_comm_errorf(MPI_Comm h, int code, const char *fname, const char *fmt, ...)
{
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  return comm_error_detail(h, code, fname, detail);
}

/* ---- what the MPI functions do (smpi/bindings/errhandler.c) ---- */

int smpi_errhandler_create(MPI_Comm_errhandler_function *fn, int kinds, MPI_Errhandler *out)
{
  smpi_errhandler *e = xcalloc(1, sizeof *e);
  e->refs = 1;
  e->kinds = kinds;
  e->fn = fn;
  e->handle = smpi_handle_new(SMPI_KIND_ERRHANDLER, e);
  *out = e->handle;
  return MPI_SUCCESS;
}

int smpi_comm_set_errhandler(smpi_comm *c, MPI_Errhandler errhandler)
{
  smpi_errhandler *e = smpi_errhandler_get(errhandler);
  if (!e || !(e->kinds & SMPI_EH_COMM))
    return MPI_ERR_ARG;
  smpi_errhandler_ref(e);
  smpi_errhandler_unref(c->eh);
  c->eh = e;
  return MPI_SUCCESS;
}

MPI_Errhandler smpi_comm_get_errhandler(smpi_comm *c)
{
  /* the caller gets a reference of its own, released by MPI_Errhandler_free */
  return smpi_errhandler_ref(c->eh)->handle;
}

int smpi_comm_call_errhandler(smpi_comm *c, int code, const char *fname)
{
  return run_handler(c, c->eh, code, fname, NULL);
}

/* ---- files: only MPI_FILE_NULL (the default handler of files opened later) ---- */

static smpi_errhandler **file_default; /* per world rank; NULL entry: MPI_ERRORS_RETURN */
static int file_default_n;

static smpi_errhandler **my_file_default(void)
{
  smpi_rank *me = smpi_self();
  if (file_default_n < smpi_w.np) {
    file_default = xrealloc(file_default, (size_t)smpi_w.np * sizeof *file_default);
    for (int i = file_default_n; i < smpi_w.np; i++)
      file_default[i] = NULL;
    file_default_n = smpi_w.np;
  }
  return &file_default[me->rank];
}

void smpi_errhandler_set_file_default(smpi_errhandler *e)
{
  smpi_errhandler **slot = my_file_default();
  smpi_errhandler_ref(e);
  smpi_errhandler_unref(*slot);
  *slot = e;
}

MPI_Errhandler smpi_errhandler_get_file_default(void)
{
  smpi_errhandler *e = *my_file_default();
  return smpi_errhandler_ref(e ? e : &return_eh)->handle;
}
