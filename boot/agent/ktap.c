// SPDX-License-Identifier: GPL-2.0
/* Console output and KTAP v1 results. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"

/*
 * One write() per line: the kernel prints on the same console, and a line
 * written at once is not split by its messages.
 */
void say(const char *fmt, ...)
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

int ktap_next = 1, ktap_passed, ktap_failed;

/* Report one test case; why is NULL for a pass, else a short reason. */
void ktap_result(const char *name, const char *why)
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
void ktap_skip(const char *name, const char *why)
{
	say("ok %d %s # SKIP %s", ktap_next++, name, why);
	ktap_passed++;
}

/* Without /dev/console (a custom built-in initramfs), nothing would show. */
void setup_console(void)
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
