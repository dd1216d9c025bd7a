/* Platform loader: SimGrid 4.1 XML -> plat_platform.
 *
 *   bytes --libxml2 (NONET, no DTD loading)--> DOM --root is <platform>, version 4/4.1?-->
 *   --validate against the embedded DTD: the quick check of src/plat_dtd.h proves most
 *     files valid without parsing the DTD; else libxml2 validates (first problem rephrased,
 *     with its line)-->
 *   walk in document order:
 *       <config>   -> cfg_set(..., CFG_ORIGIN_PLATFORM) at once
 *       <zone>     -> plat_zone, children walked recursively
 *       <cluster>  -> cluster zone (ranges, topo_parameters read, names checked by pattern)
 *       <host> <router> <link> <backbone> <cabinet> -> elements, units converted, names checked
 *       <include>  -> the same steps for the other file, its elements inserted here
 *       <route> ... <host_link> -> queued (their DOM nodes stay alive until the end)
 *   --resolve the queue: route ends, gateways, link_ctn references-->  plat_platform
 *
 * The first problem found stops the load; the message is "file:line: what is wrong".
 * References are resolved once everything is read, so a route may name a link declared
 * further down its zone (SimGrid would refuse; being lenient here costs nothing).
 */
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/platform.h"
#include "src/platform_impl.h"
#include "src/platform_set.h"
#include "src/plat_dtd.h"
#include "src/plat_profile.h"
#include "src/strmap.h"
#include "src/units.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

LOG_NEW_CATEGORY(platform, "platform file loader");
LOG_DEFAULT_CATEGORY(platform);

/* generated at build time from platforms/smpi.dtd (see src/meson.build) */
extern const char plat_dtd_data[];
extern const size_t plat_dtd_size;

const char *plat_dtd_text(void) { return plat_dtd_data; }

#define MAX_INCLUDE_DEPTH 32

/* A reference-carrying element whose resolution waits for the end of the walk. */
typedef struct pending_ref {
  xmlNode *node;
  uint32_t file;
  plat_route *route; /* a route, or NULL for a host_link */
  plat_zone *zone;   /* host_link: its zone and index in zone->host_links */
  size_t index;
} pending_ref;

typedef struct loader {
  plat_platform *p;
  char *err;
  size_t errlen;
  bool failed;
  uint32_t file; /* file being walked (index into p->files) */
  char *dir;     /* its directory, "" for the current one */
  /* files being walked, outermost first: canonical paths (NULL for a string) and indexes */
  char *stack_real[MAX_INCLUDE_DEPTH];
  uint32_t stack_file[MAX_INCLUDE_DEPTH];
  int depth;
  xmlDocPtr *docs;
  size_t ndocs;
  xmlChar **scratch; /* attribute values that had to be copied out of the DOM */
  size_t nscratch;
  pending_ref *pending;
  size_t npending;
  size_t expanded; /* bytes and references of entity expansions in attributes, all files */
} loader;

/* ------------------------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------------------------- */

static long node_line(const xmlNode *n) { return n ? xmlGetLineNo(n) : 0; }

static int fail_at(loader *L, uint32_t file, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(loader *L, uint32_t file, long line, const char *fmt, ...)
{
  if (L->failed)
    return -1;
  L->failed = true;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (line > 0)
    snprintf(L->err, L->errlen, "%s:%ld: %s", L->p->files[file], line, msg);
  else
    snprintf(L->err, L->errlen, "%s: %s", L->p->files[file], msg);
  return -1;
}

#define FAIL(L, node, ...) fail_at((L), (L)->file, node_line(node), __VA_ARGS__)

static plat_loc loc_of(const loader *L, const xmlNode *n)
{
  long line = node_line(n);
  return (plat_loc){L->file, line > 0 && line <= UINT32_MAX ? (uint32_t)line : 0};
}

/* "file:line" of an element, for messages pointing at an earlier definition */
static const char *where(const loader *L, plat_loc loc, char *buf, size_t len)
{
  snprintf(buf, len, "%s:%" PRIu32, L->p->files[loc.file], loc.line);
  return buf;
}

/* ------------------------------------------------------------------------------------------
 * libxml2 plumbing
 * ---------------------------------------------------------------------------------------- */

typedef struct xml_issue {
  int code;
  long line;
  xmlNode *node;
  char msg[400];
} xml_issue;

typedef struct xml_capture {
  xml_issue items[32];
  size_t n;
  xmlParserCtxtPtr stop; /* parsing: stopped at the first error (see parse_xml) */
  long hyphen_line;      /* first "--" inside a comment (0: none), tolerated (see parse_xml) */
} xml_capture;

#if LIBXML_VERSION >= 21200
static void capture_error(void *data, const xmlError *e)
#else
static void capture_error(void *data, xmlErrorPtr e)
#endif
{
  xml_capture *cap = data;
  if (e->level < XML_ERR_ERROR)
    return;
  if (cap->stop && e->code == XML_ERR_HYPHEN_IN_COMMENT) {
    if (!cap->hyphen_line)
      cap->hyphen_line = e->line;
    return;
  }
  if (cap->stop)
    xmlStopParser(cap->stop);
  if (cap->n == sizeof cap->items / sizeof cap->items[0])
    return;
  xml_issue *is = &cap->items[cap->n++];
  is->code = e->code;
  is->node = e->node;
  is->line = e->line;
  if (is->node && ((xmlNode *)is->node)->type == XML_ELEMENT_NODE)
    is->line = xmlGetLineNo(is->node);
  snprintf(is->msg, sizeof is->msg, "%s", e->message ? e->message : "unknown libxml2 error");
  size_t len = strlen(is->msg);
  while (len > 0 && (is->msg[len - 1] == '\n' || is->msg[len - 1] == ' '))
    is->msg[--len] = '\0';
}

/* libxml2 reports through a global handler: install ours around each call, then put back
 * whatever was there. */
typedef struct handler_save {
  xmlStructuredErrorFunc func;
  void *ctx;
} handler_save;

static handler_save capture_begin(xml_capture *cap)
{
  handler_save s = {xmlStructuredError, xmlStructuredErrorContext};
  memset(cap, 0, sizeof *cap);
  xmlSetStructuredErrorFunc(cap, capture_error);
  return s;
}

static void capture_end(handler_save s) { xmlSetStructuredErrorFunc(s.ctx, s.func); }

static unsigned dtd_parses; /* see plat_dtd_parses */

unsigned plat_dtd_parses(void) { return dtd_parses; }

static xmlDtdPtr embedded_dtd(void)
{
  static xmlDtdPtr dtd;
  if (dtd)
    return dtd;
  dtd_parses++;
  xml_capture cap;
  handler_save s = capture_begin(&cap);
  xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(plat_dtd_data, (int)plat_dtd_size,
                                                              XML_CHAR_ENCODING_NONE);
  ASSERT(buf != NULL);
  dtd = xmlIOParseDTD(NULL, buf, XML_CHAR_ENCODING_NONE); /* frees buf */
  capture_end(s);
  if (!dtd || cap.n > 0)
    DIE("the embedded platform DTD does not parse: line %ld: %s", cap.n ? cap.items[0].line : 0,
        cap.n ? cap.items[0].msg : "?");
  return dtd;
}

/* Value of an attribute, or NULL if absent. Points into the DOM when it can (valid until the
 * end of the load), else into a copy freed at the end of the load. */
static const char *attr(loader *L, xmlNode *n, const char *name)
{
  xmlAttr *a = xmlHasProp(n, BAD_CAST name);
  if (!a || a->type != XML_ATTRIBUTE_NODE)
    return NULL;
  xmlNode *t = a->children;
  if (!t)
    return "";
  if (!t->next && t->type == XML_TEXT_NODE && t->content)
    return (const char *)t->content;
  xmlChar *v = xmlNodeListGetString(n->doc, t, 1);
  if (!v)
    return "";
  PLAT_PUSH(L->scratch, L->nscratch, v);
  return (const char *)v;
}

static bool is_elem(const xmlNode *n, const char *name)
{
  return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static const char *ename(const xmlNode *n) { return (const char *)n->name; }

/* ------------------------------------------------------------------------------------------
 * Validation messages
 * ---------------------------------------------------------------------------------------- */

static void collect_content_names(xmlElementContentPtr c, const char **names, size_t *n,
                                  size_t max)
{
  if (!c)
    return;
  if (c->type == XML_ELEMENT_CONTENT_ELEMENT && c->name && *n < max)
    names[(*n)++] = (const char *)c->name;
  collect_content_names(c->c1, names, n, max);
  collect_content_names(c->c2, names, n, max);
}

static void join_names(const char **names, size_t n, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && used < len; i++) {
    int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

static int cmp_attr_decl(const void *a, const void *b)
{
  return strcmp((const char *)(*(xmlAttributePtr const *)a)->name,
                (const char *)(*(xmlAttributePtr const *)b)->name);
}

/* The DTD's attribute declarations of an element, by name. */
static size_t declared_attributes(xmlDtdPtr dtd, const xmlChar *elem, xmlAttributePtr *out,
                                  size_t max)
{
  xmlElementPtr decl = xmlGetDtdElementDesc(dtd, elem);
  size_t n = 0;
  for (xmlAttributePtr a = decl ? decl->attributes : NULL; a && n < max; a = a->nexth)
    out[n++] = a;
  qsort(out, n, sizeof *out, cmp_attr_decl);
  return n;
}

/* One libxml2 validity error turned into our wording; *line may move to a child element. */
static void explain_issue(const xml_issue *is, xmlDtdPtr dtd, long *line, char *msg, size_t len)
{
  xmlNode *n = is->node;
  *line = is->line;
  if (!n || n->type != XML_ELEMENT_NODE) {
    snprintf(msg, len, "%s", is->msg);
    return;
  }
  xmlAttributePtr decls[64];
  size_t ndecls = declared_attributes(dtd, n->name, decls, 64);
  char list[512];

  switch (is->code) {
  case XML_DTD_UNKNOWN_ELEM:
    snprintf(msg, len, "unknown element <%s> (not part of SimGrid's platform format 4.1)",
             ename(n));
    return;

  case XML_DTD_UNKNOWN_ATTRIBUTE:
    for (xmlAttr *a = n->properties; a; a = a->next) {
      if (xmlGetDtdAttrDesc(dtd, n->name, a->name))
        continue;
      const char *best = NULL;
      size_t best_d = SIZE_MAX;
      const char *names[64];
      for (size_t i = 0; i < ndecls; i++) {
        names[i] = (const char *)decls[i]->name;
        size_t d = cfg_edit_distance((const char *)a->name, names[i]);
        if (d < best_d) {
          best_d = d;
          best = names[i];
        }
      }
      join_names(names, ndecls, list, sizeof list);
      if (best && best_d <= 2)
        snprintf(msg, len, "unknown attribute '%s' in <%s> (did you mean '%s'?); known: %s",
                 (const char *)a->name, ename(n), best, list);
      else
        snprintf(msg, len, "unknown attribute '%s' in <%s>; known: %s", (const char *)a->name,
                 ename(n), list);
      return;
    }
    break;

  case XML_DTD_MISSING_ATTRIBUTE:
    for (size_t i = 0; i < ndecls; i++) {
      if (decls[i]->def == XML_ATTRIBUTE_REQUIRED && !xmlHasProp(n, decls[i]->name)) {
        snprintf(msg, len, "<%s> lacks the required attribute '%s'", ename(n),
                 (const char *)decls[i]->name);
        return;
      }
    }
    break;

  case XML_DTD_ATTRIBUTE_VALUE:
    for (xmlAttr *a = n->properties; a; a = a->next) {
      xmlAttributePtr d = xmlGetDtdAttrDesc(dtd, n->name, a->name);
      if (!d || !d->tree)
        continue;
      xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
      bool ok = false;
      const char *names[32];
      size_t nn = 0;
      for (xmlEnumerationPtr e = d->tree; e; e = e->next) {
        ok |= v && xmlStrEqual(v, e->name);
        if (nn < 32)
          names[nn++] = (const char *)e->name;
      }
      if (!ok) {
        join_names(names, nn, list, sizeof list);
        snprintf(msg, len, "invalid value '%s' for attribute '%s' of <%s>; expected one of %s",
                 v ? (const char *)v : "", (const char *)a->name, ename(n), list);
        xmlFree(v);
        return;
      }
      xmlFree(v);
    }
    break;

  case XML_DTD_CONTENT_MODEL:
  case XML_DTD_NOT_EMPTY:
  case XML_DTD_INVALID_CHILD: {
    /* libxml2 blames the parent; find the child that does not belong there */
    const char *allowed[64];
    size_t nallowed = 0;
    xmlElementPtr decl = xmlGetDtdElementDesc(dtd, n->name);
    if (decl)
      collect_content_names(decl->content, allowed, &nallowed, 64);
    join_names(allowed, nallowed, list, sizeof list);
    for (xmlNode *c = n->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE) {
        bool ok = false;
        for (size_t i = 0; i < nallowed && !ok; i++)
          ok = strcmp(allowed[i], ename(c)) == 0;
        if (ok)
          continue;
        *line = xmlGetLineNo(c);
        if (!xmlGetDtdElementDesc(dtd, c->name))
          snprintf(msg, len, "unknown element <%s> (not part of SimGrid's platform format 4.1)",
                   ename(c));
        else if (nallowed == 0)
          snprintf(msg, len, "<%s> is not allowed inside <%s>, which has no child elements",
                   ename(c), ename(n));
        else
          snprintf(msg, len, "<%s> is not allowed inside <%s>; allowed there: %s", ename(c),
                   ename(n), list);
        return;
      }
      if (c->type == XML_TEXT_NODE && !xmlIsBlankNode(c)) {
        *line = c->line ? (long)c->line : *line;
        snprintf(msg, len, "<%s> cannot contain text", ename(n));
        return;
      }
    }
    break;
  }
  default:
    break;
  }
  snprintf(msg, len, "invalid <%s>: %s", ename(n), is->msg);
}

static int issue_rank(int code)
{
  switch (code) {
  case XML_DTD_UNKNOWN_ELEM:
  case XML_DTD_CONTENT_MODEL:
  case XML_DTD_NOT_EMPTY:
  case XML_DTD_INVALID_CHILD:
    return 0;
  case XML_DTD_UNKNOWN_ATTRIBUTE:
    return 1;
  case XML_DTD_ATTRIBUTE_VALUE:
    return 2;
  case XML_DTD_MISSING_ATTRIBUTE:
    return 3;
  default:
    return 4;
  }
}

/* ---- the quick validity check (src/plat_dtd.h): what libxml2's xmlValidateDtd checks,
 * for the DTD shapes src/dtd_table.py accepts, answering false wherever it is not sure ---- */

static const plat_dtd_elem *dtd_elem(const xmlChar *name)
{
  for (size_t i = 0; i < plat_dtd_nelems; i++)
    if (strcmp(plat_dtd_elems[i].name, (const char *)name) == 0)
      return &plat_dtd_elems[i];
  return NULL;
}

static bool in_list(const char *const *list, const char *s)
{
  for (; *list; list++)
    if (strcmp(*list, s) == 0)
      return true;
  return false;
}

/* the attributes of n against e's: each declared, each enumeration matched exactly, each
 * required one present (attributes without namespace only) */
static bool quick_attrs(const xmlNode *n, const plat_dtd_elem *e)
{
  for (const xmlAttr *a = n->properties; a; a = a->next) {
    if (a->ns)
      return false;
    const plat_dtd_attr *d = NULL;
    for (size_t i = 0; i < e->nattrs && !d; i++)
      if (strcmp(e->attrs[i].name, (const char *)a->name) == 0)
        d = &e->attrs[i];
    if (!d)
      return false;
    if (d->values) { /* the value is one text node after flatten_attributes, or none */
      const xmlNode *t = a->children;
      if (!t || t->next || t->type != XML_TEXT_NODE || !t->content ||
          !in_list(d->values, (const char *)t->content))
        return false;
    }
  }
  for (size_t i = 0; i < e->nattrs; i++) {
    if (!e->attrs[i].required)
      continue;
    const xmlAttr *a = n->properties;
    while (a && strcmp((const char *)a->name, e->attrs[i].name) != 0)
      a = a->next;
    if (!a)
      return false;
  }
  return true;
}

/* n's children against e's content model (each child element is checked by the walk) */
static bool quick_content(const xmlNode *n, const plat_dtd_elem *e)
{
  if (e->content == PLAT_DTD_EMPTY)
    return n->children == NULL; /* a comment or a blank makes it non-empty for libxml2 too */
  for (const xmlNode *c = n->children; c; c = c->next) {
    switch (c->type) {
    case XML_ELEMENT_NODE:
      if (e->content != PLAT_DTD_CHOICE || c->ns || !in_list(e->children, (const char *)c->name))
        return false;
      break;
    case XML_TEXT_NODE:
      if (e->content == PLAT_DTD_CHOICE && !xmlIsBlankNode(c))
        return false;
      break;
    case XML_COMMENT_NODE:
      break;
    case XML_PI_NODE: /* libxml2 skips them in element content, refuses them in #PCDATA */
      if (e->content != PLAT_DTD_CHOICE)
        return false;
      break;
    default: /* CDATA sections, entity references, anything else: let libxml2 say */
      return false;
    }
  }
  return true;
}

bool plat_dtd_quick_valid(xmlDoc *doc)
{
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root || doc->standalone == 1)
    return false;
  /* every element of the tree, in document order, without recursion */
  const xmlNode *n = root;
  for (;;) {
    if (n->type != XML_ELEMENT_NODE || n->ns || n->nsDef)
      return false;
    const plat_dtd_elem *e = dtd_elem(n->name);
    if (!e || !quick_attrs(n, e) || !quick_content(n, e))
      return false;
    const xmlNode *next = xmlFirstElementChild((xmlNode *)n);
    if (!next) { /* the next element after n, or up */
      for (const xmlNode *up = n; up && up != root->parent && !next; up = up->parent) {
        if (up == root)
          return true;
        next = xmlNextElementSibling((xmlNode *)up);
      }
      if (!next)
        return true;
    }
    n = next;
  }
}

static int validate(loader *L, xmlDocPtr doc)
{
  if (plat_dtd_quick_valid(doc))
    return 0; /* as libxml2 would have found, without parsing the DTD */
  xmlDtdPtr dtd = embedded_dtd();
  xml_capture cap;
  xmlValidCtxtPtr v = xmlNewValidCtxt();
  ASSERT(v != NULL);
  handler_save s = capture_begin(&cap);
  int ok = xmlValidateDtd(v, doc, dtd);
  capture_end(s);
  xmlFreeValidCtxt(v);
  if (ok && cap.n == 0)
    return 0;
  if (cap.n == 0)
    return fail_at(L, L->file, 0, "does not follow the platform format (no detail from libxml2)");
  /* report the problem that comes first in the file; on one element, the most telling one */
  long best_line = LONG_MAX;
  int best_rank = INT_MAX;
  char best[1024] = "";
  for (size_t i = 0; i < cap.n; i++) {
    long line;
    char msg[1024];
    explain_issue(&cap.items[i], dtd, &line, msg, sizeof msg);
    int rank = issue_rank(cap.items[i].code);
    if (line < best_line || (line == best_line && rank < best_rank)) {
      best_line = line;
      best_rank = rank;
      snprintf(best, sizeof best, "%s", msg);
    }
  }
  return fail_at(L, L->file, best_line, "%s", best);
}

/* errnum value for "exists but is not a regular file" (a device such as /dev/zero would be
 * read forever, a FIFO or a pipe behind /dev/stdin would block) */
#define PLAT_NOT_REGULAR (-1)
/* largest platform file read: far above any real one (a fully routed 1 024-host file is 98 MB) */
#define PLAT_MAX_FILE ((off_t)1 << 31)

/* what a file that is not a regular one is, for messages */
static const char *file_kind(mode_t mode)
{
  return S_ISFIFO(mode)   ? "a FIFO or pipe"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file";
}

static const char *read_error(int errnum, mode_t mode, char *buf, size_t len)
{
  if (errnum != PLAT_NOT_REGULAR)
    return strerror(errnum);
  const char *kind = file_kind(mode);
  if (strcmp(kind, "not a regular file") == 0)
    return kind;
  snprintf(buf, len, "it is %s, not a regular file (save the platform to a file first)", kind);
  return buf;
}

static bool refuse_stat(const struct stat *st, int *errnum, mode_t *mode)
{
  if (S_ISREG(st->st_mode) && st->st_size <= PLAT_MAX_FILE)
    return false;
  *errnum = S_ISDIR(st->st_mode) ? EISDIR : S_ISREG(st->st_mode) ? EFBIG : PLAT_NOT_REGULAR;
  *mode = st->st_mode;
  return true;
}

/* The whole of a regular file. Checked before it is opened: opening a FIFO for reading
 * waits for a writer, forever if none comes. (stdio, not open(2): the fuzz targets confine
 * what the loader may read by wrapping fopen, see tests/fuzz/fuzz_platform_env.h.) */
static char *read_whole_file(const char *path, size_t *len, int *errnum, mode_t *mode)
{
  struct stat st;
  if (stat(path, &st) != 0) {
    *errnum = errno;
    return NULL;
  }
  if (refuse_stat(&st, errnum, mode))
    return NULL;
  FILE *f = fopen(path, "rbe");
  if (!f) {
    *errnum = errno;
    return NULL;
  }
  /* the same check on what was opened, in case the path changed in between */
  if (fstat(fileno(f), &st) != 0 || refuse_stat(&st, errnum, mode)) {
    if (!*errnum)
      *errnum = errno;
    fclose(f);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0 || n > (size_t)PLAT_MAX_FILE)
      break;
  }
  if (ferror(f) || n > (size_t)PLAT_MAX_FILE) {
    *errnum = ferror(f) ? (errno ? errno : EIO) : EFBIG;
    fclose(f);
    free(buf);
    return NULL;
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static xmlDocPtr parse_xml(loader *L, const char *buf, size_t len)
{
  if (len > INT_MAX) {
    fail_at(L, L->file, 0, "file too large (%zu bytes)", len);
    return NULL;
  }
  xml_capture cap;
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  ASSERT(ctxt != NULL);
  handler_save s = capture_begin(&cap);
  /* the first error ends the parse: libxml2 would otherwise go on expanding, e.g. an entity
   * that loops and, through 8 nested levels of 10, references an undefined one 10^8 times
   * raised as many errors, over a minute (found by fuzz_platform) */
  cap.stop = ctxt;
  /* NONET and no DTDLOAD: the DOCTYPE's URL is never fetched nor read. RECOVER only so that
   * "--" inside a comment, which SimGrid's own parser accepts (its cluster_multi.xml has
   * one), does not drop the rest of the tree: any other error still stops the parse above. */
  xmlDocPtr doc = xmlCtxtReadMemory(ctxt, buf, (int)len, L->p->files[L->file], NULL,
                                    XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS |
                                        XML_PARSE_COMPACT | XML_PARSE_NOWARNING |
                                        XML_PARSE_RECOVER);
  capture_end(s);
  bool well_formed = ctxt->wellFormed || cap.hyphen_line;
  xmlFreeParserCtxt(ctxt);
  if (doc && well_formed && cap.n == 0) {
    if (cap.hyphen_line)
      LOG_WARN("%s:%ld: '--' inside a comment (not well-formed XML), accepted as SimGrid does",
               L->p->files[L->file], cap.hyphen_line);
    return doc;
  }
  if (doc)
    xmlFreeDoc(doc);
  if (cap.n > 0)
    fail_at(L, L->file, cap.items[0].line, "not well-formed XML: %s", cap.items[0].msg);
  else
    fail_at(L, L->file, 0, "not well-formed XML");
  return NULL;
}

/* ------------------------------------------------------------------------------------------
 * Values
 * ---------------------------------------------------------------------------------------- */

static int quantity(loader *L, xmlNode *n, const char *what, const char *attr_name,
                    units_kind kind, const char *text, double *out)
{
  char msg[600];
  bool unitless;
  if (units_parse(kind, text, out, &unitless, msg, sizeof msg) != 0)
    return FAIL(L, n, "%s: %s (attribute %s)", what, msg, attr_name);
  if (unitless)
    LOG_WARN("%s:%ld: %s: deprecated unit-less %s '%s' in attribute %s, taken as %g %s",
             L->p->files[L->file], node_line(n), what, units_kind_name(kind), text, attr_name,
             *out,
             kind == UNITS_SPEED       ? "flop/s"
             : kind == UNITS_BANDWIDTH ? "B/s"
                                       : "s");
  return 0;
}

static int positive_quantity(loader *L, xmlNode *n, const char *what, const char *attr_name,
                             units_kind kind, const char *text, double *out)
{
  if (quantity(L, n, what, attr_name, kind, text, out))
    return -1;
  if (!(*out > 0))
    return FAIL(L, n, "%s: %s '%s' must be positive", what, attr_name, text);
  return 0;
}

/* "1Gf,500Mf": one speed per pstate */
static int speed_list(loader *L, xmlNode *n, const char *what, const char *text, double **speeds,
                      size_t *count)
{
  size_t np = 0;
  double *v = NULL;
  const char *s = text;
  for (;;) {
    size_t len = strcspn(s, ",");
    char piece[128];
    if (len >= sizeof piece) {
      free(v);
      return FAIL(L, n, "%s: speed '%.40s...' too long", what, s);
    }
    memcpy(piece, s, len);
    piece[len] = '\0';
    double x;
    /* 0 flop/s is a pstate SimGrid accepts (an "off" state of an energy platform): it is
     * refused only when a rank would run there (smpi/launch/launch.c) */
    if (quantity(L, n, what, "speed", UNITS_SPEED, piece, &x)) {
      free(v);
      return -1;
    }
    if (!(x >= 0)) {
      free(v);
      return FAIL(L, n, "%s: speed '%s' must not be negative", what, piece);
    }
    PLAT_PUSH(v, np, x);
    if (s[len] == '\0')
      break;
    s += len + 1;
  }
  *speeds = v;
  *count = np;
  return 0;
}

static int integer(loader *L, xmlNode *n, const char *what, const char *attr_name,
                   const char *text, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  double d = strtod(text, &end);
  while (*end == ' ' || *end == '\t')
    end++;
  if (end == text || *end != '\0' || errno || d != floor(d) || d < (double)lo || d > (double)hi)
    return FAIL(L, n, "%s: %s '%s' must be an integer between %ld and %ld", what, attr_name, text,
                lo, hi);
  *out = (long)d;
  return 0;
}

static int sharing_policy(loader *L, xmlNode *n, const char *what, const char *text,
                          plat_sharing def, plat_sharing *out)
{
  if (!text)
    *out = def;
  else if (strcmp(text, "SHARED") == 0)
    *out = PLAT_SHARING_SHARED;
  else if (strcmp(text, "SPLITDUPLEX") == 0 || strcmp(text, "FULLDUPLEX") == 0)
    *out = PLAT_SHARING_SPLITDUPLEX;
  else if (strcmp(text, "FATPIPE") == 0)
    *out = PLAT_SHARING_FATPIPE;
  else if (strcmp(text, "WIFI") == 0)
    return FAIL(L, n, "%s: sharing_policy WIFI is known but not supported (no Wi-Fi model)",
                what);
  else
    return FAIL(L, n, "%s: unknown sharing_policy '%s'", what, text);
  return 0;
}

static bool yes_no(const char *text, bool def)
{
  if (!text)
    return def;
  return strcasecmp(text, "yes") == 0;
}

static char *opt_dup(const char *s) { return s && *s ? xstrdup(s) : NULL; }

/* ------------------------------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------------------------- */

/* Hosts, routers and zones share one namespace, cluster hosts included. */
static int check_point_name(loader *L, xmlNode *n, const char *name, const char *what)
{
  struct plat_index *ix = L->p->index;
  char w[300];
  if (!*name)
    return FAIL(L, n, "empty %s id", what);
  plat_host *h;
  plat_router *r;
  plat_zone *z;
  if ((h = strmap_get(ix->hosts, name)))
    return FAIL(L, n, "duplicate %s id '%s': already used by the host defined at %s", what, name,
                where(L, h->loc, w, sizeof w));
  if ((r = strmap_get(ix->routers, name))) {
    if (r->generated)
      return FAIL(L, n, "duplicate %s id '%s': already used by the router of cluster '%s' (%s)",
                  what, name, r->zone->id, where(L, r->zone->loc, w, sizeof w));
    return FAIL(L, n, "duplicate %s id '%s': already used by the router defined at %s", what,
                name, where(L, r->loc, w, sizeof w));
  }
  if ((z = strmap_get(ix->zones, name)))
    return FAIL(L, n, "duplicate %s id '%s': already used by the %s defined at %s", what, name,
                z->cluster ? "cluster" : "zone", where(L, z->loc, w, sizeof w));
  for (size_t i = 0; i < L->p->nclusters; i++) {
    size_t rank;
    plat_zone *cz = L->p->clusters[i];
    if (plat_cluster_rank_of(cz->cluster, name, &rank))
      return FAIL(L, n, "duplicate %s id '%s': already a host of cluster '%s' (%s)", what, name,
                  cz->id, where(L, cz->loc, w, sizeof w));
  }
  return 0;
}

static int check_link_name(loader *L, xmlNode *n, const char *name, plat_sharing sharing)
{
  struct plat_index *ix = L->p->index;
  char w[300];
  if (!*name)
    return FAIL(L, n, "empty link id");
  plat_link *l = strmap_get(ix->links, name);
  if (l)
    return FAIL(L, n, "duplicate link id '%s': already used by the link defined at %s", name,
                where(L, l->loc, w, sizeof w));
  size_t len = strlen(name);
  static const char *const dirs[] = {"_UP", "_DOWN"};
  for (int d = 0; d < 2; d++) {
    size_t dl = strlen(dirs[d]);
    if (len > dl && strcmp(name + len - dl, dirs[d]) == 0) {
      char *base = xstrdup(name);
      base[len - dl] = '\0';
      l = strmap_get(ix->links, base);
      free(base);
      if (l && l->sharing == PLAT_SHARING_SPLITDUPLEX)
        return FAIL(L, n,
                    "duplicate link id '%s': already a direction of the SPLITDUPLEX link '%s' "
                    "defined at %s",
                    name, l->id, where(L, l->loc, w, sizeof w));
    }
    if (sharing == PLAT_SHARING_SPLITDUPLEX) {
      char *derived = xasprintf("%s%s", name, dirs[d]);
      l = strmap_get(ix->links, derived);
      free(derived);
      if (l)
        return FAIL(L, n,
                    "SPLITDUPLEX link '%s' is made of '%s_UP' and '%s_DOWN', but '%s' is already "
                    "the link defined at %s",
                    name, name, name, l->id, where(L, l->loc, w, sizeof w));
    }
  }
  for (size_t i = 0; i < L->p->nclusters; i++) {
    plat_zone *cz = L->p->clusters[i];
    plat_link_ref ref;
    if (plat_cluster_link_lookup(cz, name, PLAT_DIR_NONE, &ref) != PLAT_LINK_UNKNOWN)
      return FAIL(L, n, "duplicate link id '%s': already a link of cluster '%s' (%s)", name,
                  cz->id, where(L, cz->loc, w, sizeof w));
  }
  return 0;
}

/* The names a new cluster generates against everything defined before it. */
static int check_cluster_names(loader *L, xmlNode *n, plat_zone *cz)
{
  struct plat_index *ix = L->p->index;
  plat_cluster *c = cz->cluster;
  char w[300];
  strmap *maps[3] = {ix->hosts, ix->routers, ix->zones};
  static const char *const kinds[3] = {"host", "router", "zone"};
  for (int m = 0; m < 3; m++) {
    const char *key;
    void *val;
    for (size_t it = 0; strmap_next(maps[m], &it, &key, &val);) {
      size_t rank;
      if (!plat_cluster_rank_of(c, key, &rank))
        continue;
      plat_loc loc = m == 0   ? ((plat_host *)val)->loc
                     : m == 1 ? ((plat_router *)val)->loc
                              : ((plat_zone *)val)->loc;
      return FAIL(L, n,
                  "cluster '%s' generates host '%s', but that name is already used by the "
                  "%s defined at %s",
                  cz->id, key, kinds[m], where(L, loc, w, sizeof w));
    }
  }
  /* other clusters: a name can only be shared if one prefix starts the other and one suffix
   * ends the other; then test the smaller cluster's names against the other's pattern */
  for (size_t i = 0; i < L->p->nclusters; i++) {
    plat_zone *oz = L->p->clusters[i];
    plat_cluster *o = oz->cluster;
    size_t lp = strlen(c->prefix), op = strlen(o->prefix);
    size_t ls = strlen(c->suffix), os = strlen(o->suffix);
    if (strncmp(c->prefix, o->prefix, lp < op ? lp : op) != 0)
      continue;
    if (strcmp(c->suffix + (ls > os ? ls - os : 0), o->suffix + (os > ls ? os - ls : 0)) != 0)
      continue;
    const plat_cluster *small = c->count <= o->count ? c : o;
    const plat_cluster *big = small == c ? o : c;
    for (size_t r = 0; r < small->count; r++) {
      char name[512];
      size_t rank;
      plat_cluster_host_name(small, r, name, sizeof name);
      if (plat_cluster_rank_of(big, name, &rank))
        return FAIL(L, n, "cluster '%s' generates host '%s', which cluster '%s' (%s) also does",
                    cz->id, name, oz->id, where(L, oz->loc, w, sizeof w));
    }
  }
  const char *key;
  void *val;
  for (size_t it = 0; strmap_next(ix->links, &it, &key, &val);) {
    plat_link_ref ref;
    if (plat_cluster_link_lookup(cz, key, PLAT_DIR_NONE, &ref) != PLAT_LINK_UNKNOWN)
      return FAIL(L, n,
                  "cluster '%s' generates link '%s', but that name is already used by the "
                  "link defined at %s",
                  cz->id, key, where(L, ((plat_link *)val)->loc, w, sizeof w));
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Elements
 * ---------------------------------------------------------------------------------------- */

static int walk_platform(loader *L, xmlNode *root, plat_zone *parent);
static int walk_zone_children(loader *L, xmlNode *n, plat_zone *z);

static plat_zone *new_zone(loader *L, xmlNode *n, const char *id, plat_routing routing,
                           plat_zone *parent)
{
  plat_platform *p = L->p;
  char w[300];
  if (check_point_name(L, n, id, is_elem(n, "cluster") ? "cluster" : "zone"))
    return NULL;
  if (!parent && p->root) {
    FAIL(L, n,
         "'%s' would be a second top-level zone (the first one is '%s', %s): a platform has a "
         "single root zone; put both inside a common <zone>",
         id, p->root->id, where(L, p->root->loc, w, sizeof w));
    return NULL;
  }
  plat_zone *z = xcalloc(1, sizeof *z);
  z->id = xstrdup(id);
  z->routing = routing;
  z->parent = parent;
  z->loc = loc_of(L, n);
  z->index = p->nzones;
  PLAT_PUSH(p->zones, p->nzones, z);
  strmap_insert(p->index->zones, id, z);
  if (parent)
    PLAT_PUSH(parent->children, parent->nchildren, z);
  else
    p->root = z;
  return z;
}

static int parse_routing(loader *L, xmlNode *n, const char *id, const char *text,
                         plat_routing *out)
{
  static const struct {
    const char *name;
    plat_routing routing;
  } known[] = {
      {"Full", PLAT_ROUTING_FULL},         {"Floyd", PLAT_ROUTING_FLOYD},
      {"Dijkstra", PLAT_ROUTING_DIJKSTRA}, {"DijkstraCache", PLAT_ROUTING_DIJKSTRA_CACHE},
      {"Cluster", PLAT_ROUTING_CLUSTER},   {"Star", PLAT_ROUTING_STAR},
      {"None", PLAT_ROUTING_NONE},         {"Vivaldi", PLAT_ROUTING_VIVALDI},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    if (strcasecmp(text, known[i].name) == 0) {
      *out = known[i].routing;
      return 0;
    }
  }
  if (strcasecmp(text, "Wi-Fi") == 0 || strcasecmp(text, "WiFi") == 0)
    return FAIL(L, n, "zone '%s': routing '%s' is known (SimGrid) but not supported here", id,
                text);
  if (strcasecmp(text, "ClusterTorus") == 0 || strcasecmp(text, "ClusterFatTree") == 0 ||
      strcasecmp(text, "ClusterDragonfly") == 0)
    return FAIL(L, n,
                "zone '%s': routing '%s' cannot be built by hand here; use <cluster "
                "topology=\"TORUS|FAT_TREE|DRAGONFLY\" topo_parameters=...>",
                id, text);
  return FAIL(L, n,
              "zone '%s': unknown routing '%s'; expected one of Full, Floyd, Dijkstra, "
              "DijkstraCache, Cluster, Star, None",
              id, text);
}

static int handle_zone(loader *L, xmlNode *n, plat_zone *parent)
{
  const char *id = attr(L, n, "id");
  plat_routing routing = PLAT_ROUTING_FULL;
  if (parse_routing(L, n, id, attr(L, n, "routing"), &routing))
    return -1;
  plat_zone *z = new_zone(L, n, id, routing, parent);
  if (!z || walk_zone_children(L, n, z))
    return -1;
  if ((z->nhosts || z->nrouters) && z->nchildren)
    return FAIL(L, n,
                "zone '%s' holds both hosts/routers and sub-zones: a zone is either a leaf "
                "(hosts, routers, links, routes) or holds zones and clusters (and links, "
                "zoneRoutes)",
                id);
  return 0;
}

static int handle_prop(loader *L, xmlNode *n, plat_props *props)
{
  plat_props_set(props, attr(L, n, "id"), attr(L, n, "value"));
  return 0;
}

/* Reads the profile named by attribute attr_name (relative to the platform file's directory,
 * as <include> files) into *out; nothing when the attribute is absent. */
static int load_profile(loader *L, xmlNode *n, const char *what, const char *attr_name,
                        struct plat_profile **out)
{
  const char *file = attr(L, n, attr_name);
  if (!file)
    return 0;
  if (*out)
    return FAIL(L, n, "%s: two speed profiles (speed_file and availability_file)", what);
  char *path = file[0] == '/' || !*L->dir ? xstrdup(file)
               : strcmp(L->dir, "/") == 0 ? xasprintf("/%s", file)
                                          : xasprintf("%s/%s", L->dir, file);
  plat_profile *pr = xcalloc(1, sizeof *pr);
  char msg[700];
  int rc = plat_profile_read(path, pr, msg, sizeof msg);
  free(path);
  if (rc != 0) {
    free(pr);
    return FAIL(L, n, "%s: attribute %s: %s", what, attr_name, msg);
  }
  *out = pr;
  return 0;
}

/* Vivaldi coordinates "x y height": three numbers (SimGrid's syntax; height in ms). */
static int parse_coords(loader *L, xmlNode *n, const char *what, const char *text,
                        double coords[3], bool *has)
{
  const char *s = text;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    coords[i] = strtod(s, &end);
    if (end == s || errno || !isfinite(coords[i]))
      return FAIL(L, n, "%s: coordinates '%s' are not three numbers 'x y height'", what, text);
    s = end;
  }
  if (s[strspn(s, " \t")])
    return FAIL(L, n, "%s: coordinates '%s' are not three numbers 'x y height'", what, text);
  *has = true;
  return 0;
}

static int handle_host(loader *L, xmlNode *n, plat_zone *z)
{
  const char *id = attr(L, n, "id");
  char what[300];
  snprintf(what, sizeof what, "host '%s'", id);
  if (check_point_name(L, n, id, "host"))
    return -1;
  plat_host *h = xcalloc(1, sizeof *h);
  h->id = xstrdup(id);
  h->zone = z;
  h->loc = loc_of(L, n);
  h->cores = 1;
  strmap_insert(L->p->index->hosts, id, h);
  PLAT_PUSH(z->hosts, z->nhosts, h);
  plat_record_host(L->p, h);

  if (speed_list(L, n, what, attr(L, n, "speed"), &h->speeds, &h->npstates))
    return -1;
  const char *s;
  long v;
  if ((s = attr(L, n, "core"))) {
    if (integer(L, n, what, "core", s, 1, 1000000, &v))
      return -1;
    h->cores = (int)v;
  }
  if ((s = attr(L, n, "pstate"))) {
    if (integer(L, n, what, "pstate", s, 0, LONG_MAX, &v))
      return -1;
    if ((size_t)v >= h->npstates)
      return FAIL(L, n, "%s: pstate %ld does not exist (speed lists %zu pstate%s, from 0)", what,
                  v, h->npstates, h->npstates == 1 ? "" : "s");
    h->pstate = (size_t)v;
  }
  if (load_profile(L, n, what, "speed_file", &h->speed_profile) ||
      load_profile(L, n, what, "availability_file", &h->speed_profile) ||
      load_profile(L, n, what, "state_file", &h->state_profile))
    return -1;
  h->speed_file = opt_dup(attr(L, n, "speed_file") ? attr(L, n, "speed_file")
                                                   : attr(L, n, "availability_file"));
  h->coordinates = opt_dup(attr(L, n, "coordinates"));
  if (h->coordinates && parse_coords(L, n, what, h->coordinates, h->coords, &h->has_coords))
    return -1;
  if (z->routing == PLAT_ROUTING_VIVALDI && !h->has_coords)
    return FAIL(L, n, "%s: a host of Vivaldi zone '%s' needs coordinates=\"x y height\"", what,
                z->id);

  for (xmlNode *c = n->children; c; c = c->next) {
    if (is_elem(c, "prop")) {
      handle_prop(L, c, &h->props);
    } else if (is_elem(c, "disk")) {
      plat_disk d = {0};
      d.id = xstrdup(attr(L, c, "id") ? attr(L, c, "id") : "/");
      d.loc = loc_of(L, c);
      PLAT_PUSH(h->disks, h->ndisks, d);
      plat_disk *dp = &h->disks[h->ndisks - 1];
      char dwhat[600];
      snprintf(dwhat, sizeof dwhat, "disk '%s' of host '%s'", dp->id, id);
      if (positive_quantity(L, c, dwhat, "read_bw", UNITS_BANDWIDTH, attr(L, c, "read_bw"),
                            &dp->read_bw) ||
          positive_quantity(L, c, dwhat, "write_bw", UNITS_BANDWIDTH, attr(L, c, "write_bw"),
                            &dp->write_bw))
        return -1;
      for (xmlNode *pc = c->children; pc; pc = pc->next)
        if (is_elem(pc, "prop"))
          handle_prop(L, pc, &dp->props);
    }
  }
  return 0;
}

static plat_router *add_router(loader *L, xmlNode *n, const char *id, plat_zone *z,
                               bool generated)
{
  if (check_point_name(L, n, id, "router"))
    return NULL;
  plat_router *r = xcalloc(1, sizeof *r);
  r->id = xstrdup(id);
  r->zone = z;
  r->generated = generated;
  r->loc = loc_of(L, n);
  r->index = L->p->nrouters;
  PLAT_PUSH(L->p->routers, L->p->nrouters, r);
  PLAT_PUSH(z->routers, z->nrouters, r);
  strmap_insert(L->p->index->routers, id, r);
  return r;
}

static int handle_router(loader *L, xmlNode *n, plat_zone *z)
{
  plat_router *r = add_router(L, n, attr(L, n, "id"), z, false);
  if (!r)
    return -1;
  const char *c = attr(L, n, "coordinates");
  char what[300];
  snprintf(what, sizeof what, "router '%s'", r->id);
  return c ? parse_coords(L, n, what, c, r->coords, &r->has_coords) : 0;
}

static plat_link *add_link(loader *L, xmlNode *n, const char *id, plat_zone *z,
                           plat_sharing sharing)
{
  if (check_link_name(L, n, id, sharing))
    return NULL;
  plat_link *l = xcalloc(1, sizeof *l);
  l->id = xstrdup(id);
  l->zone = z;
  l->sharing = sharing;
  l->loc = loc_of(L, n);
  l->index = L->p->nlinks;
  PLAT_PUSH(L->p->links, L->p->nlinks, l);
  PLAT_PUSH(z->links, z->nlinks, l);
  strmap_insert(L->p->index->links, id, l);
  return l;
}

static int handle_link(loader *L, xmlNode *n, plat_zone *z)
{
  const char *id = attr(L, n, "id");
  char what[300];
  snprintf(what, sizeof what, "link '%s'", id);
  plat_sharing sharing;
  if (sharing_policy(L, n, what, attr(L, n, "sharing_policy"), PLAT_SHARING_SHARED, &sharing))
    return -1;
  plat_link *l = add_link(L, n, id, z, sharing);
  if (!l)
    return -1;
  const char *lat = attr(L, n, "latency");
  if (positive_quantity(L, n, what, "bandwidth", UNITS_BANDWIDTH, attr(L, n, "bandwidth"),
                        &l->bandwidth) ||
      (lat && quantity(L, n, what, "latency", UNITS_LATENCY, lat, &l->latency)))
    return -1;
  if (load_profile(L, n, what, "bandwidth_file", &l->bandwidth_profile) ||
      load_profile(L, n, what, "latency_file", &l->latency_profile) ||
      load_profile(L, n, what, "state_file", &l->state_profile))
    return -1;
  l->bandwidth_file = opt_dup(attr(L, n, "bandwidth_file"));
  l->latency_file = opt_dup(attr(L, n, "latency_file"));
  for (xmlNode *c = n->children; c; c = c->next)
    if (is_elem(c, "prop"))
      handle_prop(L, c, &l->props);
  return 0;
}

static int require_manual_cluster_zone(loader *L, xmlNode *n, plat_zone *z)
{
  if (!z || z->routing != PLAT_ROUTING_CLUSTER || z->cluster)
    return FAIL(L, n, "<%s> belongs in a <zone routing=\"Cluster\">%s", ename(n),
                z ? "" : " (it is at the top level here)");
  return 0;
}

static int handle_backbone(loader *L, xmlNode *n, plat_zone *z)
{
  if (require_manual_cluster_zone(L, n, z))
    return -1;
  const char *id = attr(L, n, "id");
  char what[300], w[300];
  snprintf(what, sizeof what, "backbone '%s'", id);
  if (z->backbone)
    return FAIL(L, n, "zone '%s' already has a backbone ('%s', %s)", z->id, z->backbone->id,
                where(L, z->backbone->loc, w, sizeof w));
  plat_link *l = add_link(L, n, id, z, PLAT_SHARING_SHARED);
  if (!l)
    return -1;
  l->backbone = true;
  z->backbone = l;
  return positive_quantity(L, n, what, "bandwidth", UNITS_BANDWIDTH, attr(L, n, "bandwidth"),
                           &l->bandwidth) ||
                 quantity(L, n, what, "latency", UNITS_LATENCY, attr(L, n, "latency"),
                          &l->latency)
             ? -1
             : 0;
}

/* <cabinet>: hosts prefix<n>suffix, each with a SPLITDUPLEX link "link_<host>" registered as
 * its host_link. Cabinets are small: everything is expanded. */
static int handle_cabinet(loader *L, xmlNode *n, plat_zone *z)
{
  if (require_manual_cluster_zone(L, n, z))
    return -1;
  const char *id = attr(L, n, "id");
  char what[300];
  snprintf(what, sizeof what, "cabinet '%s'", id);
  double *speeds, bw, lat;
  size_t npstates;
  if (speed_list(L, n, what, attr(L, n, "speed"), &speeds, &npstates))
    return -1;
  plat_cluster tmp = {0};
  char msg[600];
  if (positive_quantity(L, n, what, "bw", UNITS_BANDWIDTH, attr(L, n, "bw"), &bw) ||
      quantity(L, n, what, "lat", UNITS_LATENCY, attr(L, n, "lat"), &lat)) {
    free(speeds);
    return -1;
  }
  if (plat_parse_radical(&tmp, attr(L, n, "radical"), msg, sizeof msg)) {
    free(speeds);
    return FAIL(L, n, "%s: %s", what, msg);
  }
  tmp.prefix = (char *)attr(L, n, "prefix");
  tmp.suffix = (char *)attr(L, n, "suffix");
  int rc = 0;
  for (size_t r = 0; r < tmp.count && rc == 0; r++) {
    char name[512];
    plat_cluster_host_name(&tmp, r, name, sizeof name);
    if (check_point_name(L, n, name, "host")) {
      rc = -1;
      break;
    }
    plat_host *h = xcalloc(1, sizeof *h);
    h->id = xstrdup(name);
    h->zone = z;
    h->loc = loc_of(L, n);
    h->cores = 1;
    h->speeds = xmalloc(npstates * sizeof *speeds);
    memcpy(h->speeds, speeds, npstates * sizeof *speeds);
    h->npstates = npstates;
    strmap_insert(L->p->index->hosts, name, h);
    PLAT_PUSH(z->hosts, z->nhosts, h);
    plat_record_host(L->p, h);
    char *link_id = xasprintf("link_%s", name);
    plat_link *l = add_link(L, n, link_id, z, PLAT_SHARING_SPLITDUPLEX);
    free(link_id);
    if (!l) {
      rc = -1;
      break;
    }
    l->bandwidth = bw;
    l->latency = lat;
    plat_host_link hl = {h,
                         {l, NULL, 0, 0, PLAT_DIR_UP},
                         {l, NULL, 0, 0, PLAT_DIR_DOWN},
                         loc_of(L, n)};
    PLAT_PUSH(z->host_links, z->nhost_links, hl);
  }
  free(speeds);
  free(tmp.ranges);
  free(tmp.range_rank);
  free(tmp.sorted);
  free(tmp.sorted_rank);
  return rc;
}

static int handle_cluster(loader *L, xmlNode *n, plat_zone *parent)
{
  const char *id = attr(L, n, "id");
  char what[300], msg[600];
  snprintf(what, sizeof what, "cluster '%s'", id);
  plat_zone *z = new_zone(L, n, id, PLAT_ROUTING_CLUSTER, parent);
  if (!z)
    return -1;
  plat_cluster *c = xcalloc(1, sizeof *c);
  z->cluster = c;
  c->prefix = xstrdup(attr(L, n, "prefix"));
  c->suffix = xstrdup(attr(L, n, "suffix"));
  c->radical = xstrdup(attr(L, n, "radical"));
  c->cores = 1;

  const char *s;
  long v;
  if (speed_list(L, n, what, attr(L, n, "speed"), &c->speeds, &c->npstates))
    return -1;
  if ((s = attr(L, n, "core"))) {
    if (integer(L, n, what, "core", s, 1, 1000000, &v))
      return -1;
    c->cores = (int)v;
  }
  if (positive_quantity(L, n, what, "bw", UNITS_BANDWIDTH, attr(L, n, "bw"), &c->bw) ||
      quantity(L, n, what, "lat", UNITS_LATENCY, attr(L, n, "lat"), &c->lat) ||
      sharing_policy(L, n, what, attr(L, n, "sharing_policy"), PLAT_SHARING_SPLITDUPLEX,
                     &c->sharing) ||
      sharing_policy(L, n, what, attr(L, n, "bb_sharing_policy"), PLAT_SHARING_SHARED,
                     &c->bb_sharing))
    return -1;
  if ((s = attr(L, n, "bb_bw")) && *s) {
    c->has_backbone = true;
    if (positive_quantity(L, n, what, "bb_bw", UNITS_BANDWIDTH, s, &c->bb_bw))
      return -1;
    if ((s = attr(L, n, "bb_lat")) && *s &&
        quantity(L, n, what, "bb_lat", UNITS_LATENCY, s, &c->bb_lat))
      return -1;
  } else if ((s = attr(L, n, "bb_lat")) && *s) {
    LOG_WARN("%s:%ld: %s: bb_lat without bb_bw is ignored (no backbone without bb_bw)",
             L->p->files[L->file], node_line(n), what);
  }
  if ((s = attr(L, n, "limiter_link")) && *s) {
    c->has_limiter = true;
    if (positive_quantity(L, n, what, "limiter_link", UNITS_BANDWIDTH, s, &c->limiter_bw))
      return -1;
  }
  const char *lbw = attr(L, n, "loopback_bw"), *llat = attr(L, n, "loopback_lat");
  if (lbw && *lbw) {
    c->has_loopback = true;
    if (positive_quantity(L, n, what, "loopback_bw", UNITS_BANDWIDTH, lbw, &c->loopback_bw) ||
        (llat && *llat &&
         quantity(L, n, what, "loopback_lat", UNITS_LATENCY, llat, &c->loopback_lat)))
      return -1;
  } else if (llat && *llat) {
    return FAIL(L, n, "%s: loopback_lat needs loopback_bw (the loopback link's bandwidth)", what);
  }

  if (plat_parse_radical(c, c->radical, msg, sizeof msg))
    return FAIL(L, n, "%s: %s", what, msg);

  /* the topology's name and what it makes of the parameters are checked by the routing
   * (kernel/topo.h): the loader only reads their syntax */
  s = attr(L, n, "topology");
  c->topology = xstrdup(s && *s ? s : "FLAT");
  c->flat = strcmp(c->topology, "FLAT") == 0;
  const char *params = attr(L, n, "topo_parameters");
  c->topo_parameters = xstrdup(params ? params : "");
  if (c->flat && params && *params)
    LOG_WARN("%s:%ld: %s: topo_parameters '%s' ignored by the FLAT topology",
             L->p->files[L->file], node_line(n), what, params);
  if (!c->flat && plat_parse_topo_params(c->topo_parameters, &c->topo, msg, sizeof msg))
    return FAIL(L, n, "%s: %s", what, msg);

  if (check_cluster_names(L, n, z))
    return -1;
  plat_record_cluster(L->p, z);

  s = attr(L, n, "router_id");
  char *router = s && *s ? xstrdup(s) : xasprintf("%s%s_router%s", c->prefix, id, c->suffix);
  c->router = add_router(L, n, router, z, true);
  free(router);
  if (!c->router)
    return -1;

  for (xmlNode *ch = n->children; ch; ch = ch->next)
    if (is_elem(ch, "prop"))
      handle_prop(L, ch, &z->props);
  return 0;
}

static int queue(loader *L, xmlNode *n, plat_route *route, plat_zone *z, size_t index)
{
  pending_ref pr = {n, L->file, route, z, index};
  PLAT_PUSH(L->pending, L->npending, pr);
  return 0;
}

static int handle_route(loader *L, xmlNode *n, plat_zone *z, plat_route_kind kind)
{
  plat_route *r = xcalloc(1, sizeof *r);
  r->kind = kind;
  r->zone = z;
  r->loc = loc_of(L, n);
  r->symmetrical = kind == PLAT_ROUTE || kind == PLAT_ZONE_ROUTE
                       ? yes_no(attr(L, n, "symmetrical"), true)
                       : false;
  PLAT_PUSH(z->routes, z->nroutes, r);
  return queue(L, n, r, z, 0);
}

static int handle_host_link(loader *L, xmlNode *n, plat_zone *z)
{
  if (require_manual_cluster_zone(L, n, z))
    return -1;
  plat_host_link hl = {0};
  hl.loc = loc_of(L, n);
  PLAT_PUSH(z->host_links, z->nhost_links, hl);
  return queue(L, n, NULL, z, z->nhost_links - 1);
}

static int handle_config(loader *L, xmlNode *n)
{
  for (xmlNode *c = n->children; c; c = c->next) {
    if (!is_elem(c, "prop"))
      continue;
    const char *key = attr(L, c, "id"), *value = attr(L, c, "value");
    char msg[600];
    if (cfg_set(key, value, CFG_ORIGIN_PLATFORM, msg, sizeof msg) != 0)
      return FAIL(L, c, "<config>: %s", msg);
    plat_config_entry e = {xstrdup(key), xstrdup(value), loc_of(L, c)};
    PLAT_PUSH(L->p->config, L->p->nconfig, e);
  }
  return 0;
}

static int handle_trace(loader *L, xmlNode *n)
{
  const char *id = attr(L, n, "id"), *file = attr(L, n, "file"), *per = attr(L, n, "periodicity");
  char *end;
  errno = 0;
  double period = strtod(per, &end);
  if (end == per || *end != '\0' || errno || !(period >= 0) || !isfinite(period))
    return FAIL(L, n, "trace '%s': periodicity '%s' must be a non-negative number of seconds", id,
                per);
  plat_trace t = {0};
  t.id = xstrdup(id);
  t.file = opt_dup(file);
  t.periodicity = period;
  t.loc = loc_of(L, n);
  xmlChar *text = xmlNodeGetContent(n);
  if (text && !xmlIsBlankNode(n->children))
    t.text = xstrdup((const char *)text);
  xmlFree(text);
  PLAT_PUSH(L->p->traces, L->p->ntraces, t);
  if (!t.file && !t.text)
    return FAIL(L, n, "trace '%s' has neither a file attribute nor inline events", id);
  return 0;
}

static int handle_trace_connect(loader *L, xmlNode *n)
{
  const char *kind = attr(L, n, "kind");
  plat_trace_connect tc = {xstrdup(kind ? kind : "HOST_AVAIL"), xstrdup(attr(L, n, "trace")),
                           xstrdup(attr(L, n, "element")), loc_of(L, n)};
  PLAT_PUSH(L->p->trace_connects, L->p->ntrace_connects, tc);
  return 0;
}

static int handle_include(loader *L, xmlNode *n, plat_zone *zone);

/* Elements that may appear both in <platform> (zone == NULL) and in zones. */
static int handle_peer(loader *L, xmlNode *n, plat_zone *z);

static int handle_common(loader *L, xmlNode *c, plat_zone *zone, bool *handled)
{
  *handled = true;
  if (is_elem(c, "zone") || is_elem(c, "AS"))
    return handle_zone(L, c, zone);
  if (is_elem(c, "cluster"))
    return handle_cluster(L, c, zone);
  if (is_elem(c, "include"))
    return handle_include(L, c, zone);
  if (is_elem(c, "cabinet"))
    return handle_cabinet(L, c, zone);
  if (is_elem(c, "trace"))
    return handle_trace(L, c);
  if (is_elem(c, "trace_connect"))
    return handle_trace_connect(L, c);
  if (is_elem(c, "peer"))
    return handle_peer(L, c, zone);
  *handled = false;
  return 0;
}

/* <peer id speed coordinates bw_in bw_out>, SimGrid's shorthand in a Vivaldi zone: a host
 * with two private links, link_<id>_UP (bw_out, what it sends crosses) and link_<id>_DOWN
 * (bw_in), latency 0: the latency comes from the coordinates. SimGrid 3.32 ignores the
 * deprecated lat attribute (it warns, as here). */
static int handle_peer(loader *L, xmlNode *n, plat_zone *z)
{
  const char *id = attr(L, n, "id");
  if (!z || z->routing != PLAT_ROUTING_VIVALDI)
    return FAIL(L, n, "<peer id='%s'> must be inside a zone with routing=\"Vivaldi\"", id);
  if (handle_host(L, n, z))
    return -1;
  plat_host *h = z->hosts[z->nhosts - 1];
  const char *lat = attr(L, n, "lat");
  if (lat && strcmp(lat, "0s") && strcmp(lat, "0"))
    LOG_WARN("%s:%ld: peer '%s': the lat attribute is deprecated and ignored (as in SimGrid): "
             "use the height, the third coordinate",
             L->p->files[L->file], node_line(n), id);
  char what[300];
  snprintf(what, sizeof what, "peer '%s'", id);
  plat_link *l[2];
  const char *dir[2] = {"UP", "DOWN"}, *bw[2] = {"bw_out", "bw_in"};
  for (int i = 0; i < 2; i++) {
    char name[300];
    snprintf(name, sizeof name, "link_%s_%s", id, dir[i]);
    if (!(l[i] = add_link(L, n, name, z, PLAT_SHARING_SHARED)))
      return -1;
    if (positive_quantity(L, n, what, bw[i], UNITS_BANDWIDTH, attr(L, n, bw[i]),
                          &l[i]->bandwidth))
      return -1;
  }
  plat_host_link hl = {.host = h, .loc = loc_of(L, n)};
  hl.up.link = l[0];
  hl.down.link = l[1];
  PLAT_PUSH(z->host_links, z->nhost_links, hl);
  return 0;
}

static int walk_zone_children(loader *L, xmlNode *n, plat_zone *z)
{
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    bool handled;
    int rc = handle_common(L, c, z, &handled);
    if (handled) {
      if (rc)
        return -1;
      continue;
    }
    if (is_elem(c, "prop"))
      rc = handle_prop(L, c, &z->props);
    else if (is_elem(c, "host"))
      rc = handle_host(L, c, z);
    else if (is_elem(c, "router"))
      rc = handle_router(L, c, z);
    else if (is_elem(c, "link"))
      rc = handle_link(L, c, z);
    else if (is_elem(c, "backbone"))
      rc = handle_backbone(L, c, z);
    else if (is_elem(c, "host_link"))
      rc = handle_host_link(L, c, z);
    else if (is_elem(c, "route"))
      rc = handle_route(L, c, z, PLAT_ROUTE);
    else if (is_elem(c, "zoneRoute") || is_elem(c, "ASroute"))
      rc = handle_route(L, c, z, PLAT_ZONE_ROUTE);
    else if (is_elem(c, "bypassRoute"))
      rc = handle_route(L, c, z, PLAT_BYPASS_ROUTE);
    else if (is_elem(c, "bypassZoneRoute") || is_elem(c, "bypassASroute"))
      rc = handle_route(L, c, z, PLAT_BYPASS_ZONE_ROUTE);
    else
      DIE("element <%s> passed the DTD but has no handler in a zone", ename(c));
    if (rc)
      return -1;
  }
  return 0;
}

/* The children of a <platform> element (of the top file, or of an included file when
 * zone != NULL). */
static int walk_platform(loader *L, xmlNode *root, plat_zone *zone)
{
  bool seen_other = false;
  for (xmlNode *c = root->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (is_elem(c, "config")) {
      if (seen_other)
        return FAIL(L, c,
                    "<config> must come before any other element of <platform> (the "
                    "configuration is set before the platform is built)");
      if (handle_config(L, c))
        return -1;
      continue;
    }
    seen_other = true;
    if (is_elem(c, "actor") || is_elem(c, "process")) {
      LOG_WARN("%s:%ld: <%s> ignored: smpirun places the MPI ranks itself", L->p->files[L->file],
               node_line(c), ename(c));
      continue;
    }
    bool handled;
    if (handle_common(L, c, zone, &handled))
      return -1;
    if (!handled)
      DIE("element <%s> passed the DTD but has no handler in <platform>", ename(c));
  }
  return 0;
}

static int check_version(loader *L, xmlNode *root, double *version)
{
  const char *v = attr(L, root, "version");
  if (!v)
    return FAIL(L, root,
                "<platform> has no version attribute: this loader reads SimGrid's platform "
                "format 4.1, write <platform version=\"4.1\"> (SimGrid's simgrid_update_xml "
                "upgrades older files)");
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || *end != '\0' || errno || !isfinite(x))
    return FAIL(L, root, "<platform version=\"%s\">: not a version number; expected \"4.1\"", v);
  if (x < 4.0 - 1e-9)
    return FAIL(
        L, root,
        "platform format version %s is too old: this loader reads version 4.1 "
        "(<platform version=\"4.1\">, units mandatory, <zone> instead of <AS>); SimGrid's "
        "simgrid_update_xml upgrades older files",
        v);
  if (x > 4.1 + 1e-9)
    return FAIL(L, root, "platform format version %s is newer than 4.1, the version read here",
                v);
  *version = x;
  return 0;
}

/* Parses, checks and walks one document whose bytes are in buf; its elements go into zone
 * (NULL: the top level). */
/* Entity-expanded text that the attribute values of one platform (all its files) may hold:
 * far above any real use (entities name a few repeated values), far below what an attribute
 * referencing a big entity many times asks for (10^4 x 100 kB = 1 GB). */
#define PLAT_MAX_EXPANSION ((size_t)16 << 20)
/* entities nested deeper than this are refused (libxml2's own limit is 40) */
#define PLAT_MAX_ENTITY_DEPTH 40

typedef struct text_buf {
  char *s;
  size_t len, cap;
} text_buf;

static void text_append(text_buf *b, const char *s, size_t n)
{
  if (b->len + n + 1 > b->cap) {
    b->cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > b->cap)
      b->cap *= 2;
    b->s = xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

/* Appends the text of an attribute's node list (text and entity references, expanded),
 * charging every byte and every reference to L->expanded. */
static int expand_nodes(loader *L, xmlNode *owner, const xmlChar *attr_name, xmlDocPtr doc,
                        xmlNode *list, int depth, text_buf *out)
{
  for (xmlNode *t = list; t; t = t->next) {
    if (t->type == XML_TEXT_NODE || t->type == XML_CDATA_SECTION_NODE) {
      size_t n = t->content ? strlen((const char *)t->content) : 0;
      L->expanded += n;
      if (L->expanded <= PLAT_MAX_EXPANSION)
        text_append(out, (const char *)t->content, n);
    } else if (t->type == XML_ENTITY_REF_NODE) {
      xmlEntityPtr ent = xmlGetDocEntity(doc, t->name);
      L->expanded++;
      if (!ent)
        return FAIL(L, owner, "attribute '%s' of <%s>: undefined entity '&%s;'",
                    (const char *)attr_name, ename(owner), (const char *)t->name);
      if (depth >= PLAT_MAX_ENTITY_DEPTH)
        return FAIL(L, owner, "attribute '%s' of <%s>: entities nested more than %d deep",
                    (const char *)attr_name, ename(owner), PLAT_MAX_ENTITY_DEPTH);
      if (ent->children && expand_nodes(L, owner, attr_name, doc, ent->children, depth + 1, out))
        return -1;
    }
    if (L->expanded > PLAT_MAX_EXPANSION)
      return FAIL(L, owner,
                  "attribute '%s' of <%s>: entity references expand to more than %zu MiB "
                  "(in all attribute values of the platform); write the values out instead",
                  (const char *)attr_name, ename(owner), PLAT_MAX_EXPANSION >> 20);
  }
  return 0;
}

/* Refuses entity references between elements, and replaces every attribute value made of
 * several nodes (entity references) by one text node holding its expansion, built once in a growing buffer. libxml2 leaves the references
 * in the tree (no XML_PARSE_NOENT), and reading such a value with xmlNodeListGetString
 * re-concatenates the whole string at each reference: an attribute referencing a 100 kB
 * entity 10^4 times took over ten minutes. Done before validation, which then checks the
 * expanded values, as XML says. */
static int flatten_attributes(loader *L, xmlDocPtr doc, xmlNode *n)
{
  for (; n; n = n->next) {
    if (n->type == XML_ENTITY_REF_NODE) {
      /* the walk reads elements only: what the entity holds would be silently skipped */
      xmlNode *at = node_line(n) > 0 || !n->parent ? n : n->parent;
      return FAIL(L, at,
                  "entity reference '&%s;' inside <%s>: entities are only supported in "
                  "attribute values; write its content out",
                  (const char *)n->name, n->parent ? ename(n->parent) : "?");
    }
    if (n->type != XML_ELEMENT_NODE)
      continue;
    for (xmlAttr *a = n->properties; a; a = a->next) {
      xmlNode *c = a->children;
      if (!c || (!c->next && c->type == XML_TEXT_NODE))
        continue;
      text_buf b = {0};
      if (expand_nodes(L, n, a->name, doc, c, 0, &b)) {
        free(b.s);
        return -1;
      }
      xmlNode *t = xmlNewDocTextLen(doc, BAD_CAST(b.s ? b.s : ""), (int)b.len);
      free(b.s);
      ASSERT(t != NULL);
      xmlFreeNodeList(a->children);
      t->parent = (xmlNode *)a;
      a->children = a->last = t;
    }
    if (flatten_attributes(L, doc, n->children))
      return -1;
  }
  return 0;
}

static int load_document(loader *L, const char *buf, size_t len, plat_zone *zone)
{
  xmlDocPtr doc = parse_xml(L, buf, len);
  if (!doc)
    return -1;
  PLAT_PUSH(L->docs, L->ndocs, doc);
  if (flatten_attributes(L, doc, doc->children))
    return -1;
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root)
    return fail_at(L, L->file, 0, "empty XML document");
  if (strcmp(ename(root), "platform") != 0)
    return FAIL(L, root,
                "the root element is <%s>; a platform file starts with <platform "
                "version=\"4.1\">",
                ename(root));
  double version = 0;
  if (check_version(L, root, &version) || validate(L, doc))
    return -1;
  if (L->depth == 1)
    L->p->version = version;
  return walk_platform(L, root, zone);
}

static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (!slash)
    return xstrdup("");
  if (slash == path)
    return xstrdup("/");
  char *d = xstrdup(path);
  d[slash - path] = '\0';
  return d;
}

static int handle_include(loader *L, xmlNode *n, plat_zone *zone)
{
  const char *file = attr(L, n, "file");
  if (!*file)
    return FAIL(L, n, "<include> with an empty file name");
  char *path = file[0] == '/' || !*L->dir ? xstrdup(file)
               : strcmp(L->dir, "/") == 0 ? xasprintf("/%s", file)
                                          : xasprintf("%s/%s", L->dir, file);
  size_t len;
  int errnum = 0;
  mode_t mode = 0;
  char why[160];
  char *buf = read_whole_file(path, &len, &errnum, &mode);
  if (!buf) {
    int rc = FAIL(L, n, "cannot read included file '%s' (%s): %s", file, path,
                  read_error(errnum, mode, why, sizeof why));
    free(path);
    return rc;
  }
  char *real = realpath(path, NULL);
  for (int i = 0; real && i < L->depth; i++) {
    if (L->stack_real[i] && strcmp(L->stack_real[i], real) == 0) {
      char chain[1024];
      size_t used = 0;
      for (int j = i; j < L->depth && used < sizeof chain; j++)
        used += (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ",
                                 L->p->files[L->stack_file[j]]);
      if (used < sizeof chain)
        snprintf(chain + used, sizeof chain - used, "%s", path);
      int rc = FAIL(L, n, "include cycle: %s", chain);
      free(real);
      free(path);
      free(buf);
      return rc;
    }
  }
  if (L->depth == MAX_INCLUDE_DEPTH) {
    int rc = FAIL(L, n, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
    free(real);
    free(path);
    free(buf);
    return rc;
  }
  uint32_t saved_file = L->file;
  char *saved_dir = L->dir;
  L->file = plat_add_file(L->p, path);
  L->dir = dir_of(path);
  L->stack_real[L->depth] = real;
  L->stack_file[L->depth] = L->file;
  L->depth++;
  int rc = load_document(L, buf, len, zone);
  L->depth--;
  free(L->stack_real[L->depth]);
  free(L->dir);
  L->dir = saved_dir;
  L->file = saved_file;
  free(path);
  free(buf);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * Reference resolution
 * ---------------------------------------------------------------------------------------- */

static bool inside(const plat_zone *z, const plat_zone *ancestor)
{
  for (; z; z = z->parent)
    if (z == ancestor)
      return true;
  return false;
}

static const char *point_kind_name(const plat_point *pt)
{
  switch (pt->kind) {
  case PLAT_POINT_HOST:
  case PLAT_POINT_CLUSTER_HOST:
    return "host";
  case PLAT_POINT_ROUTER:
    return "router";
  case PLAT_POINT_ZONE:
    return pt->u.zone->cluster ? "cluster" : "zone";
  default:
    return "element";
  }
}

/* src or dst of a <route>/<bypassRoute>: a host or router (of the zone for a <route>) */
static int resolve_node_end(loader *L, xmlNode *n, const char *desc, const plat_route *r,
                            const char *name, plat_point *out)
{
  if (!plat_find_point(L->p, name, out))
    return FAIL(L, n, "%s: unknown host or router '%s'", desc, name);
  if (out->kind == PLAT_POINT_ZONE)
    return FAIL(L, n,
                "%s: '%s' is a %s; routes between zones are <zoneRoute>s (with gw_src and "
                "gw_dst)",
                desc, name, point_kind_name(out));
  if (r->kind == PLAT_ROUTE && plat_point_zone(out) != r->zone)
    return FAIL(L, n, "%s: %s '%s' is in zone '%s', not in zone '%s' where the route is declared",
                desc, point_kind_name(out), name, plat_point_zone(out)->id, r->zone->id);
  return 0;
}

/* src or dst of a zone route: a zone (a sub-zone of the declaring one for a zoneRoute), and
 * its gateway, a host or router inside it */
static int resolve_zone_end(loader *L, xmlNode *n, const char *desc, const plat_route *r,
                            const char *name, const char *gw_attr, const char *gw,
                            plat_point *zone_out, plat_point *gw_out)
{
  if (!plat_find_point(L->p, name, zone_out))
    return FAIL(L, n, "%s: unknown zone '%s'", desc, name);
  if (zone_out->kind != PLAT_POINT_ZONE)
    return FAIL(L, n, "%s: '%s' is a %s, not a zone (a <route> connects hosts and routers)", desc,
                name, point_kind_name(zone_out));
  if (r->kind == PLAT_ZONE_ROUTE && zone_out->u.zone->parent != r->zone)
    return FAIL(L, n,
                "%s: zone '%s' is not a direct sub-zone of '%s' where the route is declared",
                desc, name, r->zone->id);
  if (!plat_find_point(L->p, gw, gw_out))
    return FAIL(L, n, "%s: unknown %s '%s'", desc, gw_attr, gw);
  if (gw_out->kind == PLAT_POINT_ZONE)
    return FAIL(L, n, "%s: %s '%s' is a %s; a gateway is a host or a router", desc, gw_attr, gw,
                point_kind_name(gw_out));
  if (!inside(plat_point_zone(gw_out), zone_out->u.zone))
    return FAIL(L, n, "%s: %s '%s' is not inside zone '%s'", desc, gw_attr, gw, name);
  return 0;
}

static int resolve_link(loader *L, xmlNode *c, const char *desc, const char *id,
                        plat_direction dir, plat_link_ref *out)
{
  switch (plat_lookup_link(L->p, id, dir, out)) {
  case PLAT_LINK_FOUND:
    return 0;
  case PLAT_LINK_UNKNOWN:
    if (dir != PLAT_DIR_NONE) {
      plat_link_ref ref;
      if (plat_lookup_link(L->p, id, PLAT_DIR_NONE, &ref) == PLAT_LINK_FOUND)
        return FAIL(L, c, "%s: link '%s' already names one direction: drop direction=\"%s\"",
                    desc, id, dir == PLAT_DIR_UP ? "UP" : "DOWN");
    }
    return FAIL(L, c, "%s: unknown link '%s'", desc, id);
  case PLAT_LINK_NEEDS_DIR:
    return FAIL(L, c,
                "%s: link '%s' is SPLITDUPLEX: say which half with direction=\"UP\" or "
                "direction=\"DOWN\" (or name it '%s_UP' / '%s_DOWN')",
                desc, id, id, id);
  case PLAT_LINK_NOT_SPLIT:
    return FAIL(L, c,
                "%s: link '%s' is not SPLITDUPLEX: direction=\"%s\" applies only to "
                "SPLITDUPLEX links",
                desc, id, dir == PLAT_DIR_UP ? "UP" : "DOWN");
  }
  UNREACHABLE();
}

static int resolve_route(loader *L, const pending_ref *pr)
{
  xmlNode *n = pr->node;
  plat_route *r = pr->route;
  const char *src = attr(L, n, "src"), *dst = attr(L, n, "dst");
  char desc[600];
  snprintf(desc, sizeof desc, "%s %s -> %s", ename(n), src, dst);
  if (r->kind == PLAT_ROUTE || r->kind == PLAT_BYPASS_ROUTE) {
    if (resolve_node_end(L, n, desc, r, src, &r->src) ||
        resolve_node_end(L, n, desc, r, dst, &r->dst))
      return -1;
  } else {
    const char *gw_src = attr(L, n, "gw_src"), *gw_dst = attr(L, n, "gw_dst");
    if (resolve_zone_end(L, n, desc, r, src, "gw_src", gw_src, &r->src, &r->gw_src) ||
        resolve_zone_end(L, n, desc, r, dst, "gw_dst", gw_dst, &r->dst, &r->gw_dst))
      return -1;
    if (plat_point_equal(&r->gw_src, &r->gw_dst))
      return FAIL(L, n, "%s: gw_src and gw_dst are the same ('%s')", desc, gw_src);
  }
  size_t count = 0;
  for (xmlNode *c = n->children; c; c = c->next)
    count += is_elem(c, "link_ctn");
  if (count == 0)
    return FAIL(L, n, "%s: empty route (a route lists its links with <link_ctn id=.../>)", desc);
  r->links = xmalloc(count * sizeof *r->links);
  for (xmlNode *c = n->children; c; c = c->next) {
    if (!is_elem(c, "link_ctn"))
      continue;
    const char *d = attr(L, c, "direction");
    plat_direction dir = !d || strcmp(d, "NONE") == 0 ? PLAT_DIR_NONE
                         : strcmp(d, "UP") == 0       ? PLAT_DIR_UP
                                                      : PLAT_DIR_DOWN;
    if (resolve_link(L, c, desc, attr(L, c, "id"), dir, &r->links[r->nlinks]))
      return -1;
    r->nlinks++;
  }
  return 0;
}

static int resolve_host_link(loader *L, const pending_ref *pr)
{
  xmlNode *n = pr->node;
  plat_zone *z = pr->zone;
  plat_host_link *hl = &z->host_links[pr->index];
  const char *id = attr(L, n, "id");
  char desc[300], w[300];
  snprintf(desc, sizeof desc, "host_link '%s'", id);
  hl->host = strmap_get(L->p->index->hosts, id);
  if (!hl->host)
    return FAIL(L, n, "%s: unknown host '%s'", desc, id);
  if (hl->host->zone != z)
    return FAIL(L, n, "%s: host '%s' is in zone '%s', not in zone '%s'", desc, id,
                hl->host->zone->id, z->id);
  for (size_t i = 0; i < pr->index; i++)
    if (z->host_links[i].host == hl->host)
      return FAIL(L, n, "%s: host '%s' already has its links (%s)", desc, id,
                  where(L, z->host_links[i].loc, w, sizeof w));
  return resolve_link(L, n, desc, attr(L, n, "up"), PLAT_DIR_NONE, &hl->up) ||
                 resolve_link(L, n, desc, attr(L, n, "down"), PLAT_DIR_NONE, &hl->down)
             ? -1
             : 0;
}

static char *dir_of(const char *path);

/* The profile a <trace_connect> gives: SPEED to an explicit host, BANDWIDTH to an explicit
 * link, as if written with speed_file / bandwidth_file; the <trace>'s periodicity is its
 * period when the events do not say; LATENCY, and HOST_AVAIL / LINK_AVAIL (the on/off
 * state, as state_file) likewise. */
static int connect_trace(loader *L, const plat_trace_connect *tc, const plat_point *pt,
                         const plat_link_ref *ref)
{
  plat_platform *p = L->p;
  const plat_trace *t = NULL;
  for (size_t i = 0; i < p->ntraces && !t; i++)
    if (!strcmp(p->traces[i].id, tc->trace))
      t = &p->traces[i];
  struct plat_profile **slot = NULL;
  if (!strcmp(tc->kind, "SPEED") && pt->kind == PLAT_POINT_HOST)
    slot = &pt->u.host->speed_profile;
  else if (!strcmp(tc->kind, "BANDWIDTH") && ref && ref->link)
    slot = &ref->link->bandwidth_profile;
  else if (!strcmp(tc->kind, "LATENCY") && ref && ref->link)
    slot = &ref->link->latency_profile;
  else if (!strcmp(tc->kind, "HOST_AVAIL") && pt && pt->kind == PLAT_POINT_HOST)
    slot = &pt->u.host->state_profile;
  else if (!strcmp(tc->kind, "LINK_AVAIL") && ref && ref->link)
    slot = &ref->link->state_profile;
  if (!slot)
    return fail_at(L, tc->loc.file, tc->loc.line,
                   "trace_connect kind %s on '%s': not supported (SPEED and HOST_AVAIL, the "
                   "on/off state, on a <host>; BANDWIDTH, LATENCY and LINK_AVAIL on a <link>)",
                   tc->kind, tc->element);
  if (*slot)
    return fail_at(L, tc->loc.file, tc->loc.line, "trace_connect kind %s: '%s' already has one",
                   tc->kind, tc->element);
  plat_profile *pr = xcalloc(1, sizeof *pr);
  char msg[700];
  int rc;
  if (t->file) {
    char *dir = dir_of(p->files[t->loc.file]);
    char *path = t->file[0] == '/' || !*dir ? xstrdup(t->file) : xasprintf("%s/%s", dir, t->file);
    rc = plat_profile_read(path, pr, msg, sizeof msg);
    free(path);
    free(dir);
  } else {
    char name[300];
    snprintf(name, sizeof name, "trace '%s'", t->id);
    rc = plat_profile_parse(t->text, strlen(t->text), name, pr, msg, sizeof msg);
  }
  if (rc != 0) {
    free(pr);
    return fail_at(L, t->loc.file, t->loc.line, "%s", msg);
  }
  /* a <trace>'s periodicity is the whole period (SimGrid refuses one shorter than the
   * events, "loop conditions are not realizable") */
  if (pr->period == 0 && t->periodicity > 0 && pr->n > 0) {
    double last = pr->date[pr->n - 1];
    if (t->periodicity < last) {
      plat_profile_free(pr);
      free(pr);
      return fail_at(L, t->loc.file, t->loc.line,
                     "trace '%s': periodicity %g is shorter than its last event's date %g", t->id,
                     t->periodicity, last);
    }
    pr->period = t->periodicity;
  }
  *slot = pr;
  return 0;
}

static int resolve_trace_connects(loader *L)
{
  plat_platform *p = L->p;
  for (size_t i = 0; i < p->ntrace_connects; i++) {
    plat_trace_connect *tc = &p->trace_connects[i];
    L->file = tc->loc.file;
    bool found = false;
    for (size_t t = 0; t < p->ntraces && !found; t++)
      found = strcmp(p->traces[t].id, tc->trace) == 0;
    if (!found)
      return fail_at(L, tc->loc.file, tc->loc.line, "trace_connect: unknown trace '%s'",
                     tc->trace);
    bool on_host = strcmp(tc->kind, "HOST_AVAIL") == 0 || strcmp(tc->kind, "SPEED") == 0;
    plat_point pt;
    plat_link_ref ref;
    bool ok = on_host
                  ? plat_find_point(p, tc->element, &pt) &&
                        (pt.kind == PLAT_POINT_HOST || pt.kind == PLAT_POINT_CLUSTER_HOST)
                  : plat_lookup_link(p, tc->element, PLAT_DIR_NONE, &ref) != PLAT_LINK_UNKNOWN;
    if (!ok)
      return fail_at(L, tc->loc.file, tc->loc.line, "trace_connect kind %s: unknown %s '%s'",
                     tc->kind, on_host ? "host" : "link", tc->element);
    if (connect_trace(L, tc, on_host ? &pt : NULL, on_host ? NULL : &ref))
      return -1;
  }
  return 0;
}

static int resolve_all(loader *L)
{
  for (size_t i = 0; i < L->npending; i++) {
    const pending_ref *pr = &L->pending[i];
    L->file = pr->file;
    if (pr->route ? resolve_route(L, pr) : resolve_host_link(L, pr))
      return -1;
  }
  return resolve_trace_connects(L);
}

/* ------------------------------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------------------------- */

static int load(const char *buf, size_t len, const char *name, const char *real,
                plat_platform **out, char *err, size_t errlen)
{
  loader L = {0};
  L.p = plat_new_empty();
  L.err = err;
  L.errlen = errlen;
  L.file = plat_add_file(L.p, name);
  L.dir = dir_of(name);
  L.stack_real[0] = real ? xstrdup(real) : NULL;
  L.stack_file[0] = L.file;
  L.depth = 1;

  int rc = load_document(&L, buf, len, NULL);
  if (rc == 0)
    rc = resolve_all(&L);

  free(L.stack_real[0]);
  free(L.dir);
  for (size_t i = 0; i < L.ndocs; i++)
    xmlFreeDoc(L.docs[i]);
  free(L.docs);
  for (size_t i = 0; i < L.nscratch; i++)
    xmlFree(L.scratch[i]);
  free(L.scratch);
  free(L.pending);
  if (rc != 0) {
    ASSERT(L.failed);
    plat_free(L.p);
    *out = NULL;
    return -1;
  }
  *out = L.p;
  LOG_VERB("%s: %zu zones, %zu hosts (%zu in %zu clusters), %zu routers, %zu links", name,
           L.p->nzones, plat_host_count(L.p), plat_host_count(L.p) - L.p->nhosts, L.p->nclusters,
           L.p->nrouters, L.p->nlinks);
  return 0;
}

int plat_load_file(const char *path, plat_platform **out, char *err, size_t errlen)
{
  size_t len;
  int errnum = 0;
  mode_t mode = 0;
  char why[160];
  char *buf = read_whole_file(path, &len, &errnum, &mode);
  if (!buf) {
    snprintf(err, errlen, "%s: cannot read platform file: %s", path,
             read_error(errnum, mode, why, sizeof why));
    *out = NULL;
    return -1;
  }
  char *real = realpath(path, NULL);
  int rc = load(buf, len, path, real, out, err, errlen);
  free(real);
  free(buf);
  return rc;
}

int plat_load_string(const char *xml, const char *name_for_messages, plat_platform **out,
                     char *err, size_t errlen)
{
  return load(xml, strlen(xml), name_for_messages ? name_for_messages : "<string>", NULL, out,
              err, errlen);
}

int plat_load_buffer(const char *xml, size_t len, const char *path, plat_platform **out,
                     char *err, size_t errlen)
{
  char *real = realpath(path, NULL);
  int rc = load(xml, len, path, real, out, err, errlen);
  free(real);
  return rc;
}
