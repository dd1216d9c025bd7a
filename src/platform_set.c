/* Platform overrides (`--platform-set cluster[c1]/bw=25GBps`): syntax, checks against the
 * DTD, and the edit of the platform text before it is loaded. The format is described in
 * src/platform_set.h and docs/sweeps.md.
 *
 *   "cluster[c1]/bw=25GBps" --plat_set_parse--> {cluster, c1, bw, 25GBps}   (DTD: known?)
 *   file text --libxml2 DOM--> every <cluster id="c1"> gets bw="25GBps" --dump--> text
 *   --plat_load_buffer--> the usual loader (its checks, its file:line messages)
 *
 * Editing the text rather than the loaded plat_platform keeps one meaning for every
 * attribute: a cluster's radical, topology or topo_parameters changes the hosts and links the
 * loader generates exactly as if the file said so. Serialising keeps the text nodes, so the
 * loader's line numbers stay those of the file.
 */
#include "src/platform_set.h"

#include "src/mem.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <libxml/xmlIO.h>

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char plat_dtd_data[];
extern const size_t plat_dtd_size;

static xmlDtdPtr set_dtd(void)
{
  static xmlDtdPtr dtd;
  if (!dtd) {
    xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(plat_dtd_data, (int)plat_dtd_size,
                                                                XML_CHAR_ENCODING_NONE);
    if (buf)
      dtd = xmlIOParseDTD(NULL, buf, XML_CHAR_ENCODING_NONE); /* frees buf */
  }
  return dtd;
}

static bool name_char(char c, bool first)
{
  return isalpha((unsigned char)c) || c == '_' ||
         (!first && (isdigit((unsigned char)c) || c == '-'));
}

/* The names of the DTD's elements (kind XML_ELEMENT_DECL) or of one element's attributes. */
static void list_names(xmlDtdPtr dtd, const xmlElement *elem, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = 0;
  if (elem) {
    /* libxml2 keeps them last declared first: print them in the DTD's order */
    const xmlChar *names[128];
    size_t n = 0;
    for (const xmlAttribute *a = elem->attributes; a && n < 128; a = a->nexth)
      names[n++] = a->name;
    while (n > 0 && used < len)
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", names[--n]);
  } else {
    for (const xmlNode *n = dtd->children; n && used < len; n = n->next)
      if (n->type == XML_ELEMENT_DECL)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", n->name);
  }
}

int plat_set_parse(const char *spec, plat_set *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  const char *p = spec;
  while (name_char(*p, p == spec))
    p++;
  size_t elen = (size_t)(p - spec);
  const char *id = NULL;
  size_t idlen = 0;
  if (*p == '[') {
    id = ++p;
    while (*p && *p != ']')
      p++;
    idlen = (size_t)(p - id);
    if (*p != ']' || idlen == 0) {
      snprintf(err, errlen,
               "--platform-set %s: expected ELEMENT[ID]/ATTRIBUTE=VALUE (the [ID] is %s)", spec,
               *p ? "empty" : "not closed by ']'");
      return -1;
    }
    p++;
  }
  const char *attr = p + 1;
  const char *q = attr;
  while (*p == '/' && name_char(*q, q == attr))
    q++;
  if (elen == 0 || *p != '/' || q == attr || *q != '=') {
    snprintf(err, errlen,
             "--platform-set %s: expected ELEMENT[ID]/ATTRIBUTE=VALUE, e.g. "
             "cluster[c1]/bw=25GBps or host/speed=2Gf",
             spec);
    return -1;
  }
  out->element = xstrndup(spec, elen);
  out->id = id && !(idlen == 1 && *id == '*') ? xstrndup(id, idlen) : NULL;
  out->attribute = xstrndup(attr, (size_t)(q - attr));
  out->value = xstrdup(q + 1);

  xmlDtdPtr dtd = set_dtd();
  char names[1024];
  xmlElementPtr decl = dtd ? xmlGetDtdElementDesc(dtd, BAD_CAST out->element) : NULL;
  if (dtd && !decl) {
    list_names(dtd, NULL, names, sizeof names);
    snprintf(err, errlen, "--platform-set %s: unknown element '%s' (the platform format has: %s)",
             spec, out->element, names);
    plat_set_clear(out);
    return -1;
  }
  if (dtd && !xmlGetDtdAttrDesc(dtd, BAD_CAST out->element, BAD_CAST out->attribute)) {
    list_names(dtd, decl, names, sizeof names);
    snprintf(err, errlen, "--platform-set %s: <%s> has no attribute '%s' (its attributes: %s)",
             spec, out->element, out->attribute, names);
    plat_set_clear(out);
    return -1;
  }
  if (dtd && out->id && !xmlGetDtdAttrDesc(dtd, BAD_CAST out->element, BAD_CAST "id")) {
    snprintf(err, errlen,
             "--platform-set %s: <%s> has no id attribute to select by; write %s/%s=... to "
             "set it on every <%s>",
             spec, out->element, out->element, out->attribute, out->element);
    plat_set_clear(out);
    return -1;
  }
  return 0;
}

void plat_set_clear(plat_set *s)
{
  free(s->element);
  free(s->id);
  free(s->attribute);
  free(s->value);
  memset(s, 0, sizeof *s);
}

/* Sets the attribute on every matching element under n; returns how many matched. */
static size_t apply_one(xmlNode *n, const plat_set *s)
{
  size_t hits = 0;
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (!strcmp((const char *)n->name, s->element)) {
      bool match = true;
      if (s->id) {
        xmlChar *id = xmlGetProp(n, BAD_CAST "id");
        match = id && !strcmp((const char *)id, s->id);
        xmlFree(id);
      }
      if (match) {
        xmlSetProp(n, BAD_CAST s->attribute, BAD_CAST s->value);
        hits++;
      }
    }
    hits += apply_one(n->children, s);
  }
  return hits;
}

/* The ids of the elements named like s's, for the message of an override that matched none. */
static void list_ids(xmlNode *n, const char *element, char *buf, size_t len, size_t *used)
{
  for (; n && *used < len; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (!strcmp((const char *)n->name, element)) {
      xmlChar *id = xmlGetProp(n, BAD_CAST "id");
      if (id)
        *used += (size_t)snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", id);
      xmlFree(id);
    }
    list_ids(n->children, element, buf, len, used);
  }
}

int plat_set_apply(const char *xml, size_t len, const char *name, const plat_set *sets,
                   size_t nsets, char **out, char *err, size_t errlen)
{
  *out = NULL;
  /* no DTD loading, no network: the loader validates the result against its own DTD */
  xmlDocPtr doc = xmlReadMemory(xml, (int)len, name, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) {
    /* let the loader say what is wrong with the text, with its line */
    *out = xstrndup(xml, len);
    return 0;
  }
  int rc = 0;
  xmlNode *root = xmlDocGetRootElement(doc);
  for (size_t i = 0; i < nsets && rc == 0; i++) {
    const plat_set *s = &sets[i];
    if (apply_one(root, s) == 0) {
      char ids[512];
      size_t used = 0;
      ids[0] = 0;
      list_ids(root, s->element, ids, sizeof ids, &used);
      if (s->id && used)
        snprintf(err, errlen,
                 "%s: --platform-set %s[%s]/%s: no <%s id=\"%s\"> (ids of its <%s>: %s)", name,
                 s->element, s->id, s->attribute, s->element, s->id, s->element, ids);
      else
        snprintf(err, errlen,
                 "%s: --platform-set %s%s%s%s/%s: the file has no <%s> (<include>d files are "
                 "not edited)",
                 name, s->element, s->id ? "[" : "", s->id ? s->id : "", s->id ? "]" : "",
                 s->attribute, s->element);
      rc = -1;
    }
  }
  if (rc == 0) {
    xmlChar *text = NULL;
    int n = 0;
    xmlDocDumpMemory(doc, &text, &n);
    *out = xstrndup((const char *)text, (size_t)n);
    xmlFree(text);
  }
  xmlFreeDoc(doc);
  return rc;
}

int plat_load_file_set(const char *path, const plat_set *sets, size_t nsets, plat_platform **out,
                       char *err, size_t errlen)
{
  if (nsets == 0)
    return plat_load_file(path, out, err, errlen);
  *out = NULL;
  FILE *f = fopen(path, "rbe");
  if (!f) {
    snprintf(err, errlen, "%s: cannot read platform file: %s", path, strerror(errno));
    return -1;
  }
  size_t cap = 1 << 16, n = 0, got;
  char *buf = xmalloc(cap);
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = xrealloc(buf, cap *= 2);
  }
  fclose(f);
  char *edited;
  int rc = plat_set_apply(buf, n, path, sets, nsets, &edited, err, errlen);
  free(buf);
  if (rc == 0)
    rc = plat_load_buffer(edited, strlen(edited), path, out, err, errlen);
  free(edited);
  return rc;
}
