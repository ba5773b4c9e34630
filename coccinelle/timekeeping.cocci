// SPDX-License-Identifier: GPL-2.0-only
/// timekeeping_suspended read outside kernel/time: a module cannot use
/// the unexported flag (modpost fails on it), and must not get write
/// access to it either. Every read outside the file that defines the flag
/// is replaced by timekeeping_is_suspended(), the read-only GPL export
/// (patch), or reported (report, org, context). The clk topic runs it
/// beside probe_init.cocci.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

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
