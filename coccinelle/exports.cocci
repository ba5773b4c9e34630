// SPDX-License-Identifier: GPL-2.0-only
/// The exports between the modules of one directory.
///
/// When a driver directory is split into modules (a core module and the
/// drivers on top of it), every function one module calls and another
/// defines must be exported, and nothing else. Which object is in which
/// module is kbuild's decision, not this rule's: tools/cocci-exports.sh
/// asks the directory's Makefile for a given .config and hands the answer
/// in as a file of "MODULE.ko OBJECT.o" lines (-D modmap=FILE).
///
/// Pass 1 (-D scan) reads every file of those modules in one spatch run
/// and prints, from the names each function and each initialized table
/// uses:
///   export FILE FN   a function FILE defines (not static) that a file of
///                    another module uses, not exported yet;
///   import FILE      the file with MODULE_LICENSE() of a module that uses
///                    such a function, without MODULE_IMPORT_NS() yet;
///   uninit FILE FN   an __init function that an exported function
///                    reaches (to any depth, within its module): a module
///                    can call an export at any time, long after init.
/// Pass 2 (-D patch) runs on one file with what pass 1 found for it
/// (-D exports=FN,... -D uninit=FN,..., "-" for none, and -D importer) and
/// adds EXPORT_SYMBOL_NS_GPL(FN, NS) after each definition, drops the
/// __init, and adds MODULE_IMPORT_NS(NS) after MODULE_LICENSE().
///
/// Not derived: data used across modules (reported by modpost as
/// undefined, as is any use this rule cannot see: names made by token
/// pasting or hidden in a macro's body). A name counts as a use wherever
/// it appears, so a local variable named like another module's function
/// exports that function.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual scan
virtual patch
virtual importer

@initialize:python@
ns << virtual.ns;
@@
import re
NS = ns
refs = {}        # (file, element) -> names it uses
fns = {}         # file -> functions it defines
static_fns = {}  # file -> static functions it defines
init_fns = {}    # file -> __init functions it defines
exported = {}    # file -> names it exports already
licensed = set() # files with MODULE_LICENSE()
imports = set()  # files with MODULE_IMPORT_NS(NS)


def add(d, k, v):
    d.setdefault(k, set()).add(v)

// ---- pass 1 -----------------------------------------------------------

@use depends on scan@
identifier y;
position p;
@@
y@p

@script:python depends on scan@
y << use.y;
p << use.p;
@@
add(refs, (p[0].file, p[0].current_element), y)

@tab depends on scan@
identifier x, y, fld, m;
type T;
position p;
@@
(
T x@p = { ..., .fld = y, ... };
|
T x@p = { ..., .fld = &y, ... };
|
T x@p[] = { ..., m(..., y, ...), ... };
|
T x@p[] = { ..., { ..., .fld = y, ... }, ... };
)

@script:python depends on scan@
x << tab.x;
y << tab.y;
p << tab.p;
@@
add(refs, (p[0].file, x), y)

@fn depends on scan@
identifier f;
position p;
@@
f@p(...) {...}

@script:python depends on scan@
f << fn.f;
p << fn.p;
@@
add(fns, p[0].file, f)

@sfn depends on scan@
identifier f;
position p;
@@
static f@p(...) {...}

@script:python depends on scan@
f << sfn.f;
p << sfn.p;
@@
add(static_fns, p[0].file, f)

@ifn depends on scan@
identifier f;
position p;
attribute name __init;
@@
__init f@p(...) {...}

@script:python depends on scan@
f << ifn.f;
p << ifn.p;
@@
add(init_fns, p[0].file, f)

@ex depends on scan@
declarer name EXPORT_SYMBOL, EXPORT_SYMBOL_GPL, EXPORT_SYMBOL_NS, EXPORT_SYMBOL_NS_GPL;
identifier f;
position p;
@@
(
EXPORT_SYMBOL@p(f);
|
EXPORT_SYMBOL_GPL@p(f);
|
EXPORT_SYMBOL_NS@p(f, ...);
|
EXPORT_SYMBOL_NS_GPL@p(f, ...);
)

@script:python depends on scan@
f << ex.f;
p << ex.p;
@@
add(exported, p[0].file, f)

@lic depends on scan@
declarer name MODULE_LICENSE;
position p;
@@
MODULE_LICENSE@p(...);

@script:python depends on scan@
p << lic.p;
@@
licensed.add(p[0].file)

@imp depends on scan@
declarer name MODULE_IMPORT_NS;
identifier n;
position p;
@@
MODULE_IMPORT_NS@p(n);

@script:python depends on scan@
n << imp.n;
p << imp.p;
@@
if n == NS:
    imports.add(p[0].file)

@finalize:python depends on scan@
modmap << virtual.modmap;
@@
module = {}
for line in open(modmap):
    mod, obj = line.split()
    module[re.sub(r'\.o$', '.c', obj)] = mod
files = sorted(set(fns) | set(licensed))
glob = {}        # module -> {function: file}, the non-static functions
for f in files:
    for n in fns.get(f, ()) - static_fns.get(f, set()):
        glob.setdefault(module.get(f), {})[n] = f


def resolve(f, n):
    # Where a use of n in file f links to, within the module of f.
    if n in fns.get(f, ()) or (f, n) in refs:
        return (f, n)
    g = glob.get(module.get(f), {}).get(n)
    return (g, n) if g else None


out = set()
users = set()
for (f, el), names in refs.items():
    if f not in module:
        continue
    for n in names:
        if resolve(f, n):
            continue
        for mod, defs in glob.items():
            g = defs.get(n)
            if mod and mod != module[f] and g:
                users.add(module[f])
                if n not in exported.get(g, ()):
                    out.add("export %s %s" % (g, n))
roots = [resolve(g, n) for g, n in (l.split()[1:] for l in out)]
roots += [resolve(g, n) for g in files for n in exported.get(g, ())
          if n in fns.get(g, ())]
seen = set()
while roots:
    r = roots.pop()
    if r is None or r in seen:
        continue
    seen.add(r)
    f, n = r
    if n in init_fns.get(f, ()):
        out.add("uninit %s %s" % (f, n))
    roots += [resolve(f, m) for m in refs.get((f, n), ())]
for mod in users:
    lic = [f for f in licensed if module.get(f) == mod]
    if lic and not set(lic) & imports:
        out.add("import %s" % lic[0])
    elif not lic:
        out.add("nolicense %s" % mod)
for line in sorted(out):
    print(line)

// ---- pass 2 -----------------------------------------------------------

@script:python depends on patch@
e << virtual.exports;
u << virtual.uninit;
@@
EXPORTS = set(e.split(',')) - {'-'}
UNINIT = set(u.split(',')) - {'-'}

@drop_init depends on patch@
identifier f : script:python() { f in UNINIT };
attribute name __init;
@@
- __init
  f(...) {...}

@add_export depends on patch@
identifier f : script:python() { f in EXPORTS };
fresh identifier ns = script:python() { NS };
type T;
@@
T f(...) {...}
+ EXPORT_SYMBOL_NS_GPL(f, ns);

@add_import depends on patch && importer@
declarer name MODULE_LICENSE, MODULE_IMPORT_NS;
fresh identifier ns = script:python() { NS };
expression L;
@@
MODULE_LICENSE(L);
+ MODULE_IMPORT_NS(ns);
