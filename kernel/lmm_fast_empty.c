/* Fast path "empty" (maxmin/fast-path-empty): the solve after the end of flows that were
 * alone on their links, a token ring's every message end.
 *
 * When D is empty and no constraint of S holds an active element, the pass that the general
 * solve would run has nothing to do: F is empty (only S's active elements and D feed it), so
 * C = S, nothing is filled, validated or changed, and lmm_commit only resets each constraint
 * of S to "no free variable": load 0, max_level 0, sat = 0 >= capacity * (1 - P). This does
 * exactly that, without the machinery (same stats too): every value, and thus every
 * simulated date, is the same bit for bit (tests/check_lmm.c checks it against the general
 * path).
 *
 *   before:  L1 [A]  L2 [A]   (A alone, saturating both)     A ends: S = {L1, L2}, D = {}
 *   after:   L1 []   L2 []    load 0, max_level 0, not saturated; nothing else changes
 */
#include "kernel/lmm_private.h"

#include <math.h>
#include <stdlib.h>

#include "src/mem.h"

/* True when no constraint of S holds an active element: the usual end of a flow that
 * shared none of its links (a token ring's only message). */
static bool s_all_empty(const lmm_system *sys)
{
  for (size_t i = 0; i < sys->nS; i++)
    if (sys->S[i]->n_active)
      return false;
  return true;
}

bool lmm_fast_empty(lmm_system *sys)
{
  if (sys->nD != 0 || !s_all_empty(sys))
    return false;
  double p = sys->precision;
  for (size_t i = 0; i < sys->nS; i++) {
    lmm_constraint *c = sys->S[i];
    c->sat = 0 >= c->capacity * (1 - p);
    c->load = 0;
    c->max_level = 0;
  }
  sys->stats.passes++;
  sys->stats.constraints_visited += sys->nS;
  sys->stats.fast_empty++;
  return true;
}
