// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the exynos-gki QEMU boot test (see agent.h).
 *
 * To add a test: write a suite (a count function that says how many results
 * it will report, and a run function that reports exactly that many with
 * ktap_result()), and add it to the suites[] table below. Counts are taken
 * before anything runs, because the plan line comes first.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"

/* --- suite: mount the pseudo filesystems --- */

static const struct {
	const char *type, *dir;
} mounts[] = {
	{ "proc", "/proc" },
	{ "sysfs", "/sys" },
	{ "devtmpfs", "/dev" },
	{ "debugfs", "/sys/kernel/debug" },	/* needs /sys first */
};

static int mounts_count(void)
{
	return ARRAY_SIZE(mounts);
}

static void mounts_run(void)
{
	char name[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		snprintf(name, sizeof(name), "mount %s", mounts[i].type);
		if (mkdir(mounts[i].dir, 0755) < 0 && errno != EEXIST)
			ktap_result(name, strerror(errno));
		/* EBUSY: setup_console() mounted it already. */
		else if (mount(mounts[i].type, mounts[i].dir, mounts[i].type, 0, NULL) < 0 && errno != EBUSY)
			ktap_result(name, strerror(errno));
		else
			ktap_result(name, NULL);
	}
}

/* --- the test table --- */

static const struct suite {
	int (*count)(void);	/* results run() will report */
	void (*run)(void);
} suites[] = {
	{ mounts_count, mounts_run },
	{ mct_count, mct_run },		/* before the first module */
	{ modules_count, modules_run },
	{ reprobe_count, reprobe_run },
	{ equiv_count, equiv_run },
};

int main(void)
{
	int i, total = 0;

	setup_console();
	say("KTAP version 1");
	for (i = 0; i < ARRAY_SIZE(suites); i++)
		total += suites[i].count();
	say("1..%d", total);
	for (i = 0; i < ARRAY_SIZE(suites); i++)
		suites[i].run();
	say("# totals: pass:%d fail:%d", ktap_passed, ktap_failed);
	if (ktap_next - 1 != total)
		say("# bug in /init: planned %d results, reported %d", total, ktap_next - 1);

	sync();
	reboot(RB_POWER_OFF);
	/* Returning from PID 1 panics the kernel: the host sees it. */
	say("# reboot(RB_POWER_OFF): %s", strerror(errno));
	return 1;
}
