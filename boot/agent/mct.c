// SPDX-License-Identifier: GPL-2.0
/*
 * The Exynos MCT before any module loads. On Exynos the architected timer
 * counts with the MCT's free-running counter, so the MCT driver (built
 * in, TIMER_OF_DECLARE) must have started that counter at time_init(),
 * whatever else is a module. QEMU virt's own timer does not need it, so
 * only the MCT's registers can tell: they are guest RAM here (the graft's
 * window), and what the driver wrote stays there.
 *
 * Only with eq_soc= and eq_mct=NODE, the MCT's node under eq_bus (the
 * host names it: the plan is made before /sys is mounted). Runs before
 * the modules suite: one result per case, and the "mct" state section.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agent.h"

#define MCT_G_TCON		0x240
#define MCT_G_TCON_START	(1u << 8)

/* Big-endian cells at *p, n of them, as one number. */
static uint64_t dt_cells(const unsigned char **p, int n)
{
	uint64_t v = 0;

	while (n-- > 0) {
		v = v << 32 | (uint32_t)((*p)[0] << 24 | (*p)[1] << 16 | (*p)[2] << 8 | (*p)[3]);
		*p += 4;
	}
	return v;
}

static int dt_read(const char *dir, const char *prop, unsigned char *buf, int size)
{
	char path[400];
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", dir, prop);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size);
	close(fd);
	return n;
}

/*
 * The MCT's register block as the CPU sees it: its "reg" in the bus's
 * cells, through the bus's "ranges" (empty: the same addresses).
 */
static uint64_t mct_address(const char *bus)
{
	char dir[128], node[256];
	unsigned char buf[64], cells[4];
	const unsigned char *p;
	int ac = 2, sc = 1, pac = 2, n;
	uint64_t addr, child, parent, size;

	snprintf(dir, sizeof(dir), "/sys/firmware/devicetree/base/%s", bus);
	if (dt_read(dir, "#address-cells", cells, 4) == 4)
		p = cells, ac = dt_cells(&p, 1);
	if (dt_read(dir, "#size-cells", cells, 4) == 4)
		p = cells, sc = dt_cells(&p, 1);
	if (dt_read("/sys/firmware/devicetree/base", "#address-cells", cells, 4) == 4)
		p = cells, pac = dt_cells(&p, 1);
	snprintf(node, sizeof(node), "%s/%s", dir, getenv("eq_mct"));
	if (dt_read(node, "reg", buf, sizeof(buf)) < 4 * ac)
		return 0;
	p = buf;
	addr = dt_cells(&p, ac);
	n = dt_read(dir, "ranges", buf, sizeof(buf));
	if (n >= 4 * (ac + pac + sc)) {
		p = buf;
		child = dt_cells(&p, ac);
		parent = dt_cells(&p, pac);
		size = dt_cells(&p, sc);
		if (addr >= child && addr - child < size)
			addr = addr - child + parent;
	}
	return addr;
}

/* The 32-bit register at physical address pa, through /dev/mem. */
static int read_reg(uint64_t pa, uint32_t *val)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t base = pa & ~(uint64_t)(page - 1);
	void *map;
	int fd = open("/dev/mem", O_RDONLY | O_SYNC);

	if (fd < 0)
		return -1;
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, base);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	*val = *(volatile uint32_t *)((char *)map + (pa - base));
	munmap(map, page);
	return 0;
}

static void mct_started(const char *bus)
{
	uint64_t pa = mct_address(bus);
	uint32_t tcon;
	char why[160];

	if (!pa || read_reg(pa + MCT_G_TCON, &tcon) < 0) {
		snprintf(why, sizeof(why), "cannot read G_TCON of %.100s through /dev/mem", getenv("eq_mct"));
		ktap_result("mct counter started before any module", why);
		return;
	}
	say("#= tcon-start %u", !!(tcon & MCT_G_TCON_START));
	if (tcon & MCT_G_TCON_START) {
		ktap_result("mct counter started before any module", NULL);
	} else {
		snprintf(why, sizeof(why), "the Exynos MCT did not start its counter: G_TCON at 0x%llx is 0x%08x",
			 (unsigned long long)pa + MCT_G_TCON, tcon);
		ktap_result("mct counter started before any module", why);
	}
}

static void mct_clocksource(const char *bus __attribute__((unused)))
{
	char *list = read_file("/sys/devices/system/clocksource/clocksource0/available_clocksource");
	int found = list && strstr(list, "mct-frc");

	say("#= clocksource mct-frc %s", found ? "registered" : "missing");
	ktap_result("mct clocksource mct-frc registered",
		    found ? NULL : "the Exynos MCT registered no clocksource");
	free(list);
}

static void (*const cases[])(const char *bus) = {
	mct_started,
	mct_clocksource,
};

int mct_count(void)
{
	return getenv("eq_soc") && getenv("eq_mct") ? ARRAY_SIZE(cases) : 0;
}

void mct_run(void)
{
	int i;

	if (!mct_count())
		return;
	section("mct", 1);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		cases[i](equiv_bus());
	section("mct", 0);
}
