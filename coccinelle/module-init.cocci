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
/// module_init()), the rule takes the platform_driver's .probe, the
/// functions that probe names, two more levels of functions below those,
/// the data they name, the data the of_device_id table's .data points to
/// and the tables that data names in designated initializers; it drops
/// __init from those functions and __initconst/__initdata from that data.
///
/// What it cannot see: calls into other files (a shared helper reached
/// from another module's probe keeps its __init: modpost with
/// SECTION_MISMATCH_WARN_ONLY=n is the check for that), function pointers
/// set at run time, paths deeper than the levels above, references
/// hidden in macros (PNAME() and CLK_OF_DECLARE() bodies), and Kconfig:
/// a file with module markers counts as modular even where Kconfig keeps
/// it built in, and a file without them does not count even if Kconfig
/// lets it be a module.
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

@modular@
declarer name MODULE_DEVICE_TABLE, MODULE_LICENSE, module_platform_driver;
identifier i;
@@
(
MODULE_DEVICE_TABLE(...);
|
MODULE_LICENSE(...);
|
module_platform_driver(...);
|
module_init(i);
)

@drv depends on modular@
identifier d, pr;
@@
struct platform_driver d = { .probe = pr, };

@matchdata depends on modular@
identifier ids, x;
@@
struct of_device_id ids[] = { ..., { .data = &x, }, ... };

@reach1@
identifier drv.pr, f;
@@
pr(...) { <+... f ...+> }

@reach2@
identifier reach1.f, g;
@@
f(...) { <+... g ...+> }

@reach3@
identifier reach2.g, h;
@@
g(...) { <+... h ...+> }

@data1@
identifier x = { matchdata.x, reach1.f, reach2.g, reach3.h };
identifier fld, y;
type T;
@@
T x = { ..., .fld = y, ... };

@data2@
identifier data1.y, fld, z;
type T;
@@
T y = { ..., .fld = z, ... };

@fn depends on patch@
identifier f = { drv.pr, reach1.f, reach2.g, reach3.h };
attribute name __init;
@@
- __init
  f(...) {...}

@dat depends on patch@
identifier x = { matchdata.x, reach1.f, reach2.g, reach3.h, data1.y, data2.z };
attribute name __initconst, __initdata;
type T;
initializer I;
@@
(
  T x[]
- __initconst
  = I;
|
  T x[]
- __initdata
  = I;
|
  T x
- __initconst
  = I;
|
  T x
- __initdata
  = I;
)

@fn_r depends on !patch@
identifier f = { drv.pr, reach1.f, reach2.g, reach3.h };
attribute name __init;
position p;
@@
* __init@p
  f(...) {...}

@dat_r depends on !patch@
identifier x = { matchdata.x, reach1.f, reach2.g, reach3.h, data1.y, data2.z };
attribute name __initconst, __initdata;
type T;
initializer I;
position p;
@@
(
* T x[] __initconst@p = I;
|
* T x[] __initdata@p = I;
|
* T x __initconst@p = I;
|
* T x __initdata@p = I;
)

@script:python depends on report@
p << fn_r.p;
f << fn_r.f;
@@
coccilib.report.print_report(p[0], "__init function %s is reachable from a module's probe" % f)

@script:python depends on org@
p << fn_r.p;
f << fn_r.f;
@@
coccilib.org.print_todo(p[0], "__init function %s is reachable from a module's probe" % f)

@script:python depends on report@
p << dat_r.p;
x << dat_r.x;
@@
coccilib.report.print_report(p[0], "init data %s is reachable from a module's probe" % x)

@script:python depends on org@
p << dat_r.p;
x << dat_r.x;
@@
coccilib.org.print_todo(p[0], "init data %s is reachable from a module's probe" % x)
