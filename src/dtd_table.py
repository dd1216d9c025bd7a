#!/usr/bin/env python3
"""platforms/smpi.dtd as C tables, for the loader's quick validity check (src/plat_dtd.h).

    usage: dtd_table.py smpi.dtd plat_dtd_table.c

Parsing the DTD with libxml2 cost 0.16 ms of every run's start-up (10 KB, 28 elements, 120
attributes) although almost every platform file is valid. The tables below let the loader
prove a document valid without it; libxml2's validator still runs, with its messages,
whenever the quick check is not sure. So only what the quick check can decide exactly is
described, and the build fails on anything else in the DTD:

  <!ELEMENT e EMPTY>                    content EMPTY
  <!ELEMENT e (a | b | ...)*>           content CHOICE: any number of those children
  <!ELEMENT e (#PCDATA)>                content PCDATA: text only
  <!ATTLIST e a CDATA|(v1 | v2 ...) #REQUIRED|#IMPLIED|"default">
  <!ENTITY % name "...">                parameter entities, expanded where used
"""
import re
import sys


def fail(msg):
    sys.exit("dtd_table.py: %s" % msg)


def parse(text):
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    entities = {}
    elements = {}  # name -> (content, children)
    order = []
    attrs = {}  # element -> [(name, required, values or None)], first declaration wins

    def expand(s):
        for _ in range(10):
            s2 = re.sub(r"%([\w.-]+);", lambda m: entities[m.group(1)], s)
            if s2 == s:
                return s
            s = s2
        fail("parameter entities nest too deep")

    pos = 0
    for m in re.finditer(r"<!(ENTITY|ELEMENT|ATTLIST)\s+(.*?)>", text, flags=re.S):
        if text[pos:m.start()].strip():
            fail("unexpected text in the DTD: %r" % text[pos:m.start()].strip()[:60])
        pos = m.end()
        kind, body = m.group(1), m.group(2)
        if kind == "ENTITY":
            e = re.fullmatch(r'%\s+([\w.-]+)\s+(?:"([^"]*)"|\'([^\']*)\')\s*', body, flags=re.S)
            if not e:
                fail("only parameter entities are supported: <!ENTITY %s>" % body[:60])
            entities[e.group(1)] = e.group(2) if e.group(2) is not None else e.group(3)
            continue
        body = " ".join(expand(body).split())
        if kind == "ELEMENT":
            name, _, model = body.partition(" ")
            if name in elements:
                fail("element %s declared twice" % name)
            if model == "EMPTY":
                elements[name] = ("EMPTY", [])
            elif re.fullmatch(r"\(\s*#PCDATA\s*\)", model):
                elements[name] = ("PCDATA", [])
            else:
                c = re.fullmatch(r"\(([\w.\- |]+)\)\*", model)
                if not c:
                    fail("content model of %s not supported: %s" % (name, model))
                elements[name] = ("CHOICE", [x.strip() for x in c.group(1).split("|")])
            order.append(name)
            continue
        name, _, rest = body.partition(" ")
        lst = attrs.setdefault(name, [])
        tokens = re.findall(r'\([^)]*\)|"[^"]*"|\'[^\']*\'|\S+', rest)
        i = 0
        while i < len(tokens):
            if i + 2 >= len(tokens):
                fail("attribute list of %s cut short: %s" % (name, rest))
            aname, atype, adef = tokens[i], tokens[i + 1], tokens[i + 2]
            i += 3
            if adef == "#FIXED":
                fail("#FIXED attributes are not supported (%s of %s)" % (aname, name))
            if adef not in ("#REQUIRED", "#IMPLIED") and not adef.startswith(('"', "'")):
                fail("default of %s of %s not understood: %s" % (aname, name, adef))
            if atype == "CDATA":
                values = None
            elif atype.startswith("("):
                values = [v.strip() for v in atype[1:-1].split("|")]
            else:
                fail("attribute type %s of %s of %s not supported" % (atype, aname, name))
            if all(a[0] != aname for a in lst):
                lst.append((aname, adef == "#REQUIRED", values))
    if text[pos:].strip():
        fail("unexpected text at the end of the DTD: %r" % text[pos:].strip()[:60])
    for e, (_, children) in elements.items():
        for c in children:
            if c not in elements:
                fail("element %s allows child %s, which is not declared" % (e, c))
    for e in attrs:
        if e not in elements:
            fail("attributes declared for undeclared element %s" % e)
    return order, elements, attrs


def c_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def emit(order, elements, attrs):
    out = ["/* generated from platforms/smpi.dtd by src/dtd_table.py: do not edit */",
           '#include "src/plat_dtd.h"', ""]
    for e in order:
        _, children = elements[e]
        if children:
            out.append("static const char *const children_%s[] = {%s, NULL};"
                       % (e, ", ".join(c_str(c) for c in children)))
        for a, _, values in attrs.get(e, []):
            if values:
                out.append("static const char *const values_%s_%s[] = {%s, NULL};"
                           % (e, a, ", ".join(c_str(v) for v in values)))
        if attrs.get(e):
            out.append("static const plat_dtd_attr attrs_%s[] = {" % e)
            for a, req, values in attrs[e]:
                out.append("    {%s, %s, %s}," % (c_str(a), "true" if req else "false",
                                                  "values_%s_%s" % (e, a) if values else "NULL"))
            out.append("};")
    out += ["", "const plat_dtd_elem plat_dtd_elems[] = {"]
    for e in order:
        content, children = elements[e]
        n = len(attrs.get(e, []))
        out.append("    {%s, PLAT_DTD_%s, %s, %s, %d}," % (
            c_str(e), content, "children_%s" % e if children else "NULL",
            "attrs_%s" % e if n else "NULL", n))
    out += ["};", "const size_t plat_dtd_nelems = sizeof plat_dtd_elems / sizeof *plat_dtd_elems;",
            ""]
    return "\n".join(out)


def main(argv):
    if len(argv) != 3:
        fail(__doc__)
    order, elements, attrs = parse(open(argv[1]).read())
    with open(argv[2], "w") as f:
        f.write(emit(order, elements, attrs))


if __name__ == "__main__":
    main(sys.argv)
