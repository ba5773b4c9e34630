// SPDX-License-Identifier: GPL-2.0
/*
 * graft: put the SoC nodes of a real board's DTB into QEMU virt's own DT.
 *
 *   graft [-w BASE:SIZE] [-s SPI-RANGES] QEMU.dtb BOARD.dtb COMPAT-LIST OUT.dtb
 *
 * COMPAT-LIST names, one per line, the compatibles the drivers under test
 * bind (tools/equiv.sh takes them from the modules.alias of the build).
 * Every board node with one of them is copied with all its properties and
 * subnodes, and so is each fixed clock, fixed regulator and syscon those
 * reference through a known phandle property. Then:
 *  - each "reg" entry, and that of each memory-mapped subnode, moves into
 *    a window of guest RAM, reserved no-map here (default: the top 256 MiB
 *    of virt's 512 MiB at 0x50000000). The new address is the CPU address
 *    modulo the window size, so a register description written with the
 *    real addresses maps the same way. A node whose registers would leave
 *    the window, or overlap another's at a different real address, is
 *    not grafted;
 *  - GIC SPIs are renumbered into free SPIs of QEMU's GIC (default
 *    48-111,176-223: around virt's platform-bus lines);
 *  - the board's phandles are moved above QEMU's; a reference to the
 *    board's GIC becomes one to QEMU's; a property that refers to a node
 *    not grafted is dropped, and a node whose "clocks" are dropped is
 *    disabled (its driver could not probe);
 *  - aliases that name a grafted node are added, rewritten to its new path;
 *  - each grafted clock provider gets a consumer at the root, a fixed-factor
 *    clock "consumer-<node>" of the first of its clocks a board node uses,
 *    else of its clock 1;
 *  - QEMU's own timer node is moved in front of the board's (the MCT).
 * Everything not grafted or dropped is reported on stderr with the reason;
 * stdout gets one row per moved register block: node, old, new address.
 * Exit status: 0, 1 on bad input, 2 on usage.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 4096
#define MAX_COMPAT 1024
#define MAX_IRQ 1024

static const void *board;
static void *out;
static uint64_t win_base = 0x50000000, win_size = 0x10000000;
/* Free SPIs of QEMU virt's GIC: above virtio-mmio, around platform-bus. */
static const char *spi_ranges = "48-111,176-223";
static unsigned int free_spi[MAX_IRQ];
static int nfree;

static char *compat[MAX_COMPAT];
static int ncompat;

/* A board node grafted with its subnodes: selected, or pulled in by one. */
struct node {
	int off;
	const char *why;	/* why it is not grafted after all */
};
static struct node nodes[MAX_NODES];
static int nnodes;

struct block {
	int off;
	uint64_t addr, size, naddr;
};
static struct block blocks[MAX_NODES];
static int nblocks;

static uint32_t qemu_gic, phandle_shift;
static unsigned int irq_old[MAX_IRQ], irq_new[MAX_IRQ];
static int nirq;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("graft: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	void *buf;

	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		die("%s: cannot read", path);
	fclose(f);
	if (fdt_check_header(buf))
		die("%s: not a DTB", path);
	return buf;
}

static struct node *node_of(int off)
{
	for (int i = 0; i < nnodes; i++)
		if (nodes[i].off == off)
			return &nodes[i];
	return NULL;
}

static struct node *add_node(int off)
{
	struct node *n = node_of(off);

	if (n)
		return n;
	if (nnodes == MAX_NODES)
		die("more than %d nodes", MAX_NODES);
	n = &nodes[nnodes++];
	n->off = off;
	n->why = NULL;
	return n;
}

static const char *path_of(const void *fdt, int off)
{
	static char buf[4][512];
	static int i;
	char *p = buf[i++ % 4];

	if (fdt_get_path(fdt, off, p, 512))
		strcpy(p, "?");
	return p;
}

static int compat_wanted(int off)
{
	int len, i;
	const char *c = fdt_getprop(board, off, "compatible", &len);

	for (; c && len > 0; len -= strlen(c) + 1, c += strlen(c) + 1)
		for (i = 0; i < ncompat; i++)
			if (!strcmp(c, compat[i]))
				return 1;
	return 0;
}

static int is_compatible(const void *fdt, int off, const char *pattern)
{
	int len;
	const char *c = fdt_getprop(fdt, off, "compatible", &len);

	for (; c && len > 0; len -= strlen(c) + 1, c += strlen(c) + 1)
		if (!fnmatch(pattern, c, 0))
			return 1;
	return 0;
}

static int is_gic(const void *fdt, int off)
{
	return is_compatible(fdt, off, "arm,gic-*") ||
	       is_compatible(fdt, off, "arm,cortex-a15-gic");
}

/* The grafted node that contains OFF, or NULL. */
static struct node *grafted_owner(int off)
{
	for (int o = off; o >= 0; o = fdt_parent_offset(board, o)) {
		struct node *n = node_of(o);

		if (n && !n->why)
			return n;
	}
	return NULL;
}

static uint32_t cells_of(int off, const char *name, uint32_t dflt)
{
	const fdt32_t *p = fdt_getprop(board, off, name, NULL);

	return p ? fdt32_to_cpu(*p) : dflt;
}

/*
 * Phandle properties: NAME holds phandles, each followed by as many cells
 * as the target's CELLS property says or, without CELLS, FIXED cells;
 * FIXED -1: one phandle, then arguments to the end (a syscon and its
 * register offset).
 */
static const struct {
	const char *name;
	const char *cells;
	int fixed;
} refprops[] = {
	{ "clocks", "#clock-cells", 0 },
	{ "assigned-clocks", "#clock-cells", 0 },
	{ "assigned-clock-parents", "#clock-cells", 0 },
	{ "power-domains", "#power-domain-cells", 0 },
	{ "resets", "#reset-cells", 0 },
	{ "phys", "#phy-cells", 0 },
	{ "dmas", "#dma-cells", 0 },
	{ "iommus", "#iommu-cells", 0 },
	{ "interrupts-extended", "#interrupt-cells", 0 },
	{ "interrupt-parent", NULL, 0 },
	{ "samsung,pmu-syscon", NULL, -1 },
	{ "samsung,sysreg", NULL, 1 },
	{ "syscon", NULL, 0 },
	{ "pinctrl-[0-9]*", NULL, 0 },
	{ "*-supply", NULL, 0 },
	{ "samsung,syscon-phandle", NULL, 0 },
	{ "regmap", NULL, 0 },
	{ "gpio", "#gpio-cells", 0 },
	{ "gpios", "#gpio-cells", 0 },
	{ "*-gpios", "#gpio-cells", 0 },
	{ "interrupt-affinity", NULL, 0 },
};

static int refprop(const char *name)
{
	for (size_t i = 0; i < sizeof(refprops) / sizeof(refprops[0]); i++)
		if (!fnmatch(refprops[i].name, name, 0))
			return i;
	return -1;
}

/*
 * Walk the phandles of property NAME (of node OFF): call FN for each
 * target, with the index of the phandle cell. Returns 0, or the first
 * nonzero FN result.
 */
typedef int (*ref_fn)(int target, int cell, void *arg);
static int for_each_ref(int off, const char *name, const fdt32_t *v, int len,
			ref_fn fn, void *arg)
{
	int k = refprop(name), n = len / 4, i = 0, r;

	if (k < 0)
		return 0;
	while (i < n) {
		uint32_t ph = fdt32_to_cpu(v[i]);
		int target = ph ? fdt_node_offset_by_phandle(board, ph) : -1;
		int args = refprops[k].fixed < 0 ? n - i - 1 : refprops[k].fixed;

		if (ph && target < 0)
			die("%s: %s refers to unknown phandle %u",
			    path_of(board, off), name, ph);
		if (refprops[k].cells && target >= 0)
			args = cells_of(target, refprops[k].cells, 0);
		if (ph) {
			r = fn(target, i, arg);
			if (r)
				return r;
		}
		i += 1 + args;
	}
	return 0;
}

/*
 * Dependencies: a referenced fixed clock, fixed regulator or syscon. Other
 * providers (a PMIC's clock cells on I2C) have no driver that binds them
 * here.
 */
static int pull_dep(int target, int cell, void *arg)
{
	int *added = arg;

	(void)cell;
	if (grafted_owner(target) || is_gic(board, target) || node_of(target))
		return 0;
	if (is_compatible(board, target, "fixed-clock") ||
	    is_compatible(board, target, "fixed-factor-clock") ||
	    is_compatible(board, target, "regulator-fixed") ||
	    is_compatible(board, target, "syscon")) {
		add_node(target);
		(*added)++;
	}
	return 0;
}

/* FN for every phandle reference in the subtree of OFF. */
static void walk_refs(int off, ref_fn fn, void *arg)
{
	int p, len, child;
	const char *name;
	const fdt32_t *v;

	fdt_for_each_property_offset(p, board, off) {
		v = fdt_getprop_by_offset(board, p, &name, &len);
		for_each_ref(off, name, v, len, fn, arg);
	}
	fdt_for_each_subnode(child, board, off)
		walk_refs(child, fn, arg);
}

static void select_nodes(void)
{
	int off, added;

	for (off = fdt_next_node(board, -1, NULL); off >= 0;
	     off = fdt_next_node(board, off, NULL))
		if (compat_wanted(off) && !grafted_owner(off))
			add_node(off);
	do {
		added = 0;
		for (int i = 0; i < nnodes; i++)
			walk_refs(nodes[i].off, pull_dep, &added);
	} while (added);
}

/* The CPU address of ADDR in the address space of node BUS's children. */
static uint64_t cpu_addr(int bus, uint64_t addr)
{
	while (bus > 0) {
		int parent = fdt_parent_offset(board, bus), len, i;
		uint32_t ca = cells_of(bus, "#address-cells", 2);
		uint32_t pa = cells_of(parent, "#address-cells", 2);
		uint32_t sc = cells_of(bus, "#size-cells", 1);
		const fdt32_t *r = fdt_getprop(board, bus, "ranges", &len);

		if (!r)
			die("%s: no ranges", path_of(board, bus));
		if (len) {
			int w = ca + pa + sc, hit = 0;

			for (i = 0; i + w <= len / 4; i += w) {
				uint64_t c = 0, p = 0, s = 0;

				for (uint32_t j = 0; j < ca; j++)
					c = c << 32 | fdt32_to_cpu(r[i + j]);
				for (uint32_t j = 0; j < pa; j++)
					p = p << 32 | fdt32_to_cpu(r[i + ca + j]);
				for (uint32_t j = 0; j < sc; j++)
					s = s << 32 | fdt32_to_cpu(r[i + ca + pa + j]);
				if (addr >= c && addr - c < s) {
					addr = addr - c + p;
					hit = 1;
					break;
				}
			}
			if (!hit)
				die("%s: 0x%" PRIx64 " outside its ranges",
				    path_of(board, bus), addr);
		}
		bus = parent;
	}
	return addr;
}

/*
 * Place the reg entries of OFF in the window. Returns NULL, or why they
 * cannot be placed.
 */
static const char *place_node(int off)
{
	static char why[600];
	int bus = fdt_parent_offset(board, off), len, first = nblocks;
	uint32_t ac = cells_of(bus, "#address-cells", 2);
	uint32_t sc = cells_of(bus, "#size-cells", 1);
	const fdt32_t *r = fdt_getprop(board, off, "reg", &len);

	for (int e = 0; r && e + (int)(ac + sc) <= len / 4; e += ac + sc) {
		uint64_t a = 0, s = 0, cpu, o;

		for (uint32_t j = 0; j < ac; j++)
			a = a << 32 | fdt32_to_cpu(r[e + j]);
		for (uint32_t j = 0; j < sc; j++)
			s = s << 32 | fdt32_to_cpu(r[e + ac + j]);
		cpu = cpu_addr(bus, a);
		o = cpu % win_size;
		if (o + s > win_size) {
			nblocks = first;
			return "its registers would cross the end of the window";
		}
		for (int b = 0; b < first; b++) {
			/* The same real registers may be shared. */
			if (o < blocks[b].naddr + blocks[b].size &&
			    blocks[b].naddr < o + s &&
			    cpu / win_size != blocks[b].addr / win_size) {
				snprintf(why, sizeof(why),
					 "its registers at 0x%" PRIx64 " would overlap those of %s",
					 cpu, path_of(board, blocks[b].off));
				nblocks = first;
				return why;
			}
		}
		if (nblocks == MAX_NODES)
			die("more than %d register blocks", MAX_NODES);
		blocks[nblocks++] = (struct block){ off, cpu, s, o };
	}
	return NULL;
}

/*
 * Place the grafted nodes with registers, and their memory-mapped
 * descendants (children of a node with "ranges"), in the window.
 */
static void place_tree(int off, struct node *n)
{
	int child, bus = fdt_parent_offset(board, off);
	const char *why = NULL;

	if (fdt_getprop(board, off, "reg", NULL) &&
	    (off == n->off || fdt_getprop(board, bus, "ranges", NULL)))
		why = place_node(off);
	if (why && off == n->off) {
		n->why = why;
		fprintf(stderr, "graft: not grafted: %s: %s\n", path_of(board, off), why);
		return;
	}
	if (why)
		die("%s: %s", path_of(board, off), why);
	fdt_for_each_subnode(child, board, off)
		place_tree(child, n);
}

static void place(void)
{
	for (int i = 0; i < nnodes; i++)
		place_tree(nodes[i].off, &nodes[i]);
}

static int placed(int off)
{
	for (int b = 0; b < nblocks; b++)
		if (blocks[b].off == off)
			return 1;
	return 0;
}

/*
 * A selected node without registers goes to the root, where QEMU's DT may
 * have its own of that name (psci, timer): QEMU's stays, for the machine
 * it describes.
 */
static void keep_qemu_own(const void *qemu)
{
	for (int i = 0; i < nnodes; i++) {
		struct node *n = &nodes[i];
		const char *name = fdt_get_name(board, n->off, NULL);

		if (n->why || placed(n->off) || fdt_subnode_offset(qemu, 0, name) < 0)
			continue;
		n->why = "QEMU's DT has its own node of that name";
		fprintf(stderr, "graft: not grafted: %s: %s\n", path_of(board, n->off), n->why);
	}
}

static void parse_spis(void)
{
	const char *p = spi_ranges;
	unsigned int lo, hi;
	int k;

	while (sscanf(p, "%u-%u%n", &lo, &hi, &k) == 2 && lo <= hi) {
		for (; lo <= hi && nfree < MAX_IRQ; lo++)
			free_spi[nfree++] = lo;
		p += k;
		if (*p != ',')
			break;
		p++;
	}
	if (*p)
		die("bad SPI ranges %s", spi_ranges);
}

static unsigned int new_spi(unsigned int spi)
{
	int i;

	for (i = 0; i < nirq; i++)
		if (irq_old[i] == spi)
			return irq_new[i];
	if (nirq == nfree)
		die("the board has more SPIs than the %d free ones (%s)",
		    nfree, spi_ranges);
	irq_old[nirq] = spi;
	irq_new[nirq] = free_spi[nirq];
	return irq_new[nirq++];
}

/* The interrupt parent of board node OFF. */
static int irq_parent(int off)
{
	for (int o = off; o >= 0; o = fdt_parent_offset(board, o)) {
		const fdt32_t *p = fdt_getprop(board, o, "interrupt-parent", NULL);

		if (p)
			return fdt_node_offset_by_phandle(board, fdt32_to_cpu(*p));
	}
	return -1;
}

struct refcheck {
	const char *missing;
};

static int ref_missing(int target, int cell, void *arg)
{
	struct refcheck *rc = arg;

	(void)cell;
	if (is_gic(board, target) || grafted_owner(target))
		return 0;
	rc->missing = path_of(board, target);
	return 1;
}

/* ARG is the copy of the property: its phandle at CELL is rewritten. */
static int ref_rewrite(int target, int cell, void *arg)
{
	fdt32_t *v = arg;

	if (is_gic(board, target))
		v[cell] = cpu_to_fdt32(qemu_gic);
	else
		v[cell] = cpu_to_fdt32(fdt32_to_cpu(v[cell]) + phandle_shift);
	return 0;
}

static void check(int err, const char *what)
{
	if (err < 0)
		die("%s: %s", what, fdt_strerror(err));
}

static void copy_props(int boff, int ooff)
{
	int p, len, disable = 0;
	const char *name;
	const fdt32_t *v;

	fdt_for_each_property_offset(p, board, boff) {
		fdt32_t *nv;

		v = fdt_getprop_by_offset(board, p, &name, &len);
		nv = malloc(len + 8);
		memcpy(nv, v, len);
		if (!strcmp(name, "phandle") || !strcmp(name, "linux,phandle")) {
			nv[0] = cpu_to_fdt32(fdt32_to_cpu(v[0]) + phandle_shift);
		} else if (!strcmp(name, "reg") && placed(boff)) {
			int n = 0;

			for (int b = 0; b < nblocks; b++) {
				if (blocks[b].off != boff)
					continue;
				nv[n++] = cpu_to_fdt32(blocks[b].naddr);
				nv[n++] = cpu_to_fdt32(blocks[b].size);
				printf("%-60s 0x%09" PRIx64 " 0x%08" PRIx64 "\n",
				       path_of(board, boff), blocks[b].addr,
				       win_base + blocks[b].naddr);
			}
			len = n * 4;
		} else if (!strcmp(name, "interrupts")) {
			int parent = irq_parent(boff);

			/*
			 * GIC SPIs are renumbered; a grafted controller's cells
			 * stay. QEMU's GIC takes 3 cells; a GICv3 with PPI
			 * partitions (gs101) takes a 4th, the partition, which is
			 * 0 for SPIs: it is dropped.
			 */
			if (parent >= 0 && is_gic(board, parent)) {
				int n = cells_of(parent, "#interrupt-cells", 3), k = 0;

				for (int i = 0; n >= 3 && i + n <= len / 4; i += n) {
					nv[k++] = v[i];
					nv[k++] = fdt32_to_cpu(v[i]) ? v[i + 1] :
						cpu_to_fdt32(new_spi(fdt32_to_cpu(v[i + 1])));
					nv[k++] = v[i + 2];
				}
				len = k * 4;
			}
		} else if (refprop(name) >= 0) {
			struct refcheck rc = { NULL };

			if (for_each_ref(boff, name, v, len, ref_missing, &rc)) {
				/* A device without its clock inputs cannot probe. */
				disable |= !strcmp(name, "clocks");
				fprintf(stderr, "graft: %s: %s %s: refers to %s, not grafted\n",
					strcmp(name, "clocks") ? "dropped" : "disabled",
					path_of(board, boff), name, rc.missing);
				free(nv);
				continue;
			}
			for_each_ref(boff, name, v, len, ref_rewrite, nv);
		}
		check(fdt_setprop(out, ooff, name, nv, len), name);
		free(nv);
	}
	if (disable)
		check(fdt_setprop_string(out, ooff, "status", "disabled"), "status");
}

static char container[64];

/* The new name of a grafted node: its unit address becomes the new one. */
static void new_name(int off, char *buf, size_t n)
{
	const char *name = fdt_get_name(board, off, NULL);
	const char *at = strchr(name, '@');

	for (int b = 0; b < nblocks; b++)
		if (blocks[b].off == off) {
			snprintf(buf, n, "%.*s@%" PRIx64, (int)(at ? at - name : (long)strlen(name)),
				 name, blocks[b].naddr);
			return;
		}
	snprintf(buf, n, "%s", name);
}

/* The path in OUT of board node BOFF, inside a grafted node. */
static int out_path(int boff, char *buf, size_t n)
{
	struct node *g = grafted_owner(boff);
	char nm[256];

	if (!g)
		return -1;
	new_name(boff, nm, sizeof(nm));
	if (boff != g->off) {
		if (out_path(fdt_parent_offset(board, boff), buf, n))
			return -1;
	} else if (placed(boff)) {
		snprintf(buf, n, "/%s", container);
	} else {
		buf[0] = 0;
	}
	if (strlen(buf) + strlen(nm) + 2 > n)
		return -1;
	strcat(buf, "/");
	strcat(buf, nm);
	return 0;
}

/* Copy the subnodes of BOFF below OUT's node at OPATH, recursively. */
static void copy_subtree(int boff, const char *opath)
{
	int child;
	char cpath[1024], nm[256];

	fdt_for_each_subnode(child, board, boff) {
		new_name(child, nm, sizeof(nm));
		check(fdt_add_subnode(out, fdt_path_offset(out, opath), nm), nm);
		snprintf(cpath, sizeof(cpath), "%s/%s", opath, nm);
		copy_props(child, fdt_path_offset(out, cpath));
		copy_subtree(child, cpath);
	}
}

static void graft(void)
{
	int root, res, off, len;
	const fdt32_t *ip;
	uint32_t cells[4];
	char path[1024];

	ip = fdt_getprop(out, 0, "interrupt-parent", NULL);
	if (!ip)
		die("QEMU's DT has no interrupt-parent at its root");
	qemu_gic = fdt32_to_cpu(*ip);
	check(fdt_find_max_phandle(out, &phandle_shift), "phandles");

	/* The register window, reserved so that Linux leaves it alone. */
	res = fdt_path_offset(out, "/reserved-memory");
	if (res < 0) {
		res = fdt_add_subnode(out, 0, "reserved-memory");
		check(res, "reserved-memory");
		check(fdt_setprop_u32(out, res, "#address-cells", 2), "cells");
		check(fdt_setprop_u32(out, res, "#size-cells", 2), "cells");
		check(fdt_setprop(out, res, "ranges", NULL, 0), "ranges");
	}
	snprintf(path, sizeof(path), "graft-registers@%" PRIx64, win_base);
	off = fdt_add_subnode(out, res, path);
	check(off, path);
	cells[0] = cpu_to_fdt32(win_base >> 32);
	cells[1] = cpu_to_fdt32(win_base);
	cells[2] = cpu_to_fdt32(win_size >> 32);
	cells[3] = cpu_to_fdt32(win_size);
	check(fdt_setprop(out, off, "reg", cells, 16), "reg");
	check(fdt_setprop(out, off, "no-map", NULL, 0), "no-map");

	snprintf(container, sizeof(container), "soc@%" PRIx64, win_base);
	root = fdt_add_subnode(out, 0, container);
	check(root, container);
	check(fdt_setprop_string(out, root, "compatible", "simple-bus"), "bus");
	check(fdt_setprop_u32(out, root, "#address-cells", 1), "cells");
	check(fdt_setprop_u32(out, root, "#size-cells", 1), "cells");
	cells[0] = 0;
	cells[1] = cpu_to_fdt32(win_base >> 32);
	cells[2] = cpu_to_fdt32(win_base);
	cells[3] = cpu_to_fdt32(win_size);
	check(fdt_setprop(out, root, "ranges", cells, 16), "ranges");

	for (int i = 0; i < nnodes; i++) {
		struct node *n = &nodes[i];
		char nm[256];

		if (n->why)
			continue;
		new_name(n->off, nm, sizeof(nm));
		snprintf(path, sizeof(path), "/%s", container);
		off = fdt_add_subnode(out, placed(n->off) ? fdt_path_offset(out, path) : 0, nm);
		if (off == -FDT_ERR_EXISTS)
			die("%s: a node %s is already there", path_of(board, n->off), nm);
		check(off, nm);
		copy_props(n->off, off);
		check(out_path(n->off, path, sizeof(path)), "path");
		copy_subtree(n->off, path);
	}

	/* Aliases of grafted nodes, pinctrlN above all: the driver needs them. */
	off = fdt_path_offset(board, "/aliases");
	if (off >= 0) {
		int p, ao = fdt_path_offset(out, "/aliases");

		if (ao < 0)
			ao = fdt_add_subnode(out, 0, "aliases");
		check(ao, "aliases");
		fdt_for_each_property_offset(p, board, off) {
			const char *name, *val = fdt_getprop_by_offset(board, p, &name, &len);
			int t = fdt_path_offset(board, val);

			if (t < 0 || !grafted_owner(t) || out_path(t, path, sizeof(path)))
				continue;
			ao = fdt_path_offset(out, "/aliases");
			check(fdt_setprop_string(out, ao, name, path), name);
		}
	}
}

struct use {
	int target, cell;
};

static int find_use(int target, int cell, void *arg)
{
	struct use *u = arg;

	if (target != u->target)
		return 0;
	u->cell = cell;
	return 1;
}

/*
 * A consumer for each grafted clock provider: a fixed-factor clock (its
 * driver is in every kernel) of the first of its clocks that another node
 * of the board uses (else of clock 1), so that each provider is looked up
 * through a phandle and its rate read, whenever its driver comes.
 */
static void add_consumers(void)
{
	char name[300];
	fdt32_t spec[8];

	for (int i = 0; i < nnodes; i++) {
		int ctl = nodes[i].off, cells = cells_of(ctl, "#clock-cells", 0), off, len, c, o;
		uint32_t ph;
		struct use u = { ctl, -1 };
		const fdt32_t *v = NULL;
		const char *base = fdt_get_name(board, ctl, NULL);

		if (nodes[i].why || !placed(ctl) || !fdt_getprop(board, ctl, "#clock-cells", NULL) ||
		    cells > 7)
			continue;
		for (off = fdt_next_node(board, -1, NULL); off >= 0 && u.cell < 0;
		     off = fdt_next_node(board, off, NULL)) {
			v = off == ctl ? NULL : fdt_getprop(board, off, "clocks", &len);
			if (v && !for_each_ref(off, "clocks", v, len, find_use, &u))
				u.cell = -1;
			if (u.cell >= 0)
				break;
		}
		if (u.cell >= 0) {
			for (c = 1; c <= cells; c++)
				spec[c] = v[u.cell + c];
		} else if (cells == 1) {
			/* Unused by the board: Samsung's clock IDs start at 1. */
			spec[1] = cpu_to_fdt32(1);
		} else {
			fprintf(stderr, "graft: no consumer: %s: no node of the board uses its clocks\n",
				path_of(board, ctl));
			continue;
		}
		/* A provider nothing referred to has no phandle yet. */
		check(out_path(ctl, name, sizeof(name)), "path");
		o = fdt_path_offset(out, name);
		check(o, name);
		ph = fdt_get_phandle(out, o);
		if (!ph) {
			check(fdt_generate_phandle(out, &ph), "phandle");
			check(fdt_setprop_u32(out, o, "phandle", ph), "phandle");
		}
		spec[0] = cpu_to_fdt32(ph);
		snprintf(name, sizeof(name), "consumer-%s", base);
		c = fdt_add_subnode(out, 0, name);
		check(c, name);
		check(fdt_setprop_string(out, c, "compatible", "fixed-factor-clock"), name);
		check(fdt_setprop_u32(out, c, "#clock-cells", 0), name);
		check(fdt_setprop_u32(out, c, "clock-div", 1), name);
		check(fdt_setprop_u32(out, c, "clock-mult", 1), name);
		check(fdt_setprop(out, c, "clocks", spec, 4 * (cells + 1)), name);
		check(fdt_setprop_string(out, c, "clock-output-names", name), name);
		fprintf(stderr, "graft: consumer: %s takes clock %u of %s, %s%s\n", name,
			cells ? fdt32_to_cpu(spec[1]) : 0, path_of(board, ctl),
			u.cell >= 0 ? "as does " : "the first ID: no node of the board uses it",
			u.cell >= 0 ? path_of(board, off) : "");
	}
}

static void usage(void)
{
	fputs("usage: graft [-w BASE:SIZE] [-s SPI-RANGES] QEMU.dtb BOARD.dtb COMPAT-LIST OUT.dtb\n",
	      stderr);
	exit(2);
}

/*
 * The kernel sets up timers in the order of their nodes in the DT, and a
 * new node goes in front of its siblings: the board's timers (the Exynos
 * MCT) would come before QEMU's architected timer, and the MCT's local
 * timer would become CPU 0's tick device. Its registers are RAM here,
 * whose write-status handshake lasts only one write. QEMU's own timer
 * node is therefore added again, last, so that it comes first, and the
 * MCT's local timers stay unused, as on silicon, whose architected timer
 * ranks above them too.
 */
static void qemu_timer_first(const void *qemu)
{
	int qoff = fdt_path_offset(qemu, "/timer"), p, len, off;
	const char *name;
	const void *v;

	if (qoff < 0)
		return;
	check(fdt_del_node(out, fdt_path_offset(out, "/timer")), "/timer");
	off = fdt_add_subnode(out, 0, "timer");
	check(off, "/timer");
	fdt_for_each_property_offset(p, qemu, qoff) {
		v = fdt_getprop_by_offset(qemu, p, &name, &len);
		check(fdt_setprop(out, off, name, v, len), name);
	}
}

int main(int argc, char **argv)
{
	const void *qemu;
	char line[256];
	FILE *f;
	int i = 1, size;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-w") &&
		    sscanf(argv[i + 1], "%" SCNx64 ":%" SCNx64, &win_base, &win_size) == 2)
			continue;
		if (!strcmp(argv[i], "-s")) {
			spi_ranges = argv[i + 1];
			continue;
		}
		usage();
	}
	if (argc - i != 4 || !win_size || win_size & (win_size - 1))
		usage();
	parse_spis();
	qemu = load(argv[i]);
	board = load(argv[i + 1]);
	f = fopen(argv[i + 2], "r");
	if (!f)
		die("%s: %s", argv[i + 2], strerror(errno));
	while (fgets(line, sizeof(line), f) && ncompat < MAX_COMPAT) {
		line[strcspn(line, "\n")] = 0;
		if (*line && *line != '#')
			compat[ncompat++] = strdup(line);
	}
	fclose(f);
	if (!ncompat)
		die("%s: no compatibles", argv[i + 2]);

	select_nodes();
	place();
	keep_qemu_own(qemu);

	size = fdt_totalsize(qemu) + 2 * fdt_totalsize(board) + 65536;
	out = malloc(size);
	check(fdt_open_into(qemu, out, size), argv[i]);
	graft();
	add_consumers();
	qemu_timer_first(qemu);
	check(fdt_pack(out), "pack");

	f = fopen(argv[i + 3], "wb");
	if (!f || fwrite(out, 1, fdt_totalsize(out), f) != fdt_totalsize(out) || fclose(f))
		die("%s: cannot write", argv[i + 3]);
	return 0;
}
