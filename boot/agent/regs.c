// SPDX-License-Identifier: GPL-2.0
/*
 * A device's registers as the CPU sees them: its node's "reg" through the
 * bus's "ranges", read through /dev/mem. In the graft's windows they are
 * guest RAM outside the linear map, which STRICT_DEVMEM lets /dev/mem map.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agent.h"

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
	char path[480];
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", dir, prop);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size);
	close(fd);
	return n;
}

static int dt_cell_prop(const char *dir, const char *prop, int dflt)
{
	unsigned char cells[4];
	const unsigned char *p = cells;

	return dt_read(dir, prop, cells, 4) == 4 ? (int)dt_cells(&p, 1) : dflt;
}

uint64_t dt_node_reg(const char *bus, const char *node, uint64_t *size)
{
	char dir[128], path[400];
	unsigned char buf[64];
	const unsigned char *p;
	int ac, sc, pac, n;
	uint64_t addr, child, parent, len;

	snprintf(dir, sizeof(dir), "/sys/firmware/devicetree/base/%s", bus);
	ac = dt_cell_prop(dir, "#address-cells", 2);
	sc = dt_cell_prop(dir, "#size-cells", 1);
	pac = dt_cell_prop("/sys/firmware/devicetree/base", "#address-cells", 2);
	snprintf(path, sizeof(path), "%s/%s", dir, node);
	if (dt_read(path, "reg", buf, sizeof(buf)) < 4 * (ac + sc))
		return 0;
	p = buf;
	addr = dt_cells(&p, ac);
	*size = dt_cells(&p, sc);
	n = dt_read(dir, "ranges", buf, sizeof(buf));
	if (n >= 4 * (ac + pac + sc)) {
		p = buf;
		child = dt_cells(&p, ac);
		parent = dt_cells(&p, pac);
		len = dt_cells(&p, sc);
		if (addr >= child && addr - child < len)
			addr = addr - child + parent;
	}
	return addr;
}

int read_regs(uint64_t pa, uint32_t *val, size_t words)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t base = pa & ~(uint64_t)(page - 1);
	size_t len = pa - base + words * 4, i;
	volatile uint32_t *r;
	void *map;
	int fd = open("/dev/mem", O_RDONLY | O_SYNC);

	if (fd < 0)
		return -1;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, base);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	r = (volatile uint32_t *)((char *)map + (pa - base));
	for (i = 0; i < words; i++)
		val[i] = r[i];
	munmap(map, len);
	return 0;
}
