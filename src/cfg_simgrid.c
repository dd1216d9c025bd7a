/* Configuration keys that SimGrid 3.32 knows and smpi does not implement.
 *
 * A SimGrid user's platform files (<config>) and command lines carry such keys: models we do
 * not offer (cpu/solver, ns3/...), tracing details, debugging aids, the model checker. They
 * are accepted with a one-line warning naming the key (cfg_set, cfg_parse), rather than
 * refused as unknown, since they do not change what smpi computes in a way we could honour;
 * a key that neither simulator knows stays an error (it is most likely a typo).
 *
 * The list is SimGrid 3.32's own, as `--help` of an S4U program prints it and as
 * libsimgrid.so names its SMPI keys (Debian libsimgrid-dev 3.32-2+b2), minus the keys smpi
 * declares itself. A key that smpi starts to implement is declared by its module and then
 * wins: cfg.c looks here only for undeclared keys. Sorted, for bsearch. */
#include "src/cfg.h"

#include <stdlib.h>
#include <string.h>

static const char *const simgrid_only_keys[] = {
    "bmf/max-iterations",
    "bmf/precision",
    "cmonkey/host",
    "cmonkey/link",
    "cmonkey/tell",
    "cmonkey/time",
    "contexts/guard-size",
    "contexts/nthreads",
    "contexts/synchro",
    "cpu/solver",
    "debug/breakpoint",
    "debug/clean-atexit",
    "debug/verbose-exit",
    "disk/model",
    "disk/solver",
    "exception/cutpath",
    "help-nostop",
    "host/solver",
    "maxmin/concurrency-limit",
    "model-check/replay",
    "model-check/timeout",
    "network/solver",
    "ns3/TcpModel",
    "ns3/seed",
    "path",
    "plugin/dvfs/governor",
    "plugin/dvfs/max-pstate",
    "plugin/dvfs/min-pstate",
    "plugin/dvfs/sampling-rate",
    "smpi/auto-shared-malloc-thresh",
    "smpi/barrier-collectives",
    "smpi/comp-adjustment-file",
    "smpi/display-allocs",
    "smpi/finalization-barrier",
    "smpi/keep-temps",
    "smpi/pedantic",
    "smpi/privatize-libs",
    "smpi/replay",
    "smpi/tmpdir",
    "smpi/trace-call-location",
    "smpi/trace-call-use-absolute-path",
    "storage/max_file_descriptors",
    "tracing/actor",
    "tracing/basic",
    "tracing/disable-destroy",
    "tracing/disable_link",
    "tracing/disable_power",
    "tracing/platform/topology",
    "tracing/vm",
};

static int cmp_key(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool cfg_simgrid_only(const char *key)
{
  if (!key || cfg_is_declared(key))
    return false;
  return bsearch(&key, simgrid_only_keys, sizeof simgrid_only_keys / sizeof *simgrid_only_keys,
                 sizeof *simgrid_only_keys, cmp_key) != NULL;
}
