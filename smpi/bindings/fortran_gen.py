#!/usr/bin/env python3
"""Generates the Fortran side of smpi from the C headers, at build time.


    fortran_gen.py bindings include/smpi/mpi_functions.h OUT.h   Fortran bindings (C code,
                                                                 included by fortran.c)
    fortran_gen.py mpif include/smpi/mpi.h OUT.h                 mpif.h (fixed and free form)

Bindings: one C function per entry of THE list (mpi_functions.h), STUB or IMPL alike, so a
function gets its Fortran binding the day it is implemented. A STUB's binding is compiled but
not exported (no SMPI_PUBLIC), like the C stub itself: a Fortran program (or configure probe)
calling it does not link, as a C one does not. For

    SMPI_FN(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Status *status), (...), IMPL)

it writes

    SMPI_PUBLIC void pmpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *datatype,
                                MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm,
                                MPI_Fint *status, MPI_Fint *ierr)
    {
      MPI_Status c_status;                                      status through an aligned copy
      SMPI_F_ENTER();                                           call site = the Fortran caller
      int rc = PMPI_Recv(SMPI_F_BUF(buf), *count, ..., SMPI_F_STATUS(status, &c_status));
      SMPI_F_LEAVE();
      smpi_f_status_out(status, &c_status);                     unless MPI_STATUS_IGNORE
      *ierr = rc;
    }
    mpi_recv_ = weak alias of pmpi_recv_

Every argument is a reference (gfortran's default calling convention, lower case names with
one trailing underscore); character arguments add hidden lengths (size_t) at the end. The
rules, by C parameter type and name, are in param_rule(); what they cannot express (MPI_Init
without argc/argv, MPI_Wtime as a function, attribute values and keyval callbacks, MPI-1's
INTEGER addresses, 1-based indices) is written by hand in fortran.c and listed in HAND here.
Functions the standard gives no Fortran binding (MPI_T_*, the f2c/c2f conversions) are left
out; the stubs taking argument vectors or C-only callbacks (spawn, generalized requests,
datareps) have hand-written not-implemented bindings in fortran.c (SKIP). The MPI 4.0
large-count functions (names ending in _c) get none: Fortran has them only as mpi_f08's
generic names, and smpi provides mpif.h and `use mpi`. """
import re
import sys

# written by hand in smpi/bindings/fortran.c
HAND = {
    'Init', 'Init_thread', 'Wtime', 'Wtick', 'Pcontrol', 'Aint_add', 'Aint_diff',
    'Keyval_create', 'Comm_create_keyval', 'Type_create_keyval', 'Win_create_keyval',
    'Attr_get', 'Attr_put', 'Comm_get_attr', 'Comm_set_attr', 'Type_get_attr', 'Type_set_attr',
    'Win_get_attr', 'Win_set_attr', 'Address', 'Type_struct', 'Type_hindexed', 'Type_hvector',
    'Type_extent', 'Type_lb', 'Type_ub', 'Waitany', 'Testany', 'Waitsome', 'Testsome',
}
# no Fortran binding in the standard, or C-only argument kinds
SKIP_PREFIX = ('T_',)
SKIP = {'Status_c2f', 'Status_f2c', 'Status_c2f08', 'Status_f082c', 'Status_f2f08',
        'Status_f082f', 'Grequest_start', 'Register_datarep', 'Comm_spawn',
        'Comm_spawn_multiple'}

HANDLE_TYPES = {'MPI_Comm', 'MPI_Group', 'MPI_Datatype', 'MPI_Op', 'MPI_Request',
                'MPI_Errhandler', 'MPI_Info', 'MPI_Win', 'MPI_File', 'MPI_Message', 'MPI_Fint'}
WIDE_TYPES = {'MPI_Aint', 'MPI_Offset', 'MPI_Count'}
# int * outputs that are LOGICAL in Fortran: written back as 0/1 (gfortran's .false./.true.)
LOGICAL_OUT = {'flag', 'commute', 'weighted'}
CALLBACK_TYPES = {'MPI_User_function *', 'MPI_Comm_errhandler_function *',
                  'MPI_Win_errhandler_function *', 'MPI_File_errhandler_function *',
                  'MPI_Handler_function *'}
WEIGHT_NAMES = {'sourceweights', 'destweights', 'weights'}


def parse_list(path):
    fns = []
    pat = re.compile(r'SMPI_FN\((\w+), (\w+), \((.*?)\), \((.*?)\), (IMPL|STUB)\)')
    for line in open(path, encoding='utf-8'):
        m = pat.match(line)
        if m:
            ret, name, params, _args, status = m.groups()
            plist = []
            if params != 'void':
                for p in params.split(', '):
                    p = p.strip()
                    if p == '...':
                        plist.append(('...', ''))
                        continue
                    mm = re.match(r'(.*?)(\w+)(\[\]|\[\]\[3\])?$', p)
                    ctype = mm.group(1).strip() + (' ' + mm.group(3) if mm.group(3) else '')
                    plist.append((ctype, mm.group(2)))
            fns.append((ret, name, plist, status))
    return fns


def param_rule(fname, ctype, pname, count_arg):
    """(Fortran-side C declaration, argument expression, code before, code after) or None."""
    base = ctype.replace('const ', '').strip()
    if base == 'int' and pname == 'valuelen':  # MPI_Info_get: never past our copy
        return ('MPI_Fint *valuelen', 'smpi_f_clamp(*valuelen, value_len)', '', '')
    if base in ('int',) or base in HANDLE_TYPES:
        return (f'MPI_Fint *{pname}', f'*{pname}', '', '')
    if base in WIDE_TYPES:
        return (f'{base} *{pname}', f'*{pname}', '', '')
    if base == 'int *' and pname in LOGICAL_OUT:
        return (f'MPI_Fint *{pname}', pname, '', f'  *{pname} = *{pname} != 0;\n')
    if base == 'int []' and pname in WEIGHT_NAMES:
        return (f'MPI_Fint *{pname}', f'smpi_f_weights({pname})', '', '')
    if base in ('int *', 'int []', 'int [][3]') or \
            base.rstrip(' *[]') in HANDLE_TYPES and (base.endswith('*') or base.endswith('[]')):
        cast = '(int(*)[3])' if base == 'int [][3]' else ''
        return (f'MPI_Fint *{pname}', f'{cast}{pname}', '', '')
    if base in ('MPI_Aint *', 'MPI_Aint []', 'MPI_Offset *', 'MPI_Count *'):
        return (f'{base.rstrip(" *[]")} *{pname}', pname, '', '')
    if base == 'void *' and pname == 'buffer_addr':  # MPI_Buffer_detach: C's address, kept
        return ('void *buffer_addr', '&c_buffer_addr', '  void *c_buffer_addr;\n', '')
    if base == 'void *':
        if pname in ('baseptr', 'attribute_val', 'extra_state'):
            return (f'void *{pname}', pname, '', '')
        return (f'void *{pname}', f'smpi_f_buf({pname})', '', '')
    if base == 'MPI_Status *':
        if ctype.startswith('const'):
            return (f'MPI_Fint *{pname}', f'smpi_f_status_in({pname}, &c_{pname})',
                    f'  MPI_Status c_{pname};\n', '')
        return (f'MPI_Fint *{pname}', f'smpi_f_status(&c_{pname}, {pname})',
                f'  MPI_Status c_{pname};\n', f'  smpi_f_status_out({pname}, &c_{pname});\n')
    if base == 'MPI_Status []':
        return (f'MPI_Fint *{pname}', f'c_{pname}',
                f'  MPI_Status *c_{pname} = smpi_f_statuses_begin({pname}, {count_arg});\n',
                f'  smpi_f_statuses_end({pname}, c_{pname}, {count_arg});\n')
    if base in CALLBACK_TYPES:
        return (f'void (*{pname})(void)', f'({base}){pname}', '', '')
    if base in ('char *', 'char []'):
        if ctype.startswith('const'):
            return (f'const char *{pname}', f'c_{pname}',
                    f'  char *c_{pname} = smpi_f_str_in({pname}, {pname}_len);\n',
                    f'  free(c_{pname});\n')
        return (f'char *{pname}', f'c_{pname}',
                f'  char *c_{pname} = smpi_f_str_buf({pname}_len);\n',
                f'  smpi_f_str_out({pname}, {pname}_len, c_{pname});\n  free(c_{pname});\n')
    return None


def gen_bindings(list_path, out_path):
    fns = parse_list(list_path)
    out = ['/* Generated by smpi/bindings/fortran_gen.py from include/smpi/mpi_functions.h: '
           'do not edit. */',
           '/* clang-format off */', '']
    bound, skipped = 0, []
    for ret, name, plist, status in fns:
        if name in HAND or name in SKIP or name.startswith(SKIP_PREFIX) or ret != 'int':
            continue
        if name.endswith('_c'):  # MPI 4.0 large counts: mpi_f08's generic names only
            continue
        count_arg = next((f'*{p}' for t, p in plist if p in ('count', 'incount')), '0')
        decls, args, pre, post, lens = [], [], [], [], []
        ok = True
        for ctype, pname in plist:
            r = param_rule(name, ctype, pname, count_arg)
            if r is None:
                ok = False
                break
            decls.append(r[0])
            args.append(r[1])
            pre.append(r[2])
            post.append(r[3])
            if ctype.replace('const ', '').strip() in ('char *', 'char []'):
                lens.append(f'size_t {pname}_len')
        if not ok:
            skipped.append(name)
            continue
        lname = name.lower()
        params = ', '.join(decls + ['MPI_Fint *ierr'] + lens)
        # a STUB's binding is not exported, as its C function is not (include/smpi/mpi.h):
        # a Fortran configure probe answers no, as a C one does
        vis = 'SMPI_PUBLIC ' if status == 'IMPL' else ''
        out.append(f'{vis}void pmpi_{lname}_({params});')
        out.append(f'{vis}void mpi_{lname}_({params}) '
                   f'__attribute__((weak, alias("pmpi_{lname}_")));')
        out.append(f'void pmpi_{lname}_({params})')
        out.append('{')
        out.append(''.join(pre).rstrip('\n')) if ''.join(pre) else None
        out.append('  SMPI_F_ENTER();')
        out.append(f'  int rc = PMPI_{name}({", ".join(args)});')
        out.append('  SMPI_F_LEAVE();')
        if ''.join(post):
            out.append(''.join(post).rstrip('\n'))
        out.append('  *ierr = rc;')
        out.append('}')
        out.append('')
        bound += 1
    out = [line for line in out if line is not None]
    out.append(f'/* {bound} functions bound here; left to fortran.c: {len(HAND)}; '
               f'not bindable by the rules: {", ".join(skipped) or "none"} */')
    with open(out_path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


# ---- mpif.h ----

def c_int_constants(mpi_h):
    """Every #define MPI_* of mpi.h whose value is an integer constant expression."""
    defs = {}
    for line in open(mpi_h, encoding='utf-8'):
        m = re.match(r'#define\s+((?:MPI|SMPI)_\w+)(\([^)]*\))?\s+(.*?)\s*(/\*.*)?$', line)
        if m:
            defs[m.group(1)] = (m.group(2), m.group(3))
    env = {}

    def handle_make(kind, index):
        return (kind << 26) | index

    def value(name, depth=0):
        if name in env:
            return env[name]
        params, body = defs[name]
        if params or depth > 20:
            raise ValueError(name)
        expr = body
        if re.search(r'\(\s*(void|int|char|MPI_\w+)\s*\*', expr) or '"' in expr:
            raise ValueError(name)
        expr = re.sub(r'SMPI_HANDLE_MAKE', 'handle_make', expr)
        expr = re.sub(r'SMPI_DATATYPE_\(', 'handle_make(3, ', expr)
        for ident in set(re.findall(r'\b(S?MPI_\w+)\b', expr)):
            if ident not in defs:
                raise ValueError(name)
            expr = re.sub(r'\b' + ident + r'\b', str(value(ident, depth + 1)), expr)
        v = eval(expr, {'handle_make': handle_make})  # noqa: S307 (our own header)
        if not isinstance(v, int):
            raise ValueError(name)
        env[name] = v
        return v

    consts = []
    for name in defs:
        if not name.startswith('MPI_'):
            continue
        try:
            consts.append((name, value(name)))
        except (ValueError, SyntaxError, KeyError, TypeError, NameError):
            pass
    return consts


def gen_mpif(mpi_h, out_path):
    consts = [(n, v) for n, v in c_int_constants(mpi_h) if not n.startswith('MPI_T_')]
    # what Fortran has and C has not, or has with another meaning (MPI_STATUS_SIZE ...)
    consts = [(n, v) for n, v in consts if n not in ('MPI_SOURCE', 'MPI_TAG', 'MPI_ERROR')]
    consts += [('MPI_STATUS_SIZE', 6), ('MPI_SOURCE', 1), ('MPI_TAG', 2), ('MPI_ERROR', 3),
               ('MPI_INTEGER_KIND', 4)]
    kinds = [('MPI_ADDRESS_KIND', 8), ('MPI_OFFSET_KIND', 8), ('MPI_COUNT_KIND', 8)]
    lines = [
        '! mpif.h of smpi, generated from mpi.h by fortran_gen.py: do not edit',
        '! Fixed form (from column 7, at most 72 columns) and free form alike.',
        '! Handles and constants have the values of the C mpi.h: a handle',
        '! passes between C and Fortran unchanged (MPI_Comm_f2c: identity).',
    ]

    def decl(typ, names):
        for n in names:
            lines.append(f'      {typ} {n}')

    for n, v in consts + kinds:
        lines.append(f'      INTEGER {n}')
        lines.append(f'      PARAMETER ({n}={v})')
    # sentinels: addresses the bindings recognise (smpi_f_common in fortran.c)
    lines += [
        '      INTEGER MPI_BOTTOM, MPI_IN_PLACE',
        '      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)',
        '      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)',
        '      INTEGER MPI_ERRCODES_IGNORE(1)',
        '      INTEGER MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)',
        # no continuation lines (fixed and free form continue differently): a COMMON
        # statement naming the same block again extends it, in order
        '      COMMON /SMPI_FCOM/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE',
        '      COMMON /SMPI_FCOM/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE',
        '      COMMON /SMPI_FCOM/ MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY',
        '      SAVE /SMPI_FCOM/',
    ]
    decl('DOUBLE PRECISION', ['MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK'])
    lines.append('      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK')
    decl('INTEGER(KIND=MPI_ADDRESS_KIND)', ['MPI_AINT_ADD, MPI_AINT_DIFF'])
    lines.append('      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF')
    fns = ['MPI_NULL_COPY_FN', 'MPI_NULL_DELETE_FN', 'MPI_DUP_FN',
           'MPI_COMM_NULL_COPY_FN', 'MPI_COMM_NULL_DELETE_FN', 'MPI_COMM_DUP_FN',
           'MPI_TYPE_NULL_COPY_FN', 'MPI_TYPE_NULL_DELETE_FN', 'MPI_TYPE_DUP_FN',
           'MPI_WIN_NULL_COPY_FN', 'MPI_WIN_NULL_DELETE_FN', 'MPI_WIN_DUP_FN']
    for fn in fns:
        lines.append('      EXTERNAL ' + fn)
    # smpi's extensions (docs/fortran.md)
    lines.append('      LOGICAL SMPI_SAMPLE_NEXT')
    lines.append('      EXTERNAL SMPI_SAMPLE_NEXT')
    for line in lines:
        assert len(line) <= 72, line
    with open(out_path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ('bindings', 'mpif'):
        sys.exit('usage: fortran_gen.py bindings|mpif INPUT OUTPUT')
    if sys.argv[1] == 'bindings':
        gen_bindings(sys.argv[2], sys.argv[3])
    else:
        gen_mpif(sys.argv[2], sys.argv[3])


if __name__ == '__main__':
    main()
