/* The study file of smpi-sweep (YAML, read with libyaml's document API) and the expansion of
 * its parameters into points. The format is documented in docs/sweeps.md; an example:
 *
 *   program: ./ring                     # relative paths: to the study file's directory
 *   args: [100000, 10, "{flops}"]
 *   np: "{np}"
 *   platform: cluster.xml
 *   platform-set: ["cluster[c]/bw={bw}"]
 *   cfg: ["smpi/simulate-computation:no"]
 *   params:
 *     np: [4, 8]                        # a list
 *     bw: {log: [1Gbps, 100Gbps, 3]}    # 1Gbps 10Gbps 100Gbps
 *     flops: {range: [0, 2e6, 1e6]}     # 0 1000000 2000000
 *   seeds: [1, 2]                       # or repeat: 2 (seeds 1..2), as --cfg=smpi/seed:S
 *   outputs: {rate: "rate: ([0-9.e+-]+)"}
 *
 * Points: the crossed product of the parameters in the order they are declared (the first
 * varies slowest), zip groups (`zip: [[a, b]]`) moving as one axis at the place of their
 * first member, the seed innermost:
 *
 *   point = ((np_index * |bw| + bw_index) * |flops| + flops_index) * |seeds| + seed_index
 *
 * Any error names the file and line: a study is checked whole before anything runs
 * (unknown keys, bad ranges, a {name} no parameter defines).
 */
#include "tools/sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "src/mem.h"

/* the keys whose values are templates, in the order check_templates checks them */
enum { TPL_ARGS, TPL_NP, TPL_PLATFORM, TPL_HOSTFILE, TPL_SETS, TPL_CFG, TPL_COUNT };
static const char *const tpl_keys[TPL_COUNT] = {"args",     "np",           "platform",
                                                "hostfile", "platform-set", "cfg"};

typedef struct study_reader {
  yaml_document_t doc;
  yaml_node_t *tpl_node[TPL_COUNT]; /* where each template key is, for messages */
  const char *path;
  char *err;
  size_t errlen;
  bool failed;
} study_reader;

static int rfail(study_reader *r, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rfail(study_reader *r, const yaml_node_t *n, const char *fmt, ...)
{
  if (r->failed)
    return -1;
  int used = n ? snprintf(r->err, r->errlen, "%s:%lu: ", r->path,
                          (unsigned long)n->start_mark.line + 1)
               : snprintf(r->err, r->errlen, "%s: ", r->path);
  va_list ap;
  va_start(ap, fmt);
  if (used >= 0 && (size_t)used < r->errlen)
    vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
  va_end(ap);
  r->failed = true;
  return -1;
}

static yaml_node_t *node(study_reader *r, int id) { return yaml_document_get_node(&r->doc, id); }

static const char *scalar(study_reader *r, const yaml_node_t *n, const char *what)
{
  if (!n || n->type != YAML_SCALAR_NODE) {
    rfail(r, n, "%s must be a single value", what);
    return NULL;
  }
  return (const char *)n->data.scalar.value;
}

/* A scalar or a sequence of scalars -> a list of strings. */
static char **string_list(study_reader *r, const yaml_node_t *n, const char *what, size_t *count)
{
  *count = 0;
  if (n->type == YAML_SCALAR_NODE) {
    char **v = xcalloc(2, sizeof *v);
    v[0] = xstrdup((const char *)n->data.scalar.value);
    *count = 1;
    return v;
  }
  if (n->type != YAML_SEQUENCE_NODE) {
    rfail(r, n, "%s must be a value or a list of values", what);
    return NULL;
  }
  size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
  char **v = xcalloc(len + 1, sizeof *v);
  for (size_t k = 0; k < len; k++) {
    const char *s = scalar(r, node(r, n->data.sequence.items.start[k]), what);
    if (!s) {
      for (size_t j = 0; j < k; j++)
        free(v[j]);
      free(v);
      return NULL;
    }
    v[k] = xstrdup(s);
  }
  *count = len;
  return v;
}

/* A number with an optional unit suffix ("10Gbps", "1e6", "2us"). */
static int number_unit(const char *s, double *x, const char **unit)
{
  char *end;
  errno = 0;
  *x = strtod(s, &end);
  if (end == s || errno || !isfinite(*x))
    return -1;
  *unit = end;
  return 0;
}

/* A value of a range: integers stay integers (they are often program arguments, which atoi
 * would cut at the 'e' of 1e+06). */
static char *format_value(double x, const char *unit, bool integers)
{
  if (integers && fabs(x) < 1e15)
    return xasprintf("%.0f%s", round(x), unit);
  return xasprintf("%.6g%s", x, unit);
}

static bool is_integer(double x) { return fabs(x) < 1e15 && x == round(x); }

/* {range: [FROM, TO, STEP]} or {log: [FROM, TO, COUNT]}; FROM and TO share a unit. */
static char **generated_values(study_reader *r, const yaml_node_t *n, const char *name,
                               size_t *count)
{
  if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
    return rfail(r, n,
                 "parameter %s: expected a list, {range: [FROM, TO, STEP]} or {log: [FROM, "
                 "TO, COUNT]}",
                 name),
           NULL;
  yaml_node_pair_t *pair = n->data.mapping.pairs.start;
  const char *kind = scalar(r, node(r, pair->key), "the kind of values");
  if (!kind)
    return NULL;
  bool lin = !strcmp(kind, "range"), geo = !strcmp(kind, "log");
  if (!lin && !geo)
    return rfail(r, n, "parameter %s: unknown kind '%s' (expected range or log)", name, kind),
           NULL;
  size_t nargs;
  char **a = string_list(r, node(r, pair->value), kind, &nargs);
  if (!a)
    return NULL;
  char **out = NULL;
  double from, to, step;
  const char *ufrom, *uto, *ustep;
  if (nargs != 3 || number_unit(a[0], &from, &ufrom) || number_unit(a[1], &to, &uto) ||
      number_unit(a[2], &step, &ustep)) {
    rfail(r, n, "parameter %s: %s needs [FROM, TO, %s] (numbers, FROM and TO may have a unit)",
          name, kind, lin ? "STEP" : "COUNT");
  } else if (strcmp(ufrom, uto) || (*ustep && strcmp(ustep, ufrom))) {
    rfail(r, n, "parameter %s: %s [%s, %s, %s]: the values must have the same unit", name, kind,
          a[0], a[1], a[2]);
  } else if (lin && (step == 0 || (to - from) / step < 0 || (to - from) / step > 1e6)) {
    rfail(r, n,
          "parameter %s: range [%s, %s, %s]: the step must go from FROM to TO (at most "
          "a million values)",
          name, a[0], a[1], a[2]);
  } else if (geo && (from <= 0 || to <= 0 || step < 2 || step > 1e6 || !is_integer(step))) {
    rfail(r, n,
          "parameter %s: log [%s, %s, %s]: FROM and TO must be positive and COUNT an "
          "integer of at least 2",
          name, a[0], a[1], a[2]);
  } else {
    size_t len = lin ? (size_t)floor((to - from) / step + 1e-9) + 1 : (size_t)step;
    bool ints = is_integer(from) && is_integer(to) && (geo || is_integer(step));
    out = xcalloc(len + 1, sizeof *out);
    for (size_t k = 0; k < len; k++) {
      double x = lin ? from + (double)k * step
                     : from * pow(to / from, (double)k / (double)(len - 1));
      out[k] = format_value(x, ufrom, ints);
    }
    *count = len;
  }
  for (size_t k = 0; k < nargs; k++)
    free(a[k]);
  free(a);
  return out;
}

static const char *const top_keys[] = {"program",     "args",         "np",     "platform",
                                       "hostfile",    "platform-set", "cfg",    "params",
                                       "zip",         "seeds",        "repeat", "outputs",
                                       "sample-file", "timeout"};

static char *resolve(const sweep_study *st, const char *p)
{
  return p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", st->dir, p);
}

/* {seed} and {point} are smpi-sweep's; the others are columns of the results */
static const char *const reserved_names[] = {"seed",      "point",        "status",
                                             "exit_code", "sim_time",     "cpu_time",
                                             "wall_time", "peak_rss_kib", "log"};

static int read_params(study_reader *r, sweep_study *st, const yaml_node_t *n)
{
  if (n->type != YAML_MAPPING_NODE)
    return rfail(r, n, "params must be a mapping NAME: VALUES");
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = node(r, p->key), *v = node(r, p->value);
    const char *name = scalar(r, k, "a parameter name");
    if (!name)
      return -1;
    for (const char *c = name; *c; c++)
      if (!(*c == '_' || *c == '-' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
            (*c >= 'A' && *c <= 'Z')))
        return rfail(r, k, "parameter name '%s': use letters, digits, '_' and '-'", name);
    for (size_t j = 0; j < sizeof reserved_names / sizeof *reserved_names; j++)
      if (!strcmp(name, reserved_names[j]))
        return rfail(r, k, "'%s' is a reserved name (a column of the results)", name);
    for (size_t j = 0; j < st->nparams; j++)
      if (!strcmp(st->params[j].name, name))
        return rfail(r, k, "parameter %s is declared twice", name);
    sweep_param sp = {.name = xstrdup(name),
                      .line = (int)k->start_mark.line + 1,
                      .zip_group = -1};
    sp.values = v->type == YAML_MAPPING_NODE
                    ? generated_values(r, v, name, &sp.nvalues)
                    : string_list(r, v, "a parameter's values", &sp.nvalues);
    if (sp.values && sp.nvalues == 0)
      rfail(r, v, "parameter %s has no value", name);
    st->params = xrealloc(st->params, (st->nparams + 1) * sizeof *st->params);
    st->params[st->nparams++] = sp;
    if (r->failed)
      return -1;
  }
  return 0;
}

static int read_zip(study_reader *r, sweep_study *st, const yaml_node_t *n)
{
  if (n->type != YAML_SEQUENCE_NODE)
    return rfail(r, n, "zip must be a list of lists of parameters, e.g. [[bw, lat]]");
  int group = 0;
  for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
       it++, group++) {
    const yaml_node_t *g = node(r, *it);
    size_t len;
    char **names = string_list(r, g, "a zip group", &len);
    if (!names)
      return -1;
    size_t first_len = 0;
    for (size_t k = 0; k < len && !r->failed; k++) {
      size_t j = 0;
      while (j < st->nparams && strcmp(st->params[j].name, names[k]))
        j++;
      if (j == st->nparams)
        rfail(r, g, "zip: no parameter %s in params", names[k]);
      else if (st->params[j].zip_group >= 0)
        rfail(r, g, "zip: parameter %s is in two groups", names[k]);
      else if (k > 0 && st->params[j].nvalues != first_len)
        rfail(r, g, "zip: %s has %zu values and %s %zu; zipped parameters need as many", names[0],
              first_len, names[k], st->params[j].nvalues);
      else {
        st->params[j].zip_group = group;
        first_len = st->params[j].nvalues;
      }
    }
    for (size_t k = 0; k < len; k++)
      free(names[k]);
    free(names);
    if (r->failed)
      return -1;
  }
  return 0;
}

/* Axes: each parameter alone, or its zip group at the place of the group's first member. */
static int build_dims(study_reader *r, sweep_study *st)
{
  st->dims = xcalloc(st->nparams + 1, sizeof *st->dims);
  int *dim_of_group = xcalloc(st->nparams + 1, sizeof *dim_of_group);
  for (size_t j = 0; j < st->nparams; j++)
    dim_of_group[j] = -1;
  for (size_t j = 0; j < st->nparams; j++) {
    sweep_param *p = &st->params[j];
    int g = p->zip_group;
    sweep_dim *d;
    if (g >= 0 && dim_of_group[g] >= 0) {
      d = &st->dims[dim_of_group[g]];
    } else {
      d = &st->dims[st->ndims];
      if (g >= 0)
        dim_of_group[g] = (int)st->ndims;
      st->ndims++;
      d->length = p->nvalues;
    }
    if (d->nparams == sizeof d->params / sizeof *d->params) {
      free(dim_of_group);
      return rfail(r, NULL, "zip: at most 16 parameters in a group");
    }
    d->params[d->nparams++] = j;
    p->zip_group = (int)(d - st->dims);
  }
  free(dim_of_group);
  double total = st->nseeds ? (double)st->nseeds : 1;
  for (size_t k = 0; k < st->ndims; k++)
    total *= (double)st->dims[k].length;
  if (total > 1e8)
    return rfail(r, NULL, "the study has %.3g points; at most 100 000 000", total);
  st->npoints = (size_t)total;
  return 0;
}

static int read_top(study_reader *r, sweep_study *st, const char *key, const yaml_node_t *v)
{
  const char *s;
  size_t n;
  if (!strcmp(key, "program")) {
    if (!(s = scalar(r, v, "program")))
      return -1;
    st->program = strchr(s, '/') ? resolve(st, s) : xstrdup(s);
  } else if (!strcmp(key, "args")) {
    if (v->type == YAML_SCALAR_NODE) {
      /* a string: split on blanks (a list keeps blanks inside arguments) */
      char *copy = xstrdup((const char *)v->data.scalar.value), *save = NULL;
      for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        st->args = xrealloc(st->args, (st->nargs + 2) * sizeof *st->args);
        st->args[st->nargs++] = xstrdup(t);
        st->args[st->nargs] = NULL;
      }
      free(copy);
    } else if (!(st->args = string_list(r, v, "args", &st->nargs)))
      return -1;
  } else if (!strcmp(key, "np")) {
    if (!(s = scalar(r, v, "np")))
      return -1;
    st->np = xstrdup(s);
  } else if (!strcmp(key, "platform")) {
    if (!(s = scalar(r, v, "platform")))
      return -1;
    st->platform = strchr(s, '{') ? xstrdup(s) : resolve(st, s);
  } else if (!strcmp(key, "hostfile")) {
    if (!(s = scalar(r, v, "hostfile")))
      return -1;
    st->hostfile = strchr(s, '{') ? xstrdup(s) : resolve(st, s);
  } else if (!strcmp(key, "platform-set")) {
    if (!(st->sets = string_list(r, v, "platform-set", &st->nsets)))
      return -1;
  } else if (!strcmp(key, "cfg")) {
    if (!(st->cfgs = string_list(r, v, "cfg", &st->ncfgs)))
      return -1;
    for (size_t k = 0; k < st->ncfgs; k++)
      if (!strchr(st->cfgs[k], ':'))
        return rfail(r, v, "cfg: '%s' is not KEY:VALUE", st->cfgs[k]);
  } else if (!strcmp(key, "seeds") || !strcmp(key, "repeat")) {
    if (st->seeds)
      return rfail(r, v, "give seeds or repeat, not both");
    char **list = string_list(r, v, key, &n);
    if (!list)
      return -1;
    long count = 0;
    char *end;
    if (key[0] == 'r') {
      count = n == 1 ? strtol(list[0], &end, 10) : 0;
      if (n != 1 || *end || count < 1 || count > 1000000)
        rfail(r, v, "repeat must be a number of repetitions (1 or more)");
      n = (size_t)count;
    }
    st->seeds = xcalloc(n + 1, sizeof *st->seeds);
    st->nseeds = n;
    for (size_t k = 0; k < n && !r->failed; k++) {
      if (key[0] == 'r') {
        st->seeds[k] = (long)k + 1;
        continue;
      }
      errno = 0;
      st->seeds[k] = strtol(list[k], &end, 10);
      if (*end || !*list[k] || errno)
        rfail(r, v, "seeds: '%s' is not an integer", list[k]);
    }
    for (size_t k = 0; list[k]; k++)
      free(list[k]);
    free(list);
    if (r->failed)
      return -1;
  } else if (!strcmp(key, "outputs")) {
    if (v->type != YAML_MAPPING_NODE)
      return rfail(r, v, "outputs must be a mapping NAME: REGEX");
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
      const char *name = scalar(r, node(r, p->key), "an output name");
      const char *re = name ? scalar(r, node(r, p->value), "an output's pattern") : NULL;
      if (!re)
        return -1;
      sweep_output o = {.name = xstrdup(name), .pattern = xstrdup(re)};
      int rc = regcomp(&o.re, re, REG_EXTENDED | REG_NEWLINE);
      st->outputs = xrealloc(st->outputs, (st->noutputs + 1) * sizeof *st->outputs);
      if (rc != 0) {
        char msg[256];
        regerror(rc, &o.re, msg, sizeof msg);
        free(o.name);
        free(o.pattern);
        return rfail(r, node(r, p->value), "output %s: bad pattern '%s': %s", name, re, msg);
      }
      st->outputs[st->noutputs++] = o;
    }
  } else if (!strcmp(key, "sample-file")) {
    if (!(s = scalar(r, v, "sample-file")))
      return -1;
    st->sample_file = resolve(st, s);
  } else if (!strcmp(key, "timeout")) {
    if (!(s = scalar(r, v, "timeout")))
      return -1;
    char *end;
    st->timeout = strtod(s, &end);
    if (*end || !(st->timeout > 0))
      return rfail(r, v, "timeout must be a number of seconds per point");
  } else if (!strcmp(key, "params")) {
    return read_params(r, st, v);
  } else if (!strcmp(key, "zip")) {
    return 0; /* after the parameters */
  } else {
    char known[512];
    size_t used = 0;
    for (size_t k = 0; k < sizeof top_keys / sizeof *top_keys; k++)
      used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", k ? ", " : "",
                               top_keys[k]);
    return rfail(r, v, "unknown key '%s' (a study has: %s)", key, known);
  }
  return 0;
}

static char *substitute(const sweep_study *st, const char *tpl, const size_t *vidx, size_t seed,
                        size_t point, char *err, size_t errlen);

/* Every template with the values of point 0: a {name} no parameter defines is an error at
 * the line of its key. */
static int check_templates(study_reader *r, sweep_study *st)
{
  char err[512];
  size_t *vidx = xcalloc(st->nparams + 1, sizeof *vidx);
  size_t seed = sweep_point_values(st, 0, vidx);
  for (int k = 0; k < TPL_COUNT && !r->failed; k++) {
    char *one[2] = {NULL, NULL};
    char **list = k == TPL_ARGS   ? st->args
                  : k == TPL_SETS ? st->sets
                  : k == TPL_CFG  ? st->cfgs
                                  : one;
    size_t n = k == TPL_ARGS   ? st->nargs
               : k == TPL_SETS ? st->nsets
               : k == TPL_CFG  ? st->ncfgs
                               : 1;
    one[0] = k == TPL_NP         ? st->np
             : k == TPL_PLATFORM ? st->platform
             : k == TPL_HOSTFILE ? st->hostfile
                                 : NULL;
    for (size_t j = 0; j < n && list[j] && !r->failed; j++) {
      char *v = substitute(st, list[j], vidx, seed, 0, err, sizeof err);
      if (!v)
        rfail(r, r->tpl_node[k], "%s: %s", tpl_keys[k], err);
      free(v);
    }
  }
  free(vidx);
  return r->failed ? -1 : 0;
}

int sweep_study_load(const char *path, sweep_study *st, char *err, size_t errlen)
{
  memset(st, 0, sizeof *st);
  st->path = realpath(path, NULL);
  if (!st->path) {
    snprintf(err, errlen, "%s: cannot open the study: %s", path, strerror(errno));
    return -1;
  }
  FILE *f = fopen(st->path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open the study: %s", path, strerror(errno));
    sweep_study_free(st);
    return -1;
  }
  size_t cap = 4096, len = 0, got;
  st->text = xmalloc(cap + 1);
  while ((got = fread(st->text + len, 1, cap - len, f)) > 0)
    if ((len += got) == cap)
      st->text = xrealloc(st->text, (cap *= 2) + 1);
  st->text[len] = 0;
  fclose(f);
  st->dir = xstrdup(st->path);
  *strrchr(st->dir, '/') = 0;
  if (!*st->dir) {
    free(st->dir);
    st->dir = xstrdup("/");
  }

  study_reader r = {.path = path, .err = err, .errlen = errlen};
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)st->text, len);
  if (!yaml_parser_load(&parser, &r.doc)) {
    snprintf(err, errlen, "%s:%lu: %s %s", path, (unsigned long)parser.problem_mark.line + 1,
             parser.problem ? parser.problem : "YAML error",
             parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    sweep_study_free(st);
    return -1;
  }
  yaml_parser_delete(&parser);
  yaml_node_t *root = yaml_document_get_root_node(&r.doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    rfail(&r, root, "a study is a mapping (program: ..., params: ...; docs/sweeps.md)");
  } else {
    const yaml_node_t *zip = NULL;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top && !r.failed; p++) {
      const char *key = scalar(&r, node(&r, p->key), "a key");
      if (key && read_top(&r, st, key, node(&r, p->value)) == 0 && !strcmp(key, "zip"))
        zip = node(&r, p->value);
      for (int k = 0; key && k < TPL_COUNT; k++)
        if (!strcmp(key, tpl_keys[k]))
          r.tpl_node[k] = node(&r, p->value);
    }
    if (!r.failed && !st->program)
      rfail(&r, root, "no program: (the MPI program built with smpicc)");
    if (!r.failed && zip)
      read_zip(&r, st, zip);
    /* an output is a column of the results beside the parameters */
    for (size_t o = 0; o < st->noutputs && !r.failed; o++) {
      for (size_t j = 0; j < st->nparams; j++)
        if (!strcmp(st->outputs[o].name, st->params[j].name))
          rfail(&r, root, "output %s has the name of a parameter", st->params[j].name);
      for (size_t j = 0; j < sizeof reserved_names / sizeof *reserved_names; j++)
        if (!strcmp(st->outputs[o].name, reserved_names[j]))
          rfail(&r, root, "output %s: a reserved name (a column of the results)",
                reserved_names[j]);
    }
    if (!r.failed)
      build_dims(&r, st);
    if (!r.failed)
      check_templates(&r, st);
  }
  yaml_document_delete(&r.doc);
  if (r.failed)
    sweep_study_free(st);
  return r.failed ? -1 : 0;
}

static void free_list(char **v, size_t n)
{
  for (size_t k = 0; k < n; k++)
    free(v[k]);
  free(v);
}

void sweep_study_free(sweep_study *st)
{
  free(st->path);
  free(st->dir);
  free(st->text);
  free(st->program);
  free_list(st->args, st->nargs);
  free(st->np);
  free(st->platform);
  free(st->hostfile);
  free_list(st->sets, st->nsets);
  free_list(st->cfgs, st->ncfgs);
  free(st->sample_file);
  free(st->seeds);
  for (size_t k = 0; k < st->noutputs; k++) {
    free(st->outputs[k].name);
    free(st->outputs[k].pattern);
    regfree(&st->outputs[k].re);
  }
  free(st->outputs);
  for (size_t k = 0; k < st->nparams; k++) {
    free_list(st->params[k].values, st->params[k].nvalues);
    free(st->params[k].name);
  }
  free(st->params);
  free(st->dims);
  memset(st, 0, sizeof *st);
}

size_t sweep_point_values(const sweep_study *st, size_t i, size_t *vidx)
{
  size_t seed = 0;
  if (st->nseeds) {
    seed = i % st->nseeds;
    i /= st->nseeds;
  }
  for (size_t k = st->ndims; k-- > 0;) {
    const sweep_dim *d = &st->dims[k];
    for (size_t j = 0; j < d->nparams; j++)
      vidx[d->params[j]] = i % d->length;
    i /= d->length;
  }
  return seed;
}

/* {name} -> the parameter's value at this point; {seed}, {point}; {{ and }} are braces. */
static char *substitute(const sweep_study *st, const char *tpl, const size_t *vidx, size_t seed,
                        size_t point, char *err, size_t errlen)
{
  size_t cap = strlen(tpl) + 64, len = 0;
  char *out = xmalloc(cap);
  for (const char *c = tpl; *c;) {
    const char *add = c;
    size_t addlen = 1;
    char num[32];
    if ((c[0] == '{' && c[1] == '{') || (c[0] == '}' && c[1] == '}')) {
      c += 2;
    } else if (c[0] == '{') {
      const char *close = strchr(c, '}');
      if (!close) {
        snprintf(err, errlen, "'%s': '{' without '}' (write {{ for a brace)", tpl);
        free(out);
        return NULL;
      }
      size_t nlen = (size_t)(close - c - 1);
      add = NULL;
      if (nlen == 4 && !strncmp(c + 1, "seed", 4) && st->nseeds) {
        snprintf(num, sizeof num, "%ld", st->seeds[seed]);
        add = num;
      } else if (nlen == 5 && !strncmp(c + 1, "point", 5)) {
        snprintf(num, sizeof num, "%zu", point);
        add = num;
      }
      for (size_t j = 0; !add && j < st->nparams; j++)
        if (strlen(st->params[j].name) == nlen && !strncmp(st->params[j].name, c + 1, nlen))
          add = st->params[j].values[vidx[j]];
      if (!add) {
        snprintf(err, errlen, "'%s': no parameter '%.*s'%s", tpl, (int)nlen, c + 1,
                 nlen == 4 && !strncmp(c + 1, "seed", 4) ? " ({seed} needs seeds: or repeat:)"
                                                         : " in params");
        free(out);
        return NULL;
      }
      addlen = strlen(add);
      c = close + 1;
    } else {
      c++;
    }
    if (len + addlen + 1 > cap)
      out = xrealloc(out, cap = (len + addlen + 1) * 2);
    memcpy(out + len, add, addlen);
    len += addlen;
  }
  out[len] = 0;
  return out;
}

char **sweep_point_argv(const sweep_study *st, size_t i, const char *smpirun, char *err,
                        size_t errlen)
{
  size_t *vidx = xcalloc(st->nparams + 1, sizeof *vidx);
  size_t seed = sweep_point_values(st, i, vidx);
  size_t cap = 16 + 2 * (st->nsets + st->ncfgs) + st->nargs, n = 0;
  char **argv = xcalloc(cap, sizeof *argv);
  bool ok = true;
#define SUBST(tpl) (ok && (argv[n] = substitute(st, (tpl), vidx, seed, i, err, errlen)) != NULL)
  argv[n++] = xstrdup(smpirun);
  if (st->np) {
    argv[n++] = xstrdup("-np");
    ok = SUBST(st->np);
    n++;
  }
  if (ok && st->platform) {
    argv[n++] = xstrdup("-platform");
    ok = SUBST(st->platform);
    if (ok && argv[n][0] != '/') {
      char *abs = resolve(st, argv[n]);
      free(argv[n]);
      argv[n] = abs;
    }
    n++;
  }
  if (ok && st->hostfile) {
    argv[n++] = xstrdup("-hostfile");
    ok = SUBST(st->hostfile);
    n++;
  }
  for (size_t k = 0; ok && k < st->nsets; k++) {
    argv[n++] = xstrdup("--platform-set");
    ok = SUBST(st->sets[k]);
    n++;
  }
  argv[n++] = xstrdup("--cfg=smpi/display-timing:yes");
  if (st->nseeds)
    argv[n++] = xasprintf("--cfg=smpi/seed:%ld", st->seeds[seed]);
  if (st->sample_file)
    argv[n++] = xasprintf("--cfg=smpi/sample-file:%s", st->sample_file);
  for (size_t k = 0; ok && k < st->ncfgs; k++) {
    char *v = substitute(st, st->cfgs[k], vidx, seed, i, err, errlen);
    ok = v != NULL;
    if (ok)
      argv[n++] = xasprintf("--cfg=%s", v);
    free(v);
  }
  if (ok)
    argv[n++] = xstrdup(st->program);
  for (size_t k = 0; ok && k < st->nargs; k++) {
    ok = SUBST(st->args[k]);
    n++;
  }
#undef SUBST
  free(vidx);
  if (!ok) {
    sweep_argv_free(argv);
    return NULL;
  }
  return argv;
}

void sweep_argv_free(char **argv)
{
  if (!argv)
    return;
  for (char **a = argv; *a; a++)
    free(*a);
  free(argv);
}

char *sweep_argv_string(char *const *argv)
{
  size_t cap = 256, len = 0;
  char *s = xmalloc(cap);
  s[0] = 0;
  for (char *const *a = argv; *a; a++) {
    bool plain = **a != 0;
    for (const char *c = *a; *c; c++)
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+,@%", *c))
        plain = false;
    size_t need = len + 4 * strlen(*a) + 4;
    if (need > cap)
      s = xrealloc(s, cap = need * 2);
    if (len)
      s[len++] = ' ';
    if (plain) {
      len += (size_t)sprintf(s + len, "%s", *a);
    } else {
      s[len++] = '\'';
      for (const char *c = *a; *c; c++) {
        if (*c == '\'') {
          memcpy(s + len, "'\\''", 4);
          len += 4;
        } else {
          s[len++] = *c;
        }
      }
      s[len++] = '\'';
      s[len] = 0;
    }
  }
  return s;
}
