// SPDX-License-Identifier: GPL-2.0
/*
 * regimg: register images for QEMU's generic loader, from a readable
 * description (boot/soc/<soc>.regs). Host program, built by tools/equiv.sh.
 *
 *   regimg DESCRIPTION OUTDIR
 *
 * The description, one statement a line, '#' starts a comment:
 *   window BASE SIZE         block addresses are real SoC addresses, each
 *                            seeded at BASE + address % SIZE, where the
 *                            graft tool (boot/graft.c) moves the board's
 *                            registers; before the first block
 *   block NAME ADDRESS       start a register block at a guest address
 *   OFFSET VALUE             a 32-bit word
 *   OFFSET pll35xx M P S     PLL35xx CON0: enabled, locked, M/P/S
 *   OFFSET pll36xx M P S     PLL36xx CON0 (K goes in CON1 as a plain word)
 *   OFFSET pll0822x M P S    Exynos850 PLL0822x CON3: the PLL35xx layout
 *   OFFSET pll0831x M P S    PLL0831x CON3: the PLL36xx layout, K in CON5
 *   OFFSET pll0516x M P S    gs101's PLL0516x, PLL0517x and PLL0518x CON3:
 *   (and pll0517x, pll0518x)  the PLL0822x layout (0516x doubles the rate)
 *   OFFSET PLLTYPE M P S BITS  the same, BITS ORed in (FSD keeps the PLL's
 *                            own mux, bit 4, in its CON0)
 *   OFFSET bcd N             N (0-99) in BCD, for RTC registers
 * Each block becomes OUTDIR/NAME.bin (little endian, as long as its last
 * word), and one line "-device loader,file=...,addr=...,force-raw=on" on
 * stdout, the QEMU arguments that seed it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (0x10000 / 4)	/* 64 KiB per block */

static const char *desc;
static int lineno;

static void fail(const char *what)
{
	fprintf(stderr, "regimg: %s:%d: %s\n", desc, lineno, what);
	exit(1);
}

static unsigned long number(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	if (!s)
		fail("missing number");
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		fail("bad number");
	return v;
}

static char name[64], outdir[256];
static unsigned long base, words[MAX_WORDS];
static int nwords = -1;	/* -1: no block open */
static unsigned long win_base, win_size;	/* 0: addresses are the guest's */

static void flush_block(void)
{
	char path[400];
	unsigned char le[4];
	FILE *f;
	int i;

	if (nwords < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s.bin", outdir, name);
	f = fopen(path, "wb");
	if (!f)
		fail(strerror(errno));
	for (i = 0; i < nwords; i++) {
		le[0] = words[i];
		le[1] = words[i] >> 8;
		le[2] = words[i] >> 16;
		le[3] = words[i] >> 24;
		fwrite(le, 1, 4, f);
	}
	if (fclose(f))
		fail(strerror(errno));
	printf("-device loader,file=%s,addr=0x%lx,force-raw=on\n", path, base);
}

static int is_pll(const char *type)
{
	return !strcmp(type, "pll35xx") || !strcmp(type, "pll36xx") ||
	       !strcmp(type, "pll0822x") || !strcmp(type, "pll0831x") ||
	       !strcmp(type, "pll0516x") || !strcmp(type, "pll0517x") ||
	       !strcmp(type, "pll0518x");
}

static unsigned long pll(const char *type, char **tok)
{
	unsigned long m, p, s;

	if (strcmp(type, "pll36xx") && strcmp(type, "pll0831x"))
		m = number(tok[0], 0x3ff);	/* MDIV [25:16] */
	else
		m = number(tok[0], 0x1ff);	/* MDIV [24:16] */
	p = number(tok[1], 0x3f);		/* PDIV [13:8] */
	s = number(tok[2], 0x7);		/* SDIV [2:0] */
	if (!m || !p)
		fail("M and P must not be 0");
	return 1UL << 31 | 1UL << 29 | m << 16 | p << 8 | s;	/* enable, locked */
}

int main(int argc, char **argv)
{
	char line[256], *tok[8];
	FILE *in;

	if (argc != 3) {
		fprintf(stderr, "usage: regimg DESCRIPTION OUTDIR\n");
		return 2;
	}
	desc = argv[1];
	snprintf(outdir, sizeof(outdir), "%s", argv[2]);
	in = fopen(desc, "r");
	if (!in)
		fail(strerror(errno));
	while (fgets(line, sizeof(line), in)) {
		unsigned long off, val;
		int n = 0;

		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		for (tok[n] = strtok(line, " \t"); tok[n] && n < 7; tok[++n] = strtok(NULL, " \t"))
			;
		if (!n)
			continue;
		if (n > 6)
			fail("more than six fields");
		if (!strcmp(tok[0], "window")) {
			if (n != 3 || nwords >= 0)
				fail("want: window BASE SIZE, before the first block");
			win_base = number(tok[1], 0xffffffffUL);
			win_size = number(tok[2], 0xffffffffUL);
			if (!win_size || win_size & (win_size - 1))
				fail("window size not a power of two");
			continue;
		}
		if (!strcmp(tok[0], "block")) {
			if (n != 3 || strlen(tok[1]) >= sizeof(name))
				fail("want: block NAME ADDRESS");
			flush_block();
			snprintf(name, sizeof(name), "%s", tok[1]);
			base = number(tok[2], 0xffffffffUL);
			if (win_size)
				base = win_base + base % win_size;
			nwords = 0;
			memset(words, 0, sizeof(words));
			continue;
		}
		if (nwords < 0)
			fail("a register before the first 'block'");
		off = number(tok[0], (MAX_WORDS - 1) * 4);
		if (off % 4)
			fail("offset not 32-bit aligned");
		if (n == 2)
			val = number(tok[1], 0xffffffffUL);
		else if ((n == 5 || n == 6) && is_pll(tok[1]))
			val = pll(tok[1], tok + 2) | (n == 6 ? number(tok[5], 0xffffffffUL) : 0);
		else if (n == 3 && !strcmp(tok[1], "bcd")) {
			val = number(tok[2], 99);
			val = (val / 10) << 4 | val % 10;
		} else {
			fail("want: OFFSET VALUE | OFFSET PLLTYPE M P S [BITS] | OFFSET bcd N");
		}
		words[off / 4] = val;
		if ((int)(off / 4) + 1 > nwords)
			nwords = off / 4 + 1;
	}
	flush_block();
	fclose(in);
	return 0;
}
