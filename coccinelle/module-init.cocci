// SPDX-License-Identifier: GPL-2.0-only
/// Init-section annotations on what a module's probe can reach.
///
/// A module's __init text and __initconst/__initdata data are freed once
/// its init function returns. A platform driver probes later: at bind
/// time, after a deferral, or when its device appears. Anything its probe
/// reaches must therefore live outside the init sections; the 2021
/// Rockchip clock conversion to modules was reverted for exactly this.
///
/// What this rule matches, in one file:
///  - a file that can be a module: it has module_platform_driver(),
///    module_init() or MODULE_DEVICE_TABLE();
///  - its platform_driver's .probe, the functions that probe names (calls
///    or takes the address of), and so on three levels deep;
///  - the data those functions name, the data the of_device_id table's
///    .data points to, and the data named by designated initializers of
///    that data (two levels: an info struct and the tables it points to).
/// It drops __init from those functions and __initconst/__initdata from
/// that data (patch), or reports each one (report, org), or marks it
/// (context).
///
/// What it cannot see: calls into other files (shared code is covered by
/// the rule of the file it lives in, see clk.cocci), function pointers
/// filled in at run time, paths deeper than the levels above, references
/// hidden in macros other than designated initializers, and Kconfig: a
/// file with module markers counts as modular even where Kconfig keeps it
/// built in.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@modular@
declarer name MODULE_DEVICE_TABLE, module_platform_driver;
identifier i;
@@
(
MODULE_DEVICE_TABLE(...);
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

// The removals, one rule per source of reachable names.
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

// Report and context: the same places, found without changing them.
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
