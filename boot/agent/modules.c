// SPDX-License-Identifier: GPL-2.0
/*
 * The module suites: load every staged module in dependency order (or an
 * order given on the command line), then, on request, retry the probes
 * still deferred after init.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

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

int modules_count(void)
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

/* The module whose file is name ("rtc-s3c.ko"); NULL if none. */
const struct module *module_file(const char *name)
{
	const char *base;
	int i;

	for (i = 0; i < nmods; i++) {
		base = strrchr(mods[i].path, '/');
		if (!strcmp(base ? base + 1 : mods[i].path, name))
			return &mods[i];
	}
	return NULL;
}

/*
 * Deferred probes: the devices waiting in devices_deferred after each
 * module load, summed. The same device waiting through three loads counts
 * three: a measure of how much a load order makes drivers wait.
 */
int deferrals;

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

/* finit_module(2) of m's file; on failure, why says which step failed. */
int insert_module(const struct module *m, char *why, size_t size)
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

/*
 * m's dependencies, depth first, each loaded (and reported) before it. On
 * failure m is failed and reported, and -1 returned.
 */
static int load_module(struct module *m);

static int load_deps(struct module *m, const char *name)
{
	char why[160];
	int i;

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
	return 0;
}

/*
 * Each module reports exactly once, even when it fails before its turn, so
 * the count stays what modules_count() promised.
 */
static int load_module(struct module *m)
{
	char name[128], why[160];

	if (m->state == MOD_OK || m->state == MOD_FAILED)
		return m->state == MOD_OK ? 0 : -1;
	if (m->state == MOD_LOADING)
		return -1;	/* a cycle: reported by its first member */
	m->state = MOD_LOADING;
	test_name(m, name, sizeof(name));
	if (load_deps(m, name) < 0)
		return -1;

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

/* The module "load NAME" names; NULL if none. */
static struct module *module_named(const char *name)
{
	char base[128];
	int i;

	for (i = 0; i < nmods; i++) {
		test_name(&mods[i], base, sizeof(base));
		if (!strcmp(base + strlen("load "), name))
			return &mods[i];
	}
	say("# module order: no module %s, ignored", name);
	return NULL;
}

/*
 * A group "a+b+c" of eq_order: the members' dependencies first, one by one
 * (a member another member needs among them), then the members left at
 * once, one process each, as udev loads the modules of a boot: their
 * inits, and the deferred probes each bind triggers, overlap wherever one
 * sleeps (in parallel, given more than one CPU).
 */
#define MAX_GROUP 32

static void load_group(char *group)
{
	struct module *m[MAX_GROUP], *all[MAX_GROUP];
	char name[128], why[160], *member, *save;
	pid_t pid[MAX_GROUP];
	int nall = 0, n = 0, i, status;

	for (member = strtok_r(group, "+", &save); member && nall < MAX_GROUP; member = strtok_r(NULL, "+", &save))
		if ((all[nall] = module_named(member)))
			nall++;
	for (i = 0; i < nall; i++) {
		test_name(all[i], name, sizeof(name));
		if (all[i]->state == MOD_NEW)
			load_deps(all[i], name);
	}
	for (i = 0; i < nall; i++)
		if (all[i]->state == MOD_NEW)
			m[n++] = all[i];
	say("# loading %d modules at once", n);
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			_exit(insert_module(m[i], why, sizeof(why)) < 0 ? 1 : 0);
	}
	for (i = 0; i < n; i++) {
		test_name(m[i], name, sizeof(name));
		status = 1;
		if (pid[i] < 0 || waitpid(pid[i], &status, 0) < 0 || status) {
			m[i]->state = MOD_FAILED;
			snprintf(why, sizeof(why), "%s", pid[i] < 0 ? "fork failed" : "finit_module failed (loaded at once with others)");
		} else {
			m[i]->state = MOD_OK;
		}
		ktap_result(name, m[i]->state == MOD_OK ? NULL : why);
	}
	if (n)
		note_deferred("a group loaded at once");
}

/*
 * eq_order=a,b+c,d on the kernel command line (it reaches PID 1 as an
 * environment variable): load module a, then b and c at once, then d,
 * each with its dependencies first; the rest follow in modules.dep order.
 */
static void load_order(void)
{
	char *list, *item, *save;
	const char *order = getenv("eq_order");
	struct module *m;

	if (!order || !*order)
		return;
	say("# module order: %s", order);
	list = strdup(order);
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (strchr(item, '+'))
			load_group(item);
		else if ((m = module_named(item)))
			load_module(m);
	}
	free(list);
}

void modules_run(void)
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
int reprobe_count(void)
{
	return getenv("reprobe") ? 1 : 0;
}

void reprobe_run(void)
{
	char *text, *line, *save, *tab;
	int fd, n = 0, waited;

	if (!reprobe_count())
		return;
	/*
	 * The probes that the last module load set off run from a workqueue,
	 * and a device in one of them is not listed while it runs.
	 */
	text = look_until_same(read_deferred, 100, 2000, &waited);
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
