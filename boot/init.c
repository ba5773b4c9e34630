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
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
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
static int load_module(struct module *m)
{
	char name[128], why[160], path[sizeof(moddir) + 256];
	int i, fd;

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
	snprintf(path, sizeof(path), "%s/%s", moddir, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0) < 0) {
		snprintf(why, sizeof(why), "%s: %s", fd < 0 ? "open" : "finit_module", strerror(errno));
		m->state = MOD_FAILED;
	} else {
		m->state = MOD_OK;
	}
	if (fd >= 0)
		close(fd);
	ktap_result(name, m->state == MOD_OK ? NULL : why);
	return m->state == MOD_OK ? 0 : -1;
}

static void modules_run(void)
{
	int i;

	if (moddep_error) {
		ktap_result("read modules.dep", moddep_error);
		return;
	}
	say("# %d modules in %s", nmods, moddir);
	for (i = 0; i < nmods; i++)
		load_module(&mods[i]);
}

/* --- the test table --- */

static const struct suite {
	int (*count)(void);	/* results run() will report */
	void (*run)(void);
} suites[] = {
	{ mounts_count, mounts_run },
	{ modules_count, modules_run },
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
