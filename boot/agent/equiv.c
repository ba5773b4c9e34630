// SPDX-License-Identifier: GPL-2.0
/*
 * The equivalence suite (tools/equiv.sh). Only when the kernel command
 * line has eq_soc=NAME: the state the Samsung drivers built for the SoC,
 * reported as KTAP and printed between "# equiv-begin SECTION" and
 * "# equiv-end SECTION", one "#= " line each, for the host to compare
 * across kernels. Parameters (each optional except eq_soc):
 *   eq_bus=NODE          the SoC's bus node under / (soc@5f000000)
 *   eq_soc_id=ID         the soc_id /sys/devices/soc0 must show ("none":
 *                        the board has no chipid)
 *   eq_rtc=Y-M-DTH:M:S   the time the S3C RTC must read ("none": no RTC;
 *                        ending in '*': a prefix, for an RTC that runs)
 *   eq_gpio=BANK,LINE,V  a line to request through the GPIO chardev, and V
 *   eq_permanent=a,b     modules that delete_module must refuse
 *   eq_mct=NODE          the Exynos MCT's node under eq_bus (mct.c)
 *   eq_sleep=1           a sleep cycle, then the CMUs' registers again (sleep.c)
 *   eq_whole=1           the whole board's DT (QEMU's own Exynos machines):
 *                        devices without a driver or deferred for a supply
 *                        QEMU lacks are state to compare, not failures
 * Each case in cases[] at the bottom reports exactly one result.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/rtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"

#define UNUSED __attribute__((unused))

static void equiv_devices(const char *bus)
{
	char why[200] = "";
	int unbound;

	settle(bus);
	unbound = scan_devices(bus, 1, why, sizeof(why));
	if (unbound > 0 && getenv("eq_whole")) {
		say("# %d devices without a driver: compared with the base, not required", unbound);
		unbound = 0;
	}
	if (unbound < 0)
		ktap_result("equiv devices bound", "no SoC bus node in the device tree");
	else
		ktap_result("equiv devices bound", unbound ? why : NULL);
}

static void equiv_deferred(const char *bus UNUSED)
{
	char why[200];
	int n = count_lines("/sys/kernel/debug/devices_deferred");

	say("# deferrals: %d", deferrals);
	if (n < 0) {
		ktap_result("equiv no deferred probe", "cannot read devices_deferred");
	} else if (n > 0) {
		section("deferred", 1);
		dump_file("/sys/kernel/debug/devices_deferred", "");
		section("deferred", 0);
		snprintf(why, sizeof(why), "%d devices still deferred", n);
		ktap_result("equiv no deferred probe", getenv("eq_whole") ? NULL : why);
	} else {
		ktap_result("equiv no deferred probe", NULL);
	}
}

/*
 * The kernel's messages at KERN_ERR or worse, as state: a driver that
 * reports an error in one kernel and not in the other differs, even when
 * what it registered looks the same.
 */
static void equiv_kerr(const char *bus UNUSED)
{
	char rec[1024], *msg;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ssize_t n;

	section("kerr", 1);
	while (fd >= 0 && ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE)) {
		if (n <= 0)
			continue;	/* records overwritten: read on */
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg || (atoi(rec) & 7) > 3)
			continue;
		msg[strcspn(msg, "\n")] = 0;
		say("#= %s", msg + 1);
	}
	if (fd >= 0)
		close(fd);
	section("kerr", 0);
	ktap_result("equiv kernel errors captured", fd < 0 ? "cannot read /dev/kmsg" : NULL);
}

static void equiv_clocks(const char *bus UNUSED)
{
	int n;

	section("clk", 1);
	n = dump_file("/sys/kernel/debug/clk/clk_summary", "");
	section("clk", 0);
	ktap_result("equiv clk_summary captured", n > 2 ? NULL : "clk_summary missing or empty");
}

static void equiv_pinctrl(const char *bus UNUSED)
{
	static const char *const files[] = { "pins", "pingroups", "pinmux-functions", "gpio-ranges" };
	char path[400], prefix[300];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/debug/pinctrl");
	int ctrls = 0, i;

	section("pinctrl", 1);
	while (dir && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strstr(d->d_name, "pinctrl"))
			continue;
		ctrls++;
		for (i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/pinctrl/%s/%s", d->d_name, files[i]);
			snprintf(prefix, sizeof(prefix), "%s %s: ", d->d_name, files[i]);
			dump_file(path, prefix);
		}
	}
	if (dir)
		closedir(dir);
	section("pinctrl", 0);
	say("# pin controllers: %d", ctrls);
	ktap_result("equiv pinctrl debugfs captured", ctrls ? NULL : "no pin controller in debugfs");
}

static void equiv_soc(const char *bus UNUSED)
{
	char id[64], family[64], rev[64], why[200];
	const char *want = getenv("eq_soc_id");

	chomp_file("/sys/devices/soc0/soc_id", id, sizeof(id));
	chomp_file("/sys/devices/soc0/family", family, sizeof(family));
	chomp_file("/sys/devices/soc0/revision", rev, sizeof(rev));
	section("soc", 1);
	say("#= soc_id %s", id);
	say("#= family %s", family);
	say("#= revision %s", rev);
	section("soc", 0);
	if (want && !strcmp(want, "none")) {
		ktap_skip("equiv soc0 names the SoC", "the board has no chipid node");
		return;
	}
	snprintf(why, sizeof(why), "soc_id is '%s', expected '%s'", id, want ? want : "");
	ktap_result("equiv soc0 names the SoC", want && strcmp(id, want) ? why : NULL);
}

/* The time node (/dev/rtcN) reads, as Y-M-DTH:M:S; -1 and errno if not. */
static int rtc_read(const char *node, char *buf, size_t size)
{
	struct rtc_time t;
	int fd = open(node, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, RTC_RD_TIME, &t);
	close(fd);
	if (ret < 0)
		return -1;
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d", t.tm_year + 1900, t.tm_mon + 1,
		 t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec);
	return 0;
}

/* Writes dev to /sys/bus/platform/drivers/s3c-rtc/{bind,unbind}. */
static int rtc_bind(const char *how, const char *dev)
{
	char path[80];

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/s3c-rtc/%s", how);
	return write_file(path, dev);
}

/*
 * The /dev node of the RTC that platform device dev registered; "" if
 * none. Its number can change when the device is bound again.
 */
static void rtc_node(const char *dev, char *buf, size_t size)
{
	char path[320];
	struct dirent *e;
	DIR *d;

	*buf = 0;
	snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/rtc", dev);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "rtc", 3))
			snprintf(buf, size, "/dev/%s", e->d_name);
	if (d)
		closedir(d);
}

/* The platform device s3c-rtc is bound to, in dev; "" if none. */
static void s3c_rtc_dev(char *dev, size_t size)
{
	struct dirent *e;
	DIR *d = opendir("/sys/bus/platform/drivers/s3c-rtc");

	*dev = 0;
	while (d && (e = readdir(d)))
		if (e->d_type == DT_LNK && strcmp(e->d_name, "module"))
			snprintf(dev, size, "%s", e->d_name);
	if (d)
		closedir(d);
}

/* The S3C RTC, not rtc0: that is the PL031 of the virt board. */
/*
 * Whether an RTC reading matches eq_rtc: the same time, or for a prefix
 * ("2026-01-01T00:0*": a running RTC started at a known time) the same
 * start. The state is the reading, or the prefix it matched.
 */
static const char *rtc_matches(const char *got, const char *want)
{
	size_t n = strlen(want);

	if (n && want[n - 1] == '*')
		return strncmp(got, want, n - 1) ? NULL : want;
	return strcmp(got, want) ? NULL : got;
}

static void equiv_rtc(const char *bus UNUSED)
{
	char dev[256], node[300], got[64], why[400];
	const char *want = getenv("eq_rtc");

	if (want && !strcmp(want, "none")) {
		ktap_skip("equiv rtc reads the seeded time", "the board has no S3C RTC");
		return;
	}
	s3c_rtc_dev(dev, sizeof(dev));
	rtc_node(dev, node, sizeof(node));
	if (rtc_read(node, got, sizeof(got)) < 0) {
		snprintf(why, sizeof(why), "%s: %s", *node ? node : "s3c-rtc registered no RTC", strerror(errno));
		ktap_result("equiv rtc reads the seeded time", why);
		return;
	}
	section("rtc", 1);
	say("#= rtc %s", want && rtc_matches(got, want) ? rtc_matches(got, want) : got);
	section("rtc", 0);
	snprintf(why, sizeof(why), "read %s, seeded %s", got, want ? want : "");
	ktap_result("equiv rtc reads the seeded time", want && !rtc_matches(got, want) ? why : NULL);
}

/*
 * The RTC driver's life cycle after boot: unbind and bind again, then, if
 * it is a module, remove and load it again. After each, the RTC must go
 * away and come back with the seeded time.
 */
static void equiv_rtc_cycle(const char *bus)
{
	static const char test[] = "equiv rtc survives unbind, bind and module reload";
	const char *want = getenv("eq_rtc");
	const struct module *m = module_file("rtc-s3c.ko");
	char dev[256], node[300], old[300], got[64] = "", why[400] = "";
	long removed;

	if (want && !strcmp(want, "none")) {
		ktap_skip(test, "the board has no S3C RTC");
		return;
	}
	s3c_rtc_dev(dev, sizeof(dev));
	if (!*dev || !want) {
		ktap_result(test, *dev ? "no eq_rtc to compare with" : "s3c-rtc has no device bound");
		return;
	}
	rtc_node(dev, old, sizeof(old));
	if (rtc_bind("unbind", dev) < 0)
		snprintf(why, sizeof(why), "unbind %s: %s", dev, strerror(errno));
	else if (rtc_read(old, got, sizeof(got)) == 0)
		snprintf(why, sizeof(why), "%s still reads after unbind", old);
	else if (rtc_bind("bind", dev) < 0)
		snprintf(why, sizeof(why), "bind %s: %s", dev, strerror(errno));
	rtc_node(dev, node, sizeof(node));
	if (!*why && (rtc_read(node, got, sizeof(got)) < 0 || !rtc_matches(got, want)))
		snprintf(why, sizeof(why), "after bind, %s: %s", *node ? node : "no rtc node",
			 *got ? got : strerror(errno));
	if (!*why)
		say("# %s unbound (%s) and bound again (%s)", dev, old, node);
	if (*why || access("/sys/module/rtc_s3c/initstate", F_OK)) {
		if (!*why)
			say("# rtc-s3c is built in: unbind and bind only");
		ktap_result(test, *why ? why : NULL);
		return;
	}
	*got = 0;
	/*
	 * alarmtimer pins the module of the first wakeup-capable RTC for
	 * good; boot/configs/virt.config builds in the PL031 to be that one.
	 */
	removed = syscall(SYS_delete_module, "rtc_s3c", O_NONBLOCK);
	if (removed < 0 && errno == EWOULDBLOCK && getenv("eq_whole"))
		/* A whole board whose only wakeup RTC it is: pinned, as on silicon. */
		say("# rtc_s3c is in use (alarmtimer takes the first wakeup RTC): unbind and bind only");
	else if (removed < 0)
		snprintf(why, sizeof(why), "delete_module rtc_s3c: %s", strerror(errno));
	else if (rtc_read(node, got, sizeof(got)) == 0)
		snprintf(why, sizeof(why), "%s still reads after removal", node);
	else if (!m)
		snprintf(why, sizeof(why), "rtc-s3c.ko is not in modules.dep");
	else {
		insert_module(m, why, sizeof(why));
		settle(bus);
		rtc_node(dev, node, sizeof(node));
		if (!*why && (rtc_read(node, got, sizeof(got)) < 0 || !rtc_matches(got, want)))
			snprintf(why, sizeof(why), "after reload, %s: %s", *node ? node : "no rtc node",
				 *got ? got : strerror(errno));
		if (!*why)
			say("# rtc_s3c removed and loaded again (%s)", node);
	}
	ktap_result(test, *why ? why : NULL);
}

/* The chip whose label is bank, through /dev/gpiochipN; -1 if none. */
static int open_gpiochip(const char *bank)
{
	struct gpiochip_info info;
	char path[32];
	int i, fd;

	for (i = 0; i < 512; i++) {
		snprintf(path, sizeof(path), "/dev/gpiochip%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) == 0 && !strcmp(info.label, bank))
			return fd;
		close(fd);
	}
	return -1;
}

static void equiv_gpio(const char *bus UNUSED)
{
	struct gpio_v2_line_request req;
	struct gpio_v2_line_values vals;
	char bank[32], why[160];
	const char *spec = getenv("eq_gpio");
	unsigned int line, want;
	int fd;

	if (!spec || sscanf(spec, "%31[^,],%u,%u", bank, &line, &want) != 3) {
		ktap_skip("equiv gpio line reads", "no eq_gpio=BANK,LINE,VALUE");
		return;
	}
	fd = open_gpiochip(bank);
	if (fd < 0) {
		snprintf(why, sizeof(why), "no GPIO chip labelled %s", bank);
		ktap_result("equiv gpio line reads", why);
		return;
	}
	memset(&req, 0, sizeof(req));
	req.offsets[0] = line;
	req.num_lines = 1;
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT;
	snprintf(req.consumer, sizeof(req.consumer), "exynos-gki");
	memset(&vals, 0, sizeof(vals));
	vals.mask = 1;
	if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &req) < 0 ||
	    ioctl(req.fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &vals) < 0) {
		snprintf(why, sizeof(why), "%s line %u: %s", bank, line, strerror(errno));
		close(fd);
		ktap_result("equiv gpio line reads", why);
		return;
	}
	close(req.fd);
	close(fd);
	section("gpio", 1);
	say("#= %s-%u %u", bank, line, (unsigned int)(vals.bits & 1));
	section("gpio", 0);
	snprintf(why, sizeof(why), "%s-%u reads %u, seeded %u", bank, line, (unsigned int)(vals.bits & 1), want);
	ktap_result("equiv gpio line reads", (vals.bits & 1) != want ? why : NULL);
}

/*
 * delete_module() on a module that must stay: EWOULDBLOCK while other
 * modules use it (clk-samsung under the SoC drivers), EBUSY for a module
 * with an init but no exit function (the SoC drivers, on purpose).
 */
static int permanent_errno(const char *name)
{
	char path[200];
	struct dirent *d;
	DIR *dir;
	int used = 0;

	snprintf(path, sizeof(path), "/sys/module/%s/holders", name);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		used |= d->d_name[0] != '.';
	if (dir)
		closedir(dir);
	return used ? EWOULDBLOCK : EBUSY;
}

static void equiv_permanent(const char *bus UNUSED)
{
	const char *list = getenv("eq_permanent");
	char *copy, *name, *save, *c, why[200] = "";
	int want;

	if (!list || !*list) {
		ktap_skip("equiv clock modules refuse removal", "no clock modules in this kernel");
		return;
	}
	copy = strdup(list);
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		for (c = name; *c; c++)
			if (*c == '-')
				*c = '_';
		want = permanent_errno(name);
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0) {
			if (!*why)
				snprintf(why, sizeof(why), "%s was removed", name);
		} else if (errno != want) {
			if (!*why)
				snprintf(why, sizeof(why), "%s: %s, expected %s", name, strerror(errno),
					 strerror(want));
		} else {
			say("# delete_module %s: %s, as designed", name, strerror(errno));
		}
	}
	free(copy);
	ktap_result("equiv clock modules refuse removal", *why ? why : NULL);
}

static void (*const cases[])(const char *bus) = {
	equiv_devices,		/* first: it waits for the probes to settle */
	equiv_deferred,
	equiv_kerr,
	equiv_clocks,
	equiv_pinctrl,
	equiv_soc,
	equiv_rtc,
	equiv_rtc_cycle,
	equiv_gpio,
	equiv_sleep,
	equiv_permanent,	/* last: it may remove modules */
};

int equiv_count(void)
{
	return getenv("eq_soc") ? ARRAY_SIZE(cases) : 0;
}

const char *equiv_bus(void)
{
	return getenv("eq_bus") ? getenv("eq_bus") : "soc@5f000000";
}

void equiv_run(void)
{
	int i;

	if (!getenv("eq_soc"))
		return;
	say("# equiv: soc %s", getenv("eq_soc"));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		cases[i](equiv_bus());
}
