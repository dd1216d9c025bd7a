/* Block selection and the round trip to one way conversion (see collect.h). */
#include "calibration/collect.h"

#include "src/mem.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool selected(const char *name, const char *const *patterns, size_t np)
{
  if (np == 0)
    return strcmp(name, COLLECT_DEFAULT_BLOCK) == 0;
  for (size_t i = 0; i < np; i++)
    if (fnmatch(patterns[i], name, 0) == 0)
      return true;
  return false;
}

static char *append(char *s, const char *fmt_a, const char *a, const char *b)
{
  char *n = xasprintf(fmt_a, s ? s : "", s ? ", " : "", a, b);
  free(s);
  return n;
}

int collect_blocks(const skampi_set *set, const char *const *patterns, size_t npatterns,
                   bool round_trip, collect *out, char *err, size_t errlen)
{
  *out = (collect){0};
  size_t cap = 0, scap = 0;
  double div = round_trip ? 2.0 : 1.0;
  for (size_t b = 0; b < set->nblocks; b++) {
    const skampi_block *blk = &set->blocks[b];
    if (!selected(blk->name, patterns, npatterns))
      continue;
    out->nblocks++;
    out->description = append(out->description, "%s%s%s \"%s\"", blk->file, blk->name);
    for (size_t i = 0; i < blk->npts; i++) {
      const skampi_point *p = &blk->pts[i];
      XGROW(out->srcs, scap, out->nobs + 1);
      XGROW(out->obs, cap, out->nobs + 1);
      out->srcs[out->nobs] = xasprintf("%s:%d", blk->file, p->line);
      out->obs[out->nobs] = (fit_obs){.size = p->size,
                                      .t = p->time / div,
                                      .se = p->stderr_us / div,
                                      .res = p->resolution / div,
                                      .reps = p->reps,
                                      .src = out->srcs[out->nobs]};
      out->nobs++;
    }
  }
  if (out->nblocks > 0 && out->nobs > 0)
    return 0;
  if (out->nblocks > 0) {
    snprintf(err, errlen, "the selected block(s) %s hold no data line", out->description);
    collect_free(out);
    return -1;
  }
  /* say what there is to choose from */
  char *present = NULL;
  for (size_t b = 0; b < set->nblocks; b++) {
    bool dup = false;
    for (size_t c = 0; c < b && !dup; c++)
      dup = strcmp(set->blocks[c].name, set->blocks[b].name) == 0;
    if (!dup)
      present = append(present, "%s%s\"%s\"%s", set->blocks[b].name, "");
  }
  char *wanted = NULL;
  if (npatterns == 0)
    wanted = xstrdup("\"" COLLECT_DEFAULT_BLOCK "\" (the default)");
  for (size_t i = 0; i < npatterns; i++)
    wanted = append(wanted, "%s%s\"%s\"%s", patterns[i], "");
  snprintf(err, errlen, "no result block matches %s; blocks present: %s (choose with --block)",
           wanted, present ? present : "none");
  free(present);
  free(wanted);
  collect_free(out);
  return -1;
}

void collect_free(collect *c)
{
  for (size_t i = 0; i < c->nobs; i++)
    free(c->srcs[i]);
  free(c->srcs);
  free(c->obs);
  free(c->description);
  *c = (collect){0};
}
