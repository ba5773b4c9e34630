// SPDX-License-Identifier: GPL-2.0
/*
 * /init (PID 1) of the exynos-gki QEMU boot test. No shell, no busybox:
 * mount the pseudo filesystems, load every staged module in dependency
 * order with finit_module(2), report each step as a KTAP v1 test case on
 * the console, then power the machine off.
 *
 * To add a test: write a suite (a count function that says how many results
 * it will report, and a run function that reports exactly that many with
 * ktap_result()), and add it to the suites[] table at the bottom. Counts
 * are taken before anything runs, because the plan line comes first.
 *
 * Build: aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/rtc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* --- console and KTAP output --- */

/*
 * One write() per line: the kernel prints on the same console, and a line
 * written at once is not split by its messages.
 */
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static int ktap_next = 1, ktap_passed, ktap_failed;

/* Report one test case; why is NULL for a pass, else a short reason. */
static void ktap_result(const char *name, const char *why)
{
	if (why) {
		say("not ok %d %s # %s", ktap_next++, name, why);
		ktap_failed++;
	} else {
		say("ok %d %s", ktap_next++, name);
		ktap_passed++;
	}
}

/* A case that does not apply here: KTAP counts it as passed. */
static void ktap_skip(const char *name, const char *why)
{
	say("ok %d %s # SKIP %s", ktap_next++, name, why);
	ktap_passed++;
}

/* Without /dev/console (a custom built-in initramfs), nothing would show. */
static void setup_console(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* --- suite: mount the pseudo filesystems --- */

static const struct {
	const char *type, *dir;
} mounts[] = {
	{ "proc", "/proc" },
	{ "sysfs", "/sys" },
	{ "devtmpfs", "/dev" },
	{ "debugfs", "/sys/kernel/debug" },	/* needs /sys first */
};
#define N_MOUNTS (int)(sizeof(mounts) / sizeof(mounts[0]))

static int mounts_count(void)
{
	return N_MOUNTS;
}

static void mounts_run(void)
{
	char name[64];
	int i;

	for (i = 0; i < N_MOUNTS; i++) {
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

/* --- suite: load all modules in dependency order --- */

enum mod_state { MOD_NEW, MOD_LOADING, MOD_OK, MOD_FAILED };

struct module {
	char *path;		/* relative to the modules directory */
	char **deps;		/* paths as modules.dep gives them */
	int ndeps;
	enum mod_state state;
};

static char moddir[300];
static struct module *mods;
static int nmods;
static const char *moddep_error;	/* why modules.dep could not be read */

static char *read_file(const char *path)
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

/* modules.dep: "path: dep dep ...", one module per line. */
static int parse_modules_dep(char *text)
{
	char *line, *save_line, *tok, *save_tok, *colon;

	for (line = strtok_r(text, "\n", &save_line); line; line = strtok_r(NULL, "\n", &save_line)) {
		struct module *m;

		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		mods = realloc(mods, (nmods + 1) * sizeof(*mods));
		if (!mods)
			return -1;
		m = &mods[nmods++];
		memset(m, 0, sizeof(*m));
		m->path = line;
		for (tok = strtok_r(colon + 1, " \t", &save_tok); tok; tok = strtok_r(NULL, " \t", &save_tok)) {
			m->deps = realloc(m->deps, (m->ndeps + 1) * sizeof(*m->deps));
			if (!m->deps)
				return -1;
			m->deps[m->ndeps++] = tok;
		}
	}
	return 0;
}

static int modules_count(void)
{
	static char path[sizeof(moddir) + 16];
	struct utsname u;
	char *text;

	uname(&u);
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", u.release);
	snprintf(path, sizeof(path), "%s/modules.dep", moddir);
	text = read_file(path);
	if (!text || parse_modules_dep(text) < 0) {
		moddep_error = strerror(errno);
		return 1;	/* one failure that says why */
	}
	return nmods;
}

static struct module *find_module(const char *path)
{
	int i;

	for (i = 0; i < nmods; i++)
		if (!strcmp(mods[i].path, path))
			return &mods[i];
	return NULL;
}

/*
 * Deferred probes: the devices waiting in devices_deferred after each
 * module load, summed. The same device waiting through three loads counts
 * three: a measure of how much a load order makes drivers wait.
 */
static int deferrals;

static int count_lines(const char *path)
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

static void note_deferred(const char *after)
{
	char *text, *line, *save;
	int n = count_lines("/sys/kernel/debug/devices_deferred");

	if (n <= 0)
		return;
	say("# %d devices deferred after loading %s", n, after);
	deferrals += n;
	/* Which, and why where the kernel says: "<device>\t<reason>". */
	text = read_file("/sys/kernel/debug/devices_deferred");
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		say("#   waiting: %s", line);
	free(text);
}

/* "kernel/drivers/rtc/rtc-s3c.ko" -> "load rtc-s3c" */
static void test_name(const struct module *m, char *buf, size_t size)
{
	const char *base = strrchr(m->path, '/');
	size_t len;

	base = base ? base + 1 : m->path;
	len = strcspn(base, ".");
	snprintf(buf, size, "load %.*s", (int)len, base);
}

/*
 * Depth first: a module's dependencies are loaded (and reported) before
 * it. Each module reports exactly once, even when it fails before its
 * turn, so the count stays what modules_count() promised.
 */
/* finit_module(2) of m's file; on failure, why says which step failed. */
static int insert_module(const struct module *m, char *why, size_t size)
{
	char path[sizeof(moddir) + 256];
	int fd, ret = -1;

	snprintf(path, sizeof(path), "%s/%s", moddir, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret < 0)
		snprintf(why, size, "%s: %s", fd < 0 ? "open" : "finit_module", strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret < 0 ? -1 : 0;
}

static int load_module(struct module *m)
{
	char name[128], why[160];
	int i;

	if (m->state == MOD_OK || m->state == MOD_FAILED)
		return m->state == MOD_OK ? 0 : -1;
	if (m->state == MOD_LOADING)
		return -1;	/* a cycle: reported by its first member */
	m->state = MOD_LOADING;
	test_name(m, name, sizeof(name));

	for (i = 0; i < m->ndeps; i++) {
		struct module *dep = find_module(m->deps[i]);

		if (!dep || load_module(dep) < 0) {
			snprintf(why, sizeof(why), "%s %s", dep ? "dependency failed:" : "dependency not in modules.dep:",
				 m->deps[i]);
			m->state = MOD_FAILED;
			ktap_result(name, why);
			return -1;
		}
	}

	/* Says which module was loading if the kernel dies in its init. */
	say("# loading %s", m->path);
	if (insert_module(m, why, sizeof(why)) < 0) {
		m->state = MOD_FAILED;
	} else {
		m->state = MOD_OK;
		note_deferred(m->path);
	}
	ktap_result(name, m->state == MOD_OK ? NULL : why);
	return m->state == MOD_OK ? 0 : -1;
}

/*
 * eq_order=a,b,c on the kernel command line (it reaches PID 1 as an
 * environment variable): load modules a, b and c first, in that order,
 * each with its dependencies; the rest follow in modules.dep order.
 */
static void load_order(void)
{
	char *list, *name, *save, base[128];
	const char *order = getenv("eq_order");
	int i;

	if (!order || !*order)
		return;
	say("# module order: %s", order);
	list = strdup(order);
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nmods; i++) {
			test_name(&mods[i], base, sizeof(base));
			if (!strcmp(base + strlen("load "), name))
				break;
		}
		if (i < nmods)
			load_module(&mods[i]);
		else
			say("# module order: no module %s, ignored", name);
	}
	free(list);
}

static void modules_run(void)
{
	int i;

	if (moddep_error) {
		ktap_result("read modules.dep", moddep_error);
		return;
	}
	say("# %d modules in %s", nmods, moddir);
	load_order();
	for (i = 0; i < nmods; i++)
		load_module(&mods[i]);
}

/*
 * --- suite: deferred probes retried after init ---
 *
 * Only with reprobe=1 on the kernel command line. A deferred probe can be
 * retried at any time after boot: whenever any driver binds, e.g. on a
 * module load. Retry each device still deferred once, through the bus's
 * drivers_probe file: a probe that still lives in init memory, freed by
 * now, oopses here, where the console shows it.
 */
static int reprobe_count(void)
{
	return getenv("reprobe") ? 1 : 0;
}

/*
 * devices_deferred once it reads the same twice 100 ms apart (up to 2 s):
 * the probes that the last module load set off run from a workqueue, and
 * a device in one of them is not listed while it runs.
 */
static char *deferred_settled(void)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	char *now = read_file("/sys/kernel/debug/devices_deferred"), *then;
	int i;

	for (i = 0; now && i < 20; i++) {
		nanosleep(&tick, NULL);
		then = now;
		now = read_file("/sys/kernel/debug/devices_deferred");
		if (now && !strcmp(now, then)) {
			free(then);
			break;
		}
		free(then);
	}
	return now;
}

static void reprobe_run(void)
{
	char *text, *line, *save, *tab;
	int fd, n = 0;

	if (!reprobe_count())
		return;
	text = deferred_settled();
	if (!text) {
		ktap_result("reprobe deferred devices after init", "no devices_deferred in debugfs");
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		tab = strchr(line, '\t');
		if (tab)
			*tab = '\0';
		fd = open("/sys/bus/platform/drivers_probe", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		say("# reprobe %s: %s", line, write(fd, line, strlen(line)) < 0 ? strerror(errno) : "done");
		close(fd);
		n++;
	}
	free(text);
	if (!n)
		ktap_skip("reprobe deferred devices after init", "no device deferred");
	else
		ktap_result("reprobe deferred devices after init", NULL);
}

/*
 * --- suite: equivalence state (tools/equiv.sh) ---
 *
 * Only when the kernel command line has eq_soc=NAME: the state the Samsung
 * drivers built for a synthetic SoC (boot/soc/), reported as KTAP and
 * printed between "# equiv-begin SECTION" and "# equiv-end SECTION", one
 * "#= " line each, for the host to compare across kernels. Parameters
 * (each optional except eq_soc):
 *   eq_bus=NODE          the SoC's bus node under / (soc@5f000000)
 *   eq_soc_id=ID         the soc_id /sys/devices/soc0 must show ("none":
 *                        the board has no chipid)
 *   eq_rtc=Y-M-DTH:M:S   the time the S3C RTC must read ("none": no RTC)
 *   eq_gpio=BANK,LINE,V  a line to request through the GPIO chardev, and V
 *   eq_permanent=a,b     modules that delete_module must refuse
 */
#define EQ_CASES 9

static int equiv_count(void)
{
	return getenv("eq_soc") ? EQ_CASES : 0;
}

static void section(const char *name, int begin)
{
	say("# equiv-%s %s", begin ? "begin" : "end", name);
}

/* Print a file as state lines, each prefixed; returns its line count. */
static int dump_file(const char *path, const char *prefix)
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

static void chomp_file(const char *path, char *buf, size_t size)
{
	char *text = read_file(path);

	snprintf(buf, size, "%s", text ? text : "(unreadable)");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
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

/*
 * Each node under the SoC bus: its platform device's driver, if any.
 * Prints the "devices" section when print is set; returns the number of
 * devices without a driver (the first in why), or -1 without the bus.
 */
static int scan_devices(const char *bus, int print, char *why, size_t size)
{
	char dtdir[128], path[400], link[600];
	struct dirent *node, *dev;
	DIR *dt, *pd;
	int unbound = 0, bound = 0, early = 0;

	snprintf(dtdir, sizeof(dtdir), "/sys/firmware/devicetree/base/%s", bus);
	dt = opendir(dtdir);
	if (!dt)
		return -1;
	if (print)
		section("devices", 1);
	while ((node = readdir(dt))) {
		const char *drv = NULL;
		char drvlink[600], *status;
		const char *state;
		ssize_t n;

		if (node->d_type != DT_DIR || node->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dtdir, node->d_name);
		pd = opendir("/sys/bus/platform/devices");
		while (pd && (dev = readdir(pd))) {
			snprintf(link, sizeof(link), "/sys/bus/platform/devices/%s/of_node", dev->d_name);
			n = readlink(link, drvlink, sizeof(drvlink) - 1);
			if (n < 0)
				continue;
			drvlink[n] = '\0';
			/* ../../../firmware/devicetree/base/soc@.../node */
			if (!strstr(drvlink, "/devicetree/base/") ||
			    strcmp(strstr(drvlink, "/devicetree/base/") + 17, path + 30))
				continue;
			drv = driver_of(dev->d_name, drvlink, sizeof(drvlink));
			break;
		}
		if (pd)
			closedir(pd);
		snprintf(link, sizeof(link), "%s/status", path);
		status = read_file(link);
		if (drv && *drv) {
			state = "bound ";
			bound++;
		} else if (drv && is_syscon(path)) {
			state = "syscon";	/* looked up by its users, never bound */
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
	deferred = read_file("/sys/kernel/debug/devices_deferred");
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
static void settle(const char *bus)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	char why[200], *then, *now = NULL;
	int ms;

	for (ms = 0; ms < 3000; ms += 20) {
		if (scan_devices(bus, 0, why, sizeof(why)) <= 0 &&
		    count_lines("/sys/kernel/debug/devices_deferred") <= 0)
			break;
		nanosleep(&tick, NULL);
	}
	/*
	 * Devices off the bus too (the PMU's clkout child): a probe queued
	 * on the workqueue shows neither as bound nor as deferred. Wait for
	 * two looks 60 ms apart that agree.
	 */
	then = platform_snapshot();
	for (; ms < 6000; ms += 60) {
		nanosleep(&tick, NULL);
		nanosleep(&tick, NULL);
		nanosleep(&tick, NULL);
		now = platform_snapshot();
		if (!now || !then || !strcmp(now, then))
			break;
		free(then);
		then = now;
		now = NULL;
	}
	free(then);
	free(now);
	say("# settled after %d ms", ms);
}

static void equiv_devices(const char *bus)
{
	char why[200] = "";
	int unbound;

	settle(bus);
	unbound = scan_devices(bus, 1, why, sizeof(why));
	if (unbound < 0)
		ktap_result("equiv devices bound", "no SoC bus node in the device tree");
	else
		ktap_result("equiv devices bound", unbound ? why : NULL);
}

static void equiv_deferred(void)
{
	char why[200];
	int n = count_lines("/sys/kernel/debug/devices_deferred");

	say("# deferrals: %d", deferrals);
	if (n < 0) {
		ktap_result("equiv no deferred probe", "cannot read devices_deferred");
	} else if (n > 0) {
		dump_file("/sys/kernel/debug/devices_deferred", "deferred ");
		snprintf(why, sizeof(why), "%d devices still deferred", n);
		ktap_result("equiv no deferred probe", why);
	} else {
		ktap_result("equiv no deferred probe", NULL);
	}
}

/*
 * The kernel's messages at KERN_ERR or worse, as state: a driver that
 * reports an error in one kernel and not in the other differs, even when
 * what it registered looks the same.
 */
static void equiv_kerr(void)
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
}

static void equiv_clocks(void)
{
	int n;

	section("clk", 1);
	n = dump_file("/sys/kernel/debug/clk/clk_summary", "");
	section("clk", 0);
	ktap_result("equiv clk_summary captured", n > 2 ? NULL : "clk_summary missing or empty");
}

static void equiv_pinctrl(void)
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

static void equiv_soc(void)
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
	int fd, ret;

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/s3c-rtc/%s", how);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, dev, strlen(dev)) < 0 ? -1 : 0;
	close(fd);
	return ret;
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
static void equiv_rtc(void)
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
	say("#= rtc %s", got);
	section("rtc", 0);
	snprintf(why, sizeof(why), "read %s, seeded %s", got, want ? want : "");
	ktap_result("equiv rtc reads the seeded time", want && strcmp(got, want) ? why : NULL);
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
	char dev[256], node[300], old[300], got[64] = "", why[400] = "";
	int i;

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
	if (!*why && (rtc_read(node, got, sizeof(got)) < 0 || strcmp(got, want)))
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
	for (i = 0; i < nmods && !strstr(mods[i].path, "/rtc-s3c.ko"); i++)
		;
	*got = 0;
	/*
	 * alarmtimer pins the module of the first wakeup-capable RTC for
	 * good; boot/configs/virt.config builds in the PL031 to be that one.
	 */
	if (syscall(SYS_delete_module, "rtc_s3c", O_NONBLOCK) < 0)
		snprintf(why, sizeof(why), "delete_module rtc_s3c: %s", strerror(errno));
	else if (rtc_read(node, got, sizeof(got)) == 0)
		snprintf(why, sizeof(why), "%s still reads after removal", node);
	else if (i == nmods)
		snprintf(why, sizeof(why), "rtc-s3c.ko is not in modules.dep");
	else {
		insert_module(&mods[i], why, sizeof(why));
		settle(bus);
		rtc_node(dev, node, sizeof(node));
		if (!*why && (rtc_read(node, got, sizeof(got)) < 0 || strcmp(got, want)))
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

static void equiv_gpio(void)
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

static void equiv_permanent(void)
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

static void equiv_run(void)
{
	const char *bus = getenv("eq_bus");

	if (!getenv("eq_soc"))
		return;
	say("# equiv: soc %s", getenv("eq_soc"));
	if (!bus)
		bus = "soc@5f000000";
	equiv_devices(bus);
	equiv_deferred();
	equiv_kerr();
	equiv_clocks();
	equiv_pinctrl();
	equiv_soc();
	equiv_rtc();
	equiv_rtc_cycle(bus);
	equiv_gpio();
	equiv_permanent();
}

/* --- the test table --- */

static const struct suite {
	int (*count)(void);	/* results run() will report */
	void (*run)(void);
} suites[] = {
	{ mounts_count, mounts_run },
	{ modules_count, modules_run },
	{ reprobe_count, reprobe_run },
	{ equiv_count, equiv_run },
};
#define N_SUITES (int)(sizeof(suites) / sizeof(suites[0]))

int main(void)
{
	int i, total = 0;

	setup_console();
	say("KTAP version 1");
	for (i = 0; i < N_SUITES; i++)
		total += suites[i].count();
	say("1..%d", total);
	for (i = 0; i < N_SUITES; i++)
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
