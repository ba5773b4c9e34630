// SPDX-License-Identifier: GPL-2.0-only
/// What keeps a Samsung SoC driver file from being linked into a module.
///
/// One rule for every topic: coccinelle/<topic>.cocci links here (spatch
/// 1.1.1 does not take #include of a rule file), so the clk, pinctrl, soc
/// and rtc checks cannot drift apart.
///
/// Rule set 1, core state read directly: a module cannot use the
/// unexported timekeeping_suspended flag (modpost fails on it), and must
/// not get write access to it either. Every read outside the file that
/// defines the flag is replaced by timekeeping_is_suspended(), the
/// read-only GPL export (patch), or reported (report, org, context).
///
/// Rule set 2, init sections on what a module's probe reaches: a module's
/// __init text and __initconst/__initdata data are freed once its init
/// function returns, and a platform driver probes later (deferral, a
/// device that appears late). The 2021 Rockchip clock conversion was
/// reverted for exactly this. In a file that can be a module (it has
/// MODULE_DEVICE_TABLE(), MODULE_LICENSE(), module_platform_driver() or
/// module_init()), the roots are each platform_driver's .probe and the
/// data each of_device_id table's .data points to. From there the rule
/// follows, to any depth, every name used in a function body, every name
/// in a designated initializer (.field = name, .field = &name, also in
/// arrays of structs) and every argument of a macro in an array
/// initializer (the PLL(), CPU_CLK() tables). It drops __init from the
/// functions and __initconst/__initdata from the data it reaches, and
/// __refdata from the platform_driver, which only hid the probe's init
/// references from modpost.
///
/// Rule set 3, what another file hands in: init data that is not static,
/// and the non-static __init functions of driver code (it has a match
/// table) that is neither a module nor has a boot entry of its own, are
/// roots too (a match table
/// in one file points at SoC data in another, as in Samsung pinctrl).
///
/// What it cannot see: other calls into other files (a shared helper of
/// a module file, reached from another module's probe, keeps its __init:
/// modpost with SECTION_MISMATCH_WARN_ONLY=n is the check for that, and
/// the exports are not added for the same reason), function pointers set at run
/// time, names made by token pasting (## in a macro) or hidden in a
/// macro's body (PNAME(), CLK_OF_DECLARE()), and Kconfig: a file with
/// module markers counts as modular even where Kconfig keeps it built
/// in, and a file without them does not count even if Kconfig lets it
/// be a module. It over-approximates too: a name reached counts whatever
/// it is, so a local variable that shadows a table keeps the table.
//
// Confidence: High
// Options: --no-includes --include-headers
// Generate the changes with:
//   make coccicheck COCCI=coccinelle/<topic>.cocci MODE=patch M=<directory>

virtual patch
virtual context
virtual org
virtual report

// ---- 1. timekeeping_suspended read outside its own file -------------------

@defines@
attribute name __read_mostly;
symbol timekeeping_suspended;
@@
int __read_mostly timekeeping_suspended;

@tk depends on patch && !defines@
symbol timekeeping_suspended;
@@
- timekeeping_suspended
+ timekeeping_is_suspended()

@tk_r depends on !patch && !defines@
symbol timekeeping_suspended;
position p;
@@
* timekeeping_suspended@p

@script:python depends on report@
p << tk_r.p;
@@
coccilib.report.print_report(p[0], "timekeeping_suspended is not exported: use timekeeping_is_suspended()")

@script:python depends on org@
p << tk_r.p;
@@
coccilib.org.print_todo(p[0], "timekeeping_suspended is not exported: use timekeeping_is_suspended()")

// ---- 2. init sections reachable from a module's probe ---------------------
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
extern = set()
internal = set()


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
extern.clear()
internal.clear()

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

// Every name used in an expression, under the function (or the variable)
// it is used in: one linear pass, where <+... y ...+> in each function
// body takes minutes on the larger drivers.
@body@
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
@init@
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

// ---- 3. roots that another file hands in -------------------------------
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
declarer name core_initcall, postcore_initcall, arch_initcall, subsys_initcall;
declarer name fs_initcall, device_initcall, late_initcall;
@@
(
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

@init_data@
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

@static_data@
identifier x;
attribute name __initconst, __initdata;
type T;
initializer I;
@@
(
  static T x[] __initconst = I;
|
  static T x[] __initdata = I;
|
  static T x __initconst = I;
|
  static T x __initdata = I;
)

@init_fn depends on ids && !entry && !modular@
identifier f;
attribute name __init;
@@
  __init f(...) {...}

@static_fn depends on ids && !entry && !modular@
identifier f;
attribute name __init;
@@
  static __init f(...) {...}

@script:python@
x << init_data.x;
@@
extern.add(x)

@script:python@
x << static_data.x;
@@
internal.add(x)

@script:python@
f << init_fn.f;
@@
extern.add(f)

@script:python@
f << static_fn.f;
@@
internal.add(f)

@script:python@
@@
roots.update(extern - internal)

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
