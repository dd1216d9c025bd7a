/* Fuzz target: the SKaMPI output reader (calibration/skampi.h).
 *
 * The input is a whole .sko file, read through skampi_read_stream from memory (fmemopen),
 * so no file is written. Embedded NUL bytes are kept: a real file may contain them. A set
 * that parses must be internally consistent, since the fitting code indexes it blindly:
 * every point's per-process times inside the block's array, sizes and times finite,
 * repetitions >= 1. A second call appends to the same set, as smpi-calibrate does with
 * several files, so that appending after blocks (and after a failure) is covered too. */
#include "fuzz_common.h"

#include "calibration/skampi.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  return 0;
}

static void check_set(const skampi_set *set)
{
  FUZZ_REQUIRE(set->nblocks <= set->cap, "nblocks %zu > cap %zu", set->nblocks, set->cap);
  for (size_t i = 0; i < set->nblocks; i++) {
    const skampi_block *b = &set->blocks[i];
    FUZZ_REQUIRE(b->name && b->file, "block %zu without name or file", i);
    FUZZ_REQUIRE(b->npts <= b->cap && b->nrank_times <= b->rank_cap, "block %zu overfull", i);
    for (size_t j = 0; j < b->npts; j++) {
      const skampi_point *p = &b->pts[j];
      FUZZ_REQUIRE(p->rank_first + b->nranks <= b->nrank_times,
                   "point %zu of block %zu: times [%zu, +%zu) outside %zu", j, i, p->rank_first,
                   b->nranks, b->nrank_times);
      FUZZ_REQUIRE(isfinite(p->size) && isfinite(p->time) && isfinite(p->stderr_us),
                   "point %zu of block %zu is not finite", j, i);
      FUZZ_REQUIRE(p->reps >= 1, "point %zu of block %zu: %ld repetitions", j, i, p->reps);
      FUZZ_REQUIRE(p->line >= 1, "point %zu of block %zu: line %d", j, i, p->line);
    }
  }
}

static int read_mem(skampi_set *set, const uint8_t *data, size_t size, char *err, size_t errlen)
{
  /* fmemopen refuses a zero size: an empty file is read from an empty string instead */
  static char empty[1];
  FILE *in = size ? fmemopen((void *)data, size, "r") : fmemopen(empty, 1, "r");
  if (!in)
    abort();
  if (!size)
    fgetc(in); /* consume the NUL: the stream is now at EOF, i.e. an empty file */
  int rc = skampi_read_stream(set, in, "fuzz.sko", err, errlen);
  fclose(in);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  skampi_set set = {0};
  char err[FUZZ_ERRLEN];
  for (int pass = 0; pass < 2; pass++) {
    size_t before = set.nblocks;
    fuzz_err_init(err, sizeof err);
    int rc = read_mem(&set, data, size, err, sizeof err);
    fuzz_check_result("skampi_read_stream", rc, err, sizeof err);
    if (rc != 0)
      FUZZ_REQUIRE(set.nblocks == before, "a failed read kept %zu new blocks",
                   set.nblocks - before);
    check_set(&set);
    if (rc != 0)
      break;
  }
  skampi_set_free(&set);
  return 0;
}
