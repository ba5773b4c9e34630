// SPDX-License-Identifier: GPL-2.0
/*
 * The exynos-gki guest agent: /init (PID 1) of the QEMU boot test. No
 * shell, no busybox: mount the pseudo filesystems, load every staged
 * module in dependency order with finit_module(2), report each step as a
 * KTAP v1 test case on the console, then power the machine off.
 *
 *   main.c     the suites table, the plan line, power-off
 *   ktap.c     console output and KTAP results
 *   sysfs.c    reading sysfs and debugfs; waiting for probes to settle
 *   regs.c     a device's registers, through the DT and /dev/mem
 *   mct.c      the Exynos MCT, before any module loads
 *   modules.c  the module loading and deferred-reprobe suites
 *   equiv.c    the equivalence state suite, one table of cases
 *   sleep.c    its sleep cycle case: hibernation stopped after syscore
 *
 * Build: aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror *.c
 */
#ifndef EXYNOS_GKI_AGENT_H
#define EXYNOS_GKI_AGENT_H

#include <stddef.h>

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ktap.c */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ktap_result(const char *name, const char *why);
void ktap_skip(const char *name, const char *why);
void setup_console(void);
extern int ktap_next, ktap_passed, ktap_failed;

/* sysfs.c */
char *read_file(const char *path);
int write_file(const char *path, const char *s);
int count_lines(const char *path);
int dump_file(const char *path, const char *prefix);
void chomp_file(const char *path, char *buf, size_t size);
void section(const char *name, int begin);
char *clk_summary(void);
char *look_until_same(char *(*look)(void), int interval_ms, int max_ms, int *waited_ms);
char *read_deferred(void);
int scan_devices(const char *bus, int print, char *why, size_t size);
void settle(const char *bus);

/* modules.c */
struct module;
int modules_count(void);
void modules_run(void);
int reprobe_count(void);
void reprobe_run(void);
const struct module *module_file(const char *name);
int insert_module(const struct module *m, char *why, size_t size);
extern int deferrals;

/* regs.c */
#include <stdint.h>
uint64_t dt_node_reg(const char *bus, const char *node, uint64_t *size);
int read_regs(uint64_t pa, uint32_t *val, size_t words);

/* mct.c */
int mct_count(void);
void mct_run(void);

/* equiv.c */
const char *equiv_bus(void);
int equiv_count(void);
void equiv_run(void);

/* sleep.c */
void equiv_sleep(const char *bus);

#endif
