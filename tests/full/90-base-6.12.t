#!/usr/bin/env bash
# The second base, Debian's linux-source-6.12, in the WORK that
# tests/90-base-6.12.t imported it into: the same SHAs from a second
# import under a hostile ~/.gitconfig, the gates that need no kernel build
# pass on every 6.12 topic, the modular integration branch boots, and it
# is equivalent to the built-in base on nine SoCs (gs101 among them).
. "$(dirname "$0")/../lib.sh"
scratch_checkout
use_work second-base tests/90-base-6.12.t "$TEST_ROOT/second-base/base-6.12/linux"
export BASE=6.12
"$T/topics.sh" >/dev/null 2>&1
"$T/integration.sh" >/dev/null 2>&1

# Reproducible on this base too: a second WORK that imports the tarball
# itself, under a hostile ~/.gitconfig, gives the same SHAs.
refs() { all_refs "$1/base-6.12/linux"; }
repro=$TEST_ROOT/repro-6.12
rm -rf "$repro"
run_tool env WORK="$repro" HOME="$(hostile_home)" sh -c '"$1/tree.sh" && "$1/topics.sh" && "$1/integration.sh"' - "$T"
check "a second import of linux-source-6.12 under a hostile ~/.gitconfig gives the same base, topic and integration SHAs" eval \
	'passed && test "$(refs "$WORK")" = "$(refs "$repro")" && test "$(refs "$WORK" | wc -l)" -ge 7'
refs "$repro" | diag
rm -rf "$repro"
GATES="checkpatch scope provenance kconfig" run_tool "$T/check.sh"
echo "$out" | grep -E '^[a-z]+ +[a-z0-9]+ +(PASS|FAIL|SKIP)' | diag
check "checkpatch, scope, provenance and kconfig pass on every 6.12 topic and integration" eval \
	'passed && has "check: PASS" && has "kconfig        soc          PASS"'

run_tool "$T/boot.sh" integration modular
check "the 6.12 integration branch builds with clocks, pin control and the PMU as modules, and boots loading them" eval \
	'passed && has "ok 6 load exynos_pmu" && has "ok 7 load pinctrl_samsung" && has "load clk-gs101" && has "boot: PASS integration modular"'

# The equivalence suite on 6.12: the synthetic SoCs and the six boards of
# 6.1, and gs101's Pixel 6 (oriole) from its own DT.
EQ_SEED=20261205 run_tool "$T/equiv.sh"
echo "$out" | grep -E '^(equiv|exynos|[a-z0-9-]+ +[0-9]+/)' | diag
# brow SOC: bound/devices, clocks, pins, deferrals, 12 orders, no unexpected difference
brow() { grep -qE "^$1 +[0-9]+/[0-9]+ +[1-9][0-9]+ +[1-9][0-9]+ +[0-9,]+ +12 +[0-9]+/0 +PASS" <<<"$out"; }
check "on 6.12, the base built in and integration modular give the same state on gs101 (oriole) and the eight SoCs of 6.1, in 12 orders" eval \
	'passed && has "equiv: PASS exynos5433 exynos850 tm2 e850-96 espresso jackpotlte sadk fsd-evb oriole" &&
	brow oriole && brow e850-96 && brow sadk && brow tm2'

# Whole boards: both kernels also build the drivers of oriole's own devices
# (derived from its DTB), and graft binds them: the USB DRD PHY, UFS and its
# PHY, the watchdog, the UART, the I2C controllers, the MCT, where QEMU
# and the register seeds let them probe.
export EQ_WHOLE=1
EQ_SEED=20261205 run_tool "$T/equiv.sh" oriole
echo "$out" | grep -E '^(equiv|board-config|oriole )' | diag
check "whole board: oriole's USB DRD PHY, UFS PHY and PMU are grafted and bound by the base and the series alike, in 12 orders" eval \
	'passed && brow oriole && grep -qE "^dev phy@1100000 bound " "$WORK/equiv/oriole/b.state" &&
	grep -qE "^dev phy@4704000 bound " "$WORK/equiv/oriole/b.state" &&
	grep -qE "^dev system-controller@7460000 bound " "$WORK/equiv/oriole/b.state"'

# The PHY/PMU race the series had: the USB DRD PHY built in, taking the PMU
# node's registers through syscon before the PMU module loads. The PMU
# driver then cannot register its regmap, and everything that waits for it
# never probes.
seed_commit soc zz-eq-usbdrd-pmu.patch "phy: exynos5-usbdrd: take the PMU regmap through syscon again" \
	"sed -i 's/^\tif (IS_ENABLED(CONFIG_EXYNOS_PMU))\$/\tif (0)/' drivers/phy/samsung/phy-exynos5-usbdrd.c &&
	sed -i '/^config PHY_EXYNOS5_USBDRD\$/,/^config /{/^\tdepends on EXYNOS_PMU || !EXYNOS_PMU\$/d}' drivers/phy/samsung/Kconfig"
rebuild_integration
EQ_SEED=20261205 run_tool "$T/equiv.sh" oriole
check "whole board: a USB PHY that takes the PMU's registers before the PMU module loads fails with the PMU's module last, naming the PMU" eval \
	'failed && has "> dev system-controller@7460000 syscon" && has "> dev phy@4704000 unbound"'
unseed soc zz-eq-usbdrd-pmu.patch
unset EQ_WHOLE
rebuild_integration

done_testing
