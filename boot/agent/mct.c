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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#define MCT_G_TCON		0x240
#define MCT_G_TCON_START	(1u << 8)

static void mct_started(const char *bus)
{
	uint64_t size, pa = dt_node_reg(bus, getenv("eq_mct"), &size);
	uint32_t tcon;
	char why[160];

	if (!pa || read_regs(pa + MCT_G_TCON, &tcon, 1) < 0) {
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
