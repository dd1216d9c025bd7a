/* Fuzz target: one line of a time-independent trace (smpi/replay/replay.h, ti_parse_line), the
 * function every replayed line goes through.
 *
 * The first byte is the communicator size the v-collectives expect (0..63), the rest the
 * line. Oracles: a failure says why; a success gives fields the replay may trust without
 * checking again (counts within int, count arrays of exactly comm_size entries, datatype
 * ids SimGrid knows, finite non-negative amounts). The same ti_action is reused from call
 * to call, as the replay does, so stale counts arrays would show up under ASan. */
#include "fuzz_common.h"

#include "smpi/replay/replay.h"

#include <limits.h>
#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  return 0;
}

static void check_dt(int id)
{
  FUZZ_REQUIRE(id == TI_DT_DEFAULT || id == TI_DT_DERIVED || ti_dt_size(id) > 0,
               "datatype id %d accepted", id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static ti_action a;
  if (size == 0)
    return 0;
  int n = data[0] % 64;
  char *s = fuzz_cstr(data + 1, size - 1);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  int rc = ti_parse_line(s, n, &a, err, sizeof err);
  FUZZ_REQUIRE(rc >= -1 && rc <= 1, "ti_parse_line returned %d", rc);
  fuzz_check_result("ti_parse_line", rc < 0 ? -1 : 0, err, sizeof err);
  if (rc == 1) {
    FUZZ_REQUIRE(a.kind >= 0 && a.kind < TI_KIND_COUNT, "kind %d", (int)a.kind);
    FUZZ_REQUIRE(a.rank >= 0, "rank %d", a.rank);
    FUZZ_REQUIRE(a.count >= -1 && a.count2 >= 0, "counts %lld %lld", a.count, a.count2);
    FUZZ_REQUIRE(isfinite(a.amount) && a.amount >= 0, "amount %g", a.amount);
    check_dt(a.dt1);
    check_dt(a.dt2);
    if (a.counts1) {
      FUZZ_REQUIRE(a.ncounts == n, "%d counts for a communicator of %d", a.ncounts, n);
      for (int k = 0; k < a.ncounts; k++)
        FUZZ_REQUIRE(a.counts1[k] >= 0 && a.counts1[k] <= INT_MAX, "count %lld", a.counts1[k]);
    }
    if (a.counts2)
      for (int k = 0; k < a.ncounts; k++)
        FUZZ_REQUIRE(a.counts2[k] >= 0 && a.counts2[k] <= INT_MAX, "count %lld", a.counts2[k]);
    FUZZ_REQUIRE(strcmp(ti_kind_name(a.kind), "?") != 0, "kind without a name");
  } else {
    FUZZ_REQUIRE(a.counts1 == NULL && a.counts2 == NULL, "arrays left after rc %d", rc);
  }
  free(s);
  return 0;
}
