// SPDX-License-Identifier: GPL-2.0
/*
 * A system sleep cycle, as far as QEMU can take one; only with eq_sleep=1.
 * QEMU's PSCI has no SYSTEM_SUSPEND, so "mem" is suspend to idle, which
 * runs no syscore callback. Hibernation stopped by pm_test "core" runs
 * them: tasks frozen, every device's freeze callbacks, the secondary CPUs
 * taken down, the syscore suspend callbacks with interrupts off (the
 * Samsung CMUs' register save, timekeeping's), then the resume side of
 * each, without writing an image.
 *
 * Compared after it, within the kernel: the registers of every CMU on the
 * bus and clk_summary. The registers are the graft's RAM: they keep their
 * values through the cycle, where silicon loses them, so a CMU whose
 * resume does not write back what its suspend saved shows here (the
 * values its suspend wrote stay), a restore of lost values does not.
 * State for the host: the registers that changed, and the syscore
 * callbacks that ran. Their order is printed, not compared: built-in CMUs
 * register theirs at time_init(), before timekeeping's; modules after.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

#define MAX_CMUS	64
#define MAX_WORDS	(1 << 16)	/* 256 KiB: the largest CMU window is 64 KiB */

struct cmu {
	char node[256];
	uint64_t pa;
	size_t words;
	uint32_t *before;
};

/* The enabled clock-controller nodes on the bus, with their registers. */
static int snapshot_cmus(const char *bus, struct cmu *cmus)
{
	char dir[128], status[32], path[400];
	struct dirent *d;
	uint64_t size;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "/sys/firmware/devicetree/base/%s", bus);
	dp = opendir(dir);
	while (dp && (d = readdir(dp)) && n < MAX_CMUS) {
		if (strncmp(d->d_name, "clock-controller@", 17))
			continue;
		snprintf(path, sizeof(path), "%s/%s/status", dir, d->d_name);
		chomp_file(path, status, sizeof(status));
		if (!strcmp(status, "disabled"))
			continue;
		snprintf(cmus[n].node, sizeof(cmus[n].node), "%s", d->d_name);
		cmus[n].pa = dt_node_reg(bus, d->d_name, &size);
		cmus[n].words = size / 4 < MAX_WORDS ? size / 4 : MAX_WORDS;
		cmus[n].before = calloc(cmus[n].words, 4);
		if (!cmus[n].pa || !cmus[n].before ||
		    read_regs(cmus[n].pa, cmus[n].before, cmus[n].words) < 0) {
			free(cmus[n].before);
			continue;
		}
		n++;
	}
	if (dp)
		closedir(dp);
	return n;
}

/* The registers that changed since the snapshot, as state; their count. */
static int changed_regs(struct cmu *cmus, int n)
{
	uint32_t *now;
	size_t i;
	int c, changed = 0;

	for (c = 0; c < n; c++) {
		now = calloc(cmus[c].words, 4);
		if (!now || read_regs(cmus[c].pa, now, cmus[c].words) < 0) {
			say("#= reg %s unreadable after the cycle", cmus[c].node);
			changed++;
		} else {
			for (i = 0; i < cmus[c].words; i++) {
				if (now[i] == cmus[c].before[i])
					continue;
				say("#= reg %s +0x%zx 0x%08x -> 0x%08x", cmus[c].node, i * 4,
				    cmus[c].before[i], now[i]);
				changed++;
			}
		}
		free(now);
		free(cmus[c].before);
	}
	return changed;
}

/*
 * The syscore callbacks the cycle ran, from the "Calling FN+0x0/0x.."
 * messages pm_debug_messages adds (kmsg from kfd on): each as state, and
 * the order on one line.
 */
static void syscore_calls(int kfd)
{
	char rec[1024], order[1024] = "", *fn;
	ssize_t n;

	while (kfd >= 0 && ((n = read(kfd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		fn = strchr(rec, ';');
		if (!fn || strncmp(fn + 1, "Calling ", 8))
			continue;
		fn += 9;
		fn[strcspn(fn, "+ \n")] = 0;
		say("#= syscore %s", fn);
		if (strlen(order) + strlen(fn) + 3 < sizeof(order))
			strcat(strcat(order, *order ? ", " : ""), fn);
	}
	say("# syscore callbacks in the order they ran: %s", *order ? order : "none");
}

void equiv_sleep(const char *bus)
{
	static const char test[] = "equiv sleep cycle leaves CMU registers and clocks as they were";
	static struct cmu cmus[MAX_CMUS];
	char *clk_before, *clk_after, why[300] = "";
	int n, kfd, waited, changed;

	if (!getenv("eq_sleep")) {
		ktap_skip(test, "no eq_sleep=1");
		return;
	}
	n = snapshot_cmus(bus, cmus);
	clk_before = look_until_same(clk_summary, 100, 2000, &waited);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	if (write_file("/sys/power/pm_debug_messages", "1") < 0 ||
	    write_file("/sys/power/pm_test", "core") < 0)
		snprintf(why, sizeof(why), "no pm_test (the kernel needs PM_DEBUG and HIBERNATION): %s",
			 strerror(errno));
	else if (write_file("/sys/power/state", "disk") < 0)
		snprintf(why, sizeof(why), "hibernation with pm_test core: %s", strerror(errno));
	write_file("/sys/power/pm_test", "none");
	write_file("/sys/power/pm_debug_messages", "0");

	section("sleep", 1);
	syscore_calls(kfd);
	changed = changed_regs(cmus, n);
	section("sleep", 0);
	if (kfd >= 0)
		close(kfd);
	clk_after = look_until_same(clk_summary, 100, 2000, &waited);
	say("# sleep cycle: %d CMU register windows compared, %d registers changed", n, changed);
	if (!*why && changed)
		snprintf(why, sizeof(why), "%d CMU registers changed (the state lists them)", changed);
	else if (!*why && (!clk_before || !clk_after || strcmp(clk_before, clk_after)))
		snprintf(why, sizeof(why), "clk_summary differs after the cycle");
	free(clk_before);
	free(clk_after);
	ktap_result(test, *why ? why : NULL);
}
