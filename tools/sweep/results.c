/* The records of a sweep -> DIR/results.csv and DIR/results.sqlite, one row per point of the
 * study, in point order (a point not run yet has status "missing"):
 *
 *   point, PARAM..., [seed], status, exit_code, sim_time, OUTPUT..., cpu_time, wall_time,
 *   peak_rss_kib, log
 *
 * sim_time is the simulated time as smpirun's smpi/display-timing prints it (9 significant
 * digits), written back with %.15g so that no binary noise is added to those digits. The SQLite file has the same columns in
 * table `points` (numbers as REAL or INTEGER, a parameter or an output as REAL when all of
 * it is a number, else TEXT), and the study's text in table `study`. Both files are written
 * under a temporary name and renamed: a reader never sees half a table.
 */
#include "tools/sweep/sweep.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/mem.h"

static void csv_field(FILE *f, const char *s)
{
  if (!s)
    return;
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static bool numeric(const char *s, double *x)
{
  char *end;
  if (!s || !*s)
    return false;
  *x = strtod(s, &end);
  return *end == 0;
}

static const char *status_name(const sweep_record *r)
{
  return !r->present ? "missing" : r->ok ? "ok" : "failed";
}

static int sql_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    snprintf(err, errlen, "SQLite: %s (in: %.80s)", msg ? msg : "?", sql);
    sqlite3_free(msg);
    return -1;
  }
  return 0;
}

/* A column name as an SQL identifier: "name" with quotes doubled. */
static void sql_ident(char *buf, size_t len, const char *prefix, const char *name)
{
  size_t n = 0;
  buf[n++] = '"';
  for (const char *s = prefix; *s && n + 3 < len; s++)
    buf[n++] = *s;
  for (const char *s = name; *s && n + 3 < len; s++) {
    if (*s == '"')
      buf[n++] = '"';
    buf[n++] = *s;
  }
  buf[n++] = '"';
  buf[n] = 0;
}

static int write_sqlite(const sweep_study *st, const sweep_dirs *d, const char *path, char *err,
                        size_t errlen)
{
  unlink(path);
  sqlite3 *db;
  if (sqlite3_open(path, &db) != SQLITE_OK) {
    snprintf(err, errlen, "cannot create %s: %s", path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return -1;
  }
  /* a column is REAL when every value is a number */
  bool *param_num = xcalloc(st->nparams + 1, sizeof *param_num);
  bool *param_int = xcalloc(st->nparams + 1, sizeof *param_int);
  for (size_t j = 0; j < st->nparams; j++) {
    double x;
    param_num[j] = param_int[j] = true;
    for (size_t v = 0; v < st->params[j].nvalues; v++) {
      param_num[j] = param_num[j] && numeric(st->params[j].values[v], &x);
      param_int[j] = param_num[j] && param_int[j] && x == (double)(long long)x &&
                     !strpbrk(st->params[j].values[v], ".eE");
    }
  }
  size_t cap = 4096, len = 0;
  char *sql = xmalloc(cap);
  char id[256];
#define ADD(...)                                                \
  do {                                                          \
    int need_ = snprintf(NULL, 0, __VA_ARGS__);                 \
    if (len + (size_t)need_ + 1 > cap)                          \
      sql = xrealloc(sql, cap = (len + (size_t)need_ + 1) * 2); \
    len += (size_t)snprintf(sql + len, cap - len, __VA_ARGS__); \
  } while (0)
  ADD("CREATE TABLE points (point INTEGER PRIMARY KEY");
  for (size_t j = 0; j < st->nparams; j++) {
    sql_ident(id, sizeof id, "", st->params[j].name);
    ADD(", %s %s", id, param_int[j] ? "INTEGER" : param_num[j] ? "REAL" : "TEXT");
  }
  if (st->nseeds)
    ADD(", seed INTEGER");
  ADD(", status TEXT, exit_code INTEGER, sim_time REAL");
  for (size_t o = 0; o < st->noutputs; o++) {
    sql_ident(id, sizeof id, "", st->outputs[o].name);
    ADD(", %s", id); /* no type: a number stays a number, text stays text */
  }
  ADD(", cpu_time REAL, wall_time REAL, peak_rss_kib INTEGER, log TEXT)");
#undef ADD
  int rc = sql_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", err, errlen);
  rc = rc ? rc : sql_exec(db, sql, err, errlen);
  rc = rc ? rc
          : sql_exec(db, "CREATE TABLE study (key TEXT PRIMARY KEY, value TEXT)", err, errlen);
  rc = rc ? rc : sql_exec(db, "BEGIN", err, errlen);
  sqlite3_stmt *ins = NULL, *meta = NULL;
  size_t ncols = 1 + st->nparams + (st->nseeds ? 1 : 0) + 3 + st->noutputs + 4;
  len = 0;
  sql[0] = 0;
  len += (size_t)snprintf(sql, cap, "INSERT INTO points VALUES (?");
  for (size_t c = 1; c < ncols; c++) {
    if (len + 4 > cap)
      sql = xrealloc(sql, cap *= 2);
    len += (size_t)snprintf(sql + len, cap - len, ",?");
  }
  if (len + 4 > cap)
    sql = xrealloc(sql, cap *= 2);
  snprintf(sql + len, cap - len, ")");
  if (rc == 0 &&
      (sqlite3_prepare_v2(db, sql, -1, &ins, NULL) != SQLITE_OK ||
       sqlite3_prepare_v2(db, "INSERT INTO study VALUES (?, ?)", -1, &meta, NULL) != SQLITE_OK)) {
    snprintf(err, errlen, "SQLite: %s", sqlite3_errmsg(db));
    rc = -1;
  }
  free(sql);
  const char *meta_rows[][2] = {{"path", st->path}, {"text", st->text}, {"directory", d->out}};
  for (size_t k = 0; rc == 0 && k < 3; k++) {
    sqlite3_bind_text(meta, 1, meta_rows[k][0], -1, SQLITE_STATIC);
    sqlite3_bind_text(meta, 2, meta_rows[k][1], -1, SQLITE_STATIC);
    if (sqlite3_step(meta) != SQLITE_DONE)
      rc = -1;
    sqlite3_reset(meta);
  }
  size_t *vidx = xcalloc(st->nparams + 1, sizeof *vidx);
  for (size_t i = 0; rc == 0 && i < st->npoints; i++) {
    sweep_record r;
    sweep_record_read(st, d, i, &r);
    size_t seed = sweep_point_values(st, i, vidx);
    int c = 1;
    sqlite3_bind_int64(ins, c++, (sqlite3_int64)i);
    for (size_t j = 0; j < st->nparams; j++) {
      const char *v = st->params[j].values[vidx[j]];
      double x;
      if (param_int[j] && numeric(v, &x))
        sqlite3_bind_int64(ins, c++, (sqlite3_int64)x);
      else if (param_num[j] && numeric(v, &x))
        sqlite3_bind_double(ins, c++, x);
      else
        sqlite3_bind_text(ins, c++, v, -1, SQLITE_STATIC);
    }
    if (st->nseeds)
      sqlite3_bind_int64(ins, c++, st->seeds[seed]);
    sqlite3_bind_text(ins, c++, status_name(&r), -1, SQLITE_STATIC);
    if (r.present)
      sqlite3_bind_int(ins, c++, r.exit_code);
    else
      sqlite3_bind_null(ins, c++);
    if (isnan(r.sim_time))
      sqlite3_bind_null(ins, c++);
    else
      sqlite3_bind_double(ins, c++, r.sim_time);
    for (size_t o = 0; o < st->noutputs; o++) {
      double x;
      if (!r.outputs[o])
        sqlite3_bind_null(ins, c++);
      else if (numeric(r.outputs[o], &x))
        sqlite3_bind_double(ins, c++, x);
      else
        sqlite3_bind_text(ins, c++, r.outputs[o], -1, SQLITE_TRANSIENT);
    }
    char *log = sweep_log_path(d, i);
    if (r.present) {
      sqlite3_bind_double(ins, c++, r.cpu_time);
      sqlite3_bind_double(ins, c++, r.wall_time);
      sqlite3_bind_int64(ins, c++, r.peak_rss_kib);
      sqlite3_bind_text(ins, c++, log, -1, SQLITE_TRANSIENT);
    } else {
      for (int k = 0; k < 4; k++)
        sqlite3_bind_null(ins, c++);
    }
    free(log);
    if (sqlite3_step(ins) != SQLITE_DONE) {
      snprintf(err, errlen, "SQLite: %s", sqlite3_errmsg(db));
      rc = -1;
    }
    sqlite3_reset(ins);
    sweep_record_clear(&r);
  }
  free(vidx);
  free(param_num);
  free(param_int);
  sqlite3_finalize(ins);
  sqlite3_finalize(meta);
  if (rc == 0)
    rc = sql_exec(db, "COMMIT", err, errlen);
  if (sqlite3_close(db) != SQLITE_OK && rc == 0) {
    snprintf(err, errlen, "cannot write %s", path);
    rc = -1;
  }
  return rc;
}

int sweep_write_results(const sweep_study *st, const sweep_dirs *d, size_t *nok, size_t *nfailed,
                        size_t *nmissing, char *err, size_t errlen)
{
  *nok = *nfailed = *nmissing = 0;
  char *csv = xasprintf("%s/results.csv", d->out), *csv_tmp = xasprintf("%s.tmp", csv);
  FILE *f = fopen(csv_tmp, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", csv_tmp, strerror(errno));
    free(csv);
    free(csv_tmp);
    return -1;
  }
  fputs("point", f);
  for (size_t j = 0; j < st->nparams; j++) {
    fputc(',', f);
    csv_field(f, st->params[j].name);
  }
  if (st->nseeds)
    fputs(",seed", f);
  fputs(",status,exit_code,sim_time", f);
  for (size_t o = 0; o < st->noutputs; o++) {
    fputc(',', f);
    csv_field(f, st->outputs[o].name);
  }
  fputs(",cpu_time,wall_time,peak_rss_kib,log\n", f);
  size_t *vidx = xcalloc(st->nparams + 1, sizeof *vidx);
  for (size_t i = 0; i < st->npoints; i++) {
    sweep_record r;
    sweep_record_read(st, d, i, &r);
    size_t seed = sweep_point_values(st, i, vidx);
    fprintf(f, "%zu", i);
    for (size_t j = 0; j < st->nparams; j++) {
      fputc(',', f);
      csv_field(f, st->params[j].values[vidx[j]]);
    }
    if (st->nseeds)
      fprintf(f, ",%ld", st->seeds[seed]);
    fprintf(f, ",%s,", status_name(&r));
    if (r.present)
      fprintf(f, "%d", r.exit_code);
    fputc(',', f);
    if (!isnan(r.sim_time))
      fprintf(f, "%.15g", r.sim_time);
    for (size_t o = 0; o < st->noutputs; o++) {
      fputc(',', f);
      csv_field(f, r.outputs[o]);
    }
    if (r.present) {
      char *log = sweep_log_path(d, i);
      fprintf(f, ",%.6f,%.6f,%ld,", r.cpu_time, r.wall_time, r.peak_rss_kib);
      csv_field(f, log);
      free(log);
      fputc('\n', f);
    } else {
      fputs(",,,,\n", f);
    }
    !r.present ? (*nmissing)++ : r.ok ? (*nok)++ : (*nfailed)++;
    sweep_record_clear(&r);
  }
  free(vidx);
  int rc = 0;
  if (fclose(f) != 0 || rename(csv_tmp, csv) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", csv, strerror(errno));
    rc = -1;
  }
  free(csv);
  free(csv_tmp);
  if (rc == 0) {
    char *db = xasprintf("%s/results.sqlite", d->out), *db_tmp = xasprintf("%s.tmp", db);
    rc = write_sqlite(st, d, db_tmp, err, errlen);
    if (rc == 0 && rename(db_tmp, db) != 0) {
      snprintf(err, errlen, "cannot write %s: %s", db, strerror(errno));
      rc = -1;
    }
    free(db);
    free(db_tmp);
  }
  return rc;
}
