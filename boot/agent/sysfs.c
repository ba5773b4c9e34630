// SPDX-License-Identifier: GPL-2.0
/* Reading sysfs and debugfs, writing sysfs knobs, and waiting until probes have settled. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

char *read_file(const char *path)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size);
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, size - len - 1)) > 0) {
		len += n;
		if (size - len < 2) {
			char *bigger = realloc(buf, size *= 2);

			if (!bigger) {
				n = -1;
				break;
			}
			buf = bigger;
		}
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* Writes s to the file at path (a sysfs or procfs knob); -1 and errno if not. */
int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret, err;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) < 0 ? -1 : 0;
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

int count_lines(const char *path)
{
	char *text = read_file(path), *p;
	int n = 0;

	if (!text)
		return -1;
	for (p = text; *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}

void section(const char *name, int begin)
{
	say("# equiv-%s %s", begin ? "begin" : "end", name);
}

/* Print a file as state lines, each prefixed; returns its line count. */
int dump_file(const char *path, const char *prefix)
{
	char *text = read_file(path), *line, *save;
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++)
		say("#= %s%s", prefix, line);
	free(text);
	return n;
}

void chomp_file(const char *path, char *buf, size_t size)
{
	char *text = read_file(path);

	snprintf(buf, size, "%s", text ? text : "(unreadable)");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
}

char *clk_summary(void)
{
	return read_file("/sys/kernel/debug/clk/clk_summary");
}

/*
 * Look until two looks interval_ms apart agree, or for max_ms: returns
 * the last look (NULL if one failed) and, in waited_ms, the time it took.
 */
char *look_until_same(char *(*look)(void), int interval_ms, int max_ms, int *waited_ms)
{
	const struct timespec tick = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };
	char *then = look(), *now = then;
	int ms;

	for (ms = 0; then && ms < max_ms;) {
		nanosleep(&tick, NULL);
		ms += interval_ms;
		now = look();
		if (!now || !strcmp(now, then))
			break;
		free(then);
		then = now;
	}
	if (now != then)
		free(then);
	*waited_ms = ms;
	return now;
}

char *read_deferred(void)
{
	return read_file("/sys/kernel/debug/devices_deferred");
}

/* Is "syscon" among the compatibles of the DT node at PATH? */
static int is_syscon(const char *path)
{
	char file[420], buf[512];
	int fd, n, i;

	snprintf(file, sizeof(file), "%s/compatible", path);
	fd = open(file, O_RDONLY);
	n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strcmp(buf + i, "syscon"))
			return 1;
	return 0;
}

/*
 * The driver bound to platform device dev ("" if none), once a probe
 * running on it has ended: the driver link is there while the probe runs,
 * and goes if it fails. driver_override is read under the device lock,
 * which the driver core holds across a probe (a deferred one runs from a
 * workqueue, after the module load that set it off returned).
 */
static const char *driver_of(const char *dev, char *buf, size_t size)
{
	char path[300];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver", dev);
	if (readlink(path, buf, size - 1) >= 0) {
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver_override", dev);
		free(read_file(path));
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver", dev);
	}
	n = readlink(path, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
	return n < 0 ? "" : strrchr(buf, '/') + 1;
}

/* The platform devices with a DT node under the SoC bus: device, node. */
struct bus_dev {
	char dev[64], node[128];
};

/*
 * The platform devices whose of_node is a child of the bus node, read
 * once per scan (a scan per DT node made whole boards slow to emulate).
 * Returns how many it put in devs.
 */
static int bus_devices(const char *bus, struct bus_dev *devs, int max)
{
	char link[400], target[600], prefix[200];
	struct dirent *d;
	DIR *pd = opendir("/sys/bus/platform/devices");
	int n = 0;
	ssize_t len;

	/* of_node: ../../../firmware/devicetree/base/<bus>/<node> */
	snprintf(prefix, sizeof(prefix), "/devicetree/base/%s/", bus);
	while (pd && (d = readdir(pd)) && n < max) {
		char *at;

		if (d->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/sys/bus/platform/devices/%s/of_node", d->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		at = strstr(target, prefix);
		if (!at || strchr(at + strlen(prefix), '/'))
			continue;
		snprintf(devs[n].dev, sizeof(devs[n].dev), "%.63s", d->d_name);
		snprintf(devs[n].node, sizeof(devs[n].node), "%.127s", at + strlen(prefix));
		n++;
	}
	if (pd)
		closedir(pd);
	return n;
}

/*
 * Each node under the SoC bus: its platform device's driver, if any.
 * Prints the "devices" section when print is set; returns the number of
 * devices without a driver (the first in why), or -1 without the bus.
 */
int scan_devices(const char *bus, int print, char *why, size_t size)
{
	static struct bus_dev devs[512];
	char dtdir[128], path[400], link[600];
	struct dirent *node;
	DIR *dt;
	int unbound = 0, bound = 0, early = 0, ndevs, i;

	snprintf(dtdir, sizeof(dtdir), "/sys/firmware/devicetree/base/%s", bus);
	dt = opendir(dtdir);
	if (!dt)
		return -1;
	ndevs = bus_devices(bus, devs, ARRAY_SIZE(devs));
	if (print)
		section("devices", 1);
	while ((node = readdir(dt))) {
		const char *drv = NULL;
		char drvlink[600], *status;
		const char *state;

		if (node->d_type != DT_DIR || node->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dtdir, node->d_name);
		for (i = 0; i < ndevs; i++) {
			if (strcmp(devs[i].node, node->d_name))
				continue;
			drv = driver_of(devs[i].dev, drvlink, sizeof(drvlink));
			/* Clock consumers are named by device, CLK_OF_DECLARE's by node. */
			if (print)
				say("#~ devname %s %s", devs[i].dev, node->d_name);
			break;
		}
		snprintf(link, sizeof(link), "%s/status", path);
		status = read_file(link);
		if (drv && *drv) {
			state = "bound ";
			bound++;
		} else if (drv && is_syscon(path)) {
			state = "syscon";	/* looked up by its users, never bound */
		} else if (drv && getenv("eq_mct") && !strcmp(node->d_name, getenv("eq_mct"))) {
			state = "timer";	/* set up by TIMER_OF_DECLARE, no driver */
		} else if (drv) {
			state = "unbound";
			if (!unbound++)
				snprintf(why, size, "not bound: %.180s", node->d_name);
		} else if (status && !strcmp(status, "disabled")) {
			state = "disabled";	/* no device, on purpose */
		} else {
			state = "early";	/* an OF_DECLARE provider: no platform device */
			early++;
		}
		free(status);
		if (print)
			say("#= %s %s%s", node->d_name, state, drv ? drv : "");
	}
	closedir(dt);
	if (print) {
		section("devices", 0);
		say("# devices: %d bound, %d early providers, %d unbound", bound, early, unbound);
	}
	return unbound;
}

/*
 * Every platform device with its driver, each read after a probe running
 * on it ended, and devices_deferred: what settle() waits to see unchanged.
 */
static char *platform_snapshot(void)
{
	size_t len = 0, size = 8192;
	char *snap = malloc(size), *deferred, buf[300];
	const char *drv;
	struct dirent *d;
	DIR *dir = opendir("/sys/bus/platform/devices");

	if (!snap)
		return NULL;
	snap[0] = '\0';
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		drv = driver_of(d->d_name, buf, sizeof(buf));
		if (size - len < strlen(d->d_name) + strlen(drv) + 3) {
			char *bigger = realloc(snap, size *= 2);

			if (!bigger)
				break;
			snap = bigger;
		}
		len += sprintf(snap + len, "%s %s\n", d->d_name, drv);
	}
	if (dir)
		closedir(dir);
	deferred = read_deferred();
	if (deferred) {
		char *both = malloc(len + strlen(deferred) + 1);

		if (both) {
			sprintf(both, "%s%s", snap, deferred);
			free(snap);
			snap = both;
		}
		free(deferred);
	}
	return snap;
}

/*
 * Deferred probes run from a workqueue after the module load that
 * triggered them has returned, and a device queued for a reprobe is
 * neither bound nor in devices_deferred (scan_devices() waits for one
 * being probed). Wait until every device is bound and none waits, or for
 * 3 s, before taking the state.
 */
static int ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The longest runtime-PM autosuspend delay of a platform device, in ms
 * (the attribute reads as an error for a device without autosuspend).
 */
static int max_autosuspend_ms(void)
{
	DIR *dir = opendir("/sys/bus/platform/devices");
	struct dirent *d;
	char path[400], *s;
	int max = 0, v;

	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/power/autosuspend_delay_ms",
			 d->d_name);
		s = read_file(path);
		if (s && sscanf(s, "%d", &v) == 1 && v > max)
			max = v;
		free(s);
	}
	if (dir)
		closedir(dir);
	return max;
}

void settle(const char *bus)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct timespec t0;
	char why[200];
	int ms = 0, waited;

	/*
	 * Up to 3 s for every device to bind; not on a whole board, where
	 * some never do (no driver, or hardware QEMU does not model).
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!getenv("eq_whole") && (ms = ms_since(&t0)) < 3000) {
		if (scan_devices(bus, 0, why, sizeof(why)) <= 0 &&
		    count_lines("/sys/kernel/debug/devices_deferred") <= 0)
			break;
		nanosleep(&tick, NULL);
	}
	/*
	 * Devices off the bus too (the PMU's clkout child): a probe queued
	 * on the workqueue shows neither as bound nor as deferred. Wait for
	 * two looks 60 ms apart that agree; on a whole board, where nothing
	 * waited above and deferred probes chain through consumers, 500 ms.
	 */
	free(look_until_same(platform_snapshot, getenv("eq_whole") ? 500 : 60, 6000 - ms, &waited));
	ms += waited;
	/*
	 * A bound consumer's runtime PM turns its clocks off after an
	 * autosuspend delay (the SPI controllers': 800 ms on 6.1, 2 s on
	 * 6.12): on a whole board, wait until the clocks agree over a time
	 * longer than any such delay.
	 */
	if (getenv("eq_whole")) {
		int delay = max_autosuspend_ms() + 500;

		if (delay < 1000)
			delay = 1000;
		free(look_until_same(clk_summary, delay, 5000 + delay, &waited));
		ms += waited;
	}
	say("# settled after %d ms", ms);
}
