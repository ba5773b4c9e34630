// SPDX-License-Identifier: GPL-2.0-only
/// Find __init functions and __initconst/__initdata data that a module's
/// probe can reach.
///
/// The init sections of a module are freed as soon as its init function
/// returns, and a platform driver probes later than that whenever its
/// probe is deferred or its device appears late: everything the probe
/// reaches must still be there. Converting a driver with init-annotated
/// tables to a module is the classic way to get this wrong; the Rockchip
/// clock conversion was reverted for it (commit 000590a5e20d).
///
/// In a file that can be a module (it has MODULE_DEVICE_TABLE(),
/// MODULE_LICENSE(), module_platform_driver() or module_init()), the
/// roots are each platform_driver's .probe and the data each of_device_id
/// table's .data points to. The rule follows, to any depth, every name a
/// function body uses, every name in a designated initializer (also in
/// arrays of structs) and every argument of a macro in an array
/// initializer (PLL() style tables), and reports (or, in patch mode,
/// drops) __init on the functions and __initconst/__initdata on the data
/// it reaches, and __refdata on the platform_driver, which only hides the
/// probe's init references from modpost.
///
/// With -D crossfile (make coccicheck SPFLAGS="-D crossfile"), data and
/// functions that another file may hand to a probe are roots too: init
/// data that is not static, and the non-static __init functions of driver
/// code (a file with an of_device_id table) that is neither a module nor
/// has a boot-time entry of its own (an initcall, __setup, early_param or
/// *_OF_DECLARE()), as a match table in one file can point at SoC data in
/// another (Samsung pin control). One file does not show whether that
/// other file reads them from a probe or only from init code, so this
/// part reports many false positives and is off by default.
///
/// Limits: calls into other files are not followed (modpost, with
/// CONFIG_SECTION_MISMATCH_WARN_ONLY=n, reports what is left), nor
/// function pointers set at run time or names made by token pasting or
/// hidden in a macro body. Whether a file is a module is read from the
/// file, not from Kconfig. A name counts wherever it appears, so a local
/// variable that shadows a table keeps the table (false positive).
//
// Confidence: High (Low with -D crossfile)
// Options: --no-includes --include-headers
// Keywords: __init, __initconst, __initdata, module, probe

virtual patch
virtual context
virtual org
virtual report
virtual crossfile

// ---- init sections reachable from a module's probe ----------------------
//
// One pass records which names each function body and each initializer
// mentions (a reference graph); the probes and the match data are the
// roots; the rules that drop or report annotations take what the roots
// reach in that graph. Python sets keep this to a few passes per file.

@initialize:python@
@@
refs = {}
roots = set()
reached = set()


def add_ref(a, b):
    refs.setdefault(a, set()).add(b)


def reach():
    if not reached:
        todo = list(roots)
        while todo:
            n = todo.pop()
            if n not in reached:
                reached.add(n)
                todo.extend(refs.get(n, ()))
    return reached

@script:python new_file@
@@
refs.clear()
roots.clear()
reached.clear()

@modular@
declarer name MODULE_DEVICE_TABLE, MODULE_LICENSE, module_platform_driver;
declarer name module_init;
@@
(
MODULE_DEVICE_TABLE(...);
|
MODULE_LICENSE(...);
|
module_platform_driver(...);
|
module_init(...);
)

@drv depends on modular@
identifier d, pr;
@@
struct platform_driver d = { .probe = pr, };

@script:python@
pr << drv.pr;
@@
roots.add(pr)

@matchdata depends on modular@
identifier ids, x;
@@
struct of_device_id ids[] = { ..., { .data = &x, }, ... };

@script:python@
x << matchdata.x;
@@
roots.add(x)

// ---- roots that another file hands in ----------------------------------
//
// A match table can point at data another file defines (the Samsung
// pinctrl core's table points at the per-SoC data in
// pinctrl-exynos-arm64.c, and that data at the EINT setup functions in
// pinctrl-exynos.c). The rule sees one file at a time, so it takes as
// roots what only another file can use: init data that is not static,
// and the non-static __init functions of driver code (a file with an
// of_device_id table) that is neither a module nor has a boot-time
// entry of its own (no initcall, __setup, early_param or *_OF_DECLARE):
// such a file is a part of another file's driver, and its callers,
// elsewhere, may be a probe. Core code without a match table (tick_init()
// called from start_kernel()) does not count. Such a name in a file that
// is only ever built in is reported too: the probe that reads it can be
// deferred past the freeing of init memory as well.

@entry@
declarer name CLK_OF_DECLARE, CLK_OF_DECLARE_DRIVER, OF_DECLARE_1, OF_DECLARE_2;
declarer name TIMER_OF_DECLARE, IRQCHIP_DECLARE, __setup, early_param;
declarer name early_initcall, pure_initcall, core_initcall, postcore_initcall;
declarer name arch_initcall, subsys_initcall, fs_initcall, device_initcall;
declarer name late_initcall;
@@
(
early_initcall(...);
|
pure_initcall(...);
|
CLK_OF_DECLARE(...);
|
CLK_OF_DECLARE_DRIVER(...);
|
OF_DECLARE_1(...);
|
OF_DECLARE_2(...);
|
TIMER_OF_DECLARE(...);
|
IRQCHIP_DECLARE(...);
|
__setup(...);
|
early_param(...);
|
core_initcall(...);
|
postcore_initcall(...);
|
arch_initcall(...);
|
subsys_initcall(...);
|
fs_initcall(...);
|
device_initcall(...);
|
late_initcall(...);
)

// Driver code: the file has a device match table.
@ids@
identifier t;
@@
struct of_device_id t[] = {...};

// Not static: "disable optional_storage" keeps these patterns from
// matching static declarations too.
@extern_data depends on crossfile disable optional_storage@
identifier x;
attribute name __initconst, __initdata;
type T;
initializer I;
@@
(
  T x[] __initconst = I;
|
  T x[] __initdata = I;
|
  T x __initconst = I;
|
  T x __initdata = I;
)

@extern_fn depends on crossfile && ids && !entry && !modular disable optional_storage@
identifier f;
attribute name __init;
@@
  __init f(...) {...}

@script:python@
x << extern_data.x;
@@
roots.add(x)

@script:python@
f << extern_fn.f;
@@
roots.add(f)

// ---- what the roots reach ----------------------------------------------
//
// Every name used in an expression, under the function (or the variable)
// it is used in: one linear pass, where <+... y ...+> in each function
// body takes minutes on the larger drivers. Only in files with a root:
// elsewhere the graph would be built for nothing.
@body depends on drv || matchdata || extern_data || extern_fn@
identifier y;
position p;
@@
y@p

@script:python@
y << body.y;
p << body.p;
@@
add_ref(p[0].current_element, y)

// Designated fields, and arguments of the table macros (PLL(), CPU_CLK()).
@init depends on drv || matchdata || extern_data || extern_fn@
identifier x, y, fld, m;
type T;
@@
(
T x = { ..., .fld = y, ... };
|
T x = { ..., .fld = &y, ... };
|
T x[] = { ..., m(..., y, ...), ... };
|
T x[] = { ..., { ..., .fld = y, ... }, ... };
)

@script:python@
x << init.x;
y << init.y;
@@
add_ref(x, y)

@fn depends on patch@
identifier reached_fn : script:python() { reached_fn in reach() };
attribute name __init;
@@
- __init
  reached_fn(...) {...}

@dat depends on patch@
identifier reached_data : script:python() { reached_data in reach() };
attribute name __initconst, __initdata;
type T;
initializer I;
@@
(
  T reached_data[]
- __initconst
  = I;
|
  T reached_data[]
- __initdata
  = I;
|
  T reached_data
- __initconst
  = I;
|
  T reached_data
- __initdata
  = I;
)

// __refdata only hid the probe's init references from modpost; once the
// probe is not __init it would hide new ones.
@refdata depends on patch@
identifier drv.d;
attribute name __refdata;
@@
  struct platform_driver d
- __refdata
  = {...};

// Context mode marks the lines; report and org name them (python rules
// cannot take a metavariable that has a constraint, hence two rules each).
@fn_c depends on context@
identifier reached_fn : script:python() { reached_fn in reach() };
attribute name __init;
@@
* __init
  reached_fn(...) {...}

@dat_c depends on context@
identifier reached_data : script:python() { reached_data in reach() };
attribute name __initconst, __initdata;
type T;
initializer I;
@@
(
* T reached_data[] __initconst = I;
|
* T reached_data[] __initdata = I;
|
* T reached_data __initconst = I;
|
* T reached_data __initdata = I;
)

@refdata_c depends on context@
identifier drv.d;
attribute name __refdata;
@@
* struct platform_driver d __refdata = {...};

@fn_r depends on report || org@
identifier f;
attribute name __init;
position p;
@@
  __init@p f(...) {...}

@dat_r depends on report || org@
identifier x;
attribute name __initconst, __initdata;
type T;
initializer I;
position p;
@@
(
  T x[] __initconst@p = I;
|
  T x[] __initdata@p = I;
|
  T x __initconst@p = I;
|
  T x __initdata@p = I;
)

@refdata_r depends on report || org@
identifier drv.d;
attribute name __refdata;
position p;
@@
  struct platform_driver d __refdata@p = {...};

@script:python depends on report@
p << fn_r.p;
f << fn_r.f;
@@
if f in reach():
    coccilib.report.print_report(p[0], "__init function %s is reachable from a module's probe" % f)

@script:python depends on org@
p << fn_r.p;
f << fn_r.f;
@@
if f in reach():
    coccilib.org.print_todo(p[0], "__init function %s is reachable from a module's probe" % f)

@script:python depends on report@
p << dat_r.p;
x << dat_r.x;
@@
if x in reach():
    coccilib.report.print_report(p[0], "init data %s is reachable from a module's probe" % x)

@script:python depends on org@
p << dat_r.p;
x << dat_r.x;
@@
if x in reach():
    coccilib.org.print_todo(p[0], "init data %s is reachable from a module's probe" % x)

@script:python depends on report@
p << refdata_r.p;
d << drv.d;
@@
coccilib.report.print_report(p[0], "__refdata on %s hides its probe's references from modpost" % d)

@script:python depends on org@
p << refdata_r.p;
d << drv.d;
@@
coccilib.org.print_todo(p[0], "__refdata on %s hides its probe's references from modpost" % d)
